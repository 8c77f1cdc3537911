// A row softmax of f32[24,200] (ragged in both dims): reduce max and sum
// over the lanes, column broadcasts, exponential and divide on the VPU.
// All f32, so the only differences from the interpreter are the order of
// the lane sums and libm's exp: tolerance 1e-5 of the largest output.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/softmax.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/softmax.tpu.mlir -o %t/softmax.tpx
// RUN: tpuc-run %t/softmax.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 1 1e-5 0.999999 | FileCheck %s
// CHECK: result0: ok shape=[24, 200]

func.func @softmax(%x: tensor<24x200xf32>) -> tensor<24x200xf32> {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %m = hlo.reduce(%x) init(%ninf) dims = [1] : (tensor<24x200xf32>, tensor<f32>) -> tensor<24xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.maximum %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %mb = hlo.broadcast_in_dim %m, dims = [0] : (tensor<24xf32>) -> tensor<24x200xf32>
  %d = hlo.subtract %x, %mb : tensor<24x200xf32>
  %e = hlo.exponential %d : tensor<24x200xf32>
  %s = hlo.reduce(%e) init(%zero) dims = [1] : (tensor<24x200xf32>, tensor<f32>) -> tensor<24xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.add %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %sb = hlo.broadcast_in_dim %s, dims = [0] : (tensor<24xf32>) -> tensor<24x200xf32>
  %y = hlo.divide %e, %sb : tensor<24x200xf32>
  return %y : tensor<24x200xf32>
}
