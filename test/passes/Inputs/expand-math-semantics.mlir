// tpuc-expand-math's rewrites, run by the interpreter before and after
// (test/passes/tpuc-expand-math.mlir): %x sweeps [-20, 20] with edge
// values, %u [-1, 1]. The fusion holds a bf16 sine and cosine of one
// value (expanded together, sharing the reduction).
func.func @main(%x: tensor<8x128xf32>, %u: tensor<8x128xf32>)
    -> (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>,
        tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xbf16>) {
  %0 = hlo.sine %x : tensor<8x128xf32>
  %1 = hlo.cosine %x : tensor<8x128xf32>
  %2 = hlo.tan %x : tensor<8x128xf32>
  %3 = hlo.asin %u : tensor<8x128xf32>
  %4 = hlo.atan2 %x, %u : tensor<8x128xf32>
  %5 = hlo.fusion loop(%x) : (tensor<8x128xf32>) -> tensor<8x128xbf16> {
  ^bb0(%a: tensor<8x128xf32>):
    %b = hlo.convert %a : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %s = hlo.sine %b : tensor<8x128xbf16>
    %c = hlo.cosine %b : tensor<8x128xbf16>
    %p = hlo.multiply %s, %c : tensor<8x128xbf16>
    hlo.return %p : tensor<8x128xbf16>
  }
  return %0, %1, %2, %3, %4, %5 : tensor<8x128xf32>, tensor<8x128xf32>,
      tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>,
      tensor<8x128xbf16>
}
