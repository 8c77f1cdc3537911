// hlo.sort of f32[20,300] along the minor dim with a plain `compare LT`:
// ragged in both dims (20 rows = 2.5 tile rows of one 128-row block,
// 300 = 2.3 tiles, padded to a 512-element bitonic network). Sorting only
// moves values, so the emulator must match the interpreter bit for bit.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/sort.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/sort.tpu.mlir -o %t/sort.tpx
// RUN: tpuc-run %t/sort.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 1 | FileCheck %s
// CHECK: result0: ok shape=[20, 300] bit-exact

func.func @sort(%x: tensor<20x300xf32>) -> tensor<20x300xf32> {
  %0 = hlo.sort(%x) dim = 1 : (tensor<20x300xf32>) -> tensor<20x300xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  }
  return %0 : tensor<20x300xf32>
}
