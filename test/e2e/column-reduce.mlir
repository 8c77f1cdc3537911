// Column sums and column maxima of f32[100,300] (ragged rows and lanes)
// over the leading dim, on the sublanes; plus tanh(x) * x where x > 0
// (compare + select) to cover the VPU's other ops. f32 throughout:
// tolerance 1e-5 of the largest output (summation order).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/colred.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/colred.tpu.mlir -o %t/colred.tpx
// RUN: tpuc-run %t/colred.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 3 1e-5 0.999999 | FileCheck %s
// CHECK: result0: ok shape=[300]
// CHECK: result1: ok shape=[300]
// CHECK: result2: ok shape=[100, 300]

func.func @colreduce(%x: tensor<100x300xf32>) -> (tensor<300xf32>, tensor<300xf32>, tensor<100x300xf32>) {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %zeros = hlo.constant dense<0.0> : tensor<100x300xf32>
  %s = hlo.reduce(%x) init(%zero) dims = [0] : (tensor<100x300xf32>, tensor<f32>) -> tensor<300xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.add %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %m = hlo.reduce(%x) init(%ninf) dims = [0] : (tensor<100x300xf32>, tensor<f32>) -> tensor<300xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.maximum %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %t = hlo.tanh %x : tensor<100x300xf32>
  %tx = hlo.multiply %t, %x : tensor<100x300xf32>
  %p = hlo.compare GT, %x, %zeros : (tensor<100x300xf32>, tensor<100x300xf32>) -> tensor<100x300xi1>
  %y = hlo.select %p, %tx, %zeros : (tensor<100x300xi1>, tensor<100x300xf32>, tensor<100x300xf32>) -> tensor<100x300xf32>
  return %s, %m, %y : tensor<300xf32>, tensor<300xf32>, tensor<100x300xf32>
}
