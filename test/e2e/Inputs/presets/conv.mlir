// A ResNet-style block on NHWC: 3x3 SAME convolution (C_in 16, C_out 32),
// bias and relu, then a 1x1 stride-2 projection. f32 at DEFAULT precision.
func.func @main(%x: tensor<2x10x10x16xf32>, %w: tensor<3x3x16x32xf32>,
                %b: tensor<32xf32>, %p: tensor<1x1x32x24xf32>)
    -> (tensor<2x10x10x32xf32>, tensor<2x5x5x24xf32>) {
  %c = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<2x10x10x16xf32>, tensor<3x3x16x32xf32>) -> tensor<2x10x10x32xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [3] : (tensor<32xf32>) -> tensor<2x10x10x32xf32>
  %s = hlo.add %c, %bb : tensor<2x10x10x32xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %z = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<2x10x10x32xf32>
  %r = hlo.maximum %s, %z : tensor<2x10x10x32xf32>
  %y = hlo.convolution %r, %p, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>}
       : (tensor<2x10x10x32xf32>, tensor<1x1x32x24xf32>) -> tensor<2x5x5x24xf32>
  return %r, %y : tensor<2x10x10x32xf32>, tensor<2x5x5x24xf32>
}
