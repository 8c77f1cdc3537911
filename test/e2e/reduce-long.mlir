// Long rows and many tiles: a minor-dim sum over 2100 lanes (17 column
// tiles: the VMEM accumulator path, ragged 52 lanes), s32 max over all of
// [3,9,2100] (17 column tiles, ragged rows), a sum over trailing dims {1,2}
// (reshaped to [3,18900]: 148 column tiles) and the sum of 700000 f32 to a
// scalar. Tolerance 1e-5 of the largest output, except the 700000-term
// scalar sum: the interpreter adds sequentially in f32 (error growing
// with the partial sums, ~sqrt(N)·2^-24·|partial sum|), the kernel per
// lane and then across lanes; 1e-4 there.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-decompose-reductions --canonicalize --tpuc-convert-hlo-to-tpu -o %t/r.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/r.tpu.mlir -o %t/r.tpx
// RUN: tpuc-run %t/r.tpx --random-inputs=2 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=2 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 2 1e-5 0.999999 | FileCheck %s
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 4 1e-4 0.999999 | FileCheck %s --check-prefix=ALL
// CHECK: result0: ok shape=[21]
// CHECK: result1: ok shape=[]
// ALL: result2: ok shape=[]
// ALL: result3: ok shape=[3]

func.func @long(%x: tensor<21x2100xf32>, %y: tensor<3x9x2100xi32>, %z: tensor<700000xf32>) -> (tensor<21xf32>, tensor<i32>, tensor<f32>, tensor<3xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %imin = hlo.constant dense<-2147483648> : tensor<i32>
  %a = hlo.reduce(%x) init(%zero) dims = [1] : (tensor<21x2100xf32>, tensor<f32>) -> tensor<21xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %b = hlo.reduce(%y) init(%imin) dims = [0, 1, 2] : (tensor<3x9x2100xi32>, tensor<i32>) -> tensor<i32> {
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %0 = hlo.maximum %p, %q : tensor<i32>
    hlo.return %0 : tensor<i32>
  }
  %c = hlo.reduce(%z) init(%zero) dims = [0] : (tensor<700000xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %yf = hlo.convert %y : (tensor<3x9x2100xi32>) -> tensor<3x9x2100xf32>
  %d = hlo.reduce(%yf) init(%zero) dims = [1, 2] : (tensor<3x9x2100xf32>, tensor<f32>) -> tensor<3xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  return %a, %b, %c, %d : tensor<21xf32>, tensor<i32>, tensor<f32>, tensor<3xf32>
}
