// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu | FileCheck %s

// Collectives (Collective.cpp) on a 4-device slice: each becomes one tpu
// collective between HBM buffers, with its groups (replica_groups
// resolved to device ids), its reduction and its dimension; the device
// grid goes on the module for the serializer.
// CHECK: module @collectives4 attributes {{{.*}}tpu.num_partitions = 4 : i64{{.*}}tpu.replica_count = 1 : i64
// CHECK-LABEL: func.func @e
// CHECK: %[[AR:.+]] = tpu.alloc {{.*}}memref<8x128xf32
// CHECK: %[[AG:.+]] = tpu.alloc {{.*}}memref<32x128xf32
// CHECK: %[[RS:.+]] = tpu.alloc {{.*}}memref<2x128xf32
// CHECK: %[[A2A:.+]] = tpu.alloc {{.*}}memref<8x128xf32
// CHECK: %[[CP:.+]] = tpu.alloc {{.*}}memref<8x128xf32
// CHECK: tpu.all_reduce %arg0 -> %[[AR]] {groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>, reduce = "add"{{(, tpu.step = 1 : i64)?}}}
// CHECK-NEXT: tpu.all_gather %arg0 -> %[[AG]] {dimension = 0 : i64, groups = dense<{{\[\[}}0, 1, 2, 3]]>
// CHECK-NEXT: tpu.reduce_scatter %arg0 -> %[[RS]] {dimension = 0 : i64, {{.*}}reduce = "add"{{(, tpu.step = 3 : i64)?}}}
// CHECK-NEXT: tpu.all_to_all %arg0 -> %[[A2A]] {dimension = 0 : i64
// CHECK-NEXT: tpu.collective_permute %arg0 -> %[[CP]] {pairs = dense<{{\[\[}}3, 0], [0, 1], [1, 2], [2, 3]]>
// CHECK-NEXT: return %[[AR]], %[[AG]], %[[RS]], %[[A2A]], %[[CP]]
module @collectives4 attributes {hlo.num_partitions = 4 : i64, tpu.slice = "tpu-v4-8", tpuc.target = {name = "tpu-v4"}} {
  func.func @e(%arg0: tensor<8x128xf32>) -> (tensor<8x128xf32>, tensor<32x128xf32>, tensor<2x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>) {
    %0 = hlo.all_reduce(%arg0) {channel_id = 1 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids} : (tensor<8x128xf32>) -> tensor<8x128xf32> {
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %5 = hlo.add %arg1, %arg2 : tensor<f32>
      hlo.return %5 : tensor<f32>
    }
    %1 = hlo.all_gather %arg0, dim = 0 {channel_id = 2 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids} : (tensor<8x128xf32>) -> tensor<32x128xf32>
    %2 = hlo.reduce_scatter %arg0, dim = 0 {channel_id = 3 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids} : (tensor<8x128xf32>) -> tensor<2x128xf32> {
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %5 = hlo.add %arg1, %arg2 : tensor<f32>
      hlo.return %5 : tensor<f32>
    }
    %3 = hlo.all_to_all %arg0, dim = 0 {channel_id = 4 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : tensor<8x128xf32>
    %4 = hlo.collective_permute %arg0 {channel_id = 5 : i64, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>} : tensor<8x128xf32>
    return %0, %1, %2, %3, %4 : tensor<8x128xf32>, tensor<32x128xf32>, tensor<2x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>
  }
}

