// RUN: tpuc-opt %s --tpuc-canonicalize-convolutions --verify-diagnostics -o /dev/null

// A 3-D convolution whose kernel depth would make more 2-D convolutions
// than the pass emits.
func.func @deep_kernel(%x: tensor<1x300x4x4x2xf32>, %w: tensor<257x1x1x2x2xf32>) -> tensor<1x44x4x4x2xf32> {
  // expected-error @+1 {{'hlo.convolution' with 3 spatial dimensions and a kernel of 257 along the first would become 257 convolutions (at most 256)}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b012f_012io->b012f">
       : (tensor<1x300x4x4x2xf32>, tensor<257x1x1x2x2xf32>) -> tensor<1x44x4x4x2xf32>
  return %0 : tensor<1x44x4x4x2xf32>
}
