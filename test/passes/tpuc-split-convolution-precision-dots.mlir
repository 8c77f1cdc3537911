// RUN: tpuc-opt %s --split-input-file --tpuc-split-convolution-precision | FileCheck %s
// RUN: tpuc-opt %s --split-input-file --tpuc-split-convolution-precision='dot-precision=high' | FileCheck %s --check-prefix=HIGH

// A dot_general of two operands rounded from f32 to bf16 (mixed_bfloat16's
// casts) reads the f32 values: an f32 dot of DEFAULT precision rounds them
// to bf16 itself, the same way. The converts go, and so does the
// precision_config (bf16 operands made it one pass). Under a
// --dot-precision=high override it stays: the f32 dot would take 3 passes.
// CHECK-LABEL: func.func @both_rounded
// CHECK-SAME: (%[[A:[^:]+]]: tensor<16x256xf32>, %[[B:[^:]+]]: tensor<256x128xf32>)
// CHECK-NOT: hlo.convert
// CHECK: %[[D:.+]] = hlo.dot_general %[[A]], %[[B]], dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<16x256xf32>, tensor<256x128xf32>) -> tensor<16x128xf32>
// CHECK-NEXT: return %[[D]]
// HIGH-LABEL: func.func @both_rounded
// HIGH: hlo.convert
// HIGH: hlo.convert
// HIGH: hlo.dot_general {{.+}} : (tensor<16x256xbf16>, tensor<256x128xbf16>) -> tensor<16x128xf32>
func.func @both_rounded(%a: tensor<16x256xf32>, %b: tensor<256x128xf32>) -> tensor<16x128xf32> {
  %ab = hlo.convert %a : (tensor<16x256xf32>) -> tensor<16x256xbf16>
  %bb = hlo.convert %b : (tensor<256x128xf32>) -> tensor<256x128xbf16>
  %0 = hlo.dot_general %ab, %bb, dims = <lhs_contracting = [1], rhs_contracting = [0]> {precision_config = [#hlo<precision HIGHEST>, #hlo<precision HIGHEST>]}
       : (tensor<16x256xbf16>, tensor<256x128xbf16>) -> tensor<16x128xf32>
  return %0 : tensor<16x128xf32>
}

// -----

// Stays: one operand rounded (the dot kernel takes one element type), a
// convert also read elsewhere is kept beside the f32 read, and a bf16
// result.
// CHECK-LABEL: func.func @stays
// CHECK: %[[BB:.+]] = hlo.convert %{{.+}} : (tensor<256x128xf32>) -> tensor<256x128xbf16>
// CHECK: hlo.dot_general %{{.+}}, %[[BB]], {{.+}} : (tensor<16x256xbf16>, tensor<256x128xbf16>) -> tensor<16x128xf32>
// CHECK: %[[CB:.+]] = hlo.convert %{{.+}} : (tensor<16x256xf32>) -> tensor<16x256xbf16>
// CHECK: hlo.dot_general %{{.+}}, %{{.+}}, {{.+}} : (tensor<16x256xf32>, tensor<256x128xf32>) -> tensor<16x128xf32>
// CHECK: hlo.dot_general {{.+}} -> tensor<16x128xbf16>
// CHECK: return {{.+}}, {{.+}}, %[[CB]], {{.+}}
func.func @stays(%ab: tensor<16x256xbf16>, %b: tensor<256x128xf32>, %c: tensor<16x256xf32>) -> (tensor<16x128xf32>, tensor<16x128xf32>, tensor<16x256xbf16>, tensor<16x128xbf16>) {
  %bb = hlo.convert %b : (tensor<256x128xf32>) -> tensor<256x128xbf16>
  %0 = hlo.dot_general %ab, %bb, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<16x256xbf16>, tensor<256x128xbf16>) -> tensor<16x128xf32>
  %cb = hlo.convert %c : (tensor<16x256xf32>) -> tensor<16x256xbf16>
  %bb2 = hlo.convert %b : (tensor<256x128xf32>) -> tensor<256x128xbf16>
  %1 = hlo.dot_general %cb, %bb2, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<16x256xbf16>, tensor<256x128xbf16>) -> tensor<16x128xf32>
  %2 = hlo.dot_general %ab, %bb, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<16x256xbf16>, tensor<256x128xbf16>) -> tensor<16x128xbf16>
  return %0, %1, %cb, %2 : tensor<16x128xf32>, tensor<16x128xf32>, tensor<16x256xbf16>, tensor<16x128xbf16>
}
