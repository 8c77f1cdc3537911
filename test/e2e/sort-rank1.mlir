// 1-D arrays ({0:T(1024)}: one row whose 128-element runs are copied to
// sublane 0 of VMEM tiles by a strided DMA): an ascending sort of
// bf16[3000] with JAX's comparator carrying an s32 operand (ties in bf16:
// the carried operand shows the stable order), and topk k=7 of f32[1000].
// Exact match: sorting and top-k only move values.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/rank1.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/rank1.tpu.mlir -o %t/rank1.tpx
// RUN: tpuc-run %t/rank1.tpx --random-inputs=23 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=23 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 4 | FileCheck %s
// CHECK: result0: ok shape=[3000] bit-exact
// CHECK: result1: ok shape=[3000] bit-exact
// CHECK: result2: ok shape=[7] bit-exact
// CHECK: result3: ok shape=[7] bit-exact

func.func @rank1(%x: tensor<3000xbf16>, %i: tensor<3000xi32>, %y: tensor<1000xf32>) -> (tensor<3000xbf16>, tensor<3000xi32>, tensor<7xf32>, tensor<7xi32>) {
  %0:2 = hlo.sort(%x, %i) dim = 0 {is_stable = true} : (tensor<3000xbf16>, tensor<3000xi32>) -> (tensor<3000xbf16>, tensor<3000xi32>) {
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
    %lt = hlo.compare LT, %a1, %b1, TOTALORDER : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  }
  %1:2 = hlo.topk %y, k = 7 : (tensor<1000xf32>) -> (tensor<7xf32>, tensor<7xi32>)
  return %0#0, %0#1, %1#0, %1#1 : tensor<3000xbf16>, tensor<3000xi32>, tensor<7xf32>, tensor<7xi32>
}
