// Rank-0 elementwise (the scalar math of a training step: a loss scale, a
// learning rate) and rank-0 operands broadcast into array ops (select with
// a scalar pred, clamp with scalar bounds). A rank-0 tensor is one padded
// tile. The f32 results are single IEEE operations on both sides except
// the division (VDIV vs the host's, both correctly rounded): tolerance 0.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/scalar.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/scalar.tpu.mlir -o %t/scalar.tpx
// RUN: tpuc-run %t/scalar.tpx --random-inputs=7 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 4 0 | FileCheck %s
// CHECK: result0: ok shape=[] max_abs=0
// CHECK: result1: ok shape=[] max_abs=0
// CHECK: result2: ok shape=[3, 200] max_abs=0
// CHECK: result3: ok shape=[3, 200] max_abs=0

func.func @scalar(%loss: tensor<f32>, %lr: tensor<f32>, %n: tensor<i32>,
                  %x: tensor<3x200xf32>)
    -> (tensor<f32>, tensor<i32>, tensor<3x200xf32>, tensor<3x200xf32>) {
  %half = hlo.constant dense<0.5> : tensor<f32>
  %one = hlo.constant dense<1> : tensor<i32>
  %l2 = hlo.multiply %loss, %lr : tensor<f32>
  %nf = hlo.convert %n : (tensor<i32>) -> tensor<f32>
  %d = hlo.divide %l2, %nf : tensor<f32>
  %r0 = hlo.add %d, %half : tensor<f32>
  %r1 = hlo.add %n, %one : tensor<i32>
  %p = hlo.compare GT, %loss, %lr : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %neg = hlo.negate %x : tensor<3x200xf32>
  %r2 = hlo.select %p, %x, %neg : (tensor<i1>, tensor<3x200xf32>, tensor<3x200xf32>) -> tensor<3x200xf32>
  %lo = hlo.negate %lr : tensor<f32>
  %r3 = hlo.clamp %lo, %x, %lr : (tensor<f32>, tensor<3x200xf32>, tensor<f32>) -> tensor<3x200xf32>
  return %r0, %r1, %r2, %r3 : tensor<f32>, tensor<i32>, tensor<3x200xf32>, tensor<3x200xf32>
}
