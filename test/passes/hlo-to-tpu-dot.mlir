// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu | FileCheck %s

// dot_general on the MXUs (Dot.cpp, Mxu.cpp): bf16 16x384 x 384x256. The
// two 128-column weight tiles go to the two MXUs of tpu-v3; K = 384 in
// three steps, each step's LHS and weight DMAs issued before the previous
// step waits for its own (double buffering, the next step always queued);
// later steps accumulate; the f32
// result leaves VMEM by one strided DMA per MXU.
// CHECK-LABEL: func.func @main
// CHECK: %[[OUT:.+]] = tpu.alloc {{.*}}memref<16x256xf32
// CHECK: tpu.dma %arg0{{.*}} chunks = 2 chunk_bytes = 2048 src_stride = 6144 dst_stride = 2048 sem = 0
// CHECK: tpu.dma %arg1{{.*}} chunks = 16 chunk_bytes = 2048 src_stride = 4096 dst_stride = 2048 sem = 1
// CHECK: tpu.dma %arg1{{.*}} sem = 1
// CHECK: tpu.dma %arg0
// CHECK: tpu.sem_wait 0, 1
// CHECK-NEXT: tpu.sem_wait 1, 2
// CHECK: tpu.mxu_load_weights {{.+}} mxu = 0
// CHECK: tpu.mxu_matmul {{.+}} mxu = 0 rows = 16 :
// CHECK: tpu.mxu_load_weights {{.+}} mxu = 1
// CHECK: tpu.mxu_matmul {{.+}} mxu = 1 rows = 16 :
// CHECK-COUNT-2: tpu.mxu_matmul {{.+}} rows = 16 accumulate
// CHECK-COUNT-2: tpu.mxu_matmul {{.+}} rows = 16 accumulate
// CHECK-NOT: tpu.mxu_matmul
// CHECK: tpu.dma %{{.+}} -> %[[OUT]]{{.*}} chunks = 2 chunk_bytes = 4096 src_stride = 4096 dst_stride = 8192 sem = 2
// CHECK: tpu.dma %{{.+}} -> %[[OUT]]{{.*}} sem = 2
// CHECK-NEXT: tpu.sem_wait 2, 2
// CHECK: return %[[OUT]]
func.func @main(%arg0: tensor<16x384xbf16>, %arg1: tensor<384x256xbf16>) -> (tensor<16x256xf32>) {
  %0 = hlo.dot_general %arg0, %arg1, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<16x384xbf16>, tensor<384x256xbf16>) -> tensor<16x256xf32>
  return %0 : tensor<16x256xf32>
}

