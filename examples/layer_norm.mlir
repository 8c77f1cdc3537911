// Layer normalisation over the last dimension of a bf16 [1,4096,768] tensor,
// as JAX emits it: the corpus graph layer_norm_1x4096x768_bf16.hlo written in
// the hlo dialect (locations carry XLA's instruction names).
func.func @main(%x: tensor<1x4096x768xbf16> loc("x.1")) -> tensor<1x4096x768xbf16> {
  %xf = hlo.convert %x : (tensor<1x4096x768xbf16>) -> tensor<1x4096x768xf32> loc("convert_element_type.4")
  %zero = hlo.constant dense<0.0> : tensor<f32> loc("constant.5")
  %sum = hlo.reduce(%xf) init(%zero) dims = [2] : (tensor<1x4096x768xf32>, tensor<f32>) -> tensor<1x4096xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32> loc("reduce_sum.5")
    hlo.return %s : tensor<f32>
  } loc("reduce_sum.14")
  %sum3 = hlo.reshape %sum : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32> loc("broadcast_in_dim.2")
  %n = hlo.constant dense<768.0> : tensor<f32> loc("constant.4")
  %nb = hlo.broadcast_in_dim %n, dims = [] : (tensor<f32>) -> tensor<1x4096x1xf32> loc("broadcast.1")
  %mean = hlo.divide %sum3, %nb : tensor<1x4096x1xf32> loc("div.6")
  %meanh = hlo.convert %mean : (tensor<1x4096x1xf32>) -> tensor<1x4096x1xbf16> loc("convert_element_type.5")
  %mean2 = hlo.reshape %meanh : (tensor<1x4096x1xbf16>) -> tensor<1x4096xbf16> loc("sub.13")
  %meanb = hlo.broadcast_in_dim %mean2, dims = [0, 1] : (tensor<1x4096xbf16>) -> tensor<1x4096x768xbf16> loc("sub.14")
  %centered = hlo.subtract %x, %meanb : tensor<1x4096x768xbf16> loc("sub.15")
  %sq = hlo.multiply %centered, %centered : tensor<1x4096x768xbf16> loc("integer_pow.1")
  %sqf = hlo.convert %sq : (tensor<1x4096x768xbf16>) -> tensor<1x4096x768xf32> loc("convert_element_type.6")
  %sqsum = hlo.reduce(%sqf) init(%zero) dims = [2] : (tensor<1x4096x768xf32>, tensor<f32>) -> tensor<1x4096xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32> loc("reduce_sum.12")
    hlo.return %s : tensor<f32>
  } loc("reduce_sum.15")
  %sqsum3 = hlo.reshape %sqsum : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32> loc("broadcast_in_dim.3")
  %var = hlo.divide %sqsum3, %nb : tensor<1x4096x1xf32> loc("div.7")
  %varh = hlo.convert %var : (tensor<1x4096x1xf32>) -> tensor<1x4096x1xbf16> loc("convert_element_type.7")
  %eps = hlo.constant dense<1.001e-05> : tensor<bf16> loc("constant.3")
  %epsb = hlo.broadcast_in_dim %eps, dims = [] : (tensor<bf16>) -> tensor<1x4096x1xbf16> loc("add.2")
  %vareps = hlo.add %varh, %epsb : tensor<1x4096x1xbf16> loc("add.3")
  %std = hlo.sqrt %vareps : tensor<1x4096x1xbf16> loc("sqrt.1")
  %std2 = hlo.reshape %std : (tensor<1x4096x1xbf16>) -> tensor<1x4096xbf16> loc("div.9")
  %stdb = hlo.broadcast_in_dim %std2, dims = [0, 1] : (tensor<1x4096xbf16>) -> tensor<1x4096x768xbf16> loc("div.10")
  %y = hlo.divide %centered, %stdb : tensor<1x4096x768xbf16> loc("div.11")
  return %y : tensor<1x4096x768xbf16>
}
