// Dots whose MXU steps are shorter than a DMA latency (Dot.cpp,
// DotKernel::choosePipelining): their operands stream up to 4 steps ahead
// in more VMEM slots, a job's finish (bf16 rounding, small products) and C
// write-back wait until the next job's first step is prepared and issued,
// and C keeps up to 6 slots, so that the steps no longer wait on every
// transfer. mha's attention dots (12 heads of one 128-row step each; the
// first has a transposed rhs and a ragged K of 64), a batched HIGH dot of
// M = 8 (3 products, a small-product panel), resnet50's classifier-like M
// = 8 weight stream (16 K steps a job), and a batch of 3 one-step jobs of
// mixed operands (the prefetch distance clamped to the 3 steps). Against
// the interpreter on tpu-v3 and tpu-v6e (DEFAULT rounds an f32 operand to
// bf16: 2^-7 of the largest output; the schedule changes no K order).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc-opt %s --tpuc-decompose-dots --tpuc-convert-hlo-to-tpu -o %t/v3.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/v3.tpu.mlir -o %t/v3.tpx
// RUN: tpuc-run %t/v3.tpx --random-inputs=7 --output-dir=%t/v3
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/v3 %t/want 5 0.0078125 | FileCheck %s
// RUN: tpuc-opt %s --tpuc-set-target=target=tpu-v6e --tpuc-decompose-dots --tpuc-convert-hlo-to-tpu -o %t/v6e.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/v6e.tpu.mlir -o %t/v6e.tpx
// RUN: tpuc-run %t/v6e.tpx --random-inputs=7 --output-dir=%t/v6e
// RUN: %python_numpy %S/Inputs/compare.py %t/v6e %t/want 5 0.0078125 | FileCheck %s
// The first kernel fetches the weights of heads 0..3 (32 KiB apart) before
// its job loop (double-buffering fetched head 0 only).
// RUN: FileCheck %s --check-prefix=AHEAD < %t/v3.tpu.mlir
// AHEAD-LABEL: func.func @main
// AHEAD: tpu.dma %arg1[%c0
// AHEAD-NOT: tpu.loop
// AHEAD: tpu.dma %arg1[%c32768
// AHEAD-NOT: tpu.loop
// AHEAD: tpu.dma %arg1[%c65536
// AHEAD-NOT: tpu.loop
// AHEAD: tpu.dma %arg1[%c98304
// AHEAD-NOT: tpu.dma
// AHEAD: tpu.loop %{{.+}} = 0 to %c12 {
// CHECK: result0: ok shape=[12, 128, 128]
// CHECK: result1: ok shape=[12, 128, 64]
// CHECK: result2: ok shape=[5, 8, 130]
// CHECK: result3: ok shape=[8, 1000]
// CHECK: result4: ok shape=[3, 64, 64]

func.func @main(%q: tensor<12x128x64xbf16>, %k: tensor<12x128x64xbf16>,
                %p: tensor<12x128x128xbf16>, %v: tensor<12x128x64xbf16>,
                %x: tensor<5x8x200xf32>, %y: tensor<5x200x130xf32>,
                %a: tensor<8x2048xf32>, %w: tensor<2048x1000xf32>,
                %xb: tensor<3x64x100xbf16>, %wb: tensor<3x100x64xf32>)
    -> (tensor<12x128x128xbf16>, tensor<12x128x64xbf16>, tensor<5x8x130xf32>,
        tensor<8x1000xf32>, tensor<3x64x64xf32>) {
  %0 = hlo.dot_general %q, %k, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [2]>
       : (tensor<12x128x64xbf16>, tensor<12x128x64xbf16>) -> tensor<12x128x128xbf16>
  %1 = hlo.dot_general %p, %v, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
       : (tensor<12x128x128xbf16>, tensor<12x128x64xbf16>) -> tensor<12x128x64xbf16>
  %2 = hlo.dot_general %x, %y, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
       {precision_config = [#hlo<precision HIGH>, #hlo<precision HIGH>]}
       : (tensor<5x8x200xf32>, tensor<5x200x130xf32>) -> tensor<5x8x130xf32>
  %3 = hlo.dot_general %a, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<8x2048xf32>, tensor<2048x1000xf32>) -> tensor<8x1000xf32>
  %4 = hlo.dot_general %xb, %wb, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
       : (tensor<3x64x100xbf16>, tensor<3x100x64xf32>) -> tensor<3x64x64xf32>
  return %0, %1, %2, %3, %4 : tensor<12x128x128xbf16>, tensor<12x128x64xbf16>, tensor<5x8x130xf32>, tensor<8x1000xf32>, tensor<3x64x64xf32>
}
