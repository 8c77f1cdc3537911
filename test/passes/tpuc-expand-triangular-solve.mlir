// RUN: tpuc-opt %s --split-input-file --tpuc-expand-triangular-solve | FileCheck %s --implicit-check-not=hlo.triangular_solve

// A 1x1 system: b / a.
// CHECK-LABEL: func.func @one
// CHECK: %[[A:.+]] = hlo.broadcast_in_dim %arg0, dims = [0, 1, 2] : (tensor<2x1x1xf32>) -> tensor<2x1x4xf32>
// CHECK: %[[X:.+]] = hlo.divide %arg1, %[[A]]
// CHECK: return %[[X]]
func.func @one(%a: tensor<2x1x1xf32>, %b: tensor<2x1x4xf32>) -> tensor<2x1x4xf32> {
  %0 = hlo.triangular_solve %a, %b {left_side = true, lower = true}
      : (tensor<2x1x1xf32>, tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
  return %0 : tensor<2x1x4xf32>
}

// -----

// 12 matrices of 3 (batch > 8, m < 32): SolveDirectly, unrolled. Lower,
// left: row 0 divided by a[0, 0], then rows 1 and 2 minus the product of
// the solved rows; no loop.
// CHECK-LABEL: func.func @direct
// CHECK-NOT: hlo.while
// CHECK: hlo.slice %arg1 [0:12:1, 0:1:1, 0:5:1]
// CHECK: hlo.slice %arg0 [0:12:1, 0:1:1, 0:1:1]
// CHECK: hlo.divide
// CHECK: hlo.dynamic_update_slice
// CHECK: hlo.slice %arg0 [0:12:1, 1:2:1, 0:1:1]
// CHECK: hlo.dot_general
// CHECK: hlo.subtract
// CHECK-COUNT-2: hlo.dynamic_update_slice
func.func @direct(%a: tensor<12x3x3xf32>, %b: tensor<12x3x5xf32>) -> tensor<12x3x5xf32> {
  %0 = hlo.triangular_solve %a, %b {left_side = true, lower = true}
      : (tensor<12x3x3xf32>, tensor<12x3x5xf32>) -> tensor<12x3x5xf32>
  return %0 : tensor<12x3x5xf32>
}

// -----

// 130 x 130: a masked to its lower triangle, two diagonal blocks (the
// second a 2x2 padded with the identity) inverted by one loop of 127 trips
// over both, then two block rows.
// CHECK-LABEL: func.func @blocked
// CHECK: hlo.slice %{{.+}} [0:128:1, 0:128:1]
// CHECK: hlo.slice %{{.+}} [128:130:1, 128:130:1]
// CHECK: hlo.pad
// CHECK: hlo.concatenate
// CHECK: hlo.reduce
// CHECK: hlo.while
// CHECK: hlo.constant dense<128> : tensor<i32>
// CHECK: } do {
// CHECK: hlo.dynamic_slice {{.*}} sizes = [2, 1, 128]
// CHECK: hlo.dot_general
// CHECK: hlo.negate
// CHECK: hlo.dynamic_update_slice
// CHECK: }
// CHECK: hlo.concatenate({{.*}}) dim = 0 : (tensor<128x4xf32>, tensor<2x4xf32>) -> tensor<130x4xf32>
func.func @blocked(%a: tensor<130x130xf32>, %b: tensor<130x4xf32>) -> tensor<130x4xf32> {
  %0 = hlo.triangular_solve %a, %b {left_side = true, lower = true}
      : (tensor<130x130xf32>, tensor<130x4xf32>) -> tensor<130x4xf32>
  return %0 : tensor<130x4xf32>
}
