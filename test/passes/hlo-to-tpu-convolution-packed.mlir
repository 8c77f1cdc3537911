// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu | FileCheck %s

// resnet50's stem (7x7 stride 2, C_in = 3, C_out = 64, the input already
// padded to 230x230) in the packed-window mode of the MXU kernel
// (Convolution.cpp, docs/codegen.md "convolution"): 6 kernel rows of 7
// positions x 3 features share a 128-lane LHS block, so the 49 window
// positions take 2 MXU steps per block of 28 output rows instead of 49.
// The 4 blocks are pipelined (packedBlocks): halo, LHS and panels in two
// slots.
// CHECK-LABEL: func.func @stem
// The compact halos of blocks 0 and 1 (61 input rows each): per input row,
// the 230 pixels' 3 f32 features, out of 128-lane rows (512 bytes) of the
// T(8,128) input; fetched before the weights.
// CHECK: tpu.dma %arg0{{.*}} chunks = 230 chunk_bytes = 12 src_stride = 512 dst_stride = 12 sem = 0
// CHECK: tpu.dma %arg0{{.*}} chunks = 230 chunk_bytes = 12 src_stride = 512 dst_stride = 12 sem = 0
// The weights: one DMA per kernel row (7 positions of 3 f32 rows, 1536
// bytes, one 8x128 kernel tile apart) into the packed staging rows, the
// even kernel rows first (kernel row 2 at 2 x 7 x 4096 bytes, row 1 fifth).
// CHECK: tpu.dma %arg1[%c0{{.*}} chunks = 7 chunk_bytes = 1536 src_stride = 4096 dst_stride = 1536 sem = 1
// CHECK: tpu.dma %arg1[%c57344{{.*}} chunks = 7 chunk_bytes = 1536
// CHECK-COUNT-2: tpu.dma %arg1{{.*}} chunks = 7 chunk_bytes = 1536
// CHECK: tpu.dma %arg1[%c28672{{.*}} chunks = 7 chunk_bytes = 1536
// CHECK-COUNT-2: tpu.dma %arg1{{.*}} chunks = 7 chunk_bytes = 1536
// CHECK: tpu.sem_wait 1, 7
// CHECK: tpu.sem_wait 0, 61
// Block 0's LHS, both steps: per kernel row and output row, 112 output
// pixels of 7 positions x 3 bf16 features (42 bytes), 2 pixels (12 bytes)
// apart in the compact halo, one 256-byte LHS row apart.
// CHECK-COUNT-7: chunks = 112 chunk_bytes = 42 src_stride = 12 dst_stride = 256 sem = 4
// Block 0's steps (step 0: kernel rows 0..5, 6 x 28 DMAs).
// CHECK: tpu.sem_wait 4, 168
// CHECK: tpu.mxu_matmul {{.+}} mxu = 0 rows = 1568 :
// CHECK: tpu.mxu_matmul {{.+}} mxu = 1 rows = 1568 :
// CHECK: tpu.sem_wait 4, 28
// CHECK: tpu.mxu_matmul {{.+}} mxu = 0 rows = 1568 accumulate
// CHECK: tpu.mxu_matmul {{.+}} mxu = 1 rows = 1568 accumulate
// Then block 1's halo and LHS while the MXUs work, before block 2's halo.
// CHECK: tpu.sem_wait 0, 61
// CHECK-COUNT-7: chunks = 112 chunk_bytes = 42 src_stride = 12 dst_stride = 256 sem = 4
// CHECK: tpu.dma %arg0{{.*}} chunks = 230 chunk_bytes = 12 src_stride = 512 dst_stride = 12 sem = 0
// CHECK: return
func.func @stem(%x: tensor<1x230x230x3xf32>, %w: tensor<7x7x3x64xf32>) -> tensor<1x112x112x64xf32> {
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>}
       : (tensor<1x230x230x3xf32>, tensor<7x7x3x64xf32>) -> tensor<1x112x112x64xf32>
  return %0 : tensor<1x112x112x64xf32>
}
