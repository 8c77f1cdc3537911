// A resnet50-like block through the whole pipeline, f32 and
// mixed_bfloat16: an explicit zero pad (JAX's `convert(0)`) folded into
// the stem convolution's padding, batch-norm scale/shift + relu epilogues,
// a 1x1 convolution whose output fusion adds a residual (its rows fetched
// by one DMA per output tile), two images (the halo's rows by one DMA per
// image). Under mixed_bfloat16 the convolutions read their f32 operands
// and round them in the kernel (tpuc-split-convolution-precision).
// Against the interpreter's f32: DEFAULT is one bf16 MXU pass, so
// tolerance 1e-2 of the largest output for f32 (measured 3.0e-3) and
// 3e-2 for mixed_bfloat16 (bf16 activations; measured 6.6e-3).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=3 --output-dir=%t/f32
// RUN: %python_numpy %S/Inputs/compare.py %t/f32 %t/want 1 1e-2 | FileCheck %s
// RUN: tpuc compile %s --precision=mixed_bfloat16 -o %t/bf16.tpx
// RUN: tpuc-run %t/bf16.tpx --random-inputs=3 --output-dir=%t/bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/bf16 %t/want 1 3e-2 | FileCheck %s
// RUN: tpuc compile %s --emit=fused -o - | FileCheck %s --check-prefix=FUSED
// CHECK: result0: ok shape=[2, 16, 16, 32]
// FUSED-NOT: hlo.pad
// FUSED: hlo.convolution {{.*}}padding = array<i64: 1, 1, 1, 1>

func.func @block(%x: tensor<2x16x16x8xf32>, %w1: tensor<3x3x8x32xf32>,
                 %s1: tensor<32xf32>, %b1: tensor<32xf32>,
                 %w2: tensor<1x1x32x32xf32>, %r: tensor<2x16x16x32xf32>)
    -> tensor<2x16x16x32xf32> {
  %i0 = hlo.constant dense<0> : tensor<i32>
  %zero = hlo.convert %i0 : (tensor<i32>) -> tensor<f32>
  %p = hlo.pad %x, %zero, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0]
       : (tensor<2x16x16x8xf32>, tensor<f32>) -> tensor<2x18x18x8xf32>
  %c1 = hlo.convolution %p, %w1, dim_labels = <"b01f_01io->b01f">
       : (tensor<2x18x18x8xf32>, tensor<3x3x8x32xf32>) -> tensor<2x16x16x32xf32>
  %sb = hlo.broadcast_in_dim %s1, dims = [3] : (tensor<32xf32>) -> tensor<2x16x16x32xf32>
  %bb = hlo.broadcast_in_dim %b1, dims = [3] : (tensor<32xf32>) -> tensor<2x16x16x32xf32>
  %m = hlo.multiply %c1, %sb : tensor<2x16x16x32xf32>
  %a = hlo.add %m, %bb : tensor<2x16x16x32xf32>
  %z = hlo.constant dense<0.0> : tensor<2x16x16x32xf32>
  %relu = hlo.maximum %a, %z : tensor<2x16x16x32xf32>
  %c2 = hlo.convolution %relu, %w2, dim_labels = <"b01f_01io->b01f">
       : (tensor<2x16x16x32xf32>, tensor<1x1x32x32xf32>) -> tensor<2x16x16x32xf32>
  %sum = hlo.add %c2, %r : tensor<2x16x16x32xf32>
  %out = hlo.maximum %sum, %z : tensor<2x16x16x32xf32>
  return %out : tensor<2x16x16x32xf32>
}
