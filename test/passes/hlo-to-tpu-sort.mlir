// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu | FileCheck %s

// sort along the minor dim (Sort.cpp): the 8x128 block is transposed so
// each row lies along sublanes, NaNs are mapped to sort last, a bitonic
// network of compare (vcmp) and select (vsel) stages runs on the VPU, and
// the block is transposed back.
// CHECK-LABEL: func.func @main
// CHECK: %[[OUT:.+]] = tpu.alloc {{.*}}memref<8x128xf32
// CHECK: tpu.dma %arg0{{.*}} chunk_bytes = 4096
// CHECK-NEXT: tpu.sem_wait 0, 1
// CHECK: tpu.vtranspose
// CHECK: tpu.vcmp ne
// CHECK-COUNT-16: tpu.vcmp lt
// CHECK: tpu.vsel
// CHECK: tpu.vtranspose
// CHECK: tpu.dma %{{.+}} -> %[[OUT]]
// CHECK: return %[[OUT]]
func.func @main(%arg0: tensor<8x128xf32>) -> (tensor<8x128xf32>) {
  %0 = hlo.sort(%arg0) dim = 1 : (tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %1 = hlo.compare LT, %arg1, %arg2 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %1 : tensor<i1>
  }
  return %0 : tensor<8x128xf32>
}

