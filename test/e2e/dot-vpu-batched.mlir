// Batched dots of tiny matrices (M, K, N <= 16) on the VPU with the batch
// on the lanes and sublanes (docs/codegen.md, "Small batched dots on the
// VPU"), against the reference interpreter. The kernel sums each output in
// the interpreter's order (k = 0..K-1 from +0, f32 products and sums) and
// rounds a bf16 result once; at DEFAULT precision it first rounds f32
// operands to bf16, as the MXU's one pass does.
// result0: dlrm's interaction [3616,6,8] x [3616,8,6] (four blocks of 1024,
// the last ragged); result1: [300,16,16] x [300,16,16] (one ragged block,
// the largest M, K, N); result2: the batch in the middle of the lhs and the
// contracting dim first ([3,2048,7] x [2048,5,3] -> [2048,7,5], two full
// blocks); result3: bf16 x bf16 -> bf16 over five blocks, N = 1; result4:
// a bf16 lhs times an f32 rhs read as [B,N,K]; result5: one batch element;
// result6: dlrm's x . x^T converted to bf16 (tpuc-strength-reduce-dots
// folds the convert: the kernel rounds its f32 sums once).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc interpret %s --random-inputs=4 --output-dir=%t/want
// DEFAULT: the f32 operands' bf16 rounding (2^-9 each), tolerance 2^-7 of
// the largest output (measured 2.6e-3); the bf16 operands are exact.
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=4 --output-dir=%t/got
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 7 0.0078125 | FileCheck %s
// RUN: cmp %t/got/result3.npy %t/want/result3.npy
// CHECK: result0: ok shape=[3616, 6, 6]
// CHECK: result1: ok shape=[300, 16, 16]
// CHECK: result2: ok shape=[2048, 7, 5]
// CHECK: result3: ok shape=[5000, 2, 1]
// CHECK: result4: ok shape=[300, 4, 12]
// CHECK: result5: ok shape=[1, 3, 2]
// CHECK: result6: ok shape=[3616, 6, 6]
// HIGHEST: every result bit-identical.
// RUN: tpuc compile %s --dot-precision=highest -o %t/highest.tpx
// RUN: tpuc-run %t/highest.tpx --random-inputs=4 --output-dir=%t/got-highest
// RUN: cmp %t/got-highest/result0.npy %t/want/result0.npy
// RUN: cmp %t/got-highest/result1.npy %t/want/result1.npy
// RUN: cmp %t/got-highest/result2.npy %t/want/result2.npy
// RUN: cmp %t/got-highest/result3.npy %t/want/result3.npy
// RUN: cmp %t/got-highest/result4.npy %t/want/result4.npy
// RUN: cmp %t/got-highest/result5.npy %t/want/result5.npy
// RUN: cmp %t/got-highest/result6.npy %t/want/result6.npy
// mixed_bfloat16: the dots read the f32 values their converts read
// (tpuc-split-convolution-precision) and round them the same way, so the
// results are those of the program after the precision passes, bit for
// bit, but result4, whose f32 rhs the policy leaves f32 (rounded by the
// kernel at DEFAULT as by the MXU).
// RUN: tpuc compile %s -o %t/bf16.tpx --precision=mixed_bfloat16 --dump-dir=%t/dump
// RUN: tpuc-run %t/bf16.tpx --random-inputs=4 --output-dir=%t/got-bf16
// RUN: tpuc interpret %t/dump/00-hlo.mlir --random-inputs=4 --output-dir=%t/want-bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/got-bf16 %t/want-bf16 7 0.0078125 | FileCheck %s
// RUN: cmp %t/got-bf16/result0.npy %t/want-bf16/result0.npy
// RUN: cmp %t/got-bf16/result1.npy %t/want-bf16/result1.npy
// RUN: cmp %t/got-bf16/result2.npy %t/want-bf16/result2.npy
// RUN: cmp %t/got-bf16/result3.npy %t/want-bf16/result3.npy
// RUN: cmp %t/got-bf16/result5.npy %t/want-bf16/result5.npy
// RUN: cmp %t/got-bf16/result6.npy %t/want-bf16/result6.npy
// The kernel's shape: per block, one DMA of 1024 element chunks per matrix
// element (the batch pitch of dlrm's [3616,6,8] is one 4 KiB tile), VPU
// multiply-adds, no MXU and no broadcast of the operands.
// RUN: tpuc compile %s --emit=tpu -o - | FileCheck %s --check-prefix=TPU
// TPU: tpu.dma {{.*}} chunks = 1024 chunk_bytes = 4 src_stride = 4096 dst_stride = 4 sem = 0 : memref<3616x6x8xf32
// TPU: tpu.vmul
// TPU: tpu.vadd
// TPU: tpu.dma {{.*}} chunks = 544 chunk_bytes = 4 src_stride = 4 dst_stride = 4096 sem = 2 : {{.*}} -> memref<3616x6x6xf32
// TPU: tpu.dma {{.*}} chunk_bytes = 2 src_stride = 2 dst_stride = 2048 sem = 2 : {{.*}} -> memref<3616x6x6xbf16
// TPU-NOT: tpu.mxu_matmul

func.func @main(%x: tensor<3616x6x8xf32>, %y: tensor<3616x8x6xf32>,
                %p: tensor<300x16x16xf32>, %q: tensor<300x16x16xf32>,
                %a: tensor<3x2048x7xf32>, %b: tensor<2048x5x3xf32>,
                %u: tensor<5000x2x9xbf16>, %v: tensor<5000x9x1xbf16>,
                %g: tensor<300x4x5xbf16>, %h: tensor<300x12x5xf32>,
                %s: tensor<1x3x4xf32>, %t: tensor<1x4x2xf32>)
    -> (tensor<3616x6x6xf32>, tensor<300x16x16xf32>, tensor<2048x7x5xf32>,
        tensor<5000x2x1xbf16>, tensor<300x4x12xf32>, tensor<1x3x2xf32>,
        tensor<3616x6x6xbf16>) {
  %r0 = hlo.dot_general %x, %y, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
      : (tensor<3616x6x8xf32>, tensor<3616x8x6xf32>) -> tensor<3616x6x6xf32>
  %r1 = hlo.dot_general %p, %q, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
      : (tensor<300x16x16xf32>, tensor<300x16x16xf32>) -> tensor<300x16x16xf32>
  %r2 = hlo.dot_general %a, %b, dims = <lhs_batch = [1], rhs_batch = [0], lhs_contracting = [0], rhs_contracting = [2]>
      : (tensor<3x2048x7xf32>, tensor<2048x5x3xf32>) -> tensor<2048x7x5xf32>
  %r3 = hlo.dot_general %u, %v, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
      : (tensor<5000x2x9xbf16>, tensor<5000x9x1xbf16>) -> tensor<5000x2x1xbf16>
  %r4 = hlo.dot_general %g, %h, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [2]>
      : (tensor<300x4x5xbf16>, tensor<300x12x5xf32>) -> tensor<300x4x12xf32>
  %r5 = hlo.dot_general %s, %t, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
      : (tensor<1x3x4xf32>, tensor<1x4x2xf32>) -> tensor<1x3x2xf32>
  %d6 = hlo.dot_general %x, %x, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [2]>
      : (tensor<3616x6x8xf32>, tensor<3616x6x8xf32>) -> tensor<3616x6x6xf32>
  %r6 = hlo.convert %d6 : (tensor<3616x6x6xf32>) -> tensor<3616x6x6xbf16>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : tensor<3616x6x6xf32>, tensor<300x16x16xf32>, tensor<2048x7x5xf32>, tensor<5000x2x1xbf16>, tensor<300x4x12xf32>, tensor<1x3x2xf32>, tensor<3616x6x6xbf16>
}
