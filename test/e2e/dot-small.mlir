// Dots tpuc-strength-reduce-dots rewrites as broadcast + multiply +
// reduce(add) (one input fusion each), against the reference interpreter:
// result0, 3616 batches of [20,8] x [8,20] (batch-minor: the batch on the
// lanes; dlrm's [3616,6,8] x [3616,8,6] is the VPU dot kernel's,
// dot-vpu-batched.mlir); result1, 100 batches of a vector [8] times [8,1000]
// (batch-major: N on the lanes); result2, an s32 batched dot with dims out of
// order (exact: a wrapping s32 sum, the interpreter's 64-bit sum
// truncated); result3, an s32 matrix product (exact). s8 operands are
// rewritten alike (test/passes/tpuc-strength-reduce-dots.mlir) but s8
// arrays do not lower yet. The f32 sums run in f32 on
// the VPU (the interpreter: in order, in f32): tolerance 1e-5 of the
// largest output.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s -o %t/f32.tpx --report=fusion 2>&1 | FileCheck %s --check-prefix=FUSION
// FUSION-NOT: dot_general
// RUN: tpuc-run %t/f32.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 2 1e-5 | FileCheck %s
// CHECK: result0: ok shape=[3616, 20, 20]
// CHECK: result1: ok shape=[100, 1000]
// RUN: cmp %t/got/result2.npy %t/want/result2.npy
// RUN: cmp %t/got/result3.npy %t/want/result3.npy
// mixed_bfloat16: the float dots read bf16 operands (the precision
// policy's converts), the products and sums stay f32. The interpreter runs
// the program after the precision passes (the 00-hlo.mlir dump; corpus_e2e.py
// takes it from --emit=hlo), so the tolerance is code generation's: bf16 x bf16
// products are exact in f32, only the order of the f32 sum differs.
// RUN: tpuc compile %s -o %t/bf16.tpx --precision=mixed_bfloat16 --dump-dir=%t/dump
// RUN: tpuc-run %t/bf16.tpx --random-inputs=3 --output-dir=%t/got-bf16
// RUN: tpuc interpret %t/dump/00-hlo.mlir --random-inputs=3 --output-dir=%t/want-bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/got-bf16 %t/want-bf16 2 1e-5 | FileCheck %s
// RUN: cmp %t/got-bf16/result2.npy %t/want-bf16/result2.npy

func.func @main(%x: tensor<3616x20x8xf32>, %y: tensor<3616x8x20xf32>,
                %v: tensor<100x8xf32>, %w: tensor<100x8x1000xf32>,
                %a: tensor<9x4x3xi32>, %b: tensor<3x7x4xi32>,
                %c: tensor<20x33xi32>, %d: tensor<33x10xi32>)
    -> (tensor<3616x20x20xf32>, tensor<100x1000xf32>, tensor<4x9x7xi32>, tensor<20x10xi32>) {
  %r0 = hlo.dot_general %x, %y, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
      : (tensor<3616x20x8xf32>, tensor<3616x8x20xf32>) -> tensor<3616x20x20xf32>
  %r1 = hlo.dot_general %v, %w, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [1], rhs_contracting = [1]>
      : (tensor<100x8xf32>, tensor<100x8x1000xf32>) -> tensor<100x1000xf32>
  %r2 = hlo.dot_general %a, %b, dims = <lhs_batch = [1], rhs_batch = [2], lhs_contracting = [2], rhs_contracting = [0]>
      : (tensor<9x4x3xi32>, tensor<3x7x4xi32>) -> tensor<4x9x7xi32>
  %r3 = hlo.dot_general %c, %d, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<20x33xi32>, tensor<33x10xi32>) -> tensor<20x10xi32>
  return %r0, %r1, %r2, %r3 : tensor<3616x20x20xf32>, tensor<100x1000xf32>, tensor<4x9x7xi32>, tensor<20x10xi32>
}
