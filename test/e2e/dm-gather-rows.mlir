// hlo.gather of one row per index with at least 256 positions: the clamped
// source byte offsets are computed by the VPU (a vreg of 1024 indices at a
// time in VMEM), go to SMEM in blocks of 1024 through two halves, and each
// row is then one SLD and one DMA (unrolled by 32). Random s32 indices in
// [-8, 7] times 3 ([-24, 21]): out of range on both sides (clamped as XLA
// does) and, for the 17-row tables, in three tile rows of 8 (a tiled row
// dim when the table has two tile columns: f32[17,130]). f32, bf16 and s32
// tables; rows not a multiple of 8, widths not a multiple of 128; 1100
// positions (two blocks, the last ragged), 2048 (two full blocks), 3000 in
// a [1000,3] batch (three blocks), 300 from a rank-1 index array (one).
// Pure data movement: compared bit for bit (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --fusion=off -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 5 | FileCheck %s
// CHECK: result0: ok shape=[1100, 130]
// CHECK: result1: ok shape=[2048, 8]
// CHECK: result2: ok shape=[1000, 3, 50]
// CHECK: result3: ok shape=[300, 8]
// CHECK: result4: ok shape=[1100, 40]
//
// The code shape of the f32[17,130] gather (a tiled row dim: offset =
// (x >> 3) * 8192 + (x & 7) * 512 after the clamp to [0, 16]), then its 1100
// rows: one SLD and one DMA each, 32 per trip.
// RUN: tpuc compile %s --fusion=off --emit=tpu -o %t/t.mlir
// RUN: FileCheck %s --check-prefix=SHAPE < %t/t.mlir
// SHAPE:      tpu.loop
// SHAPE:        tpu.vload
// SHAPE:        tpu.vmax
// SHAPE:        tpu.vmin
// SHAPE:        tpu.vshra
// SHAPE:        tpu.vand
// SHAPE:        tpu.vmul
// SHAPE:        tpu.vmul
// SHAPE:        tpu.vadd
// SHAPE:        tpu.vstore
// SHAPE:      tpu.dma {{.*}} chunk_bytes = 4096 {{.*}}vmem{{.*}} -> {{.*}}smem
// SHAPE:      tpu.dma {{.*}} chunk_bytes = 304 {{.*}}vmem{{.*}} -> {{.*}}smem
// SHAPE:      tpu.loop %{{.*}} = 0 to %c32 {
// SHAPE-COUNT-32: tpu.sload
// SHAPE-NOT:    arith.maxsi
// SHAPE:      }

func.func @main(%wide: tensor<17x130xf32>, %ids: tensor<1100x1xi32>,
                %narrow: tensor<17x8xbf16>, %ids2: tensor<2048xi32>,
                %t3: tensor<17x50xi32>, %ids3: tensor<1000x3xi32>,
                %small: tensor<5x8xf32>, %ids4: tensor<300xi32>,
                %w2: tensor<17x40xf32>)
    -> (tensor<1100x130xf32>, tensor<2048x8xbf16>, tensor<1000x3x50xi32>,
        tensor<300x8xf32>, tensor<1100x40xf32>) {
  %k1 = hlo.constant dense<3> : tensor<1100x1xi32>
  %i1 = hlo.multiply %ids, %k1 : tensor<1100x1xi32>
  %k2 = hlo.constant dense<3> : tensor<2048xi32>
  %i2 = hlo.multiply %ids2, %k2 : tensor<2048xi32>
  %k3 = hlo.constant dense<3> : tensor<1000x3xi32>
  %i3 = hlo.multiply %ids3, %k3 : tensor<1000x3xi32>
  %0 = hlo.gather %wide, %i1, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 130] : (tensor<17x130xf32>, tensor<1100x1xi32>) -> tensor<1100x130xf32>
  %1 = hlo.gather %narrow, %i2, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 8] : (tensor<17x8xbf16>, tensor<2048xi32>) -> tensor<2048x8xbf16>
  %2 = hlo.gather %t3, %i3, dims = <offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, sizes = [1, 50] : (tensor<17x50xi32>, tensor<1000x3xi32>) -> tensor<1000x3x50xi32>
  %3 = hlo.gather %small, %ids4, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 8] : (tensor<5x8xf32>, tensor<300xi32>) -> tensor<300x8xf32>
  %4 = hlo.gather %w2, %i1, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 40] : (tensor<17x40xf32>, tensor<1100x1xi32>) -> tensor<1100x40xf32>
  return %0, %1, %2, %3, %4 : tensor<1100x130xf32>, tensor<2048x8xbf16>, tensor<1000x3x50xi32>, tensor<300x8xf32>, tensor<1100x40xf32>
}
