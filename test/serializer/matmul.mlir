// C = A @ B, bf16[256,256] x bf16[256,256] -> f32[256,256], on the MXUs with
// the B tiles double-buffered: the DMA of the next 128x128 weight tile
// overlaps the matmul on the current one.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc translate --tpu-to-executable %s -o %t/matmul.tpx
// RUN: tpuc translate --tpu-to-executable %s -o %t/again.tpx
// RUN: cmp %t/matmul.tpx %t/again.tpx
// RUN: tpuc translate --executable-to-text %t/matmul.tpx | FileCheck %s
// RUN: tpuc-run %t/matmul.tpx --random-inputs=1 --output-dir=%t
// RUN: %python_numpy %S/Inputs/reference.py matmul %t | FileCheck %s --check-prefix=NUM

// NUM: matmul: ok

// CHECK:      buffer 0 "arg0" offset 0 size 131072
// CHECK-NEXT: buffer 1 "arg1" offset 131072 size 131072
// CHECK-NEXT: buffer 2 "result0" offset 262144 size 262144 heap steps 0..0
// CHECK-NEXT: hbm: arguments 262144, constants 0, heap 262144, used 524288 (plan 0), 0 buffers at planned offsets, 1 placed around them
// CHECK-NEXT: parameter 0 "arg0" BF16[256,256]{1,0:T(8,128)} buffer 0
// CHECK-NEXT: parameter 1 "arg1" BF16[256,256]{1,0:T(8,128)} buffer 1
// CHECK-NEXT: result 0 "result0" F32[256,256]{1,0:T(8,128)} buffer 2
// CHECK:      LOOP_BEGIN [[NB:s[0-9]+]], 2
// CHECK:        SEM_WAIT 1, 1
// CHECK:        DMA s{{[0-9]+}}+196608, 425984, 2048, 16, 4096, 2048, 1, HBM->VMEM
// CHECK-NEXT:   MXU_LOAD_WEIGHTS 393216, mxu 0
// CHECK-NEXT:   MXU_MATMUL 0, {{s[0-9]+}}+131072, 256, mxu 0
// CHECK:        MXU_MATMUL 65536, {{s[0-9]+}}+131072, 256, mxu 1, accumulate
// CHECK:      LOOP_END
// CHECK-NEXT: SEM_WAIT 1, 1
// CHECK-NEXT: SEM_WAIT 2, 2
// CHECK-NEXT: HALT

#hbm = #tpu.memory_space<hbm>
#vmem = #tpu.memory_space<vmem>
#t = #tpu.tiled<{1,0:T(8,128)}>

module attributes {tpu.target = #tpu.target<name = "tpu-v3", vmem_bytes = 16777216>} {
func.func @matmul(%a: memref<256x256xbf16, #t, #hbm>, %b: memref<256x256xbf16, #t, #hbm>)
    -> memref<256x256xf32, #t, #hbm> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c2048 = arith.constant 2048 : index
  %c4096 = arith.constant 4096 : index
  %c32768 = arith.constant 32768 : index
  %c65536 = arith.constant 65536 : index
  %c131072 = arith.constant 131072 : index
  %c = tpu.alloc : memref<256x256xf32, #t, #hbm>
  // Row-major VMEM blocks: A's two 256x128 column panels, two 128x128 B
  // tiles (the double buffer), and one 256x128 f32 C panel per column block.
  %ap = tpu.alloc : memref<2x256x128xbf16, #vmem>
  %cp = tpu.alloc : memref<2x256x128xf32, #vmem>
  %bt = tpu.alloc : memref<2x128x128xbf16, #vmem>

  // A tile of 8x128 bf16 is 2048 bytes; a row of tiles 4096. Panel k of A
  // is tile column k: 32 chunks of one tile.
  tpu.dma %a[%c0] -> %ap[%c0] chunks = 32 chunk_bytes = 2048
      src_stride = 4096 dst_stride = 2048 sem = 0
      : memref<256x256xbf16, #t, #hbm> -> memref<2x256x128xbf16, #vmem>
  tpu.dma %a[%c2048] -> %ap[%c65536] chunks = 32 chunk_bytes = 2048
      src_stride = 4096 dst_stride = 2048 sem = 0
      : memref<256x256xbf16, #t, #hbm> -> memref<2x256x128xbf16, #vmem>
  // B tile (k, n) is 16 chunks from (k * 65536 + n * 2048).
  tpu.dma %b[%c0] -> %bt[%c0] chunks = 16 chunk_bytes = 2048
      src_stride = 4096 dst_stride = 2048 sem = 1
      : memref<256x256xbf16, #t, #hbm> -> memref<2x128x128xbf16, #vmem>
  tpu.sem_wait 0, 2

  tpu.loop %n = 0 to %c2 {
    %boff = arith.muli %n, %c2048 : index
    %coff = arith.muli %n, %c131072 : index
    // k = 0: B(0, n) is in buffer 0; fetch B(1, n) into buffer 1.
    tpu.sem_wait 1, 1
    %b1 = arith.addi %boff, %c65536 : index
    tpu.dma %b[%b1] -> %bt[%c32768] chunks = 16 chunk_bytes = 2048
        src_stride = 4096 dst_stride = 2048 sem = 1
        : memref<256x256xbf16, #t, #hbm> -> memref<2x128x128xbf16, #vmem>
    tpu.mxu_load_weights %bt[%c0] mxu = 0 : memref<2x128x128xbf16, #vmem>
    tpu.mxu_matmul %ap[%c0] -> %cp[%coff] mxu = 0 rows = 256
        : memref<2x256x128xbf16, #vmem> -> memref<2x256x128xf32, #vmem>
    // k = 1: fetch B(0, n + 1) into buffer 0 (on the last iteration B(0, 1)
    // again, so that the loop needs no branch; the epilogue waits for it).
    tpu.sem_wait 1, 1
    %n1 = arith.addi %n, %c1 : index
    %nn = arith.minsi %n1, %c1 : index
    %b0 = arith.muli %nn, %c2048 : index
    tpu.dma %b[%b0] -> %bt[%c0] chunks = 16 chunk_bytes = 2048
        src_stride = 4096 dst_stride = 2048 sem = 1
        : memref<256x256xbf16, #t, #hbm> -> memref<2x128x128xbf16, #vmem>
    tpu.mxu_load_weights %bt[%c32768] mxu = 1 : memref<2x128x128xbf16, #vmem>
    tpu.mxu_matmul %ap[%c65536] -> %cp[%coff] mxu = 1 rows = 256 accumulate
        : memref<2x256x128xbf16, #vmem> -> memref<2x256x128xf32, #vmem>
    // C panel n: 32 tiles of 8x128 f32 (4096 bytes), a row of tiles 8192.
    %chbm = arith.muli %n, %c4096 : index
    tpu.dma %cp[%coff] -> %c[%chbm] chunks = 32 chunk_bytes = 4096
        src_stride = 4096 dst_stride = 8192 sem = 2
        : memref<2x256x128xf32, #vmem> -> memref<256x256xf32, #t, #hbm>
  }
  tpu.sem_wait 1, 1
  tpu.sem_wait 2, 2
  return %c : memref<256x256xf32, #t, #hbm>
}
}
