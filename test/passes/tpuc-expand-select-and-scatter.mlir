// RUN: tpuc-opt %s --tpuc-expand-select-and-scatter --split-input-file --verify-diagnostics | FileCheck %s
// Numerics (emulator and interpreter, ties included): test/e2e/pool-grad.mlir.

// Two window offsets, no padding: offset 0 is the first selection, offset
// 1 replaces it where `select(selected, v1)` (GE) is false. The compare
// only feeds selects (computed in their registers).
// CHECK-LABEL: func.func @pool1d
// CHECK-SAME: (%[[X:.+]]: tensor<6xf32>, %[[DY:.+]]: tensor<3xf32>)
// CHECK:      %[[INIT:.+]] = hlo.broadcast_in_dim %{{.+}}, dims = [] : (tensor<f32>) -> tensor<6xf32>
// CHECK:      %[[V0:.+]] = hlo.slice %[[X]] [0:5:2]
// CHECK:      %[[K0:.+]] = hlo.constant dense<0> : tensor<3xi32>
// CHECK:      %[[V1:.+]] = hlo.slice %[[X]] [1:6:2]
// CHECK:      %[[K1:.+]] = hlo.constant dense<1> : tensor<3xi32>
// CHECK:      %[[KEEP:.+]] = hlo.compare GE, %[[V0]], %[[V1]]
// CHECK:      hlo.select %[[KEEP]], %[[V0]], %[[V1]]
// CHECK:      %[[IDX:.+]] = hlo.select %[[KEEP]], %[[K0]], %[[K1]]
// CHECK:      %[[M0:.+]] = hlo.compare EQ, %[[IDX]], %[[K0]]
// CHECK:      %[[S0:.+]] = hlo.select %[[M0]], %[[DY]], %{{.+}}
// CHECK:      %[[P0:.+]] = hlo.pad %[[S0]], %{{.+}}, low = [0], high = [1], interior = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<6xf32>
// CHECK:      %[[R0:.+]] = hlo.add %[[INIT]], %[[P0]]
// CHECK:      %[[M1:.+]] = hlo.compare EQ, %[[IDX]], %[[K1]]
// CHECK:      %[[S1:.+]] = hlo.select %[[M1]], %[[DY]], %{{.+}}
// CHECK:      %[[P1:.+]] = hlo.pad %[[S1]], %{{.+}}, low = [1], high = [0], interior = [1]
// CHECK:      %[[R1:.+]] = hlo.add %[[R0]], %[[P1]]
// CHECK:      return %[[R1]]
// CHECK-NOT:  hlo.select_and_scatter
func.func @pool1d(%x: tensor<6xf32>, %dy: tensor<3xf32>) -> tensor<6xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.select_and_scatter %x, %dy, %zero {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}
       : (tensor<6xf32>, tensor<3xf32>, tensor<f32>) -> tensor<6xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<6xf32>
}

// -----

// Padding 1 on each side: offset 0 is in the operand for outputs >= 1,
// offset 2 for outputs <= 1 (iota masks); `b > a` is `a < b`. The pads
// that put the values back crop what falls in the padding.
// CHECK-LABEL: func.func @padded
// CHECK:      %[[P:.+]] = hlo.pad %arg0, %{{.+}}, low = [1], high = [1], interior = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<7xf32>
// CHECK:      %[[I0:.+]] = hlo.iota dim = 0 : tensor<3xi32>
// CHECK:      %[[VALID0:.+]] = hlo.compare GE, %[[I0]], %{{.+}}
// CHECK:      %[[V0:.+]] = hlo.slice %[[P]] [0:5:2]
// CHECK:      hlo.select %[[VALID0]], %{{.+}}, %{{.+}} : (tensor<3xi1>, tensor<3xi32>, tensor<3xi32>)
// CHECK:      %[[V1:.+]] = hlo.slice %[[P]] [1:6:2]
// CHECK:      %[[KEEP1:.+]] = hlo.compare LT, %[[V0]], %[[V1]]
// CHECK:      %[[KEEP1A:.+]] = hlo.and %[[KEEP1]], %[[VALID0]]
// CHECK:      hlo.select %[[KEEP1A]], %[[V0]], %[[V1]]
// CHECK:      %[[VALID2:.+]] = hlo.compare LE, %{{.+}}, %{{.+}}
// CHECK:      %[[V2:.+]] = hlo.slice %[[P]] [2:7:2]
// CHECK:      %[[KEEP2:.+]] = hlo.compare LT, %{{.+}}, %[[V2]]
// CHECK:      %[[PAD2:.+]] = hlo.not %[[VALID2]]
// CHECK:      %[[KEEP2O:.+]] = hlo.or %[[KEEP2]], %[[PAD2]]
// CHECK:      hlo.select %[[KEEP2O]], %{{.+}}, %[[V2]]
// CHECK:      hlo.pad %{{.+}}, %{{.+}}, low = [-1], high = [1], interior = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<5xf32>
// CHECK:      hlo.pad %{{.+}}, %{{.+}}, low = [0], high = [0], interior = [1]
// CHECK:      hlo.pad %{{.+}}, %{{.+}}, low = [1], high = [-1], interior = [1]
func.func @padded(%x: tensor<5xf32>, %dy: tensor<3xf32>) -> tensor<5xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.select_and_scatter %x, %dy, %zero {window_dimensions = array<i64: 3>, window_strides = array<i64: 2>, padding = array<i64: 1, 1>}
       : (tensor<5xf32>, tensor<3xf32>, tensor<f32>) -> tensor<5xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare GT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<5xf32>
}

// -----

func.func @select_eq(%x: tensor<4xf32>, %dy: tensor<2xf32>) -> tensor<4xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{tpuc compiles 'hlo.select_and_scatter' only with a select that is one GE, GT, LE or LT comparison of its arguments}}
  %0 = hlo.select_and_scatter %x, %dy, %zero {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}
       : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare EQ, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @scatter_max(%x: tensor<4xf32>, %dy: tensor<2xf32>) -> tensor<4xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{tpuc compiles 'hlo.select_and_scatter' only with a scatter that adds its arguments}}
  %0 = hlo.select_and_scatter %x, %dy, %zero {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}
       : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.maximum %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A pool gradient on H and W of NHWC is the VPU kernel's
// (passes/HloToTpu/ReduceWindow.cpp): left as it is. The same window on
// the channel dim (dim 3) is not: expanded.
// CHECK-LABEL: func.func @nhwc_pool
// CHECK:      %[[K:.+]] = hlo.select_and_scatter
// CHECK-SAME: window_dimensions = array<i64: 1, 3, 3, 1>
// CHECK-NOT:  hlo.select_and_scatter
// CHECK:      return %[[K]], %{{.+}}
func.func @nhwc_pool(%x: tensor<2x9x9x8xf32>, %dy: tensor<2x4x4x8xf32>, %dz: tensor<2x9x9x3xf32>)
    -> (tensor<2x9x9x8xf32>, tensor<2x9x9x8xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.select_and_scatter %x, %dy, %zero {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}
       : (tensor<2x9x9x8xf32>, tensor<2x4x4x8xf32>, tensor<f32>) -> tensor<2x9x9x8xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %1 = hlo.select_and_scatter %x, %dz, %zero {window_dimensions = array<i64: 1, 1, 1, 3>, window_strides = array<i64: 1, 1, 1, 3>, padding = array<i64: 0, 0, 0, 0, 0, 0, 0, 1>}
       : (tensor<2x9x9x8xf32>, tensor<2x9x9x3xf32>, tensor<f32>) -> tensor<2x9x9x8xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0, %1 : tensor<2x9x9x8xf32>, tensor<2x9x9x8xf32>
}
