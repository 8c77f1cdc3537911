// A bf16 rank-1 per-row vector [300] broadcast along the rows of a ragged
// [300,200] operand (300 rows: not a multiple of 8; 200 columns: not a
// multiple of 128) is streamed with the loop kernel's blocks (RowStream,
// FusedKernel.cpp): 8 bf16 elements (16 bytes) per tile row, one DMA of
// 19 tile rows (304 bytes) per block, read one element per sublane by a
// vload with a sublane stride of 2 bytes. Before, bf16 per-row vectors
// took their own lane-broadcast kernel.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/f.tpu.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/f.tpu.mlir
// IR: tpu.dma %arg1[%c0{{.*}}] -> %[[BUF:[0-9]+]][{{.*}}] chunks = 1 chunk_bytes = 304 {{.*}} memref<300xbf16
// Each slot takes whole 4 KiB VMEM pages (the scoreboard's), so the next
// block's fetch never holds up this block's row loads: %r's slot 1 at 4096,
// %s's slots at 8192 and 12288 (before: 560, 1120 and 1680).
// IR: tpu.dma %arg1[%c304] -> %[[BUF]][%c4096] chunks = 1 chunk_bytes = 304
// IR: tpu.dma %arg2[%c304{{.*}}] -> %[[BUF]][%c12288] chunks = 1 chunk_bytes = 304
// IR: tpu.vload %[[BUF]][{{.*}}] sublane_stride = 2 : memref<{{.*}}xbf16
// The subtract is IEEE-exact with its bf16 result rounded once: bit-exact.
// RUN: tpuc translate --tpu-to-executable %t/f.tpu.mlir -o %t/f.tpx
// RUN: tpuc-run %t/f.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 2 0 | FileCheck %s
// CHECK: result0: ok shape=[300, 200]
// CHECK: result1: ok shape=[300, 200]

func.func @main(%x: tensor<300x200xbf16>, %r: tensor<300xbf16>, %s: tensor<300xbf16>)
    -> (tensor<300x200xbf16>, tensor<300x200xbf16>) {
  %d:2 = hlo.fusion loop(%x, %r, %s) : (tensor<300x200xbf16>, tensor<300xbf16>, tensor<300xbf16>) -> (tensor<300x200xbf16>, tensor<300x200xbf16>) {
  ^bb0(%a: tensor<300x200xbf16>, %b: tensor<300xbf16>, %c: tensor<300xbf16>):
    %0 = hlo.broadcast_in_dim %b, dims = [0] : (tensor<300xbf16>) -> tensor<300x200xbf16>
    %1 = hlo.subtract %a, %0 : tensor<300x200xbf16>
    %2 = hlo.broadcast_in_dim %c, dims = [0] : (tensor<300xbf16>) -> tensor<300x200xbf16>
    %3 = hlo.multiply %1, %2 : tensor<300x200xbf16>
    hlo.return %1, %3 : tensor<300x200xbf16>, tensor<300x200xbf16>
  }
  return %d#0, %d#1 : tensor<300x200xbf16>, tensor<300x200xbf16>
}
