// An MLP layer relu(x @ w + b), f32 in and out, compiled by
// tpuc-convert-hlo-to-tpu, run on the emulator and compared with the
// reference interpreter. The product runs on the MXU at XLA's DEFAULT
// precision: x and w are rounded to bf16 (relative error 2^-8 each), the
// products are exact and accumulate in f32, so over K = 256 terms of
// random [-1, 1) inputs the error stays below 2^-7 of the largest output.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/mlp.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/mlp.tpu.mlir -o %t/mlp.tpx
// RUN: tpuc-run %t/mlp.tpx --random-inputs=7 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 1 0.0078125 | FileCheck %s
// The same through the whole `tpuc compile` pipeline (fusion, layouts,
// codegen), with every stage and every pass dumped.
// RUN: tpuc compile %s -o %t/mlp.compiled.tpx --dump-dir=%t/dump
// RUN: tpuc-run %t/mlp.compiled.tpx --random-inputs=7 --output-dir=%t/got2
// RUN: %python_numpy %S/Inputs/compare.py %t/got2 %t/want 1 0.0078125 | FileCheck %s
// RUN: ls %t/dump | FileCheck %s --check-prefix=DUMP
// DUMP: 00-hlo.mlir
// DUMP-NEXT: 01-fused.mlir
// DUMP-NEXT: 02-tpu.mlir
// DUMP-NEXT: passes
// The module after every pass, numbered in the order the passes ran.
// RUN: ls %t/dump/passes | FileCheck %s --check-prefix=PASSES
// PASSES: {{^[0-9][0-9][0-9]}}-inline.mlir
// PASSES: {{^[0-9][0-9][0-9]}}-tpuc-fuse.mlir
// PASSES: {{^[0-9][0-9][0-9]}}-tpuc-decompose-dots.mlir
// PASSES: {{^[0-9][0-9][0-9]}}-tpuc-convert-hlo-to-tpu.mlir
// RUN: cat %t/dump/passes/*-tpuc-convert-hlo-to-tpu.mlir | FileCheck %s --check-prefix=LOWERED
// LOWERED: tpu.mxu_matmul
// A dump directory that cannot be created is an error, and -o is not written.
// RUN: rm -f %t/blocked && touch %t/blocked
// RUN: not tpuc compile %s -o %t/blocked.tpx --dump-dir=%t/blocked 2>&1 | FileCheck %s --check-prefix=BLOCKED
// BLOCKED: tpuc: error: cannot create
// RUN: not test -e %t/blocked.tpx
// RUN: FileCheck %s --check-prefix=FUSED < %t/dump/01-fused.mlir
// FUSED: hlo.fusion output
// CHECK: result0: ok shape=[16, 128]

func.func @mlp(%x: tensor<16x256xf32>, %w: tensor<256x128xf32>,
               %b: tensor<128xf32>) -> tensor<16x128xf32> {
  %zero = hlo.constant dense<0.0> : tensor<16x128xf32>
  %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<16x256xf32>, tensor<256x128xf32>) -> tensor<16x128xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [1] : (tensor<128xf32>) -> tensor<16x128xf32>
  %s = hlo.add %d, %bb : tensor<16x128xf32>
  %r = hlo.maximum %s, %zero : tensor<16x128xf32>
  return %r : tensor<16x128xf32>
}
