// RUN: tpuc-opt %s --split-input-file --tpuc-expand-x64 --verify-diagnostics | FileCheck %s --implicit-check-not=hlo.bitcast_convert

// u64 parameters and results become u32 word pairs; the bitcasts that
// only went to 64 bits and back disappear (here all of them: the state
// goes to s32 words and back unchanged).
// CHECK-LABEL: func.func @pairs
// CHECK-SAME: (%[[S:.+]]: tensor<2x2xui32>, %[[X:.+]]: tensor<3xf32>) -> (tensor<2x2xui32>, tensor<3x4x2xi32>, tensor<3xf32>)
// CHECK-NEXT: %[[L:.+]] = hlo.constant dense<7> : tensor<3x4x2xi32>
// CHECK-NEXT: return %[[S]], %[[L]], %[[X]]
func.func @pairs(%s: tensor<2xui64>, %x: tensor<3xf32>) -> (tensor<2xui64>, tensor<3x4xi64>, tensor<3xf32>) {
  %0 = hlo.bitcast_convert %s : (tensor<2xui64>) -> tensor<2x2xui32>
  %1 = hlo.bitcast_convert %0 : (tensor<2x2xui32>) -> tensor<2x2xi32>
  %2 = hlo.bitcast_convert %1 : (tensor<2x2xi32>) -> tensor<2x2xui32>
  %3 = hlo.bitcast_convert %2 : (tensor<2x2xui32>) -> tensor<2xui64>
  %c = hlo.constant dense<7> : tensor<3x4x2xi32>
  %4 = hlo.bitcast_convert %c : (tensor<3x4x2xi32>) -> tensor<3x4xi64>
  return %3, %4, %x : tensor<2xui64>, tensor<3x4xi64>, tensor<3xf32>
}

// -----

// 64-bit arithmetic is not emulated yet.
func.func @add(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{tpuc does not emulate 64-bit integer 'hlo.add' on 'tensor<4xi64>' yet}}
  %0 = hlo.add %a, %b : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// A private function keeps its types (its callers pass them as they are).
// CHECK-LABEL: func.func private @keep
// CHECK-SAME: (%{{.+}}: tensor<2xui64>) -> tensor<2xui64>
func.func private @keep(%s: tensor<2xui64>) -> tensor<2xui64> {
  return %s : tensor<2xui64>
}

// -----

// A u64 constant becomes the constant of its s32 words (5 = (5, 0),
// 2^33 - 1 = (-1, 1)).
// CHECK-LABEL: func.func @constant
// CHECK: %[[C:.+]] = hlo.constant dense<{{\[\[}}5, 0], [-1, 1]]> : tensor<2x2xi32>
// CHECK: %[[U:.+]] = hlo.bitcast_convert %[[C]] : (tensor<2x2xi32>) -> tensor<2x2xui32>
// CHECK: return %[[U]]
func.func @constant() -> tensor<2xui64> {
  %c = hlo.constant dense<[5, 8589934591]> : tensor<2xui64>
  return %c : tensor<2xui64>
}
