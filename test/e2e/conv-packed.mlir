// NHWC convolutions with few input features, f32, in the packed-window mode
// of the MXU kernel (Convolution.cpp, docs/codegen.md "convolution"): the
// window positions of pk kernel rows share a 128-lane LHS block (lanes
// ((kh % pk) * KW + kw) * C + c), DMAed from a compact halo. Ragged
// everywhere, batch 2, on tpu-v3 (128-wide MXU) and tpu-v6e (256-wide: a
// K step takes two packed blocks):
//   result0: C_in = 1, 5x5 stride 1 pad 2, W = 13
//   result1: C_in = 3, 7x7 stride 2 pad 3 (resnet50's stem shape), OW = 11
//   result2: C_in = 5, 3x3 stride (1, 2), pad (1,2)x(0,1), rhs_dilation 2
//            (one DMA per window position) and window reversal in both dims
//   result3: C_in = 64, 2x2 (KW * C = 128: one kernel row per block),
//            C_out = 130 (two output tiles)
//   result4: C_in = 32, 3x3 stride 2 pad 1
//   result5: C_in = 3, kernel labels 10io (KW = 2, KH = 3), reversed along W
//   result6: relu(conv + b) as an output fusion (the epilogue on the packed
//            kernel's panels), C_in = 3, 7x7 stride 2 pad 3
// DEFAULT precision: operands rounded to bf16 (2^-8 each), exact products
// summed in f32 in another order than the interpreter's (and than the
// unpacked kernel's); over K <= 256 terms of random [-1, 1) inputs the
// error stays below 2^-7 of the largest output.
// RUN: rm -rf %t && mkdir -p %t/v3 %t/v6e %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/v3.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/v3.tpu.mlir -o %t/v3.tpx
// RUN: tpuc-run %t/v3.tpx --random-inputs=7 --output-dir=%t/v3
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/v3 %t/want 7 0.0078125 | FileCheck %s
// RUN: tpuc-opt %s --tpuc-set-target=target=tpu-v6e --tpuc-convert-hlo-to-tpu -o %t/v6e.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/v6e.tpu.mlir -o %t/v6e.tpx
// RUN: tpuc-run %t/v6e.tpx --random-inputs=7 --output-dir=%t/v6e
// RUN: %python_numpy %S/Inputs/compare.py %t/v6e %t/want 7 0.0078125 | FileCheck %s
// The packed mode was chosen (its LHS DMAs: OW chunks of KW * C bf16).
// RUN: FileCheck %s --check-prefix=MODE < %t/v3.tpu.mlir
// MODE: chunks = 11 chunk_bytes = 42 src_stride = 12 dst_stride = 256
// CHECK: result0: ok shape=[2, 9, 13, 10]
// CHECK: result1: ok shape=[2, 10, 11, 20]
// CHECK: result2: ok shape=[2, 64, 64, 12]
// CHECK: result3: ok shape=[2, 64, 16, 130]
// CHECK: result4: ok shape=[2, 16, 16, 16]
// CHECK: result5: ok shape=[2, 32, 32, 8]
// CHECK: result6: ok shape=[2, 32, 32, 20]

func.func @conv(%x0: tensor<2x9x13x1xf32>, %w0: tensor<5x5x1x10xf32>,
                %x1: tensor<2x19x21x3xf32>, %w1: tensor<7x7x3x20xf32>,
                %x2: tensor<2x65x130x5xf32>, %w2: tensor<3x3x5x12xf32>,
                %x3: tensor<2x64x16x64xf32>, %w3: tensor<2x2x64x130xf32>,
                %x4: tensor<2x32x32x32xf32>, %w4: tensor<3x3x32x16xf32>,
                %x5: tensor<2x34x33x3xf32>, %w5: tensor<2x3x3x8xf32>,
                %x6: tensor<2x64x64x3xf32>, %w6: tensor<7x7x3x20xf32>,
                %b6: tensor<20xf32>)
    -> (tensor<2x9x13x10xf32>, tensor<2x10x11x20xf32>, tensor<2x64x64x12xf32>,
        tensor<2x64x16x130xf32>, tensor<2x16x16x16xf32>, tensor<2x32x32x8xf32>,
        tensor<2x32x32x20xf32>) {
  %0 = hlo.convolution %x0, %w0, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 2, 2, 2, 2>}
       : (tensor<2x9x13x1xf32>, tensor<5x5x1x10xf32>) -> tensor<2x9x13x10xf32>
  %1 = hlo.convolution %x1, %w1, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>}
       : (tensor<2x19x21x3xf32>, tensor<7x7x3x20xf32>) -> tensor<2x10x11x20xf32>
  %2 = hlo.convolution %x2, %w2, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 1, 2>, padding = array<i64: 1, 2, 0, 1>, rhs_dilation = array<i64: 2, 2>, window_reversal = array<i1: true, true>}
       : (tensor<2x65x130x5xf32>, tensor<3x3x5x12xf32>) -> tensor<2x64x64x12xf32>
  %3 = hlo.convolution %x3, %w3, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 0, 1, 1, 0>}
       : (tensor<2x64x16x64xf32>, tensor<2x2x64x130xf32>) -> tensor<2x64x16x130xf32>
  %4 = hlo.convolution %x4, %w4, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
       : (tensor<2x32x32x32xf32>, tensor<3x3x32x16xf32>) -> tensor<2x16x16x16xf32>
  %5 = hlo.convolution %x5, %w5, dim_labels = <"b01f_10io->b01f"> {window_reversal = array<i1: false, true>}
       : (tensor<2x34x33x3xf32>, tensor<2x3x3x8xf32>) -> tensor<2x32x32x8xf32>
  %6 = hlo.fusion output(%x6, %w6, %b6) : (tensor<2x64x64x3xf32>, tensor<7x7x3x20xf32>, tensor<20xf32>) -> tensor<2x32x32x20xf32> {
  ^bb0(%a0: tensor<2x64x64x3xf32>, %a1: tensor<7x7x3x20xf32>, %a2: tensor<20xf32>):
    %zero = hlo.constant dense<0.0> : tensor<2x32x32x20xf32>
    %c = hlo.convolution %a0, %a1, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>}
        : (tensor<2x64x64x3xf32>, tensor<7x7x3x20xf32>) -> tensor<2x32x32x20xf32>
    %bb = hlo.broadcast_in_dim %a2, dims = [3] : (tensor<20xf32>) -> tensor<2x32x32x20xf32>
    %s = hlo.add %c, %bb : tensor<2x32x32x20xf32>
    %r = hlo.maximum %s, %zero : tensor<2x32x32x20xf32>
    hlo.return %r : tensor<2x32x32x20xf32>
  }
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x9x13x10xf32>, tensor<2x10x11x20xf32>, tensor<2x64x64x12xf32>, tensor<2x64x16x130xf32>, tensor<2x16x16x16xf32>, tensor<2x32x32x8xf32>, tensor<2x32x32x20xf32>
}
