// RUN: tpuc-opt %s --inline | FileCheck %s
// hlo.call is a CallOpInterface: the upstream inliner inlines computations.

// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>)
// CHECK-NOT: hlo.call
// CHECK: %[[N:.+]] = hlo.negate %[[A]] : tensor<4xf32>
// CHECK: return %[[N]]
func.func private @neg(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.negate %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @caller(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.call @neg(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
