// Copies whose box has a one-index axis between two others: concatenating
// [B,1,K] pieces into [B,N,K] (DLRM's interaction input) is one DMA of B
// chunks of K elements per piece (a tile apart in the result), not B DMAs;
// likewise a slice keeping one row of the middle dim. Ragged B (300), f32,
// s32 and bf16. Pure data movement: compared bit for bit (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --fusion=off -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=2 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=2 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 4 | FileCheck %s
// RUN: tpuc compile %s --fusion=off --emit=tpu -o %t/t.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/t.mlir
// CHECK: result0: ok shape=[300, 3, 8]
// CHECK: result1: ok shape=[300, 3, 8]
// CHECK: result2: ok shape=[300, 3, 8]
// CHECK: result3: ok shape=[300, 1, 8]
// Each f32 piece: 300 rows of 32 bytes, one 4 KiB tile apart on both
// sides (each b is a tile of the piece and of the result).
// TPU: tpu.dma {{.*}} chunks = 300 chunk_bytes = 32 src_stride = 4096 dst_stride = 4096
// TPU-NOT: chunks = 1 chunk_bytes = 32 src_stride

func.func @main(%a: tensor<300x1x8xf32>, %b: tensor<300x1x8xf32>,
                %c: tensor<300x1x8xi32>, %d: tensor<300x1x8xbf16>,
                %e: tensor<300x3x8xf32>)
    -> (tensor<300x3x8xf32>, tensor<300x3x8xi32>, tensor<300x3x8xbf16>,
        tensor<300x1x8xf32>) {
  %0 = hlo.concatenate(%a, %b, %a) dim = 1 : (tensor<300x1x8xf32>, tensor<300x1x8xf32>, tensor<300x1x8xf32>) -> tensor<300x3x8xf32>
  %1 = hlo.concatenate(%c, %c, %c) dim = 1 : (tensor<300x1x8xi32>, tensor<300x1x8xi32>, tensor<300x1x8xi32>) -> tensor<300x3x8xi32>
  %2 = hlo.concatenate(%d, %d, %d) dim = 1 : (tensor<300x1x8xbf16>, tensor<300x1x8xbf16>, tensor<300x1x8xbf16>) -> tensor<300x3x8xbf16>
  %3 = hlo.slice %e [0:300:1, 1:2:1, 0:8:1] : (tensor<300x3x8xf32>) -> tensor<300x1x8xf32>
  return %0, %1, %2, %3 : tensor<300x3x8xf32>, tensor<300x3x8xi32>, tensor<300x3x8xbf16>, tensor<300x1x8xf32>
}
