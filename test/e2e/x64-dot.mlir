// s64/u64 dot_general through tpuc-expand-x64 (operands broadcast per word
// to the product space, the word-form multiply, the s32 add-reduces of the
// sum) against the interpreter, bit for bit, on the 16 x 16 pairs of
// Inputs/x64_inputs.py (0, +-1, INT64_MIN/MAX, 2^32 +- .., negatives:
// products and sums that wrap): a matmul, a contraction over lhs dim 0, a
// batch matmul, two contracting dims, batch dims only (no sum) and u64.
// RUN: rm -rf %t && mkdir -p %t/in %t/got %t/want
// RUN: %python_numpy %S/Inputs/x64_inputs.py %t/in
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --input=@%t/in/a.npy --input=@%t/in/b.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/in/a.npy --input=@%t/in/b.npy --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got %t/want 6 | FileCheck %s
// CHECK-COUNT-6: exact
// The interpreter's matmul is numpy's wrapping int64 one:
// RUN: %python_numpy -c "import numpy as np; a = np.load('%t/in/a.npy'); b = np.load('%t/in/b.npy'); w = np.load('%t/want/result0.npy'); print('numpy', 'same' if (w == (a * b + b) @ ((a * b) ^ a)).all() else 'DIFFERENT')" | FileCheck %s --check-prefix=NP
// NP: numpy same
// RUN: tpuc compile %s --target=tpu-v6e -o %t/v6e.tpx
// Main's binary has no word form for it:
// RUN: tpuc compile %s --emit=fused -o - | FileCheck %s --check-prefix=IR --implicit-check-not=hlo.dot_general
// IR: func.func @main

func.func @main(%a: tensor<16x16xi64>, %b: tensor<16x16xi64>)
    -> (tensor<16x16xi64>, tensor<16x16xi64>, tensor<4x4x4xi64>,
        tensor<16x16xi64>, tensor<16x16x16xi64>, tensor<16x16xui64>) {
  // Operands without the inputs' row/column structure: c = a b + b,
  // d = (a b) ^ a (elementwise, wrapping).
  %ab = hlo.multiply %a, %b : tensor<16x16xi64>
  %c = hlo.add %ab, %b : tensor<16x16xi64>
  %d = hlo.xor %ab, %a : tensor<16x16xi64>
  %mm = hlo.dot_general %c, %d, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<16x16xi64>, tensor<16x16xi64>) -> tensor<16x16xi64>
  %tn = hlo.dot_general %c, %d, dims = <lhs_contracting = [0], rhs_contracting = [1]>
      : (tensor<16x16xi64>, tensor<16x16xi64>) -> tensor<16x16xi64>
  %a3 = hlo.reshape %c : (tensor<16x16xi64>) -> tensor<4x4x16xi64>
  %b3 = hlo.reshape %d : (tensor<16x16xi64>) -> tensor<4x16x4xi64>
  %bmm = hlo.dot_general %a3, %b3, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
      : (tensor<4x4x16xi64>, tensor<4x16x4xi64>) -> tensor<4x4x4xi64>
  %a4 = hlo.reshape %c : (tensor<16x16xi64>) -> tensor<16x4x4xi64>
  %b4 = hlo.reshape %d : (tensor<16x16xi64>) -> tensor<4x4x16xi64>
  %two = hlo.dot_general %a4, %b4, dims = <lhs_contracting = [1, 2], rhs_contracting = [0, 1]>
      : (tensor<16x4x4xi64>, tensor<4x4x16xi64>) -> tensor<16x16xi64>
  %outer = hlo.dot_general %c, %d, dims = <lhs_batch = [0], rhs_batch = [1]>
      : (tensor<16x16xi64>, tensor<16x16xi64>) -> tensor<16x16x16xi64>
  %ua = hlo.convert %c : (tensor<16x16xi64>) -> tensor<16x16xui64>
  %ub = hlo.convert %d : (tensor<16x16xi64>) -> tensor<16x16xui64>
  %umm = hlo.dot_general %ua, %ub, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<16x16xui64>, tensor<16x16xui64>) -> tensor<16x16xui64>
  return %mm, %tn, %bmm, %two, %outer, %umm
      : tensor<16x16xi64>, tensor<16x16xi64>, tensor<4x4x4xi64>,
        tensor<16x16xi64>, tensor<16x16x16xi64>, tensor<16x16xui64>
}
