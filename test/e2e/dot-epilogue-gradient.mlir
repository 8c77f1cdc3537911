// A value a contraction's epilogue computes is stored by the contraction's
// kernel, not exported by the reduce's input fusion (FusionPlanner.cpp
// epilogueContractionOf, docs/fusion.md "multi-output"): the relu gradient
// select(a > 0, dot(x, w), 0), summed for the bias gradient and kept for the
// weight gradient, in f32 (summed over the rows) and through a bf16 convert
// (summed over the columns), 300x200 (ragged rows and columns). The mask's
// compare of another array runs in the epilogue too (Epilogue.cpp
// findEpilogue: elementwise ops after the contraction that only the
// epilogue reads). The dots' raw results are never stored.
// RUN: tpuc-opt %s --tpuc-fuse | FileCheck %s --check-prefix=PLAN
// PLAN: hlo.fusion output
// PLAN: hlo.dot_general
// PLAN-NEXT: hlo.compare GT
// PLAN-NEXT: hlo.select
// PLAN: hlo.fusion output
// PLAN: hlo.dot_general
// PLAN-NEXT: hlo.convert
// PLAN-NEXT: hlo.compare GT
// PLAN-NEXT: hlo.select
// PLAN: hlo.fusion input
// PLAN-NOT: hlo.select
// PLAN: hlo.reduce
// PLAN: hlo.fusion input
// PLAN-NOT: hlo.select
// PLAN: hlo.reduce
// PLAN: return
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s -o %t/f.tpx
// The input fusions exporting the gradients moved 3,176,640 bytes.
// RUN: tpuc-run %t/f.tpx --timing-only --profile=json | FileCheck %s --check-prefix=PROF
// PROF: "hbm_bytes": 2398400,
// DEFAULT precision: the dots' operands rounded to bf16 (tolerance 2^-7, as
// test/e2e/dot-transposed.mlir states).
// RUN: tpuc-run %t/f.tpx --random-inputs=4 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=4 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 4 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[300, 200]
// CHECK: result1: ok shape=[200]
// CHECK: result2: ok shape=[300, 200]
// CHECK: result3: ok shape=[300]

func.func @main(%x: tensor<300x100xf32>, %w: tensor<200x100xf32>, %a: tensor<300x200xf32>, %xb: tensor<300x100xf32>, %wb: tensor<100x200xf32>, %ab: tensor<300x200xbf16>) -> (tensor<300x200xf32>, tensor<200xf32>, tensor<300x200xbf16>, tensor<300xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %z = hlo.constant dense<0.0> : tensor<300x200xf32>
  %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [1]> : (tensor<300x100xf32>, tensor<200x100xf32>) -> tensor<300x200xf32>
  %m = hlo.compare GT, %a, %z : (tensor<300x200xf32>, tensor<300x200xf32>) -> tensor<300x200xi1>
  %g = hlo.select %m, %d, %z : (tensor<300x200xi1>, tensor<300x200xf32>, tensor<300x200xf32>) -> tensor<300x200xf32>
  %s = hlo.reduce(%g) init(%zero) dims = [0] : (tensor<300x200xf32>, tensor<f32>) -> tensor<200xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %r = hlo.add %p, %q : tensor<f32>
    hlo.return %r : tensor<f32>
  }
  %zb = hlo.constant dense<0.0> : tensor<300x200xbf16>
  %db = hlo.dot_general %xb, %wb, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<300x100xf32>, tensor<100x200xf32>) -> tensor<300x200xf32>
  %cb = hlo.convert %db : (tensor<300x200xf32>) -> tensor<300x200xbf16>
  %mb = hlo.compare GT, %ab, %zb : (tensor<300x200xbf16>, tensor<300x200xbf16>) -> tensor<300x200xi1>
  %gb = hlo.select %mb, %cb, %zb : (tensor<300x200xi1>, tensor<300x200xbf16>, tensor<300x200xbf16>) -> tensor<300x200xbf16>
  %fb = hlo.convert %gb : (tensor<300x200xbf16>) -> tensor<300x200xf32>
  %sb = hlo.reduce(%fb) init(%zero) dims = [1] : (tensor<300x200xf32>, tensor<f32>) -> tensor<300xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %r = hlo.add %p, %q : tensor<f32>
    hlo.return %r : tensor<f32>
  }
  return %g, %s, %gb, %sb : tensor<300x200xf32>, tensor<200xf32>, tensor<300x200xbf16>, tensor<300xf32>
}
