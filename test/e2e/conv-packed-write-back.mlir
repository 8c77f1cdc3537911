// The packed-window kernel (resnet50's stem shape: 7x7/2, 3 -> 64) with an
// epilogue over several blocks (batch 4, one block per image): block b's
// write-back DMAs, from the epilogue's staging, are waited for only before
// block b + 1's epilogue reuses the staging (packedBlocks), so they run
// while the MXUs compute the next block, and go between the next block's
// LHS DMA waves. Against the interpreter's f32:
// DEFAULT is one bf16 MXU pass, tolerance 2^-7 of the largest output.
// mixed_bfloat16 against the interpreted program after the precision
// passes: 2^-10 (the packed kernel sums its K = 147 products in two f32
// MXU passes, in another order than the interpreter: max_rel 4.1e-4 here,
// the same before the waits moved; the results are bit-identical to the
// kernel's that drained each write-back at once, checked when written).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 1 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[4, 32, 32, 64]
// RUN: tpuc compile %s --precision=mixed_bfloat16 --dump-dir=%t/dump -o %t/bf16.tpx
// RUN: tpuc-run %t/bf16.tpx --random-inputs=3 --output-dir=%t/got-bf16
// RUN: tpuc interpret %t/dump/00-hlo.mlir --random-inputs=3 --output-dir=%t/want-bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/got-bf16 %t/want-bf16 1 0.0009765625 | FileCheck %s
// The packed mode (LHS DMAs VMEM to VMEM); block 0's write-back DMAs are
// followed by block 2's matmuls, not by a wait on their semaphore (2).
// RUN: tpuc translate --executable-to-text %t/f32.tpx | FileCheck %s --check-prefix=ORDER
// ORDER: VMEM->VMEM
// ORDER: VMEM->HBM
// ORDER-NOT: SEM_WAIT 2,
// ORDER: MXU_MATMUL
// ORDER: SEM_WAIT 2, 32
// With an f32 root, block b - 1's write-back goes in chunks of rows
// between block b + 1's LHS DMA waves (each wave waits for the one before
// on the same pages; the write DMAs fill the DMA engine meanwhile).
// RUN: tpuc translate --executable-to-text %t/f32.tpx | FileCheck %s --check-prefix=WAVES
// WAVES: VMEM->HBM
// WAVES: VMEM->VMEM
// WAVES: VMEM->HBM
// WAVES: VMEM->VMEM
// WAVES: VMEM->HBM

func.func @main(%x: tensor<4x64x64x3xf32>, %w: tensor<7x7x3x64xf32>,
                %b: tensor<64xf32>) -> tensor<4x32x32x64xf32> {
  %c = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>}
       : (tensor<4x64x64x3xf32>, tensor<7x7x3x64xf32>) -> tensor<4x32x32x64xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [3] : (tensor<64xf32>) -> tensor<4x32x32x64xf32>
  %s = hlo.add %c, %bb : tensor<4x32x32x64xf32>
  %zz = hlo.constant dense<0.0> : tensor<4x32x32x64xf32>
  %relu = hlo.maximum %s, %zz : tensor<4x32x32x64xf32>
  return %relu : tensor<4x32x32x64xf32>
}
