// Data-movement forms the lowering rejects: one diagnostic at the op.
// RUN: tpuc-opt %s --split-input-file --verify-diagnostics --tpuc-convert-hlo-to-tpu

// An update computation the VPU does not evaluate (cosine is
// tpuc-expand-math's; other computations: test/e2e/scatter-general.mlir).
func.func @scatter_cosine(%t: tensor<10x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8xf32>) -> tensor<10x8xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.scatter' with an update computation that computes 'hlo.cosine' (the VPU evaluates it: elementwise ops and constants) yet}}
  %0 = hlo.scatter(%t) at %i updates(%u), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<10x8xf32>, tensor<3x1xi32>, tensor<3x8xf32>) -> tensor<10x8xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.cosine %b : tensor<f32>
    %s = hlo.add %a, %c : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<10x8xf32>
}
