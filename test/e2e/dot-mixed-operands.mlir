// dot_generals whose operands differ in precision (bf16 x f32 and f32 x
// bf16), what tpuc-split-convolution-precision leaves under mixed_bfloat16
// (a bf16 activation and the f32 weight it no longer converts): the MXU
// kernel stages each operand in its own element type and rounds the f32
// one to bf16 on its way into the MXU operand, as the convert did. Each
// such dot is paired with the same dot of the converted operand (the old
// path: a convert kernel writes a bf16 copy to HBM): the two results must
// be bit-identical (the same bf16 values, the same K accumulation order),
// on tpu-v3 (128x128 MXUs) and tpu-v6e (256x256, two 128-blocks a step):
//   result0/1: bf16 [40,300] x f32 [300,200] (ragged M, K, N), f32 result
//   result2/3: f32 [20,300] x bf16 [300,136] (operands swapped), bf16 result
//   result4/5: bf16 [40,300] x f32 [256,300] contracted on its minor dim
//              (a transposed rhs, staged through the XLU)
//   result6/7: bf16 [256,128] x f32 [256,136] contracted on dim 0 (a
//              transposed lhs, the weight gradient x^T dy)
//   result8/9: batched bf16 [3,20,70] x f32 [3,70,130]
//   result10/11: HIGHEST: bf16 x f32 [300,200] (the f32 weight in 3
//              pieces, the bf16 lhs in one) and the same dot of the lhs
//              converted to f32 (its two smaller pieces are zero)
// Against the interpreter (unrounded f32 weights): DEFAULT rounds one
// operand to bf16 (2^-8 relative), products exact, f32 accumulation: 2^-7
// of the largest output (HIGHEST too, of course).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc-opt %s --tpuc-decompose-dots --tpuc-convert-hlo-to-tpu -o %t/v3.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/v3.tpu.mlir -o %t/v3.tpx
// RUN: tpuc-run %t/v3.tpx --random-inputs=23 --output-dir=%t/v3
// RUN: tpuc interpret %s --random-inputs=23 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/v3 %t/want 12 0.0078125 | FileCheck %s
// RUN: cmp %t/v3/result0.npy %t/v3/result1.npy
// RUN: cmp %t/v3/result2.npy %t/v3/result3.npy
// RUN: cmp %t/v3/result4.npy %t/v3/result5.npy
// RUN: cmp %t/v3/result6.npy %t/v3/result7.npy
// RUN: cmp %t/v3/result8.npy %t/v3/result9.npy
// RUN: cmp %t/v3/result10.npy %t/v3/result11.npy
// RUN: tpuc-opt %s --tpuc-set-target=target=tpu-v6e --tpuc-decompose-dots --tpuc-convert-hlo-to-tpu -o %t/v6e.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/v6e.tpu.mlir -o %t/v6e.tpx
// RUN: tpuc-run %t/v6e.tpx --random-inputs=23 --output-dir=%t/v6e
// RUN: %python_numpy %S/Inputs/compare.py %t/v6e %t/want 12 0.0078125 | FileCheck %s
// RUN: cmp %t/v6e/result0.npy %t/v6e/result1.npy
// RUN: cmp %t/v6e/result2.npy %t/v6e/result3.npy
// RUN: cmp %t/v6e/result4.npy %t/v6e/result5.npy
// RUN: cmp %t/v6e/result6.npy %t/v6e/result7.npy
// RUN: cmp %t/v6e/result8.npy %t/v6e/result9.npy
// RUN: cmp %t/v6e/result10.npy %t/v6e/result11.npy
// The f32 weight of result0 goes to VMEM as f32 tiles (4 KiB, 16 rows of
// tiles a D-row step, from its ragged-K copy of 384 rows), the bf16 lhs as
// bf16 tiles (2 KiB) of its 5 row tiles.
// RUN: FileCheck %s --check-prefix=TILES < %t/v3.tpu.mlir
// TILES-LABEL: func.func @main
// TILES: tpu.alloc {{.*}}memref<384x200xf32
// TILES: chunks = 5 chunk_bytes = 2048 src_stride = 6144 dst_stride = 2048
// TILES: chunks = 16 chunk_bytes = 4096 src_stride = 8192 dst_stride = 4096
// CHECK: result0: ok shape=[40, 200]
// CHECK: result1: ok shape=[40, 200]
// CHECK: result2: ok shape=[20, 136]
// CHECK: result3: ok shape=[20, 136]
// CHECK: result4: ok shape=[40, 256]
// CHECK: result5: ok shape=[40, 256]
// CHECK: result6: ok shape=[128, 136]
// CHECK: result7: ok shape=[128, 136]
// CHECK: result8: ok shape=[3, 20, 130]
// CHECK: result9: ok shape=[3, 20, 130]
// CHECK: result10: ok shape=[40, 200]
// CHECK: result11: ok shape=[40, 200]

func.func @main(%a: tensor<40x300xbf16>, %w: tensor<300x200xf32>,
                %wl: tensor<20x300xf32>, %b: tensor<300x136xbf16>,
                %wt: tensor<256x300xf32>, %g: tensor<256x128xbf16>,
                %dy: tensor<256x136xf32>, %xb: tensor<3x20x70xbf16>,
                %wb: tensor<3x70x130xf32>)
    -> (tensor<40x200xf32>, tensor<40x200xf32>, tensor<20x136xbf16>,
        tensor<20x136xbf16>, tensor<40x256xf32>, tensor<40x256xf32>,
        tensor<128x136xf32>, tensor<128x136xf32>, tensor<3x20x130xf32>,
        tensor<3x20x130xf32>, tensor<40x200xf32>, tensor<40x200xf32>) {
  %0 = hlo.dot_general %a, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<40x300xbf16>, tensor<300x200xf32>) -> tensor<40x200xf32>
  %wc = hlo.convert %w : (tensor<300x200xf32>) -> tensor<300x200xbf16>
  %1 = hlo.dot_general %a, %wc, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<40x300xbf16>, tensor<300x200xbf16>) -> tensor<40x200xf32>
  %2 = hlo.dot_general %wl, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<20x300xf32>, tensor<300x136xbf16>) -> tensor<20x136xbf16>
  %wlc = hlo.convert %wl : (tensor<20x300xf32>) -> tensor<20x300xbf16>
  %3 = hlo.dot_general %wlc, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<20x300xbf16>, tensor<300x136xbf16>) -> tensor<20x136xbf16>
  %4 = hlo.dot_general %a, %wt, dims = <lhs_contracting = [1], rhs_contracting = [1]>
       : (tensor<40x300xbf16>, tensor<256x300xf32>) -> tensor<40x256xf32>
  %wtc = hlo.convert %wt : (tensor<256x300xf32>) -> tensor<256x300xbf16>
  %5 = hlo.dot_general %a, %wtc, dims = <lhs_contracting = [1], rhs_contracting = [1]>
       : (tensor<40x300xbf16>, tensor<256x300xbf16>) -> tensor<40x256xf32>
  %6 = hlo.dot_general %g, %dy, dims = <lhs_contracting = [0], rhs_contracting = [0]>
       : (tensor<256x128xbf16>, tensor<256x136xf32>) -> tensor<128x136xf32>
  %dyc = hlo.convert %dy : (tensor<256x136xf32>) -> tensor<256x136xbf16>
  %7 = hlo.dot_general %g, %dyc, dims = <lhs_contracting = [0], rhs_contracting = [0]>
       : (tensor<256x128xbf16>, tensor<256x136xbf16>) -> tensor<128x136xf32>
  %8 = hlo.dot_general %xb, %wb, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
       : (tensor<3x20x70xbf16>, tensor<3x70x130xf32>) -> tensor<3x20x130xf32>
  %wbc = hlo.convert %wb : (tensor<3x70x130xf32>) -> tensor<3x70x130xbf16>
  %9 = hlo.dot_general %xb, %wbc, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
       : (tensor<3x20x70xbf16>, tensor<3x70x130xbf16>) -> tensor<3x20x130xf32>
  %10 = hlo.dot_general %a, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> {precision_config = [#hlo<precision HIGHEST>, #hlo<precision HIGHEST>]}
       : (tensor<40x300xbf16>, tensor<300x200xf32>) -> tensor<40x200xf32>
  %af = hlo.convert %a : (tensor<40x300xbf16>) -> tensor<40x300xf32>
  %11 = hlo.dot_general %af, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> {precision_config = [#hlo<precision HIGHEST>, #hlo<precision HIGHEST>]}
       : (tensor<40x300xf32>, tensor<300x200xf32>) -> tensor<40x200xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11
      : tensor<40x200xf32>, tensor<40x200xf32>, tensor<20x136xbf16>,
        tensor<20x136xbf16>, tensor<40x256xf32>, tensor<40x256xf32>,
        tensor<128x136xf32>, tensor<128x136xf32>, tensor<3x20x130xf32>,
        tensor<3x20x130xf32>, tensor<40x200xf32>, tensor<40x200xf32>
}
