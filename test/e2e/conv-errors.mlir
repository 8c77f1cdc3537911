// Convolution forms tpuc-convert-hlo-to-tpu rejects: one diagnostic at the
// op naming what is missing.
// RUN: tpuc-opt %s --split-input-file --verify-diagnostics --tpuc-convert-hlo-to-tpu -o /dev/null

// The input gradient of a strided convolution (lhs_dilation).
func.func @lhs_dilation(%x: tensor<1x4x4x8xf32>, %w: tensor<3x3x8x8xf32>) -> tensor<1x9x9x8xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.convolution' with lhs_dilation yet}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 2, 2, 2, 2>, lhs_dilation = array<i64: 2, 2>}
       : (tensor<1x4x4x8xf32>, tensor<3x3x8x8xf32>) -> tensor<1x9x9x8xf32>
  return %0 : tensor<1x9x9x8xf32>
}

// -----

// NCHW without feature groups: the features are not the minor dimension.
func.func @nchw(%x: tensor<1x8x6x6xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x4x4xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.convolution' with dim_labels bf01_oi01->bf01 (the MXU kernel needs the features minor and spatial dim 1 second-minor, e.g. b01f_01io->b01f) yet}}
  %0 = hlo.convolution %x, %w, dim_labels = <"bf01_oi01->bf01">
       : (tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// Grouped (not depthwise) convolution.
func.func @groups(%x: tensor<1x6x6x8xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x4x4x8xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.convolution' with feature_group_count 2 with dim_labels b01f_01io->b01f (only depthwise bf01_oi01->bf01 and b01f_01io->b01f) yet}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {feature_group_count = 2 : i64}
       : (tensor<1x6x6x8xf32>, tensor<3x3x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %0 : tensor<1x4x4x8xf32>
}

// -----

// f32 at HIGHEST precision reaching the kernel: tpuc-split-convolution-precision
// (in the codegen pipeline before it) rewrites such convolutions into bf16 passes.
func.func @highest(%x: tensor<1x6x6x8xf32>, %w: tensor<3x3x8x8xf32>) -> tensor<1x4x4x8xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.convolution' with precision HIGHEST yet}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {precision_config = [#hlo<precision HIGHEST>, #hlo<precision HIGHEST>]}
       : (tensor<1x6x6x8xf32>, tensor<3x3x8x8xf32>) -> tensor<1x4x4x8xf32>
  return %0 : tensor<1x4x4x8xf32>
}

// -----

// One spatial dimension.
func.func @conv1d(%x: tensor<2x10x8xf32>, %w: tensor<3x8x4xf32>) -> tensor<2x8x4xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.convolution' with 1 spatial dimensions (only 2) yet}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b0f_0io->b0f">
       : (tensor<2x10x8xf32>, tensor<3x8x4xf32>) -> tensor<2x8x4xf32>
  return %0 : tensor<2x8x4xf32>
}

// -----

// Depthwise NCHW with a stride along W (the lanes).
func.func @depthwise_lane_stride(%x: tensor<1x4x8x8xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x6x3xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.convolution' (depthwise NCHW) with a stride along the minor dimension yet}}
  %0 = hlo.convolution %x, %w, dim_labels = <"bf01_oi01->bf01"> {window_strides = array<i64: 1, 2>, feature_group_count = 4 : i64}
       : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x3xf32>
  return %0 : tensor<1x4x6x3xf32>
}

// -----

// A weight gradient with window_reversal.
func.func @wgrad_reversal(%x: tensor<2x6x6x3xf32>, %dy: tensor<2x6x6x4xf32>) -> tensor<3x3x3x4xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.convolution' (weight gradient) with window_reversal yet}}
  %0 = hlo.convolution %x, %dy, dim_labels = <"f01b_i01o->01bf"> {padding = array<i64: 1, 1, 1, 1>, window_reversal = array<i1: true, false>}
       : (tensor<2x6x6x3xf32>, tensor<2x6x6x4xf32>) -> tensor<3x3x3x4xf32>
  return %0 : tensor<3x3x3x4xf32>
}
