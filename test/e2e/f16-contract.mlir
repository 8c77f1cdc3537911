// dot, convolution and reduce on f16, as XLA TPU computes them: in f32
// (f32 accumulation) with the result rounded to f16 (tpuc-expand-narrow-floats), on
// tpu-v3 and tpu-v6e, against the interpreter. Not bit for bit: the
// interpreter's dot and convolution accumulate in f32 too but in another
// order, and its reduce rounds the running sum to f16 after every add (f16
// accumulation), where the device rounds once at the end. Errors relative
// to each output's largest magnitude (compare.py), measured on both
// targets: dot 1.3e-5 (one f16 ulp at one element), convolution 0, reduce
// 3.6e-3 (the interpreter's f16 accumulation over 256 elements).
// RUN: rm -rf %t && mkdir -p %t/got %t/got6 %t/want
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc compile %s --target=tpu-v6e -o %t/t6.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=7 --output-dir=%t/got --result-names=index
// RUN: tpuc-run %t/t6.tpx --random-inputs=7 --output-dir=%t/got6 --result-names=index
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 2 1e-4 0.9999999 | FileCheck %s
// RUN: %python_numpy %S/Inputs/compare.py %t/got6 %t/want 2 1e-4 0.9999999 | FileCheck %s
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 3 1e-2 0.99999 | FileCheck %s --check-prefixes=CHECK,REDUCE
// RUN: %python_numpy %S/Inputs/compare.py %t/got6 %t/want 3 1e-2 0.99999 | FileCheck %s --check-prefixes=CHECK,REDUCE
// CHECK: result0: ok
// CHECK: result1: ok
// REDUCE: result2: ok
// The results are f16 on the host.
// RUN: %python_numpy -c "import numpy as n; print([str(n.load('%t/got/result%%d.npy' %% i).dtype) for i in range(3)])" | FileCheck %s --check-prefix=TYPES
// TYPES: ['float16', 'float16', 'float16']

func.func @main(%x32: tensor<16x256xf32>, %w32: tensor<256x128xf32>,
                %i32: tensor<2x9x7x3xf32>, %k32: tensor<3x3x3x10xf32>)
    -> (tensor<16x128xf16>, tensor<2x9x7x10xf16>, tensor<16xf16>) {
  %x = hlo.convert %x32 : (tensor<16x256xf32>) -> tensor<16x256xf16>
  %w = hlo.convert %w32 : (tensor<256x128xf32>) -> tensor<256x128xf16>
  %i = hlo.convert %i32 : (tensor<2x9x7x3xf32>) -> tensor<2x9x7x3xf16>
  %k = hlo.convert %k32 : (tensor<3x3x3x10xf32>) -> tensor<3x3x3x10xf16>
  %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      {precision_config = [#hlo<precision HIGHEST>, #hlo<precision HIGHEST>]}
      : (tensor<16x256xf16>, tensor<256x128xf16>) -> tensor<16x128xf16>
  %c = hlo.convolution %i, %k, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>,
       precision_config = [#hlo<precision HIGHEST>, #hlo<precision HIGHEST>]}
       : (tensor<2x9x7x3xf16>, tensor<3x3x3x10xf16>) -> tensor<2x9x7x10xf16>
  %z = hlo.constant dense<0.0> : tensor<f16>
  %r = hlo.reduce(%x) init(%z) dims = [1] : (tensor<16x256xf16>, tensor<f16>) -> tensor<16xf16> {
  ^bb0(%p: tensor<f16>, %q: tensor<f16>):
    %s = hlo.add %p, %q : tensor<f16>
    hlo.return %s : tensor<f16>
  }
  return %d, %c, %r : tensor<16x128xf16>, tensor<2x9x7x10xf16>, tensor<16xf16>
}
