// jnp.argmax in x64 mode: the index operand and result are s64. The front
// end's tpuc-expand-variadic-reduce runs before tpuc-expand-x64, which then
// expands the tree's s64 compares and selects on 32-bit words (the result
// is planar [2, 9] on the device; tpuc-run writes it as s64[9]). floor(4x) gives ties.
// Bit-exact against the interpreter.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s -o %t/a.tpx
// RUN: tpuc-run %t/a.tpx --random-inputs=2 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=2 --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got %t/want 2 | FileCheck %s
// CHECK: result0: exact shape=[9]
// CHECK: result1: exact shape=[9]

func.func @main(%x: tensor<9x130xf32>) -> (tensor<9xi64>, tensor<9xf32>) {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant dense<0> : tensor<i64>
  %iota = hlo.iota dim = 1 : tensor<9x130xi64>
  %four = hlo.constant dense<4.0> : tensor<9x130xf32>
  %x4 = hlo.multiply %x, %four : tensor<9x130xf32>
  %xf = hlo.floor %x4 : tensor<9x130xf32>
  %r:2 = hlo.reduce(%xf, %iota) init(%ninf, %zero) dims = [1] : (tensor<9x130xf32>, tensor<9x130xi64>, tensor<f32>, tensor<i64>) -> (tensor<9xf32>, tensor<9xi64>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i64>, %b: tensor<f32>, %bi: tensor<i64>):
    %0 = hlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %1 = hlo.compare NE, %a, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = hlo.or %0, %1 : tensor<i1>
    %3 = hlo.compare EQ, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = hlo.compare LT, %ai, %bi : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %5 = hlo.and %3, %4 : tensor<i1>
    %6 = hlo.or %2, %5 : tensor<i1>
    %7 = hlo.select %2, %a, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %8 = hlo.select %6, %ai, %bi : (tensor<i1>, tensor<i64>, tensor<i64>) -> tensor<i64>
    hlo.return %7, %8 : tensor<f32>, tensor<i64>
  }
  return %r#1, %r#0 : tensor<9xi64>, tensor<9xf32>
}
