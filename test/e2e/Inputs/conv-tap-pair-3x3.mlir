// The streamed 3x3 SAME 64 -> 64 convolution of conv-tap-pairs.mlir, alone.
func.func @main(%x: tensor<1x12x12x64xf32>, %w: tensor<3x3x64x64xf32>) -> tensor<1x12x12x64xf32> {
  %c = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<1x12x12x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x12x12x64xf32>
  return %c : tensor<1x12x12x64xf32>
}
