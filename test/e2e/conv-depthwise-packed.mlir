// Depthwise NCHW convolutions whose padded plane fits 128 lanes: the
// packed kernel (planes DMAd into zero-padded slots, two planes a vreg when
// both fit in 64 lanes, docs/codegen.md "Depthwise NCHW"):
//   result0: bf16 2x75x56x56 3x3 pad 1 (the corpus graph's form): two
//            planes a vreg, 10 groups of 16 planes (the unrolled loop, a
//            ragged last group)
//   result1: f32 5x5 stride (2,1) pad 2, rhs_dilation (1,2), reversed
//            rows, 9 planes (a last pair of one plane)
//   result2: f32 W = 100, stride (2,1): one plane a vreg
//   result3: bf16 1x144x7x7 3x3 pad 1 (MobileNet's last stage, NCHW)
// The products and their f32 sums in (kh, kw) order are the interpreter's,
// so the results are bit-exact (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/conv.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/conv.tpu.mlir -o %t/conv.tpx
// RUN: tpuc-run %t/conv.tpx --random-inputs=2 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=2 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 4 0 | FileCheck %s
// CHECK: result0: ok shape=[2, 75, 56, 56] max_abs=0 max_rel=0
// CHECK: result1: ok shape=[1, 9, 10, 26] max_abs=0 max_rel=0
// CHECK: result2: ok shape=[3, 7, 9, 100] max_abs=0 max_rel=0
// CHECK: result3: ok shape=[1, 144, 7, 7] max_abs=0 max_rel=0

func.func @conv(%x: tensor<2x75x56x56xbf16>, %w: tensor<75x1x3x3xbf16>,
                %y: tensor<1x9x20x30xf32>, %v: tensor<9x1x5x5xf32>,
                %z: tensor<3x7x17x100xf32>, %u: tensor<7x1x3x3xf32>,
                %s: tensor<1x144x7x7xbf16>, %t: tensor<144x1x3x3xbf16>)
    -> (tensor<2x75x56x56xbf16>, tensor<1x9x10x26xf32>,
        tensor<3x7x9x100xf32>, tensor<1x144x7x7xbf16>) {
  %0 = hlo.convolution %x, %w, dim_labels = <"bf01_oi01->bf01"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 75 : i64}
       : (tensor<2x75x56x56xbf16>, tensor<75x1x3x3xbf16>) -> tensor<2x75x56x56xbf16>
  %1 = hlo.convolution %y, %v, dim_labels = <"bf01_oi01->bf01"> {window_strides = array<i64: 2, 1>, padding = array<i64: 2, 2, 2, 2>, rhs_dilation = array<i64: 1, 2>, window_reversal = array<i1: true, false>, feature_group_count = 9 : i64}
       : (tensor<1x9x20x30xf32>, tensor<9x1x5x5xf32>) -> tensor<1x9x10x26xf32>
  %2 = hlo.convolution %z, %u, dim_labels = <"bf01_oi01->bf01"> {window_strides = array<i64: 2, 1>, padding = array<i64: 1, 1, 1, 1>, feature_group_count = 7 : i64}
       : (tensor<3x7x17x100xf32>, tensor<7x1x3x3xf32>) -> tensor<3x7x9x100xf32>
  %3 = hlo.convolution %s, %t, dim_labels = <"bf01_oi01->bf01"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 144 : i64}
       : (tensor<1x144x7x7xbf16>, tensor<144x1x3x3xbf16>) -> tensor<1x144x7x7xbf16>
  return %0, %1, %2, %3 : tensor<2x75x56x56xbf16>, tensor<1x9x10x26xf32>, tensor<3x7x9x100xf32>, tensor<1x144x7x7xbf16>
}
