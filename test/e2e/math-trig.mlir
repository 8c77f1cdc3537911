// tpuc-expand-math's sine, cosine and tan (f32) on the emulator against the
// interpreter (libm), 100x1000 (ragged): a dense sweep of [-20, 20] and of
// magnitudes up to 2^13 pi/2 with +-0, +-inf, NaN, subnormals and the floats
// around pi/2 and pi; sine and cosine again on huge arguments up to 2e9
// (the two-step reduction with exact k * pi/2 products). Tolerances in ulp
// of the interpreter's value (measured maxima: docs/math-functions.md).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: %python_numpy %S/Inputs/math_sweep.py %t 100 1000 trig trig_huge
// RUN: tpuc compile %s -o %t/m.tpx
// RUN: tpuc-run %t/m.tpx --input=@%t/trig.npy --input=@%t/trig_huge.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/trig.npy --input=@%t/trig_huge.npy --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/math_ulp.py %t/got %t/want 2 2 4 2 2 | FileCheck %s
// CHECK: result0: ok
// CHECK: result1: ok
// CHECK: result2: ok
// CHECK: result3: ok
// CHECK: result4: ok

func.func @main(%x: tensor<100x1000xf32>, %h: tensor<100x1000xf32>)
    -> (tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>) {
  %r0 = hlo.sine %x : tensor<100x1000xf32>
  %r1 = hlo.cosine %x : tensor<100x1000xf32>
  %r2 = hlo.tan %x : tensor<100x1000xf32>
  %r3 = hlo.sine %h : tensor<100x1000xf32>
  %r4 = hlo.cosine %h : tensor<100x1000xf32>
  return %r0, %r1, %r2, %r3, %r4
      : tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>
}
