// RUN: tpuc-opt %s --split-input-file --tpuc-expand-cholesky | FileCheck %s --implicit-check-not=hlo.cholesky

// One 7-column block: the unblocked loop (a, l, error), one sqrt of the
// pivot per trip, the column masked in; NaN selected where a pivot was NaN.
// CHECK-LABEL: func.func @lower
// CHECK: %[[W:.+]]:4 = hlo.while(%{{.+}}, %[[A:.+]], %{{.+}}, %{{.+}}) : tensor<i32>, tensor<2x7x7xf32>, tensor<2x7x7xf32>, tensor<2x1x1xi1>
// CHECK: hlo.compare LT
// CHECK: } do {
// CHECK: hlo.dot_general {{.*}}lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [2]>{{.*}}precision_config = [#hlo<precision HIGHEST>, #hlo<precision HIGHEST>]
// CHECK: hlo.dynamic_slice {{.*}} sizes = [2, 1, 1]
// CHECK: hlo.sqrt
// CHECK: hlo.compare NE
// CHECK: hlo.divide
// CHECK: hlo.select
// CHECK: }
// CHECK: %[[NAN:.+]] = hlo.constant dense<0x7FC00000> : tensor<2x7x7xf32>
// CHECK: %[[R:.+]] = hlo.select %{{.+}}, %[[NAN]], %[[W]]#2
// CHECK: return %[[R]]
func.func @lower(%a: tensor<2x7x7xf32>) -> tensor<2x7x7xf32> {
  %0 = hlo.cholesky %a {lower = true} : tensor<2x7x7xf32>
  return %0 : tensor<2x7x7xf32>
}

// -----

// Upper: the lower factor of the transpose, transposed back.
// CHECK-LABEL: func.func @upper
// CHECK: hlo.transpose %{{.+}}, dims = [1, 0]
// CHECK: hlo.while
// CHECK: hlo.transpose %{{.+}}, dims = [1, 0]
func.func @upper(%a: tensor<5x5xf32>) -> tensor<5x5xf32> {
  %0 = hlo.cholesky %a : tensor<5x5xf32>
  return %0 : tensor<5x5xf32>
}

// -----

// 130 columns: a 128-column block, the 2 rows below it by a triangular
// solve (right side, lower, transposed), then the trailing 2x2 block
// updated by the product of the factored rows.
// CHECK-LABEL: func.func @blocked
// CHECK: hlo.while
// CHECK: hlo.triangular_solve %{{.+}}, %{{.+}} {lower = true, transpose_a = true} : (tensor<128x128xf32>, tensor<2x128xf32>) -> tensor<2x128xf32>
// CHECK: hlo.dynamic_update_slice
// CHECK: hlo.dot_general {{.*}} : (tensor<2x128xf32>, tensor<2x128xf32>) -> tensor<2x2xf32>
// CHECK: hlo.while
func.func @blocked(%a: tensor<130x130xf32>) -> tensor<130x130xf32> {
  %0 = hlo.cholesky %a {lower = true} : tensor<130x130xf32>
  return %0 : tensor<130x130xf32>
}

// -----

// One column: a sqrt, no loop.
// CHECK-LABEL: func.func @scalar
// CHECK-NOT: hlo.while
// CHECK: hlo.sqrt
func.func @scalar(%a: tensor<3x1x1xf32>) -> tensor<3x1x1xf32> {
  %0 = hlo.cholesky %a {lower = true} : tensor<3x1x1xf32>
  return %0 : tensor<3x1x1xf32>
}
