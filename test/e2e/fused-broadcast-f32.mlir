// Broadcasts inside one loop kernel (FusedKernel.cpp), f32: a per-row
// statistic [2,20,1] seen through a unit-dim reshape (lane broadcast), a
// rank-1 scale [300] (sublane ct % 8 of its T(1024) tiles), a [20,300]
// table over the outer dim, and a rank-0 offset. Ragged 20x300 tiles; all
// ops IEEE-exact with f32 intermediates rounded, so bit-exact against the
// interpreter.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/f.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/f.tpu.mlir -o %t/f.tpx
// RUN: tpuc-run %t/f.tpx --random-inputs=9 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=9 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 1 0 | FileCheck %s
// CHECK: result0: ok shape=[2, 20, 300]

func.func @main(%x: tensor<2x20x300xf32>, %m: tensor<2x20x1xf32>, %g: tensor<300xf32>, %h: tensor<20x300xf32>, %k: tensor<f32>) -> tensor<2x20x300xf32> {
  %r = hlo.fusion loop(%x, %m, %g, %h, %k) : (tensor<2x20x300xf32>, tensor<2x20x1xf32>, tensor<300xf32>, tensor<20x300xf32>, tensor<f32>) -> tensor<2x20x300xf32> {
  ^bb0(%a: tensor<2x20x300xf32>, %b: tensor<2x20x1xf32>, %c: tensor<300xf32>, %d: tensor<20x300xf32>, %e: tensor<f32>):
    %0 = hlo.reshape %b : (tensor<2x20x1xf32>) -> tensor<2x20xf32>
    %1 = hlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<2x20xf32>) -> tensor<2x20x300xf32>
    %2 = hlo.subtract %a, %1 : tensor<2x20x300xf32>
    %3 = hlo.broadcast_in_dim %c, dims = [2] : (tensor<300xf32>) -> tensor<2x20x300xf32>
    %4 = hlo.multiply %2, %3 : tensor<2x20x300xf32>
    %5 = hlo.broadcast_in_dim %d, dims = [1, 2] : (tensor<20x300xf32>) -> tensor<2x20x300xf32>
    %6 = hlo.add %4, %5 : tensor<2x20x300xf32>
    %7 = hlo.broadcast_in_dim %e, dims = [] : (tensor<f32>) -> tensor<2x20x300xf32>
    %8 = hlo.maximum %6, %7 : tensor<2x20x300xf32>
    hlo.return %8 : tensor<2x20x300xf32>
  }
  return %r : tensor<2x20x300xf32>
}
