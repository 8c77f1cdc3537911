// Output fusions written as hlo.fusion regions and lowered alone
// (tpuc-convert-hlo-to-tpu), against the reference interpreter:
// result0/result1: a multi-output fusion returning both the dot's raw
// product and relu(product + b): the kernel writes both from VMEM
// (test/passes/hlo-to-tpu-dot-epilogue.mlir checks that nothing reads the
// product back); ragged M, K and N (24x200 x 200x136 on two MXUs).
// result2: the NHWC weight gradient JAX emits (f01b_i01o->01bf) with the
// SGD update w - 0.3 * grad as its epilogue, as in the CNN training step.
// result3: a depthwise NCHW convolution (a VPU kernel that takes no
// epilogue) plus a bias: it writes its result and the epilogue becomes a
// loop kernel after it (measured bit-exact).
// f32 operands are rounded to bf16 by the MXU: tolerance 2^-7 of the
// largest output (measured 2.2e-3, 2.2e-3, 2.0e-3, 0).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/multi.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/multi.tpu.mlir -o %t/multi.tpx
// RUN: tpuc-run %t/multi.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 4 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[24, 136]
// CHECK: result1: ok shape=[24, 136]
// CHECK: result2: ok shape=[3, 3, 3, 16]
// CHECK: result3: ok shape=[1, 8, 13, 150] max_abs=0 max_rel=0

func.func @main(%x: tensor<24x200xf32>, %w: tensor<200x136xf32>,
                %b: tensor<136xf32>, %img: tensor<8x16x16x3xf32>,
                %dy: tensor<8x16x16x16xf32>, %k: tensor<3x3x3x16xf32>,
                %dx: tensor<1x8x13x150xbf16>, %dk: tensor<8x1x3x3xbf16>,
                %db: tensor<150xbf16>)
    -> (tensor<24x136xf32>, tensor<24x136xf32>, tensor<3x3x3x16xf32>,
        tensor<1x8x13x150xbf16>) {
  %0:2 = hlo.fusion output(%x, %w, %b) : (tensor<24x200xf32>, tensor<200x136xf32>, tensor<136xf32>) -> (tensor<24x136xf32>, tensor<24x136xf32>) {
  ^bb0(%a0: tensor<24x200xf32>, %a1: tensor<200x136xf32>, %a2: tensor<136xf32>):
    %zero = hlo.constant dense<0.0> : tensor<24x136xf32>
    %d = hlo.dot_general %a0, %a1, dims = <lhs_contracting = [1], rhs_contracting = [0]>
        : (tensor<24x200xf32>, tensor<200x136xf32>) -> tensor<24x136xf32>
    %bb = hlo.broadcast_in_dim %a2, dims = [1] : (tensor<136xf32>) -> tensor<24x136xf32>
    %s = hlo.add %d, %bb : tensor<24x136xf32>
    %r = hlo.maximum %s, %zero : tensor<24x136xf32>
    hlo.return %d, %r : tensor<24x136xf32>, tensor<24x136xf32>
  }
  %1 = hlo.fusion output(%img, %dy, %k) : (tensor<8x16x16x3xf32>, tensor<8x16x16x16xf32>, tensor<3x3x3x16xf32>) -> tensor<3x3x3x16xf32> {
  ^bb0(%a0: tensor<8x16x16x3xf32>, %a1: tensor<8x16x16x16xf32>, %a2: tensor<3x3x3x16xf32>):
    %lr = hlo.constant dense<3.000000e-01> : tensor<3x3x3x16xf32>
    %g = hlo.convolution %a0, %a1, dim_labels = <"f01b_i01o->01bf"> {padding = array<i64: 1, 1, 1, 1>}
        : (tensor<8x16x16x3xf32>, tensor<8x16x16x16xf32>) -> tensor<3x3x3x16xf32>
    %m = hlo.multiply %g, %lr : tensor<3x3x3x16xf32>
    %u = hlo.subtract %a2, %m : tensor<3x3x3x16xf32>
    hlo.return %u : tensor<3x3x3x16xf32>
  }
  %2 = hlo.fusion output(%dx, %dk, %db) : (tensor<1x8x13x150xbf16>, tensor<8x1x3x3xbf16>, tensor<150xbf16>) -> tensor<1x8x13x150xbf16> {
  ^bb0(%a0: tensor<1x8x13x150xbf16>, %a1: tensor<8x1x3x3xbf16>, %a2: tensor<150xbf16>):
    %c = hlo.convolution %a0, %a1, dim_labels = <"bf01_oi01->bf01"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 8 : i64}
        : (tensor<1x8x13x150xbf16>, tensor<8x1x3x3xbf16>) -> tensor<1x8x13x150xbf16>
    %bb = hlo.broadcast_in_dim %a2, dims = [3] : (tensor<150xbf16>) -> tensor<1x8x13x150xbf16>
    %s = hlo.add %c, %bb : tensor<1x8x13x150xbf16>
    hlo.return %s : tensor<1x8x13x150xbf16>
  }
  return %0#0, %0#1, %1, %2 : tensor<24x136xf32>, tensor<24x136xf32>, tensor<3x3x3x16xf32>, tensor<1x8x13x150xbf16>
}
