// tpuc-expand-math's power on f32 (e^(y log|x|) with a two-float log and
// libm's special cases: every pair of +-0, +-inf, NaN, +-1, subnormals and
// integer or non-integer exponents occurs) and on s32 (squaring; negative
// exponents give 0, or 1 for base 1; products wrap; exact), on the emulator
// against the interpreter, 100x1000. f32 tolerance in ulp of the
// interpreter's value; s32 exact.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: %python_numpy %S/Inputs/math_sweep.py %t 100 1000 int_base int_exp pow_base pow_exp
// RUN: tpuc compile %s -o %t/m.tpx
// RUN: tpuc-run %t/m.tpx --input=@%t/pow_base.npy --input=@%t/pow_exp.npy --input=@%t/int_base.npy --input=@%t/int_exp.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/pow_base.npy --input=@%t/pow_exp.npy --input=@%t/int_base.npy --input=@%t/int_exp.npy --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/math_ulp.py %t/got %t/want 2 0 | FileCheck %s
// CHECK: result0: ok
// CHECK: result1: ok

func.func @main(%x: tensor<100x1000xf32>, %y: tensor<100x1000xf32>, %a: tensor<100x1000xi32>, %b: tensor<100x1000xi32>)
    -> (tensor<100x1000xf32>, tensor<100x1000xi32>) {
  %r0 = hlo.power %x, %y : tensor<100x1000xf32>
  %r1 = hlo.power %a, %b : tensor<100x1000xi32>
  return %r0, %r1
      : tensor<100x1000xf32>, tensor<100x1000xi32>
}
