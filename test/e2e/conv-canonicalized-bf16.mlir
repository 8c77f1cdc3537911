// bf16 convolutions through tpuc-canonicalize-convolutions:
//   result0: a strided convolution's input gradient (lhs_dilation 2,
//            window reversal, kernel labels 01oi), bf16 result
//   result1: feature_group_count 4, a block-diagonal kernel, bf16 result
//   result2: 3-D: three 2-D convolutions with f32 results, summed in f32
//            and rounded to bf16 once (as the interpreter accumulates)
//   result3: 1-D with an f32 result (preferred element type)
// bf16 operands are exact on the MXU and products accumulate in f32; the
// bf16 results are rounded once: tolerance 2^-7 (measured: 0, every
// rounding coincides with the interpreter's).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s -o %t/conv.tpx
// RUN: tpuc-run %t/conv.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 4 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[2, 9, 7, 3]
// CHECK: result1: ok shape=[2, 7, 9, 8]
// CHECK: result2: ok shape=[1, 5, 6, 7, 4]
// CHECK: result3: ok shape=[2, 9, 6]

func.func @conv(%dy: tensor<2x5x4x10xbf16>, %w: tensor<3x3x3x10xbf16>,
                %h: tensor<2x7x9x12xbf16>, %wh: tensor<3x3x3x8xbf16>,
                %v: tensor<1x5x6x7x3xbf16>, %wv: tensor<3x3x3x3x4xbf16>,
                %s: tensor<2x17x5xbf16>, %ws: tensor<3x5x6xbf16>)
    -> (tensor<2x9x7x3xbf16>, tensor<2x7x9x8xbf16>, tensor<1x5x6x7x4xbf16>, tensor<2x9x6xf32>) {
  %0 = hlo.convolution %dy, %w, dim_labels = <"b01f_01oi->b01f"> {lhs_dilation = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, window_reversal = array<i1: true, true>}
       : (tensor<2x5x4x10xbf16>, tensor<3x3x3x10xbf16>) -> tensor<2x9x7x3xbf16>
  %1 = hlo.convolution %h, %wh, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 4 : i64}
       : (tensor<2x7x9x12xbf16>, tensor<3x3x3x8xbf16>) -> tensor<2x7x9x8xbf16>
  %2 = hlo.convolution %v, %wv, dim_labels = <"b012f_012io->b012f"> {padding = array<i64: 1, 1, 1, 1, 1, 1>}
       : (tensor<1x5x6x7x3xbf16>, tensor<3x3x3x3x4xbf16>) -> tensor<1x5x6x7x4xbf16>
  %3 = hlo.convolution %s, %ws, dim_labels = <"b0f_0io->b0f"> {window_strides = array<i64: 2>, padding = array<i64: 1, 1>}
       : (tensor<2x17x5xbf16>, tensor<3x5x6xbf16>) -> tensor<2x9x6xf32>
  return %0, %1, %2, %3 : tensor<2x9x7x3xbf16>, tensor<2x7x9x8xbf16>, tensor<1x5x6x7x4xbf16>, tensor<2x9x6xf32>
}
