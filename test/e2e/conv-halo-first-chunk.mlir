// One-block (batch 1) convolutions in two row chunks (ConvMxuKernel::
// rowChunks) start the first chunk's steps once the halo pieces it reads
// are filled: its weights' DMAs queue behind those pieces only, and the
// other pieces are filled one after each of its window positions from the
// second on, while the MXUs compute (fillHalo's readyRows, fillHaloPiece).
//   result0: 3x3 SAME 64 -> 64 at 40x40, bias + relu epilogue (tap pairs:
//            each piece paired as it is filled)
//   result1: 3x3 SAME 96 -> 32 at 40x40, no epilogue (no tap pairs)
//   result2: 1x1 64 -> 128 at 40x40, bias + residual + relu epilogue
// Against the interpreter's f32: DEFAULT is one bf16 MXU pass, tolerance
// 2^-7 of the largest output (measured <= 2.2e-3). mixed_bfloat16 against
// the interpreted program after the precision passes: 2^-20 (f32 results
// accumulated in f32 by the MXUs in another order; measured <= 5.3e-7). Both are bit-identical to those of the kernel that
// fills the whole halo first (checked against main's binary when written).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=7 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 3 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[1, 40, 40, 64]
// CHECK: result1: ok shape=[1, 40, 40, 32]
// CHECK: result2: ok shape=[1, 40, 40, 128]
// RUN: tpuc compile %s --precision=mixed_bfloat16 --dump-dir=%t/dump -o %t/bf16.tpx
// RUN: tpuc-run %t/bf16.tpx --random-inputs=7 --output-dir=%t/got-bf16
// RUN: tpuc interpret %t/dump/00-hlo.mlir --random-inputs=7 --output-dir=%t/want-bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/got-bf16 %t/want-bf16 3 0.00000095367431640625 | FileCheck %s
// The 3x3 64 -> 64 alone: the 40 input rows of its 42 halo rows in 7
// DMA pieces ending at rows 6, 12, ..., 36, 41. The first chunk's 20
// output rows read halo rows 0-21 (and row 22's first pixels), paired up
// to the row before a piece's last: pieces 0-3 (rows up to 23 paired).
// Their waits, then the first two positions' matmuls, and one piece's
// wait after each later position's matmuls (on main's binary all 7 waits
// came first).
// RUN: tpuc compile %S/Inputs/conv-halo-first-chunk.mlir -o %t/one.tpx
// RUN: tpuc translate --executable-to-text %t/one.tpx > %t/one.txt
// RUN: FileCheck %s --check-prefix=ORDER < %t/one.txt
// ORDER-COUNT-4: SEM_WAIT 0, 1
// ORDER-NOT: SEM_WAIT 0, 1
// ORDER: MXU_MATMUL {{.*}}, mxu 1
// ORDER-NOT: SEM_WAIT 0, 1
// ORDER: MXU_MATMUL {{.*}}, mxu 1, accumulate
// ORDER-NOT: MXU_MATMUL
// ORDER: SEM_WAIT 0, 1
// ORDER: MXU_MATMUL {{.*}}, mxu 1, accumulate
// ORDER-NOT: MXU_MATMUL
// ORDER: SEM_WAIT 0, 1

func.func @main(%x: tensor<1x40x40x64xf32>, %w: tensor<3x3x64x64xf32>,
                %b: tensor<64xf32>, %y: tensor<1x40x40x96xf32>,
                %v: tensor<3x3x96x32xf32>, %u: tensor<1x1x64x128xf32>,
                %d: tensor<128xf32>, %r: tensor<1x40x40x128xf32>)
    -> (tensor<1x40x40x64xf32>, tensor<1x40x40x32xf32>,
        tensor<1x40x40x128xf32>) {
  %c = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<1x40x40x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x40x40x64xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [3] : (tensor<64xf32>) -> tensor<1x40x40x64xf32>
  %s = hlo.add %c, %bb : tensor<1x40x40x64xf32>
  %zz = hlo.constant dense<0.0> : tensor<1x40x40x64xf32>
  %relu = hlo.maximum %s, %zz : tensor<1x40x40x64xf32>
  %c2 = hlo.convolution %y, %v, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<1x40x40x96xf32>, tensor<3x3x96x32xf32>) -> tensor<1x40x40x32xf32>
  %x3 = hlo.negate %x : tensor<1x40x40x64xf32>
  %c3 = hlo.convolution %x3, %u, dim_labels = <"b01f_01io->b01f">
       : (tensor<1x40x40x64xf32>, tensor<1x1x64x128xf32>) -> tensor<1x40x40x128xf32>
  %db = hlo.broadcast_in_dim %d, dims = [3] : (tensor<128xf32>) -> tensor<1x40x40x128xf32>
  %s3 = hlo.add %c3, %db : tensor<1x40x40x128xf32>
  %t3 = hlo.add %s3, %r : tensor<1x40x40x128xf32>
  %z3 = hlo.constant dense<0.0> : tensor<1x40x40x128xf32>
  %relu3 = hlo.maximum %t3, %z3 : tensor<1x40x40x128xf32>
  return %relu, %c2, %relu3 : tensor<1x40x40x64xf32>, tensor<1x40x40x32xf32>, tensor<1x40x40x128xf32>
}
