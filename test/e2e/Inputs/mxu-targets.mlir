// The dots and convolutions of test/e2e/mxu-targets.test: ragged M, K and N
// against 128- and 256-wide MXUs (K = 300: an odd count of 128-wide tiles;
// N = 200, 390: half-used 256-wide tiles), f32 operands at HIGH, a batch, a
// bf16 result; NHWC convolutions at stride 1 and 2 (C = 200, O = 136), a
// 1x1 with 300 output features, and a weight gradient over several
// 256-pixel blocks.
func.func @main(%a: tensor<40x300xbf16>, %b: tensor<300x200xbf16>,
                %c: tensor<2x24x130xf32>, %d: tensor<2x130x390xf32>,
                %x: tensor<2x10x11x200xbf16>, %w: tensor<3x3x200x136xbf16>,
                %y: tensor<3x6x7x40xf32>, %w1: tensor<1x1x40x300xf32>,
                %g: tensor<2x24x24x8xbf16>, %dy: tensor<2x24x24x140xbf16>)
    -> (tensor<40x200xf32>, tensor<2x24x390xf32>, tensor<2x10x11x136xf32>,
        tensor<2x5x6x136xf32>, tensor<3x6x7x300xf32>, tensor<3x3x8x140xf32>) {
  %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<40x300xbf16>, tensor<300x200xbf16>) -> tensor<40x200xf32>
  %1 = hlo.dot_general %c, %d, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
       {precision_config = [#hlo<precision HIGH>, #hlo<precision HIGH>]}
      : (tensor<2x24x130xf32>, tensor<2x130x390xf32>) -> tensor<2x24x390xf32>
  %2 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<2x10x11x200xbf16>, tensor<3x3x200x136xbf16>) -> tensor<2x10x11x136xf32>
  %3 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
       : (tensor<2x10x11x200xbf16>, tensor<3x3x200x136xbf16>) -> tensor<2x5x6x136xf32>
  %4 = hlo.convolution %y, %w1, dim_labels = <"b01f_01io->b01f">
       : (tensor<3x6x7x40xf32>, tensor<1x1x40x300xf32>) -> tensor<3x6x7x300xf32>
  %5 = hlo.convolution %g, %dy, dim_labels = <"f01b_i01o->01bf"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<2x24x24x8xbf16>, tensor<2x24x24x140xbf16>) -> tensor<3x3x8x140xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<40x200xf32>, tensor<2x24x390xf32>, tensor<2x10x11x136xf32>, tensor<2x5x6x136xf32>, tensor<3x6x7x300xf32>, tensor<3x3x8x140xf32>
}
