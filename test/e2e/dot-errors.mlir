// The dot_general forms the MXU kernel rejects, one error at the op each.
// RUN: tpuc-opt %s --split-input-file --verify-diagnostics --tpuc-convert-hlo-to-tpu
// Through `tpuc compile` both compile: tpuc-strength-reduce-dots rewrites
// the integer dot as multiply + reduce (values: test/e2e/dot-small.mlir),
// tpuc-decompose-dots transposes the other's operand.
// RUN: tpuc compile %s -o %t.tpx

// s32 products have no MXU path (the MXU multiplies bf16).
func.func @main(%a: tensor<8x128xi32>, %b: tensor<128x128xi32>) -> tensor<8x128xi32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.dot_general' with integer operands yet}}
  %d = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<8x128xi32>, tensor<128x128xi32>) -> tensor<8x128xi32>
  return %d : tensor<8x128xi32>
}

// -----

// Without tpuc-decompose-dots a transposed operand reaches the kernel.
func.func @transposed(%a: tensor<128x8xf32>, %b: tensor<128x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.dot_general' other than [M,K] x [K,N] or [B,M,K] x [B,K,N] (tpuc-decompose-dots makes that form) yet}}
  %d = hlo.dot_general %a, %b, dims = <lhs_contracting = [0], rhs_contracting = [0]>
      : (tensor<128x8xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
  return %d : tensor<8x128xf32>
}
