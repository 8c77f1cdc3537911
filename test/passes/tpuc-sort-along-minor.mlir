// RUN: tpuc-opt %s --tpuc-sort-along-minor | FileCheck %s
// Numerics (emulator and interpreter, with values, both directions):
// test/difftest/regressions/sort-major-dimension.test.

// A sort along dimension 0 of a rank-3 array with values: both operands
// move dimension 0 last ([1, 2, 0]), the sort runs along 2 with the same
// comparator and stability, the results move back ([2, 0, 1]).
// CHECK-LABEL: func.func @keys_and_values
// CHECK-SAME: (%[[K:.+]]: tensor<5x3x2xf32>, %[[V:.+]]: tensor<5x3x2xi32>)
// CHECK:      %[[TK:.+]] = hlo.transpose %[[K]], dims = [1, 2, 0] : (tensor<5x3x2xf32>) -> tensor<3x2x5xf32>
// CHECK:      %[[TV:.+]] = hlo.transpose %[[V]], dims = [1, 2, 0] : (tensor<5x3x2xi32>) -> tensor<3x2x5xi32>
// CHECK:      %[[S:.+]]:2 = hlo.sort(%[[TK]], %[[TV]]) dim = 2 {is_stable = true}
// CHECK:        hlo.compare GT
// CHECK:      %[[RK:.+]] = hlo.transpose %[[S]]#0, dims = [2, 0, 1] : (tensor<3x2x5xf32>) -> tensor<5x3x2xf32>
// CHECK:      %[[RV:.+]] = hlo.transpose %[[S]]#1, dims = [2, 0, 1] : (tensor<3x2x5xi32>) -> tensor<5x3x2xi32>
// CHECK:      return %[[RK]], %[[RV]]
func.func @keys_and_values(%k: tensor<5x3x2xf32>, %v: tensor<5x3x2xi32>) -> (tensor<5x3x2xf32>, tensor<5x3x2xi32>) {
  %0:2 = hlo.sort(%k, %v) dim = 0 {is_stable = true} : (tensor<5x3x2xf32>, tensor<5x3x2xi32>) -> (tensor<5x3x2xf32>, tensor<5x3x2xi32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %1 = hlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %1 : tensor<i1>
  }
  return %0#0, %0#1 : tensor<5x3x2xf32>, tensor<5x3x2xi32>
}

// Along the minor dimension already, or rank 1: unchanged.
// CHECK-LABEL: func.func @minor
// CHECK-NOT:  hlo.transpose
// CHECK:      hlo.sort(%{{.+}}) dim = 1
// CHECK:      hlo.sort(%{{.+}}) dim = 0
// CHECK-NOT:  hlo.transpose
func.func @minor(%x: tensor<4x6xf32>, %y: tensor<6xf32>) -> (tensor<4x6xf32>, tensor<6xf32>) {
  %0 = hlo.sort(%x) dim = 1 : (tensor<4x6xf32>) -> tensor<4x6xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %1 : tensor<i1>
  }
  %2 = hlo.sort(%y) dim = 0 : (tensor<6xf32>) -> tensor<6xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %3 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %3 : tensor<i1>
  }
  return %0, %2 : tensor<4x6xf32>, tensor<6xf32>
}
