// Convolutions outside the kernels' forms, compiled through
// tpuc-canonicalize-convolutions (tpuc compile's pipeline), ragged sizes:
//   result0: the input gradient of a 3x3 stride-2 convolution as JAX emits
//            it (lhs_dilation 2, window reversal, kernel labels 01oi):
//            an interior pad of dy, a transpose of the kernel
//   result1: NCHW (bf01_oi01->bf01) with rhs_dilation 2: transposes
//   result2: feature_group_count 2 with 128 features per group: one
//            convolution per group, concatenated
//   result3: feature_group_count 4 (3 -> 2 features per group): one
//            block-diagonal kernel
//   result4: 1-D (b0f_0io->b0f), stride 2: a unit spatial dim
//   result5: batch_group_count 2 (the weight gradient of a 2-group
//            convolution, f01b_i01o->01bf): one per group, concatenated
//   result6: 3-D (b012f_012io->b012f), SAME padding: the sum of 3 2-D ones
//   result7: negative padding (-1, 0, 0, -1): a cropping pad
// DEFAULT precision: operands are rounded to bf16 (2^-8 relative each),
// products are exact and accumulate in f32 in another order than the
// interpreter's; over K <= 27 * 128 terms of random [-1, 1) inputs the
// error stays below 2^-7 of the largest output (measured 2.3e-3).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s -o %t/conv.tpx
// RUN: tpuc-run %t/conv.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 8 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[2, 9, 7, 3]
// CHECK: result1: ok shape=[2, 10, 9, 7]
// CHECK: result2: ok shape=[1, 5, 5, 256]
// CHECK: result3: ok shape=[2, 7, 9, 8]
// CHECK: result4: ok shape=[2, 9, 6]
// CHECK: result5: ok shape=[3, 3, 4, 12]
// CHECK: result6: ok shape=[1, 5, 6, 7, 4]
// CHECK: result7: ok shape=[1, 6, 6, 4]

func.func @conv(%dy: tensor<2x5x4x10xf32>, %w: tensor<3x3x3x10xf32>,
                %x: tensor<2x3x9x7xf32>, %wn: tensor<10x3x3x3xf32>,
                %g: tensor<1x5x5x256xf32>, %wg: tensor<3x3x128x256xf32>,
                %h: tensor<2x7x9x12xf32>, %wh: tensor<3x3x3x8xf32>,
                %s: tensor<2x17x5xf32>, %ws: tensor<3x5x6xf32>,
                %bx: tensor<2x8x8x8xf32>, %bdy: tensor<2x8x8x12xf32>,
                %v: tensor<1x5x6x7x3xf32>, %wv: tensor<3x3x3x3x4xf32>,
                %n: tensor<1x9x9x3xf32>, %wnn: tensor<3x3x3x4xf32>)
    -> (tensor<2x9x7x3xf32>, tensor<2x10x9x7xf32>, tensor<1x5x5x256xf32>, tensor<2x7x9x8xf32>,
        tensor<2x9x6xf32>, tensor<3x3x4x12xf32>, tensor<1x5x6x7x4xf32>, tensor<1x6x6x4xf32>) {
  %0 = hlo.convolution %dy, %w, dim_labels = <"b01f_01oi->b01f"> {lhs_dilation = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, window_reversal = array<i1: true, true>}
       : (tensor<2x5x4x10xf32>, tensor<3x3x3x10xf32>) -> tensor<2x9x7x3xf32>
  %1 = hlo.convolution %x, %wn, dim_labels = <"bf01_oi01->bf01"> {padding = array<i64: 2, 2, 2, 2>, rhs_dilation = array<i64: 2, 2>}
       : (tensor<2x3x9x7xf32>, tensor<10x3x3x3xf32>) -> tensor<2x10x9x7xf32>
  %2 = hlo.convolution %g, %wg, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 2 : i64}
       : (tensor<1x5x5x256xf32>, tensor<3x3x128x256xf32>) -> tensor<1x5x5x256xf32>
  %3 = hlo.convolution %h, %wh, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 4 : i64}
       : (tensor<2x7x9x12xf32>, tensor<3x3x3x8xf32>) -> tensor<2x7x9x8xf32>
  %4 = hlo.convolution %s, %ws, dim_labels = <"b0f_0io->b0f"> {window_strides = array<i64: 2>, padding = array<i64: 1, 1>}
       : (tensor<2x17x5xf32>, tensor<3x5x6xf32>) -> tensor<2x9x6xf32>
  %5 = hlo.convolution %bx, %bdy, dim_labels = <"f01b_i01o->01bf"> {padding = array<i64: 1, 1, 1, 1>, batch_group_count = 2 : i64}
       : (tensor<2x8x8x8xf32>, tensor<2x8x8x12xf32>) -> tensor<3x3x4x12xf32>
  %6 = hlo.convolution %v, %wv, dim_labels = <"b012f_012io->b012f"> {padding = array<i64: 1, 1, 1, 1, 1, 1>}
       : (tensor<1x5x6x7x3xf32>, tensor<3x3x3x3x4xf32>) -> tensor<1x5x6x7x4xf32>
  %7 = hlo.convolution %n, %wnn, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: -1, 0, 0, -1>}
       : (tensor<1x9x9x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2x9x7x3xf32>, tensor<2x10x9x7xf32>, tensor<1x5x5x256xf32>, tensor<2x7x9x8xf32>,
        tensor<2x9x6xf32>, tensor<3x3x4x12xf32>, tensor<1x5x6x7x4xf32>, tensor<1x6x6x4xf32>
}
