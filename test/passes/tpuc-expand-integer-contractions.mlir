// RUN: tpuc-opt %s --split-input-file --tpuc-expand-integer-contractions --verify-diagnostics | FileCheck %s

// s8 x s8 -> s32: one bf16 contraction with an f32 sum, converted to s32.
// CHECK-LABEL: func.func @s8_dot
// CHECK: %[[A:.+]] = hlo.convert %arg0 : (tensor<4x64xi8>) -> tensor<4x64xi32>
// CHECK: %[[AB:.+]] = hlo.convert %[[A]] : (tensor<4x64xi32>) -> tensor<4x64xbf16>
// CHECK: %[[B:.+]] = hlo.convert %arg1 : (tensor<64x8xi8>) -> tensor<64x8xi32>
// CHECK: %[[BB:.+]] = hlo.convert %[[B]] : (tensor<64x8xi32>) -> tensor<64x8xbf16>
// CHECK: %[[P:.+]] = hlo.dot_general %[[AB]], %[[BB]], dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<4x64xbf16>, tensor<64x8xbf16>) -> tensor<4x8xf32>
// CHECK: %[[R:.+]] = hlo.convert %[[P]] : (tensor<4x8xf32>) -> tensor<4x8xi32>
// CHECK: return %[[R]]
func.func @s8_dot(%a: tensor<4x64xi8>, %b: tensor<64x8xi8>) -> tensor<4x8xi32> {
  %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<4x64xi8>, tensor<64x8xi8>) -> tensor<4x8xi32>
  return %0 : tensor<4x8xi32>
}

// -----

// s16 -> s16: two pieces each (low byte masked, high byte shifted
// arithmetically), the three pairs below bit 16 (the high x high term only
// reaches bit 16), the cross terms shifted by 8, the sum converted (wrapped
// by tpuc-expand-narrow-ints later).
// CHECK-LABEL: func.func @s16_dot
// CHECK-DAG: hlo.and {{.*}} : tensor<4x16xi32>
// CHECK-DAG: hlo.shift_right_arithmetic {{.*}} : tensor<4x16xi32>
// CHECK-COUNT-3: hlo.dot_general {{.*}} -> tensor<4x8xf32>
// CHECK-NOT: hlo.dot_general
// CHECK: hlo.shift_left
// CHECK: hlo.convert {{.*}} : (tensor<4x8xi32>) -> tensor<4x8xi16>
func.func @s16_dot(%a: tensor<4x16xi16>, %b: tensor<16x8xi16>) -> tensor<4x8xi16> {
  %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<4x16xi16>, tensor<16x8xi16>) -> tensor<4x8xi16>
  return %0 : tensor<4x8xi16>
}

// -----

// u8 x u8 with two contracting dims (4 x 100): the larger one is chunked to
// floor(2^24 / 255^2 / 4) = 64 rows, 64 + 36.
// CHECK-LABEL: func.func @u8_two_contracting
// CHECK: hlo.slice {{.*}}[0:2:1, 0:64:1, 0:4:1]
// CHECK: hlo.dot_general {{.*}} : (tensor<2x64x4xbf16>, tensor<64x4x3xbf16>) -> tensor<2x3xf32>
// CHECK: hlo.slice {{.*}}[0:2:1, 64:100:1, 0:4:1]
// CHECK: hlo.dot_general {{.*}} : (tensor<2x36x4xbf16>, tensor<36x4x3xbf16>) -> tensor<2x3xf32>
// CHECK: hlo.add {{.*}} : tensor<2x3xi32>
// CHECK: hlo.bitcast_convert {{.*}} : (tensor<2x3xi32>) -> tensor<2x3xui32>
func.func @u8_two_contracting(%a: tensor<2x100x4xui8>, %b: tensor<100x4x3xui8>) -> tensor<2x3xui32> {
  %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1, 2], rhs_contracting = [0, 1]>
       : (tensor<2x100x4xui8>, tensor<100x4x3xui8>) -> tensor<2x3xui32>
  return %0 : tensor<2x3xui32>
}

// -----

// An f32 result is a float contraction: the s8 operands become bf16, the op
// keeps its f32 result.
// CHECK-LABEL: func.func @s8_to_f32
// CHECK: %[[A:.+]] = hlo.convert %arg0 : (tensor<4x8x8x3xi8>) -> tensor<4x8x8x3xbf16>
// CHECK: %[[W:.+]] = hlo.convert %arg1 : (tensor<3x3x3x16xi8>) -> tensor<3x3x3x16xbf16>
// CHECK: hlo.convolution %[[A]], %[[W]], {{.*}} -> tensor<4x8x8x16xf32>
func.func @s8_to_f32(%x: tensor<4x8x8x3xi8>, %w: tensor<3x3x3x16xi8>) -> tensor<4x8x8x16xf32> {
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<4x8x8x3xi8>, tensor<3x3x3x16xi8>) -> tensor<4x8x8x16xf32>
  return %0 : tensor<4x8x8x16xf32>
}

// -----

// A window deeper than an exact chunk cannot be split.
func.func @too_deep(%x: tensor<1x3000x1xui8>, %w: tensor<2000x1x1xui8>) -> tensor<1x1001x1xi32> {
  // expected-error @+1 {{tpuc computes an integer 'hlo.convolution' exactly on the MXU only while each chunk of its contraction is at most 258 deep (2000 here, and its window or grouping cannot be split)}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b0f_0io->b0f">
       : (tensor<1x3000x1xui8>, tensor<2000x1x1xui8>) -> tensor<1x1001x1xi32>
  return %0 : tensor<1x1001x1xi32>
}
