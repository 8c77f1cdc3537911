// select_and_scatter (max- and min-pool gradients) through tpuc compile's
// pipeline: the NHWC ones through the VPU kernel (ReduceWindow.cpp), the
// rank-2 one (result2) through tpuc-expand-select-and-scatter:
//   result0: max pool 3x3 stride 2 padding 1 on NHWC [2,9,11,5] (ragged
//            H and W; windows cut by the padding)
//   result1: max pool 2x2 stride 2 (select GT), C = 130 (two lane tiles)
//   result2: rank 2, min pool 1x4 stride 2 with high padding (select LE,
//            scatter add with swapped arguments)
//   result3: 3x3 stride 3 with low padding 2 (select `b < a`: the
//            operands swapped, i.e. GT); windows cut to one element
//   result4/5: result0's pool on an operand of few distinct values
//            (-1, 0, 1): ties everywhere, GE selects the first maximum of a
//            window and GT the last (they differ at about a quarter of the
//            positions; both as XLA)
//   result6: result0 in bf16
// Selection is exact, and the kernel adds the source values of a result
// element in the interpreter's order (row-major windows), so every result
// is bit-exact, bf16 too (each add rounds there as in the interpreter).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s -o %t/pool.tpx
// RUN: tpuc-run %t/pool.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 6 0 0.9999999 | FileCheck %s
// RUN: %python_numpy -c "import numpy as np; print('differ', int((np.load('%t/want/result4.npy') != np.load('%t/want/result5.npy')).sum()) > 100)" | FileCheck %s --check-prefix=TIES
// CHECK: result0: ok shape=[2, 9, 11, 5]
// CHECK: result1: ok shape=[1, 8, 8, 130]
// CHECK: result2: ok shape=[3, 20]
// CHECK: result3: ok shape=[2, 7, 7, 3]
// CHECK: result4: ok shape=[2, 9, 11, 5]
// CHECK: result5: ok shape=[2, 9, 11, 5]
// TIES: differ True
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 7 0 0.9999999 | FileCheck %s --check-prefix=BF16
// BF16: result6: ok shape=[2, 9, 11, 5]

func.func @pool(%x: tensor<2x9x11x5xf32>, %dy: tensor<2x5x6x5xf32>, %y: tensor<1x8x8x130xf32>, %dz: tensor<1x4x4x130xf32>,
                %r: tensor<3x20xf32>, %dr: tensor<3x9xf32>, %m: tensor<2x7x7x3xf32>, %dm: tensor<2x3x3x3xf32>,
                %xb: tensor<2x9x11x5xbf16>, %dyb: tensor<2x5x6x5xbf16>)
    -> (tensor<2x9x11x5xf32>, tensor<1x8x8x130xf32>, tensor<3x20xf32>, tensor<2x7x7x3xf32>,
        tensor<2x9x11x5xf32>, tensor<2x9x11x5xf32>, tensor<2x9x11x5xbf16>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  // Few distinct values (-1, 0, 1): windows with ties.
  %two = hlo.constant dense<2.0> : tensor<2x9x11x5xf32>
  %x2 = hlo.multiply %x, %two : tensor<2x9x11x5xf32>
  %xi = hlo.convert %x2 : (tensor<2x9x11x5xf32>) -> tensor<2x9x11x5xi32>
  %xq = hlo.convert %xi : (tensor<2x9x11x5xi32>) -> tensor<2x9x11x5xf32>
  %0 = hlo.select_and_scatter %x, %dy, %zero {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = array<i64: 0, 0, 1, 1, 1, 1, 0, 0>}
       : (tensor<2x9x11x5xf32>, tensor<2x5x6x5xf32>, tensor<f32>) -> tensor<2x9x11x5xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %1 = hlo.select_and_scatter %y, %dz, %zero {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}
       : (tensor<1x8x8x130xf32>, tensor<1x4x4x130xf32>, tensor<f32>) -> tensor<1x8x8x130xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %2 = hlo.select_and_scatter %r, %dr, %zero {window_dimensions = array<i64: 1, 4>, window_strides = array<i64: 1, 2>, padding = array<i64: 0, 0, 0, 1>}
       : (tensor<3x20xf32>, tensor<3x9xf32>, tensor<f32>) -> tensor<3x20xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare LE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %b, %a : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %3 = hlo.select_and_scatter %m, %dm, %zero {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 3, 3, 1>, padding = array<i64: 0, 0, 2, 0, 0, 2, 0, 0>}
       : (tensor<2x7x7x3xf32>, tensor<2x3x3x3xf32>, tensor<f32>) -> tensor<2x7x7x3xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare LT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %4 = hlo.select_and_scatter %xq, %dy, %zero {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = array<i64: 0, 0, 1, 1, 1, 1, 0, 0>}
       : (tensor<2x9x11x5xf32>, tensor<2x5x6x5xf32>, tensor<f32>) -> tensor<2x9x11x5xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %5 = hlo.select_and_scatter %xq, %dy, %zero {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = array<i64: 0, 0, 1, 1, 1, 1, 0, 0>}
       : (tensor<2x9x11x5xf32>, tensor<2x5x6x5xf32>, tensor<f32>) -> tensor<2x9x11x5xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %bzero = hlo.constant dense<0.0> : tensor<bf16>
  %6 = hlo.select_and_scatter %xb, %dyb, %bzero {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = array<i64: 0, 0, 1, 1, 1, 1, 0, 0>}
       : (tensor<2x9x11x5xbf16>, tensor<2x5x6x5xbf16>, tensor<bf16>) -> tensor<2x9x11x5xbf16> select {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %c = hlo.compare GE, %a, %b : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %s = hlo.add %a, %b : tensor<bf16>
    hlo.return %s : tensor<bf16>
  }
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x9x11x5xf32>, tensor<1x8x8x130xf32>, tensor<3x20xf32>, tensor<2x7x7x3xf32>,
         tensor<2x9x11x5xf32>, tensor<2x9x11x5xf32>, tensor<2x9x11x5xbf16>
}
