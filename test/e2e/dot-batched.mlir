// Batched dot_generals on the MXU against the reference interpreter:
// mha_block's attention scores (bf16 [12,128,64] x [12,64,128] -> f32,
// a K of 64 zero-padded to the MXU's 128) and a ragged f32 batch
// ([3,20,70] x [3,70,300] -> bf16: ragged M, K and N, an odd number of
// column tiles, a bf16 result rounded once from the f32 accumulator), as
// one kernel looping over the batch. bf16 x bf16 products are exact and
// accumulate in f32, so result0 differs from the interpreter only by the
// order of the f32 additions (measured 1.6e-7 of the largest output).
// result1 rounds its f32 operands to bf16 (DEFAULT precision, 2^-8 each)
// and its result to bf16 (2^-8): tolerance 2^-6 of the largest output
// (measured 5.7e-3). The bf16 result is converted to f32 for the
// comparison (numpy reads no bf16 .npy).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s -o %t/dot.tpx
// RUN: tpuc-run %t/dot.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 2 0.015625 | FileCheck %s
// CHECK: result0: ok shape=[12, 128, 128]
// CHECK: result1: ok shape=[3, 20, 300]
// The scores alone at a tolerance of 1e-5: bf16 operands are exact.
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 1 1e-5 | FileCheck %s --check-prefix=EXACT
// EXACT: result0: ok

func.func @main(%q: tensor<12x128x64xbf16>, %k: tensor<12x64x128xbf16>,
                %x: tensor<3x20x70xf32>, %y: tensor<3x70x300xf32>)
    -> (tensor<12x128x128xf32>, tensor<3x20x300xf32>) {
  %s = hlo.dot_general %q, %k, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
      : (tensor<12x128x64xbf16>, tensor<12x64x128xbf16>) -> tensor<12x128x128xf32>
  %r = hlo.dot_general %x, %y, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
      : (tensor<3x20x70xf32>, tensor<3x70x300xf32>) -> tensor<3x20x300xbf16>
  %rf = hlo.convert %r : (tensor<3x20x300xbf16>) -> tensor<3x20x300xf32>
  return %s, %rf : tensor<12x128x128xf32>, tensor<3x20x300xf32>
}
