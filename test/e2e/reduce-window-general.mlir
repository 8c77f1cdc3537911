// reduce_windows of several inputs, of bodies of several ops, and padded
// with an init that is not the body's identity, through
// tpuc-expand-reduce-window (tpuc compile's pipeline): the body applied to
// the accumulators and each window offset's slices, padding and holes
// skipped by a pred mask, as XLA's and the interpreter's reduce_window
// skip them.
//   result0, result1: a (max, argmax) window over [6,40] f32 and its iota,
//            3x5 SAME padded: padding never wins, ties keep the first
//   result2: a sum starting from 1.0 with padding 2_1 and base dilation 2
//            (init added once, not per padded element)
//   result3: a body of several ops (acc * 0.5 + x) with window dilation 2
//   result4, result5: two inputs whose body's results both read input 0
//            (XLA's reduce_window_test form), stride 2
// Same operations in the same order as the interpreter: exact.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s -o %t/rw.tpx
// RUN: tpuc-run %t/rw.tpx --random-inputs=9 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=9 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 6 0 0.9999999 | FileCheck %s
// CHECK: result0: ok shape=[6, 40] max_abs=0 max_rel=0
// CHECK: result1: ok shape=[6, 40] max_abs=0 max_rel=0
// CHECK: result2: ok shape=[3, 21] max_abs=0 max_rel=0
// CHECK: result3: ok shape=[5, 33] max_abs=0 max_rel=0
// CHECK: result4: ok shape=[3, 19] max_abs=0 max_rel=0
// CHECK: result5: ok shape=[3, 19] max_abs=0 max_rel=0
// A failing check prints MISMATCH.
// CHECK-NOT: MISMATCH

func.func @main(%x: tensor<6x40xf32>, %y: tensor<4x12xf32>, %z: tensor<9x37xf32>,
                %u: tensor<7x40xf32>, %v: tensor<7x40xf32>)
    -> (tensor<6x40xf32>, tensor<6x40xi32>, tensor<3x21xf32>, tensor<5x33xf32>,
        tensor<3x19xf32>, tensor<3x19xf32>) {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %izero = hlo.constant dense<0> : tensor<i32>
  %one = hlo.constant dense<1.0> : tensor<f32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  // Ties are likely: x rounded to multiples of 0.25.
  %c4 = hlo.constant dense<4.0> : tensor<6x40xf32>
  %x4 = hlo.multiply %x, %c4 : tensor<6x40xf32>
  %xr = hlo.round_nearest_even %x4 : tensor<6x40xf32>
  %iota = hlo.iota dim = 1 : tensor<6x40xi32>
  %am:2 = hlo.reduce_window(%xr, %iota) init(%ninf, %izero) {window_dimensions = array<i64: 3, 5>, padding = array<i64: 1, 1, 2, 2>} : (tensor<6x40xf32>, tensor<6x40xi32>, tensor<f32>, tensor<i32>) -> (tensor<6x40xf32>, tensor<6x40xi32>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %ge = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = hlo.select %ge, %a, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %mi = hlo.select %ge, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    hlo.return %m, %mi : tensor<f32>, tensor<i32>
  }
  %sum = hlo.reduce_window(%y) init(%one) {window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 3, 1>, padding = array<i64: 2, 1, 0, 0>, base_dilations = array<i64: 2, 2>} : (tensor<4x12xf32>, tensor<f32>) -> tensor<3x21xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %dec = hlo.reduce_window(%z) init(%zero) {window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 1, 1>, window_dilations = array<i64: 2, 2>} : (tensor<9x37xf32>, tensor<f32>) -> tensor<5x33xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %half = hlo.constant dense<0.5> : tensor<f32>
    %h = hlo.multiply %a, %half : tensor<f32>
    %s = hlo.add %h, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %two:2 = hlo.reduce_window(%u, %v) init(%zero, %zero) {window_dimensions = array<i64: 3, 4>, window_strides = array<i64: 2, 2>} : (tensor<7x40xf32>, tensor<7x40xf32>, tensor<f32>, tensor<f32>) -> (tensor<3x19xf32>, tensor<3x19xf32>) {
  ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %b0: tensor<f32>, %b1: tensor<f32>):
    %s0 = hlo.add %a0, %b0 : tensor<f32>
    hlo.return %s0, %s0 : tensor<f32>, tensor<f32>
  }
  return %am#0, %am#1, %sum, %dec, %two#0, %two#1
      : tensor<6x40xf32>, tensor<6x40xi32>, tensor<3x21xf32>, tensor<5x33xf32>,
        tensor<3x19xf32>, tensor<3x19xf32>
}
