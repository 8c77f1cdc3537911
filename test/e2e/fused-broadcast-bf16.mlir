// Broadcasts inside one loop kernel (FusedKernel.cpp), bf16: a per-row
// statistic [2,20,1] seen through a unit-dim reshape (lane broadcast), a
// rank-1 scale [300] (sublane ct % 8 of its T(1024) tiles), a [20,300]
// table over the outer dim, and a rank-0 offset. Ragged 20x300 tiles; all
// ops IEEE-exact with bf16 intermediates rounded, so bit-exact against the
// interpreter.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/f.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/f.tpu.mlir -o %t/f.tpx
// RUN: tpuc-run %t/f.tpx --random-inputs=9 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=9 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 1 0 | FileCheck %s
// CHECK: result0: ok shape=[2, 20, 300]

func.func @main(%x: tensor<2x20x300xbf16>, %m: tensor<2x20x1xbf16>, %g: tensor<300xbf16>, %h: tensor<20x300xbf16>, %k: tensor<bf16>) -> tensor<2x20x300xbf16> {
  %r = hlo.fusion loop(%x, %m, %g, %h, %k) : (tensor<2x20x300xbf16>, tensor<2x20x1xbf16>, tensor<300xbf16>, tensor<20x300xbf16>, tensor<bf16>) -> tensor<2x20x300xbf16> {
  ^bb0(%a: tensor<2x20x300xbf16>, %b: tensor<2x20x1xbf16>, %c: tensor<300xbf16>, %d: tensor<20x300xbf16>, %e: tensor<bf16>):
    %0 = hlo.reshape %b : (tensor<2x20x1xbf16>) -> tensor<2x20xbf16>
    %1 = hlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<2x20xbf16>) -> tensor<2x20x300xbf16>
    %2 = hlo.subtract %a, %1 : tensor<2x20x300xbf16>
    %3 = hlo.broadcast_in_dim %c, dims = [2] : (tensor<300xbf16>) -> tensor<2x20x300xbf16>
    %4 = hlo.multiply %2, %3 : tensor<2x20x300xbf16>
    %5 = hlo.broadcast_in_dim %d, dims = [1, 2] : (tensor<20x300xbf16>) -> tensor<2x20x300xbf16>
    %6 = hlo.add %4, %5 : tensor<2x20x300xbf16>
    %7 = hlo.broadcast_in_dim %e, dims = [] : (tensor<bf16>) -> tensor<2x20x300xbf16>
    %8 = hlo.maximum %6, %7 : tensor<2x20x300xbf16>
    hlo.return %8 : tensor<2x20x300xbf16>
  }
  return %r : tensor<2x20x300xbf16>
}
