// RUN: tpuc-opt %s --tpuc-simplify-while-loops --split-input-file | FileCheck %s
// The rewrite must not change a value: the interpreter gives bit-identical
// results before and after it.
// RUN: tpuc-opt %s --tpuc-simplify-while-loops -o %t.mlir
// RUN: for f in forward set_from_outside once never; do tpuc interpret %s --function=$f --random-inputs=3 --output-dir=%t.$f.ref && tpuc interpret %t.mlir --function=$f --random-inputs=3 --output-dir=%t.$f.got || exit 1; for r in %t.$f.ref/*.npy; do cmp $r %t.$f.got/$(basename $r) || exit 1; done; done

// An invariant element's result is its initial value, and the counter's
// is its final value (0 + 3 * 4 = 12); the accumulator stays the loop's.
// CHECK-LABEL: func.func @forward
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8x128xf32>
// CHECK: %[[END:.+]] = hlo.constant dense<12> : tensor<i32>
// CHECK: %[[W:.+]]:3 = hlo.while
// CHECK: hlo.add %[[X]], %[[X]]
// CHECK: return %{{.+}}, %[[W]]#2, %[[END]]
func.func @forward(%x: tensor<8x128xf32>, %acc: tensor<8x128xf32>)
    -> (tensor<8x128xf32>, tensor<8x128xf32>, tensor<i32>) {
  %zero = hlo.constant dense<0> : tensor<i32>
  %w:3 = hlo.while(%zero, %x, %acc) : tensor<i32>, tensor<8x128xf32>, tensor<8x128xf32> cond {
  ^bb0(%i: tensor<i32>, %xs: tensor<8x128xf32>, %a: tensor<8x128xf32>):
    %n = hlo.constant dense<10> : tensor<i32>
    %lt = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %xs: tensor<8x128xf32>, %a: tensor<8x128xf32>):
    %four = hlo.constant dense<4> : tensor<i32>
    %i1 = hlo.add %four, %i : tensor<i32>
    %n = hlo.add %a, %xs : tensor<8x128xf32>
    hlo.return %i1, %xs, %n : tensor<i32>, tensor<8x128xf32>, tensor<8x128xf32>
  }
  %d = hlo.add %w#1, %w#1 : tensor<8x128xf32>
  return %d, %w#2, %w#0 : tensor<8x128xf32>, tensor<8x128xf32>, tensor<i32>
}

// -----

// The body sets element 1 to a value from before the loop (hoisted work)
// and the loop runs (2 trips): the result is that value, the counter's is
// 2, and nothing reads the loop any more.
// CHECK-LABEL: func.func @set_from_outside
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8x128xf32>
// CHECK: %[[E:.+]] = hlo.exponential %[[X]]
// CHECK: %[[TWO:.+]] = hlo.constant dense<2> : tensor<i32>
// CHECK: hlo.while
// CHECK: return %[[E]], %[[TWO]]
func.func @set_from_outside(%x: tensor<8x128xf32>) -> (tensor<8x128xf32>, tensor<i32>) {
  %zero = hlo.constant dense<0> : tensor<i32>
  %e = hlo.exponential %x : tensor<8x128xf32>
  %w:2 = hlo.while(%zero, %x) : tensor<i32>, tensor<8x128xf32> cond {
  ^bb0(%i: tensor<i32>, %v: tensor<8x128xf32>):
    %n = hlo.constant dense<2> : tensor<i32>
    %ne = hlo.compare NE, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %ne : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %v: tensor<8x128xf32>):
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    hlo.return %i1, %e : tensor<i32>, tensor<8x128xf32>
  }
  return %w#1, %w#0 : tensor<8x128xf32>, tensor<i32>
}

// -----

// One trip (a tuple state counting down from 5 while > 4): the body once.
!state = tuple<tensor<i32>, tensor<8x128xf32>>
// CHECK-LABEL: func.func @once
// CHECK-NOT: hlo.while
// CHECK: hlo.exponential
// CHECK-NOT: hlo.while
func.func @once(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %five = hlo.constant dense<5> : tensor<i32>
  %init = hlo.tuple %five, %x : (tensor<i32>, tensor<8x128xf32>) -> !state
  %r = hlo.while(%init) : !state cond {
  ^bb0(%s: !state):
    %i = hlo.get_tuple_element %s[0] : (!state) -> tensor<i32>
    %n = hlo.constant dense<4> : tensor<i32>
    %gt = hlo.compare GT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %gt : tensor<i1>
  } do {
  ^bb0(%s: !state):
    %i = hlo.get_tuple_element %s[0] : (!state) -> tensor<i32>
    %v = hlo.get_tuple_element %s[1] : (!state) -> tensor<8x128xf32>
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.subtract %i, %one : tensor<i32>
    %e = hlo.exponential %v : tensor<8x128xf32>
    %next = hlo.tuple %i1, %e : (tensor<i32>, tensor<8x128xf32>) -> !state
    hlo.return %next : !state
  }
  %out = hlo.get_tuple_element %r[1] : (!state) -> tensor<8x128xf32>
  return %out : tensor<8x128xf32>
}

// -----

// No trip (7 < 3 is false at once): the initial state.
// CHECK-LABEL: func.func @never
// CHECK-NOT: hlo.while
// CHECK: return %arg0
func.func @never(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %seven = hlo.constant dense<7> : tensor<i32>
  %w:2 = hlo.while(%seven, %x) : tensor<i32>, tensor<8x128xf32> cond {
  ^bb0(%i: tensor<i32>, %v: tensor<8x128xf32>):
    %n = hlo.constant dense<3> : tensor<i32>
    %lt = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %v: tensor<8x128xf32>):
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %e = hlo.exponential %v : tensor<8x128xf32>
    hlo.return %i1, %e : tensor<i32>, tensor<8x128xf32>
  }
  return %w#1 : tensor<8x128xf32>
}

// -----

// Left alone: a data-dependent bound, and a counter that would wrap
// (s32 counting to 2^31 - 1 in steps of 2^30 overshoots).
// CHECK-LABEL: func.func @unknown
// CHECK-COUNT-2: hlo.while
func.func @unknown(%x: tensor<8x128xf32>, %n: tensor<i32>) -> (tensor<8x128xf32>, tensor<i32>, tensor<i32>) {
  %zero = hlo.constant dense<0> : tensor<i32>
  %w:2 = hlo.while(%zero, %x) : tensor<i32>, tensor<8x128xf32> cond {
  ^bb0(%i: tensor<i32>, %v: tensor<8x128xf32>):
    %lt = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %v: tensor<8x128xf32>):
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %e = hlo.exponential %v : tensor<8x128xf32>
    hlo.return %i1, %e : tensor<i32>, tensor<8x128xf32>
  }
  %u = hlo.while(%zero) : tensor<i32> cond {
  ^bb0(%i: tensor<i32>):
    %max = hlo.constant dense<2147483647> : tensor<i32>
    %lt = hlo.compare LT, %i, %max : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>):
    %big = hlo.constant dense<1073741824> : tensor<i32>
    %i1 = hlo.add %i, %big : tensor<i32>
    hlo.return %i1 : tensor<i32>
  }
  return %w#1, %w#0, %u : tensor<8x128xf32>, tensor<i32>, tensor<i32>
}

// -----

// A tuple state as XLA dumps it, with a data-dependent bound: flattened to
// one operand per element. Element 2 (a running max nobody reads
// afterwards, and that feeds nothing else) is dead and goes with its work;
// element 1 stays (its result is used).
!st = tuple<tensor<i32>, tensor<8x128xf32>, tensor<8x128xf32>>
// CHECK-LABEL: func.func @flatten_and_drop
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8x128xf32>, %[[N:[^:]+]]: tensor<i32>)
// CHECK: %[[W:.+]]:2 = hlo.while(%{{.+}}, %[[X]]) : tensor<i32>, tensor<8x128xf32> cond {
// CHECK-NEXT: ^bb0(%[[I:.+]]: tensor<i32>, %{{.+}}: tensor<8x128xf32>):
// CHECK-NEXT: hlo.compare LT, %[[I]], %[[N]]
// CHECK: do {
// CHECK-NOT: hlo.maximum
// CHECK-NOT: hlo.get_tuple_element
// CHECK: hlo.exponential
// CHECK: return %[[W]]#1
func.func @flatten_and_drop(%x: tensor<8x128xf32>, %n: tensor<i32>) -> tensor<8x128xf32> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %init = hlo.tuple %zero, %x, %x : (tensor<i32>, tensor<8x128xf32>, tensor<8x128xf32>) -> !st
  %r = hlo.while(%init) : !st cond {
  ^bb0(%s: !st):
    %i = hlo.get_tuple_element %s[0] : (!st) -> tensor<i32>
    %lt = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } do {
  ^bb0(%s: !st):
    %i = hlo.get_tuple_element %s[0] : (!st) -> tensor<i32>
    %v = hlo.get_tuple_element %s[1] : (!st) -> tensor<8x128xf32>
    %m = hlo.get_tuple_element %s[2] : (!st) -> tensor<8x128xf32>
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %e = hlo.exponential %v : tensor<8x128xf32>
    %m1 = hlo.maximum %m, %e : tensor<8x128xf32>
    %next = hlo.tuple %i1, %e, %m1 : (tensor<i32>, tensor<8x128xf32>, tensor<8x128xf32>) -> !st
    hlo.return %next : !st
  }
  %out = hlo.get_tuple_element %r[1] : (!st) -> tensor<8x128xf32>
  return %out : tensor<8x128xf32>
}
