// A reduce over dims that are all 1 (jnp.all(m, axis=1) of an [N,1] mask,
// dlrm's reduce_and) is its body applied once to the init and the element
// (hlo canonicalization ReduceOfUnitDims): an elementwise op, not a
// reduction over lanes padded 128-fold.
//   result0: and over [37,1] of a pred computed from the input (init true)
//   result1: add over two unit dims of [1,5,1,300], init 1.5 (the init is
//            applied, not dropped)
//   result2: a body that reads the element first, subtract(x, acc), bf16
//            [20,1], init 0.25: x - 0.25
//   result3: max over [1] to a rank-0 result, init -inf
//   result4: an add over a dim of 3 stays a reduce
// Each element is the body applied to the same two values: exact in f32;
// mixed_bfloat16 rounds the f32 add to bf16 (against the f32 interpreter,
// 1e-2 of the largest value).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=5 --output-dir=%t/got
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 5 0 0.9999999 | FileCheck %s
// RUN: tpuc compile %s --precision=mixed_bfloat16 -o %t/bf16.tpx
// RUN: tpuc-run %t/bf16.tpx --random-inputs=5 --output-dir=%t/gotb
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/wantb
// RUN: %python_numpy %S/Inputs/compare.py %t/gotb %t/wantb 5 0.01 0.9999
// RUN: tpuc compile %s --emit=fused -o - | FileCheck %s --check-prefix=FUSED
// CHECK: result0: ok shape=[37] max_abs=0 max_rel=0
// CHECK: result1: ok shape=[5, 300] max_abs=0 max_rel=0
// CHECK: result2: ok shape=[20] max_abs=0 max_rel=0
// CHECK: result3: ok shape=[] max_abs=0 max_rel=0
// CHECK: result4: ok shape=[4, 300] max_abs=0
// FUSED-COUNT-1: hlo.reduce(
// FUSED-NOT: hlo.reduce(

func.func @unit_reduces(%m: tensor<37x1xf32>, %x: tensor<1x5x1x300xf32>, %h: tensor<20x1xbf16>, %s: tensor<1xf32>, %w: tensor<4x3x300xf32>)
    -> (tensor<37xi1>, tensor<5x300xf32>, tensor<20xbf16>, tensor<f32>, tensor<4x300xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %zb = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<37x1xf32>
  %pos = hlo.compare GT, %m, %zb : (tensor<37x1xf32>, tensor<37x1xf32>) -> tensor<37x1xi1>
  %true = hlo.constant dense<true> : tensor<i1>
  %0 = hlo.reduce(%pos) init(%true) dims = [1] : (tensor<37x1xi1>, tensor<i1>) -> tensor<37xi1> {
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    %r = hlo.and %a, %b : tensor<i1>
    hlo.return %r : tensor<i1>
  }
  %init1 = hlo.constant dense<1.5> : tensor<f32>
  %1 = hlo.reduce(%x) init(%init1) dims = [0, 2] : (tensor<1x5x1x300xf32>, tensor<f32>) -> tensor<5x300xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = hlo.add %a, %b : tensor<f32>
    hlo.return %r : tensor<f32>
  }
  %init2 = hlo.constant dense<0.25> : tensor<bf16>
  %2 = hlo.reduce(%h) init(%init2) dims = [1] : (tensor<20x1xbf16>, tensor<bf16>) -> tensor<20xbf16> {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %r = hlo.subtract %b, %a : tensor<bf16>
    hlo.return %r : tensor<bf16>
  }
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %3 = hlo.reduce(%s) init(%ninf) dims = [0] : (tensor<1xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = hlo.maximum %a, %b : tensor<f32>
    hlo.return %r : tensor<f32>
  }
  %4 = hlo.reduce(%w) init(%zero) dims = [1] : (tensor<4x3x300xf32>, tensor<f32>) -> tensor<4x300xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = hlo.add %a, %b : tensor<f32>
    hlo.return %r : tensor<f32>
  }
  return %0, %1, %2, %3, %4 : tensor<37xi1>, tensor<5x300xf32>, tensor<20xbf16>, tensor<f32>, tensor<4x300xf32>
}
