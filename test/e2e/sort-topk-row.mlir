// hlo.topk of one-row tile rows (a second-minor dim of 1, or rank 1: the
// logits row of a `[1, N]` top-k): the rows' sublanes 0 are gathered into
// dense tiles by one VMEM -> VMEM DMA and each round visits an eighth of
// the tiles (TopKKernel, Sort.cpp). Values and s32 indices bit-exact against
// the interpreter:
//   f32[1,5000] k=10 largest (5000 = 39 tiles + 8 lanes: ragged, a dense
//     tail),
//   bf16[1,300] k=5 smallest (3 tiles in one dense tile; random bf16 values
//     repeat, so ties: the smaller index first),
//   s32[3,1,2048] k=130 (16 tiles: two whole dense tiles per row, three
//     rows, k > 128 fills two result tiles),
//   f32[4100] rank 1 k=7, bf16[1,128] k=3 (one tile: not gathered).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/topk.tpu.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/topk.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/topk.tpu.mlir -o %t/topk.tpx
// RUN: tpuc-run %t/topk.tpx --random-inputs=23 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=23 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 10 | FileCheck %s
// CHECK: result0: ok shape=[1, 10] bit-exact
// CHECK: result1: ok shape=[1, 10] bit-exact
// CHECK: result2: ok shape=[1, 5] bit-exact
// CHECK: result3: ok shape=[1, 5] bit-exact
// CHECK: result4: ok shape=[3, 1, 130] bit-exact
// CHECK: result5: ok shape=[3, 1, 130] bit-exact
// CHECK: result6: ok shape=[7] bit-exact
// CHECK: result7: ok shape=[7] bit-exact
// CHECK: result8: ok shape=[1, 3] bit-exact
// CHECK: result9: ok shape=[1, 3] bit-exact
// The f32[1,5000] kernel: 40 tiles' sublane 0 (512 bytes each, 4096 apart)
// into 5 dense tiles; a round visits them (one visit, then a loop of 4),
// then reduces over the lanes and the sublanes.
// TPU-LABEL: func.func @topk
// TPU: tpu.dma %{{.+}} chunks = 40 chunk_bytes = 512 src_stride = 4096 dst_stride = 512
// TPU: tpu.loop %{{.+}} = 0 to %c4 {
// TPU: tpu.vreduce_lanes max
// TPU-NEXT: tpu.vreduce_sublanes max

func.func @topk(%a: tensor<1x5000xf32>, %b: tensor<1x300xbf16>, %c: tensor<3x1x2048xi32>, %d: tensor<4100xf32>, %e: tensor<1x128xbf16>)
    -> (tensor<1x10xf32>, tensor<1x10xi32>, tensor<1x5xbf16>, tensor<1x5xi32>, tensor<3x1x130xi32>, tensor<3x1x130xi32>, tensor<7xf32>, tensor<7xi32>, tensor<1x3xbf16>, tensor<1x3xi32>) {
  %0:2 = hlo.topk %a, k = 10 : (tensor<1x5000xf32>) -> (tensor<1x10xf32>, tensor<1x10xi32>)
  %1:2 = hlo.topk %b, k = 5 {largest = false} : (tensor<1x300xbf16>) -> (tensor<1x5xbf16>, tensor<1x5xi32>)
  %2:2 = hlo.topk %c, k = 130 : (tensor<3x1x2048xi32>) -> (tensor<3x1x130xi32>, tensor<3x1x130xi32>)
  %3:2 = hlo.topk %d, k = 7 : (tensor<4100xf32>) -> (tensor<7xf32>, tensor<7xi32>)
  %4:2 = hlo.topk %e, k = 3 : (tensor<1x128xbf16>) -> (tensor<1x3xbf16>, tensor<1x3xi32>)
  return %0#0, %0#1, %1#0, %1#1, %2#0, %2#1, %3#0, %3#1, %4#0, %4#1 : tensor<1x10xf32>, tensor<1x10xi32>, tensor<1x5xbf16>, tensor<1x5xi32>, tensor<3x1x130xi32>, tensor<3x1x130xi32>, tensor<7xf32>, tensor<7xi32>, tensor<1x3xbf16>, tensor<1x3xi32>
}
