// RUN: tpuc-opt %s --split-input-file --tpuc-expand-narrow-floats --verify-diagnostics | FileCheck %s

// f16 add computes in f32 and is rounded to f16: reduce_precision(5, 10)
// from 2^-14 up, the subnormals (x * 2^24 rounded to an integer, times
// 2^-24) below it. The entry parameter keeps its type (converted to f32 where
// it enters), the convert from f16 to f32 disappears.
// CHECK-LABEL: func.func @add
// CHECK-SAME: (%[[A:.+]]: tensor<4xf16>) -> tensor<4xf32>
// CHECK: %[[W:.+]] = hlo.convert %[[A]] : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: %[[S:.+]] = hlo.add %[[W]], %[[W]] : tensor<4xf32>
// CHECK: %[[N:.+]] = hlo.reduce_precision %[[S]], exponent_bits = 5, mantissa_bits = 10 : tensor<4xf32>
// CHECK: %[[C24:.+]] = hlo.constant dense<0x4B800000> : tensor<4xf32>
// CHECK: %[[X:.+]] = hlo.multiply %[[S]], %[[C24]]
// CHECK: %[[CM24:.+]] = hlo.constant dense<5.96046448E-8> : tensor<4xf32>
// CHECK: %[[R:.+]] = hlo.round_nearest_even %[[X]]
// CHECK: %[[SUB:.+]] = hlo.multiply %[[R]], %[[CM24]]
// CHECK: %[[C14:.+]] = hlo.constant dense<6.10351563E-5> : tensor<4xf32>
// CHECK: %[[ABS:.+]] = hlo.abs %[[S]]
// CHECK: %[[TINY:.+]] = hlo.compare LT, %[[ABS]], %[[C14]]
// CHECK: %[[Y:.+]] = hlo.select %[[TINY]], %[[SUB]], %[[N]]
// CHECK: return %[[Y]] : tensor<4xf32>
func.func @add(%a: tensor<4xf16>) -> tensor<4xf32> {
  %s = hlo.add %a, %a : tensor<4xf16>
  %r = hlo.convert %s : (tensor<4xf16>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Data movement, max, negate and compares need no rounding; a convert to
// f16 is the rounding; an f16 result is converted back where it leaves.
// CHECK-LABEL: func.func @keeps
// CHECK: %[[R:.+]] = hlo.reduce_precision
// CHECK: %[[V:.+]] = hlo.select
// CHECK: %[[T:.+]] = hlo.transpose %[[V]]
// CHECK: %[[M:.+]] = hlo.maximum %[[T]], %[[V]] : tensor<4x4xf32>
// CHECK: %[[N:.+]] = hlo.negate %[[M]] : tensor<4x4xf32>
// CHECK: hlo.compare LT, %[[N]], %[[V]]
// CHECK: %[[O:.+]] = hlo.convert %[[N]] : (tensor<4x4xf32>) -> tensor<4x4xf16>
// CHECK: return %[[O]], %{{.+}}
// CHECK-NOT: reduce_precision
func.func @keeps(%x: tensor<4x4xf32>) -> (tensor<4x4xf16>, tensor<4x4xi1>) {
  %h = hlo.convert %x : (tensor<4x4xf32>) -> tensor<4x4xf16>
  %t = hlo.transpose %h, dims = [1, 0] : (tensor<4x4xf16>) -> tensor<4x4xf16>
  %m = hlo.maximum %t, %h : tensor<4x4xf16>
  %n = hlo.negate %m : tensor<4x4xf16>
  %c = hlo.compare LT, %n, %h : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xi1>
  return %n, %c : tensor<4x4xf16>, tensor<4x4xi1>
}

// -----

// A reduce's combiner stays the bare f32 add; its result is rounded. An f16
// constant becomes the same value in f32 (0.1 is 0.0999755859 in f16); a
// convert from s32 goes through f32.
// CHECK-LABEL: func.func @reduce
// CHECK: hlo.constant dense<0.0999755859> : tensor<f32>
// CHECK: hlo.reduce
// CHECK: ^bb0(%[[P:.+]]: tensor<f32>, %[[Q:.+]]: tensor<f32>):
// CHECK-NEXT: %[[S:.+]] = hlo.add %[[P]], %[[Q]] : tensor<f32>
// CHECK-NEXT: hlo.return %[[S]]
// CHECK: hlo.reduce_precision %{{.+}}, exponent_bits = 5, mantissa_bits = 10 : tensor<4xf32>
// CHECK: %[[I:.+]] = hlo.convert %{{.+}} : (tensor<4xi32>) -> tensor<4xf32>
// CHECK: hlo.reduce_precision %[[I]]
// CHECK-NOT: f16
func.func @reduce(%x: tensor<4x8xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %h = hlo.convert %x : (tensor<4x8xf32>) -> tensor<4x8xf16>
  %z = hlo.constant dense<0.1> : tensor<f16>
  %r = hlo.reduce(%h) init(%z) dims = [1] : (tensor<4x8xf16>, tensor<f16>) -> tensor<4xf16> {
  ^bb0(%p: tensor<f16>, %q: tensor<f16>):
    %s = hlo.add %p, %q : tensor<f16>
    hlo.return %s : tensor<f16>
  }
  %o = hlo.convert %r : (tensor<4xf16>) -> tensor<4xf32>
  %j = hlo.convert %i : (tensor<4xi32>) -> tensor<4xf16>
  %k = hlo.convert %j : (tensor<4xf16>) -> tensor<4xf32>
  return %o, %k : tensor<4xf32>, tensor<4xf32>
}

// -----

// A while loop's tuple state holds the f32 array; the body's multiply is
// rounded.
// CHECK-LABEL: func.func @loop
// CHECK: hlo.while(%{{.+}}) : tuple<tensor<4xf32>, tensor<i32>> cond
// CHECK: ^bb0(%{{.+}}: tuple<tensor<4xf32>, tensor<i32>>):
// CHECK: } do {
// CHECK: %[[M:.+]] = hlo.multiply %{{.+}}, %{{.+}} : tensor<4xf32>
// CHECK: hlo.reduce_precision %[[M]]
// CHECK: %[[Y:.+]] = hlo.select
// CHECK: hlo.tuple %[[Y]], %{{.+}} : (tensor<4xf32>, tensor<i32>) -> tuple<tensor<4xf32>, tensor<i32>>
// CHECK: %[[R:.+]] = hlo.get_tuple_element %{{.+}}[0]
// CHECK: %[[O:.+]] = hlo.convert %[[R]] : (tensor<4xf32>) -> tensor<4xf16>
// CHECK: return %[[O]] : tensor<4xf16>
func.func @loop(%a: tensor<4xf16>) -> tensor<4xf16> {
  %z = hlo.constant dense<0> : tensor<i32>
  %init = hlo.tuple %a, %z : (tensor<4xf16>, tensor<i32>) -> tuple<tensor<4xf16>, tensor<i32>>
  %w = hlo.while(%init) : tuple<tensor<4xf16>, tensor<i32>> cond {
  ^bb0(%st: tuple<tensor<4xf16>, tensor<i32>>):
    %n = hlo.get_tuple_element %st[1] : (tuple<tensor<4xf16>, tensor<i32>>) -> tensor<i32>
    %c = hlo.compare LT, %n, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } do {
  ^bb0(%st: tuple<tensor<4xf16>, tensor<i32>>):
    %x = hlo.get_tuple_element %st[0] : (tuple<tensor<4xf16>, tensor<i32>>) -> tensor<4xf16>
    %n = hlo.get_tuple_element %st[1] : (tuple<tensor<4xf16>, tensor<i32>>) -> tensor<i32>
    %y = hlo.multiply %x, %x : tensor<4xf16>
    %r = hlo.tuple %y, %n : (tensor<4xf16>, tensor<i32>) -> tuple<tensor<4xf16>, tensor<i32>>
    hlo.return %r : tuple<tensor<4xf16>, tensor<i32>>
  }
  %w0 = hlo.get_tuple_element %w[0] : (tuple<tensor<4xf16>, tensor<i32>>) -> tensor<4xf16>
  return %w0 : tensor<4xf16>
}

// -----

// bitcast_convert has no f16 form.
func.func @bitcast(%a: tensor<4xi32>) -> tensor<4x2xf16> {
  // expected-error @+1 {{tpuc does not compute 'hlo.bitcast_convert' on f16 or f8 types yet (docs/integers.md)}}
  %r = hlo.bitcast_convert %a : (tensor<4xi32>) -> tensor<4x2xf16>
  return %r : tensor<4x2xf16>
}
