// RUN: tpuc-opt %s --split-input-file --tpuc-expand-rng --verify-diagnostics | FileCheck %s --implicit-check-not=hlo.rng_get_and_update_state --implicit-check-not="hlo.rng %"

// The state starts at XLA's 0x7012395 = 117515157: the first rng (seed 0)
// draws at it and advances it by its 1024 elements, the explicit state op
// returns 117516181 and adds 5, the second rng (seed of op id 1:
// 0x9E3779B97F4A7C15 >> 32 = 2654435769) draws at 117516186.
// Uniform f32: Philox bits, the 23 high bits as f32 times 2^-23, times
// (b - a), plus a. The explicit state op becomes its constant.
// CHECK-LABEL: func.func @uniform
// CHECK: %[[S0:.+]] = hlo.constant dense<[0, 117515157, 0]> : tensor<3xui64>
// CHECK: hlo.rng_bit_generator %[[S0]], algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<8x128xui32>)
// CHECK: hlo.shift_right_logical
// CHECK: hlo.convert {{.*}} -> tensor<8x128xf32>
// CHECK: hlo.constant dense<1.1920929E-7> : tensor<8x128xf32>
// CHECK: %[[RANGE:.+]] = hlo.subtract %arg1, %arg0 : tensor<f32>
// CHECK: hlo.broadcast_in_dim %[[RANGE]]
// CHECK: hlo.constant dense<[117516181, 0]> : tensor<2xui64>
// CHECK: hlo.constant dense<[2654435769, 117516186, 0]> : tensor<3xui64>
// Uniform s32: a + d/2 + (d - d/2), d the unsigned remainder of the words
// by (b - a), built from the signed remainder of the words >> 1.
// CHECK: %[[RANGE32:.+]] = hlo.subtract %arg3, %arg2 : tensor<i32>
// CHECK: hlo.shift_right_logical
// CHECK: hlo.remainder {{.*}} : tensor<4xi32>
// CHECK: hlo.select
// CHECK: return
func.func @uniform(%a: tensor<f32>, %b: tensor<f32>, %ia: tensor<i32>, %ib: tensor<i32>) -> (tensor<8x128xf32>, tensor<2xui64>, tensor<4xi32>) {
  %0 = hlo.rng %a, %b, distribution = UNIFORM : (tensor<f32>, tensor<f32>) -> tensor<8x128xf32>
  %1 = hlo.rng_get_and_update_state delta = 5 : tensor<2xui64>
  %2 = hlo.rng %ia, %ib, distribution = UNIFORM : (tensor<i32>, tensor<i32>) -> tensor<4xi32>
  return %0, %1, %2 : tensor<8x128xf32>, tensor<2xui64>, tensor<4xi32>
}

// -----

// Normal bf16: drawn in f32 (the bounds converted) on the [3, 2, 4]
// pairs of [6, 4] (split along dim 0, a new dim of 2 after it), Box-Muller,
// the two halves interleaved back, converted to bf16.
// CHECK-LABEL: func.func @normal
// CHECK: hlo.convert %arg0 : (tensor<bf16>) -> tensor<f32>
// CHECK: hlo.rng_bit_generator {{.*}} -> (tensor<3xui64>, tensor<3x2x4xui32>)
// CHECK: hlo.slice {{.*}} -> tensor<3x1x4xf32>
// CHECK: hlo.log
// CHECK: hlo.sine
// CHECK: hlo.cosine
// CHECK: hlo.concatenate({{.*}}) dim = 1 : (tensor<3x1x4xf32>, tensor<3x1x4xf32>) -> tensor<3x2x4xf32>
// CHECK: hlo.reshape {{.*}} -> tensor<6x4xf32>
// CHECK: hlo.convert {{.*}} -> tensor<6x4xbf16>
func.func @normal(%m: tensor<bf16>, %s: tensor<bf16>) -> tensor<6x4xbf16> {
  %0 = hlo.rng %m, %s, distribution = NORMAL : (tensor<bf16>, tensor<bf16>) -> tensor<6x4xbf16>
  return %0 : tensor<6x4xbf16>
}

// -----

// In a loop: the state (known until here: a constant) is one more loop
// state element; the body reads it and returns it advanced by the delta,
// the carry into the high word as XLA's (test/e2e/rng-control-flow.hlo
// runs loops, branches and calls against the interpreter).
// CHECK-LABEL: func.func @in_loop
// CHECK:      %[[S0:.+]] = hlo.constant dense<[117515157, 0]> : tensor<2xui64>
// CHECK:      %[[W:.+]]:2 = hlo.while(%arg0, %[[S0]]) : tensor<i32>, tensor<2xui64> cond {
// CHECK:      ^bb0(%{{.+}}: tensor<i32>, %[[ST:.+]]: tensor<2xui64>):
// CHECK:        %[[LO:.+]] = hlo.slice %[[ST]] [0:1:1]
// CHECK:        %[[HI:.+]] = hlo.slice %[[ST]] [1:2:1]
// CHECK:        %[[SUM:.+]] = hlo.add %[[LO]], %{{.+}} : tensor<1xui64>
// CHECK:        %[[CARRY:.+]] = hlo.compare LT, %[[SUM]], %[[LO]]
// CHECK:        %[[INC:.+]] = hlo.select %[[CARRY]]
// CHECK:        %[[NHI:.+]] = hlo.add %[[HI]], %[[INC]]
// CHECK:        %[[NEXT:.+]] = hlo.concatenate(%[[SUM]], %[[NHI]]) dim = 0
// CHECK:        hlo.return %{{.+}}, %[[NEXT]] : tensor<i32>, tensor<2xui64>
// CHECK:      return %[[W]]#0
func.func @in_loop(%n: tensor<i32>) -> tensor<i32> {
  %0 = hlo.while(%n) : tensor<i32> cond {
  ^bb0(%i: tensor<i32>):
    %c = hlo.constant dense<0> : tensor<i32>
    %p = hlo.compare GT, %i, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %p : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>):
    %s = hlo.rng_get_and_update_state delta = 1 : tensor<2xui64>
    %one = hlo.constant dense<1> : tensor<i32>
    %d = hlo.subtract %i, %one : tensor<i32>
    hlo.return %d : tensor<i32>
  }
  return %0 : tensor<i32>
}

// -----

// A draw in a loop's condition would advance the state every test: refused.
func.func @in_condition(%n: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{tpuc cannot compile a while loop whose condition draws random numbers}}
  %0 = hlo.while(%n) : tensor<i32> cond {
  ^bb0(%i: tensor<i32>):
    %s = hlo.rng_get_and_update_state delta = 1 : tensor<2xui64>
    %c = hlo.constant dense<0> : tensor<i32>
    %p = hlo.compare GT, %i, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %p : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>):
    %one = hlo.constant dense<1> : tensor<i32>
    %d = hlo.subtract %i, %one : tensor<i32>
    hlo.return %d : tensor<i32>
  }
  return %0 : tensor<i32>
}
