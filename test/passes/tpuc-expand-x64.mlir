// RUN: tpuc-opt %s --split-input-file --tpuc-expand-x64 --verify-diagnostics | FileCheck %s --implicit-check-not=hlo.bitcast_convert

// u64 parameters and results become their u32 words, planar [2, ..], marked
// with their 64-bit type (hlo.host_type: the host array stays 64-bit); the
// bitcasts that only went to 64 bits and back disappear (the state goes to
// s32 words and back unchanged). A 64-bit value from a bitcast of minor
// word pairs [.., 2] (XLA's bitcast_convert) is returned planar.
// CHECK-LABEL: func.func @pairs
// CHECK-SAME: (%[[S:.+]]: tensor<2x2xui32> {hlo.host_type = ui64}, %[[X:.+]]: tensor<3xf32>) -> (tensor<2x2xui32> {hlo.host_type = ui64}, tensor<2x3x4xi32> {hlo.host_type = i64}, tensor<3xf32>)
// CHECK-NEXT: %[[C:.+]] = hlo.constant dense<7> : tensor<3x4x2xi32>
// CHECK-NEXT: %[[L0:.+]] = hlo.slice %[[C]] [0:3:1, 0:4:1, 0:1:1]
// CHECK-NEXT: %[[L:.+]] = hlo.reshape %[[L0]] : (tensor<3x4x1xi32>) -> tensor<3x4xi32>
// CHECK-NEXT: %[[H0:.+]] = hlo.slice %[[C]] [0:3:1, 0:4:1, 1:2:1]
// CHECK-NEXT: %[[H:.+]] = hlo.reshape %[[H0]]
// CHECK-NEXT: %[[L1:.+]] = hlo.reshape %[[L]] : (tensor<3x4xi32>) -> tensor<1x3x4xi32>
// CHECK-NEXT: %[[H1:.+]] = hlo.reshape %[[H]] : (tensor<3x4xi32>) -> tensor<1x3x4xi32>
// CHECK-NEXT: %[[P:.+]] = hlo.concatenate(%[[L1]], %[[H1]]) dim = 0
// CHECK-NEXT: return %[[S]], %[[P]], %[[X]]
func.func @pairs(%s: tensor<2xui64>, %x: tensor<3xf32>) -> (tensor<2xui64>, tensor<3x4xi64>, tensor<3xf32>) {
  %0 = hlo.bitcast_convert %s : (tensor<2xui64>) -> tensor<2x2xui32>
  %1 = hlo.bitcast_convert %0 : (tensor<2x2xui32>) -> tensor<2x2xi32>
  %2 = hlo.bitcast_convert %1 : (tensor<2x2xi32>) -> tensor<2x2xui32>
  %3 = hlo.bitcast_convert %2 : (tensor<2x2xui32>) -> tensor<2xui64>
  %c = hlo.constant dense<7> : tensor<3x4x2xi32>
  %4 = hlo.bitcast_convert %c : (tensor<3x4x2xi32>) -> tensor<3x4xi64>
  return %3, %4, %x : tensor<2xui64>, tensor<3x4xi64>, tensor<3xf32>
}

// -----

// An op without a word form is an error naming it (here after the
// operands were joined back to 64 bits).
func.func @mulhi(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{tpuc does not emulate 64-bit integer 'hlo.mulhi' on 'tensor<4xi64>' (tpuc-expand-x64 has no word form for it; docs/integers.md)}}
  %0 = hlo.mulhi %a, %b : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// A grouped 64-bit convolution is an error of its own.
func.func @grouped_conv(%a: tensor<1x3x8x8xi64>, %b: tensor<3x1x3x3xi64>) -> tensor<1x3x6x6xi64> {
  // expected-error @+1 {{tpuc emulates a 64-bit integer convolution only with feature_group_count and batch_group_count 1}}
  %0 = hlo.convolution %a, %b, dim_labels = <"bf01_oi01->bf01"> {feature_group_count = 3 : i64} : (tensor<1x3x8x8xi64>, tensor<3x1x3x3xi64>) -> tensor<1x3x6x6xi64>
  return %0 : tensor<1x3x6x6xi64>
}

// -----

// A 64-bit dot_general sums at most 65536 products per result.
func.func @long_dot(%a: tensor<1x70000xi64>, %b: tensor<70000x1xi64>) -> tensor<1x1xi64> {
  // expected-error @+1 {{tpuc emulates a 64-bit integer sum of at most 65536 elements per result, not 70000}}
  %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<1x70000xi64>, tensor<70000x1xi64>) -> tensor<1x1xi64>
  return %0 : tensor<1x1xi64>
}

// -----

// A private function keeps its types (its callers pass them as they are).
// CHECK-LABEL: func.func private @keep
// CHECK-SAME: (%{{.+}}: tensor<2xui64>) -> tensor<2xui64>
func.func private @keep(%s: tensor<2xui64>) -> tensor<2xui64> {
  return %s : tensor<2xui64>
}

// -----

// A u64 constant becomes the constant of its s32 words (5 = (5, 0),
// 2^33 - 1 = (-1, 1)), planar.
// CHECK-LABEL: func.func @constant
// CHECK: %[[C:.+]] = hlo.constant dense<{{\[\[}}5, -1], [0, 1]]> : tensor<2x2xi32>
// CHECK: %[[U:.+]] = hlo.bitcast_convert %[[C]] : (tensor<2x2xi32>) -> tensor<2x2xui32>
// CHECK: return %[[U]]
func.func @constant() -> tensor<2xui64> {
  %c = hlo.constant dense<[5, 8589934591]> : tensor<2xui64>
  return %c : tensor<2xui64>
}

// -----

// add: the low words' sum, its carry (an unsigned compare) into the high
// words' sum. The parameters' words are slices of the planar [2, 4] arrays, the
// result their concatenation.
// CHECK-LABEL: func.func @add
// CHECK-SAME: (%[[A:.+]]: tensor<2x4xi32> {hlo.host_type = i64}, %[[B:.+]]: tensor<2x4xi32> {hlo.host_type = i64}) -> (tensor<2x4xi32> {hlo.host_type = i64})
// CHECK-DAG: %[[BL:.+]] = hlo.reshape {{.*}} -> tensor<4xi32>
// CHECK-DAG: %[[BH:.+]] = hlo.reshape {{.*}} -> tensor<4xi32>
// CHECK-DAG: %[[AL0:.+]] = hlo.slice %[[A]] [0:1:1, 0:4:1]
// CHECK-DAG: %[[AL:.+]] = hlo.reshape %[[AL0]]
// CHECK-DAG: %[[AH0:.+]] = hlo.slice %[[A]] [1:2:1, 0:4:1]
// CHECK-DAG: %[[AH:.+]] = hlo.reshape %[[AH0]]
// CHECK: %[[LO:.+]] = hlo.add %[[AL]], %[[BL]] : tensor<4xi32>
// CHECK: %[[C:.+]] = hlo.compare LT, %[[LO]], %[[AL]], UNSIGNED
// CHECK: %[[CI:.+]] = hlo.convert %[[C]] : (tensor<4xi1>) -> tensor<4xi32>
// CHECK: %[[H0:.+]] = hlo.add %[[AH]], %[[BH]]
// CHECK: %[[HI:.+]] = hlo.add %[[H0]], %[[CI]]
// CHECK: %[[L1:.+]] = hlo.reshape %[[LO]] : (tensor<4xi32>) -> tensor<1x4xi32>
// CHECK: %[[H1:.+]] = hlo.reshape %[[HI]] : (tensor<4xi32>) -> tensor<1x4xi32>
// CHECK: %[[R:.+]] = hlo.concatenate(%[[L1]], %[[H1]]) dim = 0
// CHECK: return %[[R]]
func.func @add(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi64> {
  %0 = hlo.add %a, %b : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// u64 multiply: the unsigned high word of lo*lo (signed mulhi corrected
// where a sign bit is set) plus the low words of the cross products. The
// u32 words are bitcast to the VPU's s32.
// CHECK-LABEL: func.func @multiply
// CHECK-SAME: -> (tensor<2x4xui32> {hlo.host_type = ui64})
// CHECK-COUNT-4: hlo.bitcast_convert {{.*}} : (tensor<4xui32>) -> tensor<4xi32>
// CHECK: %[[MH:.+]] = hlo.mulhi %[[XL:.+]], %[[YL:.+]] : tensor<4xi32>
// CHECK: hlo.compare LT, %[[XL]]
// CHECK: hlo.select {{.*}}, %[[YL]],
// CHECK: hlo.compare LT, %[[YL]]
// CHECK: hlo.select {{.*}}, %[[XL]],
// CHECK: hlo.multiply %[[XL]], %{{.+}}
// CHECK: hlo.multiply %{{.+}}, %[[YL]]
// CHECK: %[[LO:.+]] = hlo.multiply %[[XL]], %[[YL]]
// CHECK: hlo.concatenate
// CHECK: %[[R:.+]] = hlo.bitcast_convert {{.*}} : (tensor<2x4xi32>) -> tensor<2x4xui32>
// CHECK: return %[[R]]
func.func @multiply(%a: tensor<4xui64>, %b: tensor<4xui64>) -> tensor<4xui64> {
  %0 = hlo.multiply %a, %b : tensor<4xui64>
  return %0 : tensor<4xui64>
}

// -----

// Signed LT: the high words (signed) decide unless equal, then the low
// words (unsigned).
// CHECK-LABEL: func.func @less
// CHECK: %[[L:.+]] = hlo.compare LT, %{{.+}}, %{{.+}}, UNSIGNED
// CHECK: %[[E:.+]] = hlo.compare EQ, %[[AH:.+]], %[[BH:.+]] :
// CHECK: %[[LE:.+]] = hlo.and %[[E]], %[[L]]
// CHECK: %[[H:.+]] = hlo.compare LT, %[[AH]], %[[BH]] :
// CHECK: %[[R:.+]] = hlo.or %[[H]], %[[LE]]
// CHECK: return %[[R]] : tensor<4xi1>
func.func @less(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi1> {
  %0 = hlo.compare LT, %a, %b : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// shift_left: an amount of 64 or more (or a non-zero high word) shifts by
// 64; each word is an or of the 32-bit shifts (which give 0 from 32 up).
// CHECK-LABEL: func.func @shift_left
// CHECK: %[[BIG:.+]] = hlo.compare GT, %[[NL:.+]], %{{.+}}, UNSIGNED
// CHECK: %[[HZ:.+]] = hlo.compare NE, %{{.+}}, %{{.+}} :
// CHECK: %[[OUT:.+]] = hlo.or %[[HZ]], %[[BIG]]
// CHECK: %[[N:.+]] = hlo.select %[[OUT]], %{{.+}}, %[[NL]]
// CHECK: hlo.shift_left %{{.+}}, %{{.+}}
// CHECK: hlo.shift_right_logical
// CHECK: hlo.shift_left %{{.+}}, %[[N]]
// CHECK: hlo.or
// CHECK: hlo.or
// CHECK: hlo.shift_left %{{.+}}, %[[N]]
func.func @shift_left(%a: tensor<4xi64>, %n: tensor<4xi64>) -> tensor<4xi64> {
  %0 = hlo.shift_left %a, %n : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// Data movement runs once per word; s64 indices of a dynamic slice of f32
// become s32 in place (saturated); a while loop carries its s64 state as
// [2, ..] words.
// CHECK-LABEL: func.func @movement
// CHECK-SAME: (%[[X:.+]]: tensor<2x4xi32> {hlo.host_type = i64}, %[[I:.+]]: tensor<2xi32> {hlo.host_type = i64}, %[[F:.+]]: tensor<8xf32>)
// CHECK: hlo.transpose %{{.+}}, dims = [1, 0] : (tensor<2x2xi32>) -> tensor<2x2xi32>
// CHECK: hlo.transpose %{{.+}}, dims = [1, 0] : (tensor<2x2xi32>) -> tensor<2x2xi32>
// CHECK: hlo.dynamic_slice %[[F]], [%{{.+}}], sizes = [2] : (tensor<8xf32>, tensor<i32>) -> tensor<2xf32>
// CHECK: hlo.while(%{{.+}}) : tensor<2xi32>
// CHECK: ^bb0(%{{.+}}: tensor<2xi32>)
// CHECK: ^bb0(%{{.+}}: tensor<2xi32>)
// CHECK-NOT: i64
// CHECK: return
func.func @movement(%x: tensor<4xi64>, %i: tensor<i64>, %f: tensor<8xf32>) -> (tensor<2x2xi64>, tensor<2xf32>, tensor<i64>) {
  %r = hlo.reshape %x : (tensor<4xi64>) -> tensor<2x2xi64>
  %t = hlo.transpose %r, dims = [1, 0] : (tensor<2x2xi64>) -> tensor<2x2xi64>
  %d = hlo.dynamic_slice %f, [%i], sizes = [2] : (tensor<8xf32>, tensor<i64>) -> tensor<2xf32>
  %w = hlo.while(%i) : tensor<i64> cond {
  ^bb0(%c: tensor<i64>):
    %ten = hlo.constant dense<10> : tensor<i64>
    %lt = hlo.compare LT, %c, %ten : (tensor<i64>, tensor<i64>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } do {
  ^bb0(%c: tensor<i64>):
    %one = hlo.constant dense<1> : tensor<i64>
    %n = hlo.add %c, %one : tensor<i64>
    hlo.return %n : tensor<i64>
  }
  return %t, %d, %w : tensor<2x2xi64>, tensor<2xf32>, tensor<i64>
}

// -----

// argsort: an s64 operand sorted along the keys is two s32 operands (its
// words); the comparator gets their arguments.
// CHECK-LABEL: func.func @argsort
// CHECK: %[[S:.+]]:3 = hlo.sort(%{{.+}}, %[[LO:.+]], %[[HI:.+]]) dim = 0 : (tensor<8xf32>, tensor<8xi32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>, tensor<8xi32>)
// CHECK: ^bb0(%[[P:.+]]: tensor<f32>, %[[Q:.+]]: tensor<f32>, %{{.+}}: tensor<i32>, %{{.+}}: tensor<i32>, %{{.+}}: tensor<i32>, %{{.+}}: tensor<i32>):
// CHECK: hlo.compare LT, %[[P]], %[[Q]]
// CHECK: hlo.concatenate(%{{.+}}, %{{.+}}) dim = 0 {{.*}} -> tensor<2x8xi32>
func.func @argsort(%k: tensor<8xf32>) -> tensor<8xi64> {
  %i = hlo.iota dim = 0 : tensor<8xi64>
  %s:2 = hlo.sort(%k, %i) dim = 0 : (tensor<8xf32>, tensor<8xi64>) -> (tensor<8xf32>, tensor<8xi64>) {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>, %pi: tensor<i64>, %qi: tensor<i64>):
    %lt = hlo.compare LT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  }
  return %s#1 : tensor<8xi64>
}
