// s64/u64 convolution through tpuc-expand-x64 (im2col: one strided slice of
// the padded input's words per kernel offset, concatenated, and the word
// form of dot_general) against the interpreter, bit for bit, on wrapping
// products of the pairs of Inputs/x64_inputs.py (INT64_MIN, 2^32 +- ..,
// negatives): strides, edge padding (negative too), lhs and rhs dilation,
// window reversal, three dim_labels and a u64 1-D convolution.
// RUN: rm -rf %t && mkdir -p %t/in %t/got %t/want
// RUN: %python_numpy %S/Inputs/x64_inputs.py %t/in
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --input=@%t/in/a.npy --input=@%t/in/b.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/in/a.npy --input=@%t/in/b.npy --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got %t/want 4 | FileCheck %s
// CHECK-COUNT-4: exact
// RUN: tpuc compile %s --target=tpu-v6e -o %t/v6e.tpx
// Main's binary has no word form for it:
// RUN: tpuc compile %s --emit=fused -o - | FileCheck %s --check-prefix=IR --implicit-check-not=hlo.convolution
// IR: func.func @main

func.func @main(%a: tensor<16x16xi64>, %b: tensor<16x16xi64>)
    -> (tensor<1x4x2x4xi64>, tensor<4x4x8x2xi64>, tensor<6x3x4x16xi64>,
        tensor<2x29x16xui64>) {
  // c = a b + b, d = (a b) ^ a (elementwise, wrapping).
  %ab = hlo.multiply %a, %b : tensor<16x16xi64>
  %c = hlo.add %ab, %b : tensor<16x16xi64>
  %d = hlo.xor %ab, %a : tensor<16x16xi64>
  %x1 = hlo.reshape %c : (tensor<16x16xi64>) -> tensor<1x8x8x4xi64>
  %w1 = hlo.reshape %d : (tensor<16x16xi64>) -> tensor<4x4x4x4xi64>
  %r1 = hlo.convolution %x1, %w1, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 1, 2, 0, 1>, rhs_dilation = array<i64: 1, 2>}
      : (tensor<1x8x8x4xi64>, tensor<4x4x4x4xi64>) -> tensor<1x4x2x4xi64>
  %x2 = hlo.reshape %c : (tensor<16x16xi64>) -> tensor<4x4x4x4xi64>
  %w2 = hlo.reshape %d : (tensor<16x16xi64>) -> tensor<4x4x2x8xi64>
  %r2 = hlo.convolution %x2, %w2, dim_labels = <"bf01_oi01->bf01"> {padding = array<i64: 1, 1, 3, 2>, lhs_dilation = array<i64: 2, 1>, window_reversal = array<i1: true, false>}
      : (tensor<4x4x4x4xi64>, tensor<4x4x2x8xi64>) -> tensor<4x4x8x2xi64>
  %x3 = hlo.reshape %c : (tensor<16x16xi64>) -> tensor<4x8x2x4xi64>
  %w3 = hlo.reshape %d : (tensor<16x16xi64>) -> tensor<4x2x2x16xi64>
  %r3 = hlo.convolution %x3, %w3, dim_labels = <"f01b_i01o->01bf"> {padding = array<i64: -1, 0, 1, 1>}
      : (tensor<4x8x2x4xi64>, tensor<4x2x2x16xi64>) -> tensor<6x3x4x16xi64>
  %uc = hlo.convert %c : (tensor<16x16xi64>) -> tensor<16x16xui64>
  %ud = hlo.convert %d : (tensor<16x16xi64>) -> tensor<16x16xui64>
  %x4 = hlo.reshape %uc : (tensor<16x16xui64>) -> tensor<2x32x4xui64>
  %w4 = hlo.reshape %ud : (tensor<16x16xui64>) -> tensor<4x4x16xui64>
  %r4 = hlo.convolution %x4, %w4, dim_labels = <"b0f_0io->b0f">
      : (tensor<2x32x4xui64>, tensor<4x4x16xui64>) -> tensor<2x29x16xui64>
  return %r1, %r2, %r3, %r4
      : tensor<1x4x2x4xi64>, tensor<4x4x8x2xi64>, tensor<6x3x4x16xi64>,
        tensor<2x29x16xui64>
}
