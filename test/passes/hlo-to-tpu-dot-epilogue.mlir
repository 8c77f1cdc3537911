// RUN: tpuc-opt %s --split-input-file --tpuc-convert-hlo-to-tpu | FileCheck %s

// An output fusion in one kernel (Epilogue.cpp, docs/codegen.md "Output
// fusions"): bf16 16x384 x 384x256 on the two MXUs, then + a [256] bias, +
// a same-shape residual, relu and a convert to bf16, applied to the f32
// result tiles in VMEM after the last K step. The bias sits in VMEM (one
// DMA), the residual arrives per result piece on semaphore 3 while the
// MXUs work, and only the fusion's bf16 result goes to HBM: the raw f32
// product gets no HBM buffer and is never DMA'd out.
// CHECK-LABEL: func.func @main
// CHECK-NOT: tpu.alloc {{.*}}hbm
// CHECK: %[[OUT:.+]] = tpu.alloc {{.*}}memref<16x256xbf16, {{.*}}hbm
// CHECK-NOT: tpu.alloc {{.*}}hbm
// CHECK: tpu.dma %arg2{{.*}} chunks = 1 chunk_bytes = 4096
// CHECK: tpu.dma %arg3{{.*}} chunks = 2 chunk_bytes = 4096 src_stride = 8192 dst_stride = 4096 sem = 3
// CHECK: tpu.dma %arg3{{.*}} sem = 3
// CHECK: tpu.mxu_matmul
// CHECK-COUNT-4: tpu.mxu_matmul {{.+}} rows = 16 accumulate
// CHECK-NOT: tpu.mxu_matmul
// CHECK: tpu.sem_wait 3, 2
// CHECK: tpu.vbcast_sublane %{{.+}}, %c0
// CHECK-NOT: tpu.loop
// CHECK: tpu.vadd
// CHECK: tpu.vload
// CHECK: tpu.vadd
// CHECK: tpu.vmax
// CHECK: tpu.vstore {{.+}}bf16
// The piece's second tile, unrolled: relu's zero splat is shared.
// CHECK-NOT: {{tpu.loop|tpu.vsplat}}
// CHECK: tpu.vmax
// CHECK: tpu.vstore {{.+}}bf16
// CHECK: tpu.vbcast_sublane %{{.+}}, %c1
// CHECK: tpu.dma %{{.+}} -> %[[OUT]]{{.*}} chunks = 2 chunk_bytes = 2048 src_stride = 2048 dst_stride = 4096 sem = 2
// CHECK: tpu.dma %{{.+}} -> %[[OUT]]{{.*}} sem = 2
// CHECK-NEXT: tpu.sem_wait 2, 2
// CHECK-NOT: tpu.dma
// CHECK: return %[[OUT]]
func.func @main(%x: tensor<16x384xbf16>, %w: tensor<384x256xbf16>,
                %b: tensor<256xf32>, %res: tensor<16x256xf32>) -> tensor<16x256xbf16> {
  %0 = hlo.fusion output(%x, %w, %b, %res) : (tensor<16x384xbf16>, tensor<384x256xbf16>, tensor<256xf32>, tensor<16x256xf32>) -> tensor<16x256xbf16> {
  ^bb0(%a0: tensor<16x384xbf16>, %a1: tensor<384x256xbf16>, %a2: tensor<256xf32>, %a3: tensor<16x256xf32>):
    %zero = hlo.constant dense<0.0> : tensor<16x256xf32>
    %d = hlo.dot_general %a0, %a1, dims = <lhs_contracting = [1], rhs_contracting = [0]>
        : (tensor<16x384xbf16>, tensor<384x256xbf16>) -> tensor<16x256xf32>
    %bb = hlo.broadcast_in_dim %a2, dims = [1] : (tensor<256xf32>) -> tensor<16x256xf32>
    %s = hlo.add %d, %bb : tensor<16x256xf32>
    %t = hlo.add %s, %a3 : tensor<16x256xf32>
    %r = hlo.maximum %t, %zero : tensor<16x256xf32>
    %c = hlo.convert %r : (tensor<16x256xf32>) -> tensor<16x256xbf16>
    hlo.return %c : tensor<16x256xbf16>
  }
  return %0 : tensor<16x256xbf16>
}

// -----

// A multi-output fusion returning the raw product too: the kernel writes
// both from VMEM (two HBM buffers, two DMAs per piece), and nothing else
// reads the product back.
// CHECK-LABEL: func.func @main
// CHECK: %[[RAW:.+]] = tpu.alloc {{.*}}memref<24x136xf32, {{.*}}hbm
// CHECK: %[[RELU:.+]] = tpu.alloc {{.*}}memref<24x136xf32, {{.*}}hbm
// CHECK-NOT: tpu.alloc {{.*}}memref<24x136xf32, {{.*}}hbm
// CHECK-NOT: tpu.dma %[[RAW]]
// CHECK: tpu.dma %{{.+}} -> %[[RAW]]
// CHECK: tpu.dma %{{.+}} -> %[[RELU]]
// CHECK-NOT: tpu.dma %[[RAW]]
// CHECK: return %[[RAW]], %[[RELU]]
func.func @main(%x: tensor<24x200xf32>, %w: tensor<200x136xf32>,
                %b: tensor<136xf32>) -> (tensor<24x136xf32>, tensor<24x136xf32>) {
  %0:2 = hlo.fusion output(%x, %w, %b) : (tensor<24x200xf32>, tensor<200x136xf32>, tensor<136xf32>) -> (tensor<24x136xf32>, tensor<24x136xf32>) {
  ^bb0(%a0: tensor<24x200xf32>, %a1: tensor<200x136xf32>, %a2: tensor<136xf32>):
    %zero = hlo.constant dense<0.0> : tensor<24x136xf32>
    %d = hlo.dot_general %a0, %a1, dims = <lhs_contracting = [1], rhs_contracting = [0]>
        : (tensor<24x200xf32>, tensor<200x136xf32>) -> tensor<24x136xf32>
    %bb = hlo.broadcast_in_dim %a2, dims = [1] : (tensor<136xf32>) -> tensor<24x136xf32>
    %s = hlo.add %d, %bb : tensor<24x136xf32>
    %r = hlo.maximum %s, %zero : tensor<24x136xf32>
    hlo.return %d, %r : tensor<24x136xf32>, tensor<24x136xf32>
  }
  return %0#0, %0#1 : tensor<24x136xf32>, tensor<24x136xf32>
}

// -----

// One f32 root (bias + relu) lives in the f32 C panels: each tile is
// loaded from its panel, and its root stored back over it and written to
// HBM from there; the kernel stages no root of its own.
// CHECK-LABEL: func.func @main
// CHECK: %[[OUT:.+]] = tpu.alloc {{.*}}memref<16x256xf32, {{.*}}hbm
// CHECK: tpu.mxu_matmul {{.+}} -> %{{.+}}[%c[[P0:[0-9]+]]{{(_[0-9]+)?}}] mxu = 0 rows = 16 accumulate
// CHECK: tpu.mxu_matmul {{.+}} -> %{{.+}}[%c[[P1:[0-9]+]]{{(_[0-9]+)?}}] mxu = 1 rows = 16 accumulate
// CHECK-NOT: tpu.loop
// CHECK: tpu.vload %{{.+}}[%c[[P0]]{{(_[0-9]+)?}}]
// CHECK: tpu.vmax
// CHECK: tpu.vstore %{{.+}}, %{{.+}}[%c[[P0]]{{(_[0-9]+)?}}] {{.*}}f32
// CHECK-NOT: tpu.loop
// CHECK: tpu.dma %{{.+}}[%c[[P0]]{{(_[0-9]+)?}}] -> %[[OUT]]
// CHECK: tpu.dma %{{.+}}[%c[[P1]]{{(_[0-9]+)?}}] -> %[[OUT]]
func.func @main(%x: tensor<16x384xbf16>, %w: tensor<384x256xbf16>,
                %b: tensor<256xf32>) -> tensor<16x256xf32> {
  %0 = hlo.fusion output(%x, %w, %b) : (tensor<16x384xbf16>, tensor<384x256xbf16>, tensor<256xf32>) -> tensor<16x256xf32> {
  ^bb0(%a0: tensor<16x384xbf16>, %a1: tensor<384x256xbf16>, %a2: tensor<256xf32>):
    %zero = hlo.constant dense<0.0> : tensor<16x256xf32>
    %d = hlo.dot_general %a0, %a1, dims = <lhs_contracting = [1], rhs_contracting = [0]>
        : (tensor<16x384xbf16>, tensor<384x256xbf16>) -> tensor<16x256xf32>
    %bb = hlo.broadcast_in_dim %a2, dims = [1] : (tensor<256xf32>) -> tensor<16x256xf32>
    %s = hlo.add %d, %bb : tensor<16x256xf32>
    %r = hlo.maximum %s, %zero : tensor<16x256xf32>
    hlo.return %r : tensor<16x256xf32>
  }
  return %0 : tensor<16x256xf32>
}
