// f16 compiled through tpuc-expand-narrow-floats (computed in f32, rounded to f16
// after each op) against the interpreter, bit for bit: the interpreter
// computes f16 in float and rounds every result to f16 too, and for add,
// subtract, multiply, divide and sqrt rounding first to f32 (24 bits) then
// to f16 (11 bits) is the same as rounding once (24 >= 2 * 11 + 2).
// Every pair of 16 values at the f16 limits (Inputs/f16_inputs.py: +-0,
// 65504, 2^-24, the largest subnormal, inf, NaN, ...) as f16 entry
// parameters (.npy <f2), and the rounding of f32 values at its boundaries
// (65520 -> inf, 2^-25 -> 0, subnormal ties to even, f32 subnormals, NaN,
// -0), converts from and to f32, bf16 and s32, on tpu-v3 and tpu-v6e, and
// under --precision=mixed_bfloat16.
// RUN: rm -rf %t && mkdir -p %t/in %t/got %t/got6 %t/gotm %t/want
// RUN: %python_numpy %S/Inputs/f16_inputs.py %t/in
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc compile %s --target=tpu-v6e -o %t/t6.tpx
// RUN: tpuc-run %t/t.tpx --input=@%t/in/a.npy --input=@%t/in/b.npy --input=@%t/in/f.npy --output-dir=%t/got --result-names=index
// RUN: tpuc-run %t/t6.tpx --input=@%t/in/a.npy --input=@%t/in/b.npy --input=@%t/in/f.npy --output-dir=%t/got6 --result-names=index
// RUN: tpuc interpret %s --input=@%t/in/a.npy --input=@%t/in/b.npy --input=@%t/in/f.npy --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got %t/want 22 | FileCheck %s
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got6 %t/want 22 | FileCheck %s
// CHECK-COUNT-22: exact
// mixed_bfloat16 rewrites f32 ops only: f16 values stay f16, the results
// are the same bits.
// RUN: tpuc compile %s --precision=mixed_bfloat16 -o %t/m.tpx
// RUN: tpuc-run %t/m.tpx --input=@%t/in/a.npy --input=@%t/in/b.npy --input=@%t/in/f.npy --output-dir=%t/gotm --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/gotm %t/want 22 | FileCheck %s
// The f16 results are f16 on the host (<f2), f32 words on the device (numpy
// has no bf16: it reads the bf16 result as 2-byte void).
// RUN: %python_numpy -c "import numpy as n; print([str(n.load('%t/got/result%%d.npy' %% i).dtype) for i in (0, 9, 10, 11, 12)])" | FileCheck %s --check-prefix=TYPES
// TYPES: ['float16', 'float16', 'float32', '|V2', 'int32']
// RUN: tpuc translate --executable-to-text %t/t.tpx -o - | FileCheck %s --check-prefix=EXE
// EXE: parameter 0 "{{.*}}" F32[16,16]{{.*}} host F16
// EXE: parameter 1 "{{.*}}" F32[16,16]{{.*}} host F16
// EXE: parameter 2 "{{.*}}" F32[16,16]{{.*}} buffer
// EXE: result 0 "{{.*}}" F32[16,16]{{.*}} host F16
// The rounding's boundary values, as f16 bits: 65504 stays, 65519.996
// rounds down, 65520 and -65520 overflow to +-inf, 2^-24 stays, 2^-25 is
// a tie (to 0), a hair above it rounds up, 3 and 5 x 2^-25 are ties (1.5
// and 2.5 x 2^-24, both to 2 x 2^-24), 1 + 2^-11 and 1 + 3 x 2^-11 are ties (to even),
// 2^-14 - 2^-26 rounds up to 2^-14, NaN, -0, f32 subnormals to +-0, inf.
// RUN: %python_numpy -c "import numpy as n; print(' '.join('%%04x' %% x for x in n.load('%t/got/result9.npy').view(n.uint16).ravel()[:18]))" | FileCheck %s --check-prefix=ROUND
// ROUND: 7bff 7bff 7c00 fc00 0001 0000 0001 0002 0002 8002 3c00 3c02 0400 7e00 8000 0000 8000 7c00

func.func @main(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>,
                %f: tensor<16x16xf32>)
    -> (tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf16>,
        tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf16>,
        tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xi1>,
        tensor<16x16xf16>, tensor<16x16xf32>, tensor<16x16xbf16>,
        tensor<16x16xi32>, tensor<16x16xf16>, tensor<16x16xf16>,
        tensor<16x16xf16>, tensor<2x4096xf16>, tensor<16x16xf16>,
        tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf16>,
        tensor<16x16xf16>) {
  %0 = hlo.add %a, %b : tensor<16x16xf16>
  %1 = hlo.subtract %a, %b : tensor<16x16xf16>
  %2 = hlo.multiply %a, %b : tensor<16x16xf16>
  %3 = hlo.divide %a, %b : tensor<16x16xf16>
  %4 = hlo.maximum %a, %b : tensor<16x16xf16>
  %5 = hlo.minimum %a, %b : tensor<16x16xf16>
  %n = hlo.negate %a : tensor<16x16xf16>
  %6 = hlo.abs %n : tensor<16x16xf16>
  %s = hlo.sqrt %b : tensor<16x16xf16>
  %lt = hlo.compare LT, %a, %b : (tensor<16x16xf16>, tensor<16x16xf16>) -> tensor<16x16xi1>
  %7 = hlo.select %lt, %a, %b : (tensor<16x16xi1>, tensor<16x16xf16>, tensor<16x16xf16>) -> tensor<16x16xf16>
  // The rounding itself, and back to f32.
  %9 = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xf16>
  %10 = hlo.convert %9 : (tensor<16x16xf16>) -> tensor<16x16xf32>
  %11 = hlo.convert %a : (tensor<16x16xf16>) -> tensor<16x16xbf16>
  %12 = hlo.convert %a : (tensor<16x16xf16>) -> tensor<16x16xi32>
  // s32 (saturated from f32) and bf16 to f16.
  %i = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xi32>
  %13 = hlo.convert %i : (tensor<16x16xi32>) -> tensor<16x16xf16>
  %h = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xbf16>
  %14 = hlo.convert %h : (tensor<16x16xbf16>) -> tensor<16x16xf16>
  // A constant, an iota past 2048 (odd values round to even), a chain.
  %c = hlo.constant dense<0.1> : tensor<16x16xf16>
  %15 = hlo.multiply %a, %c : tensor<16x16xf16>
  %16 = hlo.iota dim = 1 : tensor<2x4096xf16>
  %fl = hlo.floor %9 : tensor<16x16xf16>
  %17 = hlo.add %fl, %9 : tensor<16x16xf16>
  %x = hlo.multiply %9, %9 : tensor<16x16xf16>
  %y = hlo.divide %x, %a : tensor<16x16xf16>
  %18 = hlo.subtract %y, %b : tensor<16x16xf16>
  return %0, %1, %2, %3, %4, %5, %6, %s, %lt, %9, %10, %11, %12, %13, %14,
         %15, %16, %17, %18, %7, %n, %a
      : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf16>,
        tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf16>,
        tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xi1>,
        tensor<16x16xf16>, tensor<16x16xf32>, tensor<16x16xbf16>,
        tensor<16x16xi32>, tensor<16x16xf16>, tensor<16x16xf16>,
        tensor<16x16xf16>, tensor<2x4096xf16>, tensor<16x16xf16>,
        tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf16>,
        tensor<16x16xf16>
}
