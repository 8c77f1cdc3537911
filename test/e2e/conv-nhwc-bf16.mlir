// NHWC convolutions on the MXU with bf16 operands and results:
//   result0: 3x3 stride 2 pad 1, C_in = 200 (a ragged second input block),
//            C_out = 136, W = 11, bf16 result
//   result1: 1x1 stride 1 in the 0b1f_01io->0b1f layout (spatial 0 outer),
//            f32 result
//   result2: 3x3 stride 1 pad 1 (the contiguous-LHS path), bf16 result
// bf16 operands are exact in the MXU, products are exact and accumulate in
// f32 (another order than the interpreter's); the bf16 result is rounded
// once, so the error is about one bf16 ulp of the output: 2^-7 of the
// largest output.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/conv.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/conv.tpu.mlir -o %t/conv.tpx
// RUN: tpuc-run %t/conv.tpx --random-inputs=11 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=11 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 3 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[3, 5, 6, 136]
// CHECK: result1: ok shape=[10, 3, 11, 24]
// CHECK: result2: ok shape=[3, 10, 11, 136]

func.func @conv(%x: tensor<3x10x11x200xbf16>, %w: tensor<3x3x200x136xbf16>,
                %y: tensor<10x3x11x40xbf16>, %w1: tensor<1x1x40x24xbf16>)
    -> (tensor<3x5x6x136xbf16>, tensor<10x3x11x24xf32>, tensor<3x10x11x136xbf16>) {
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
       : (tensor<3x10x11x200xbf16>, tensor<3x3x200x136xbf16>) -> tensor<3x5x6x136xbf16>
  %1 = hlo.convolution %y, %w1, dim_labels = <"0b1f_01io->0b1f">
       : (tensor<10x3x11x40xbf16>, tensor<1x1x40x24xbf16>) -> tensor<10x3x11x24xf32>
  %2 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<3x10x11x200xbf16>, tensor<3x3x200x136xbf16>) -> tensor<3x10x11x136xbf16>
  return %0, %1, %2 : tensor<3x5x6x136xbf16>, tensor<10x3x11x24xf32>, tensor<3x10x11x136xbf16>
}
