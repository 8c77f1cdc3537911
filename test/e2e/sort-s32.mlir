// A descending sort of s32[3,9,130] keys (random values in [-8, 8): many
// equal keys) carrying an f32 operand, comparator `compare LT` with its
// arguments swapped (b < a, i.e. descending): the carried operand shows the
// stable order of equal keys. A 3-D array: the leading dims are rows.
// Exact match.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/sort.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/sort.tpu.mlir -o %t/sort.tpx
// RUN: tpuc-run %t/sort.tpx --random-inputs=13 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=13 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 2 | FileCheck %s
// CHECK: result0: ok shape=[3, 9, 130] bit-exact
// CHECK: result1: ok shape=[3, 9, 130] bit-exact

func.func @sort(%k: tensor<3x9x130xi32>, %v: tensor<3x9x130xf32>) -> (tensor<3x9x130xi32>, tensor<3x9x130xf32>) {
  %0:2 = hlo.sort(%k, %v) dim = 2 : (tensor<3x9x130xi32>, tensor<3x9x130xf32>) -> (tensor<3x9x130xi32>, tensor<3x9x130xf32>) {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
    %lt = hlo.compare LT, %b, %a : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  }
  return %0#0, %0#1 : tensor<3x9x130xi32>, tensor<3x9x130xf32>
}
