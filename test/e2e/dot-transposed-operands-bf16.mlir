// The transposed-operand forms of dot-transposed-operands.mlir with bf16
// operands (f32 results): VLD widens bf16 into 32-bit lanes, so the kernel
// transposes bf16 blocks with VTRANSPOSE as it does f32 ones
// (docs/codegen.md, "Transposed operands"). Each dot read transposed must
// be bit-identical to its pair written with an explicit transpose (the
// old path: a transpose kernel through HBM), on tpu-v3 and tpu-v6e.
// Against the interpreter: the bf16 products are exact and accumulate in
// f32, so the results agree to f32 rounding over K <= 384 terms (2^-16 of
// the largest output).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc-opt %s --tpuc-decompose-dots --tpuc-convert-hlo-to-tpu -o %t/v3.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/v3.tpu.mlir -o %t/v3.tpx
// RUN: tpuc-run %t/v3.tpx --random-inputs=11 --output-dir=%t/v3
// RUN: tpuc interpret %s --random-inputs=11 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/v3 %t/want 16 0.0000153 | FileCheck %s
// RUN: cmp %t/v3/result0.npy %t/v3/result1.npy
// RUN: cmp %t/v3/result2.npy %t/v3/result3.npy
// RUN: cmp %t/v3/result4.npy %t/v3/result5.npy
// RUN: cmp %t/v3/result6.npy %t/v3/result7.npy
// RUN: cmp %t/v3/result8.npy %t/v3/result9.npy
// RUN: cmp %t/v3/result10.npy %t/v3/result11.npy
// RUN: cmp %t/v3/result12.npy %t/v3/result13.npy
// RUN: cmp %t/v3/result14.npy %t/v3/result15.npy
// RUN: tpuc-opt %s --tpuc-set-target=target=tpu-v6e --tpuc-decompose-dots --tpuc-convert-hlo-to-tpu -o %t/v6e.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/v6e.tpu.mlir -o %t/v6e.tpx
// RUN: tpuc-run %t/v6e.tpx --random-inputs=11 --output-dir=%t/v6e
// RUN: %python_numpy %S/Inputs/compare.py %t/v6e %t/want 16 0.0000153 | FileCheck %s
// RUN: cmp %t/v6e/result0.npy %t/v6e/result1.npy
// RUN: cmp %t/v6e/result2.npy %t/v6e/result3.npy
// RUN: cmp %t/v6e/result4.npy %t/v6e/result5.npy
// RUN: cmp %t/v6e/result6.npy %t/v6e/result7.npy
// RUN: cmp %t/v6e/result8.npy %t/v6e/result9.npy
// RUN: cmp %t/v6e/result10.npy %t/v6e/result11.npy
// RUN: cmp %t/v6e/result12.npy %t/v6e/result13.npy
// RUN: cmp %t/v6e/result14.npy %t/v6e/result15.npy
// CHECK: result0: ok shape=[300, 128]
// CHECK: result1: ok shape=[300, 128]
// CHECK: result2: ok shape=[20, 256]
// CHECK: result3: ok shape=[20, 256]
// CHECK: result4: ok shape=[3, 20, 384]
// CHECK: result5: ok shape=[3, 20, 384]
// CHECK: result6: ok shape=[20, 256]
// CHECK: result7: ok shape=[20, 256]
// CHECK: result8: ok shape=[300, 128]
// CHECK: result9: ok shape=[300, 128]
// CHECK: result10: ok shape=[256, 10]
// CHECK: result11: ok shape=[256, 10]
// CHECK: result12: ok shape=[3, 128, 300]
// CHECK: result13: ok shape=[3, 128, 300]
// CHECK: result14: ok shape=[128, 256]
// CHECK: result15: ok shape=[128, 256]

func.func @main(%a: tensor<300x129xbf16>, %w: tensor<128x129xbf16>,
                %dy: tensor<20x10xbf16>, %w2: tensor<256x10xbf16>,
                %x: tensor<3x20x129xbf16>, %y: tensor<3x384x129xbf16>,
                %xt: tensor<129x20xbf16>, %w3: tensor<256x129xbf16>,
                %x4: tensor<256x256xbf16>, %dy4: tensor<256x10xbf16>,
                %h: tensor<3x128x128xbf16>, %g: tensor<3x128x300xbf16>,
                %x6: tensor<384x128xbf16>, %w6: tensor<256x384xbf16>)
    -> (tensor<300x128xf32>, tensor<300x128xf32>,
        tensor<20x256xf32>, tensor<20x256xf32>,
        tensor<3x20x384xf32>, tensor<3x20x384xf32>,
        tensor<20x256xf32>, tensor<20x256xf32>,
        tensor<300x128xf32>, tensor<300x128xf32>,
        tensor<256x10xf32>, tensor<256x10xf32>,
        tensor<3x128x300xf32>, tensor<3x128x300xf32>,
        tensor<128x256xf32>, tensor<128x256xf32>) {
  %r0 = hlo.dot_general %a, %w, dims = <lhs_contracting = [1], rhs_contracting = [1]>
      : (tensor<300x129xbf16>, tensor<128x129xbf16>) -> tensor<300x128xf32>
  %wt = hlo.transpose %w, dims = [1, 0] : (tensor<128x129xbf16>) -> tensor<129x128xbf16>
  %r1 = hlo.dot_general %a, %wt, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<300x129xbf16>, tensor<129x128xbf16>) -> tensor<300x128xf32>
  %r2 = hlo.dot_general %dy, %w2, dims = <lhs_contracting = [1], rhs_contracting = [1]>
      : (tensor<20x10xbf16>, tensor<256x10xbf16>) -> tensor<20x256xf32>
  %w2t = hlo.transpose %w2, dims = [1, 0] : (tensor<256x10xbf16>) -> tensor<10x256xbf16>
  %r3 = hlo.dot_general %dy, %w2t, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<20x10xbf16>, tensor<10x256xbf16>) -> tensor<20x256xf32>
  %r4 = hlo.dot_general %x, %y, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [2]>
      : (tensor<3x20x129xbf16>, tensor<3x384x129xbf16>) -> tensor<3x20x384xf32>
  %yt = hlo.transpose %y, dims = [0, 2, 1] : (tensor<3x384x129xbf16>) -> tensor<3x129x384xbf16>
  %r5 = hlo.dot_general %x, %yt, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
      : (tensor<3x20x129xbf16>, tensor<3x129x384xbf16>) -> tensor<3x20x384xf32>
  %r6 = hlo.dot_general %xt, %w3, dims = <lhs_contracting = [0], rhs_contracting = [1]>
      : (tensor<129x20xbf16>, tensor<256x129xbf16>) -> tensor<20x256xf32>
  %w3t = hlo.transpose %w3, dims = [1, 0] : (tensor<256x129xbf16>) -> tensor<129x256xbf16>
  %r7 = hlo.dot_general %xt, %w3t, dims = <lhs_contracting = [0], rhs_contracting = [0]>
      : (tensor<129x20xbf16>, tensor<129x256xbf16>) -> tensor<20x256xf32>
  %r8 = hlo.dot_general %a, %w, dims = <lhs_contracting = [1], rhs_contracting = [1]>
      {precision_config = [#hlo<precision HIGHEST>, #hlo<precision HIGHEST>]}
      : (tensor<300x129xbf16>, tensor<128x129xbf16>) -> tensor<300x128xf32>
  %r9 = hlo.dot_general %a, %wt, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      {precision_config = [#hlo<precision HIGHEST>, #hlo<precision HIGHEST>]}
      : (tensor<300x129xbf16>, tensor<129x128xbf16>) -> tensor<300x128xf32>
  %r10 = hlo.dot_general %x4, %dy4, dims = <lhs_contracting = [0], rhs_contracting = [0]>
      : (tensor<256x256xbf16>, tensor<256x10xbf16>) -> tensor<256x10xf32>
  %x4t = hlo.transpose %x4, dims = [1, 0] : (tensor<256x256xbf16>) -> tensor<256x256xbf16>
  %r11 = hlo.dot_general %x4t, %dy4, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<256x256xbf16>, tensor<256x10xbf16>) -> tensor<256x10xf32>
  %r12 = hlo.dot_general %h, %g, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [1], rhs_contracting = [1]>
      : (tensor<3x128x128xbf16>, tensor<3x128x300xbf16>) -> tensor<3x128x300xf32>
  %ht = hlo.transpose %h, dims = [0, 2, 1] : (tensor<3x128x128xbf16>) -> tensor<3x128x128xbf16>
  %r13 = hlo.dot_general %ht, %g, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
      : (tensor<3x128x128xbf16>, tensor<3x128x300xbf16>) -> tensor<3x128x300xf32>
  %r14 = hlo.dot_general %x6, %w6, dims = <lhs_contracting = [0], rhs_contracting = [1]>
      : (tensor<384x128xbf16>, tensor<256x384xbf16>) -> tensor<128x256xf32>
  %x6t = hlo.transpose %x6, dims = [1, 0] : (tensor<384x128xbf16>) -> tensor<128x384xbf16>
  %w6t = hlo.transpose %w6, dims = [1, 0] : (tensor<256x384xbf16>) -> tensor<384x256xbf16>
  %r15 = hlo.dot_general %x6t, %w6t, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<128x384xbf16>, tensor<384x256xbf16>) -> tensor<128x256xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12,
         %r13, %r14, %r15
      : tensor<300x128xf32>, tensor<300x128xf32>,
        tensor<20x256xf32>, tensor<20x256xf32>,
        tensor<3x20x384xf32>, tensor<3x20x384xf32>,
        tensor<20x256xf32>, tensor<20x256xf32>,
        tensor<300x128xf32>, tensor<300x128xf32>,
        tensor<256x10xf32>, tensor<256x10xf32>,
        tensor<3x128x300xf32>, tensor<3x128x300xf32>,
        tensor<128x256xf32>, tensor<128x256xf32>
}
