// RUN: tpuc-opt %s --canonicalize --split-input-file | FileCheck %s
// Folders and canonicalization patterns of the hlo dialect.

// CHECK-LABEL: func.func @reshape_of_reshape
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[R:.+]] = hlo.reshape %[[X]] : (tensor<4x8xf32>) -> tensor<32xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_of_reshape(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %0 = hlo.reshape %x : (tensor<4x8xf32>) -> tensor<2x16xf32>
  %1 = hlo.reshape %0 : (tensor<2x16xf32>) -> tensor<32xf32>
  return %1 : tensor<32xf32>
}

// -----

// CHECK-LABEL: func.func @identity_folds
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]], %[[X]]
func.func @identity_folds(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = hlo.reshape %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = hlo.convert %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = hlo.transpose %x, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = hlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1, %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_of_transpose
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[T:.+]] = hlo.transpose %[[X]], dims = [1, 0, 2] : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
// CHECK-NEXT: return %[[T]]
func.func @transpose_of_transpose(%x: tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  %0 = hlo.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %1 = hlo.transpose %0, dims = [2, 1, 0] : (tensor<4x2x3xf32>) -> tensor<3x2x4xf32>
  return %1 : tensor<3x2x4xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_round_trip
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @transpose_round_trip(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = hlo.transpose %0, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// Constants fold through reshape and splat broadcasts.
// CHECK-LABEL: func.func @constant_folds
// CHECK-DAG: %[[A:.+]] = hlo.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-DAG: %[[B:.+]] = hlo.constant dense<7> : tensor<3x5xi32>
// CHECK: return %[[A]], %[[B]]
func.func @constant_folds() -> (tensor<2x2xf32>, tensor<3x5xi32>) {
  %c = hlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = hlo.reshape %c : (tensor<4xf32>) -> tensor<2x2xf32>
  %s = hlo.constant dense<7> : tensor<i32>
  %1 = hlo.broadcast_in_dim %s, dims = [] : (tensor<i32>) -> tensor<3x5xi32>
  return %0, %1 : tensor<2x2xf32>, tensor<3x5xi32>
}

// -----

// CHECK-LABEL: func.func @tuple_element
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<i32>)
// CHECK-NEXT: return %[[B]]
func.func @tuple_element(%a: tensor<4xf32>, %b: tensor<i32>) -> tensor<i32> {
  %t = hlo.tuple %a, %b : (tensor<4xf32>, tensor<i32>) -> tuple<tensor<4xf32>, tensor<i32>>
  %e = hlo.get_tuple_element %t[1] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<i32>
  return %e : tensor<i32>
}
