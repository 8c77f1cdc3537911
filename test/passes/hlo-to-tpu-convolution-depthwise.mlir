// RUN: tpuc-opt %s --split-input-file --tpuc-convert-hlo-to-tpu | FileCheck %s

// The corpus depthwise convolution (bf16 1x256x56x56, 3x3 pad 1) as the
// packed depthwise kernel (Convolution.cpp, docs/codegen.md "Depthwise
// NCHW"): two 58-lane padded planes share a vreg (lanes 0-63 and 64-127).
// Each plane is one DMA of its 56 rows of 112 bytes straight into its
// zero-padded slot (no VPU copy, no masks); 16 groups of 8 slot pairs, the
// loop runs groups 2-13 two at a time so every VMEM address is a constant:
// per output tile 9 loads at constant offsets, 9 multiplies, 8 adds, and
// two stores (the second plane's 64 lanes early).

// CHECK-LABEL: func.func @depthwise
// CHECK: %[[LANE:.+]] = tpu.vlane_id
// CHECK: %[[LOW:.+]] = tpu.vcmp lt, %[[LANE]]
// CHECK: tpu.dma %arg0[{{.+}}] chunks = 56 chunk_bytes = 112 src_stride = 256 dst_stride = 256 sem = 0
// CHECK: tpu.loop %{{.+}} = 0 to %c6
// CHECK: tpu.sem_wait 0, 16
// CHECK-COUNT-16: tpu.dma %arg0[%{{[0-9]+}}] -> %{{.+}}[%c{{[0-9_]+}}] chunks = 56 chunk_bytes = 112 src_stride = 256 dst_stride = 256 sem = 0
// CHECK: tpu.sem_wait 2, 1
// CHECK: %[[KA:.+]] = tpu.vload
// CHECK: %[[KB:.+]] = tpu.vload
// CHECK: %[[LA:.+]] = tpu.vbcast_lane %[[KA]]
// CHECK: %[[LB:.+]] = tpu.vbcast_lane %[[KB]]
// CHECK: %[[W0:.+]] = tpu.vsel %[[LOW]], %[[LA]], %[[LB]]
// CHECK: %[[T00:.+]] = tpu.vbcast_sublane %[[W0]]
// CHECK-NOT: arith.muli
// CHECK-NOT: arith.addi
// CHECK: %[[X0:.+]] = tpu.vload %{{.+}}[%c{{[0-9_]+}}] sublane_stride = 256
// CHECK: %[[P0:.+]] = tpu.vmul %[[X0]], %[[T00]]
// CHECK: %[[X1:.+]] = tpu.vload %{{.+}}[%c{{[0-9_]+}}] sublane_stride = 256
// CHECK: %[[P1:.+]] = tpu.vmul %[[X1]]
// CHECK: %[[S1:.+]] = tpu.vadd %[[P0]], %[[P1]]
// CHECK-COUNT-7: tpu.vadd
// CHECK-NOT: arith.addi
// CHECK: tpu.vstore %[[ACC:.+]], %{{.+}}[%c786432{{(_[0-9]+)?}}]
// CHECK: tpu.vstore %[[ACC]], %{{.+}}[%c800640{{(_[0-9]+)?}}]
func.func @depthwise(%x: tensor<1x256x56x56xbf16>, %w: tensor<256x1x3x3xbf16>)
    -> tensor<1x256x56x56xbf16> {
  %0 = hlo.convolution %x, %w, dim_labels = <"bf01_oi01->bf01"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 256 : i64}
       : (tensor<1x256x56x56xbf16>, tensor<256x1x3x3xbf16>) -> tensor<1x256x56x56xbf16>
  return %0 : tensor<1x256x56x56xbf16>
}

// -----

// Depthwise NHWC (f32 1x56x56x96, 3x3 pad 1; Convolution.cpp
// lowerDepthwiseNhwc): rows 1-50 in the loop, each one DMA of an input row
// into the ring, its wait, the wait for the write-back Q rows before; per
// tap its weights splat over sublanes loaded once from the table, then
// per output tile (7 of 8 rows) a sublane-strided load (stride 512 bytes:
// one w row of 128 f32 lanes), a multiply and an add.
// CHECK-LABEL: func.func @depthwise_nhwc
// CHECK: tpu.loop %{{.+}} = 0 to %c50
// CHECK: tpu.dma %arg0[%{{.+}}] -> %{{.+}}[%{{.+}}] chunks = 1 chunk_bytes = 28672 src_stride = 0 dst_stride = 0 sem = 0
// CHECK: tpu.sem_wait 0, 1
// CHECK: tpu.sem_wait 2, 1
// CHECK: %[[W0:.+]] = tpu.vload %{{.+}}[%c{{[0-9_]+}}] :
// CHECK: %[[X0:.+]] = tpu.vload %{{.+}}[%{{[0-9]+}}] sublane_stride = 512
// CHECK: tpu.vmul %[[X0]], %[[W0]]
// CHECK-COUNT-6: tpu.vmul %{{.+}}, %[[W0]]
// CHECK: %[[W1:.+]] = tpu.vload %{{.+}}[%c{{[0-9_]+}}] :
// CHECK: %[[X1:.+]] = tpu.vload %{{.+}}[%{{[0-9]+}}] sublane_stride = 512
// CHECK: %[[P1:.+]] = tpu.vmul %[[X1]], %[[W1]]
// CHECK: tpu.vadd %{{.+}}, %[[P1]]
func.func @depthwise_nhwc(%x: tensor<1x56x56x96xf32>, %w: tensor<3x3x1x96xf32>) -> tensor<1x56x56x96xf32> {
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 96 : i64}
       : (tensor<1x56x56x96xf32>, tensor<3x3x1x96xf32>) -> tensor<1x56x56x96xf32>
  return %0 : tensor<1x56x56x96xf32>
}
