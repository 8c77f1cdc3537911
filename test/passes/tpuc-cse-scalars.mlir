// RUN: tpuc-opt %s --tpuc-cse-scalars | FileCheck %s

// Equal scalar arithmetic within a block is computed once; ops in other
// blocks (a loop body) and vector ops are left alone, and the vload, which
// reads memory, is kept.
// CHECK-LABEL: func.func @addresses
// CHECK: %[[Q:.+]] = arith.divsi %arg0, %c6 : index
// CHECK-NOT: arith.divsi %arg0
// CHECK: %[[A:.+]] = arith.muli %[[Q]], %c2048 : index
// CHECK-NOT: arith.muli %[[Q]]
// CHECK: tpu.vload %{{.+}}[%[[A]]]
// CHECK: tpu.vload %{{.+}}[%[[A]]]
// CHECK: tpu.vsplat
// CHECK: tpu.vsplat
// CHECK: tpu.loop
// CHECK: arith.divsi %arg0, %c6
// CHECK: return
func.func @addresses(%t: index, %buf: memref<8192xf32, #tpu.memory_space<vmem>>) -> index {
  %c6 = arith.constant 6 : index
  %c2048 = arith.constant 2048 : index
  %one = arith.constant 1.0 : f32
  %q0 = arith.divsi %t, %c6 : index
  %a0 = arith.muli %q0, %c2048 : index
  %x = tpu.vload %buf[%a0] : memref<8192xf32, #tpu.memory_space<vmem>> -> vector<8x128xf32>
  %q1 = arith.divsi %t, %c6 : index
  %a1 = arith.muli %q1, %c2048 : index
  %y = tpu.vload %buf[%a1] : memref<8192xf32, #tpu.memory_space<vmem>> -> vector<8x128xf32>
  %s0 = tpu.vsplat %one : f32 -> vector<8x128xf32>
  %s1 = tpu.vsplat %one : f32 -> vector<8x128xf32>
  %z = tpu.vadd %x, %y : vector<8x128xf32>
  %w = tpu.vadd %s0, %s1 : vector<8x128xf32>
  %v = tpu.vadd %z, %w : vector<8x128xf32>
  tpu.vstore %v, %buf[%a1] : vector<8x128xf32>, memref<8192xf32, #tpu.memory_space<vmem>>
  tpu.loop %i = 0 to %c6 {
    %q2 = arith.divsi %t, %c6 : index
    %a2 = arith.muli %q2, %i : index
    tpu.vstore %v, %buf[%a2] : vector<8x128xf32>, memref<8192xf32, #tpu.memory_space<vmem>>
  }
  return %a1 : index
}
