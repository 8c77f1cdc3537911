// The MXU kernel reads an f32 rhs contracted on its minor dim ([N,K] or
// [B,N,K], the input gradient dy . W^T) and an f32 lhs contracted on its
// major dim ([K,M] or [B,K,M] with M % 128 == 0, the weight gradient
// x^T . dy) as they are stored and transposes their 128x128 blocks on the
// XLU (docs/codegen.md, "Transposed operands"). Each such
// dot is paired with the same dot written with an explicit transpose and a
// canonical rhs (the old path: a transpose kernel through HBM): the two
// results must be bit-identical (same bf16 pieces, same K accumulation
// order), on tpu-v3 (128x128 MXUs) and tpu-v6e (256x256, two 128-blocks per
// weight row block). The kernel takes whole 128x128 blocks of the stored
// operand (an rhs's N, an lhs's K and M multiples of 128); around them,
// ragged shapes: M = 300 / 20, K = 129 / 10, N = 10 / 300, K = 128 / 384
// (a ragged and an odd number of blocks on tpu-v6e), a batch of 3, an lhs
// with M = 20 (transposed in HBM), both operands transposed, and HIGHEST
// (bf16x6). Against the interpreter: f32 at DEFAULT precision, operands
// rounded to bf16 (2^-8 each), so over K <= 384 random [-1,1) terms the
// error stays below 2^-7 of the largest output (HIGHEST too, of course).
// The whole program compiled with mixed_bfloat16 (bf16 operands, read
// transposed alike: dot-transposed-operands-bf16.mlir) against the
// interpreter's f32 results: 2^-5.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc-opt %s --tpuc-decompose-dots --tpuc-convert-hlo-to-tpu -o %t/v3.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/v3.tpu.mlir -o %t/v3.tpx
// RUN: tpuc-run %t/v3.tpx --random-inputs=11 --output-dir=%t/v3
// RUN: tpuc interpret %s --random-inputs=11 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/v3 %t/want 16 0.0078125 | FileCheck %s
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
// RUN: %python_numpy %S/Inputs/compare.py %t/v6e %t/want 16 0.0078125 | FileCheck %s
// RUN: cmp %t/v6e/result0.npy %t/v6e/result1.npy
// RUN: cmp %t/v6e/result2.npy %t/v6e/result3.npy
// RUN: cmp %t/v6e/result4.npy %t/v6e/result5.npy
// RUN: cmp %t/v6e/result6.npy %t/v6e/result7.npy
// RUN: cmp %t/v6e/result8.npy %t/v6e/result9.npy
// RUN: cmp %t/v6e/result10.npy %t/v6e/result11.npy
// RUN: cmp %t/v6e/result12.npy %t/v6e/result13.npy
// RUN: cmp %t/v6e/result14.npy %t/v6e/result15.npy
// RUN: tpuc compile %s --precision=mixed_bfloat16 -o %t/bf16.tpx
// RUN: tpuc-run %t/bf16.tpx --random-inputs=11 --output-dir=%t/bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/bf16 %t/want 16 0.03125 | FileCheck %s
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

func.func @main(%a: tensor<300x129xf32>, %w: tensor<128x129xf32>,
                %dy: tensor<20x10xf32>, %w2: tensor<256x10xf32>,
                %x: tensor<3x20x129xf32>, %y: tensor<3x384x129xf32>,
                %xt: tensor<129x20xf32>, %w3: tensor<256x129xf32>,
                %x4: tensor<256x256xf32>, %dy4: tensor<256x10xf32>,
                %h: tensor<3x128x128xf32>, %g: tensor<3x128x300xf32>,
                %x6: tensor<384x128xf32>, %w6: tensor<256x384xf32>)
    -> (tensor<300x128xf32>, tensor<300x128xf32>,
        tensor<20x256xf32>, tensor<20x256xf32>,
        tensor<3x20x384xf32>, tensor<3x20x384xf32>,
        tensor<20x256xf32>, tensor<20x256xf32>,
        tensor<300x128xf32>, tensor<300x128xf32>,
        tensor<256x10xf32>, tensor<256x10xf32>,
        tensor<3x128x300xf32>, tensor<3x128x300xf32>,
        tensor<128x256xf32>, tensor<128x256xf32>) {
  %r0 = hlo.dot_general %a, %w, dims = <lhs_contracting = [1], rhs_contracting = [1]>
      : (tensor<300x129xf32>, tensor<128x129xf32>) -> tensor<300x128xf32>
  %wt = hlo.transpose %w, dims = [1, 0] : (tensor<128x129xf32>) -> tensor<129x128xf32>
  %r1 = hlo.dot_general %a, %wt, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<300x129xf32>, tensor<129x128xf32>) -> tensor<300x128xf32>
  %r2 = hlo.dot_general %dy, %w2, dims = <lhs_contracting = [1], rhs_contracting = [1]>
      : (tensor<20x10xf32>, tensor<256x10xf32>) -> tensor<20x256xf32>
  %w2t = hlo.transpose %w2, dims = [1, 0] : (tensor<256x10xf32>) -> tensor<10x256xf32>
  %r3 = hlo.dot_general %dy, %w2t, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<20x10xf32>, tensor<10x256xf32>) -> tensor<20x256xf32>
  %r4 = hlo.dot_general %x, %y, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [2]>
      : (tensor<3x20x129xf32>, tensor<3x384x129xf32>) -> tensor<3x20x384xf32>
  %yt = hlo.transpose %y, dims = [0, 2, 1] : (tensor<3x384x129xf32>) -> tensor<3x129x384xf32>
  %r5 = hlo.dot_general %x, %yt, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
      : (tensor<3x20x129xf32>, tensor<3x129x384xf32>) -> tensor<3x20x384xf32>
  %r6 = hlo.dot_general %xt, %w3, dims = <lhs_contracting = [0], rhs_contracting = [1]>
      : (tensor<129x20xf32>, tensor<256x129xf32>) -> tensor<20x256xf32>
  %w3t = hlo.transpose %w3, dims = [1, 0] : (tensor<256x129xf32>) -> tensor<129x256xf32>
  %r7 = hlo.dot_general %xt, %w3t, dims = <lhs_contracting = [0], rhs_contracting = [0]>
      : (tensor<129x20xf32>, tensor<129x256xf32>) -> tensor<20x256xf32>
  %r8 = hlo.dot_general %a, %w, dims = <lhs_contracting = [1], rhs_contracting = [1]>
      {precision_config = [#hlo<precision HIGHEST>, #hlo<precision HIGHEST>]}
      : (tensor<300x129xf32>, tensor<128x129xf32>) -> tensor<300x128xf32>
  %r9 = hlo.dot_general %a, %wt, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      {precision_config = [#hlo<precision HIGHEST>, #hlo<precision HIGHEST>]}
      : (tensor<300x129xf32>, tensor<129x128xf32>) -> tensor<300x128xf32>
  %r10 = hlo.dot_general %x4, %dy4, dims = <lhs_contracting = [0], rhs_contracting = [0]>
      : (tensor<256x256xf32>, tensor<256x10xf32>) -> tensor<256x10xf32>
  %x4t = hlo.transpose %x4, dims = [1, 0] : (tensor<256x256xf32>) -> tensor<256x256xf32>
  %r11 = hlo.dot_general %x4t, %dy4, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<256x256xf32>, tensor<256x10xf32>) -> tensor<256x10xf32>
  %r12 = hlo.dot_general %h, %g, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [1], rhs_contracting = [1]>
      : (tensor<3x128x128xf32>, tensor<3x128x300xf32>) -> tensor<3x128x300xf32>
  %ht = hlo.transpose %h, dims = [0, 2, 1] : (tensor<3x128x128xf32>) -> tensor<3x128x128xf32>
  %r13 = hlo.dot_general %ht, %g, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
      : (tensor<3x128x128xf32>, tensor<3x128x300xf32>) -> tensor<3x128x300xf32>
  %r14 = hlo.dot_general %x6, %w6, dims = <lhs_contracting = [0], rhs_contracting = [1]>
      : (tensor<384x128xf32>, tensor<256x384xf32>) -> tensor<128x256xf32>
  %x6t = hlo.transpose %x6, dims = [1, 0] : (tensor<384x128xf32>) -> tensor<128x384xf32>
  %w6t = hlo.transpose %w6, dims = [1, 0] : (tensor<256x384xf32>) -> tensor<384x256xf32>
  %r15 = hlo.dot_general %x6t, %w6t, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<128x384xf32>, tensor<384x256xf32>) -> tensor<128x256xf32>
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
