// Data-movement forms the lowering rejects: one diagnostic at the op.
// RUN: tpuc-opt %s --split-input-file --verify-diagnostics --tpuc-convert-hlo-to-tpu

func.func @scatter_sub(%t: tensor<10x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8xf32>) -> tensor<10x8xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.scatter' whose update computation is not one add, multiply, maximum or minimum (and or or on pred), or a replace yet}}
  %0 = hlo.scatter(%t) at %i updates(%u), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<10x8xf32>, tensor<3x1xi32>, tensor<3x8xf32>) -> tensor<10x8xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.subtract %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<10x8xf32>
}

// -----

func.func @scatter_two(%t: tensor<10x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8xf32>) -> (tensor<10x8xf32>, tensor<10x8xf32>) {
  // expected-error @+1 {{tpuc cannot lower 'hlo.scatter' with several inputs yet}}
  %0:2 = hlo.scatter(%t, %t) at %i updates(%u, %u), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<10x8xf32>, tensor<10x8xf32>, tensor<3x1xi32>, tensor<3x8xf32>, tensor<3x8xf32>) -> (tensor<10x8xf32>, tensor<10x8xf32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    hlo.return %b, %d : tensor<f32>, tensor<f32>
  }
  return %0#0, %0#1 : tensor<10x8xf32>, tensor<10x8xf32>
}

