// RUN: tpuc-opt %s --split-input-file --verify-diagnostics --tpuc-allocate-vmem | FileCheck %s
// RUN: tpuc-opt %s --split-input-file --verify-diagnostics '--tpuc-allocate-vmem=separate-neighbours=false' | FileCheck %s --check-prefix=OVERLAY

#vmem = #tpu.memory_space<vmem>

// Each step's arenas share one region (the largest of them, 32 KiB for
// step 1); neighbours are placed apart while they fit: step 2 after step
// 1, step 3 after step 2, step 4 (12 MiB) no longer fits after step 3 and
// goes back to 0. Without separate-neighbours every region is at 0. Other
// VMEM buffers come first (the 4 KiB %s).
// CHECK-LABEL: func.func @neighbours
// CHECK: tpu.alloc : memref<1024xf32
// CHECK-NEXT: tpu.alloc {tpu.overlay = 0 : i64, tpu.step = 1 : i64} : memref<8192xf32
// CHECK-NEXT: tpu.alloc {tpu.overlay = 0 : i64, tpu.step = 1 : i64} : memref<8192xbf16
// CHECK-NEXT: tpu.alloc {tpu.overlay = 32768 : i64, tpu.step = 2 : i64} : memref<1024xf32
// CHECK-NEXT: tpu.alloc {tpu.overlay = 36864 : i64, tpu.step = 3 : i64} : memref<1048576xf32
// CHECK-NEXT: tpu.alloc {tpu.overlay = 0 : i64, tpu.step = 4 : i64} : memref<3145728xf32
// OVERLAY-LABEL: func.func @neighbours
// OVERLAY-COUNT-5: tpu.overlay = 0 : i64
// OVERLAY-NOT: tpu.overlay = {{[1-9]}}
module attributes {tpu.target = #tpu.target<vmem_bytes = 16777216>} {
  func.func @neighbours() {
    %s = tpu.alloc : memref<1024xf32, #vmem>
    %a = tpu.alloc {tpu.overlay, tpu.step = 1 : i64} : memref<8192xf32, #vmem>
    %b = tpu.alloc {tpu.overlay, tpu.step = 1 : i64} : memref<8192xbf16, #vmem>
    %c = tpu.alloc {tpu.overlay, tpu.step = 2 : i64} : memref<1024xf32, #vmem>
    %d = tpu.alloc {tpu.overlay, tpu.step = 3 : i64} : memref<1048576xf32, #vmem>
    %e = tpu.alloc {tpu.overlay, tpu.step = 4 : i64} : memref<3145728xf32, #vmem>
    return
  }
}

// -----

#vmem = #tpu.memory_space<vmem>

// A step whose region does not fit the target's VMEM (after the other
// buffers) is an error naming the step.
module attributes {tpuc.target = {name = "tpu-v3", vmem_bytes = 65536 : i64}} {
  func.func @too_big() {
    %s = tpu.alloc : memref<1024xf32, #vmem>
    // expected-error @+1 {{the kernels of step 7 need 65536 bytes of VMEM but tpu-v3 has 61440 after the other VMEM buffers}}
    %a = tpu.alloc {tpu.overlay, tpu.step = 7 : i64} : memref<16384xf32, #vmem>
    return
  }
}
