// Reductions outside the kernels' forms, through tpuc-decompose-reductions
// and the relayouts it inserts (DataMovement.cpp's reshapes and
// transposes): the leading dim of [4,6,8] (reshape to [4,48]), trailing
// dims {1,2} (reshape to [4,48]), interleaved dims {0,2} of [2,3,4,5]
// (transpose, reshape, minor kernel) and the middle dim with two kept
// minor dims (reshape to [2,3,20]). f32 sums of at most 48 terms:
// tolerance 1e-5 of the largest output (summation order).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-decompose-reductions --canonicalize --tpuc-convert-hlo-to-tpu -o %t/r.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/r.tpu.mlir -o %t/r.tpx
// RUN: tpuc-run %t/r.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 4 1e-5 0.999999 | FileCheck %s
// CHECK: result0: ok shape=[6, 8]
// CHECK: result1: ok shape=[4]
// CHECK: result2: ok shape=[3, 5]
// CHECK: result3: ok shape=[2, 4, 5]

func.func @decomposed(%x: tensor<4x6x8xf32>, %y: tensor<2x3x4x5xf32>) -> (tensor<6x8xf32>, tensor<4xf32>, tensor<3x5xf32>, tensor<2x4x5xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %a = hlo.reduce(%x) init(%ninf) dims = [0] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<6x8xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.maximum %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %b = hlo.reduce(%x) init(%zero) dims = [1, 2] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %c = hlo.reduce(%y) init(%zero) dims = [0, 2] : (tensor<2x3x4x5xf32>, tensor<f32>) -> tensor<3x5xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %d = hlo.reduce(%y) init(%zero) dims = [1] : (tensor<2x3x4x5xf32>, tensor<f32>) -> tensor<2x4x5xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  return %a, %b, %c, %d : tensor<6x8xf32>, tensor<4xf32>, tensor<3x5xf32>, tensor<2x4x5xf32>
}
