// f32 convolution precision on the bf16 MXU (tpuc-split-convolution-precision):
// --dot-precision=default is one bf16 pass, high bf16x3, highest bf16x6,
// and an op's own precision_config HIGHEST does what the flag does.
// Measured against the interpreter's f32 convolution (max error relative
// to the largest output): DEFAULT 2.1e-3 (bf16 operand rounding, 2^-9 per
// operand), HIGH 4.6e-6, HIGHEST 3.5e-7 (the interpreter's own f32
// rounding). Tolerances: 1e-2, 2e-5, 2e-6 - each fails for the level
// below it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: tpuc compile %s --dot-precision=default -o %t/default.tpx
// RUN: tpuc-run %t/default.tpx --random-inputs=5 --output-dir=%t/default
// RUN: %python_numpy %S/Inputs/compare.py %t/default %t/want 1 1e-2 | FileCheck %s
// RUN: not %python_numpy %S/Inputs/compare.py %t/default %t/want 1 2e-5
// RUN: tpuc compile %s --dot-precision=high -o %t/high.tpx
// RUN: tpuc-run %t/high.tpx --random-inputs=5 --output-dir=%t/high
// RUN: %python_numpy %S/Inputs/compare.py %t/high %t/want 1 2e-5 | FileCheck %s
// RUN: not %python_numpy %S/Inputs/compare.py %t/high %t/want 1 2e-6
// RUN: tpuc compile %s --dot-precision=highest -o %t/highest.tpx
// RUN: tpuc-run %t/highest.tpx --random-inputs=5 --output-dir=%t/highest
// RUN: %python_numpy %S/Inputs/compare.py %t/highest %t/want 1 2e-6 | FileCheck %s
// The op's own precision_config, no flag:
// RUN: sed -e 's/{padding = array<i64: 1, 1, 1, 1>}/{padding = array<i64: 1, 1, 1, 1>, precision_config = [#hlo<precision HIGHEST>, #hlo<precision HIGHEST>]}/' %s > %t/op-highest.mlir
// RUN: tpuc compile %t/op-highest.mlir -o %t/op.tpx
// RUN: tpuc-run %t/op.tpx --random-inputs=5 --output-dir=%t/op
// RUN: %python_numpy %S/Inputs/compare.py %t/op %t/want 1 2e-6 | FileCheck %s
// The rewrite: six DEFAULT convolutions of bf16-exact parts.
// RUN: tpuc-opt %s --tpuc-split-convolution-precision=dot-precision=highest | FileCheck %s --check-prefix=IR
// CHECK: result0: ok shape=[2, 9, 7, 20]
// IR-COUNT-6: hlo.convolution
// IR-NOT: hlo.convolution
// IR-NOT: precision_config

func.func @conv(%x: tensor<2x9x7x13xf32>, %w: tensor<3x3x13x20xf32>) -> tensor<2x9x7x20xf32> {
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<2x9x7x13xf32>, tensor<3x3x13x20xf32>) -> tensor<2x9x7x20xf32>
  return %0 : tensor<2x9x7x20xf32>
}
