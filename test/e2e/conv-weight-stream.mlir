// Convolutions computed in one block of output rows (batch 1: resnet50's
// conv2-5 layers, whose weights dominate the HBM traffic) stream their
// weights step by step (ConvMxuKernel::streamedGroups): a step is one
// window position and input D-block of an output group, its DMAs issued
// streamSlots - 1 steps ahead, across positions, input blocks and
// groups, and its MXU work runs right after its weights are converted.
// The halo is filled once for all groups.
//   result0: 1x1 stride 2, 300 -> 200 at 9x9 (ragged input block: its
//            rows past 300 zeroed; on tpu-v6e's 256-wide MXU the second
//            D-block holds one ragged and one zero 128-block)
//   result1: 3x3 1024 -> 640 at 4x4, SAME, bias + relu epilogue (tpu-v3:
//            5 groups of one output tile, the fetches crossing groups)
//   result2: 1x1 2048 -> 2304 at 6x6 (tpu-v3: 2 groups of 9 tiles)
// Against the interpreter's f32: DEFAULT is one bf16 MXU pass (measured
// <= 2.4e-3 f32, <= 3.9e-3 mixed_bfloat16).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=3 --output-dir=%t/f32
// RUN: %python_numpy %S/Inputs/compare.py %t/f32 %t/want 3 1e-2 | FileCheck %s
// RUN: tpuc compile %s --precision=mixed_bfloat16 -o %t/bf16.tpx
// RUN: tpuc-run %t/bf16.tpx --random-inputs=3 --output-dir=%t/bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/bf16 %t/want 3 1e-2 | FileCheck %s
// RUN: tpuc compile %s --target=tpu-v6e -o %t/v6e.tpx
// RUN: tpuc-run %t/v6e.tpx --random-inputs=3 --output-dir=%t/v6e
// RUN: %python_numpy %S/Inputs/compare.py %t/v6e %t/want 3 1e-2 | FileCheck %s
// RUN: tpuc compile %s --target=tpu-v6e --precision=mixed_bfloat16 -o %t/v6e-bf16.tpx
// RUN: tpuc-run %t/v6e-bf16.tpx --random-inputs=3 --output-dir=%t/v6e-bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/v6e-bf16 %t/want 3 1e-2 | FileCheck %s
// RUN: tpuc compile %s --emit=tpu -o - | FileCheck %s --check-prefix=TPU
// CHECK: result0: ok shape=[1, 5, 5, 200]
// CHECK: result1: ok shape=[1, 4, 4, 640]
// CHECK: result2: ok shape=[1, 6, 6, 2304]
// The 1x1 convolution result0 (%arg1, lowered after result1) computes
// its first step before its later steps' weights have arrived (main
// converted all of them first): a weight wait between its MXU passes,
// before the next convolution's (result2's %arg6) weight DMAs.
// TPU: tpu.dma %arg1
// TPU: tpu.mxu_matmul
// TPU-NOT: tpu.dma %arg6
// TPU: tpu.sem_wait 1,
// TPU-NOT: tpu.dma %arg6
// TPU: tpu.mxu_matmul

func.func @convs(%x: tensor<1x9x9x300xf32>, %w: tensor<1x1x300x200xf32>,
                 %y: tensor<1x4x4x1024xf32>, %v: tensor<3x3x1024x640xf32>,
                 %b: tensor<640xf32>, %z: tensor<1x6x6x2048xf32>,
                 %u: tensor<1x1x2048x2304xf32>)
    -> (tensor<1x5x5x200xf32>, tensor<1x4x4x640xf32>, tensor<1x6x6x2304xf32>) {
  %a = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>}
       : (tensor<1x9x9x300xf32>, tensor<1x1x300x200xf32>) -> tensor<1x5x5x200xf32>
  %c = hlo.convolution %y, %v, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<1x4x4x1024xf32>, tensor<3x3x1024x640xf32>) -> tensor<1x4x4x640xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [3] : (tensor<640xf32>) -> tensor<1x4x4x640xf32>
  %s = hlo.add %c, %bb : tensor<1x4x4x640xf32>
  %zz = hlo.constant dense<0.0> : tensor<1x4x4x640xf32>
  %relu = hlo.maximum %s, %zz : tensor<1x4x4x640xf32>
  %d = hlo.convolution %z, %u, dim_labels = <"b01f_01io->b01f">
       : (tensor<1x6x6x2048xf32>, tensor<1x1x2048x2304xf32>) -> tensor<1x6x6x2304xf32>
  return %a, %relu, %d : tensor<1x5x5x200xf32>, tensor<1x4x4x640xf32>, tensor<1x6x6x2304xf32>
}
