// Layer norm of a bf16 [1,300,200] array as jax writes it (statistics
// [1,300,1] from the reduces' [1,300] through unit-dim reshapes; 300 rows:
// not a multiple of 8; 200 columns: not a multiple of 128). The hlo
// canonicalization ElementwiseOnRowVector (HloOps.cpp) computes the
// statistics on [300] vectors instead of [1,300,1] arrays that pad each
// element to a tile row; the row-resident kernel (RowKernel,
// FusedKernel.cpp) keeps them in vregs. Compared with the interpreter: f32
// (max relative error 8e-3, one bf16 ulp of the result; 0 seen) and
// mixed_bfloat16 (2e-2; 7.9e-3 seen: bf16 roundings of the statistics).
// RUN: rm -rf %t && mkdir -p %t/got %t/want %t/gotbf %t/wantbf
// RUN: tpuc compile %s -o %t/a.tpx --dump-dir=%t/dump
// RUN: FileCheck %s --check-prefix=FUSED < %t/dump/01-fused.mlir
// RUN: tpuc-run %t/a.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 1 8e-3 | FileCheck %s
// RUN: tpuc compile %s --precision=mixed_bfloat16 -o %t/b.tpx
// RUN: tpuc-run %t/b.tpx --random-inputs=3 --output-dir=%t/gotbf
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/wantbf
// RUN: %python_numpy %S/Inputs/compare.py %t/gotbf %t/wantbf 1 2e-2 | FileCheck %s
// CHECK: result0: ok shape=[1, 300, 200]
// The statistics are rank-1 vectors broadcast along the rows; the reduces
// and the normalize step are one row-resident fusion (docs/fusion.md), which
// computes them on vregs per tile row.
// FUSED: hlo.fusion input
// FUSED: hlo.sqrt %{{.+}} : tensor<300xf32>
// FUSED: hlo.broadcast_in_dim %{{.+}}, dims = [0, 1] : (tensor<1x300xbf16>) -> tensor<1x300x200xbf16>

func.func @main(%x: tensor<1x300x200xbf16>) -> tensor<1x300x200xbf16> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %n = hlo.constant dense<200.0> : tensor<1x300x1xf32>
  %eps = hlo.constant dense<1.0e-5> : tensor<1x300x1xbf16>
  %xf = hlo.convert %x : (tensor<1x300x200xbf16>) -> tensor<1x300x200xf32>
  %sum = hlo.reduce(%xf) init(%zero) dims = [2] : (tensor<1x300x200xf32>, tensor<f32>) -> tensor<1x300xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %sum3 = hlo.reshape %sum : (tensor<1x300xf32>) -> tensor<1x300x1xf32>
  %mean = hlo.divide %sum3, %n : tensor<1x300x1xf32>
  %meanb = hlo.convert %mean : (tensor<1x300x1xf32>) -> tensor<1x300x1xbf16>
  %mean2 = hlo.reshape %meanb : (tensor<1x300x1xbf16>) -> tensor<1x300xbf16>
  %mb = hlo.broadcast_in_dim %mean2, dims = [0, 1] : (tensor<1x300xbf16>) -> tensor<1x300x200xbf16>
  %d = hlo.subtract %x, %mb : tensor<1x300x200xbf16>
  %sq = hlo.multiply %d, %d : tensor<1x300x200xbf16>
  %sqf = hlo.convert %sq : (tensor<1x300x200xbf16>) -> tensor<1x300x200xf32>
  %ss = hlo.reduce(%sqf) init(%zero) dims = [2] : (tensor<1x300x200xf32>, tensor<f32>) -> tensor<1x300xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %ss3 = hlo.reshape %ss : (tensor<1x300xf32>) -> tensor<1x300x1xf32>
  %var = hlo.divide %ss3, %n : tensor<1x300x1xf32>
  %varb = hlo.convert %var : (tensor<1x300x1xf32>) -> tensor<1x300x1xbf16>
  %ve = hlo.add %varb, %eps : tensor<1x300x1xbf16>
  %sd = hlo.sqrt %ve : tensor<1x300x1xbf16>
  %sd2 = hlo.reshape %sd : (tensor<1x300x1xbf16>) -> tensor<1x300xbf16>
  %sb = hlo.broadcast_in_dim %sd2, dims = [0, 1] : (tensor<1x300xbf16>) -> tensor<1x300x200xbf16>
  %y = hlo.divide %d, %sb : tensor<1x300x200xbf16>
  return %y : tensor<1x300x200xbf16>
}
