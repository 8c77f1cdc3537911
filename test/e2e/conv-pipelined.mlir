// The MXU convolution kernel's overlapped schedules (Convolution.cpp,
// docs/codegen.md "convolution") against the interpreter, at 16 MiB of
// VMEM and at 2 MiB (smaller blocks: more of them, and output groups):
// * packed windows (packedBlocks): halo, LHS and panels in two slots, block
//   b's steps on the MXUs while block b + 1's LHS is built and block b - 1
//   is written back:
//   result0: resnet50's stem, 224x224x3 7x7 stride 2 pad 3 -> 64, with
//            relu(conv + b) as an output fusion (4 blocks of 28 rows; 56
//            of 2 rows at 2 MiB)
//   result1: C = 3 7x7 stride 2, batch 2 (2 blocks), 130 outputs (two
//            output tiles; at 2 MiB two groups of 64 blocks), plus a
//            same-shape operand (the epilogue fetches each block's)
//   result2: bf16 in and out (the rounded copy of a panel slot), C = 3,
//            7x7 stride 2, batch 3 (3 blocks)
//   result4: 3x3 C = 32 on 32x32 (one block; 5 blocks at 2 MiB)
// * one-block halos fetched in pieces, each filled while the next arrive
//   (fillHalo): result3 3x3 C = 64 pad 1 on 29x27 (halo pieces of 3, 4 x 6
//   and 2 rows, checked below), result5 3x3
//   stride 2 C = 64 on a ragged 57x57, result6 3x3 C = 64 -> 64 on 56x56
//   (resnet50's conv2 shape) with relu(conv + b).
// DEFAULT precision: operands rounded to bf16 (2^-8 each), products summed
// in f32 in another order than the interpreter's; the error stays below
// 2^-7 of the largest output (K <= 576 random [-1, 1) terms).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s -o %t/big.tpx
// RUN: tpuc-run %t/big.tpx --random-inputs=5 --output-dir=%t/big
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/big %t/want 7 0.0078125 | FileCheck %s
// RUN: tpuc compile %s --vmem=2MiB -o %t/small.tpx
// RUN: tpuc-run %t/small.tpx --random-inputs=5 --output-dir=%t/small
// RUN: %python_numpy %S/Inputs/compare.py %t/small %t/want 7 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[1, 112, 112, 64]
// CHECK: result1: ok shape=[2, 32, 32, 130]
// CHECK: result2: ok shape=[3, 32, 32, 20]
// CHECK: result3: ok shape=[1, 29, 27, 64]
// CHECK: result4: ok shape=[1, 30, 30, 48]
// CHECK: result5: ok shape=[1, 29, 29, 64]
// CHECK: result6: ok shape=[1, 56, 56, 64]
// result3's halo: rows 1..29 of 31 (pad 1) in DMAs of 3, 4 x 6 and 2 rows
// of 4 f32 tiles, the pieces ending at multiples of 4 rows.
// RUN: tpuc compile %s --emit=tpu -o %t/big.tpu.mlir
// RUN: FileCheck %s --check-prefix=PIECES < %t/big.tpu.mlir
// PIECES: chunks = 3 chunk_bytes = 16384
// PIECES-COUNT-6: chunks = 4 chunk_bytes = 16384
// PIECES-NEXT: chunks = 2 chunk_bytes = 16384

func.func @conv(%x0: tensor<1x224x224x3xf32>, %w0: tensor<7x7x3x64xf32>,
                %b0: tensor<64xf32>,
                %x1: tensor<2x64x64x3xf32>, %w1: tensor<7x7x3x130xf32>,
                %y1: tensor<2x32x32x130xf32>,
                %x2: tensor<3x64x64x3xbf16>, %w2: tensor<7x7x3x20xbf16>,
                %x3: tensor<1x29x27x64xf32>, %w3: tensor<3x3x64x64xf32>,
                %x4: tensor<1x32x32x32xf32>, %w4: tensor<3x3x32x48xf32>,
                %x5: tensor<1x57x57x64xf32>, %w5: tensor<3x3x64x64xf32>,
                %x6: tensor<1x56x56x64xf32>, %w6: tensor<3x3x64x64xf32>,
                %b6: tensor<64xf32>)
    -> (tensor<1x112x112x64xf32>, tensor<2x32x32x130xf32>,
        tensor<3x32x32x20xbf16>, tensor<1x29x27x64xf32>,
        tensor<1x30x30x48xf32>, tensor<1x29x29x64xf32>,
        tensor<1x56x56x64xf32>) {
  %0 = hlo.fusion output(%x0, %w0, %b0) : (tensor<1x224x224x3xf32>, tensor<7x7x3x64xf32>, tensor<64xf32>) -> tensor<1x112x112x64xf32> {
  ^bb0(%a0: tensor<1x224x224x3xf32>, %a1: tensor<7x7x3x64xf32>, %a2: tensor<64xf32>):
    %zero = hlo.constant dense<0.0> : tensor<1x112x112x64xf32>
    %c = hlo.convolution %a0, %a1, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>}
        : (tensor<1x224x224x3xf32>, tensor<7x7x3x64xf32>) -> tensor<1x112x112x64xf32>
    %bb = hlo.broadcast_in_dim %a2, dims = [3] : (tensor<64xf32>) -> tensor<1x112x112x64xf32>
    %s = hlo.add %c, %bb : tensor<1x112x112x64xf32>
    %r = hlo.maximum %s, %zero : tensor<1x112x112x64xf32>
    hlo.return %r : tensor<1x112x112x64xf32>
  }
  %1 = hlo.fusion output(%x1, %w1, %y1) : (tensor<2x64x64x3xf32>, tensor<7x7x3x130xf32>, tensor<2x32x32x130xf32>) -> tensor<2x32x32x130xf32> {
  ^bb0(%a0: tensor<2x64x64x3xf32>, %a1: tensor<7x7x3x130xf32>, %a2: tensor<2x32x32x130xf32>):
    %c = hlo.convolution %a0, %a1, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>}
        : (tensor<2x64x64x3xf32>, tensor<7x7x3x130xf32>) -> tensor<2x32x32x130xf32>
    %s = hlo.add %c, %a2 : tensor<2x32x32x130xf32>
    hlo.return %s : tensor<2x32x32x130xf32>
  }
  %2 = hlo.convolution %x2, %w2, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>}
       : (tensor<3x64x64x3xbf16>, tensor<7x7x3x20xbf16>) -> tensor<3x32x32x20xbf16>
  %3 = hlo.convolution %x3, %w3, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<1x29x27x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x29x27x64xf32>
  %4 = hlo.convolution %x4, %w4, dim_labels = <"b01f_01io->b01f">
       : (tensor<1x32x32x32xf32>, tensor<3x3x32x48xf32>) -> tensor<1x30x30x48xf32>
  %5 = hlo.convolution %x5, %w5, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
       : (tensor<1x57x57x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x29x29x64xf32>
  %6 = hlo.fusion output(%x6, %w6, %b6) : (tensor<1x56x56x64xf32>, tensor<3x3x64x64xf32>, tensor<64xf32>) -> tensor<1x56x56x64xf32> {
  ^bb0(%a0: tensor<1x56x56x64xf32>, %a1: tensor<3x3x64x64xf32>, %a2: tensor<64xf32>):
    %zero = hlo.constant dense<0.0> : tensor<1x56x56x64xf32>
    %c = hlo.convolution %a0, %a1, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
        : (tensor<1x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32>
    %bb = hlo.broadcast_in_dim %a2, dims = [3] : (tensor<64xf32>) -> tensor<1x56x56x64xf32>
    %s = hlo.add %c, %bb : tensor<1x56x56x64xf32>
    %r = hlo.maximum %s, %zero : tensor<1x56x56x64xf32>
    hlo.return %r : tensor<1x56x56x64xf32>
  }
  return %0, %1, %2, %3, %4, %5, %6 : tensor<1x112x112x64xf32>, tensor<2x32x32x130xf32>, tensor<3x32x32x20xbf16>, tensor<1x29x27x64xf32>, tensor<1x30x30x48xf32>, tensor<1x29x29x64xf32>, tensor<1x56x56x64xf32>
}
