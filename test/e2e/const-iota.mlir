// iota on the VPU (vlane_id / vsublane_id plus the tile's offset, VCVT to
// f32 for float results) along every dim of ragged rank-1, 2 and 3
// shapes (the bf16 one is returned as f32: compare.py reads no bf16).
// Exact: tolerance 0.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/iota.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/iota.tpu.mlir -o %t/iota.tpx
// RUN: tpuc-run %t/iota.tpx --output-dir=%t/got
// RUN: tpuc interpret %s --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 6 0 | FileCheck %s
// CHECK: result0: ok shape=[2500] max_abs=0
// CHECK: result1: ok shape=[20, 300] max_abs=0
// CHECK: result2: ok shape=[20, 300] max_abs=0
// CHECK: result3: ok shape=[3, 10, 130] max_abs=0
// CHECK: result4: ok shape=[3, 10, 130] max_abs=0
// CHECK: result5: ok shape=[4, 3, 9, 5] max_abs=0

func.func @iota()
    -> (tensor<2500xi32>, tensor<20x300xf32>, tensor<20x300xi32>,
        tensor<3x10x130xi32>, tensor<3x10x130xf32>, tensor<4x3x9x5xf32>) {
  %0 = hlo.iota dim = 0 : tensor<2500xi32>
  %1 = hlo.iota dim = 1 : tensor<20x300xf32>
  %2 = hlo.iota dim = 0 : tensor<20x300xi32>
  %3 = hlo.iota dim = 0 : tensor<3x10x130xi32>
  %h = hlo.iota dim = 2 : tensor<3x10x130xbf16>
  %4 = hlo.convert %h : (tensor<3x10x130xbf16>) -> tensor<3x10x130xf32>
  %5 = hlo.iota dim = 1 : tensor<4x3x9x5xf32>
  return %0, %1, %2, %3, %4, %5
      : tensor<2500xi32>, tensor<20x300xf32>, tensor<20x300xi32>,
        tensor<3x10x130xi32>, tensor<3x10x130xf32>, tensor<4x3x9x5xf32>
}
