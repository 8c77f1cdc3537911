// RUN: tpuc-opt %s --tpuc-hoist-while-invariants --split-input-file | FileCheck %s
// The rewrite must not change a value: the interpreter gives bit-identical
// results before and after it.
// RUN: tpuc-opt %s --tpuc-hoist-while-invariants -o %t.mlir
// RUN: tpuc interpret %s --function=operands --random-inputs=3 --output-dir=%t.operands.ref
// RUN: tpuc interpret %t.mlir --function=operands --random-inputs=3 --output-dir=%t.operands.got
// RUN: cmp %t.operands.ref/result0.npy %t.operands.got/result0.npy
// RUN: tpuc interpret %s --function=tuple_state --random-inputs=3 --output-dir=%t.tuple.ref
// RUN: tpuc interpret %t.mlir --function=tuple_state --random-inputs=3 --output-dir=%t.tuple.got
// RUN: cmp %t.tuple.ref/result0.npy %t.tuple.got/result0.npy
// RUN: tpuc interpret %s --function=nest --random-inputs=3 --output-dir=%t.nest.ref
// RUN: tpuc interpret %t.mlir --function=nest --random-inputs=3 --output-dir=%t.nest.got
// RUN: cmp %t.nest.ref/result0.npy %t.nest.got/result0.npy

// The operand form: exp(x) times a broadcast 2 does not change between
// iterations; the counter and the accumulator do. The constant and the
// broadcast are copied out with the work that reads them.
// CHECK-LABEL: func.func @operands
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8x128xf32>, %[[ACC:[^:]+]]: tensor<8x128xf32>)
// CHECK: %[[E:.+]] = hlo.exponential %[[X]]
// CHECK: %[[C:.+]] = hlo.constant dense<2.000000e+00> : tensor<f32>
// CHECK: %[[B:.+]] = hlo.broadcast_in_dim %[[C]]
// CHECK: %[[S:.+]] = hlo.multiply %[[E]], %[[B]]
// CHECK: hlo.while
// CHECK: do {
// CHECK-NOT: hlo.exponential
// CHECK-NOT: hlo.multiply
// CHECK-NOT: hlo.broadcast_in_dim
// CHECK: hlo.add %{{.+}}, %[[S]]
// CHECK: hlo.return
func.func @operands(%x: tensor<8x128xf32>, %acc: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %w:3 = hlo.while(%zero, %x, %acc) : tensor<i32>, tensor<8x128xf32>, tensor<8x128xf32> cond {
  ^bb0(%i: tensor<i32>, %xs: tensor<8x128xf32>, %a: tensor<8x128xf32>):
    %n = hlo.constant dense<5> : tensor<i32>
    %lt = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %xs: tensor<8x128xf32>, %a: tensor<8x128xf32>):
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %e = hlo.exponential %xs : tensor<8x128xf32>
    %two = hlo.constant dense<2.0> : tensor<f32>
    %b = hlo.broadcast_in_dim %two, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %s = hlo.multiply %e, %b : tensor<8x128xf32>
    %n = hlo.add %a, %s : tensor<8x128xf32>
    hlo.return %i1, %xs, %n : tensor<i32>, tensor<8x128xf32>, tensor<8x128xf32>
  }
  return %w#2 : tensor<8x128xf32>
}

// -----

// The tuple form XLA dumps: element 1 (w) is returned unchanged, so
// tanh(w) leaves the loop, read from the hlo.tuple the loop starts from.
// Work on the changing element 2 stays.
!state = tuple<tensor<i32>, tensor<16x256xf32>, tensor<16x256xf32>>
// CHECK-LABEL: func.func @tuple_state
// CHECK-SAME: (%[[W:[^:]+]]: tensor<16x256xf32>, %[[H:[^:]+]]: tensor<16x256xf32>)
// CHECK: %[[T:.+]] = hlo.tanh %[[W]]
// CHECK: hlo.while
// CHECK: do {
// CHECK-NOT: hlo.tanh
// CHECK: %[[HS:.+]] = hlo.get_tuple_element %{{.+}}[2]
// CHECK: hlo.multiply %[[HS]], %[[T]]
func.func @tuple_state(%w: tensor<16x256xf32>, %h: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %init = hlo.tuple %zero, %w, %h : (tensor<i32>, tensor<16x256xf32>, tensor<16x256xf32>) -> !state
  %r = hlo.while(%init) : !state cond {
  ^bb0(%s: !state):
    %i = hlo.get_tuple_element %s[0] : (!state) -> tensor<i32>
    %n = hlo.constant dense<3> : tensor<i32>
    %lt = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } do {
  ^bb0(%s: !state):
    %i = hlo.get_tuple_element %s[0] : (!state) -> tensor<i32>
    %ws = hlo.get_tuple_element %s[1] : (!state) -> tensor<16x256xf32>
    %hs = hlo.get_tuple_element %s[2] : (!state) -> tensor<16x256xf32>
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %t = hlo.tanh %ws : tensor<16x256xf32>
    %m = hlo.multiply %hs, %t : tensor<16x256xf32>
    %next = hlo.tuple %i1, %ws, %m : (tensor<i32>, tensor<16x256xf32>, tensor<16x256xf32>) -> !state
    hlo.return %next : !state
  }
  %out = hlo.get_tuple_element %r[2] : (!state) -> tensor<16x256xf32>
  return %out : tensor<16x256xf32>
}

// -----

// A nest: the inner loop's invariant log(x) leaves both loops; the inner
// loop itself stays in the outer one (loops are never hoisted).
// CHECK-LABEL: func.func @nest
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8x128xf32>
// CHECK: %[[L:.+]] = hlo.log %[[X]]
// CHECK: hlo.while
// CHECK: do {
// CHECK: hlo.while
// CHECK: do {
// CHECK-NOT: hlo.log
// CHECK: hlo.add %{{.+}}, %[[L]]
func.func @nest(%x: tensor<8x128xf32>, %acc: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %w:3 = hlo.while(%zero, %x, %acc) : tensor<i32>, tensor<8x128xf32>, tensor<8x128xf32> cond {
  ^bb0(%i: tensor<i32>, %xs: tensor<8x128xf32>, %a: tensor<8x128xf32>):
    %n = hlo.constant dense<2> : tensor<i32>
    %lt = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %xs: tensor<8x128xf32>, %a: tensor<8x128xf32>):
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %inner:3 = hlo.while(%zero, %xs, %a) : tensor<i32>, tensor<8x128xf32>, tensor<8x128xf32> cond {
    ^bb0(%j: tensor<i32>, %ys: tensor<8x128xf32>, %b: tensor<8x128xf32>):
      %m = hlo.constant dense<3> : tensor<i32>
      %lt = hlo.compare LT, %j, %m : (tensor<i32>, tensor<i32>) -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } do {
    ^bb0(%j: tensor<i32>, %ys: tensor<8x128xf32>, %b: tensor<8x128xf32>):
      %j1 = hlo.add %j, %one : tensor<i32>
      %l = hlo.log %ys : tensor<8x128xf32>
      %n = hlo.add %b, %l : tensor<8x128xf32>
      hlo.return %j1, %ys, %n : tensor<i32>, tensor<8x128xf32>, tensor<8x128xf32>
    }
    hlo.return %i1, %xs, %inner#2 : tensor<i32>, tensor<8x128xf32>, tensor<8x128xf32>
  }
  return %w#2 : tensor<8x128xf32>
}
