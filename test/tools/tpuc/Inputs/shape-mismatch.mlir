// Input for import-mlir.test: an add whose operands differ in shape.
func.func @f(%a: tensor<4xf32>, %b: tensor<5xf32>) -> tensor<4xf32> {
  %0 = "hlo.add"(%a, %b) : (tensor<4xf32>, tensor<5xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
