// RUN: tpuc-opt %s --split-input-file --tpuc-convert-hlo-to-tpu | FileCheck %s

// A loop fusion is one kernel (passes/HloToTpu/FusedKernel.cpp): one DMA
// in per input, one loop over the 2 tile rows, each row's 2 tiles unrolled
// with one vload per input tile and one vstore per output tile, the chain
// on vregs (bf16 intermediates rounded by one vreduce_precision to bf16's
// 8 exponent and 7 mantissa bits), one DMA out per
// output.
// CHECK-LABEL: func.func @chain
// CHECK-COUNT-2: tpu.dma %arg
// CHECK: tpu.sem_wait 0, 2
// CHECK: tpu.loop %{{.+}} = 0 to %c2 {
// CHECK-COUNT-2: tpu.vload
// CHECK-NEXT: tpu.vsub
// CHECK-NOT: tpu.v
// CHECK: tpu.vreduce_precision %{{.+}}, %c8{{[_0-9]*}}, %c7{{[_0-9]*}} : vector<8x128xf32>
// CHECK-NEXT: tpu.vmul
// CHECK-NOT: tpu.vload
// CHECK: tpu.vstore
// CHECK-NOT: tpu.vload
// CHECK: tpu.vrsqrt
// CHECK: tpu.vstore
// CHECK-COUNT-2: tpu.vload
// CHECK-NEXT: tpu.vsub
// CHECK-NOT: tpu.v
// CHECK: tpu.vreduce_precision %{{.+}}, %c8{{[_0-9]*}}, %c7{{[_0-9]*}} : vector<8x128xf32>
// CHECK-NEXT: tpu.vmul
// CHECK-NOT: tpu.vload
// CHECK: tpu.vstore
// CHECK-NOT: tpu.vload
// CHECK: tpu.vrsqrt
// CHECK: tpu.vstore
// CHECK-NOT: tpu.vstore
// CHECK: }
// CHECK-COUNT-2: tpu.dma %{{.+}} -> %{{.+}} sem = 1
// CHECK-NEXT: tpu.sem_wait 1, 2
// CHECK-NOT: tpu.dma
// CHECK: return
func.func @chain(%x: tensor<16x256xbf16>, %y: tensor<16x256xbf16>) -> (tensor<16x256xbf16>, tensor<16x256xf32>) {
  %r:2 = hlo.fusion loop(%x, %y) : (tensor<16x256xbf16>, tensor<16x256xbf16>) -> (tensor<16x256xbf16>, tensor<16x256xf32>) {
  ^bb0(%a: tensor<16x256xbf16>, %b: tensor<16x256xbf16>):
    %one = hlo.constant dense<1.0> : tensor<16x256xbf16>
    %0 = hlo.subtract %a, %b : tensor<16x256xbf16>
    %1 = hlo.multiply %0, %0 : tensor<16x256xbf16>
    %2 = hlo.add %1, %one : tensor<16x256xbf16>
    %3 = hlo.convert %2 : (tensor<16x256xbf16>) -> tensor<16x256xf32>
    %4 = hlo.multiply %3, %3 : tensor<16x256xf32>
    %5 = hlo.rsqrt %4 : tensor<16x256xf32>
    hlo.return %2, %5 : tensor<16x256xbf16>, tensor<16x256xf32>
  }
  return %r#0, %r#1 : tensor<16x256xbf16>, tensor<16x256xf32>
}

// -----

// Broadcasts inside the kernel: their sources stay whole in VMEM (one DMA
// each, before the loop) and each tile takes lane 0 of the per-row source
// (vbcast_lane), sublane ct % 8 of the rank-1 per-column source
// (vbcast_sublane), or the tile of a source broadcast over the outer dim.
// The reshape that renames unit dims moves nothing.
// CHECK-LABEL: func.func @broadcasts
// CHECK-COUNT-4: tpu.dma %arg
// CHECK-NOT: tpu.dma
// CHECK: tpu.loop
// CHECK: tpu.vload
// CHECK-NEXT: tpu.vbcast_lane %{{.+}}, %c0
// CHECK: tpu.vload
// CHECK-NEXT: tpu.vbcast_sublane
// CHECK: tpu.vload
// CHECK: tpu.vload
// CHECK-NEXT: tpu.vsub
// CHECK-NEXT: tpu.vmul
// CHECK-NEXT: tpu.vadd
// CHECK: tpu.vstore
// The row's second tile: the per-row source is not read again.
// CHECK-NOT: tpu.vbcast_lane
// CHECK: tpu.vbcast_sublane
// CHECK: tpu.vsub
// CHECK: tpu.vstore
// CHECK-NOT: tpu.vload
// CHECK: }
// CHECK: tpu.dma %{{.+}} sem = 1
// CHECK-NOT: tpu.dma
// CHECK: return
func.func @broadcasts(%x: tensor<2x16x256xf32>, %m: tensor<2x16x1xf32>, %g: tensor<256xf32>, %h: tensor<16x256xf32>) -> tensor<2x16x256xf32> {
  %r = hlo.fusion loop(%x, %m, %g, %h) : (tensor<2x16x256xf32>, tensor<2x16x1xf32>, tensor<256xf32>, tensor<16x256xf32>) -> tensor<2x16x256xf32> {
  ^bb0(%a: tensor<2x16x256xf32>, %b: tensor<2x16x1xf32>, %c: tensor<256xf32>, %d: tensor<16x256xf32>):
    %0 = hlo.reshape %b : (tensor<2x16x1xf32>) -> tensor<2x16xf32>
    %1 = hlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x256xf32>
    %2 = hlo.subtract %a, %1 : tensor<2x16x256xf32>
    %3 = hlo.broadcast_in_dim %c, dims = [2] : (tensor<256xf32>) -> tensor<2x16x256xf32>
    %4 = hlo.multiply %2, %3 : tensor<2x16x256xf32>
    %5 = hlo.broadcast_in_dim %d, dims = [1, 2] : (tensor<16x256xf32>) -> tensor<2x16x256xf32>
    %6 = hlo.add %4, %5 : tensor<2x16x256xf32>
    hlo.return %6 : tensor<2x16x256xf32>
  }
  return %r : tensor<2x16x256xf32>
}
