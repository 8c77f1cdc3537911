// Reductions: a row sum over a ragged minor dim (300), a column max over
// the major dim, and a bf16 sum accumulated in f32 (XLA's pattern).
func.func @main(%x: tensor<20x300xf32>, %h: tensor<24x130xbf16>)
    -> (tensor<20xf32>, tensor<300xf32>, tensor<24xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %s = hlo.reduce(%x) init(%zero) dims = [1] : (tensor<20x300xf32>, tensor<f32>) -> tensor<20xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.add %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %m = hlo.reduce(%x) init(%ninf) dims = [0] : (tensor<20x300xf32>, tensor<f32>) -> tensor<300xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.maximum %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %hf = hlo.convert %h : (tensor<24x130xbf16>) -> tensor<24x130xf32>
  %t = hlo.reduce(%hf) init(%zero) dims = [1] : (tensor<24x130xf32>, tensor<f32>) -> tensor<24xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.add %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  return %s, %m, %t : tensor<20xf32>, tensor<300xf32>, tensor<24xf32>
}
