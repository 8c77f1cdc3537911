// RUN: tpuc-opt %s --split-input-file --tpuc-convert-hlo-to-tpu | FileCheck %s

// The reduction kernels (Reduce.cpp, ReduceWindow.cpp). A reduce over the
// minor dim: the operand's tiles in VMEM, each tile row's two column tiles
// added on the VPU and summed across lanes (vreduce_lanes); the two tile
// rows' sums are selected into lanes 0..7 and 8..15 (lane - sublane = 8j),
// their sublanes combined once, the init added, and one DMA of one 64-byte
// chunk writes the 16 sums (a rank-1 result: one DMA per block).
// CHECK-LABEL: func.func @main
// CHECK-SAME: -> memref<16xf32, #tpu.tiled<{0:T(1024)}>, #tpu.memory_space<hbm>>
// CHECK: %[[OUT:.+]] = tpu.alloc {{.*}}memref<16xf32
// CHECK-NOT: tpu.sem_signal
// CHECK: tpu.dma %arg0{{.*}} chunk_bytes = 16384
// CHECK-NOT: {{^ *}}tpu.dma
// CHECK: tpu.sem_wait 0, 1
// CHECK: %[[SUB:.+]] = tpu.vsublane_id
// CHECK: %[[LANE:.+]] = tpu.vlane_id
// CHECK: %[[DIAG:.+]] = tpu.vsub %[[LANE]], %[[SUB]]
// CHECK: tpu.vadd
// CHECK: %[[R0:.+]] = tpu.vreduce_lanes sum
// CHECK: %[[M0:.+]] = tpu.vcmp eq, %[[DIAG]]
// CHECK: %[[A0:.+]] = tpu.vsel %[[M0]], %[[R0]]
// CHECK: tpu.vadd
// CHECK: %[[R1:.+]] = tpu.vreduce_lanes sum
// CHECK: %[[M1:.+]] = tpu.vcmp eq, %[[DIAG]]
// CHECK: %[[A1:.+]] = tpu.vsel %[[M1]], %[[R1]], %[[A0]]
// CHECK: tpu.vreduce_sublanes sum, %[[A1]]
// CHECK-NOT: tpu.dma
// CHECK: tpu.dma %{{.+}} -> %[[OUT]]{{.*}} chunks = 1 chunk_bytes = 64 src_stride = 0
// CHECK-NOT: tpu.dma
// CHECK: tpu.sem_wait 1, 1
// CHECK: return %[[OUT]]
func.func @main(%arg0: tensor<16x256xf32>) -> (tensor<16xf32>) {
  %0 = hlo.constant dense<0.000000e+00> : tensor<f32>
  %1 = hlo.reduce(%arg0) init(%0) dims = [1] : (tensor<16x256xf32>, tensor<f32>) -> tensor<16xf32> {
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %2 = hlo.add %arg1, %arg2 : tensor<f32>
    hlo.return %2 : tensor<f32>
  }
  return %1 : tensor<16xf32>
}


// -----

// reduce_window (NHWC max pool 2x2 stride 2): rows stream through a ring of
// VMEM slots, fetched far enough ahead to cover the DMA latency (500 cycles
// on tpu-v3 against 4 loads per window row: all 8 window rows, so the 16
// row DMAs go before the loop), each output tile the max of its 4 window
// taps, one tile DMA'd out per row from 8 staging slots.
// CHECK-LABEL: func.func @main
// CHECK: %[[OUT:.+]] = tpu.alloc {{.*}}memref<1x8x8x128xf32
// CHECK: tpu.sem_signal 1, 8
// CHECK-COUNT-16: tpu.dma %arg0
// CHECK: tpu.loop %{{.+}} = 0 to %{{.+}} {
// CHECK-NEXT: tpu.sem_wait 0, 2
// CHECK-COUNT-4: tpu.vmax
// CHECK: tpu.sem_wait 1, 1
// CHECK: tpu.dma %{{.+}} -> %[[OUT]]{{.*}} chunk_bytes = 4096{{.*$}}
// CHECK-NEXT: }
// CHECK-NEXT: tpu.sem_wait 1, 8
// CHECK: return %[[OUT]]
func.func @main(%arg0: tensor<1x16x16x128xf32>) -> (tensor<1x8x8x128xf32>) {
  %0 = hlo.constant dense<0xFF800000> : tensor<f32>
  %1 = hlo.reduce_window(%arg0) init(%0) {base_dilations = array<i64: 1, 1, 1, 1>, padding = array<i64: 0, 0, 0, 0, 0, 0, 0, 0>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x16x16x128xf32>, tensor<f32>) -> tensor<1x8x8x128xf32> {
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %2 = hlo.maximum %arg1, %arg2 : tensor<f32>
    hlo.return %2 : tensor<f32>
  }
  return %1 : tensor<1x8x8x128xf32>
}

