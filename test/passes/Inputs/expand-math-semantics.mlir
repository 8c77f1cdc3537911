// tpuc-expand-math's rewrites, run by the interpreter before and after
// (test/passes/tpuc-expand-math.mlir): %x sweeps [-20, 20] with edge
// values, %u [-1, 1].
func.func @main(%x: tensor<8x128xf32>, %u: tensor<8x128xf32>)
    -> (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>,
        tensor<8x128xf32>, tensor<8x128xf32>) {
  %0 = hlo.sine %x : tensor<8x128xf32>
  %1 = hlo.cosine %x : tensor<8x128xf32>
  %2 = hlo.tan %x : tensor<8x128xf32>
  %3 = hlo.asin %u : tensor<8x128xf32>
  %4 = hlo.atan2 %x, %u : tensor<8x128xf32>
  return %0, %1, %2, %3, %4 : tensor<8x128xf32>, tensor<8x128xf32>,
      tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>
}
