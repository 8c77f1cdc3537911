// RUN: tpuc-opt %s --tpuc-schedule-bundles | FileCheck %s

// Two tiles' load -> add -> store chains at disjoint offsets of one arena:
// the second tile's load issues beside the first tile's add, its add beside
// the first store (the machine's bundles: one load, one store, two ALU ops).
// CHECK-LABEL: func.func @independent_tiles
// CHECK: %[[A:.+]] = tpu.vload %[[BUF:.+]][%c0]
// CHECK-NEXT: %[[A2:.+]] = tpu.vadd %[[A]], %[[A]]
// CHECK-NEXT: %[[B:.+]] = tpu.vload %[[BUF]][%c4096]
// CHECK-NEXT: tpu.vstore %[[A2]], %[[BUF]][%c8192]
// CHECK-NEXT: %[[B2:.+]] = tpu.vadd %[[B]], %[[B]]
// CHECK-NEXT: tpu.vstore %[[B2]], %[[BUF]][%c12288]
func.func @independent_tiles() {
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %c8192 = arith.constant 8192 : index
  %c12288 = arith.constant 12288 : index
  %buf = tpu.alloc : memref<16384xf32, #tpu.memory_space<vmem>>
  %a = tpu.vload %buf[%c0] : memref<16384xf32, #tpu.memory_space<vmem>> -> vector<8x128xf32>
  %a2 = tpu.vadd %a, %a : vector<8x128xf32>
  tpu.vstore %a2, %buf[%c8192] : vector<8x128xf32>, memref<16384xf32, #tpu.memory_space<vmem>>
  %b = tpu.vload %buf[%c4096] : memref<16384xf32, #tpu.memory_space<vmem>> -> vector<8x128xf32>
  %b2 = tpu.vadd %b, %b : vector<8x128xf32>
  tpu.vstore %b2, %buf[%c12288] : vector<8x128xf32>, memref<16384xf32, #tpu.memory_space<vmem>>
  return
}

// The second load reads the bytes the first store writes (offsets are
// bytes: [4096, 8192) and [6144, 10240) overlap): it stays after the store.
// A sem_wait ends the segment: nothing moves across it.
// CHECK-LABEL: func.func @dependent_through_memory
// CHECK: tpu.vstore %{{.+}}, %{{.+}}[%c4096]
// CHECK-NEXT: tpu.vload %{{.+}}[%c6144]
// CHECK: tpu.sem_wait 0, 1
// CHECK-NEXT: tpu.vload %{{.+}}[%c0]
// CHECK-NEXT: tpu.vadd
// CHECK-NEXT: tpu.vstore
func.func @dependent_through_memory() {
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %c6144 = arith.constant 6144 : index
  %c12288 = arith.constant 12288 : index
  %buf = tpu.alloc : memref<16384xf32, #tpu.memory_space<vmem>>
  %a = tpu.vload %buf[%c0] : memref<16384xf32, #tpu.memory_space<vmem>> -> vector<8x128xf32>
  %a2 = tpu.vadd %a, %a : vector<8x128xf32>
  tpu.vstore %a2, %buf[%c4096] : vector<8x128xf32>, memref<16384xf32, #tpu.memory_space<vmem>>
  %b = tpu.vload %buf[%c6144] : memref<16384xf32, #tpu.memory_space<vmem>> -> vector<8x128xf32>
  %b2 = tpu.vadd %b, %b : vector<8x128xf32>
  tpu.vstore %b2, %buf[%c12288] : vector<8x128xf32>, memref<16384xf32, #tpu.memory_space<vmem>>
  tpu.sem_wait 0, 1
  %d = tpu.vload %buf[%c0] : memref<16384xf32, #tpu.memory_space<vmem>> -> vector<8x128xf32>
  %d2 = tpu.vadd %d, %d : vector<8x128xf32>
  tpu.vstore %d2, %buf[%c0] : vector<8x128xf32>, memref<16384xf32, #tpu.memory_space<vmem>>
  return
}

// In a loop body the offsets are i * 8192 + constant: the loads' bytes are
// in [0, 32768) and the stores' in [65536, 98304) whatever i (0 .. 3), so
// the second tile's load moves above the first store. With an offset of an
// unknown value (%n) nothing is known: the order stays.
// CHECK-LABEL: func.func @loop_offsets
// CHECK: tpu.loop
// CHECK: tpu.vload
// CHECK-NEXT: tpu.vmul
// CHECK-NEXT: tpu.vload
// CHECK-NEXT: tpu.vstore
// CHECK: tpu.loop
// CHECK: tpu.vload
// CHECK-NEXT: tpu.vmul
// CHECK-NEXT: tpu.vstore
// CHECK-NEXT: tpu.vload
func.func @loop_offsets(%n: index) {
  %c4 = arith.constant 4 : index
  %c4096 = arith.constant 4096 : index
  %c8192 = arith.constant 8192 : index
  %c65536 = arith.constant 65536 : index
  %c69632 = arith.constant 69632 : index
  %buf = tpu.alloc : memref<32768xf32, #tpu.memory_space<vmem>>
  tpu.loop %i = 0 to %c4 {
    %o = arith.muli %i, %c8192 : index
    %la = arith.addi %o, %c4096 : index
    %sa = arith.addi %o, %c65536 : index
    %sb = arith.addi %o, %c69632 : index
    %a = tpu.vload %buf[%o] : memref<32768xf32, #tpu.memory_space<vmem>> -> vector<8x128xf32>
    %a2 = tpu.vmul %a, %a : vector<8x128xf32>
    tpu.vstore %a2, %buf[%sa] : vector<8x128xf32>, memref<32768xf32, #tpu.memory_space<vmem>>
    %b = tpu.vload %buf[%la] : memref<32768xf32, #tpu.memory_space<vmem>> -> vector<8x128xf32>
    %b2 = tpu.vmul %b, %b : vector<8x128xf32>
    tpu.vstore %b2, %buf[%sb] : vector<8x128xf32>, memref<32768xf32, #tpu.memory_space<vmem>>
  }
  tpu.loop %i = 0 to %c4 {
    %o = arith.muli %i, %c8192 : index
    %sa = arith.addi %n, %c65536 : index
    %a = tpu.vload %buf[%o] : memref<32768xf32, #tpu.memory_space<vmem>> -> vector<8x128xf32>
    %a2 = tpu.vmul %a, %a : vector<8x128xf32>
    tpu.vstore %a2, %buf[%sa] : vector<8x128xf32>, memref<32768xf32, #tpu.memory_space<vmem>>
    %b = tpu.vload %buf[%c4096] : memref<32768xf32, #tpu.memory_space<vmem>> -> vector<8x128xf32>
    %b2 = tpu.vmul %b, %b : vector<8x128xf32>
    tpu.vstore %b2, %buf[%c69632] : vector<8x128xf32>, memref<32768xf32, #tpu.memory_space<vmem>>
  }
  return
}
