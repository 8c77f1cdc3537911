// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu | FileCheck %s

// A 3x3 convolution on the MXUs (Convolution.cpp): the padded input rows
// are DMA'd in, the 9 taps' 128x128 weight tiles stream into VMEM behind
// them; the input's ragged edges are masked (lane ids compared with the
// valid width);
// each tap is one matmul per MXU (64 rows: 8x8 output pixels), the first
// tap writes, the other 8 accumulate; the result tiles go back to HBM.
// CHECK-LABEL: func.func @main
// CHECK: %[[OUT:.+]] = tpu.alloc {{.*}}memref<1x8x8x128xf32
// CHECK: tpu.dma %arg0
// CHECK: tpu.dma %arg1{{.*}} chunks = 16 chunk_bytes = 4096
// CHECK: tpu.vcmp lt
// CHECK: tpu.vsel
// CHECK: tpu.mxu_load_weights {{.+}} mxu = 0
// CHECK: tpu.mxu_matmul {{.+}} mxu = 0 rows = 64 :
// CHECK: tpu.mxu_load_weights {{.+}} mxu = 1
// CHECK: tpu.mxu_matmul {{.+}} mxu = 1 rows = 64 :
// CHECK: tpu.loop %{{.+}} = 0 to %[[TAPS:.+]] {
// CHECK: tpu.mxu_matmul {{.+}} mxu = 0 rows = 64 accumulate
// CHECK: tpu.mxu_matmul {{.+}} mxu = 1 rows = 64 accumulate
// CHECK: tpu.dma %{{.+}} -> %[[OUT]]
// CHECK: tpu.sem_wait 2, 8
// CHECK: return %[[OUT]]
func.func @main(%arg0: tensor<1x8x8x128xf32>, %arg1: tensor<3x3x128x128xf32>) -> (tensor<1x8x8x128xf32>) {
  %0 = hlo.convolution %arg0, %arg1, dim_labels = <"b01f_01io->b01f"> {lhs_dilation = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>} : (tensor<1x8x8x128xf32>, tensor<3x3x128x128xf32>) -> tensor<1x8x8x128xf32>
  return %0 : tensor<1x8x8x128xf32>
}

