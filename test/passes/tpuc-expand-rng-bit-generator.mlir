// RUN: tpuc-opt %s --split-input-file --tpuc-expand-rng-bit-generator --verify-diagnostics | FileCheck %s --implicit-check-not=hlo.rng_bit_generator

// Threefry: the state's words through bitcasts, the counter plus an iota
// of the 4 halves of [8] with a carry, 20 rounds of add/rotate/xor, the
// two words stacked along the split dimension; the counter advanced by 4.
// CHECK-LABEL: func.func @threefry
// CHECK: hlo.bitcast_convert %arg0 : (tensor<2xui64>) -> tensor<2x2xui32>
// CHECK: hlo.bitcast_convert %{{.+}} : (tensor<2x2xui32>) -> tensor<2x2xi32>
// CHECK: hlo.iota dim = 0 : tensor<4xi32>
// CHECK-COUNT-20: hlo.shift_left
// CHECK: hlo.concatenate({{.*}}) dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
// CHECK: hlo.reshape {{.*}} -> tensor<8xi32>
// CHECK: hlo.constant dense<4> : tensor<i32>
// CHECK: hlo.bitcast_convert {{.*}} : (tensor<8xi32>) -> tensor<8xui32>
// CHECK: hlo.bitcast_convert {{.*}} : (tensor<2x2xui32>) -> tensor<2xui64>
func.func @threefry(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui32>) {
  %0, %1 = hlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui32>)
  return %0, %1 : tensor<2xui64>, tensor<8xui32>
}

// -----

// Philox: 10 rounds of two wide products (multiply and mulhi) on the 3
// blocks of [10].
// CHECK-LABEL: func.func @philox
// CHECK: hlo.iota dim = 0 : tensor<3xi32>
// CHECK-COUNT-20: hlo.mulhi
// CHECK: hlo.slice %{{.+}} [0:10:1] : (tensor<12xi32>) -> tensor<10xi32>
func.func @philox(%s: tensor<3xui64>) -> (tensor<3xui64>, tensor<10xi32>) {
  %0, %1 = hlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<10xi32>)
  return %0, %1 : tensor<3xui64>, tensor<10xi32>
}

// -----

func.func @narrow(%s: tensor<2xui64>) -> tensor<8xui8> {
  // expected-error @+1 {{tpuc compiles 'hlo.rng_bit_generator' with 32- and 64-bit results only, not 'tensor<8xui8>'}}
  %0, %1 = hlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui8>)
  return %1 : tensor<8xui8>
}
