// Reductions over the minor dim (the lanes) of 2-D, 3-D and 4-D arrays,
// read in their tiled layout with no relayout: ragged lanes (300, 200, 130)
// masked with the identity, ragged rows (20, 13) written into the result's
// padding. f32 add/max/min with a non-constant init (an argument), bf16
// max (loaded widened, stored rounded: exact), s32 add (exact).
// f32 sums run per lane over the column tiles, then VREDUCE_LANES over the
// 128 lanes: tolerance 1e-5 of the largest output (summation order).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-decompose-reductions --tpuc-convert-hlo-to-tpu -o %t/r.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/r.tpu.mlir -o %t/r.tpx
// RUN: tpuc-run %t/r.tpx --random-inputs=7 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 4 1e-5 0.999999 | FileCheck %s --check-prefix=F32
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 6 1e-5 0.999999 | FileCheck %s --check-prefix=ALL
// F32: result0: ok shape=[3, 20]
// F32: result1: ok shape=[3, 20]
// F32: result2: ok shape=[2, 3, 20]
// F32: result3: ok shape=[20]
// ALL: result4: ok shape=[2, 13]
// ALL: result5: ok shape=[9]

func.func @minor(%x: tensor<3x20x300xf32>, %init: tensor<f32>, %y: tensor<2x3x20x130xf32>,
                 %z: tensor<20x300xf32>, %h: tensor<2x13x200xbf16>, %i: tensor<9x150xi32>)
    -> (tensor<3x20xf32>, tensor<3x20xf32>, tensor<2x3x20xf32>, tensor<20xf32>, tensor<2x13xbf16>, tensor<9xi32>) {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %inf = hlo.constant dense<0x7F800000> : tensor<f32>
  %bninf = hlo.constant dense<0xFF80> : tensor<bf16>
  %izero = hlo.constant dense<0> : tensor<i32>
  %s = hlo.reduce(%x) init(%init) dims = [2] : (tensor<3x20x300xf32>, tensor<f32>) -> tensor<3x20xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.add %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %m = hlo.reduce(%x) init(%ninf) dims = [2] : (tensor<3x20x300xf32>, tensor<f32>) -> tensor<3x20xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.maximum %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %n = hlo.reduce(%y) init(%inf) dims = [3] : (tensor<2x3x20x130xf32>, tensor<f32>) -> tensor<2x3x20xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.minimum %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %t = hlo.reduce(%z) init(%init) dims = [1] : (tensor<20x300xf32>, tensor<f32>) -> tensor<20xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.add %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %hb = hlo.reduce(%h) init(%bninf) dims = [2] : (tensor<2x13x200xbf16>, tensor<bf16>) -> tensor<2x13xbf16> {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %0 = hlo.maximum %a, %b : tensor<bf16>
    hlo.return %0 : tensor<bf16>
  }
  %is = hlo.reduce(%i) init(%izero) dims = [1] : (tensor<9x150xi32>, tensor<i32>) -> tensor<9xi32> {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %0 = hlo.add %a, %b : tensor<i32>
    hlo.return %0 : tensor<i32>
  }
  return %s, %m, %n, %t, %hb, %is : tensor<3x20xf32>, tensor<3x20xf32>, tensor<2x3x20xf32>, tensor<20xf32>, tensor<2x13xbf16>, tensor<9xi32>
}
