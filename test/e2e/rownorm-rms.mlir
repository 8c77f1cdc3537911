// RMS norm over the minor dim of a rank-4 [2,3,20,130] array (20 rows per
// outer index, 130 columns: both ragged) with two results of the row shape
// (x * rsqrt(mean(x^2) + eps) and that plus x, two loop groups reading the
// statistic): one row-resident fusion (docs/fusion.md) whose kernel reads x
// once and writes both. Compared with the interpreter: f32 1e-5 (1.7e-7
// seen), mixed_bfloat16 2e-2 (7.7e-3 seen: bf16 roundings of x^2 and the
// results, as the program asks).
// RUN: rm -rf %t && mkdir -p %t/got %t/want %t/gotbf
// RUN: tpuc compile %s -o %t/a.tpx --dump-dir=%t/dump
// RUN: FileCheck %s --check-prefix=FUSED --implicit-check-not=hlo.fusion < %t/dump/01-fused.mlir
// RUN: tpuc-run %t/a.tpx --random-inputs=7 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 2 1e-5 | FileCheck %s
// RUN: tpuc compile %s --precision=mixed_bfloat16 -o %t/b.tpx
// RUN: tpuc-run %t/b.tpx --random-inputs=7 --output-dir=%t/gotbf
// RUN: %python_numpy %S/Inputs/compare.py %t/gotbf %t/want 2 2e-2 | FileCheck %s
// CHECK: result0: ok shape=[2, 3, 20, 130]
// CHECK: result1: ok shape=[2, 3, 20, 130]
// FUSED: hlo.fusion input
// FUSED: hlo.reduce
// FUSED: hlo.rsqrt
// FUSED: hlo.return {{.+}}, {{.+}} : tensor<2x3x20x130xf32>, tensor<2x3x20x130xf32>

func.func @main(%x: tensor<2x3x20x130xf32>) -> (tensor<2x3x20x130xf32>, tensor<2x3x20x130xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %n = hlo.constant dense<130.0> : tensor<2x3x20xf32>
  %eps = hlo.constant dense<1.0e-6> : tensor<2x3x20xf32>
  %sq = hlo.multiply %x, %x : tensor<2x3x20x130xf32>
  %ss = hlo.reduce(%sq) init(%zero) dims = [3] : (tensor<2x3x20x130xf32>, tensor<f32>) -> tensor<2x3x20xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %ms = hlo.divide %ss, %n : tensor<2x3x20xf32>
  %me = hlo.add %ms, %eps : tensor<2x3x20xf32>
  %r = hlo.rsqrt %me : tensor<2x3x20xf32>
  %rb = hlo.broadcast_in_dim %r, dims = [0, 1, 2] : (tensor<2x3x20xf32>) -> tensor<2x3x20x130xf32>
  %y = hlo.multiply %x, %rb : tensor<2x3x20x130xf32>
  %z = hlo.add %y, %x : tensor<2x3x20x130xf32>
  return %y, %z : tensor<2x3x20x130xf32>, tensor<2x3x20x130xf32>
}
