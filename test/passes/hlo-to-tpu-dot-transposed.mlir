// RUN: tpuc-opt %s --split-input-file --tpuc-decompose-dots --tpuc-convert-hlo-to-tpu | FileCheck %s --implicit-check-not=tpu.alloc

// The MLP step's input gradient dy . W2^T (examples/mlp_train_step.hlo,
// dot_general.73: K = 10, W2 f32[128,10] contracted on its minor dim). The
// kernel reads W2 as stored: one DMA of its 128x128 block (16 tiles of one
// column tile), one VTRANSPOSE, the K mask on the transposed rows, and the
// MXUs. No transpose kernel: no HBM buffer besides the result, no element
// DMAs.
// CHECK-LABEL: func.func @main
// CHECK-SAME: %[[W:[^:]+]]: memref<128x10xf32
// CHECK: %[[OUT:.+]] = tpu.alloc {{.*}}memref<256x128xf32{{.*}}hbm
// CHECK-COUNT-2: tpu.alloc {{.*}}vmem
// CHECK-NOT: chunk_bytes = 4 src_stride
// CHECK: tpu.dma %[[W]][{{.+}}] -> {{.*}} chunks = 16 chunk_bytes = 4096 src_stride = 4096 dst_stride = 4096 sem = 1
// CHECK-NOT: chunk_bytes = 4 src_stride
// CHECK: tpu.sem_wait 1, 1
// CHECK: tpu.vtranspose
// CHECK-COUNT-16: tpu.vsublane_id
// CHECK: tpu.mxu_load_weights
// CHECK-NOT: tpu.vtranspose
// CHECK: return %[[OUT]]
func.func @main(%dy: tensor<256x10xf32>, %w: tensor<128x10xf32>) -> tensor<256x128xf32> {
  %0 = hlo.dot_general %dy, %w, dims = <lhs_contracting = [1], rhs_contracting = [1]> : (tensor<256x10xf32>, tensor<128x10xf32>) -> tensor<256x128xf32>
  return %0 : tensor<256x128xf32>
}

// -----

// N = 256 (two 128-row blocks of W, one per MXU of tpu-v3), K = 129: two
// K steps (the second masked), each reading one 128x128 block per N tile
// (two DMAs, two VTRANSPOSEs per step). W is read in place: no padded
// copy, no HBM buffer besides the result.
// CHECK-LABEL: func.func @main
// CHECK-SAME: %[[W:[^:]+]]: memref<256x129xf32
// CHECK: %[[OUT:.+]] = tpu.alloc {{.*}}memref<20x256xf32{{.*}}hbm
// CHECK-COUNT-2: tpu.alloc {{.*}}vmem
// CHECK-COUNT-2: tpu.dma %[[W]][{{.+}}] -> {{.*}} chunks = 16 chunk_bytes = 4096 src_stride = 8192 dst_stride = 4096 sem = 1
// CHECK: tpu.sem_wait 1, 2
// CHECK-COUNT-2: tpu.vtranspose
// CHECK: tpu.mxu_load_weights
// CHECK: return %[[OUT]]
func.func @main(%dy: tensor<20x129xf32>, %w: tensor<256x129xf32>) -> tensor<20x256xf32> {
  %0 = hlo.dot_general %dy, %w, dims = <lhs_contracting = [1], rhs_contracting = [1]> : (tensor<20x129xf32>, tensor<256x129xf32>) -> tensor<20x256xf32>
  return %0 : tensor<20x256xf32>
}

// -----

// The MLP step's weight gradient h^T . dY (h f32[256,128] contracted on its
// major dim, M = 128 whole blocks): each of the two K steps reads one
// 128x128 block of h as stored (16 tiles of one column tile; step 0
// queues step 1's before it waits for its own), one VTRANSPOSE per step. No transpose kernel, no HBM buffer besides the
// result.
// CHECK-LABEL: func.func @main
// CHECK-SAME: %[[H:[^:]+]]: memref<256x128xf32
// CHECK: %[[OUT:.+]] = tpu.alloc {{.*}}memref<128x10xf32{{.*}}hbm
// CHECK-COUNT-2: tpu.alloc {{.*}}vmem
// CHECK-NOT: chunk_bytes = 4 src_stride
// CHECK: tpu.dma %[[H]][{{.+}}] -> {{.*}} chunks = 16 chunk_bytes = 4096 src_stride = 4096 dst_stride = 4096 sem = 0
// CHECK: tpu.dma %[[H]][{{.+}}] -> {{.*}} chunks = 16 chunk_bytes = 4096 src_stride = 4096 dst_stride = 4096 sem = 0
// CHECK: tpu.sem_wait 0, 1
// CHECK: tpu.vtranspose
// CHECK: tpu.mxu_matmul
// CHECK: tpu.vtranspose
// CHECK: tpu.mxu_matmul {{.+}} accumulate
// CHECK-NOT: tpu.vtranspose
// CHECK-NOT: chunk_bytes = 4 src_stride
// CHECK: return %[[OUT]]
func.func @main(%h: tensor<256x128xf32>, %dy: tensor<256x10xf32>) -> tensor<128x10xf32> {
  %0 = hlo.dot_general %h, %dy, dims = <lhs_contracting = [0], rhs_contracting = [0]> : (tensor<256x128xf32>, tensor<256x10xf32>) -> tensor<128x10xf32>
  return %0 : tensor<128x10xf32>
}
