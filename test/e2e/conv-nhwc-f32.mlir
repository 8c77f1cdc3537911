// NHWC convolutions (b01f_01io->b01f, the forms of resnet50) on the MXU as
// an implicit GEMM, f32 in and out, ragged everywhere:
//   result0: 3x3 stride 1 pad 1, C_in = 3, W = 7, C_out = 10
//   result1: 7x7 stride 2 pad 3 (resnet50's stem shape), C_in = 3
//   result2: 1x1 stride 2, C_in = 130 (two input-feature blocks),
//            C_out = 140 (two output tiles, each on its own MXU)
//   result3: 3x3 stride 1 pad (0,2)x(2,1), rhs_dilation 2 and window
//            reversal, kernel labels 10io (spatial dims swapped)
// DEFAULT precision: operands are rounded to bf16 (relative error 2^-8
// each), products are exact and accumulate in f32, in another order than
// the interpreter's; over K <= 9 * 130 terms of random [-1, 1) inputs the
// error stays below 2^-7 of the largest output (measured 2.9e-3).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/conv.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/conv.tpu.mlir -o %t/conv.tpx
// RUN: tpuc-run %t/conv.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 4 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[2, 9, 7, 10]
// CHECK: result1: ok shape=[2, 5, 4, 10]
// CHECK: result2: ok shape=[2, 5, 4, 140]
// CHECK: result3: ok shape=[2, 7, 6, 10]

func.func @conv(%x: tensor<2x9x7x3xf32>, %w: tensor<3x3x3x10xf32>,
                %w7: tensor<7x7x3x10xf32>, %y: tensor<2x9x7x130xf32>,
                %w1: tensor<1x1x130x140xf32>, %wd: tensor<3x3x3x10xf32>)
    -> (tensor<2x9x7x10xf32>, tensor<2x5x4x10xf32>, tensor<2x5x4x140xf32>,
        tensor<2x7x6x10xf32>) {
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<2x9x7x3xf32>, tensor<3x3x3x10xf32>) -> tensor<2x9x7x10xf32>
  %1 = hlo.convolution %x, %w7, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>}
       : (tensor<2x9x7x3xf32>, tensor<7x7x3x10xf32>) -> tensor<2x5x4x10xf32>
  %2 = hlo.convolution %y, %w1, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>}
       : (tensor<2x9x7x130xf32>, tensor<1x1x130x140xf32>) -> tensor<2x5x4x140xf32>
  %3 = hlo.convolution %x, %wd, dim_labels = <"b01f_10io->b01f"> {padding = array<i64: 0, 2, 2, 1>, rhs_dilation = array<i64: 2, 2>, window_reversal = array<i1: true, false>}
       : (tensor<2x9x7x3xf32>, tensor<3x3x3x10xf32>) -> tensor<2x7x6x10xf32>
  return %0, %1, %2, %3 : tensor<2x9x7x10xf32>, tensor<2x5x4x10xf32>, tensor<2x5x4x140xf32>, tensor<2x7x6x10xf32>
}
