// RUN: tpuc-opt %s --split-input-file --verify-diagnostics --tpuc-assign-buffers --tpuc-convert-hlo-to-tpu --mlir-print-debuginfo | FileCheck %s

// Elementwise bf16: one DMA in, the tile row's 2 tiles unrolled (widening
// load, VPU op, rounding store), one DMA out; the hlo op's location stays.
// CHECK: module attributes {{{.*}}tpu.target = #tpu.target<name = "tpu-v3"
// CHECK-LABEL: func.func @exp
// CHECK-SAME: (%[[X:.+]]: memref<8x256xbf16, #tpu.tiled<{1,0:T(8,128)}>, #tpu.memory_space<hbm>>
// CHECK: %[[BUF:.+]] = tpu.alloc {tpu.overlay, tpu.step = 1 : i64} : memref<4096xbf16, #tpu.memory_space<vmem>>
// CHECK: %[[OUT:.+]] = tpu.alloc {tpu.live = array<i64: 1, 2>, tpu.plan_offset = 0 : i64} : memref<8x256xbf16, #tpu.tiled<{1,0:T(8,128)}>, #tpu.memory_space<hbm>>
// CHECK: tpu.dma %[[X]][%{{.+}}] -> %[[BUF]][%{{.+}}] chunks = 1 chunk_bytes = 4096 {{.*}} sem = 0
// CHECK: tpu.sem_wait 0, 1
// CHECK-NOT: tpu.loop
// CHECK: tpu.vload %[[BUF]]
// CHECK-NEXT: tpu.vexp %{{.+}} : vector<8x128xf32> loc(#[[EXP:loc[0-9]+]])
// CHECK: tpu.vstore
// CHECK: tpu.vload %[[BUF]]
// CHECK-NEXT: tpu.vexp
// CHECK: tpu.vstore
// CHECK: tpu.dma %[[BUF]][%{{.+}}] -> %[[OUT]][%{{.+}}] chunks = 1 chunk_bytes = 4096 {{.*}} sem = 1
// CHECK-NEXT: tpu.sem_wait 1, 1
// CHECK: return %[[OUT]]
// CHECK: #[[HLO:loc[0-9]+]] = loc("exponential.2"
// CHECK: #[[EXP]] = loc(fused[#[[HLO]],
func.func @exp(%x: tensor<8x256xbf16>) -> tensor<8x256xbf16> {
  %e = hlo.exponential %x : tensor<8x256xbf16> loc(fused["exponential.2"("m.hlo":4:1), "jit(f)/exp"("model.py":12:0)])
  return %e : tensor<8x256xbf16>
}

// -----

// Compare + select in registers, splat constants as vsplat.
// CHECK-LABEL: func.func @relu_select
// CHECK: tpu.vsplat
// CHECK: tpu.vcmp gt
// CHECK: tpu.vsel
// CHECK-NOT: tpu.vcmp
// CHECK: return
func.func @relu_select(%x: tensor<16x128xf32>) -> tensor<16x128xf32> {
  %zero = hlo.constant dense<0.0> : tensor<16x128xf32>
  %p = hlo.compare GT, %x, %zero : (tensor<16x128xf32>, tensor<16x128xf32>) -> tensor<16x128xi1>
  %y = hlo.select %p, %x, %zero : (tensor<16x128xi1>, tensor<16x128xf32>, tensor<16x128xf32>) -> tensor<16x128xf32>
  return %y : tensor<16x128xf32>
}

// -----

// dot_general on the MXU: bf16 operands with K = 384 go straight from HBM
// to VMEM. Two output columns, one per MXU. Its steps (16 rows: 144 MXU
// cycles) are shorter than a DMA latency, so it streams two steps ahead
// (three operand slots): steps 0 and 1 are fetched before the K loop,
// step 0 fetches step 2 before it waits for its own DMAs, steps 1 and 2
// fetch nothing.
// CHECK-LABEL: func.func @dot
// CHECK: tpu.dma %arg0{{.*}} chunks = 2 chunk_bytes = 2048 src_stride = 6144 dst_stride = 2048 sem = 0
// CHECK: tpu.dma %arg1{{.*}} chunks = 16 chunk_bytes = 2048 src_stride = 4096 dst_stride = 2048 sem = 1
// CHECK: tpu.dma %arg1{{.*}} sem = 1
// CHECK: tpu.dma %arg0{{.*}} sem = 0
// CHECK: tpu.dma %arg1{{.*}} sem = 1
// CHECK: tpu.dma %arg1{{.*}} sem = 1
// CHECK: tpu.dma %arg0{{.*}} sem = 0
// CHECK: tpu.dma %arg1{{.*}} sem = 1
// CHECK: tpu.dma %arg1{{.*}} sem = 1
// CHECK-NOT: tpu.dma
// CHECK: tpu.sem_wait 0, 1
// CHECK-NEXT: tpu.sem_wait 1, 2
// CHECK: tpu.mxu_load_weights %{{.+}} mxu = 0
// CHECK: tpu.mxu_matmul %{{.+}} mxu = 0 rows = 16 :
// CHECK: tpu.mxu_load_weights %{{.+}} mxu = 1
// CHECK: tpu.mxu_matmul %{{.+}} mxu = 1 rows = 16 :
// CHECK-NOT: tpu.dma
// CHECK: tpu.sem_wait 0, 1
// CHECK-NEXT: tpu.sem_wait 1, 2
// CHECK: tpu.mxu_matmul %{{.+}} mxu = 0 rows = 16 accumulate
// CHECK: tpu.mxu_matmul %{{.+}} mxu = 1 rows = 16 accumulate
// CHECK-NOT: tpu.dma
// CHECK: tpu.sem_wait 0, 1
// CHECK-NEXT: tpu.sem_wait 1, 2
// CHECK-NOT: tpu.dma
// CHECK: tpu.mxu_matmul %{{.+}} mxu = 1 rows = 16 accumulate
// CHECK: tpu.dma %{{.+}} chunks = 2 chunk_bytes = 4096 src_stride = 4096 dst_stride = 8192 sem = 2
// CHECK: tpu.dma %{{.+}} chunks = 2 chunk_bytes = 4096 src_stride = 4096 dst_stride = 8192 sem = 2
// CHECK-NEXT: tpu.sem_wait 2, 2
func.func @dot(%a: tensor<16x384xbf16>, %b: tensor<384x256xbf16>) -> tensor<16x256xf32> {
  %d = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<16x384xbf16>, tensor<384x256xbf16>) -> tensor<16x256xf32>
  return %d : tensor<16x256xf32>
}

// -----

// f32 operands and a ragged K (100): rounded to bf16 by the VPU, K masked
// to zero on both sides, B copied into a K-padded buffer first.
// CHECK-LABEL: func.func @dot_f32_ragged
// CHECK: %[[BP:.+]] = tpu.alloc {{.*}}: memref<128x128xf32, #tpu.tiled<{1,0:T(8,128)}>
// CHECK: tpu.dma %arg1[%{{.+}}] -> %[[BP]]
// CHECK: tpu.sem_wait 3, 1
// CHECK: tpu.vlane_id
// CHECK: tpu.vcmp lt
// CHECK: tpu.vsel
// CHECK: tpu.vstore %{{.+}} : vector<8x128xf32>, memref<{{[0-9]+}}xbf16
// CHECK: tpu.vsublane_id
// CHECK: tpu.mxu_matmul %{{.+}} mxu = 0 rows = 8 :
func.func @dot_f32_ragged(%a: tensor<8x100xf32>, %b: tensor<100x128xf32>) -> tensor<8x128xf32> {
  %d = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<8x100xf32>, tensor<100x128xf32>) -> tensor<8x128xf32>
  return %d : tensor<8x128xf32>
}

// -----

// Reductions: lanes (the two tile rows' maxima selected into lanes 0..15 of
// one register, one DMA of 16 elements) and sublanes (accumulator tiles,
// then one gather DMA of 512-byte rows).
// CHECK-LABEL: func.func @reduce_rows
// CHECK: tpu.vlane_id
// CHECK: tpu.vreduce_lanes max
// CHECK: tpu.vreduce_lanes max
// CHECK: tpu.vreduce_sublanes max
// CHECK: tpu.dma {{.*}} chunks = 1 chunk_bytes = 64 src_stride = 0 dst_stride = 0 sem = 1
func.func @reduce_rows(%x: tensor<16x200xf32>) -> tensor<16xf32> {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %m = hlo.reduce(%x) init(%ninf) dims = [1] : (tensor<16x200xf32>, tensor<f32>) -> tensor<16xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.maximum %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  return %m : tensor<16xf32>
}

// -----

// CHECK-LABEL: func.func @reduce_cols
// CHECK: tpu.vsublane_id
// CHECK: tpu.vadd
// CHECK: tpu.vreduce_sublanes sum
// CHECK: tpu.vreduce_sublanes sum
// CHECK: tpu.dma {{.*}} chunks = 2 chunk_bytes = 512 src_stride = 4096 dst_stride = 512 sem = 1
func.func @reduce_cols(%x: tensor<12x256xf32>) -> tensor<256xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %s = hlo.reduce(%x) init(%zero) dims = [0] : (tensor<12x256xf32>, tensor<f32>) -> tensor<256xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.add %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  return %s : tensor<256xf32>
}

// -----

// Broadcasts: a row (vbcast_sublane, one DMA repeating the tile row) and a
// column (a load with a 4-byte sublane stride, vbcast_lane).
// CHECK-LABEL: func.func @broadcasts
// CHECK: tpu.vbcast_sublane
// CHECK: tpu.dma {{.*}} chunks = 4 chunk_bytes = 8192 src_stride = 0 dst_stride = 8192 sem = 1
// CHECK: tpu.vload {{.*}} sublane_stride = 4
// CHECK: tpu.vbcast_lane
func.func @broadcasts(%r: tensor<256xf32>, %c: tensor<32xf32>) -> (tensor<32x256xf32>, tensor<32x256xf32>) {
  %rb = hlo.broadcast_in_dim %r, dims = [1] : (tensor<256xf32>) -> tensor<32x256xf32>
  %cb = hlo.broadcast_in_dim %c, dims = [0] : (tensor<32xf32>) -> tensor<32x256xf32>
  return %rb, %cb : tensor<32x256xf32>, tensor<32x256xf32>
}

// -----

// A reshape that keeps the tiles is one HBM-to-HBM DMA.
// CHECK-LABEL: func.func @reshape
// CHECK: tpu.dma %arg0[%{{.+}}] -> %{{.+}} chunks = 1 chunk_bytes = 16384 src_stride = 0 dst_stride = 0 sem = 0 : memref<2x16x128xf32, #tpu.tiled<{2,1,0:T(8,128)}>, #tpu.memory_space<hbm>> -> memref<32x128xf32
func.func @reshape(%x: tensor<2x16x128xf32>) -> tensor<32x128xf32> {
  %r = hlo.reshape %x : (tensor<2x16x128xf32>) -> tensor<32x128xf32>
  return %r : tensor<32x128xf32>
}

// -----

func.func @cosine(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.cosine' yet}}
  %y = hlo.cosine %x : tensor<8x128xf32>
  return %y : tensor<8x128xf32>
}
