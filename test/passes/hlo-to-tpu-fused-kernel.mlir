// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu | FileCheck %s

// A layer norm as tpuc-fuse leaves it (FusedKernel.cpp), 1x64x256 bf16:
// input fusions (a convert feeding a reduce) read the bf16 operand once
// into VMEM and reduce each row (vreduce_lanes); loop fusions compute
// their elementwise ops on vregs (vdiv for the mean, vsqrt for the
// deviation, vcvt for the bf16 rounding of the f32 registers) and a
// broadcast of the per-row statistic across lanes (vbcast_lane).
// CHECK-LABEL: func.func @main.3
// CHECK: %[[SUM:.+]] = tpu.alloc {{.*}}memref<1x64xf32
// CHECK: %[[OUT:.+]] = tpu.alloc {{.*}}memref<1x64x256xbf16
// Sum of x.
// CHECK: tpu.dma %arg0{{.*}} chunk_bytes = 32768
// The 8 tile rows are one group: their sums selected into one register's
// lanes, its sublanes combined once, one DMA of the 64 sums.
// CHECK-COUNT-8: tpu.vreduce_lanes sum
// CHECK: tpu.vreduce_sublanes sum
// CHECK: tpu.dma %{{.+}} -> %[[SUM]]{{.*}} chunks = 1 chunk_bytes = 256
// Mean = sum / 256.
// CHECK: tpu.vdiv
// CHECK: tpu.dma
// Sum of (x - mean)^2, the mean broadcast along the rows.
// CHECK: tpu.dma %arg0
// CHECK: tpu.vbcast_lane
// CHECK: tpu.vsub
// CHECK: tpu.vmul
// CHECK: tpu.vreduce_lanes sum
// (x - mean) / sqrt(var + eps).
// CHECK: tpu.vsqrt
// CHECK: tpu.dma %arg0
// CHECK: tpu.vbcast_lane
// CHECK: tpu.vdiv
// CHECK: tpu.dma %{{.+}} -> %[[OUT]]
// CHECK: return %[[OUT]]
  func.func @main.3(%arg0: tensor<1x64x256xbf16>) -> (tensor<1x64x256xbf16>) {
    %0 = hlo.fusion input(%arg0) : (tensor<1x64x256xbf16>) -> tensor<1x64xf32> {
    ^bb0(%arg1: tensor<1x64x256xbf16>):
      %4 = hlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = hlo.convert %arg1 : (tensor<1x64x256xbf16>) -> tensor<1x64x256xf32>
      %6 = hlo.reduce(%5) init(%4) dims = [2] : (tensor<1x64x256xf32>, tensor<f32>) -> tensor<1x64xf32> {
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %7 = hlo.add %arg2, %arg3 : tensor<f32>
        hlo.return %7 : tensor<f32>
      }
      hlo.return %6 : tensor<1x64xf32>
    }
    %1 = hlo.fusion loop(%0) : (tensor<1x64xf32>) -> tensor<1x64x1xf32> {
    ^bb0(%arg1: tensor<1x64xf32>):
      %4 = hlo.constant dense<2.560000e+02> : tensor<1x64x1xf32>
      %5 = hlo.reshape %arg1 : (tensor<1x64xf32>) -> tensor<1x64x1xf32>
      %6 = hlo.divide %5, %4 : tensor<1x64x1xf32>
      hlo.return %6 : tensor<1x64x1xf32>
    }
    %2 = hlo.fusion input(%1, %arg0) : (tensor<1x64x1xf32>, tensor<1x64x256xbf16>) -> tensor<1x64xf32> {
    ^bb0(%arg1: tensor<1x64x1xf32>, %arg2: tensor<1x64x256xbf16>):
      %4 = hlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = hlo.convert %arg1 : (tensor<1x64x1xf32>) -> tensor<1x64x1xbf16>
      %6 = hlo.reshape %5 : (tensor<1x64x1xbf16>) -> tensor<1x64xbf16>
      %7 = hlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<1x64xbf16>) -> tensor<1x64x256xbf16>
      %8 = hlo.subtract %arg2, %7 : tensor<1x64x256xbf16>
      %9 = hlo.multiply %8, %8 : tensor<1x64x256xbf16>
      %10 = hlo.convert %9 : (tensor<1x64x256xbf16>) -> tensor<1x64x256xf32>
      %11 = hlo.reduce(%10) init(%4) dims = [2] : (tensor<1x64x256xf32>, tensor<f32>) -> tensor<1x64xf32> {
      ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
        %12 = hlo.add %arg3, %arg4 : tensor<f32>
        hlo.return %12 : tensor<f32>
      }
      hlo.return %11 : tensor<1x64xf32>
    }
    %3 = hlo.fusion loop(%1, %arg0, %2) : (tensor<1x64x1xf32>, tensor<1x64x256xbf16>, tensor<1x64xf32>) -> tensor<1x64x256xbf16> {
    ^bb0(%arg1: tensor<1x64x1xf32>, %arg2: tensor<1x64x256xbf16>, %arg3: tensor<1x64xf32>):
      %4 = hlo.constant dense<1.001360e-05> : tensor<1x64x1xbf16>
      %5 = hlo.constant dense<2.560000e+02> : tensor<1x64x1xf32>
      %6 = hlo.convert %arg1 : (tensor<1x64x1xf32>) -> tensor<1x64x1xbf16>
      %7 = hlo.reshape %6 : (tensor<1x64x1xbf16>) -> tensor<1x64xbf16>
      %8 = hlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<1x64xbf16>) -> tensor<1x64x256xbf16>
      %9 = hlo.subtract %arg2, %8 : tensor<1x64x256xbf16>
      %10 = hlo.reshape %arg3 : (tensor<1x64xf32>) -> tensor<1x64x1xf32>
      %11 = hlo.divide %10, %5 : tensor<1x64x1xf32>
      %12 = hlo.convert %11 : (tensor<1x64x1xf32>) -> tensor<1x64x1xbf16>
      %13 = hlo.add %12, %4 : tensor<1x64x1xbf16>
      %14 = hlo.convert %13 : (tensor<1x64x1xbf16>) -> tensor<1x64x1xf32>
      %15 = hlo.sqrt %14 : tensor<1x64x1xf32>
      %16 = hlo.convert %15 : (tensor<1x64x1xf32>) -> tensor<1x64x1xbf16>
      %17 = hlo.reshape %16 : (tensor<1x64x1xbf16>) -> tensor<1x64xbf16>
      %18 = hlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<1x64xbf16>) -> tensor<1x64x256xbf16>
      %19 = hlo.convert %9 : (tensor<1x64x256xbf16>) -> tensor<1x64x256xf32>
      %20 = hlo.convert %18 : (tensor<1x64x256xbf16>) -> tensor<1x64x256xf32>
      %21 = hlo.divide %19, %20 : tensor<1x64x256xf32>
      %22 = hlo.convert %21 : (tensor<1x64x256xf32>) -> tensor<1x64x256xbf16>
      hlo.return %22 : tensor<1x64x256xbf16>
    }
    return %3 : tensor<1x64x256xbf16>
  }

