// Forms the elementwise, constant and control-flow kernels reject: one
// diagnostic at the op.
// RUN: tpuc-opt %s --split-input-file --verify-diagnostics --tpuc-convert-hlo-to-tpu

func.func @totalorder(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.compare' with compare type TOTALORDER yet}}
  %p = hlo.compare LT, %a, %b, TOTALORDER : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %r = hlo.select %p, %a, %b : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @unsigned(%a: tensor<8xi32>, %b: tensor<8xi32>) -> tensor<8xi32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.compare' with compare type UNSIGNED yet}}
  %p = hlo.compare LT, %a, %b, UNSIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  %r = hlo.convert %p : (tensor<8xi1>) -> tensor<8xi32>
  return %r : tensor<8xi32>
}

// -----

func.func @bitwise(%a: tensor<8xi32>, %b: tensor<8xi32>) -> tensor<8xi32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.and' on s32 (the VPU has no bitwise ops) yet}}
  %r = hlo.and %a, %b : tensor<8xi32>
  return %r : tensor<8xi32>
}

// -----

func.func @fmod(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.remainder' on floats yet}}
  %r = hlo.remainder %a, %b : tensor<8xf32>
  return %r : tensor<8xf32>
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
