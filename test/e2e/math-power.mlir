// tpuc-expand-math's power on f32 (e^(y log|x|) with a two-float log and
// libm's special cases: every pair of +-0, +-inf, NaN, +-1, subnormals and
// integer or non-integer exponents occurs) and on s32 (squaring; negative
// exponents give 0, or 1 for base 1; products wrap; exact), on the emulator
// against the interpreter, 100x1000. Constant exponents: 0, 1, 2, -1 and
// 0.5 without a log (x * 1, x * x, 1 / x, sqrt with libm's -0 and -inf
// cases), 3 by the general formula; s32 3, 0 and -2 with only the
// exponent's bits. f32 tolerance in ulp of the interpreter's value (1 for
// the single correctly rounded operations, where libm's powf may still
// differ by one); s32 exact.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: %python_numpy %S/Inputs/math_sweep.py %t 100 1000 int_base int_exp pow_base pow_exp
// RUN: tpuc compile %s -o %t/m.tpx
// RUN: tpuc-run %t/m.tpx --input=@%t/pow_base.npy --input=@%t/pow_exp.npy --input=@%t/int_base.npy --input=@%t/int_exp.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/pow_base.npy --input=@%t/pow_exp.npy --input=@%t/int_base.npy --input=@%t/int_exp.npy --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/math_ulp.py %t/got %t/want 2 0 1 1 1 1 1 2 0 0 0 | FileCheck %s
// CHECK: result0: ok
// CHECK: result1: ok
// CHECK: result2: ok
// CHECK: result3: ok
// CHECK: result4: ok
// CHECK: result5: ok
// CHECK: result6: ok
// CHECK: result7: ok
// CHECK: result8: ok
// CHECK: result9: ok
// CHECK: result10: ok

func.func @main(%x: tensor<100x1000xf32>, %y: tensor<100x1000xf32>, %a: tensor<100x1000xi32>, %b: tensor<100x1000xi32>)
    -> (tensor<100x1000xf32>, tensor<100x1000xi32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xi32>, tensor<100x1000xi32>, tensor<100x1000xi32>) {
  %r0 = hlo.power %x, %y : tensor<100x1000xf32>
  %r1 = hlo.power %a, %b : tensor<100x1000xi32>
  %c0 = hlo.constant dense<0.0> : tensor<100x1000xf32>
  %r2 = hlo.power %x, %c0 : tensor<100x1000xf32>
  %c1 = hlo.constant dense<1.0> : tensor<100x1000xf32>
  %r3 = hlo.power %x, %c1 : tensor<100x1000xf32>
  %c2 = hlo.constant dense<2.0> : tensor<100x1000xf32>
  %r4 = hlo.power %x, %c2 : tensor<100x1000xf32>
  %cm1 = hlo.constant dense<-1.0> : tensor<100x1000xf32>
  %r5 = hlo.power %x, %cm1 : tensor<100x1000xf32>
  %ch = hlo.constant dense<0.5> : tensor<100x1000xf32>
  %r6 = hlo.power %x, %ch : tensor<100x1000xf32>
  %c3 = hlo.constant dense<3.0> : tensor<100x1000xf32>
  %r7 = hlo.power %x, %c3 : tensor<100x1000xf32>
  %i3 = hlo.constant dense<3> : tensor<100x1000xi32>
  %r8 = hlo.power %a, %i3 : tensor<100x1000xi32>
  %i0 = hlo.constant dense<0> : tensor<100x1000xi32>
  %r9 = hlo.power %a, %i0 : tensor<100x1000xi32>
  %im2 = hlo.constant dense<-2> : tensor<100x1000xi32>
  %r10 = hlo.power %a, %im2 : tensor<100x1000xi32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10
      : tensor<100x1000xf32>, tensor<100x1000xi32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xf32>, tensor<100x1000xi32>, tensor<100x1000xi32>, tensor<100x1000xi32>
}
