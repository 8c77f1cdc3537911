// Loop kernels over tile counts whose divisors under the block limit are
// all small: blocks of whole tile rows near the limit and a ragged last
// block, instead of many tiny blocks each waiting one DMA latency. [3616,8]
// (452 tiles = 4 x 113, DLRM's selects with a per-row streamed pred: 7
// blocks of 64 tiles and one of 4, not 113 of 4), [1016,200] (254 tiles =
// 2 x 127: 3 blocks of 64 and one of 62), f32, bf16 and s32, fused and
// standalone. Exact ops only: bit
// for bit against the interpreter (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/off %t/want
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc compile %s --fusion=off -o %t/off.tpx
// RUN: tpuc-run %t/off.tpx --random-inputs=5 --output-dir=%t/off
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 4 | FileCheck %s
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/off %t/want 4 | FileCheck %s
// RUN: tpuc compile %s --emit=tpu -o %t/t.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/t.mlir
// CHECK: result0: ok shape=[3616, 8]
// CHECK: result1: ok shape=[3616, 8]
// CHECK: result2: ok shape=[1016, 200]
// CHECK: result3: ok shape=[3616, 8]
// The [1016,200] kernel: full blocks of 64 tiles (256 KiB) in a loop, the
// ragged last block of 62 tiles fetched and written back once.
// TPU: tpu.dma {{.*}} chunks = 1 chunk_bytes = 262144
// TPU: tpu.dma {{.*}} chunks = 1 chunk_bytes = 253952

func.func @main(%m: tensor<3616xi1>, %x: tensor<3616x8xf32>,
                %y: tensor<3616x8xf32>, %h: tensor<3616x8xbf16>,
                %a: tensor<1016x200xf32>, %b: tensor<1016x200xf32>,
                %i: tensor<3616x8xi32>)
    -> (tensor<3616x8xf32>, tensor<3616x8xbf16>, tensor<1016x200xf32>,
        tensor<3616x8xi32>) {
  %mask = hlo.broadcast_in_dim %m, dims = [0] : (tensor<3616xi1>) -> tensor<3616x8xi1>
  %zero = hlo.constant dense<0.0> : tensor<3616x8xf32>
  %s = hlo.add %x, %y : tensor<3616x8xf32>
  %0 = hlo.select %mask, %s, %zero : (tensor<3616x8xi1>, tensor<3616x8xf32>, tensor<3616x8xf32>) -> tensor<3616x8xf32>
  %hz = hlo.constant dense<0.0> : tensor<3616x8xbf16>
  %hm = hlo.maximum %h, %hz : tensor<3616x8xbf16>
  %1 = hlo.select %mask, %hm, %h : (tensor<3616x8xi1>, tensor<3616x8xbf16>, tensor<3616x8xbf16>) -> tensor<3616x8xbf16>
  %ab = hlo.multiply %a, %b : tensor<1016x200xf32>
  %2 = hlo.add %ab, %a : tensor<1016x200xf32>
  %ii = hlo.add %i, %i : tensor<3616x8xi32>
  %3 = hlo.select %mask, %ii, %i : (tensor<3616x8xi1>, tensor<3616x8xi32>, tensor<3616x8xi32>) -> tensor<3616x8xi32>
  return %0, %1, %2, %3 : tensor<3616x8xf32>, tensor<3616x8xbf16>, tensor<1016x200xf32>, tensor<3616x8xi32>
}
