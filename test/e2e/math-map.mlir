// map on the emulator (tpuc-expand-math inlines its scalar computation on
// whole arrays, then expands the math functions in it) against the
// interpreter, which runs the computation element by element, 100x1000,
// f32: sin(x) * y^2 over x in [-20, 20] and y in [-4, 4] with +-0, +-inf
// and NaN (the constant 2 is hoisted out of the computation by the
// canonicalizer, so the inlining spreads it). Tolerance: 5 ulp of the
// interpreter's value (sine's 2, power's 2, the multiply's rounding).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: %python_numpy %S/Inputs/math_sweep.py %t 100 1000 trig pow_base
// RUN: tpuc compile %s -o %t/m.tpx
// RUN: tpuc-run %t/m.tpx --input=@%t/trig.npy --input=@%t/pow_base.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/trig.npy --input=@%t/pow_base.npy --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/math_ulp.py %t/got %t/want 5 | FileCheck %s
// CHECK: result0: ok

func.func @main(%x: tensor<100x1000xf32>, %y: tensor<100x1000xf32>)
    -> tensor<100x1000xf32> {
  %0 = hlo.map(%x, %y) dims = [0, 1]
      : (tensor<100x1000xf32>, tensor<100x1000xf32>) -> tensor<100x1000xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %two = hlo.constant dense<2.0> : tensor<f32>
    %s = hlo.sine %a : tensor<f32>
    %p = hlo.power %b, %two : tensor<f32>
    %m = hlo.multiply %s, %p : tensor<f32>
    hlo.return %m : tensor<f32>
  }
  return %0 : tensor<100x1000xf32>
}
