// The rounding, remainder, is-finite, reduce-precision and TOTALORDER
// lowerings on bf16 (computed in f32 registers, rounded to bf16 by the
// store as the interpreter rounds every bf16 result), bf16[20,300]
// (ragged), bit for bit against the interpreter. x = (iota - 150) / 4 has
// the ties; s = x / (x * 0) the infinities and the NaN.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/b.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/b.tpu.mlir -o %t/b.tpx
// RUN: tpuc-run %t/b.tpx --random-inputs=6 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=6 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 8 | FileCheck %s
// CHECK-COUNT-8: ok
// CHECK-NOT: MISMATCH

func.func @bf16(%a: tensor<20x300xbf16>, %b: tensor<20x300xbf16>)
    -> (tensor<20x300xbf16>, tensor<20x300xbf16>, tensor<20x300xbf16>,
        tensor<20x300xbf16>, tensor<20x300xbf16>, tensor<20x300xi32>,
        tensor<20x300xbf16>, tensor<20x300xi32>) {
  %c150 = hlo.constant dense<150.0> : tensor<20x300xbf16>
  %quarter = hlo.constant dense<0.25> : tensor<20x300xbf16>
  %zero = hlo.constant dense<0.0> : tensor<20x300xbf16>
  %ten = hlo.constant dense<10.0> : tensor<20x300xbf16>
  %iota = hlo.iota dim = 1 : tensor<20x300xbf16>
  %d = hlo.subtract %iota, %c150 : tensor<20x300xbf16>
  %x = hlo.multiply %d, %quarter : tensor<20x300xbf16>
  %x0 = hlo.multiply %x, %zero : tensor<20x300xbf16>
  %s = hlo.divide %x, %x0 : tensor<20x300xbf16>
  %r0 = hlo.floor %x : tensor<20x300xbf16>
  %r1 = hlo.ceil %x : tensor<20x300xbf16>
  %r2 = hlo.round_nearest_afz %x : tensor<20x300xbf16>
  %a10 = hlo.multiply %a, %ten : tensor<20x300xbf16>
  %r3 = hlo.remainder %a10, %b : tensor<20x300xbf16>
  %r4 = hlo.remainder %a10, %x : tensor<20x300xbf16>
  %fin = hlo.is_finite %s : (tensor<20x300xbf16>) -> tensor<20x300xi1>
  %r5 = hlo.convert %fin : (tensor<20x300xi1>) -> tensor<20x300xi32>
  %r6 = hlo.reduce_precision %a10, exponent_bits = 4, mantissa_bits = 3 : tensor<20x300xbf16>
  %lt = hlo.compare LT, %s, %x, TOTALORDER : (tensor<20x300xbf16>, tensor<20x300xbf16>) -> tensor<20x300xi1>
  %r7 = hlo.convert %lt : (tensor<20x300xi1>) -> tensor<20x300xi32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7
      : tensor<20x300xbf16>, tensor<20x300xbf16>, tensor<20x300xbf16>,
        tensor<20x300xbf16>, tensor<20x300xbf16>, tensor<20x300xi32>,
        tensor<20x300xbf16>, tensor<20x300xi32>
}
