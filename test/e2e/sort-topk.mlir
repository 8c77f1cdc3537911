// hlo.topk k=10 largest of f32[20,300] (ragged rows and columns): values
// and s32 indices, exact match with the interpreter (ties: smaller index
// first, which random f32 inputs rarely exercise; see sort-topk-bf16).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/topk.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/topk.tpu.mlir -o %t/topk.tpx
// RUN: tpuc-run %t/topk.tpx --random-inputs=17 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=17 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 2 | FileCheck %s
// CHECK: result0: ok shape=[20, 10] bit-exact
// CHECK: result1: ok shape=[20, 10] bit-exact

func.func @topk(%x: tensor<20x300xf32>) -> (tensor<20x10xf32>, tensor<20x10xi32>) {
  %0:2 = hlo.topk %x, k = 10 : (tensor<20x300xf32>) -> (tensor<20x10xf32>, tensor<20x10xi32>)
  return %0#0, %0#1 : tensor<20x10xf32>, tensor<20x10xi32>
}
