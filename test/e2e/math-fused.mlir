// Math functions the fusion planner fused with their neighbours: sine,
// cosine and erf feed a multiply/add chain and a row reduction, one input
// fusion; tpuc-expand-math expands them inside it (no fusion of their
// own), so the whole chain stays one kernel, and the sine and cosine of
// one value (rotary embeddings) share their range reduction. Against the interpreter on
// random inputs, 100x1000: max error relative to each output's largest
// magnitude 1e-5 (the expansions' few ulp, and the row sums' different
// summation order).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s -o %t/m.tpx --dump-dir=%t/dump
// RUN: cat $(ls %t/dump/passes/*-tpuc-expand-math.mlir | head -1) | FileCheck %s --check-prefix=FUSED --implicit-check-not=hlo.sine --implicit-check-not=hlo.cosine --implicit-check-not=hlo.erf
// RUN: tpuc-run %t/m.tpx --random-inputs=4 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=4 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 2 1e-5 | FileCheck %s
// CHECK: result0: ok
// CHECK: result1: ok
// The sine and the cosine of %x share one reduction by pi/2 (two steps,
// each rounding k through s32 and reading it back: 4 converts to s32).
// FUSED: hlo.fusion input
// FUSED-NOT: hlo.fusion
// FUSED-COUNT-4: -> tensor<100x1000xi32>
// FUSED-NOT: -> tensor<100x1000xi32>
// FUSED: hlo.reduce
// FUSED-NOT: hlo.fusion

func.func @main(%x: tensor<100x1000xf32>, %y: tensor<100x1000xf32>)
    -> (tensor<100x1000xf32>, tensor<100xf32>) {
  %s = hlo.sine %x : tensor<100x1000xf32>
  %c = hlo.cosine %x : tensor<100x1000xf32>
  %e = hlo.erf %y : tensor<100x1000xf32>
  %m = hlo.multiply %s, %c : tensor<100x1000xf32>
  %a = hlo.add %m, %e : tensor<100x1000xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%a) init(%z) dims = [1]
      : (tensor<100x1000xf32>, tensor<f32>) -> tensor<100xf32> {
  ^bb0(%u: tensor<f32>, %v: tensor<f32>):
    %w = hlo.add %u, %v : tensor<f32>
    hlo.return %w : tensor<f32>
  }
  return %a, %r : tensor<100x1000xf32>, tensor<100xf32>
}
