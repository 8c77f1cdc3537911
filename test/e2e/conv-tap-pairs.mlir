// Direct (stride-1) MXU convolutions with at most 64 input features pair
// window columns in one K = 128 MXU pass (ConvMxuKernel::tapCols): the
// halo's lanes 64-127 hold the pixel dw to the right (pairHaloColumns), the
// weight tiles' rows 64-127 the next window column's weights (zero past
// the kernel for an odd KW). A 3x3 takes 6 passes instead of 9; the sums
// keep the interpreter's order (kernel positions row-major, features
// ascending), so the results are bit-identical to the unpaired kernel's
// (checked against main's binary when written). Each piece of the halo
// is paired while the next pieces' DMAs arrive.
//   result0: batch 1, 3x3 SAME 64 -> 64 at 12x12, bias + relu epilogue
//            (weights streamed)
//   result1: batch 2, 3x3 SAME 44 -> 32 at 9x9 (weights resident; 44
//            features: a ragged 8-row tile in each half)
//   result2: batch 1, 2x3 64 -> 64, rhs_dilation 2 along H, padding
//            2/1 x 1/1, window reversal along H
//   result3: batch 1, 5x5 SAME 40 -> 48 at 10x10 (odd KW: the last pair's
//            second column past the kernel)
// Against the interpreter's f32: DEFAULT is one bf16 MXU pass, tolerance
// 2^-7 of the largest output. mixed_bfloat16 against the interpreted
// program after the precision passes: 2^-20 (f32 results: the MXU's f32
// accumulation, measured <= 2.4e-7, the same with and without pairs).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=11 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=11 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 4 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[1, 12, 12, 64]
// CHECK: result1: ok shape=[2, 9, 9, 32]
// CHECK: result2: ok shape=[1, 13, 12, 64]
// CHECK: result3: ok shape=[1, 10, 10, 48]
// RUN: tpuc compile %s --precision=mixed_bfloat16 --dump-dir=%t/dump -o %t/bf16.tpx
// RUN: tpuc-run %t/bf16.tpx --random-inputs=11 --output-dir=%t/got-bf16
// RUN: tpuc interpret %t/dump/00-hlo.mlir --random-inputs=11 --output-dir=%t/want-bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/got-bf16 %t/want-bf16 4 0.00000095367431640625 | FileCheck %s
// The streamed 3x3 alone: 6 steps, each waiting for its two weight DMAs
// (window columns 2q and 2q + 1), one matmul per MXU each.
// RUN: tpuc compile %S/Inputs/conv-tap-pair-3x3.mlir -o %t/one.tpx
// RUN: tpuc translate --executable-to-text %t/one.tpx > %t/one.txt
// RUN: FileCheck %s --check-prefix=PAIRS < %t/one.txt
// The halo arrives in pieces (two rows each here; fillHalo): each piece's
// rows but its last are paired right after its fill, while the next
// pieces arrive, so pairing selects (after the fill loop) come before the
// second piece's wait.
// RUN: FileCheck %s --check-prefix=PIECES < %t/one.txt
// PIECES: SEM_WAIT 0, 1
// PIECES: LOOP_END
// PIECES-NOT: SEM_WAIT
// PIECES: VSEL
// PIECES: SEM_WAIT 0, 1
// PAIRS-COUNT-6: SEM_WAIT 1, 2
// PAIRS: MXU_MATMUL {{.*}}, mxu 1, accumulate
// PAIRS-NOT: SEM_WAIT 1,
// PAIRS-NOT: MXU_MATMUL

func.func @main(%x: tensor<1x12x12x64xf32>, %w: tensor<3x3x64x64xf32>,
                %b: tensor<64xf32>,
                %y: tensor<2x9x9x44xf32>, %v: tensor<3x3x44x32xf32>,
                %z: tensor<1x12x12x64xf32>, %u: tensor<2x3x64x64xf32>,
                %p: tensor<1x10x10x40xf32>, %q: tensor<5x5x40x48xf32>)
    -> (tensor<1x12x12x64xf32>, tensor<2x9x9x32xf32>,
        tensor<1x13x12x64xf32>, tensor<1x10x10x48xf32>) {
  %c = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<1x12x12x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x12x12x64xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [3] : (tensor<64xf32>) -> tensor<1x12x12x64xf32>
  %s = hlo.add %c, %bb : tensor<1x12x12x64xf32>
  %zz = hlo.constant dense<0.0> : tensor<1x12x12x64xf32>
  %relu = hlo.maximum %s, %zz : tensor<1x12x12x64xf32>
  %d = hlo.convolution %y, %v, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<2x9x9x44xf32>, tensor<3x3x44x32xf32>) -> tensor<2x9x9x32xf32>
  %e = hlo.convolution %z, %u, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 2, 1, 1, 1>, rhs_dilation = array<i64: 2, 1>, window_reversal = array<i1: true, false>}
       : (tensor<1x12x12x64xf32>, tensor<2x3x64x64xf32>) -> tensor<1x13x12x64xf32>
  %f = hlo.convolution %p, %q, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 2, 2, 2, 2>}
       : (tensor<1x10x10x40xf32>, tensor<5x5x40x48xf32>) -> tensor<1x10x10x48xf32>
  return %relu, %d, %e, %f : tensor<1x12x12x64xf32>, tensor<2x9x9x32xf32>, tensor<1x13x12x64xf32>, tensor<1x10x10x48xf32>
}
