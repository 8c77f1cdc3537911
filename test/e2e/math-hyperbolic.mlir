// tpuc-expand-math's sinh, cosh, asinh, acosh and atanh (f32) on the
// emulator against the interpreter (libm), 100x1000: sinh/cosh up to and
// past overflow (88.7 .. 90), asinh over all magnitudes, acosh from 1 (NaN
// below) to 1e38, atanh over [-1, 1] (+-inf at +-1, NaN beyond). Tolerances
// in ulp of the interpreter's value.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: %python_numpy %S/Inputs/math_sweep.py %t 100 1000 acosh hyperbolic unit wide
// RUN: tpuc compile %s -o %t/m.tpx
// RUN: tpuc-run %t/m.tpx --input=@%t/hyperbolic.npy --input=@%t/wide.npy --input=@%t/acosh.npy --input=@%t/unit.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/hyperbolic.npy --input=@%t/wide.npy --input=@%t/acosh.npy --input=@%t/unit.npy --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/math_ulp.py %t/got %t/want 2 2 2 2 3 | FileCheck %s
// CHECK: result0: ok
// CHECK: result1: ok
// CHECK: result2: ok
// CHECK: result3: ok
// CHECK: result4: ok

func.func @main(%x: tensor<100x1000xf32>, %w: tensor<100x1000xf32>, %a: tensor<100x1000xf32>, %u: tensor<100x1000xf32>)
    -> (tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>) {
  %r0 = hlo.sinh %x : tensor<100x1000xf32>
  %r1 = hlo.cosh %x : tensor<100x1000xf32>
  %r2 = hlo.asinh %w : tensor<100x1000xf32>
  %r3 = hlo.acosh %a : tensor<100x1000xf32>
  %r4 = hlo.atanh %u : tensor<100x1000xf32>
  return %r0, %r1, %r2, %r3, %r4
      : tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>
}
