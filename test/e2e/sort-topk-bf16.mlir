// hlo.topk k=130 smallest (largest = false) of bf16[9,1000]: random bf16
// values repeat often, so ties (smaller index first) decide many of the
// indices; k > 128 fills two result tiles. Exact match.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/topk.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/topk.tpu.mlir -o %t/topk.tpx
// RUN: tpuc-run %t/topk.tpx --random-inputs=19 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=19 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 2 | FileCheck %s
// CHECK: result0: ok shape=[9, 130] bit-exact
// CHECK: result1: ok shape=[9, 130] bit-exact

func.func @topk(%x: tensor<9x1000xbf16>) -> (tensor<9x130xbf16>, tensor<9x130xi32>) {
  %0:2 = hlo.topk %x, k = 130 {largest = false} : (tensor<9x1000xbf16>) -> (tensor<9x130xbf16>, tensor<9x130xi32>)
  return %0#0, %0#1 : tensor<9x130xbf16>, tensor<9x130xi32>
}
