// RUN: tpuc-opt %s --tpuc-decompose-dots --split-input-file | FileCheck %s
// The rewrite must not change a value: the reference interpreter gives
// bit-identical results before and after it on random inputs.
// RUN: tpuc-opt %s --tpuc-decompose-dots -o %t.mlir
// RUN: tpuc interpret %s --function=weight_grad --random-inputs=5 --output-dir=%t.weight_grad.ref
// RUN: tpuc interpret %t.mlir --function=weight_grad --random-inputs=5 --output-dir=%t.weight_grad.got
// RUN: cmp %t.weight_grad.ref/result0.npy %t.weight_grad.got/result0.npy
// RUN: tpuc interpret %s --function=input_grad --random-inputs=5 --output-dir=%t.input_grad.ref
// RUN: tpuc interpret %t.mlir --function=input_grad --random-inputs=5 --output-dir=%t.input_grad.got
// RUN: cmp %t.input_grad.ref/result0.npy %t.input_grad.got/result0.npy
// RUN: tpuc interpret %s --function=mha_scores --random-inputs=5 --output-dir=%t.mha_scores.ref
// RUN: tpuc interpret %t.mlir --function=mha_scores --random-inputs=5 --output-dir=%t.mha_scores.got
// RUN: cmp %t.mha_scores.ref/result0.npy %t.mha_scores.got/result0.npy
// RUN: tpuc interpret %s --function=bthd --random-inputs=5 --output-dir=%t.bthd.ref
// RUN: tpuc interpret %t.mlir --function=bthd --random-inputs=5 --output-dir=%t.bthd.got
// RUN: cmp %t.bthd.ref/result0.npy %t.bthd.got/result0.npy
// RUN: tpuc interpret %s --function=collapse --random-inputs=5 --output-dir=%t.collapse.ref
// RUN: tpuc interpret %t.mlir --function=collapse --random-inputs=5 --output-dir=%t.collapse.got
// RUN: cmp %t.collapse.ref/result0.npy %t.collapse.got/result0.npy
// RUN: tpuc interpret %s --function=vector --random-inputs=5 --output-dir=%t.vector.ref
// RUN: tpuc interpret %t.mlir --function=vector --random-inputs=5 --output-dir=%t.vector.got
// RUN: cmp %t.vector.ref/result0.npy %t.vector.got/result0.npy
// RUN: cmp %t.vector.ref/result1.npy %t.vector.got/result1.npy
// RUN: cmp %t.vector.ref/result2.npy %t.vector.got/result2.npy
// RUN: tpuc interpret %s --function=outer --random-inputs=5 --output-dir=%t.outer.ref
// RUN: tpuc interpret %t.mlir --function=outer --random-inputs=5 --output-dir=%t.outer.got
// RUN: cmp %t.outer.ref/result0.npy %t.outer.got/result0.npy
// RUN: tpuc interpret %s --function=fused --random-inputs=5 --output-dir=%t.fused.ref
// RUN: tpuc interpret %t.mlir --function=fused --random-inputs=5 --output-dir=%t.fused.got
// RUN: cmp %t.fused.ref/result0.npy %t.fused.got/result0.npy
//
// Every dot_general becomes [M,K] x [K,N] or [B,M,K] x [B,K,N]: the lhs
// transposed to (batch, free, contracting), the rhs to (batch, contracting,
// free), each group collapsed by a reshape, the result reshaped back.

// The MLP forward dot(x, W) is already canonical: untouched.
// CHECK-LABEL: func.func @forward
// CHECK-SAME: (%[[X:.+]]: tensor<16x256xf32>, %[[W:.+]]: tensor<256x128xf32>)
// CHECK-NEXT: %[[D:.+]] = hlo.dot_general %[[X]], %[[W]], dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<16x256xf32>, tensor<256x128xf32>) -> tensor<16x128xf32>
// CHECK-NEXT: return %[[D]]
func.func @forward(%x: tensor<16x256xf32>, %w: tensor<256x128xf32>) -> tensor<16x128xf32> {
  %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<16x256xf32>, tensor<256x128xf32>) -> tensor<16x128xf32>
  return %d : tensor<16x128xf32>
}

// -----

// Weight gradient dot(x, dy), contracting the batch rows: an f32 x whose
// K (128) and M (256) are whole 128-wide blocks stays [K,M] (the MXU
// kernel transposes its 128x128 blocks on the XLU while it stages them).
// CHECK-LABEL: func.func @weight_grad
// CHECK-SAME: (%[[X:.+]]: tensor<128x256xf32>, %[[DY:.+]]: tensor<128x128xf32>)
// CHECK-NEXT: %[[D:.+]] = hlo.dot_general %[[X]], %[[DY]], dims = <lhs_contracting = [0], rhs_contracting = [0]> {{.*}}: (tensor<128x256xf32>, tensor<128x128xf32>) -> tensor<256x128xf32>
// CHECK-NEXT: return %[[D]]
func.func @weight_grad(%x: tensor<128x256xf32>, %dy: tensor<128x128xf32>) -> tensor<256x128xf32> {
  %d = hlo.dot_general %x, %dy, dims = <lhs_contracting = [0], rhs_contracting = [0]> {precision_config = [#hlo<precision HIGHEST>, #hlo<precision HIGHEST>]} : (tensor<128x256xf32>, tensor<128x128xf32>) -> tensor<256x128xf32>
  return %d : tensor<256x128xf32>
}

// -----

// With M = 200 or K = 16 (not whole 128-wide blocks) x is transposed.
// CHECK-LABEL: func.func @weight_grad_ragged_m
// CHECK-SAME: (%[[X:.+]]: tensor<16x200xf32>, %[[DY:.+]]: tensor<16x128xf32>)
// CHECK-NEXT: %[[XT:.+]] = hlo.transpose %[[X]], dims = [1, 0] : (tensor<16x200xf32>) -> tensor<200x16xf32>
// CHECK-NEXT: %[[D:.+]] = hlo.dot_general %[[XT]], %[[DY]], dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<200x16xf32>, tensor<16x128xf32>) -> tensor<200x128xf32>
// CHECK-NEXT: return %[[D]]
func.func @weight_grad_ragged_m(%x: tensor<16x200xf32>, %dy: tensor<16x128xf32>) -> tensor<200x128xf32> {
  %d = hlo.dot_general %x, %dy, dims = <lhs_contracting = [0], rhs_contracting = [0]> : (tensor<16x200xf32>, tensor<16x128xf32>) -> tensor<200x128xf32>
  return %d : tensor<200x128xf32>
}

// -----

// Input gradient dot(dy, W) contracting both minor dims: an f32 W stays
// [N,K] (the MXU kernel transposes its 128x128 blocks on the XLU while it
// stages them). The precision config stays on the dot.
// CHECK-LABEL: func.func @input_grad
// CHECK-SAME: (%[[DY:.+]]: tensor<16x128xf32>, %[[W:.+]]: tensor<256x128xf32>)
// CHECK-NEXT: %[[D:.+]] = hlo.dot_general %[[DY]], %[[W]], dims = <lhs_contracting = [1], rhs_contracting = [1]> {precision_config = [#hlo<precision HIGH>, #hlo<precision DEFAULT>]} : (tensor<16x128xf32>, tensor<256x128xf32>) -> tensor<16x256xf32>
// CHECK-NEXT: return %[[D]]
func.func @input_grad(%dy: tensor<16x128xf32>, %w: tensor<256x128xf32>) -> tensor<16x256xf32> {
  %d = hlo.dot_general %dy, %w, dims = <lhs_contracting = [1], rhs_contracting = [1]> {precision_config = [#hlo<precision HIGH>, #hlo<precision DEFAULT>]} : (tensor<16x128xf32>, tensor<256x128xf32>) -> tensor<16x256xf32>
  return %d : tensor<16x256xf32>
}

// -----

// The same with bf16 operands: VLD widens bf16 to 32-bit lanes, so the
// kernel transposes them alike.
// CHECK-LABEL: func.func @input_grad_bf16
// CHECK-SAME: (%[[DY:.+]]: tensor<16x128xbf16>, %[[W:.+]]: tensor<256x128xbf16>)
// CHECK-NEXT: %[[D:.+]] = hlo.dot_general %[[DY]], %[[W]], dims = <lhs_contracting = [1], rhs_contracting = [1]> : (tensor<16x128xbf16>, tensor<256x128xbf16>) -> tensor<16x256xf32>
// CHECK-NEXT: return %[[D]]
func.func @input_grad_bf16(%dy: tensor<16x128xbf16>, %w: tensor<256x128xbf16>) -> tensor<16x256xf32> {
  %d = hlo.dot_general %dy, %w, dims = <lhs_contracting = [1], rhs_contracting = [1]> : (tensor<16x128xbf16>, tensor<256x128xbf16>) -> tensor<16x256xf32>
  return %d : tensor<16x256xf32>
}

// -----

// An f32 rhs stored column-major ({0,1}) is transposed (a view of its
// bytes), as is one whose contracting dims are several.
// CHECK-LABEL: func.func @input_grad_col_major
// CHECK: hlo.transpose %{{.+}}, dims = [1, 0] : (tensor<256x128xf32>) -> tensor<128x256xf32>
// CHECK: hlo.dot_general {{.+}} rhs_contracting = [0]> : (tensor<16x128xf32>, tensor<128x256xf32>)
// CHECK: hlo.transpose %{{.+}}, dims = [1, 2, 0] : (tensor<64x8x4xf32>) -> tensor<8x4x64xf32>
func.func @input_grad_col_major(%dy: tensor<16x128xf32>, %w: tensor<256x128xf32> {hlo.layout = "{0,1}"}, %v: tensor<16x8x4xf32>, %u: tensor<64x8x4xf32>) -> (tensor<16x256xf32>, tensor<16x64xf32>) {
  %d = hlo.dot_general %dy, %w, dims = <lhs_contracting = [1], rhs_contracting = [1]> : (tensor<16x128xf32>, tensor<256x128xf32>) -> tensor<16x256xf32>
  %e = hlo.dot_general %v, %u, dims = <lhs_contracting = [1, 2], rhs_contracting = [1, 2]> : (tensor<16x8x4xf32>, tensor<64x8x4xf32>) -> tensor<16x64xf32>
  return %d, %e : tensor<16x256xf32>, tensor<16x64xf32>
}

// -----

// Batched, the f32 rhs contracted on its minor dim: [B,N,K] as it is
// (N = 128), transposed with N = 24.
// CHECK-LABEL: func.func @batched_minor
// CHECK-SAME: (%[[A:.+]]: tensor<4x16x32xf32>, %[[B:.+]]: tensor<4x128x32xf32>, %[[C:.+]]: tensor<4x24x32xf32>)
// CHECK-NEXT: %[[D:.+]] = hlo.dot_general %[[A]], %[[B]], dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [2]> : (tensor<4x16x32xf32>, tensor<4x128x32xf32>) -> tensor<4x16x128xf32>
// CHECK-NEXT: %[[CT:.+]] = hlo.transpose %[[C]], dims = [0, 2, 1]
// CHECK-NEXT: %[[E:.+]] = hlo.dot_general %[[A]], %[[CT]], dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
// CHECK-NEXT: return %[[D]], %[[E]]
func.func @batched_minor(%a: tensor<4x16x32xf32>, %b: tensor<4x128x32xf32>, %c: tensor<4x24x32xf32>) -> (tensor<4x16x128xf32>, tensor<4x16x24xf32>) {
  %d = hlo.dot_general %a, %b, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [2]> : (tensor<4x16x32xf32>, tensor<4x128x32xf32>) -> tensor<4x16x128xf32>
  %e = hlo.dot_general %a, %c, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [2]> : (tensor<4x16x32xf32>, tensor<4x24x32xf32>) -> tensor<4x16x24xf32>
  return %d, %e : tensor<4x16x128xf32>, tensor<4x16x24xf32>
}

// -----

// mha_block's scores: batch dims {0,1} collapse into one, no transposes.
// CHECK-LABEL: func.func @mha_scores
// CHECK-SAME: (%[[Q:.+]]: tensor<1x12x128x64xbf16>, %[[K:.+]]: tensor<1x12x64x128xbf16>)
// CHECK-NEXT: %[[Q3:.+]] = hlo.reshape %[[Q]] : (tensor<1x12x128x64xbf16>) -> tensor<12x128x64xbf16>
// CHECK-NEXT: %[[K3:.+]] = hlo.reshape %[[K]] : (tensor<1x12x64x128xbf16>) -> tensor<12x64x128xbf16>
// CHECK-NEXT: %[[D:.+]] = hlo.dot_general %[[Q3]], %[[K3]], dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]> : (tensor<12x128x64xbf16>, tensor<12x64x128xbf16>) -> tensor<12x128x128xf32>
// CHECK-NEXT: %[[R:.+]] = hlo.reshape %[[D]] : (tensor<12x128x128xf32>) -> tensor<1x12x128x128xf32>
// CHECK-NEXT: return %[[R]]
func.func @mha_scores(%q: tensor<1x12x128x64xbf16>, %k: tensor<1x12x64x128xbf16>) -> tensor<1x12x128x128xf32> {
  %d = hlo.dot_general %q, %k, dims = <lhs_batch = [0, 1], rhs_batch = [0, 1], lhs_contracting = [3], rhs_contracting = [2]> : (tensor<1x12x128x64xbf16>, tensor<1x12x64x128xbf16>) -> tensor<1x12x128x128xf32>
  return %d : tensor<1x12x128x128xf32>
}

// -----

// Attention as JAX writes it, q.k^T with the heads in dim 2: batch dims
// move to the front, the key's contracting dim goes before its free dim.
// CHECK-LABEL: func.func @bthd
// CHECK-SAME: (%[[Q:.+]]: tensor<2x10x4x64xf32>, %[[K:.+]]: tensor<2x12x4x64xf32>)
// CHECK-NEXT: %[[QT:.+]] = hlo.transpose %[[Q]], dims = [0, 2, 1, 3] : (tensor<2x10x4x64xf32>) -> tensor<2x4x10x64xf32>
// CHECK-NEXT: %[[Q3:.+]] = hlo.reshape %[[QT]] : (tensor<2x4x10x64xf32>) -> tensor<8x10x64xf32>
// CHECK-NEXT: %[[KT:.+]] = hlo.transpose %[[K]], dims = [0, 2, 3, 1] : (tensor<2x12x4x64xf32>) -> tensor<2x4x64x12xf32>
// CHECK-NEXT: %[[K3:.+]] = hlo.reshape %[[KT]] : (tensor<2x4x64x12xf32>) -> tensor<8x64x12xf32>
// CHECK-NEXT: %[[D:.+]] = hlo.dot_general %[[Q3]], %[[K3]], dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]> : (tensor<8x10x64xf32>, tensor<8x64x12xf32>) -> tensor<8x10x12xf32>
// CHECK-NEXT: %[[R:.+]] = hlo.reshape %[[D]] : (tensor<8x10x12xf32>) -> tensor<2x4x10x12xf32>
// CHECK-NEXT: return %[[R]]
func.func @bthd(%q: tensor<2x10x4x64xf32>, %k: tensor<2x12x4x64xf32>) -> tensor<2x4x10x12xf32> {
  %d = hlo.dot_general %q, %k, dims = <lhs_batch = [0, 2], rhs_batch = [0, 2], lhs_contracting = [3], rhs_contracting = [3]> : (tensor<2x10x4x64xf32>, tensor<2x12x4x64xf32>) -> tensor<2x4x10x12xf32>
  return %d : tensor<2x4x10x12xf32>
}

// -----

// Several free and contracting dims collapse; no batch dims: the leading
// free dims fold into M.
// CHECK-LABEL: func.func @collapse
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4x5xf32>, %[[Y:.+]]: tensor<4x5x6xf32>)
// CHECK-NEXT: %[[X2:.+]] = hlo.reshape %[[X]] : (tensor<2x3x4x5xf32>) -> tensor<6x20xf32>
// CHECK-NEXT: %[[Y2:.+]] = hlo.reshape %[[Y]] : (tensor<4x5x6xf32>) -> tensor<20x6xf32>
// CHECK-NEXT: %[[D:.+]] = hlo.dot_general %[[X2]], %[[Y2]], dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<6x20xf32>, tensor<20x6xf32>) -> tensor<6x6xf32>
// CHECK-NEXT: %[[R:.+]] = hlo.reshape %[[D]] : (tensor<6x6xf32>) -> tensor<2x3x6xf32>
// CHECK-NEXT: return %[[R]]
func.func @collapse(%x: tensor<2x3x4x5xf32>, %y: tensor<4x5x6xf32>) -> tensor<2x3x6xf32> {
  %d = hlo.dot_general %x, %y, dims = <lhs_contracting = [2, 3], rhs_contracting = [0, 1]> : (tensor<2x3x4x5xf32>, tensor<4x5x6xf32>) -> tensor<2x3x6xf32>
  return %d : tensor<2x3x6xf32>
}

// -----

// Vector-matrix, matrix-vector and vector-vector dots: rank-1 operands
// become one-row / one-column matrices.
// CHECK-LABEL: func.func @vector
// CHECK-SAME: (%[[V:.+]]: tensor<64xf32>, %[[W:.+]]: tensor<64x32xf32>, %[[U:.+]]: tensor<32xf32>)
// CHECK-NEXT: %[[V2:.+]] = hlo.reshape %[[V]] : (tensor<64xf32>) -> tensor<1x64xf32>
// CHECK-NEXT: %[[VW:.+]] = hlo.dot_general %[[V2]], %[[W]], {{.*}} -> tensor<1x32xf32>
// CHECK-NEXT: %[[R0:.+]] = hlo.reshape %[[VW]] : (tensor<1x32xf32>) -> tensor<32xf32>
// CHECK-NEXT: %[[U2:.+]] = hlo.reshape %[[U]] : (tensor<32xf32>) -> tensor<32x1xf32>
// CHECK-NEXT: %[[WU:.+]] = hlo.dot_general %[[W]], %[[U2]], {{.*}} -> tensor<64x1xf32>
// CHECK-NEXT: %[[R1:.+]] = hlo.reshape %[[WU]] : (tensor<64x1xf32>) -> tensor<64xf32>
// CHECK-NEXT: %[[VL:.+]] = hlo.reshape %[[V]] : (tensor<64xf32>) -> tensor<1x64xf32>
// CHECK-NEXT: %[[VR:.+]] = hlo.reshape %[[V]] : (tensor<64xf32>) -> tensor<64x1xf32>
// CHECK-NEXT: %[[VV:.+]] = hlo.dot_general %[[VL]], %[[VR]], {{.*}} -> tensor<1x1xf32>
// CHECK-NEXT: %[[R2:.+]] = hlo.reshape %[[VV]] : (tensor<1x1xf32>) -> tensor<f32>
// CHECK-NEXT: return %[[R0]], %[[R1]], %[[R2]]
func.func @vector(%v: tensor<64xf32>, %w: tensor<64x32xf32>, %u: tensor<32xf32>) -> (tensor<32xf32>, tensor<64xf32>, tensor<f32>) {
  %vw = hlo.dot_general %v, %w, dims = <lhs_contracting = [0], rhs_contracting = [0]> : (tensor<64xf32>, tensor<64x32xf32>) -> tensor<32xf32>
  %wu = hlo.dot_general %w, %u, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<64x32xf32>, tensor<32xf32>) -> tensor<64xf32>
  %vv = hlo.dot_general %v, %v, dims = <lhs_contracting = [0], rhs_contracting = [0]> : (tensor<64xf32>, tensor<64xf32>) -> tensor<f32>
  return %vw, %wu, %vv : tensor<32xf32>, tensor<64xf32>, tensor<f32>
}

// -----

// An outer product (no contracting dims) contracts over K = 1.
// CHECK-LABEL: func.func @outer
// CHECK: hlo.reshape %{{.+}} : (tensor<8xbf16>) -> tensor<8x1xbf16>
// CHECK: hlo.reshape %{{.+}} : (tensor<16xbf16>) -> tensor<1x16xbf16>
// CHECK: hlo.dot_general {{.*}} : (tensor<8x1xbf16>, tensor<1x16xbf16>) -> tensor<8x16xf32>
// CHECK-NOT: hlo.reshape
func.func @outer(%a: tensor<8xbf16>, %b: tensor<16xbf16>) -> tensor<8x16xf32> {
  %d = hlo.dot_general %a, %b, dims = <> : (tensor<8xbf16>, tensor<16xbf16>) -> tensor<8x16xf32>
  return %d : tensor<8x16xf32>
}

// -----

// Dots inside a fusion body are rewritten in place.
// CHECK-LABEL: func.func @fused
// CHECK: hlo.fusion
// CHECK: hlo.transpose %{{.+}}, dims = [1, 0] : (tensor<32x8xf32>) -> tensor<8x32xf32>
// CHECK: hlo.dot_general {{.*}} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
// CHECK: hlo.maximum
func.func @fused(%x: tensor<32x8xf32>, %w: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %r = hlo.fusion output(%x, %w) : (tensor<32x8xf32>, tensor<32x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%a: tensor<32x8xf32>, %b: tensor<32x16xf32>):
    %zero = hlo.constant dense<0.0> : tensor<8x16xf32>
    %d = hlo.dot_general %a, %b, dims = <lhs_contracting = [0], rhs_contracting = [0]> : (tensor<32x8xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    %m = hlo.maximum %d, %zero : tensor<8x16xf32>
    hlo.return %m : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}
