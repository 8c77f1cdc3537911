// The weight gradient JAX emits for an NHWC convolution
// (f01b_i01o->01bf: the batch is the contraction, the window is the
// output-gradient's spatial size) on the MXU, dy blocks as weights and
// transposed x rows as the LHS:
//   result0: f32, the 3x3 pad 1 gradient of examples/cnn_train_step.hlo's
//            shape with ragged sizes (C_in = 3, W = 7, C_out = 10, N = 4)
//   result1: bf16, the gradient of a stride-2 convolution (rhs_dilation 2),
//            C_in = 130 (two transposed blocks), bf16 result
// f32 operands are rounded to bf16 (DEFAULT precision, 2^-8 relative
// each), products are exact and accumulate in f32 over K = N * OH * OW
// <= 252 terms: 2^-7 of the largest output. For bf16 the operands are
// exact and the bf16 result is rounded once: 2^-7 as well.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/conv.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/conv.tpu.mlir -o %t/conv.tpx
// RUN: tpuc-run %t/conv.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 2 0.0078125 | FileCheck %s
// RUN: tpuc translate --executable-to-text %t/conv.tpx | FileCheck %s --check-prefix=ISA
// CHECK: result0: ok shape=[3, 3, 3, 10]
// CHECK: result1: ok shape=[3, 3, 130, 20]
// The LHS rows are transposed x rows: over C_in = 3 only the first register
// of a transposed block is read, so only it is written (VTRANSPOSE_ROWS,
// 1 register); C_in = 130 reads the whole first block and one register of
// the second.
// ISA: VTRANSPOSE_ROWS v{{[0-9]+}}, v{{[0-9]+}}, 1
// ISA: VTRANSPOSE v{{[0-9]+}}, v{{[0-9]+}}
// ISA: VTRANSPOSE_ROWS v{{[0-9]+}}, v{{[0-9]+}}, 1

func.func @wgrad(%x: tensor<4x9x7x3xf32>, %dy: tensor<4x9x7x10xf32>,
                 %y: tensor<2x9x9x130xbf16>, %dz: tensor<2x5x5x20xbf16>)
    -> (tensor<3x3x3x10xf32>, tensor<3x3x130x20xbf16>) {
  %0 = hlo.convolution %x, %dy, dim_labels = <"f01b_i01o->01bf"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<4x9x7x3xf32>, tensor<4x9x7x10xf32>) -> tensor<3x3x3x10xf32>
  %1 = hlo.convolution %y, %dz, dim_labels = <"f01b_i01o->01bf"> {padding = array<i64: 1, 1, 1, 1>, rhs_dilation = array<i64: 2, 2>}
       : (tensor<2x9x9x130xbf16>, tensor<2x5x5x20xbf16>) -> tensor<3x3x130x20xbf16>
  return %0, %1 : tensor<3x3x3x10xf32>, tensor<3x3x130x20xbf16>
}
