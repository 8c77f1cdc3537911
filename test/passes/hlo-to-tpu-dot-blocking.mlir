// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu | FileCheck %s

// The dot kernel's blocking (Dot.cpp, DotKernel::chooseBlocking): f32
// [2048,1024] x [1024,4096] on tpu-v3 (16 MiB VMEM, 12 MiB for the kernel).
// Each job keeps a 1024 x 1024 block of C (8 N tiles, 4 per MXU) in VMEM
// over the whole K: 2 M panels x 4 column groups = 8 jobs, so A is read 4
// times and B twice (64 MiB with C's 32 MiB: tpuc-run's hbm_bytes
// 100,663,296, test/e2e/dot-blocking.mlir). One N tile per MXU and a
// 2048-row panel read A 16 times and B once (176 MiB): a panel of 256 row
// tiles, two weight DMAs a step and 16 column groups would fail here.
// CHECK-LABEL: func.func @main
// The first step's fetch: the LHS panel's first K block (128 row tiles,
// 1024 rows), then the 8 weight tiles of the first column group.
// CHECK: tpu.dma %arg0{{.*}} chunks = 128 chunk_bytes = 4096 src_stride = 32768 dst_stride = 4096 sem = 0
// CHECK-COUNT-8: tpu.dma %arg1{{.*}} chunks = 16 chunk_bytes = 4096 src_stride = 131072 dst_stride = 4096 sem = 1
// CHECK-NOT: tpu.dma %arg1
// CHECK: tpu.loop %{{.+}} = 0 to %c8 {
// A step prefetches the next step's LHS block and 8 weight tiles, waits
// for its own, then loads the 8 weight tiles alternately into the two MXUs,
// each streaming the panel's 1024 rows.
// CHECK: tpu.dma %arg0{{.*}} chunks = 128
// CHECK-COUNT-8: tpu.dma %arg1{{.*}} chunks = 16
// CHECK-NOT: tpu.dma %arg1
// CHECK: tpu.sem_wait 0, 1
// CHECK-NEXT: tpu.sem_wait 1, 8
// CHECK: tpu.mxu_load_weights {{.+}} mxu = 0
// CHECK: tpu.mxu_matmul {{.+}} mxu = 0 rows = 1024 :
// CHECK: tpu.mxu_load_weights {{.+}} mxu = 1
// CHECK: tpu.mxu_matmul {{.+}} mxu = 1 rows = 1024 :
// CHECK-COUNT-6: tpu.mxu_matmul {{.+}} rows = 1024 :
// CHECK-NOT: tpu.mxu_matmul {{.+}} rows = 1024 :
// CHECK: tpu.sem_wait 0, 1
// CHECK-NEXT: tpu.sem_wait 1, 8
func.func @main(%arg0: tensor<2048x1024xf32>, %arg1: tensor<1024x4096xf32>) -> (tensor<2048x4096xf32>) {
  %0 = hlo.dot_general %arg0, %arg1, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<2048x1024xf32>, tensor<1024x4096xf32>) -> tensor<2048x4096xf32>
  return %0 : tensor<2048x4096xf32>
}
