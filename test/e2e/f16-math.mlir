// f16 math functions and the other arithmetic families through
// tpuc-expand-narrow-floats (f32, rounded to f16 after each op) against the
// interpreter (f16 computed in float, each result rounded to f16), on
// tpu-v3 and tpu-v6e: exp, log, tanh, logistic, rsqrt, power, remainder,
// sine. The device's math functions are polynomials within a few f32 ulps
// of the interpreter's libm (docs/math-functions.md), so an f16 result may
// differ by one f16 ulp where the f32 values straddle an f16 rounding
// boundary: tolerance 1e-3 of each output's largest magnitude (an f16 ulp
// is 2^-11 = 4.9e-4 of the value). Measured: all 8 bit for bit on these
// inputs (uniform random f32, --random-inputs=3).
// RUN: rm -rf %t && mkdir -p %t/got %t/got6 %t/want
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc compile %s --target=tpu-v6e -o %t/t6.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=3 --output-dir=%t/got --result-names=index
// RUN: tpuc-run %t/t6.tpx --random-inputs=3 --output-dir=%t/got6 --result-names=index
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 8 1e-3 0.99999 | FileCheck %s
// RUN: %python_numpy %S/Inputs/compare.py %t/got6 %t/want 8 1e-3 0.99999 | FileCheck %s
// CHECK-COUNT-8: ok

func.func @main(%a32: tensor<16x128xf32>, %b32: tensor<16x128xf32>)
    -> (tensor<16x128xf16>, tensor<16x128xf16>, tensor<16x128xf16>,
        tensor<16x128xf16>, tensor<16x128xf16>, tensor<16x128xf16>,
        tensor<16x128xf16>, tensor<16x128xf16>) {
  %a = hlo.convert %a32 : (tensor<16x128xf32>) -> tensor<16x128xf16>
  %b = hlo.convert %b32 : (tensor<16x128xf32>) -> tensor<16x128xf16>
  %0 = hlo.exponential %a : tensor<16x128xf16>
  %ab = hlo.abs %b : tensor<16x128xf16>
  %1 = hlo.log %ab : tensor<16x128xf16>
  %2 = hlo.tanh %a : tensor<16x128xf16>
  %3 = hlo.logistic %a : tensor<16x128xf16>
  %4 = hlo.rsqrt %ab : tensor<16x128xf16>
  %5 = hlo.power %ab, %a : tensor<16x128xf16>
  %6 = hlo.remainder %a, %b : tensor<16x128xf16>
  %7 = hlo.sine %a : tensor<16x128xf16>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<16x128xf16>, tensor<16x128xf16>, tensor<16x128xf16>,
        tensor<16x128xf16>, tensor<16x128xf16>, tensor<16x128xf16>,
        tensor<16x128xf16>, tensor<16x128xf16>
}
