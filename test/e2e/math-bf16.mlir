// Every tpuc-expand-math function on bf16 (computed in f32, rounded once
// to bf16 as XLA does) on the emulator against the interpreter, 100x1000,
// over the f32 tests' sweeps rounded to bf16. Tolerance: 1 bf16 ulp of
// the interpreter's value (the f32 approximations are within 3 f32 ulp,
// so only a value next to a bf16 rounding boundary may round the other
// way).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: %python_numpy %S/Inputs/math_sweep.py --bf16 %t 100 1000 acosh atan cbrt erf expm1 hyperbolic log1p pow_base pow_exp trig unit wide
// RUN: tpuc compile %s -o %t/m.tpx
// RUN: tpuc-run %t/m.tpx --input=@%t/acosh.npy --input=@%t/atan.npy --input=@%t/cbrt.npy --input=@%t/erf.npy --input=@%t/expm1.npy --input=@%t/hyperbolic.npy --input=@%t/log1p.npy --input=@%t/pow_base.npy --input=@%t/pow_exp.npy --input=@%t/trig.npy --input=@%t/unit.npy --input=@%t/wide.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/acosh.npy --input=@%t/atan.npy --input=@%t/cbrt.npy --input=@%t/erf.npy --input=@%t/expm1.npy --input=@%t/hyperbolic.npy --input=@%t/log1p.npy --input=@%t/pow_base.npy --input=@%t/pow_exp.npy --input=@%t/trig.npy --input=@%t/unit.npy --input=@%t/wide.npy --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/math_ulp.py %t/got %t/want 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 | FileCheck %s
// CHECK-COUNT-17: ok bf16

func.func @main(%acosh: tensor<100x1000xbf16>, %atan: tensor<100x1000xbf16>, %cbrt: tensor<100x1000xbf16>, %erf: tensor<100x1000xbf16>, %expm1: tensor<100x1000xbf16>, %hyperbolic: tensor<100x1000xbf16>, %log1p: tensor<100x1000xbf16>, %pow_base: tensor<100x1000xbf16>, %pow_exp: tensor<100x1000xbf16>, %trig: tensor<100x1000xbf16>, %unit: tensor<100x1000xbf16>, %wide: tensor<100x1000xbf16>)
    -> (tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>) {
  %r0 = hlo.sine %trig : tensor<100x1000xbf16>
  %r1 = hlo.cosine %trig : tensor<100x1000xbf16>
  %r2 = hlo.tan %trig : tensor<100x1000xbf16>
  %r3 = hlo.atan %atan : tensor<100x1000xbf16>
  %r4 = hlo.asin %unit : tensor<100x1000xbf16>
  %r5 = hlo.acos %unit : tensor<100x1000xbf16>
  %r6 = hlo.sinh %hyperbolic : tensor<100x1000xbf16>
  %r7 = hlo.cosh %hyperbolic : tensor<100x1000xbf16>
  %r8 = hlo.asinh %wide : tensor<100x1000xbf16>
  %r9 = hlo.acosh %acosh : tensor<100x1000xbf16>
  %r10 = hlo.atanh %unit : tensor<100x1000xbf16>
  %r11 = hlo.erf %erf : tensor<100x1000xbf16>
  %r12 = hlo.cbrt %cbrt : tensor<100x1000xbf16>
  %r13 = hlo.exponential_minus_one %expm1 : tensor<100x1000xbf16>
  %r14 = hlo.log_plus_one %log1p : tensor<100x1000xbf16>
  %r15 = hlo.atan2 %pow_base, %pow_exp : tensor<100x1000xbf16>
  %r16 = hlo.power %pow_base, %pow_exp : tensor<100x1000xbf16>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16
      : tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>, tensor<100x1000xbf16>
}
