// The code generator's own convert to f16 (f16 arrays are f32 words
// holding f16 values), without tpuc-expand-narrow-floats: the f32 -> f16 rounding on
// registers (Lowering::roundToF16: vreduce_precision from 2^-14 up, the
// subnormals below) and s32 -> f16 through f32, bit for bit against the
// interpreter on the boundary values of Inputs/f16_inputs.py (65520 -> inf,
// 2^-25 -> 0, subnormal ties to even, f32 subnormals, NaN, -0, ...). Other
// f16 arithmetic is tpuc-expand-narrow-floats's: the lowering alone rejects it
// (CodegenTest.UnsupportedOpIsOneErrorNamingIt).
// RUN: rm -rf %t && mkdir -p %t/in %t/got %t/want
// RUN: %python_numpy %S/Inputs/f16_inputs.py %t/in
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/c.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/c.tpu.mlir -o %t/c.tpx
// RUN: tpuc-run %t/c.tpx --input=@%t/in/f.npy --output-dir=%t/got --result-names=index
// RUN: tpuc interpret %s --input=@%t/in/f.npy --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got %t/want 3 | FileCheck %s
// CHECK-COUNT-3: exact
// RUN: %python_numpy -c "import numpy as n; print(' '.join('%%04x' %% x for x in n.load('%t/got/result0.npy').view(n.uint16).ravel()[:18]))" | FileCheck %s --check-prefix=ROUND
// ROUND: 7bff 7bff 7c00 fc00 0001 0000 0001 0002 0002 8002 3c00 3c02 0400 7e00 8000 0000 8000 7c00

func.func @main(%f: tensor<16x16xf32>)
    -> (tensor<16x16xf16>, tensor<16x16xf32>, tensor<16x16xf16>) {
  %h = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xf16>
  %w = hlo.convert %h : (tensor<16x16xf16>) -> tensor<16x16xf32>
  %i = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xi32>
  %j = hlo.convert %i : (tensor<16x16xi32>) -> tensor<16x16xf16>
  return %h, %w, %j : tensor<16x16xf16>, tensor<16x16xf32>, tensor<16x16xf16>
}
