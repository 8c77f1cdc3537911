// RUN: tpuc-opt %s --split-input-file --tpuc-resize-batch='param=0 dim=0 size=1024' | FileCheck %s

// A dense layer's forward and weight gradient: the batch flows through the
// dot's free dimension, the bias broadcast, an iota one-hot, a splat
// constant and a transpose, and the weight gradient contracts it away; the
// mean's reduction removes it. Dimensions that are not the batch (64, 10)
// keep their sizes even where they equal it elsewhere.
// CHECK-LABEL: func.func @dense(%arg0: tensor<1024x64xf32>, %arg1: tensor<64x10xf32>, %arg2: tensor<1024xi32>) -> (tensor<64x10xf32>, tensor<f32>)
// CHECK: hlo.dot_general {{.*}} -> tensor<1024x10xf32>
// CHECK: hlo.broadcast_in_dim {{.*}} -> tensor<1024x10xf32>
// CHECK: hlo.iota dim = 1 : tensor<1024x10xi32>
// CHECK: hlo.broadcast_in_dim %arg2, dims = [0] : (tensor<1024xi32>) -> tensor<1024x10xi32>
// CHECK: hlo.constant dense<5.000000e-01> : tensor<1024x10xf32>
// CHECK: hlo.transpose {{.*}} -> tensor<10x1024xf32>
// CHECK: hlo.dot_general {{.*}} : (tensor<10x1024xf32>, tensor<1024x64xf32>) -> tensor<10x64xf32>
// CHECK: hlo.reduce({{.*}}) init({{.*}}) dims = [0, 1] : (tensor<1024x10xf32>, tensor<f32>) -> tensor<f32>
func.func @dense(%x: tensor<256x64xf32>, %w: tensor<64x10xf32>, %labels: tensor<256xi32>) -> (tensor<64x10xf32>, tensor<f32>) {
  %y = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<256x64xf32>, tensor<64x10xf32>) -> tensor<256x10xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %b = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<256x10xf32>
  %z = hlo.add %y, %b : tensor<256x10xf32>
  %iota = hlo.iota dim = 1 : tensor<256x10xi32>
  %l = hlo.broadcast_in_dim %labels, dims = [0] : (tensor<256xi32>) -> tensor<256x10xi32>
  %hot = hlo.compare EQ, %iota, %l : (tensor<256x10xi32>, tensor<256x10xi32>) -> tensor<256x10xi1>
  %half = hlo.constant dense<0.5> : tensor<256x10xf32>
  %g = hlo.select %hot, %z, %half : (tensor<256x10xi1>, tensor<256x10xf32>, tensor<256x10xf32>) -> tensor<256x10xf32>
  %gt = hlo.transpose %g, dims = [1, 0] : (tensor<256x10xf32>) -> tensor<10x256xf32>
  %dw = hlo.dot_general %gt, %x, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<10x256xf32>, tensor<256x64xf32>) -> tensor<10x64xf32>
  %dwt = hlo.transpose %dw, dims = [1, 0] : (tensor<10x64xf32>) -> tensor<64x10xf32>
  %sum = hlo.reduce(%g) init(%zero) dims = [0, 1] : (tensor<256x10xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %s = hlo.add %a, %c : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %dwt, %sum : tensor<64x10xf32>, tensor<f32>
}
