// Convolutions whose output fusion computes batch norm's per-channel scale
// and shift from its parameters (side cones: rsqrt(var^2 + eps) * gamma and
// beta - mean * scale, f32[C] each). The kernel issues the parameters'
// DMAs first, on their own semaphore (5), then its own first DMAs (the
// halo's, the first weights'), and only then waits for the parameters and
// computes the cones, while those DMAs run (EpilogueKernel::sourcesReady):
//   result0: batch 1, 3x3 SAME 64 -> 64 at 24x24 (direct, weights
//            streamed: the wait is in the halo's shadow)
//   result1: batch 1, 7x7/2 SAME 3 -> 64 at 32x32 (packed window
//            positions, the stem's shape)
//   result2: batch 2, 3x3 SAME 32 -> 96 at 10x10 (blocks, weights
//            resident)
// Against the interpreter's f32: DEFAULT is one bf16 MXU pass, tolerance
// 2^-7 of the largest output. mixed_bfloat16 against the interpreted
// program after the precision passes: bit-identical.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=7 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 3 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[1, 24, 24, 64]
// CHECK: result1: ok shape=[1, 16, 16, 64]
// CHECK: result2: ok shape=[2, 10, 10, 96]
// RUN: tpuc compile %s --precision=mixed_bfloat16 --dump-dir=%t/dump -o %t/bf16.tpx
// RUN: tpuc-run %t/bf16.tpx --random-inputs=7 --output-dir=%t/got-bf16
// RUN: tpuc interpret %t/dump/00-hlo.mlir --random-inputs=7 --output-dir=%t/want-bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/got-bf16 %t/want-bf16 3 0 | FileCheck %s --check-prefix=EXACT
// EXACT: result0: ok {{.*}} max_abs=0 max_rel=0
// EXACT: result1: ok {{.*}} max_abs=0 max_rel=0
// EXACT: result2: ok {{.*}} max_abs=0 max_rel=0
// The order in the executable (kernels: result2's, result1's, result0's):
// RUN: tpuc translate --executable-to-text %t/f32.tpx | FileCheck %s --check-prefix=ORDER
// Blocks: the halo's zeroing before the wait.
// ORDER: DMA {{.*}}, 5, HBM->VMEM
// ORDER-NOT: SEM_WAIT
// ORDER: VST
// ORDER-NOT: VRSQRT
// ORDER: SEM_WAIT 5, 4
// ORDER: VRSQRT
// Packed: the first halos' DMAs (semaphore 0) before the wait.
// ORDER: DMA {{.*}}, 5, HBM->VMEM
// ORDER-NOT: SEM_WAIT
// ORDER: DMA {{.*}}, 0, HBM->VMEM
// ORDER-NOT: SEM_WAIT
// ORDER: SEM_WAIT 5, 4
// ORDER: VRSQRT
// Streamed: the halo's (0) and first weights' (1) DMAs before the wait,
// the cones before the wait for the halo's first piece.
// ORDER: DMA {{.*}}, 5, HBM->VMEM
// ORDER-NOT: SEM_WAIT
// ORDER: DMA {{.*}}, 0, HBM->VMEM
// ORDER-NOT: SEM_WAIT
// ORDER: DMA {{.*}}, 1, HBM->VMEM
// ORDER-NOT: SEM_WAIT
// ORDER: SEM_WAIT 5, 4
// ORDER-NOT: SEM_WAIT
// ORDER: VRSQRT
// ORDER: SEM_WAIT 0, 1

func.func @main(%x: tensor<1x24x24x64xf32>, %k: tensor<3x3x64x64xf32>,
                %mean: tensor<64xf32>, %var: tensor<64xf32>,
                %gamma: tensor<64xf32>, %beta: tensor<64xf32>,
                %img: tensor<1x32x32x3xf32>, %k7: tensor<7x7x3x64xf32>,
                %mean1: tensor<64xf32>, %var1: tensor<64xf32>,
                %gamma1: tensor<64xf32>, %beta1: tensor<64xf32>,
                %y: tensor<2x10x10x32xf32>, %k3: tensor<3x3x32x96xf32>,
                %mean2: tensor<96xf32>, %var2: tensor<96xf32>,
                %gamma2: tensor<96xf32>, %beta2: tensor<96xf32>)
    -> (tensor<1x24x24x64xf32>, tensor<1x16x16x64xf32>, tensor<2x10x10x96xf32>) {
  %c0 = hlo.convolution %x, %k, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
      : (tensor<1x24x24x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x24x24x64xf32>
  %m4_0 = hlo.reshape %mean : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
  %v4_0 = hlo.reshape %var : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
  %eps_0 = hlo.constant dense<1.0e-3> : tensor<1x1x1x64xf32>
  %vv_0 = hlo.multiply %v4_0, %v4_0 : tensor<1x1x1x64xf32>
  %ve_0 = hlo.add %vv_0, %eps_0 : tensor<1x1x1x64xf32>
  %rs_0 = hlo.rsqrt %ve_0 : tensor<1x1x1x64xf32>
  %g4_0 = hlo.reshape %gamma : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
  %sc_0 = hlo.multiply %rs_0, %g4_0 : tensor<1x1x1x64xf32>
  %sc2_0 = hlo.reshape %sc_0 : (tensor<1x1x1x64xf32>) -> tensor<1x64xf32>
  %scb_0 = hlo.broadcast_in_dim %sc2_0, dims = [0, 3] : (tensor<1x64xf32>) -> tensor<1x24x24x64xf32>
  %y_0 = hlo.multiply %c0, %scb_0 : tensor<1x24x24x64xf32>
  %nm_0 = hlo.negate %m4_0 : tensor<1x1x1x64xf32>
  %t1_0 = hlo.multiply %nm_0, %sc_0 : tensor<1x1x1x64xf32>
  %b4_0 = hlo.reshape %beta : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
  %sh_0 = hlo.add %t1_0, %b4_0 : tensor<1x1x1x64xf32>
  %sh2_0 = hlo.reshape %sh_0 : (tensor<1x1x1x64xf32>) -> tensor<1x64xf32>
  %shb_0 = hlo.broadcast_in_dim %sh2_0, dims = [0, 3] : (tensor<1x64xf32>) -> tensor<1x24x24x64xf32>
  %z_0 = hlo.add %y_0, %shb_0 : tensor<1x24x24x64xf32>
  %zero_0 = hlo.constant dense<0.0> : tensor<1x24x24x64xf32>
  %r0 = hlo.maximum %z_0, %zero_0 : tensor<1x24x24x64xf32>
  %c1 = hlo.convolution %img, %k7, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>}
      : (tensor<1x32x32x3xf32>, tensor<7x7x3x64xf32>) -> tensor<1x16x16x64xf32>
  %m4_1 = hlo.reshape %mean1 : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
  %v4_1 = hlo.reshape %var1 : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
  %eps_1 = hlo.constant dense<1.0e-3> : tensor<1x1x1x64xf32>
  %vv_1 = hlo.multiply %v4_1, %v4_1 : tensor<1x1x1x64xf32>
  %ve_1 = hlo.add %vv_1, %eps_1 : tensor<1x1x1x64xf32>
  %rs_1 = hlo.rsqrt %ve_1 : tensor<1x1x1x64xf32>
  %g4_1 = hlo.reshape %gamma1 : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
  %sc_1 = hlo.multiply %rs_1, %g4_1 : tensor<1x1x1x64xf32>
  %sc2_1 = hlo.reshape %sc_1 : (tensor<1x1x1x64xf32>) -> tensor<1x64xf32>
  %scb_1 = hlo.broadcast_in_dim %sc2_1, dims = [0, 3] : (tensor<1x64xf32>) -> tensor<1x16x16x64xf32>
  %y_1 = hlo.multiply %c1, %scb_1 : tensor<1x16x16x64xf32>
  %nm_1 = hlo.negate %m4_1 : tensor<1x1x1x64xf32>
  %t1_1 = hlo.multiply %nm_1, %sc_1 : tensor<1x1x1x64xf32>
  %b4_1 = hlo.reshape %beta1 : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
  %sh_1 = hlo.add %t1_1, %b4_1 : tensor<1x1x1x64xf32>
  %sh2_1 = hlo.reshape %sh_1 : (tensor<1x1x1x64xf32>) -> tensor<1x64xf32>
  %shb_1 = hlo.broadcast_in_dim %sh2_1, dims = [0, 3] : (tensor<1x64xf32>) -> tensor<1x16x16x64xf32>
  %z_1 = hlo.add %y_1, %shb_1 : tensor<1x16x16x64xf32>
  %zero_1 = hlo.constant dense<0.0> : tensor<1x16x16x64xf32>
  %r1 = hlo.maximum %z_1, %zero_1 : tensor<1x16x16x64xf32>
  %c2 = hlo.convolution %y, %k3, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
      : (tensor<2x10x10x32xf32>, tensor<3x3x32x96xf32>) -> tensor<2x10x10x96xf32>
  %m4_2 = hlo.reshape %mean2 : (tensor<96xf32>) -> tensor<1x1x1x96xf32>
  %v4_2 = hlo.reshape %var2 : (tensor<96xf32>) -> tensor<1x1x1x96xf32>
  %eps_2 = hlo.constant dense<1.0e-3> : tensor<1x1x1x96xf32>
  %vv_2 = hlo.multiply %v4_2, %v4_2 : tensor<1x1x1x96xf32>
  %ve_2 = hlo.add %vv_2, %eps_2 : tensor<1x1x1x96xf32>
  %rs_2 = hlo.rsqrt %ve_2 : tensor<1x1x1x96xf32>
  %g4_2 = hlo.reshape %gamma2 : (tensor<96xf32>) -> tensor<1x1x1x96xf32>
  %sc_2 = hlo.multiply %rs_2, %g4_2 : tensor<1x1x1x96xf32>
  %sc2_2 = hlo.reshape %sc_2 : (tensor<1x1x1x96xf32>) -> tensor<1x96xf32>
  %scb_2 = hlo.broadcast_in_dim %sc2_2, dims = [0, 3] : (tensor<1x96xf32>) -> tensor<2x10x10x96xf32>
  %y_2 = hlo.multiply %c2, %scb_2 : tensor<2x10x10x96xf32>
  %nm_2 = hlo.negate %m4_2 : tensor<1x1x1x96xf32>
  %t1_2 = hlo.multiply %nm_2, %sc_2 : tensor<1x1x1x96xf32>
  %b4_2 = hlo.reshape %beta2 : (tensor<96xf32>) -> tensor<1x1x1x96xf32>
  %sh_2 = hlo.add %t1_2, %b4_2 : tensor<1x1x1x96xf32>
  %sh2_2 = hlo.reshape %sh_2 : (tensor<1x1x1x96xf32>) -> tensor<1x96xf32>
  %shb_2 = hlo.broadcast_in_dim %sh2_2, dims = [0, 3] : (tensor<1x96xf32>) -> tensor<2x10x10x96xf32>
  %z_2 = hlo.add %y_2, %shb_2 : tensor<2x10x10x96xf32>
  %zero_2 = hlo.constant dense<0.0> : tensor<2x10x10x96xf32>
  %r2 = hlo.maximum %z_2, %zero_2 : tensor<2x10x10x96xf32>
  return %r0, %r1, %r2 : tensor<1x24x24x64xf32>, tensor<1x16x16x64xf32>, tensor<2x10x10x96xf32>
}
