// RUN: tpuc-opt %s --tpuc-expand-reduce-window --split-input-file --verify-diagnostics | FileCheck %s
// Numerics (emulator and interpreter, bit-exact): test/e2e/pool-windows.mlir.

// JAX's cumsum: the init-padded row, one slice per window offset, added to
// the broadcast init in window order.
// CHECK-LABEL: func.func @cumsum
// CHECK-SAME: (%[[X:.+]]: tensor<2x4xf32>)
// CHECK:      %[[Z:.+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK:      %[[P:.+]] = hlo.pad %[[X]], %[[Z]], low = [0, 3], high = [0, 0], interior = [0, 0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x7xf32>
// CHECK:      %[[A0:.+]] = hlo.broadcast_in_dim %[[Z]], dims = [] : (tensor<f32>) -> tensor<2x4xf32>
// CHECK:      %[[S0:.+]] = hlo.slice %[[P]] [0:2:1, 0:4:1]
// CHECK:      %[[A1:.+]] = hlo.add %[[A0]], %[[S0]]
// CHECK:      %[[S1:.+]] = hlo.slice %[[P]] [0:2:1, 1:5:1]
// CHECK:      %[[A2:.+]] = hlo.add %[[A1]], %[[S1]]
// CHECK:      %[[S2:.+]] = hlo.slice %[[P]] [0:2:1, 2:6:1]
// CHECK:      %[[A3:.+]] = hlo.add %[[A2]], %[[S2]]
// CHECK:      %[[S3:.+]] = hlo.slice %[[P]] [0:2:1, 3:7:1]
// CHECK:      %[[A4:.+]] = hlo.add %[[A3]], %[[S3]]
// CHECK:      return %[[A4]]
func.func @cumsum(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.reduce_window(%x) init(%zero) {window_dimensions = array<i64: 1, 4>, padding = array<i64: 0, 0, 3, 0>} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<2x4xf32>
}

// -----

// Window dilation 2 and base dilation 2 (interior padding with the init),
// max with its arguments swapped; a stride-2 window.
// CHECK-LABEL: func.func @dilated
// CHECK:      %[[P:.+]] = hlo.pad %arg0, %{{.+}}, low = [1], high = [0], interior = [1] : (tensor<5xf32>, tensor<f32>) -> tensor<10xf32>
// CHECK:      %[[A0:.+]] = hlo.broadcast_in_dim
// CHECK:      %[[S0:.+]] = hlo.slice %[[P]] [0:7:2] : (tensor<10xf32>) -> tensor<4xf32>
// CHECK:      %[[A1:.+]] = hlo.maximum %[[S0]], %[[A0]]
// CHECK:      %[[S1:.+]] = hlo.slice %[[P]] [2:9:2]
// CHECK:      hlo.maximum %[[S1]], %[[A1]]
func.func @dilated(%x: tensor<5xf32>) -> tensor<4xf32> {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %0 = hlo.reduce_window(%x) init(%ninf) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>, window_dilations = array<i64: 2>, base_dilations = array<i64: 2>, padding = array<i64: 1, 0>} : (tensor<5xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.maximum %b, %a : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<4xf32>
}

// -----

// The kernel's own form (H, W of NHWC) stays.
// CHECK-LABEL: func.func @nhwc_pool
// CHECK:      hlo.reduce_window
func.func @nhwc_pool(%x: tensor<1x8x8x4xf32>) -> tensor<1x3x3x4xf32> {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %0 = hlo.reduce_window(%x) init(%ninf) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x3x3x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.maximum %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<1x3x3x4xf32>
}

// -----

// An init that is not the body's identity, with padding: the input padded
// (with the init) together with a pred mask of its real elements; each
// step keeps the accumulator where the mask's slice is false (XLA skips
// the padding).
// CHECK-LABEL: func.func @not_identity
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK:      %[[ONE:.+]] = hlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK:      %[[P:.+]] = hlo.pad %[[X]], %[[ONE]], low = [1], high = [0], interior = [0]
// CHECK:      %[[T:.+]] = hlo.constant dense<true> : tensor<i1>
// CHECK:      %[[F:.+]] = hlo.constant dense<false> : tensor<i1>
// CHECK:      %[[TS:.+]] = hlo.broadcast_in_dim %[[T]], dims = [] : (tensor<i1>) -> tensor<4xi1>
// CHECK:      %[[M:.+]] = hlo.pad %[[TS]], %[[F]], low = [1], high = [0], interior = [0]
// CHECK:      %[[A0:.+]] = hlo.broadcast_in_dim %[[ONE]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK:      %[[S0:.+]] = hlo.slice %[[P]] [0:4:1]
// CHECK:      %[[N0:.+]] = hlo.add %[[A0]], %[[S0]]
// CHECK:      %[[M0:.+]] = hlo.slice %[[M]] [0:4:1]
// CHECK:      %[[A1:.+]] = hlo.select %[[M0]], %[[N0]], %[[A0]]
// CHECK:      %[[S1:.+]] = hlo.slice %[[P]] [1:5:1]
// CHECK:      %[[N1:.+]] = hlo.add %[[A1]], %[[S1]]
// CHECK:      %[[M1:.+]] = hlo.slice %[[M]] [1:5:1]
// CHECK:      %[[A2:.+]] = hlo.select %[[M1]], %[[N1]], %[[A1]]
// CHECK:      return %[[A2]]
func.func @not_identity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = hlo.constant dense<1.0> : tensor<f32>
  %0 = hlo.reduce_window(%x) init(%one) {window_dimensions = array<i64: 2>, padding = array<i64: 1, 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A body of several ops: applied elementwise to the accumulator and each
// window offset's slice, in window order.
// CHECK-LABEL: func.func @subtract
// CHECK:      %[[A0:.+]] = hlo.broadcast_in_dim
// CHECK:      %[[S0:.+]] = hlo.slice %{{.+}} [0:3:1]
// CHECK:      %[[D0:.+]] = hlo.subtract %[[A0]], %[[S0]]
// CHECK:      %[[S1:.+]] = hlo.slice %{{.+}} [1:4:1]
// CHECK:      %[[D1:.+]] = hlo.subtract %[[D0]], %[[S1]]
// CHECK:      return %[[D1]]
func.func @subtract(%x: tensor<4xf32>) -> tensor<3xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.reduce_window(%x) init(%zero) {window_dimensions = array<i64: 2>} : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.subtract %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<3xf32>
}

// -----

// Two inputs (an argmax-style (value, index) window): the body's two
// results from the accumulators and both inputs' slices.
// CHECK-LABEL: func.func @two_inputs
// CHECK:      %[[S0:.+]] = hlo.slice %arg0 [0:3:1]
// CHECK:      %[[I0:.+]] = hlo.slice %arg1 [0:3:1]
// CHECK:      %[[C0:.+]] = hlo.compare GE, %{{.+}}, %[[S0]]
// CHECK:      hlo.select %[[C0]]
// CHECK:      hlo.select %[[C0]]
// CHECK:      hlo.slice %arg0 [1:4:1]
// CHECK:      hlo.slice %arg1 [1:4:1]
func.func @two_inputs(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant dense<0> : tensor<i32>
  %0:2 = hlo.reduce_window(%x, %i) init(%ninf, %zero) {window_dimensions = array<i64: 2>} : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %ge = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = hlo.select %ge, %a, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %w = hlo.select %ge, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    hlo.return %v, %w : tensor<f32>, tensor<i32>
  }
  return %0#0, %0#1 : tensor<3xf32>, tensor<3xi32>
}

// -----

// A body op that is not elementwise.
func.func @not_elementwise(%x: tensor<4xf32>) -> tensor<3xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{tpuc expands 'hlo.reduce_window' bodies of elementwise ops only, not 'hlo.transpose'}}
  %0 = hlo.reduce_window(%x) init(%zero) {window_dimensions = array<i64: 2>} : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = hlo.transpose %b, dims = [] : (tensor<f32>) -> tensor<f32>
    %s = hlo.add %a, %t : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<3xf32>
}
