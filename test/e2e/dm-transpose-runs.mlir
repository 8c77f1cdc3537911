// hlo.transpose whose minor dim moves, walked along the axis that stays
// linear longest on both sides: [M,N,B] -> [B,M,N] with small N (DLRM's
// interaction result, [6,6,3616] -> [3616,6,6]) copies runs of up to 128
// B-indices per DMA (the operand's lanes to one result tile each), not one
// DMA of N elements per (b, m). Ragged B (300: runs of 128, 128, 44), a
// rank-4 form, f32, s32 and bf16. Pure data movement: compared bit for bit
// (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --fusion=off -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=2 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=2 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 4 | FileCheck %s
// RUN: tpuc compile %s --fusion=off --emit=tpu -o %t/t.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/t.mlir
// CHECK: result0: ok shape=[300, 6, 6]
// CHECK: result1: ok shape=[300, 6, 6]
// CHECK: result2: ok shape=[300, 6, 6]
// CHECK: result3: ok shape=[200, 2, 5, 3]
// Result 0: a loop over (m, n) of three DMAs of 128, 128 and 44 chunks of
// one f32, 4 bytes apart in the operand's lanes, one 4 KiB tile apart in
// the result.
// TPU: tpu.dma {{.*}} chunks = 128 chunk_bytes = 4 src_stride = 4 dst_stride = 4096
// TPU: tpu.dma {{.*}} chunks = 44 chunk_bytes = 4 src_stride = 4 dst_stride = 4096
// TPU-NOT: chunks = 6 chunk_bytes = 4

func.func @main(%a: tensor<6x6x300xf32>, %b: tensor<6x6x300xi32>,
                %c: tensor<6x6x300xbf16>, %d: tensor<2x3x5x200xf32>)
    -> (tensor<300x6x6xf32>, tensor<300x6x6xi32>, tensor<300x6x6xbf16>,
        tensor<200x2x5x3xf32>) {
  %0 = hlo.transpose %a, dims = [2, 0, 1] : (tensor<6x6x300xf32>) -> tensor<300x6x6xf32>
  %1 = hlo.transpose %b, dims = [2, 0, 1] : (tensor<6x6x300xi32>) -> tensor<300x6x6xi32>
  %2 = hlo.transpose %c, dims = [2, 0, 1] : (tensor<6x6x300xbf16>) -> tensor<300x6x6xbf16>
  %3 = hlo.transpose %d, dims = [3, 0, 2, 1] : (tensor<2x3x5x200xf32>) -> tensor<200x2x5x3xf32>
  return %0, %1, %2, %3 : tensor<300x6x6xf32>, tensor<300x6x6xi32>, tensor<300x6x6xbf16>, tensor<200x2x5x3xf32>
}
