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

// Each operand on its own: a bf16 activation times a rounded f32 weight
// reads the weight (a bf16 x f32 dot, which the kernel rounds alike), a
// convert also read elsewhere is kept beside the f32 read, and the result
// type does not matter (the kernel rounds a bf16 result from its f32
// accumulators either way). Under --dot-precision=high every convert
// stays.
// CHECK-LABEL: func.func @per_operand
// CHECK-SAME: (%[[AB:[^:]+]]: tensor<16x256xbf16>, %[[B:[^:]+]]: tensor<256x128xf32>, %[[C:[^:]+]]: tensor<16x256xf32>)
// CHECK: %[[D0:.+]] = hlo.dot_general %[[AB]], %[[B]], dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<16x256xbf16>, tensor<256x128xf32>) -> tensor<16x128xf32>
// CHECK: %[[CB:.+]] = hlo.convert %[[C]] : (tensor<16x256xf32>) -> tensor<16x256xbf16>
// CHECK: %[[D1:.+]] = hlo.dot_general %[[C]], %[[B]], {{.+}} : (tensor<16x256xf32>, tensor<256x128xf32>) -> tensor<16x128xf32>
// CHECK: %[[D2:.+]] = hlo.dot_general %[[AB]], %[[B]], {{.+}} : (tensor<16x256xbf16>, tensor<256x128xf32>) -> tensor<16x128xbf16>
// CHECK-NOT: hlo.convert
// CHECK: return %[[D0]], %[[D1]], %[[CB]], %[[D2]]
// HIGH-LABEL: func.func @per_operand
// HIGH-COUNT-3: hlo.dot_general {{.+}} : (tensor<16x256xbf16>, tensor<256x128xbf16>)
func.func @per_operand(%ab: tensor<16x256xbf16>, %b: tensor<256x128xf32>, %c: tensor<16x256xf32>) -> (tensor<16x128xf32>, tensor<16x128xf32>, tensor<16x256xbf16>, tensor<16x128xbf16>) {
  %bb = hlo.convert %b : (tensor<256x128xf32>) -> tensor<256x128xbf16>
  %0 = hlo.dot_general %ab, %bb, dims = <lhs_contracting = [1], rhs_contracting = [0]> {precision_config = [#hlo<precision HIGH>, #hlo<precision HIGH>]}
       : (tensor<16x256xbf16>, tensor<256x128xbf16>) -> tensor<16x128xf32>
  %cb = hlo.convert %c : (tensor<16x256xf32>) -> tensor<16x256xbf16>
  %bb2 = hlo.convert %b : (tensor<256x128xf32>) -> tensor<256x128xbf16>
  %1 = hlo.dot_general %cb, %bb2, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<16x256xbf16>, tensor<256x128xbf16>) -> tensor<16x128xf32>
  %2 = hlo.dot_general %ab, %bb, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<16x256xbf16>, tensor<256x128xbf16>) -> tensor<16x128xbf16>
  return %0, %1, %cb, %2 : tensor<16x128xf32>, tensor<16x128xf32>, tensor<16x256xbf16>, tensor<16x128xbf16>
}
