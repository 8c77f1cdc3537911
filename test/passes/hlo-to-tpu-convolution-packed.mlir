// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu | FileCheck %s

// resnet50's stem (7x7 stride 2, C_in = 3, C_out = 64, the input already
// padded to 230x230) in the packed-window mode of the MXU kernel
// (Convolution.cpp, docs/codegen.md "convolution"): 6 kernel rows of 7
// positions x 3 features share a 128-lane LHS block, so the 49 window
// positions take 2 MXU steps per block of 56 output rows instead of 49.
// CHECK-LABEL: func.func @stem
// The weights: one DMA per kernel row (7 positions of 3 f32 rows, 1536
// bytes, one 8x128 kernel tile apart) into the packed staging rows.
// CHECK-COUNT-7: tpu.dma %arg1{{.*}} chunks = 7 chunk_bytes = 1536 src_stride = 4096 dst_stride = 1536 sem = 1
// CHECK: tpu.sem_wait 1, 7
// The compact halo: per input row, the 230 pixels' 3 f32 features, out of
// 128-lane rows (512 bytes) of the T(8,128) input.
// CHECK: tpu.dma %arg0{{.*}} chunks = 230 chunk_bytes = 12 src_stride = 512 dst_stride = 12 sem = 0
// CHECK: tpu.sem_wait 0, 117
// Step 0's LHS: per kernel row 0..5 and output row, 112 output pixels of
// 7 positions x 3 bf16 features (42 bytes), 2 pixels (12 bytes) apart in
// the compact halo, one 256-byte LHS row apart.
// CHECK-COUNT-6: chunks = 112 chunk_bytes = 42 src_stride = 12 dst_stride = 256 sem = 4
// CHECK: tpu.sem_wait 4, 336
// Step 1's LHS (kernel row 6) is DMAed while step 0 runs on both MXUs.
// CHECK: chunks = 112 chunk_bytes = 42 src_stride = 12 dst_stride = 256 sem = 4
// CHECK: tpu.mxu_matmul {{.+}} mxu = 0 rows = 3136 :
// CHECK: tpu.mxu_matmul {{.+}} mxu = 1 rows = 3136 :
// CHECK: tpu.sem_wait 4, 56
// CHECK: tpu.mxu_matmul {{.+}} mxu = 0 rows = 3136 accumulate
// CHECK: tpu.mxu_matmul {{.+}} mxu = 1 rows = 3136 accumulate
// CHECK-NOT: tpu.mxu_matmul
// CHECK: return
func.func @stem(%x: tensor<1x230x230x3xf32>, %w: tensor<7x7x3x64xf32>) -> tensor<1x112x112x64xf32> {
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>}
       : (tensor<1x230x230x3xf32>, tensor<7x7x3x64xf32>) -> tensor<1x112x112x64xf32>
  return %0 : tensor<1x112x112x64xf32>
}
