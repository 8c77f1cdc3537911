// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu | FileCheck %s

// Data-dependent addressing (Gather.cpp): the indices go HBM -> SMEM and
// are read by scalar loads (tpu.sload) that compute each row's DMA
// offset. gather: one 512-byte row DMA per index. scatter (add): the
// operand is copied to the result, then per index the target row and the
// update row go to VMEM, are added, and the sum goes back.
// dynamic_slice / dynamic_update_slice: the start index by the same SMEM
// path, then row DMAs (the update after a copy of the operand).
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[T:[^:]+]]: memref<64x128xf32, {{.+}}>, %[[I:[^:]+]]: memref<8x1xi32, {{.+}}>, %[[U:[^:]+]]: memref<8x128xf32, {{.+}}>, %[[K:[^:]+]]: memref<i32, {{.+}}>)
// CHECK: %[[G:.+]] = tpu.alloc {{.*}}memref<8x128xf32
// CHECK: %[[SMEM:.+]] = tpu.alloc {tpuc.index_smem}
// CHECK: %[[S:.+]] = tpu.alloc {{.*}}memref<64x128xf32
// CHECK: %[[DS:.+]] = tpu.alloc {{.*}}memref<8x128xf32
// CHECK: %[[DUS:.+]] = tpu.alloc {{.*}}memref<64x128xf32
// gather
// CHECK: tpu.dma %[[I]]{{.*}} chunks = 8 chunk_bytes = 4 src_stride = 512
// The row gather walks its indices 8 at a time: its 8 are one unrolled step.
// CHECK: tpu.dma %{{.+}} -> %[[SMEM]]
// CHECK-NOT: tpu.loop
// CHECK: tpu.sload %[[SMEM]]
// CHECK-COUNT-8: tpu.dma %[[T]][%{{.+}}] -> %[[G]][%{{.+}}] chunks = 1 chunk_bytes = 512
// CHECK-NOT: tpu.loop
// CHECK: tpu.sem_wait 3, 8
// scatter
// CHECK: tpu.dma %[[T]][%{{.+}}] -> %[[S]][%{{.+}}] chunks = 1 chunk_bytes = 32768
// CHECK: tpu.loop
// CHECK: tpu.loop
// CHECK: tpu.dma %[[S]]
// CHECK: tpu.dma %[[U]]
// CHECK: tpu.vadd
// CHECK: tpu.dma %{{.+}} -> %[[S]]
// dynamic_slice
// CHECK: tpu.dma %[[K]]{{.*}} -> %[[SMEM]]{{.*}} chunk_bytes = 4
// CHECK: tpu.sload %[[SMEM]]
// The dynamic start is on the row dim of a one-tile-column array, linear:
// one DMA of the 8 rows at the clamped start.
// CHECK-NOT: tpu.loop
// CHECK: tpu.dma %[[T]][%{{.+}}] -> %[[DS]][%{{.+}}] chunks = 8 chunk_bytes = 512
// dynamic_update_slice
// CHECK: tpu.dma %[[K]]{{.*}} -> %[[SMEM]]
// CHECK: tpu.sload %[[SMEM]]
// CHECK: tpu.dma %[[T]][%{{.+}}] -> %[[DUS]][%{{.+}}] chunks = 1 chunk_bytes = 32768
// CHECK-NOT: tpu.loop
// CHECK: tpu.dma %[[U]][%{{.+}}] -> %[[DUS]]{{.*}} chunks = 8 chunk_bytes = 512
// CHECK: return %[[G]], %[[S]], %[[DS]], %[[DUS]]
func.func @main(%arg0: tensor<64x128xf32>, %arg1: tensor<8x1xi32>, %arg2: tensor<8x128xf32>, %arg3: tensor<i32>) -> (tensor<8x128xf32>, tensor<64x128xf32>, tensor<8x128xf32>, tensor<64x128xf32>) {
  %0 = hlo.constant dense<0> : tensor<i32>
  %1 = hlo.gather %arg0, %arg1, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 128] : (tensor<64x128xf32>, tensor<8x1xi32>) -> tensor<8x128xf32>
  %2 = hlo.scatter(%arg0) at %arg1 updates(%arg2), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<64x128xf32>, tensor<8x1xi32>, tensor<8x128xf32>) -> tensor<64x128xf32> {
  ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
    %5 = hlo.add %arg4, %arg5 : tensor<f32>
    hlo.return %5 : tensor<f32>
  }
  %3 = hlo.dynamic_slice %arg0, [%arg3, %0], sizes = [8, 128] : (tensor<64x128xf32>, tensor<i32>, tensor<i32>) -> tensor<8x128xf32>
  %4 = hlo.dynamic_update_slice %arg0, %arg2, [%arg3, %0] : (tensor<64x128xf32>, tensor<8x128xf32>, tensor<i32>, tensor<i32>) -> tensor<64x128xf32>
  return %1, %2, %3, %4 : tensor<8x128xf32>, tensor<64x128xf32>, tensor<8x128xf32>, tensor<64x128xf32>
}

