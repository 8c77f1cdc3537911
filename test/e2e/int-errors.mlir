// Forms the elementwise, constant and control-flow kernels reject: one
// diagnostic at the op.
// RUN: tpuc-opt %s --split-input-file --verify-diagnostics --tpuc-convert-hlo-to-tpu

func.func @bitcast_narrow(%a: tensor<8xf32>) -> tensor<8x2xbf16> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.bitcast_convert' from f32 to bf16 (only f32 <-> s32) yet}}
  %r = hlo.bitcast_convert %a : (tensor<8xf32>) -> tensor<8x2xbf16>
  return %r : tensor<8x2xbf16>
}

// -----

func.func @pred_add(%a: tensor<8xi32>, %b: tensor<8xi32>) -> tensor<8xi32> {
  %p = hlo.compare LT, %a, %b : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  // expected-error @+1 {{tpuc cannot lower 'hlo.add' on pred yet}}
  %q = hlo.add %p, %p : tensor<8xi1>
  %r = hlo.convert %q : (tensor<8xi1>) -> tensor<8xi32>
  return %r : tensor<8xi32>
}

// -----

func.func @f64_constant(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.constant' of type tensor<4xf64> yet}}
  %k = hlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>
  %c = hlo.convert %k : (tensor<4xf64>) -> tensor<4xf32>
  %r = hlo.add %a, %c : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @iota_pred() -> tensor<4xi32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.iota' of pred yet}}
  %p = hlo.iota dim = 0 : tensor<4xi1>
  %r = hlo.convert %p : (tensor<4xi1>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

func.func private @external(tensor<4xf32>) -> tensor<4xf32>

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.call' of a function without a one-block body yet}}
  %r = hlo.call @external(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
