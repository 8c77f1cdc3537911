// The f8 types compiled through tpuc-expand-narrow-floats (computed in f32,
// rounded to the type after each op) against the interpreter (APFloat),
// bit for bit, on tpu-v3 and tpu-v6e. Results 0-13: f32 -> each f8 type
// -> f32 on the edge values of Inputs/f8_inputs.py (ties, subnormals, the
// types' maxima, overflow to NaN or inf, NaN, -0) and 240 values over every
// binade; 14-21: f8e4m3fn arithmetic on every pair of 16 values (+-0,
// subnormals, +-448, NaN, ...) given as f8 entry parameters ('|V1' .npy);
// 22: f8e5m2 from f8e4m3fn, a chain in f8e5m2; 23: an f8e4m3fnuz constant
// times a; 24: a max-reduce of the f8e4m3fn products.
// RUN: rm -rf %t && mkdir -p %t/in %t/got %t/got6 %t/want
// RUN: %python_numpy %S/Inputs/f8_inputs.py %t/in
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc compile %s --target=tpu-v6e -o %t/t6.tpx
// RUN: tpuc-run %t/t.tpx --input=@%t/in/f.npy --input=@%t/in/a.npy --input=@%t/in/b.npy --output-dir=%t/got --result-names=index
// RUN: tpuc-run %t/t6.tpx --input=@%t/in/f.npy --input=@%t/in/a.npy --input=@%t/in/b.npy --output-dir=%t/got6 --result-names=index
// RUN: tpuc interpret %s --input=@%t/in/f.npy --input=@%t/in/a.npy --input=@%t/in/b.npy --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got %t/want 25 | FileCheck %s
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got6 %t/want 25 | FileCheck %s
// CHECK-COUNT-25: exact
//
// The conversions of the edge values (0, -0, 1, 1 + 1/16, 1 + 3/16, 2^-9,
// 2^-10, 1.5 x 2^-10, 448, 464, 465, -1e6, inf, -inf, NaN, 2^-6), bits
// derived from the format definitions (not from either implementation):
// f8e4m3fn (E4M3, bias 7, no inf, NaN S.1111.111): 1 + 1/16 ties to 1,
// 1 + 3/16 to 1.25; 2^-10 ties to 0; 464 ties to 448; 465 rounds to 480 >
// 448: NaN; -1e6 and -inf: -NaN.
// RUN: %python_numpy -c "import numpy as n; print(' '.join('%%02x' %% x for x in n.load('%t/got/result0.npy').view(n.uint8).ravel()[:16]))" | FileCheck %s --check-prefix=E4M3FN
// E4M3FN: 00 80 38 38 3a 01 00 01 7e 7e 7f ff 7f ff 7f 08
// f8e5m2 (E5M2, bias 15, IEEE): 2^-9, 2^-10 normal; 464 and 465 round to
// 448 (spacing 64); -1e6 overflows to -inf; NaN quiet 0x7e.
// RUN: %python_numpy -c "import numpy as n; print(' '.join('%%02x' %% x for x in n.load('%t/got/result2.npy').view(n.uint8).ravel()[:16]))" | FileCheck %s --check-prefix=E5M2
// E5M2: 00 80 3c 3c 3d 18 14 16 5f 5f 5f fc 7c fc 7e 24
// f8e4m3fnuz (bias 8, max 240, NaN 0x80, no -0): -0 is +0; 448 and beyond
// overflow to NaN; 2^-9, 2^-10 are subnormals (2^-10 the smallest).
// RUN: %python_numpy -c "import numpy as n; print(' '.join('%%02x' %% x for x in n.load('%t/got/result6.npy').view(n.uint8).ravel()[:16]))" | FileCheck %s --check-prefix=E4M3FNUZ
// E4M3FNUZ: 00 00 40 40 42 02 01 02 80 80 80 80 80 80 80 10
// The f8 results are 1-byte voids on the host, f32 words on the device.
// RUN: %python_numpy -c "import numpy as n; print(str(n.load('%t/got/result0.npy').dtype))" | FileCheck %s --check-prefix=TYPES
// TYPES: |V1
// RUN: tpuc translate --executable-to-text %t/t.tpx -o - | FileCheck %s --check-prefix=EXE
// EXE: parameter 1 "{{.*}}" F32[16,16]{{.*}} host F8E4M3FN
// EXE: result 0 "{{.*}}" F32[16,16]{{.*}} host F8E4M3FN

func.func @main(%f: tensor<16x16xf32>, %a: tensor<16x16xf8E4M3FN>,
                %b: tensor<16x16xf8E4M3FN>)
    -> (tensor<16x16xf8E4M3FN>, tensor<16x16xf32>,
        tensor<16x16xf8E5M2>, tensor<16x16xf32>,
        tensor<16x16xf8E4M3>, tensor<16x16xf32>,
        tensor<16x16xf8E4M3FNUZ>, tensor<16x16xf32>,
        tensor<16x16xf8E5M2FNUZ>, tensor<16x16xf32>,
        tensor<16x16xf8E4M3B11FNUZ>, tensor<16x16xf32>,
        tensor<16x16xf8E3M4>, tensor<16x16xf32>,
        tensor<16x16xf8E4M3FN>, tensor<16x16xf8E4M3FN>,
        tensor<16x16xf8E4M3FN>, tensor<16x16xf8E4M3FN>,
        tensor<16x16xf8E4M3FN>, tensor<16x16xf8E4M3FN>,
        tensor<16x16xf8E4M3FN>, tensor<16x16xf32>,
        tensor<16x16xf8E5M2>, tensor<16x16xf8E4M3FNUZ>,
        tensor<16xf8E4M3FN>) {
  %c0 = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xf8E4M3FN>
  %w0 = hlo.convert %c0 : (tensor<16x16xf8E4M3FN>) -> tensor<16x16xf32>
  %c1 = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xf8E5M2>
  %w1 = hlo.convert %c1 : (tensor<16x16xf8E5M2>) -> tensor<16x16xf32>
  %c2 = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xf8E4M3>
  %w2 = hlo.convert %c2 : (tensor<16x16xf8E4M3>) -> tensor<16x16xf32>
  %c3 = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xf8E4M3FNUZ>
  %w3 = hlo.convert %c3 : (tensor<16x16xf8E4M3FNUZ>) -> tensor<16x16xf32>
  %c4 = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xf8E5M2FNUZ>
  %w4 = hlo.convert %c4 : (tensor<16x16xf8E5M2FNUZ>) -> tensor<16x16xf32>
  %c5 = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xf8E4M3B11FNUZ>
  %w5 = hlo.convert %c5 : (tensor<16x16xf8E4M3B11FNUZ>) -> tensor<16x16xf32>
  %c6 = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xf8E3M4>
  %w6 = hlo.convert %c6 : (tensor<16x16xf8E3M4>) -> tensor<16x16xf32>
  %add = hlo.add %a, %b : tensor<16x16xf8E4M3FN>
  %sub = hlo.subtract %a, %b : tensor<16x16xf8E4M3FN>
  %mul = hlo.multiply %a, %b : tensor<16x16xf8E4M3FN>
  %div = hlo.divide %a, %b : tensor<16x16xf8E4M3FN>
  %max = hlo.maximum %a, %b : tensor<16x16xf8E4M3FN>
  %sq = hlo.sqrt %a : tensor<16x16xf8E4M3FN>
  // A chain: rounded after each op, (a + b) * a.
  %chain = hlo.multiply %add, %a : tensor<16x16xf8E4M3FN>
  %af = hlo.convert %a : (tensor<16x16xf8E4M3FN>) -> tensor<16x16xf32>
  %e = hlo.convert %a : (tensor<16x16xf8E4M3FN>) -> tensor<16x16xf8E5M2>
  %e2 = hlo.add %e, %e : tensor<16x16xf8E5M2>
  %e3 = hlo.multiply %e2, %e : tensor<16x16xf8E5M2>
  %k = hlo.constant dense<0.3> : tensor<16x16xf8E4M3FNUZ>
  %au = hlo.convert %a : (tensor<16x16xf8E4M3FN>) -> tensor<16x16xf8E4M3FNUZ>
  %ku = hlo.multiply %au, %k : tensor<16x16xf8E4M3FNUZ>
  %z = hlo.constant dense<-448.0> : tensor<f8E4M3FN>
  %sum = hlo.reduce(%mul) init(%z) dims = [0] : (tensor<16x16xf8E4M3FN>, tensor<f8E4M3FN>) -> tensor<16xf8E4M3FN> {
  ^bb0(%p: tensor<f8E4M3FN>, %q: tensor<f8E4M3FN>):
    %s = hlo.maximum %p, %q : tensor<f8E4M3FN>
    hlo.return %s : tensor<f8E4M3FN>
  }
  return %c0, %w0, %c1, %w1, %c2, %w2, %c3, %w3, %c4, %w4, %c5, %w5, %c6, %w6,
         %add, %sub, %mul, %div, %max, %sq, %chain, %af, %e3, %ku, %sum
      : tensor<16x16xf8E4M3FN>, tensor<16x16xf32>,
        tensor<16x16xf8E5M2>, tensor<16x16xf32>,
        tensor<16x16xf8E4M3>, tensor<16x16xf32>,
        tensor<16x16xf8E4M3FNUZ>, tensor<16x16xf32>,
        tensor<16x16xf8E5M2FNUZ>, tensor<16x16xf32>,
        tensor<16x16xf8E4M3B11FNUZ>, tensor<16x16xf32>,
        tensor<16x16xf8E3M4>, tensor<16x16xf32>,
        tensor<16x16xf8E4M3FN>, tensor<16x16xf8E4M3FN>,
        tensor<16x16xf8E4M3FN>, tensor<16x16xf8E4M3FN>,
        tensor<16x16xf8E4M3FN>, tensor<16x16xf8E4M3FN>,
        tensor<16x16xf8E4M3FN>, tensor<16x16xf32>,
        tensor<16x16xf8E5M2>, tensor<16x16xf8E4M3FNUZ>,
        tensor<16xf8E4M3FN>
}
