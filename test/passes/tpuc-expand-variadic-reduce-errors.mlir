// RUN: tpuc-opt %s --split-input-file --tpuc-expand-variadic-reduce --verify-diagnostics

// A body op that is not elementwise on rank-0 values: an error at the reduce.
func.func @not_elementwise(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{tpuc expands 'hlo.reduce' bodies of elementwise ops only, not 'hlo.transpose'}}
  %r = hlo.reduce(%x) init(%zero) dims = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.transpose %a, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = hlo.subtract %0, %b : tensor<f32>
    hlo.return %1 : tensor<f32>
  }
  return %r : tensor<4xf32>
}

// -----

// A body value that is not rank 0 (a broadcast inside the body).
func.func @not_rank0(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{tpuc expands 'hlo.reduce' bodies of rank-0 elementwise ops only, not 'hlo.broadcast_in_dim'}}
  %r = hlo.reduce(%x) init(%zero) dims = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %1 = hlo.subtract %a, %b : tensor<f32>
    hlo.return %1 : tensor<f32>
  }
  return %r : tensor<4xf32>
}
