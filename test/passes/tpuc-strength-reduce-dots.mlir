// RUN: tpuc-opt %s --tpuc-strength-reduce-dots --split-input-file | FileCheck %s
// The rewrite keeps the values: the reference interpreter gives the same
// results before and after it (integers exactly, floats within the
// reordering of one f32 sum).
// RUN: tpuc-opt %s --tpuc-strength-reduce-dots -o %t.mlir
// RUN: tpuc interpret %s --function=interaction --random-inputs=5 --output-dir=%t.interaction.ref
// RUN: tpuc interpret %t.mlir --function=interaction --random-inputs=5 --output-dir=%t.interaction.got
// RUN: %python_numpy %S/../e2e/Inputs/compare.py %t.interaction.got %t.interaction.ref 1 1e-5 | FileCheck %s --check-prefix=CLOSE
// RUN: tpuc interpret %s --function=int_dot --random-inputs=5 --output-dir=%t.int_dot.ref
// RUN: tpuc interpret %t.mlir --function=int_dot --random-inputs=5 --output-dir=%t.int_dot.got
// RUN: cmp %t.int_dot.ref/result0.npy %t.int_dot.got/result0.npy
// RUN: tpuc interpret %s --function=s8_dot --random-inputs=5 --output-dir=%t.s8_dot.ref
// RUN: tpuc interpret %t.mlir --function=s8_dot --random-inputs=5 --output-dir=%t.s8_dot.got
// RUN: cmp %t.s8_dot.ref/result0.npy %t.s8_dot.got/result0.npy
// RUN: tpuc interpret %s --function=any_order --random-inputs=5 --output-dir=%t.any_order.ref
// RUN: tpuc interpret %t.mlir --function=any_order --random-inputs=5 --output-dir=%t.any_order.got
// RUN: %python_numpy %S/../e2e/Inputs/compare.py %t.any_order.got %t.any_order.ref 1 1e-5 | FileCheck %s --check-prefix=CLOSE
// RUN: tpuc interpret %s --function=small_bf16 --random-inputs=5 --output-dir=%t.small_bf16.ref
// RUN: tpuc interpret %t.mlir --function=small_bf16 --random-inputs=5 --output-dir=%t.small_bf16.got
// RUN: %python_numpy %S/../e2e/Inputs/compare.py %t.small_bf16.got %t.small_bf16.ref 1 1e-2 | FileCheck %s --check-prefix=CLOSE
// RUN: tpuc interpret %s --function=batch_major --random-inputs=5 --output-dir=%t.batch_major.ref
// RUN: tpuc interpret %t.mlir --function=batch_major --random-inputs=5 --output-dir=%t.batch_major.got
// RUN: %python_numpy %S/../e2e/Inputs/compare.py %t.batch_major.got %t.batch_major.ref 1 1e-5 | FileCheck %s --check-prefix=CLOSE
// CLOSE: result0: ok

// 3616 batches of 20x8 . 8x20 (MXU: 3616 weight loads for 160 of 16384
// weights each; M and N above the VPU dot kernel's 16). Batch-minor: the
// batch on the lanes.
// CHECK-LABEL: func.func @interaction
// CHECK-SAME: (%[[X:.+]]: tensor<3616x20x8xf32>, %[[Y:.+]]: tensor<3616x8x20xf32>)
// CHECK-DAG: %[[XT:.+]] = hlo.transpose %[[X]], dims = [1, 2, 0] : (tensor<3616x20x8xf32>) -> tensor<20x8x3616xf32>
// CHECK-DAG: %[[YT:.+]] = hlo.transpose %[[Y]], dims = [2, 1, 0] : (tensor<3616x8x20xf32>) -> tensor<20x8x3616xf32>
// CHECK-DAG: %[[A:.+]] = hlo.broadcast_in_dim %[[XT]], dims = [0, 2, 3] : (tensor<20x8x3616xf32>) -> tensor<20x20x8x3616xf32>
// CHECK-DAG: %[[B:.+]] = hlo.broadcast_in_dim %[[YT]], dims = [1, 2, 3] : (tensor<20x8x3616xf32>) -> tensor<20x20x8x3616xf32>
// CHECK: %[[P:.+]] = hlo.multiply %[[A]], %[[B]] : tensor<20x20x8x3616xf32>
// CHECK: %[[S:.+]] = hlo.reduce(%[[P]]) init(%{{.+}}) dims = [2] : (tensor<20x20x8x3616xf32>, tensor<f32>) -> tensor<20x20x3616xf32>
// CHECK: hlo.add
// CHECK: %[[R:.+]] = hlo.transpose %[[S]], dims = [2, 0, 1] : (tensor<20x20x3616xf32>) -> tensor<3616x20x20xf32>
// CHECK: return %[[R]]
// CHECK-NOT: dot_general
func.func @interaction(%x: tensor<3616x20x8xf32>, %y: tensor<3616x8x20xf32>) -> tensor<3616x20x20xf32> {
  %d = hlo.dot_general %x, %y, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]> : (tensor<3616x20x8xf32>, tensor<3616x8x20xf32>) -> tensor<3616x20x20xf32>
  return %d : tensor<3616x20x20xf32>
}

// -----

// dlrm's interaction, 3616 batches of 6x8 . 8x6, is the VPU dot kernel's
// (isVpuBatchedDot): left as it is.
// CHECK-LABEL: func.func @vpu_dot
// CHECK: hlo.dot_general
// CHECK-NOT: hlo.reduce
func.func @vpu_dot(%x: tensor<3616x6x8xf32>, %y: tensor<3616x8x6xf32>) -> tensor<3616x6x6xf32> {
  %d = hlo.dot_general %x, %y, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]> : (tensor<3616x6x8xf32>, tensor<3616x8x6xf32>) -> tensor<3616x6x6xf32>
  return %d : tensor<3616x6x6xf32>
}

// -----

// mixed_bfloat16's rounding of such a dot's f32 result folds into the dot
// (one f32 sum rounded once either way); a result with another use, or of
// an MXU dot, keeps its convert.
// CHECK-LABEL: func.func @vpu_dot_bf16
// CHECK-SAME: (%[[X:.+]]: tensor<3616x6x8xbf16>, %[[Y:.+]]: tensor<3616x8x6xbf16>,
// CHECK: %[[D:.+]] = hlo.dot_general %[[X]], %[[Y]], {{.+}} -> tensor<3616x6x6xbf16>
// CHECK: %[[E:.+]] = hlo.dot_general %[[X]], %[[Y]], {{.+}} -> tensor<3616x6x6xf32>
// CHECK: hlo.convert %[[E]] : (tensor<3616x6x6xf32>) -> tensor<3616x6x6xbf16>
// CHECK: %[[M:.+]] = hlo.dot_general {{.+}} -> tensor<16x128x128xf32>
// CHECK: hlo.convert %[[M]]
// CHECK: return %[[D]]
func.func @vpu_dot_bf16(%x: tensor<3616x6x8xbf16>, %y: tensor<3616x8x6xbf16>, %q: tensor<16x128x64xbf16>, %k: tensor<16x64x128xbf16>) -> (tensor<3616x6x6xbf16>, tensor<3616x6x6xbf16>, tensor<3616x6x6xf32>, tensor<16x128x128xbf16>) {
  %d = hlo.dot_general %x, %y, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]> : (tensor<3616x6x8xbf16>, tensor<3616x8x6xbf16>) -> tensor<3616x6x6xf32>
  %c = hlo.convert %d : (tensor<3616x6x6xf32>) -> tensor<3616x6x6xbf16>
  %e = hlo.dot_general %x, %y, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]> : (tensor<3616x6x8xbf16>, tensor<3616x8x6xbf16>) -> tensor<3616x6x6xf32>
  %f = hlo.convert %e : (tensor<3616x6x6xf32>) -> tensor<3616x6x6xbf16>
  %m = hlo.dot_general %q, %k, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]> : (tensor<16x128x64xbf16>, tensor<16x64x128xbf16>) -> tensor<16x128x128xf32>
  %n = hlo.convert %m : (tensor<16x128x128xf32>) -> tensor<16x128x128xbf16>
  return %c, %f, %e, %n : tensor<3616x6x6xbf16>, tensor<3616x6x6xbf16>, tensor<3616x6x6xf32>, tensor<16x128x128xbf16>
}

// -----

// Dots that stay on the MXU: an MLP layer, dlrm's [3616,5] x [5,8] (3616
// rows stream through one weight tile), mha's batched scores, graphsage's
// one-row [1,256] x [256,128] (two weight loads against 32 vregs of stored
// broadcasts) and a tiny [4,16] x [16,3] (the rewrite's three more kernels
// cost more DMA latency than the MXU's 136 cycles).
// CHECK-LABEL: func.func @large
// CHECK-COUNT-5: hlo.dot_general
// CHECK-NOT: hlo.reduce
func.func @large(%x: tensor<256x512xf32>, %w: tensor<512x256xf32>, %a: tensor<3616x5xf32>, %b: tensor<5x8xf32>, %q: tensor<12x128x64xf32>, %k: tensor<12x64x128xf32>, %r: tensor<1x256xbf16>, %s: tensor<256x128xbf16>, %t: tensor<4x16xf32>, %u: tensor<16x3xf32>) -> (tensor<256x256xf32>, tensor<3616x8xf32>, tensor<12x128x128xf32>, tensor<1x128xbf16>, tensor<4x3xf32>) {
  %0 = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<256x512xf32>, tensor<512x256xf32>) -> tensor<256x256xf32>
  %1 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<3616x5xf32>, tensor<5x8xf32>) -> tensor<3616x8xf32>
  %2 = hlo.dot_general %q, %k, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]> : (tensor<12x128x64xf32>, tensor<12x64x128xf32>) -> tensor<12x128x128xf32>
  %3 = hlo.dot_general %r, %s, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<1x256xbf16>, tensor<256x128xbf16>) -> tensor<1x128xbf16>
  %4 = hlo.dot_general %t, %u, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<4x16xf32>, tensor<16x3xf32>) -> tensor<4x3xf32>
  return %0, %1, %2, %3, %4 : tensor<256x256xf32>, tensor<3616x8xf32>, tensor<12x128x128xf32>, tensor<1x128xbf16>, tensor<4x3xf32>
}

// -----

// Batch-major [B,M,K,N] (B*ceil(N/128) < N*ceil(B/128)): 100 batches of a
// vector [8] times [8,1000] (MXU: 800 weight loads; VPU: 800 vregs).
// CHECK-LABEL: func.func @batch_major
// CHECK-SAME: (%[[X:.+]]: tensor<100x8xf32>, %[[Y:.+]]: tensor<100x8x1000xf32>)
// CHECK-DAG: %[[XR:.+]] = hlo.reshape %[[X]] : (tensor<100x8xf32>) -> tensor<100x1x8xf32>
// CHECK-DAG: %[[A:.+]] = hlo.broadcast_in_dim %[[XR]], dims = [0, 1, 2] : (tensor<100x1x8xf32>) -> tensor<100x1x8x1000xf32>
// CHECK-DAG: %[[B:.+]] = hlo.broadcast_in_dim %[[Y]], dims = [0, 2, 3] : (tensor<100x8x1000xf32>) -> tensor<100x1x8x1000xf32>
// CHECK: hlo.multiply %[[A]], %[[B]] : tensor<100x1x8x1000xf32>
// CHECK: hlo.reduce({{.+}}) init(%{{.+}}) dims = [2] : (tensor<100x1x8x1000xf32>, tensor<f32>) -> tensor<100x1x1000xf32>
// CHECK: hlo.reshape %{{.+}} : (tensor<100x1x1000xf32>) -> tensor<100x1000xf32>
func.func @batch_major(%x: tensor<100x8xf32>, %y: tensor<100x8x1000xf32>) -> tensor<100x1000xf32> {
  %d = hlo.dot_general %x, %y, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [1], rhs_contracting = [1]> : (tensor<100x8xf32>, tensor<100x8x1000xf32>) -> tensor<100x1000xf32>
  return %d : tensor<100x1000xf32>
}

// -----

// Every integer dot, however large: in the result's type (wrapping).
// Batch-major [B,M,K,N]: the rhs [B,K,N] as it is, the lhs broadcast along
// the lanes, K reduced.
// CHECK-LABEL: func.func @int_dot
// CHECK-SAME: (%[[X:.+]]: tensor<2x24x160xi32>, %[[Y:.+]]: tensor<2x160x136xi32>)
// CHECK-DAG: %[[A:.+]] = hlo.broadcast_in_dim %[[X]], dims = [0, 1, 2] : (tensor<2x24x160xi32>) -> tensor<2x24x160x136xi32>
// CHECK-DAG: %[[B:.+]] = hlo.broadcast_in_dim %[[Y]], dims = [0, 2, 3] : (tensor<2x160x136xi32>) -> tensor<2x24x160x136xi32>
// CHECK: %[[P:.+]] = hlo.multiply %[[A]], %[[B]] : tensor<2x24x160x136xi32>
// CHECK: %[[S:.+]] = hlo.reduce(%[[P]]) init(%{{.+}}) dims = [2] : (tensor<2x24x160x136xi32>, tensor<i32>) -> tensor<2x24x136xi32>
// CHECK: return %[[S]]
func.func @int_dot(%x: tensor<2x24x160xi32>, %y: tensor<2x160x136xi32>) -> tensor<2x24x136xi32> {
  %d = hlo.dot_general %x, %y, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]> : (tensor<2x24x160xi32>, tensor<2x160x136xi32>) -> tensor<2x24x136xi32>
  return %d : tensor<2x24x136xi32>
}

// -----

// s8 x s8 -> s32 (preferred_element_type s32): operands converted first.
// CHECK-LABEL: func.func @s8_dot
// CHECK-DAG: hlo.convert %{{.+}} : (tensor<7x9xi8>) -> tensor<7x9xi32>
// CHECK-DAG: hlo.convert %{{.+}} : (tensor<9x5xi8>) -> tensor<9x5xi32>
// CHECK: hlo.reduce({{.+}}) init(%{{.+}}) dims = [1] : (tensor<7x9x5xi32>, tensor<i32>) -> tensor<7x5xi32>
func.func @s8_dot(%x: tensor<7x9xi8>, %y: tensor<9x5xi8>) -> tensor<7x5xi32> {
  %d = hlo.dot_general %x, %y, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<7x9xi8>, tensor<9x5xi8>) -> tensor<7x5xi32>
  return %d : tensor<7x5xi32>
}

// -----

// Batch, free and contracting dims in any order, several of each: grouped
// by a transpose and collapsed by a reshape, the result reshaped back.
// B = 16*8, M = 17, K = 5*2, N = 3: batch-minor [M,N,K,B] takes 102 vregs
// (batch-major 4352). The lhs groups (free 2, contracting 0 and 4, batch 1
// and 3), the rhs's (free 2, contracting 3 and 1, batch 0 and 4).
// CHECK-LABEL: func.func @any_order
// CHECK-DAG: hlo.transpose %{{.+}}, dims = [2, 0, 4, 1, 3] : (tensor<5x16x17x8x2xf32>) -> tensor<17x5x2x16x8xf32>
// CHECK-DAG: hlo.reshape %{{.+}} : (tensor<17x5x2x16x8xf32>) -> tensor<17x10x128xf32>
// CHECK-DAG: hlo.transpose %{{.+}}, dims = [2, 3, 1, 0, 4] : (tensor<16x2x3x5x8xf32>) -> tensor<3x5x2x16x8xf32>
// CHECK-DAG: hlo.reshape %{{.+}} : (tensor<3x5x2x16x8xf32>) -> tensor<3x10x128xf32>
// CHECK: hlo.multiply %{{.+}}, %{{.+}} : tensor<17x3x10x128xf32>
// CHECK: hlo.reduce({{.+}}) init(%{{.+}}) dims = [2] : (tensor<17x3x10x128xf32>, tensor<f32>) -> tensor<17x3x128xf32>
// CHECK: hlo.transpose %{{.+}}, dims = [2, 0, 1] : (tensor<17x3x128xf32>) -> tensor<128x17x3xf32>
// CHECK: hlo.reshape %{{.+}} : (tensor<128x17x3xf32>) -> tensor<16x8x17x3xf32>
func.func @any_order(%x: tensor<5x16x17x8x2xf32>, %y: tensor<16x2x3x5x8xf32>) -> tensor<16x8x17x3xf32> {
  %d = hlo.dot_general %x, %y, dims = <lhs_batch = [1, 3], rhs_batch = [0, 4], lhs_contracting = [0, 4], rhs_contracting = [3, 1]> : (tensor<5x16x17x8x2xf32>, tensor<16x2x3x5x8xf32>) -> tensor<16x8x17x3xf32>
  return %d : tensor<16x8x17x3xf32>
}

// -----

// bf16 operands and result: products and sum in f32, one rounding at the
// end (the interpreter's dot). 64 batches of [4,17] x [17,3]: batch-minor.
// CHECK-LABEL: func.func @small_bf16
// CHECK-DAG: hlo.convert %{{.+}} : (tensor<4x17x64xbf16>) -> tensor<4x17x64xf32>
// CHECK-DAG: hlo.convert %{{.+}} : (tensor<3x17x64xbf16>) -> tensor<3x17x64xf32>
// CHECK: hlo.reduce({{.+}}) init(%{{.+}}) dims = [2] : (tensor<4x3x17x64xf32>, tensor<f32>) -> tensor<4x3x64xf32>
// CHECK: hlo.transpose
// CHECK: hlo.convert %{{.+}} : (tensor<64x4x3xf32>) -> tensor<64x4x3xbf16>
func.func @small_bf16(%x: tensor<64x4x17xbf16>, %y: tensor<64x17x3xbf16>) -> tensor<64x4x3xbf16> {
  %d = hlo.dot_general %x, %y, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]> : (tensor<64x4x17xbf16>, tensor<64x17x3xbf16>) -> tensor<64x4x3xbf16>
  return %d : tensor<64x4x3xbf16>
}
