// Convolutions whose operands differ in precision (bf16 x f32), what
// tpuc-split-convolution-precision leaves under mixed_bfloat16 (a bf16
// activation and the f32 kernel variable it no longer converts): the MXU
// kernels read the f32 operand and round it to bf16 in VMEM. On tpu-v3
// (128-wide MXU) and tpu-v6e (256-wide: two input blocks per step):
//   result0: bf16 x f32 kernel, 3x3 stride 1 pad 1, C_in = 200 (ragged
//            second block), C_out = 136, bf16 result
//   result1: f32 input x bf16 kernel, 3x3 stride 2 pad 1, f32 result
//   result2: bf16 x f32 kernel, C_in = 3, 7x7 stride 2 pad 3 (packed
//            windows), f32 result
//   result3: weight gradient (f01b_i01o->01bf), bf16 x, f32 dy, f32 result
// The interpreter multiplies the unrounded f32 values; the kernels round
// them to bf16 (DEFAULT precision, 2^-8 relative each), products are exact
// and accumulate in f32: 2^-7 of the largest output.
// RUN: rm -rf %t && mkdir -p %t/v3 %t/v6e %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/v3.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/v3.tpu.mlir -o %t/v3.tpx
// RUN: tpuc-run %t/v3.tpx --random-inputs=17 --output-dir=%t/v3
// RUN: tpuc interpret %s --random-inputs=17 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/v3 %t/want 4 0.0078125 | FileCheck %s
// RUN: tpuc-opt %s --tpuc-set-target=target=tpu-v6e --tpuc-convert-hlo-to-tpu -o %t/v6e.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/v6e.tpu.mlir -o %t/v6e.tpx
// RUN: tpuc-run %t/v6e.tpx --random-inputs=17 --output-dir=%t/v6e
// RUN: %python_numpy %S/Inputs/compare.py %t/v6e %t/want 4 0.0078125 | FileCheck %s
// The f32 kernel of result0 is fetched as f32 tiles (4 KiB; the bf16
// input's are 2 KiB): 16 tiles of the first input block, 9 of the second.
// RUN: FileCheck %s --check-prefix=WEIGHTS < %t/v3.tpu.mlir
// WEIGHTS: chunks = 16 chunk_bytes = 4096 src_stride = 8192 dst_stride = 4096
// WEIGHTS: chunks = 9 chunk_bytes = 4096 src_stride = 8192 dst_stride = 4096
// CHECK: result0: ok shape=[2, 10, 11, 136]
// CHECK: result1: ok shape=[2, 5, 6, 24]
// CHECK: result2: ok shape=[2, 10, 11, 20]
// CHECK: result3: ok shape=[3, 3, 3, 10]

func.func @conv(%x: tensor<2x10x11x200xbf16>, %w: tensor<3x3x200x136xf32>,
                %y: tensor<2x10x11x40xf32>, %w1: tensor<3x3x40x24xbf16>,
                %z: tensor<2x19x21x3xbf16>, %w2: tensor<7x7x3x20xf32>,
                %g: tensor<4x9x7x3xbf16>, %dy: tensor<4x9x7x10xf32>)
    -> (tensor<2x10x11x136xbf16>, tensor<2x5x6x24xf32>, tensor<2x10x11x20xf32>,
        tensor<3x3x3x10xf32>) {
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<2x10x11x200xbf16>, tensor<3x3x200x136xf32>) -> tensor<2x10x11x136xbf16>
  %1 = hlo.convolution %y, %w1, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
       : (tensor<2x10x11x40xf32>, tensor<3x3x40x24xbf16>) -> tensor<2x5x6x24xf32>
  %2 = hlo.convolution %z, %w2, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>}
       : (tensor<2x19x21x3xbf16>, tensor<7x7x3x20xf32>) -> tensor<2x10x11x20xf32>
  %3 = hlo.convolution %g, %dy, dim_labels = <"f01b_i01o->01bf"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<4x9x7x3xbf16>, tensor<4x9x7x10xf32>) -> tensor<3x3x3x10xf32>
  return %0, %1, %2, %3 : tensor<2x10x11x136xbf16>, tensor<2x5x6x24xf32>, tensor<2x10x11x20xf32>,
                          tensor<3x3x3x10xf32>
}
