// Depthwise NCHW convolutions (bf01_oi01->bf01, feature_group_count = C)
// on the VPU, the form of depthwise_conv_3x3_1x256x56x56_bf16.hlo:
//   result0: bf16, 3x3 pad 1, W = 150 (two lane tiles, ragged), H = 13
//   result1: f32, 3x3 stride (2,1) pad (1,0)x(2,1), rhs_dilation (1,2),
//            reversed columns
// Products of the operands and their f32 sums in (kh, kw) order are the
// interpreter's; what remains is the rounding of the bf16 result (and f32
// rounding for the f32 one): 2^-8 of the largest output.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/conv.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/conv.tpu.mlir -o %t/conv.tpx
// RUN: tpuc-run %t/conv.tpx --random-inputs=2 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=2 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 2 0.00390625 | FileCheck %s
// CHECK: result0: ok shape=[2, 5, 13, 150]
// CHECK: result1: ok shape=[2, 5, 6, 149]

func.func @conv(%x: tensor<2x5x13x150xbf16>, %w: tensor<5x1x3x3xbf16>,
                %y: tensor<2x5x13x150xf32>, %v: tensor<5x1x3x3xf32>)
    -> (tensor<2x5x13x150xbf16>, tensor<2x5x6x149xf32>) {
  %0 = hlo.convolution %x, %w, dim_labels = <"bf01_oi01->bf01"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 5 : i64}
       : (tensor<2x5x13x150xbf16>, tensor<5x1x3x3xbf16>) -> tensor<2x5x13x150xbf16>
  %1 = hlo.convolution %y, %v, dim_labels = <"bf01_oi01->bf01"> {window_strides = array<i64: 2, 1>, padding = array<i64: 1, 0, 2, 1>, rhs_dilation = array<i64: 1, 2>, window_reversal = array<i1: false, true>, feature_group_count = 5 : i64}
       : (tensor<2x5x13x150xf32>, tensor<5x1x3x3xf32>) -> tensor<2x5x6x149xf32>
  return %0, %1 : tensor<2x5x13x150xbf16>, tensor<2x5x6x149xf32>
}
