// RUN: tpuc-opt %s --tpuc-split-convolution-precision | FileCheck %s

// Operands rounded from f32 to bf16 only for a convolution (what
// mixed_bfloat16 makes) are read as f32: the MXU kernels round them the
// same way. The converts go; their bf16 precision_config goes too.
// CHECK-LABEL: func.func @rounded_operands
// CHECK-SAME: (%[[X:[^:]+]]: tensor<1x8x8x16xf32>, %[[W:[^:]+]]: tensor<3x3x16x32xf32>)
// CHECK-NOT: hlo.convert
// CHECK: %[[C:.+]] = hlo.convolution %[[X]], %[[W]], dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32>
// CHECK-NEXT: return %[[C]]
func.func @rounded_operands(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32> {
  %xb = hlo.convert %x : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xbf16>
  %wb = hlo.convert %w : (tensor<3x3x16x32xf32>) -> tensor<3x3x16x32xbf16>
  %0 = hlo.convolution %xb, %wb, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>, precision_config = [#hlo<precision HIGHEST>, #hlo<precision HIGHEST>]}
       : (tensor<1x8x8x16xbf16>, tensor<3x3x16x32xbf16>) -> tensor<1x8x8x32xf32>
  return %0 : tensor<1x8x8x32xf32>
}

// One operand at a time (mixed_bfloat16's usual case: a bf16 activation
// and a converted f32 kernel): the convolution reads bf16 x f32. With a
// bf16 operand the precision_config goes as well.
// CHECK-LABEL: func.func @one_operand
// CHECK-SAME: (%[[XB:[^:]+]]: tensor<1x8x8x16xbf16>, %[[W:[^:]+]]: tensor<3x3x16x32xf32>)
// CHECK-NOT: hlo.convert
// CHECK: %[[C:.+]] = hlo.convolution %[[XB]], %[[W]], dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x16xbf16>, tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32>
// CHECK-NEXT: return %[[C]]
func.func @one_operand(%xb: tensor<1x8x8x16xbf16>, %w: tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32> {
  %wb = hlo.convert %w : (tensor<3x3x16x32xf32>) -> tensor<3x3x16x32xbf16>
  %0 = hlo.convolution %xb, %wb, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>, precision_config = [#hlo<precision HIGHEST>, #hlo<precision HIGHEST>]}
       : (tensor<1x8x8x16xbf16>, tensor<3x3x16x32xbf16>) -> tensor<1x8x8x32xf32>
  return %0 : tensor<1x8x8x32xf32>
}

// Stays: a convert also used elsewhere (kept, the convolution still reads
// f32), and depthwise (the VPU kernel computes in f32).
// CHECK-LABEL: func.func @stays
// CHECK: hlo.convert
// CHECK-NEXT: hlo.convolution %{{.+}}, %{{.+}} : (tensor<1x8x8x16xf32>, tensor<1x1x16x32xbf16>)
// CHECK: hlo.convert
// CHECK: hlo.convert
// CHECK: hlo.convolution %{{.+}}, %{{.+}} : (tensor<1x4x6x6xbf16>, tensor<4x1x3x3xbf16>)
func.func @stays(%x: tensor<1x8x8x16xf32>, %wb: tensor<1x1x16x32xbf16>,
                 %d: tensor<1x4x6x6xf32>, %dw: tensor<4x1x3x3xf32>)
    -> (tensor<1x8x8x32xf32>, tensor<1x8x8x16xbf16>, tensor<1x4x4x4xf32>) {
  %xb = hlo.convert %x : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xbf16>
  %0 = hlo.convolution %xb, %wb, dim_labels = <"b01f_01io->b01f"> : (tensor<1x8x8x16xbf16>, tensor<1x1x16x32xbf16>) -> tensor<1x8x8x32xf32>
  %db = hlo.convert %d : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xbf16>
  %dwb = hlo.convert %dw : (tensor<4x1x3x3xf32>) -> tensor<4x1x3x3xbf16>
  %1 = hlo.convolution %db, %dwb, dim_labels = <"bf01_oi01->bf01"> {feature_group_count = 4 : i64} : (tensor<1x4x6x6xbf16>, tensor<4x1x3x3xbf16>) -> tensor<1x4x4x4xf32>
  return %0, %xb, %1 : tensor<1x8x8x32xf32>, tensor<1x8x8x16xbf16>, tensor<1x4x4x4xf32>
}
