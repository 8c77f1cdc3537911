// s64/u64 power through tpuc-expand-x64 (square and multiply on 32-bit
// words, a 64-trip while loop) against the interpreter, bit for bit: the
// 16 x 16 pairs of Inputs/x64_inputs.py (0, +-1, INT64_MIN/MAX, 2^32 +- ..,
// negatives) as base and exponent, small exponents 0..63 (b & 63: products
// that overflow 32 and 64 bits), the shift amounts (negative exponents:
// 1 for base 1, 0 otherwise, -1 included) and u64.
// RUN: rm -rf %t && mkdir -p %t/in %t/got %t/want
// RUN: %python_numpy %S/Inputs/x64_inputs.py %t/in
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --input=@%t/in/a.npy --input=@%t/in/b.npy --input=@%t/in/s.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/in/a.npy --input=@%t/in/b.npy --input=@%t/in/s.npy --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got %t/want 5 | FileCheck %s
// CHECK-COUNT-5: exact
// RUN: tpuc compile %s --target=tpu-v6e -o %t/v6e.tpx
// Main's binary has no word form for it:
// RUN: tpuc compile %s --emit=fused -o - | FileCheck %s --check-prefix=IR --implicit-check-not=hlo.power

// IR-COUNT-5: hlo.while

func.func @main(%a: tensor<16x16xi64>, %b: tensor<16x16xi64>,
                %s: tensor<16x16xi64>)
    -> (tensor<16x16xi64>, tensor<16x16xi64>, tensor<16x16xi64>,
        tensor<16x16xui64>, tensor<16x16xui64>) {
  %c63 = hlo.constant dense<63> : tensor<16x16xi64>
  %e = hlo.and %b, %c63 : tensor<16x16xi64>
  %small = hlo.power %a, %e : tensor<16x16xi64>
  %full = hlo.power %a, %b : tensor<16x16xi64>
  %shifts = hlo.power %a, %s : tensor<16x16xi64>
  %ua = hlo.convert %a : (tensor<16x16xi64>) -> tensor<16x16xui64>
  %ub = hlo.convert %b : (tensor<16x16xi64>) -> tensor<16x16xui64>
  %ue = hlo.convert %e : (tensor<16x16xi64>) -> tensor<16x16xui64>
  %usmall = hlo.power %ua, %ue : tensor<16x16xui64>
  %ufull = hlo.power %ua, %ub : tensor<16x16xui64>
  return %small, %full, %shifts, %usmall, %ufull
      : tensor<16x16xi64>, tensor<16x16xi64>, tensor<16x16xi64>,
        tensor<16x16xui64>, tensor<16x16xui64>
}
