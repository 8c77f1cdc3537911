// tpuc-expand-math's atan, asin, acos and atan2 (f32) on the emulator
// against the interpreter (libm), 100x1000: atan over [-10, 10] and all
// magnitudes, asin/acos over [-1, 1] with the floats around +-1 and +-0.5
// (NaN beyond), atan2 over a grid of signed zeros, infinities and NaN
// crossed with sweeps. Tolerances in ulp of the interpreter's value.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: %python_numpy %S/Inputs/math_sweep.py %t 100 1000 atan pow_base pow_exp unit
// RUN: tpuc compile %s -o %t/m.tpx
// RUN: tpuc-run %t/m.tpx --input=@%t/atan.npy --input=@%t/unit.npy --input=@%t/pow_base.npy --input=@%t/pow_exp.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/atan.npy --input=@%t/unit.npy --input=@%t/pow_base.npy --input=@%t/pow_exp.npy --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/math_ulp.py %t/got %t/want 3 2 2 3 | FileCheck %s
// CHECK: result0: ok
// CHECK: result1: ok
// CHECK: result2: ok
// CHECK: result3: ok

func.func @main(%x: tensor<100x1000xf32>, %u: tensor<100x1000xf32>, %y: tensor<100x1000xf32>, %w: tensor<100x1000xf32>)
    -> (tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>) {
  %r0 = hlo.atan %x : tensor<100x1000xf32>
  %r1 = hlo.asin %u : tensor<100x1000xf32>
  %r2 = hlo.acos %u : tensor<100x1000xf32>
  %r3 = hlo.atan2 %y, %w : tensor<100x1000xf32>
  return %r0, %r1, %r2, %r3
      : tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>
}
