// Convolutions computed in one block of output rows (batch 1, small
// images: resnet50's conv4/conv5 3x3 layers, whose weights dominate) run
// each step's MXU work as soon as its weights are converted, while the
// DMA engine fetches the next steps' (ConvMxuKernel::streamedGroups;
// conv-weight-stream.mlir covers 1x1s and several groups), instead of
// converting the whole group's weights first. The TPU checks pin the
// order: a weight wait between the MXU passes of one convolution.
//   result0: 3x3 256 -> 256 at 7x7, SAME, a bias + relu epilogue
//   result1: 3x3 stride 2, 160 -> 192 at 14x14 (features not a multiple
//            of 128: ragged input block, gathered LHS)
// Against the interpreter's f32: DEFAULT is one bf16 MXU pass, so
// tolerance 1e-2 of the largest output for f32 and 3e-2 for
// mixed_bfloat16.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=3 --output-dir=%t/f32
// RUN: %python_numpy %S/Inputs/compare.py %t/f32 %t/want 2 1e-2 | FileCheck %s
// RUN: tpuc compile %s --precision=mixed_bfloat16 -o %t/bf16.tpx
// RUN: tpuc-run %t/bf16.tpx --random-inputs=3 --output-dir=%t/bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/bf16 %t/want 2 3e-2 | FileCheck %s
// RUN: tpuc compile %s --emit=tpu -o - | FileCheck %s --check-prefix=TPU
// CHECK: result0: ok shape=[1, 7, 7, 256]
// CHECK: result1: ok shape=[1, 7, 7, 192]
// TPU: tpu.mxu_matmul
// TPU: tpu.sem_wait 1,
// TPU: tpu.mxu_matmul
// TPU: tpu.sem_wait 1,
// TPU: tpu.mxu_matmul

func.func @convs(%x: tensor<1x7x7x256xf32>, %w: tensor<3x3x256x256xf32>,
                 %b: tensor<256xf32>, %y: tensor<1x14x14x160xf32>,
                 %v: tensor<3x3x160x192xf32>)
    -> (tensor<1x7x7x256xf32>, tensor<1x7x7x192xf32>) {
  %c = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<1x7x7x256xf32>, tensor<3x3x256x256xf32>) -> tensor<1x7x7x256xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [3] : (tensor<256xf32>) -> tensor<1x7x7x256xf32>
  %a = hlo.add %c, %bb : tensor<1x7x7x256xf32>
  %z = hlo.constant dense<0.0> : tensor<1x7x7x256xf32>
  %relu = hlo.maximum %a, %z : tensor<1x7x7x256xf32>
  %s = hlo.convolution %y, %v, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 0, 1, 0, 1>}
       : (tensor<1x14x14x160xf32>, tensor<3x3x160x192xf32>) -> tensor<1x7x7x192xf32>
  return %relu, %s : tensor<1x7x7x256xf32>, tensor<1x7x7x192xf32>
}
