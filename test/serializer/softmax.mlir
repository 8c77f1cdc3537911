// Row softmax of f32[64,256] on the VPU, serialized and run on the emulator.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc translate --tpu-to-executable %s -o %t/softmax.tpx
// RUN: tpuc translate --tpu-to-executable %s -o %t/again.tpx
// RUN: cmp %t/softmax.tpx %t/again.tpx
// RUN: tpuc translate --executable-to-text %t/softmax.tpx | FileCheck %s
// RUN: tpuc-run %t/softmax.tpx --random-inputs=1 --output-dir=%t
// RUN: %python_numpy %S/Inputs/reference.py softmax %t | FileCheck %s --check-prefix=NUM

// NUM: softmax: ok

// CHECK:      executable "softmax" (format 1)
// CHECK-NEXT: target tpu-v3: 2 MXU 128x128, VMEM 16777216, SMEM 16384
// CHECK-NEXT: buffer 0 "arg0" offset 0 size 65536
// CHECK-NEXT: buffer 1 "result0" offset 65536 size 65536 heap steps 0..0
// CHECK-NEXT: hbm: arguments 65536, constants 0, heap 65536, used 131072 (plan 0), 0 buffers at planned offsets, 1 placed around them
// CHECK-NEXT: parameter 0 "arg0" F32[64,256]{1,0:T(8,128)} buffer 0
// CHECK-NEXT: result 0 "result0" F32[64,256]{1,0:T(8,128)} buffer 1
// CHECK-NEXT: debug_op 1 "fusion.1" "jit(f)/softmax" at model.py:12
// CHECK-NEXT: debug_op 2 "exponential.2" "jit(f)/exp" at model.py:12
// CHECK-NEXT: 0  DMA 0, 0, 65536, 1, 0, 0, 0, HBM->VMEM  ; fusion.1
// CHECK-NEXT: 1  SEM_WAIT 0, 1
// CHECK-NEXT: 2  LOOP_BEGIN s1, 8
// CHECK-NEXT: 3    SMUL s2, s1, 8192
// CHECK-NEXT: 4    VLD v0, s2, 0, F32
// CHECK-NEXT: 5    VLD v1, s2+4096, 0, F32
// CHECK-NEXT: 6    VMAX v2, v0, v1, F32
// CHECK-NEXT: 7    VREDUCE_LANES v3, v2, F32, REDUCE_MAX
// CHECK:           VEXP v{{[0-9]+}}, v{{[0-9]+}}, F32  ; exponential.2
// CHECK:           VST v{{[0-9]+}}, s2+65536, 0, F32
// CHECK:           LOOP_END
// CHECK-NEXT:      DMA 65536, 65536, 65536, 1, 0, 0, 1, VMEM->HBM
// CHECK-NEXT:      SEM_WAIT 1, 1
// CHECK-NEXT:      HALT

#hbm = #tpu.memory_space<hbm>
#vmem = #tpu.memory_space<vmem>
#x = #tpu.tiled<{1,0:T(8,128)}>
#fusion = loc(fused["fusion.1"("softmax.hlo":3:1), "jit(f)/softmax"("model.py":12:0)])
#exp = loc(fused["exponential.2"("softmax.hlo":4:1), "jit(f)/exp"("model.py":12:0)])

module {
func.func @softmax(%x: memref<64x256xf32, #x, #hbm>) -> memref<64x256xf32, #x, #hbm> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c4096 = arith.constant 4096 : index
  %c8192 = arith.constant 8192 : index
  %y = tpu.alloc : memref<64x256xf32, #x, #hbm>
  // VMEM copies keep the tiled order: row block r is tiles (r,0), (r,1),
  // each 8 rows x 128 lanes, 4096 bytes.
  %in = tpu.alloc : memref<64x256xf32, #vmem>
  %out = tpu.alloc : memref<64x256xf32, #vmem>
  tpu.dma %x[%c0] -> %in[%c0] chunks = 1 chunk_bytes = 65536
      src_stride = 0 dst_stride = 0 sem = 0
      : memref<64x256xf32, #x, #hbm> -> memref<64x256xf32, #vmem> loc(#fusion)
  tpu.sem_wait 0, 1
  tpu.loop %r = 0 to %c8 {
    %lo = arith.muli %r, %c8192 : index
    %a = tpu.vload %in[%lo] : memref<64x256xf32, #vmem> -> vector<8x128xf32>
    %hi = arith.addi %lo, %c4096 : index
    %b = tpu.vload %in[%hi] : memref<64x256xf32, #vmem> -> vector<8x128xf32>
    %m2 = tpu.vmax %a, %b : vector<8x128xf32>
    %m = tpu.vreduce_lanes max, %m2 : vector<8x128xf32>
    %da = tpu.vsub %a, %m : vector<8x128xf32>
    %db = tpu.vsub %b, %m : vector<8x128xf32>
    %ea = tpu.vexp %da : vector<8x128xf32> loc(#exp)
    %eb = tpu.vexp %db : vector<8x128xf32> loc(#exp)
    %s2 = tpu.vadd %ea, %eb : vector<8x128xf32>
    %s = tpu.vreduce_lanes sum, %s2 : vector<8x128xf32>
    %inv = tpu.vrcp %s : vector<8x128xf32>
    %ya = tpu.vmul %ea, %inv : vector<8x128xf32>
    %yb = tpu.vmul %eb, %inv : vector<8x128xf32>
    tpu.vstore %ya, %out[%lo] : vector<8x128xf32>, memref<64x256xf32, #vmem>
    tpu.vstore %yb, %out[%hi] : vector<8x128xf32>, memref<64x256xf32, #vmem>
  }
  tpu.dma %out[%c0] -> %y[%c0] chunks = 1 chunk_bytes = 65536
      src_stride = 0 dst_stride = 0 sem = 1
      : memref<64x256xf32, #vmem> -> memref<64x256xf32, #x, #hbm>
  tpu.sem_wait 1, 1
  return %y : memref<64x256xf32, #x, #hbm>
}
}
