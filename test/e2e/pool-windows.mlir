// reduce_window forms the VPU kernel does not take, through
// tpuc-expand-reduce-window (tpuc compile's pipeline): one strided slice
// of the init-padded operand per window offset, combined in XLA's order.
//   result0: cumsum of f32[50] (window 50, padding 49_0: 50 offsets)
//   result1: rank 3, a 3-wide stride-2 max window on the middle dim
//   result2: window dilation 2 (max, NHWC, the body's arguments swapped)
//   result3: base dilation 2 (sum; the holes are the init)
//   result4: a sum over the minor dim (window 1x1x1x4, stride 4)
//   result5: s32 cumsum over rows of [3,20]
//   result6: bf16 SAME 1x5 sum (rounded after every add, as the
//            interpreter does)
// Same operations in the same order as the interpreter: exact.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s -o %t/rw.tpx
// RUN: tpuc-run %t/rw.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 7 0 0.9999999 | FileCheck %s
// CHECK: result0: ok shape=[50] max_abs=0 max_rel=0
// CHECK: result1: ok shape=[2, 17, 70] max_abs=0 max_rel=0
// CHECK: result2: ok shape=[1, 5, 5, 8] max_abs=0 max_rel=0
// CHECK: result3: ok shape=[2, 8, 10] max_abs=0 max_rel=0
// CHECK: result4: ok shape=[1, 4, 4, 4] max_abs=0 max_rel=0
// CHECK: result5: ok shape=[3, 20] max_abs=0 max_rel=0
// CHECK: result6: ok shape=[4, 30] max_abs=0 max_rel=0

func.func @windows(%c: tensor<50xf32>, %p: tensor<2x33x70xf32>, %d: tensor<1x9x9x8xf32>, %b: tensor<2x5x6xf32>,
                   %f: tensor<1x4x4x16xf32>, %i: tensor<3x20xi32>, %h: tensor<4x30xbf16>)
    -> (tensor<50xf32>, tensor<2x17x70xf32>, tensor<1x5x5x8xf32>, tensor<2x8x10xf32>, tensor<1x4x4x4xf32>,
        tensor<3x20xi32>, tensor<4x30xbf16>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %izero = hlo.constant dense<0> : tensor<i32>
  %bzero = hlo.constant dense<0.0> : tensor<bf16>
  %0 = hlo.reduce_window(%c) init(%zero) {window_dimensions = array<i64: 50>, padding = array<i64: 49, 0>} : (tensor<50xf32>, tensor<f32>) -> tensor<50xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = hlo.add %x, %y : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %1 = hlo.reduce_window(%p) init(%ninf) {window_dimensions = array<i64: 1, 3, 1>, window_strides = array<i64: 1, 2, 1>, padding = array<i64: 0, 0, 1, 1, 0, 0>} : (tensor<2x33x70xf32>, tensor<f32>) -> tensor<2x17x70xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = hlo.maximum %x, %y : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %2 = hlo.reduce_window(%d) init(%ninf) {window_dimensions = array<i64: 1, 3, 3, 1>, window_dilations = array<i64: 1, 2, 2, 1>} : (tensor<1x9x9x8xf32>, tensor<f32>) -> tensor<1x5x5x8xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = hlo.maximum %y, %x : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %3 = hlo.reduce_window(%b) init(%zero) {window_dimensions = array<i64: 1, 2, 2>, base_dilations = array<i64: 1, 2, 2>} : (tensor<2x5x6xf32>, tensor<f32>) -> tensor<2x8x10xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = hlo.add %x, %y : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %4 = hlo.reduce_window(%f) init(%zero) {window_dimensions = array<i64: 1, 1, 1, 4>, window_strides = array<i64: 1, 1, 1, 4>} : (tensor<1x4x4x16xf32>, tensor<f32>) -> tensor<1x4x4x4xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = hlo.add %x, %y : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %5 = hlo.reduce_window(%i) init(%izero) {window_dimensions = array<i64: 1, 20>, padding = array<i64: 0, 0, 19, 0>} : (tensor<3x20xi32>, tensor<i32>) -> tensor<3x20xi32> {
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %s = hlo.add %x, %y : tensor<i32>
    hlo.return %s : tensor<i32>
  }
  %6 = hlo.reduce_window(%h) init(%bzero) {window_dimensions = array<i64: 1, 5>, padding = array<i64: 0, 0, 2, 2>} : (tensor<4x30xbf16>, tensor<bf16>) -> tensor<4x30xbf16> {
  ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
    %s = hlo.add %x, %y : tensor<bf16>
    hlo.return %s : tensor<bf16>
  }
  return %0, %1, %2, %3, %4, %5, %6 : tensor<50xf32>, tensor<2x17x70xf32>, tensor<1x5x5x8xf32>, tensor<2x8x10xf32>, tensor<1x4x4x4xf32>,
        tensor<3x20xi32>, tensor<4x30xbf16>
}
