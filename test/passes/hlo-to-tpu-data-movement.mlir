// RUN: tpuc-opt %s --split-input-file --tpuc-convert-hlo-to-tpu | FileCheck %s

// The data-movement kernels (DataMovement.cpp): a transpose goes through
// VMEM and the XLU (vtranspose of 16 vregs per 128x128 block); a slice,
// a concatenation and a pad's interior are HBM -> HBM DMAs of tile rows
// (512 bytes: one tile row of f32); the pad's border is a splat tile
// DMA'd with stride 0; a row broadcast reads 8 elements per tile with a
// strided load and broadcasts across lanes.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.+]]: memref<16x256xf32, #tpu.tiled<{1,0:T(8,128)}>, #tpu.memory_space<hbm>>, %[[Y:[^:]+]]: memref<16x128xf32, {{.+}}>, %[[V:[^:]+]]: memref<16xf32, #tpu.tiled<{0:T(1024)}>, #tpu.memory_space<hbm>>)
// CHECK: %[[T:.+]] = tpu.alloc {{.*}}memref<256x16xf32
// CHECK: %[[S:.+]] = tpu.alloc {{.*}}memref<8x128xf32
// CHECK: %[[C:.+]] = tpu.alloc {{.*}}memref<16x384xf32
// CHECK: %[[P:.+]] = tpu.alloc {{.*}}memref<24x128xf32
// CHECK: %[[B:.+]] = tpu.alloc {{.*}}memref<16x128xf32
// Transpose: two 128-column blocks, each 16 vregs through the XLU.
// CHECK: tpu.loop %{{.+}} = 0 to %{{.+}} {
// CHECK: tpu.dma %[[X]]{{.*}} chunks = 2 chunk_bytes = 4096 src_stride = 8192
// CHECK: tpu.vtranspose
// CHECK: tpu.dma {{.+}} -> %[[T]]
// Slice [0:8, 128:256]: the second column tile's 8 rows.
// CHECK: tpu.dma %[[X]][%{{.+}}] -> %[[S]][%{{.+}}] chunks = 8 chunk_bytes = 512
// CHECK-NEXT: tpu.sem_wait 3, 1
// Concatenate: four tile columns of x, then two of y.
// CHECK-COUNT-4: tpu.dma %[[X]][%{{.+}}] -> %[[C]]
// CHECK-COUNT-2: tpu.dma %[[Y]][%{{.+}}] -> %[[C]]
// CHECK-NEXT: tpu.sem_wait 3, 6
// Pad: the padding value fills the result, then y's tile rows land in it.
// CHECK: tpu.vsplat
// CHECK: tpu.dma %{{.+}} -> %[[P]][%{{.+}}] chunks = 3 chunk_bytes = 4096 src_stride = 0
// CHECK-COUNT-2: tpu.dma %[[Y]][%{{.+}}] -> %[[P]]
// Broadcast of a vector along the rows.
// CHECK: tpu.dma %[[V]]{{.*}} chunk_bytes = 64
// CHECK: tpu.loop
// CHECK: tpu.vload {{.+}} sublane_stride = 4
// CHECK: tpu.vbcast_lane
// CHECK: tpu.dma {{.+}} -> %[[B]]
// CHECK: return %[[T]], %[[S]], %[[C]], %[[P]], %[[B]]
func.func @main(%arg0: tensor<16x256xf32>, %arg1: tensor<16x128xf32>, %arg2: tensor<16xf32>) -> (tensor<256x16xf32>, tensor<8x128xf32>, tensor<16x384xf32>, tensor<24x128xf32>, tensor<16x128xf32>) {
  %0 = hlo.constant dense<0.000000e+00> : tensor<f32>
  %1 = hlo.transpose %arg0, dims = [1, 0] : (tensor<16x256xf32>) -> tensor<256x16xf32>
  %2 = hlo.slice %arg0 [0:8:1, 128:256:1] : (tensor<16x256xf32>) -> tensor<8x128xf32>
  %3 = hlo.concatenate(%arg0, %arg1) dim = 1 : (tensor<16x256xf32>, tensor<16x128xf32>) -> tensor<16x384xf32>
  %4 = hlo.pad %arg1, %0, low = [0, 0], high = [8, 0], interior = [0, 0] : (tensor<16x128xf32>, tensor<f32>) -> tensor<24x128xf32>
  %5 = hlo.broadcast_in_dim %arg2, dims = [0] : (tensor<16xf32>) -> tensor<16x128xf32>
  return %1, %2, %3, %4, %5 : tensor<256x16xf32>, tensor<8x128xf32>, tensor<16x384xf32>, tensor<24x128xf32>, tensor<16x128xf32>
}

