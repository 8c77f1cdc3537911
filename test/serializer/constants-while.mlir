// The constant table and tpu.while, serialized and run on the emulator:
// y = h + n * k, with k an f32[2,3] constant, h a bf16[1,2] constant and
// the trip count n = 5 an s32 constant that reaches a scalar register
// through SMEM. The loop adds k to an accumulator while n - i != 0.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc translate --tpu-to-executable %s -o %t/w.tpx
// RUN: tpuc translate --tpu-to-executable %s -o %t/again.tpx
// RUN: cmp %t/w.tpx %t/again.tpx
// RUN: tpuc translate --executable-to-text %t/w.tpx | FileCheck %s
// RUN: tpuc-run %t/w.tpx --output-dir=%t
// RUN: %python_numpy -c "import numpy as np; y = np.load('%t/result0.npy'); want = np.array([[5.5, 9, 15], [20, 25, 30]], np.float32); print('while:', 'ok' if y.shape == want.shape and (y == want).all() else y)" | FileCheck %s --check-prefix=NUM

// NUM: while: ok

// CHECK:      buffer 0 "constant0" offset 0 size 4096
// CHECK-NEXT: buffer 1 "constant1" offset 4096 size 4096
// CHECK-NEXT: buffer 2 "constant2" offset 8192 size 2048
// CHECK-NEXT: buffer 3 "result0" offset 10240 size 4096 heap steps 0..0
// CHECK-NEXT: hbm: arguments 0, constants 10240, heap 4096, used 14336 (plan 0), 0 buffers at planned offsets, 1 placed around them
// CHECK-NEXT: result 0 "result0" F32[2,3]{1,0:T(8,128)} buffer 3
// CHECK-NEXT: constant 0 "constant0" F32[2,3]{1,0:T(8,128)} buffer 0 (24 bytes)
// CHECK-NEXT: constant 1 "constant1" S32[1]{0:T(1024)} buffer 1 (4 bytes)
// CHECK-NEXT: constant 2 "constant2" BF16[1,2]{1,0:T(8,128)} buffer 2 (4 bytes)
// The condition, the branch over the exit, the body and the branch back.
// CHECK:      [[TOP:[0-9]+]]  SLD s{{[0-9]+}}, 0
// CHECK-NEXT:                 SLD s{{[0-9]+}}, 4
// CHECK-NEXT:                 SSUB
// CHECK-NEXT: [[BRNZ:[0-9]+]]  BRNZ s{{[0-9]+}}, -> [[BODY:[0-9]+]]
// CHECK-NEXT:                 BR -> [[EXIT:[0-9]+]]
// CHECK-NEXT: [[BODY]]  VLD
// CHECK:                      BR -> [[TOP]]
// CHECK-NEXT: [[EXIT]]  DMA

#hbm = #tpu.memory_space<hbm>
#vmem = #tpu.memory_space<vmem>
#smem = #tpu.memory_space<smem>
#x = #tpu.tiled<{1,0:T(8,128)}>
#r1 = #tpu.tiled<{0:T(1024)}>

module {
func.func @main() -> memref<2x3xf32, #x, #hbm> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1 : i64
  %zero = arith.constant 0 : i64
  %k = tpu.alloc init dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32> : memref<2x3xf32, #x, #hbm>
  %n = tpu.alloc init dense<[5]> : tensor<1xi32> : memref<1xi32, #r1, #hbm>
  %h = tpu.alloc init dense<[[0.5, -1.0]]> : tensor<1x2xbf16> : memref<1x2xbf16, #x, #hbm>
  %y = tpu.alloc : memref<2x3xf32, #x, #hbm>
  %acc = tpu.alloc : memref<8x128xf32, #vmem>
  %kv = tpu.alloc : memref<8x128xf32, #vmem>
  %hv = tpu.alloc : memref<8x128xbf16, #vmem>
  %s = tpu.alloc : memref<2xi32, #smem>
  tpu.dma %k[%c0] -> %kv[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0
      : memref<2x3xf32, #x, #hbm> -> memref<8x128xf32, #vmem>
  tpu.dma %h[%c0] -> %hv[%c0] chunks = 1 chunk_bytes = 2048 src_stride = 0 dst_stride = 0 sem = 0
      : memref<1x2xbf16, #x, #hbm> -> memref<8x128xbf16, #vmem>
  tpu.dma %n[%c0] -> %s[%c0] chunks = 1 chunk_bytes = 4 src_stride = 0 dst_stride = 0 sem = 0
      : memref<1xi32, #r1, #hbm> -> memref<2xi32, #smem>
  tpu.sem_wait 0, 3
  %h0 = tpu.vload %hv[%c0] : memref<8x128xbf16, #vmem> -> vector<8x128xf32>
  tpu.vstore %h0, %acc[%c0] : vector<8x128xf32>, memref<8x128xf32, #vmem>
  tpu.sstore %zero, %s[%c4] : i64, memref<2xi32, #smem>
  tpu.while {
    %nn = tpu.sload %s[%c0] : memref<2xi32, #smem>
    %i = tpu.sload %s[%c4] : memref<2xi32, #smem>
    %d = arith.subi %nn, %i : i64
    tpu.condition %d : i64
  } do {
    %a = tpu.vload %acc[%c0] : memref<8x128xf32, #vmem> -> vector<8x128xf32>
    %b = tpu.vload %kv[%c0] : memref<8x128xf32, #vmem> -> vector<8x128xf32>
    %sum = tpu.vadd %a, %b : vector<8x128xf32>
    tpu.vstore %sum, %acc[%c0] : vector<8x128xf32>, memref<8x128xf32, #vmem>
    %i = tpu.sload %s[%c4] : memref<2xi32, #smem>
    %i1 = arith.addi %i, %one : i64
    tpu.sstore %i1, %s[%c4] : i64, memref<2xi32, #smem>
    tpu.yield
  }
  tpu.dma %acc[%c0] -> %y[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 1
      : memref<8x128xf32, #vmem> -> memref<2x3xf32, #x, #hbm>
  tpu.sem_wait 1, 1
  return %y : memref<2x3xf32, #x, #hbm>
}
}
