// Folded adds (compiler/serializer, docs/tpu-dialect.md "Folded adds"): an
// add of a constant, or an index_cast, read only as scalar operands
// (`s[reg] + imm`) costs no instruction: its users read `s[x] + c`. Chains
// compose (cast then +7 is `+7`), and the base lives to the last folded read.
// Tile i of the result is i + 14 (stored as i + 7 to SMEM, loaded, + 7).
// RUN: tpuc translate --tpu-to-executable %s -o %t.tpx
// RUN: tpuc translate --executable-to-text %t.tpx | FileCheck %s
// RUN: tpuc-run %t.tpx --output-dir=%t.out
// RUN: %python_numpy -c "import numpy as np; a = np.load('%t.out/result0.npy'); print('ok' if (a == np.repeat(np.arange(4) + 14, 8)[:, None]).all() else 'WRONG', a[::8, 0])" | FileCheck %s --check-prefix=NUM
// NUM: ok
// CHECK-NOT: SADD
// CHECK-NOT: SMOV
// CHECK:     LOOP_BEGIN [[I:s[0-9]+]], 4
// CHECK:       SMUL [[A:s[0-9]+]], [[I]], 4
// CHECK:       SST [[I]]+7, [[A]]+4
// CHECK:     LOOP_END
// CHECK:     LOOP_BEGIN [[J:s[0-9]+]], 4
// CHECK:       SMUL [[B:s[0-9]+]], [[J]], 4
// CHECK:       SLD [[K:s[0-9]+]], [[B]]+4
// CHECK:       VSPLAT v{{[0-9]+}}, [[K]]+7
// CHECK:       SMUL [[O:s[0-9]+]], [[J]], 4096
// CHECK:       VST v{{[0-9]+}}, [[O]]+4096, 0, S32
// CHECK:     LOOP_END

#hbm = #tpu.memory_space<hbm>
#vmem = #tpu.memory_space<vmem>
#smem = #tpu.memory_space<smem>
#x = #tpu.tiled<{1,0:T(8,128)}>

func.func @main() -> memref<32x128xi32, #x, #hbm> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c4096 = arith.constant 4096 : index
  %y = tpu.alloc : memref<32x128xi32, #x, #hbm>
  %m = tpu.alloc : memref<40x128xi32, #vmem>
  %s = tpu.alloc : memref<8xi32, #smem>
  tpu.loop %i = 0 to %c4 {
    %i4 = arith.muli %i, %c4 : index
    %a = arith.addi %i4, %c4 : index
    %ii = arith.index_cast %i : index to i64
    %c7i = arith.constant 7 : i64
    %seven = arith.addi %ii, %c7i : i64
    tpu.sstore %seven, %s[%a] : i64, memref<8xi32, #smem>
  }
  tpu.loop %i = 0 to %c4 {
    %i4 = arith.muli %i, %c4 : index
    %a = arith.addi %i4, %c4 : index
    %k = tpu.sload %s[%a] : memref<8xi32, #smem>
    %kk = arith.index_cast %k : i64 to index
    %k1 = arith.addi %kk, %c7 : index
    %v = tpu.vsplat %k1 : index -> vector<8x128xi32>
    %off = arith.muli %i, %c4096 : index
    %o1 = arith.addi %off, %c4096 : index
    tpu.vstore %v, %m[%o1] : vector<8x128xi32>, memref<40x128xi32, #vmem>
  }
  tpu.dma %m[%c4096] -> %y[%c0] chunks = 1 chunk_bytes = 16384 src_stride = 0 dst_stride = 0 sem = 0 : memref<40x128xi32, #vmem> -> memref<32x128xi32, #x, #hbm>
  tpu.sem_wait 0, 1
  return %y : memref<32x128xi32, #x, #hbm>
}
