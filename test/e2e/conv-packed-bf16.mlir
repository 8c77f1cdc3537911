// NHWC convolutions with few input features and bf16 operands in the
// packed-window mode of the MXU kernel (the compact halo is DMAed straight
// from the bf16 input, no rounding copy), on tpu-v3 and tpu-v6e:
//   result0: C_in = 3, 7x7 stride 2 pad 3, batch 2, OW = 11, bf16 result
//   result1: C_in = 5, 3x3 pad 1 in the 0b1f_01io->0b1f layout (spatial 0
//            outer), f32 result
//   result2: C_in = 64, 2x2 stride 2, C_out = 130, bf16 result
// bf16 operands are exact in the MXU, products exact, summed in f32 in
// another order than the interpreter's; the bf16 result is rounded once:
// about one bf16 ulp, 2^-7 of the largest output.
// RUN: rm -rf %t && mkdir -p %t/v3 %t/v6e %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/v3.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/v3.tpu.mlir -o %t/v3.tpx
// RUN: tpuc-run %t/v3.tpx --random-inputs=13 --output-dir=%t/v3
// RUN: tpuc interpret %s --random-inputs=13 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/v3 %t/want 3 0.0078125 | FileCheck %s
// RUN: tpuc-opt %s --tpuc-set-target=target=tpu-v6e --tpuc-convert-hlo-to-tpu -o %t/v6e.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/v6e.tpu.mlir -o %t/v6e.tpx
// RUN: tpuc-run %t/v6e.tpx --random-inputs=13 --output-dir=%t/v6e
// RUN: %python_numpy %S/Inputs/compare.py %t/v6e %t/want 3 0.0078125 | FileCheck %s
// The packed mode was chosen: its compact halo rows (W pixels of C bf16).
// RUN: FileCheck %s --check-prefix=MODE < %t/v3.tpu.mlir
// MODE: chunks = 21 chunk_bytes = 6 src_stride = 256 dst_stride = 6
// CHECK: result0: ok shape=[2, 10, 11, 20]
// CHECK: result1: ok shape=[9, 2, 10, 12]
// CHECK: result2: ok shape=[2, 64, 16, 130]

func.func @conv(%x0: tensor<2x19x21x3xbf16>, %w0: tensor<7x7x3x20xbf16>,
                %x1: tensor<9x2x10x5xbf16>, %w1: tensor<3x3x5x12xbf16>,
                %x2: tensor<2x128x32x64xbf16>, %w2: tensor<2x2x64x130xbf16>)
    -> (tensor<2x10x11x20xbf16>, tensor<9x2x10x12xf32>, tensor<2x64x16x130xbf16>) {
  %0 = hlo.convolution %x0, %w0, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>}
       : (tensor<2x19x21x3xbf16>, tensor<7x7x3x20xbf16>) -> tensor<2x10x11x20xbf16>
  %1 = hlo.convolution %x1, %w1, dim_labels = <"0b1f_01io->0b1f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<9x2x10x5xbf16>, tensor<3x3x5x12xbf16>) -> tensor<9x2x10x12xf32>
  %2 = hlo.convolution %x2, %w2, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>}
       : (tensor<2x128x32x64xbf16>, tensor<2x2x64x130xbf16>) -> tensor<2x64x16x130xbf16>
  return %0, %1, %2 : tensor<2x10x11x20xbf16>, tensor<9x2x10x12xf32>, tensor<2x64x16x130xbf16>
}
