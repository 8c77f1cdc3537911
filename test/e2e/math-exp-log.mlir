// tpuc-expand-math's exponential_minus_one, log_plus_one, erf and cbrt (f32)
// on the emulator against the interpreter (libm), 100x1000: expm1 and log1p
// down to the smallest subnormals (where e^x - 1 and log(1 + x) lose every
// bit), log1p at -1 (-inf) and below (NaN), erf across its branch points
// 0.875 and 4, cbrt over every magnitude with its sign. Tolerances in ulp of
// the interpreter's value.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: %python_numpy %S/Inputs/math_sweep.py %t 100 1000 cbrt erf expm1 log1p
// RUN: tpuc compile %s -o %t/m.tpx
// RUN: tpuc-run %t/m.tpx --input=@%t/expm1.npy --input=@%t/log1p.npy --input=@%t/erf.npy --input=@%t/cbrt.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/expm1.npy --input=@%t/log1p.npy --input=@%t/erf.npy --input=@%t/cbrt.npy --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/math_ulp.py %t/got %t/want 2 2 2 2 | FileCheck %s
// CHECK: result0: ok
// CHECK: result1: ok
// CHECK: result2: ok
// CHECK: result3: ok

func.func @main(%e: tensor<100x1000xf32>, %l: tensor<100x1000xf32>, %x: tensor<100x1000xf32>, %c: tensor<100x1000xf32>)
    -> (tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>) {
  %r0 = hlo.exponential_minus_one %e : tensor<100x1000xf32>
  %r1 = hlo.log_plus_one %l : tensor<100x1000xf32>
  %r2 = hlo.erf %x : tensor<100x1000xf32>
  %r3 = hlo.cbrt %c : tensor<100x1000xf32>
  return %r0, %r1, %r2, %r3
      : tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>
}
