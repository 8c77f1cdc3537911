// XLA's f32 dot precisions on the bf16 MXU (f32[40,300] x f32[300,200],
// uniform [-1,1) inputs from Inputs/dot_precision.py): DEFAULT rounds each
// operand to bf16 (one pass); HIGH splits each into hi + lo bf16 pieces and
// adds hi*hi + hi*lo + lo*hi (bf16x3); HIGHEST splits into three pieces
// and adds the six products whose pieces' ranks sum below 3 (bf16x6). The
// op asks for HIGHEST in its precision_config; --dot-precision overrides.
// Errors against x @ w in float64, in f32 ulps of the largest output
// (measured, default host kernels / --kernels=portable):
//   interpreter (an f32 dot, f32 sums)  7.3 ulps
//   HIGHEST                             2.9 / 3.3 ulps  (tolerance 8)
//   HIGH                                44 ulps, rel 3.3e-6 (tolerance 200)
//   DEFAULT                             23,740 ulps, rel 1.8e-3
// RUN: rm -rf %t && mkdir -p %t/in
// RUN: %python_numpy %S/Inputs/dot_precision.py inputs %t/in 40 300 200
// RUN: tpuc interpret %s --input=@%t/in/x.npy --input=@%t/in/w.npy --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dot_precision.py check %t/in %t/want/result0.npy 16 | FileCheck %s
//
// The op's own precision_config (HIGHEST), and the flag saying the same.
// RUN: tpuc compile %s -o %t/op.tpx
// RUN: tpuc-run %t/op.tpx --input=@%t/in/x.npy --input=@%t/in/w.npy --output-dir=%t/op
// RUN: %python_numpy %S/Inputs/dot_precision.py check %t/in %t/op/result0.npy 8 | FileCheck %s
// RUN: tpuc compile %s --dot-precision=highest -o %t/highest.tpx
// RUN: tpuc-run %t/highest.tpx --input=@%t/in/x.npy --input=@%t/in/w.npy --output-dir=%t/highest
// RUN: %python_numpy %S/Inputs/dot_precision.py check %t/in %t/highest/result0.npy 8 | FileCheck %s
// HIGH: within 200 ulps but not 8 (so the flag overrides the op).
// RUN: tpuc compile %s --dot-precision=high -o %t/high.tpx
// RUN: tpuc-run %t/high.tpx --input=@%t/in/x.npy --input=@%t/in/w.npy --output-dir=%t/high
// RUN: %python_numpy %S/Inputs/dot_precision.py check %t/in %t/high/result0.npy 200 | FileCheck %s
// RUN: not %python_numpy %S/Inputs/dot_precision.py check %t/in %t/high/result0.npy 8 | FileCheck %s --check-prefix=BIG
// DEFAULT: within 2^-7 of the interpreter's largest output, not 1e-4.
// RUN: tpuc compile %s --dot-precision=default -o %t/default.tpx
// RUN: tpuc-run %t/default.tpx --input=@%t/in/x.npy --input=@%t/in/w.npy --output-dir=%t/default
// RUN: %python_numpy %S/Inputs/compare.py %t/default %t/want 1 0.0078125 | FileCheck %s --check-prefix=CMP
// RUN: not %python_numpy %S/Inputs/compare.py %t/default %t/want 1 1e-4 | FileCheck %s --check-prefix=CMPBIG
// CHECK: ok: max_abs=
// BIG: TOO BIG: max_abs=
// CMP: result0: ok shape=[40, 200]
// CMPBIG: result0: MISMATCH shape=[40, 200]
//
// A bad value is an error, from the driver and from the pass option.
// RUN: not tpuc compile %s --dot-precision=fast -o %t/bad.tpx 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: tpuc: for the --dot-precision option: Cannot find option named 'fast'!
// RUN: not test -e %t/bad.tpx
// RUN: not tpuc-opt %s --tpuc-convert-hlo-to-tpu=dot-precision=bf16x3 2>&1 | FileCheck %s --check-prefix=BADPASS
// BADPASS: for the --dot-precision option: Cannot find option named 'bf16x3'!

func.func @main(%x: tensor<40x300xf32>, %w: tensor<300x200xf32>) -> tensor<40x200xf32> {
  %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      {precision_config = [#hlo<precision HIGHEST>, #hlo<precision HIGHEST>]}
      : (tensor<40x300xf32>, tensor<300x200xf32>) -> tensor<40x200xf32>
  return %d : tensor<40x200xf32>
}
