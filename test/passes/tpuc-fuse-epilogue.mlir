// RUN: tpuc-opt %s --tpuc-fuse | FileCheck %s
// Output fusions hold only what the contraction's kernel applies to its
// result tiles (fusion::fitsContractionEpilogue, shared with
// passes/HloToTpu/Epilogue.cpp): a [C] bias broadcast along the minor dim
// fuses; a per-row broadcast or an iota of the output's shape does not (it
// stays a value of its own, which the kernel reads as a same-shape input).
// RUN: tpuc-opt %s --tpuc-fuse --tpuc-convert-hlo-to-tpu -o /dev/null

// CHECK-LABEL: func.func @per_column
// CHECK-NEXT: hlo.fusion output
// CHECK: hlo.dot_general
// CHECK-NEXT: hlo.broadcast_in_dim %{{.+}}, dims = [1]
// CHECK-NEXT: hlo.add
// CHECK-LABEL: func.func @per_row
// CHECK-NEXT: hlo.broadcast_in_dim %arg2, dims = [0]
// CHECK-NEXT: hlo.fusion output
// CHECK-NOT: hlo.broadcast_in_dim
// CHECK: return
// CHECK-LABEL: func.func @iota
// CHECK-NEXT: hlo.iota
// CHECK-NEXT: hlo.fusion output
// CHECK-NOT: hlo.iota
// CHECK: return
func.func @per_column(%x: tensor<16x64xf32>, %w: tensor<64x256xf32>, %b: tensor<256xf32>) -> tensor<16x256xf32> {
  %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [1] : (tensor<256xf32>) -> tensor<16x256xf32>
  %s = hlo.add %d, %bb : tensor<16x256xf32>
  return %s : tensor<16x256xf32>
}
func.func @per_row(%x: tensor<16x64xf32>, %w: tensor<64x256xf32>, %b: tensor<16xf32>) -> tensor<16x256xf32> {
  %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [0] : (tensor<16xf32>) -> tensor<16x256xf32>
  %s = hlo.add %d, %bb : tensor<16x256xf32>
  return %s : tensor<16x256xf32>
}
func.func @iota(%x: tensor<16x64xf32>, %w: tensor<64x256xf32>) -> tensor<16x256xf32> {
  %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %i = hlo.iota dim = 1 : tensor<16x256xf32>
  %s = hlo.add %d, %i : tensor<16x256xf32>
  return %s : tensor<16x256xf32>
}
