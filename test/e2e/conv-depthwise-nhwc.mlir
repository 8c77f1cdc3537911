// Depthwise convolutions as JAX, TF and Keras write them (NHWC,
// b01f_01io->b01f, kernel [kh, kw, 1, C], feature_group_count = C) on the
// VPU, channels on lanes (Convolution.cpp lowerDepthwiseNhwc,
// docs/codegen.md "Depthwise NHWC"):
//   result0: f32 2x56x56x96 3x3 pad 1 (ragged lanes)
//   result1: bf16 2x28x28x144 3x3 stride 2 pad (0,1) (TF SAME; two lane
//            tiles, the ragged one; W = 28, a ragged sublane tile)
//   result2: bf16 1x7x7x160 5x5 pad 2 (W below one sublane tile)
//   result3: bf16 1x112x112x32 5x5 stride 2 pad (1,2), reversed columns
//   result4: f32 [3,3,C,1] kernel (b01f_01oi->b01f), W = 19
//   result5: f32 NCHW input, HWIO kernel (bf01_01io->bf01), rhs_dilation 2
//   result6: bf16 1x2 window, strides (3,2), rhs_dilation (1,2): rows the
//            outputs skip are fetched too (the ring holds (D+1) strides)
// The last two are transposed into the NHWC form by
// tpuc-canonicalize-convolutions. Products and their f32 sums in (kh, kw)
// order are the interpreter's: bit-exact (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s -o %t/conv.tpx
// RUN: tpuc-run %t/conv.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 7 0 | FileCheck %s
// RUN: tpuc-opt %s --tpuc-canonicalize-convolutions --tpuc-convert-hlo-to-tpu -o /dev/null
// CHECK: result0: ok shape=[2, 56, 56, 96] max_abs=0 max_rel=0
// CHECK: result1: ok shape=[2, 14, 14, 144] max_abs=0 max_rel=0
// CHECK: result2: ok shape=[1, 7, 7, 160] max_abs=0 max_rel=0
// CHECK: result3: ok shape=[1, 56, 56, 32] max_abs=0 max_rel=0
// CHECK: result4: ok shape=[1, 19, 19, 24] max_abs=0 max_rel=0
// CHECK: result5: ok shape=[1, 16, 10, 10] max_abs=0 max_rel=0
// CHECK: result6: ok shape=[2, 11, 19, 7] max_abs=0 max_rel=0

func.func @main(%x0: tensor<2x56x56x96xf32>, %w0: tensor<3x3x1x96xf32>,
                %x1: tensor<2x28x28x144xbf16>, %w1: tensor<3x3x1x144xbf16>,
                %x2: tensor<1x7x7x160xbf16>, %w2: tensor<5x5x1x160xbf16>,
                %x3: tensor<1x112x112x32xbf16>, %w3: tensor<5x5x1x32xbf16>,
                %x4: tensor<1x19x19x24xf32>, %w4: tensor<3x3x24x1xf32>,
                %x5: tensor<1x16x10x10xf32>, %w5: tensor<3x3x1x16xf32>,
                %x6: tensor<2x27x36x7xbf16>, %w6: tensor<1x2x1x7xbf16>)
    -> (tensor<2x56x56x96xf32>, tensor<2x14x14x144xbf16>,
        tensor<1x7x7x160xbf16>, tensor<1x56x56x32xbf16>,
        tensor<1x19x19x24xf32>, tensor<1x16x10x10xf32>,
        tensor<2x11x19x7xbf16>) {
  %0 = hlo.convolution %x0, %w0, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 96 : i64}
       : (tensor<2x56x56x96xf32>, tensor<3x3x1x96xf32>) -> tensor<2x56x56x96xf32>
  %1 = hlo.convolution %x1, %w1, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 0, 1, 0, 1>, feature_group_count = 144 : i64}
       : (tensor<2x28x28x144xbf16>, tensor<3x3x1x144xbf16>) -> tensor<2x14x14x144xbf16>
  %2 = hlo.convolution %x2, %w2, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 2, 2, 2, 2>, feature_group_count = 160 : i64}
       : (tensor<1x7x7x160xbf16>, tensor<5x5x1x160xbf16>) -> tensor<1x7x7x160xbf16>
  %3 = hlo.convolution %x3, %w3, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 1, 2, 1, 2>, window_reversal = array<i1: false, true>, feature_group_count = 32 : i64}
       : (tensor<1x112x112x32xbf16>, tensor<5x5x1x32xbf16>) -> tensor<1x56x56x32xbf16>
  %4 = hlo.convolution %x4, %w4, dim_labels = <"b01f_01oi->b01f"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 24 : i64}
       : (tensor<1x19x19x24xf32>, tensor<3x3x24x1xf32>) -> tensor<1x19x19x24xf32>
  %5 = hlo.convolution %x5, %w5, dim_labels = <"bf01_01io->bf01"> {padding = array<i64: 2, 2, 2, 2>, rhs_dilation = array<i64: 2, 2>, feature_group_count = 16 : i64}
       : (tensor<1x16x10x10xf32>, tensor<3x3x1x16xf32>) -> tensor<1x16x10x10xf32>
  %6 = hlo.convolution %x6, %w6, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 3, 2>, padding = array<i64: 2, 3, 1, 2>, rhs_dilation = array<i64: 1, 2>, feature_group_count = 7 : i64}
       : (tensor<2x27x36x7xbf16>, tensor<1x2x1x7xbf16>) -> tensor<2x11x19x7xbf16>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x56x56x96xf32>, tensor<2x14x14x144xbf16>, tensor<1x7x7x160xbf16>, tensor<1x56x56x32xbf16>, tensor<1x19x19x24xf32>, tensor<1x16x10x10xf32>, tensor<2x11x19x7xbf16>
}
