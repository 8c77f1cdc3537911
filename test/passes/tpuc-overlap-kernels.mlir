// RUN: tpuc-opt %s --split-input-file --tpuc-overlap-kernels | FileCheck %s
// Each case is two steps as tpuc-convert-hlo-to-tpu and tpuc-allocate-vmem
// leave them: step 2's leading HBM -> VMEM DMAs move up into step 1, after
// its own leading DMAs, only when that is safe.

#hbm = #tpu.memory_space<hbm>
#vmem = #tpu.memory_space<vmem>
#t = #tpu.tiled<{1,0:T(8,128)}>

// A weight step 1 does not write is prefetched; step 1's output, which
// step 2 reads, is not (RAW through HBM). The prefetch signals semaphore 31
// and is waited for before the wait that consumed it, now one less; its
// buffer's tpu.live now starts at step 1.
// CHECK-LABEL: func.func @safe_and_raw
// CHECK: %[[OUT1:.+]] = tpu.alloc {tpu.live = array<i64: 1, 2>}
// CHECK: %[[W:.+]] = tpu.alloc {tpu.live = array<i64: 1, 3>}
// CHECK: arith.constant {tpu.step = 1 : i64} 0 : index
// CHECK-NEXT: tpu.dma %arg0[%{{.+}}] -> %[[A1:.+]][%{{.+}}] {{.+}} sem = 0 :
// CHECK-NEXT: %[[S:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[D:.+]] = arith.constant 0 : index
// CHECK-NEXT: tpu.dma %[[W]][%[[S]]] -> %[[A2:.+]][%[[D]]] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 31 :
// CHECK-NEXT: tpu.sem_wait 0, 1
// CHECK: tpu.vload
// CHECK: tpu.dma %[[A1]][%{{.+}}] -> %[[OUT1]]
// CHECK-NEXT: tpu.sem_wait 1, 1
// CHECK-NEXT: arith.constant {tpu.step = 2 : i64} 0 : index
// CHECK-NEXT: arith.constant 4096 : index
// CHECK-NEXT: tpu.dma %[[OUT1]][%{{.+}}] -> %[[A2]][%{{.+}}] {{.+}} sem = 0 :
// CHECK-NEXT: tpu.sem_wait 31, 1
// CHECK-NEXT: tpu.sem_wait 0, 1
// CHECK-NEXT: tpu.vload
func.func @safe_and_raw(%x: memref<8x128xf32, #t, #hbm>, %y: memref<8x128xf32, #t, #hbm>)
    -> memref<8x128xf32, #t, #hbm> {
  %a1 = tpu.alloc {tpu.overlay = 0 : i64, tpu.step = 1 : i64} : memref<2048xf32, #vmem>
  %a2 = tpu.alloc {tpu.overlay = 8192 : i64, tpu.step = 2 : i64} : memref<2048xf32, #vmem>
  %out1 = tpu.alloc {tpu.live = array<i64: 1, 2>} : memref<8x128xf32, #t, #hbm>
  %w = tpu.alloc {tpu.live = array<i64: 2, 3>} : memref<8x128xf32, #t, #hbm>
  %out2 = tpu.alloc {tpu.live = array<i64: 2, 3>} : memref<8x128xf32, #t, #hbm>
  // Step 1: out1 = x.
  %c0 = arith.constant {tpu.step = 1 : i64} 0 : index
  tpu.dma %x[%c0] -> %a1[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0 : memref<8x128xf32, #t, #hbm> -> memref<2048xf32, #vmem>
  tpu.sem_wait 0, 1
  %v = tpu.vload %a1[%c0] : memref<2048xf32, #vmem> -> vector<8x128xf32>
  tpu.vstore %v, %a1[%c0] : vector<8x128xf32>, memref<2048xf32, #vmem>
  tpu.dma %a1[%c0] -> %out1[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 1 : memref<2048xf32, #vmem> -> memref<8x128xf32, #t, #hbm>
  tpu.sem_wait 1, 1
  // Step 2: out2 = out1 + w.
  %d0 = arith.constant {tpu.step = 2 : i64} 0 : index
  tpu.dma %w[%d0] -> %a2[%d0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0 : memref<8x128xf32, #t, #hbm> -> memref<2048xf32, #vmem>
  %d4096 = arith.constant 4096 : index
  tpu.dma %out1[%d0] -> %a2[%d4096] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0 : memref<8x128xf32, #t, #hbm> -> memref<2048xf32, #vmem>
  tpu.sem_wait 0, 2
  %p = tpu.vload %a2[%d0] : memref<2048xf32, #vmem> -> vector<8x128xf32>
  %q = tpu.vload %a2[%d4096] : memref<2048xf32, #vmem> -> vector<8x128xf32>
  %s = tpu.vadd %p, %q : vector<8x128xf32>
  tpu.vstore %s, %a2[%d0] : vector<8x128xf32>, memref<2048xf32, #vmem>
  tpu.dma %a2[%d0] -> %out2[%d0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 1 : memref<2048xf32, #vmem> -> memref<8x128xf32, #t, #hbm>
  tpu.sem_wait 1, 1
  return %out2 : memref<8x128xf32, #t, #hbm>
}

// -----

#hbm = #tpu.memory_space<hbm>
#vmem = #tpu.memory_space<vmem>
#t = #tpu.tiled<{1,0:T(8,128)}>

// Two buffers at overlapping memory-plan offsets: step 1 writes %t1, step 2
// reads %t2, which the plan puts on the same bytes. Not moved.
// CHECK-LABEL: func.func @plan_offsets_overlap
// CHECK: tpu.sem_wait 1, 1
// CHECK-NEXT: tpu.dma %{{.+}}[%{{.+}}] -> %{{.+}}[%{{.+}}] {{.+}} sem = 0 {tpu.step = 2 : i64}
// CHECK-NEXT: tpu.sem_wait 0, 1
// CHECK-NOT: sem = 31
func.func @plan_offsets_overlap(%x: memref<8x128xf32, #t, #hbm>) {
  %a1 = tpu.alloc {tpu.overlay = 0 : i64, tpu.step = 1 : i64} : memref<1024xf32, #vmem>
  %a2 = tpu.alloc {tpu.overlay = 4096 : i64, tpu.step = 2 : i64} : memref<1024xf32, #vmem>
  %t1 = tpu.alloc {tpu.live = array<i64: 1, 1>, tpu.plan_offset = 0 : i64} : memref<8x128xf32, #t, #hbm>
  %t2 = tpu.alloc {tpu.live = array<i64: 2, 2>, tpu.plan_offset = 2048 : i64} : memref<8x128xf32, #t, #hbm>
  %c0 = arith.constant {tpu.step = 1 : i64} 0 : index
  tpu.dma %x[%c0] -> %a1[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0 : memref<8x128xf32, #t, #hbm> -> memref<1024xf32, #vmem>
  tpu.sem_wait 0, 1
  %v = tpu.vload %a1[%c0] : memref<1024xf32, #vmem> -> vector<8x128xf32>
  tpu.vstore %v, %a1[%c0] : vector<8x128xf32>, memref<1024xf32, #vmem>
  tpu.dma %a1[%c0] -> %t1[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 1 : memref<1024xf32, #vmem> -> memref<8x128xf32, #t, #hbm>
  tpu.sem_wait 1, 1
  tpu.dma %t2[%c0] -> %a2[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0 {tpu.step = 2 : i64} : memref<8x128xf32, #t, #hbm> -> memref<1024xf32, #vmem>
  tpu.sem_wait 0, 1
  %w = tpu.vload %a2[%c0] : memref<1024xf32, #vmem> -> vector<8x128xf32>
  tpu.vstore %w, %a2[%c0] : vector<8x128xf32>, memref<1024xf32, #vmem>
  return
}

// -----

#hbm = #tpu.memory_space<hbm>
#vmem = #tpu.memory_space<vmem>
#t = #tpu.tiled<{1,0:T(8,128)}>

// The two steps' VMEM regions overlap (tpuc-allocate-vmem could not place
// them apart): step 2's DMA would write bytes step 1 still reads. Not moved.
// CHECK-LABEL: func.func @vmem_overlaps
// CHECK: tpu.sem_wait 1, 1
// CHECK-NEXT: tpu.dma %arg1[%{{.+}}] -> %{{.+}}[%{{.+}}] {{.+}} sem = 0 {tpu.step = 2 : i64}
// CHECK-NOT: sem = 31
func.func @vmem_overlaps(%x: memref<8x128xf32, #t, #hbm>, %y: memref<8x128xf32, #t, #hbm>) {
  %a1 = tpu.alloc {tpu.overlay = 0 : i64, tpu.step = 1 : i64} : memref<1024xf32, #vmem>
  %a2 = tpu.alloc {tpu.overlay = 0 : i64, tpu.step = 2 : i64} : memref<1024xf32, #vmem>
  %o = tpu.alloc {tpu.live = array<i64: 1, 1>} : memref<8x128xf32, #t, #hbm>
  %c0 = arith.constant {tpu.step = 1 : i64} 0 : index
  tpu.dma %x[%c0] -> %a1[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0 : memref<8x128xf32, #t, #hbm> -> memref<1024xf32, #vmem>
  tpu.sem_wait 0, 1
  %v = tpu.vload %a1[%c0] : memref<1024xf32, #vmem> -> vector<8x128xf32>
  tpu.vstore %v, %a1[%c0] : vector<8x128xf32>, memref<1024xf32, #vmem>
  tpu.dma %a1[%c0] -> %o[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 1 : memref<1024xf32, #vmem> -> memref<8x128xf32, #t, #hbm>
  tpu.sem_wait 1, 1
  tpu.dma %y[%c0] -> %a2[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0 {tpu.step = 2 : i64} : memref<8x128xf32, #t, #hbm> -> memref<1024xf32, #vmem>
  tpu.sem_wait 0, 1
  %w = tpu.vload %a2[%c0] : memref<1024xf32, #vmem> -> vector<8x128xf32>
  tpu.vstore %w, %a2[%c0] : vector<8x128xf32>, memref<1024xf32, #vmem>
  return
}

// -----

#hbm = #tpu.memory_space<hbm>
#vmem = #tpu.memory_space<vmem>
#t = #tpu.tiled<{1,0:T(8,128)}>

// Step 1 writes %y inside a loop (a parameter step 2 reads): the loop is
// passed only when nothing in it conflicts, so the DMA stays.
// CHECK-LABEL: func.func @write_in_loop
// CHECK: tpu.loop
// CHECK: tpu.dma %{{.+}}[%{{.+}}] -> %arg1
// CHECK: tpu.dma %arg1[%{{.+}}] -> %{{.+}}[%{{.+}}] {{.+}} sem = 0 {tpu.step = 2 : i64}
// CHECK-NOT: sem = 31
func.func @write_in_loop(%x: memref<8x128xf32, #t, #hbm>, %y: memref<8x128xf32, #t, #hbm>) {
  %a1 = tpu.alloc {tpu.overlay = 0 : i64, tpu.step = 1 : i64} : memref<1024xf32, #vmem>
  %a2 = tpu.alloc {tpu.overlay = 4096 : i64, tpu.step = 2 : i64} : memref<1024xf32, #vmem>
  %c0 = arith.constant {tpu.step = 1 : i64} 0 : index
  %c2 = arith.constant 2 : index
  tpu.dma %x[%c0] -> %a1[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0 : memref<8x128xf32, #t, #hbm> -> memref<1024xf32, #vmem>
  tpu.sem_wait 0, 1
  tpu.loop %i = 0 to %c2 {
    tpu.dma %a1[%c0] -> %y[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 1 : memref<1024xf32, #vmem> -> memref<8x128xf32, #t, #hbm>
    tpu.sem_wait 1, 1
  }
  tpu.dma %y[%c0] -> %a2[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0 {tpu.step = 2 : i64} : memref<8x128xf32, #t, #hbm> -> memref<1024xf32, #vmem>
  tpu.sem_wait 0, 1
  %w = tpu.vload %a2[%c0] : memref<1024xf32, #vmem> -> vector<8x128xf32>
  tpu.vstore %w, %a2[%c0] : vector<8x128xf32>, memref<1024xf32, #vmem>
  return
}

// -----

#hbm = #tpu.memory_space<hbm>
#vmem = #tpu.memory_space<vmem>
#t = #tpu.tiled<{1,0:T(8,128)}>

// Step 1 is one HBM -> HBM copy into %b (a reshape), a leading DMA still
// in flight where a prefetch would go: step 2's read of %b stays after
// its wait (the emulator traps on this race: DMA reads HBM bytes an
// in-flight DMA writes).
// CHECK-LABEL: func.func @leading_write_in_flight
// CHECK: tpu.dma %arg0[%{{.+}}] -> %[[B:.+]][%{{.+}}] {{.+}} sem = 0
// CHECK-NEXT: tpu.sem_wait 0, 1
// CHECK-NEXT: tpu.dma %[[B]][%{{.+}}] -> %{{.+}}[%{{.+}}] {{.+}} sem = 0 {tpu.step = 2 : i64}
// CHECK-NOT: sem = 31
func.func @leading_write_in_flight(%x: memref<8x128xf32, #t, #hbm>) {
  %a2 = tpu.alloc {tpu.overlay = 0 : i64, tpu.step = 2 : i64} : memref<1024xf32, #vmem>
  %b = tpu.alloc {tpu.live = array<i64: 1, 2>} : memref<8x128xf32, #t, #hbm>
  %c0 = arith.constant {tpu.step = 1 : i64} 0 : index
  tpu.dma %x[%c0] -> %b[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0 : memref<8x128xf32, #t, #hbm> -> memref<8x128xf32, #t, #hbm>
  tpu.sem_wait 0, 1
  tpu.dma %b[%c0] -> %a2[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0 {tpu.step = 2 : i64} : memref<8x128xf32, #t, #hbm> -> memref<1024xf32, #vmem>
  tpu.sem_wait 0, 1
  %w = tpu.vload %a2[%c0] : memref<1024xf32, #vmem> -> vector<8x128xf32>
  tpu.vstore %w, %a2[%c0] : vector<8x128xf32>, memref<1024xf32, #vmem>
  return
}

// -----

#hbm = #tpu.memory_space<hbm>
#vmem = #tpu.memory_space<vmem>
#r = #tpu.tiled<{0:T(1024)}>

// Rank 1: f32[10] takes a whole 1024-element tile (4096 bytes), so the plan
// ranges [0, 4096) and [2048, 6144) overlap. Not moved.
// CHECK-LABEL: func.func @plan_offsets_overlap_rank1
// CHECK: tpu.dma %{{.+}}[%{{.+}}] -> %{{.+}}[%{{.+}}] {{.+}} sem = 0 {tpu.step = 2 : i64}
// CHECK-NOT: sem = 31
func.func @plan_offsets_overlap_rank1(%x: memref<10xf32, #r, #hbm>) {
  %a1 = tpu.alloc {tpu.overlay = 0 : i64, tpu.step = 1 : i64} : memref<1024xf32, #vmem>
  %a2 = tpu.alloc {tpu.overlay = 4096 : i64, tpu.step = 2 : i64} : memref<1024xf32, #vmem>
  %t1 = tpu.alloc {tpu.live = array<i64: 1, 1>, tpu.plan_offset = 0 : i64} : memref<10xf32, #r, #hbm>
  %t2 = tpu.alloc {tpu.live = array<i64: 2, 2>, tpu.plan_offset = 2048 : i64} : memref<10xf32, #r, #hbm>
  %c0 = arith.constant {tpu.step = 1 : i64} 0 : index
  tpu.dma %x[%c0] -> %a1[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0 : memref<10xf32, #r, #hbm> -> memref<1024xf32, #vmem>
  tpu.sem_wait 0, 1
  %v = tpu.vload %a1[%c0] : memref<1024xf32, #vmem> -> vector<8x128xf32>
  tpu.vstore %v, %a1[%c0] : vector<8x128xf32>, memref<1024xf32, #vmem>
  tpu.dma %a1[%c0] -> %t1[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 1 : memref<1024xf32, #vmem> -> memref<10xf32, #r, #hbm>
  tpu.sem_wait 1, 1
  tpu.dma %t2[%c0] -> %a2[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0 {tpu.step = 2 : i64} : memref<10xf32, #r, #hbm> -> memref<1024xf32, #vmem>
  tpu.sem_wait 0, 1
  %w = tpu.vload %a2[%c0] : memref<1024xf32, #vmem> -> vector<8x128xf32>
  tpu.vstore %w, %a2[%c0] : vector<8x128xf32>, memref<1024xf32, #vmem>
  return
}
