// The dots of an MLP's backward pass and a vector-matrix product, which
// tpuc-decompose-dots rewrites into [M,K] x [K,N] with transposes and
// reshapes: the weight gradient x^T dy (lhs_contracting = 0,
// rhs_contracting = 0), the input gradient dy W^T (contracting = 1 and 1)
// and v W with a rank-1 v. Ragged shapes (M = 20, K = 200, N = 72), f32 at
// DEFAULT precision: operands rounded to bf16 (2^-8 each), so over K <= 200
// random [-1,1) terms the error stays below 2^-7 of the largest output.
// The pipeline is spelled out: in `tpuc compile` the canonicalizer that
// runs after tpuc-decompose-dots folds the transposes back into the dots.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc-opt %s --tpuc-decompose-dots --tpuc-convert-hlo-to-tpu -o %t/dot.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/dot.tpu.mlir -o %t/dot.tpx
// RUN: tpuc-run %t/dot.tpx --random-inputs=11 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=11 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 3 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[200, 72]
// CHECK: result1: ok shape=[20, 200]
// CHECK: result2: ok shape=[72]

func.func @main(%x: tensor<20x200xf32>, %dy: tensor<20x72xf32>,
                %w: tensor<200x72xf32>, %v: tensor<200xf32>)
    -> (tensor<200x72xf32>, tensor<20x200xf32>, tensor<72xf32>) {
  %dw = hlo.dot_general %x, %dy, dims = <lhs_contracting = [0], rhs_contracting = [0]>
      : (tensor<20x200xf32>, tensor<20x72xf32>) -> tensor<200x72xf32>
  %dx = hlo.dot_general %dy, %w, dims = <lhs_contracting = [1], rhs_contracting = [1]>
      : (tensor<20x72xf32>, tensor<200x72xf32>) -> tensor<20x200xf32>
  %vw = hlo.dot_general %v, %w, dims = <lhs_contracting = [0], rhs_contracting = [0]>
      : (tensor<200xf32>, tensor<200x72xf32>) -> tensor<72xf32>
  return %dw, %dx, %vw : tensor<200x72xf32>, tensor<20x200xf32>, tensor<72xf32>
}
