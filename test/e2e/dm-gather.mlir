// hlo.gather, f32, with random s32 indices in [-8, 7] (clamped as XLA
// does): embedding rows (dlrm, graphsage), a column gather with
// offset_dims={0} (graphsage's gather.11), a 2-D batch of indices with an
// implicit index vector dim, and a 2-element index vector.
// Pure data movement: compared bit for bit (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --fusion=off -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 4 | FileCheck %s
// CHECK: result0: ok shape=[1100, 8]
// CHECK: result1: ok shape=[37, 15]
// CHECK: result2: ok shape=[3, 4, 9, 130]
// CHECK: result3: ok shape=[6, 5]
// Row gathers of up to a vreg's elements are unrolled: with 1100 positions
// the source offsets come from the VPU (dm-gather-rows.mlir) and a row is
// an SLD and a DMA, 32 per trip: the block of 1024 indices is 32 trips of
// 32 DMAs; the last 76 are 2 trips, then 12 inline (the last 4: rows
// 1096..1099 at 1096 * 512 bytes on).
// RUN: tpuc compile %s --fusion=off --emit=tpu -o %t/t.mlir
// RUN: FileCheck %s --check-prefix=UNROLL < %t/t.mlir
// UNROLL:         tpu.loop %{{.*}} = 0 to %c32 {
// UNROLL-COUNT-32:  tpu.dma %arg0
// UNROLL:         tpu.loop %{{.*}} = 0 to %c2 {
// UNROLL-COUNT-32:  tpu.dma %arg0
// UNROLL:         tpu.dma %arg0[%{{.*}}] -> %{{.*}}[%c561152]
// UNROLL:         tpu.dma %arg0[%{{.*}}] -> %{{.*}}[%c561664]
// UNROLL:         tpu.dma %arg0[%{{.*}}] -> %{{.*}}[%c562176]
// UNROLL:         tpu.dma %arg0[%{{.*}}] -> %{{.*}}[%c562688]
// UNROLL-NOT:     tpu.dma %arg0

func.func @main(%table: tensor<10x8xf32>, %ids: tensor<1100x1xi32>,
                %cols: tensor<37x12xf32>, %cid: tensor<15x1xi32>,
                %t3: tensor<6x9x130xf32>, %ids2: tensor<3x4xi32>,
                %t2: tensor<9x30xf32>, %pairs: tensor<6x2xi32>)
    -> (tensor<1100x8xf32>, tensor<37x15xf32>, tensor<3x4x9x130xf32>,
        tensor<6x5xf32>) {
  %0 = hlo.gather %table, %ids, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 8] : (tensor<10x8xf32>, tensor<1100x1xi32>) -> tensor<1100x8xf32>
  %1 = hlo.gather %cols, %cid, dims = <offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, sizes = [37, 1] : (tensor<37x12xf32>, tensor<15x1xi32>) -> tensor<37x15xf32>
  %2 = hlo.gather %t3, %ids2, dims = <offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, sizes = [1, 9, 130] : (tensor<6x9x130xf32>, tensor<3x4xi32>) -> tensor<3x4x9x130xf32>
  %3 = hlo.gather %t2, %pairs, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, sizes = [1, 5] : (tensor<9x30xf32>, tensor<6x2xi32>) -> tensor<6x5xf32>
  return %0, %1, %2, %3 : tensor<1100x8xf32>, tensor<37x15xf32>, tensor<3x4x9x130xf32>, tensor<6x5xf32>
}
