// Malformed input to tpuc-opt is a diagnostic with file:line:col and a
// non-zero exit, never a crash.
// RUN: not tpuc-opt %s --split-input-file 2>&1 | FileCheck %s

// CHECK: bad-input.mlir:[[@LINE+2]]:8: error: custom op 'hlo.frobnicate' is unknown
func.func @unknown_op(%a: tensor<4xf32>) {
  %0 = hlo.frobnicate %a : tensor<4xf32>
  return
}

// -----

// CHECK: bad-input.mlir:[[@LINE+2]]:30: error: expected '='
func.func @bad_attribute(%a: tensor<4x8xf32>) {
  %0 = hlo.transpose %a, dims [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}

// -----

// CHECK: bad-input.mlir:[[@LINE+2]]:8: error: 'hlo.dot_general' op contracting dimension sizes differ
func.func @shape_mismatch(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

// CHECK: bad-input.mlir:[[@LINE+2]]:20: error: custom op 'hlo.compare' unknown comparison_direction 'ABOVE'
func.func @bad_enum(%a: tensor<4xf32>) {
  %0 = hlo.compare ABOVE, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

// CHECK: bad-input.mlir:[[@LINE+2]]:21: error: expected ':'
func.func @truncated(%a: tensor<4xf32>) {
  %0 = hlo.negate %a
