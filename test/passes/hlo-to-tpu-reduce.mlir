// RUN: tpuc-opt %s --split-input-file --tpuc-convert-hlo-to-tpu | FileCheck %s

// The reduction kernels (Reduce.cpp, ReduceWindow.cpp). A reduce over the
// minor dim: the operand's tiles in VMEM, each row block's two column
// tiles added on the VPU, then summed across lanes (vreduce_lanes) and
// combined with the init value; one 4-byte element per row back to HBM.
// CHECK-LABEL: func.func @main
// CHECK-SAME: -> memref<16xf32, #tpu.tiled<{0:T(1024)}>, #tpu.memory_space<hbm>>
// CHECK: %[[OUT:.+]] = tpu.alloc {{.*}}memref<16xf32
// CHECK: tpu.dma %arg0{{.*}} chunk_bytes = 16384
// CHECK-NOT: {{^ *}}tpu.
// CHECK: tpu.sem_wait 0, 1
// CHECK: tpu.loop %{{.+}} = 0 to %{{.+}} {
// CHECK: tpu.vadd
// CHECK: tpu.vreduce_lanes sum
// CHECK: tpu.vadd
// CHECK: }
// CHECK: tpu.dma %{{.+}} -> %[[OUT]]{{.*}} chunks = 16 chunk_bytes = 4 src_stride = 512 dst_stride = 4
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

// reduce_window (NHWC max pool 2x2 stride 2): row pairs stream through
// VMEM double-buffered (7 loop iterations plus the last one peeled), each
// output tile the max of its 4 window taps, one tile DMA'd out per row.
// CHECK-LABEL: func.func @main
// CHECK: %[[OUT:.+]] = tpu.alloc {{.*}}memref<1x8x8x128xf32
// CHECK: tpu.loop %{{.+}} = 0 to %{{.+}} {
// CHECK-COUNT-2: tpu.dma %arg0
// CHECK: tpu.sem_wait 0, 2
// CHECK-COUNT-4: tpu.vmax
// CHECK: tpu.dma %{{.+}} -> %[[OUT]]{{.*}} chunk_bytes = 4096
// CHECK: }
// CHECK-COUNT-4: tpu.vmax
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

