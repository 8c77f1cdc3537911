// conv-halo-first-chunk.mlir's 3x3 SAME 64 -> 64 at 40x40 with its bias
// and relu epilogue, alone.
func.func @main(%x: tensor<1x40x40x64xf32>, %w: tensor<3x3x64x64xf32>,
                %b: tensor<64xf32>) -> tensor<1x40x40x64xf32> {
  %c = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<1x40x40x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x40x40x64xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [3] : (tensor<64xf32>) -> tensor<1x40x40x64xf32>
  %s = hlo.add %c, %bb : tensor<1x40x40x64xf32>
  %zz = hlo.constant dense<0.0> : tensor<1x40x40x64xf32>
  %relu = hlo.maximum %s, %zz : tensor<1x40x40x64xf32>
  return %relu : tensor<1x40x40x64xf32>
}
