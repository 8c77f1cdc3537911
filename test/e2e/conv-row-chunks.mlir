// Direct (stride-1) MXU convolutions: a halo row pitch of max(pl + W,
// W + pr, 8 * ceil(W / 8), OWp) rounded to 8 (reads past a row's end land
// in the next row's left padding), and, for one-block (batch 1)
// convolutions whose halves still give each MXU 3 x 128 rows per task, two
// row chunks: the second chunk's steps reuse the resident weights and the
// first chunk's epilogue and write-back run while the MXUs compute it
// (ConvMxuKernel::rowChunks).
//   result0: 3x3 SAME 96 -> 32 at 40x40, bias + residual + relu epilogue
//            (pitch 48: 2 chunks of 20 rows, 480 rows per MXU task)
//   result1: the same convolution, no epilogue (2 chunks in f32; a bf16
//            result without epilogue is one chunk)
//   result2: 3x3, W padding 0/2, rhs_dilation 2 along W, 14x13 -> 14x11
//   result3: 3x3, W padding 2/1, batch 2, 14x13 -> 14x14 (pitch 16, was
//            24: 112 rows per MXU task, was 168)
// Against the interpreter's f32: DEFAULT is one bf16 MXU pass (1e-2 of
// the largest output; measured <= 3.0e-3 f32, <= 6.1e-3 mixed_bfloat16).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=5 --output-dir=%t/f32
// RUN: %python_numpy %S/Inputs/compare.py %t/f32 %t/want 4 1e-2 | FileCheck %s
// RUN: tpuc compile %s --precision=mixed_bfloat16 -o %t/bf16.tpx
// RUN: tpuc-run %t/bf16.tpx --random-inputs=5 --output-dir=%t/bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/bf16 %t/want 4 1e-2 | FileCheck %s
// RUN: tpuc translate --executable-to-text %t/f32.tpx > %t/f32.txt
// RUN: FileCheck %s --check-prefix=CHUNK < %t/f32.txt
// RUN: FileCheck %s --check-prefix=PITCH < %t/f32.txt
// CHECK: result0: ok shape=[1, 40, 40, 32]
// CHECK: result1: ok shape=[1, 40, 40, 32]
// CHECK: result2: ok shape=[1, 14, 11, 32]
// CHECK: result3: ok shape=[2, 14, 14, 32]
// CHUNK: MXU_MATMUL {{.*}}, 480, mxu 1
// PITCH: MXU_MATMUL {{.*}}, 112, mxu 1

func.func @main(%x: tensor<1x40x40x96xf32>, %w: tensor<3x3x96x32xf32>,
                %b: tensor<32xf32>, %r: tensor<1x40x40x32xf32>,
                %y: tensor<1x14x13x96xf32>, %v: tensor<3x3x96x32xf32>,
                %z: tensor<2x14x13x96xf32>)
    -> (tensor<1x40x40x32xf32>, tensor<1x40x40x32xf32>,
        tensor<1x14x11x32xf32>, tensor<2x14x14x32xf32>) {
  %c = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<1x40x40x96xf32>, tensor<3x3x96x32xf32>) -> tensor<1x40x40x32xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [3] : (tensor<32xf32>) -> tensor<1x40x40x32xf32>
  %s = hlo.add %c, %bb : tensor<1x40x40x32xf32>
  %t = hlo.add %s, %r : tensor<1x40x40x32xf32>
  %zz = hlo.constant dense<0.0> : tensor<1x40x40x32xf32>
  %relu = hlo.maximum %t, %zz : tensor<1x40x40x32xf32>
  %x2 = hlo.negate %x : tensor<1x40x40x96xf32>
  %c2 = hlo.convolution %x2, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<1x40x40x96xf32>, tensor<3x3x96x32xf32>) -> tensor<1x40x40x32xf32>
  %d = hlo.convolution %y, %v, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 0, 2>, rhs_dilation = array<i64: 1, 2>}
       : (tensor<1x14x13x96xf32>, tensor<3x3x96x32xf32>) -> tensor<1x14x11x32xf32>
  %e = hlo.convolution %z, %v, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 2, 1>}
       : (tensor<2x14x13x96xf32>, tensor<3x3x96x32xf32>) -> tensor<2x14x14x32xf32>
  return %relu, %c2, %d, %e : tensor<1x40x40x32xf32>, tensor<1x40x40x32xf32>, tensor<1x14x11x32xf32>, tensor<2x14x14x32xf32>
}
