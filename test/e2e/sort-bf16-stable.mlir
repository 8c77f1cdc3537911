// A stable descending sort of bf16[20,300] keys carrying an s32 operand,
// with JAX's comparator (-0.0 and 0.0 equal, NaN largest, TOTALORDER GT).
// Random bf16 keys in [-1, 1) repeat often within a row, so the carried
// operand shows whether equal keys keep their order (is_stable). Exact
// match: sorting only moves values.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/sort.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/sort.tpu.mlir -o %t/sort.tpx
// RUN: tpuc-run %t/sort.tpx --random-inputs=7 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 2 | FileCheck %s
// CHECK: result0: ok shape=[20, 300] bit-exact
// CHECK: result1: ok shape=[20, 300] bit-exact

func.func @argsort(%x: tensor<20x300xbf16>, %i: tensor<20x300xi32>) -> (tensor<20x300xbf16>, tensor<20x300xi32>) {
  %0:2 = hlo.sort(%x, %i) dim = 1 {is_stable = true} : (tensor<20x300xbf16>, tensor<20x300xi32>) -> (tensor<20x300xbf16>, tensor<20x300xi32>) {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>, %c: tensor<i32>, %d: tensor<i32>):
    %nan = hlo.constant dense<0x7FC0> : tensor<bf16>
    %zero = hlo.constant dense<0.0> : tensor<bf16>
    %ane = hlo.compare NE, %a, %a : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %aeq = hlo.compare EQ, %a, %zero : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %a0 = hlo.select %aeq, %zero, %a : (tensor<i1>, tensor<bf16>, tensor<bf16>) -> tensor<bf16>
    %a1 = hlo.select %ane, %nan, %a0 : (tensor<i1>, tensor<bf16>, tensor<bf16>) -> tensor<bf16>
    %bne = hlo.compare NE, %b, %b : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %beq = hlo.compare EQ, %b, %zero : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %b0 = hlo.select %beq, %zero, %b : (tensor<i1>, tensor<bf16>, tensor<bf16>) -> tensor<bf16>
    %b1 = hlo.select %bne, %nan, %b0 : (tensor<i1>, tensor<bf16>, tensor<bf16>) -> tensor<bf16>
    %gt = hlo.compare GT, %a1, %b1, TOTALORDER : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    hlo.return %gt : tensor<i1>
  }
  return %0#0, %0#1 : tensor<20x300xbf16>, tensor<20x300xi32>
}
