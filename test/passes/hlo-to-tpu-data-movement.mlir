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
// Pad: the padding value fills the result, then y's rows land in it: one
// column of tiles, so its 16 rows are one run (one DMA, not one per tile).
// CHECK: tpu.vsplat
// CHECK: tpu.dma %{{.+}} -> %[[P]][%{{.+}}] chunks = 3 chunk_bytes = 4096 src_stride = 0
// CHECK-NEXT: tpu.sem_wait 3, 1
// CHECK-NOT: tpu.dma
// CHECK: tpu.dma %[[Y]][%{{.+}}] -> %[[P]][%{{.+}}] chunks = 16 chunk_bytes = 512
// CHECK-NEXT: tpu.sem_wait 3, 1
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


// -----

// Per-row vectors (issue #11). A [.., N, 1] array has one column of tiles,
// so its row dim is linear (128 elements apart): a reshape that moves the
// minor dim between lanes and sublanes is one DMA per 128-lane run of the
// lane side (O(N/128)), not one per tile of 8 rows; a rank-1 [300] is
// linear on both sides (one DMA). A lane broadcast writes each tile row
// from a ring of 64 VMEM pages: a slot is rewritten once the DMA issued 64
// rows before has completed, never waiting for the DMA just issued.
// CHECK-LABEL: func.func @main
// CHECK: tpu.loop %{{.+}} = 0 to %{{.+}} {
// CHECK-NOT: tpu.dma
// CHECK: tpu.dma {{.+}} chunks = 128 chunk_bytes = 4 src_stride = 4 dst_stride = 512 sem = 3 :{{.*}}
// CHECK-NEXT: }
// CHECK-NEXT: tpu.sem_wait 3, 32
// CHECK: tpu.dma {{.+}} chunks = 300 chunk_bytes = 2 src_stride = 2 dst_stride = 256 sem = 3 :{{.*}}
// CHECK-NEXT: tpu.sem_wait 3, 1
// CHECK: tpu.loop %{{.+}} = 0 to %{{.+}} {
// CHECK-NOT: tpu.dma
// CHECK: tpu.dma {{.+}} chunks = 128 chunk_bytes = 4 src_stride = 512 dst_stride = 4 sem = 3 :{{.*}}
// CHECK-NEXT: }
// CHECK-NEXT: tpu.sem_wait 3, 32
// CHECK: tpu.sem_signal 1, 64
// CHECK: tpu.loop
// CHECK: tpu.loop
// CHECK: tpu.vload {{.+}} sublane_stride = 2
// CHECK: tpu.vbcast_lane
// CHECK: tpu.sem_wait 1, 1
// CHECK-NEXT: tpu.vstore
// CHECK: tpu.dma {{.+}} chunks = 1 chunk_bytes = 2048 src_stride = 0 dst_stride = 2048 sem = 1
// CHECK: tpu.sem_wait 1, 64
// CHECK-NEXT: return
func.func @main(%a: tensor<1x4096xf32>, %b: tensor<300xbf16>, %c: tensor<1x4096x1xf32>, %h: tensor<1x12x128xbf16>) -> (tensor<1x4096x1xf32>, tensor<300x1xbf16>, tensor<1x4096xf32>, tensor<1x12x128x128xbf16>) {
  %0 = hlo.reshape %a : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
  %1 = hlo.reshape %b : (tensor<300xbf16>) -> tensor<300x1xbf16>
  %2 = hlo.reshape %c : (tensor<1x4096x1xf32>) -> tensor<1x4096xf32>
  %3 = hlo.broadcast_in_dim %h, dims = [0, 1, 2] : (tensor<1x12x128xbf16>) -> tensor<1x12x128x128xbf16>
  return %0, %1, %2, %3 : tensor<1x4096x1xf32>, tensor<300x1xbf16>, tensor<1x4096xf32>, tensor<1x12x128x128xbf16>
}
