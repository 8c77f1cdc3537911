// RUN: tpuc-opt %s --split-input-file --tpuc-expand-variadic-reduce | FileCheck %s --implicit-check-not="hlo.reduce("
// Errors: tpuc-expand-variadic-reduce-errors.mlir. Numerics (emulator vs interpreter, ties and NaN): test/e2e/argmax*.

// JAX's argmax over the minor dim of [4, 5] (values and an s32 iota; the
// body picks the greater value or a NaN, on equal values the lower index):
// adjacent pairs (stride-2 slices; the accumulators are the even
// positions), the odd last element concatenated after them, 5 -> 3 -> 2
// -> 1, then body(init, result) once.
// CHECK-LABEL: func.func @argmax_minor
// CHECK-SAME: (%[[X:.+]]: tensor<4x5xf32>)
// CHECK-DAG:  %[[NINF:.+]] = hlo.constant dense<0xFF800000> : tensor<f32>
// CHECK-DAG:  %[[ZERO:.+]] = hlo.constant dense<0> : tensor<i32>
// CHECK:      %[[IOTA:.+]] = hlo.iota dim = 1 : tensor<4x5xi32>
// CHECK:      %[[XE:.+]] = hlo.slice %[[X]] [0:4:1, 0:4:2] : (tensor<4x5xf32>) -> tensor<4x2xf32>
// CHECK:      %[[IE:.+]] = hlo.slice %[[IOTA]] [0:4:1, 0:4:2] : (tensor<4x5xi32>) -> tensor<4x2xi32>
// CHECK:      %[[XO:.+]] = hlo.slice %[[X]] [0:4:1, 1:4:2] : (tensor<4x5xf32>) -> tensor<4x2xf32>
// CHECK:      %[[IO:.+]] = hlo.slice %[[IOTA]] [0:4:1, 1:4:2] : (tensor<4x5xi32>) -> tensor<4x2xi32>
// CHECK:      %[[GT:.+]] = hlo.compare GT, %[[XE]], %[[XO]] : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xi1>
// CHECK:      %[[NAN:.+]] = hlo.compare NE, %[[XE]], %[[XE]]
// CHECK:      %[[PICK:.+]] = hlo.or %[[GT]], %[[NAN]] : tensor<4x2xi1>
// CHECK:      %[[EQ:.+]] = hlo.compare EQ, %[[XE]], %[[XO]]
// CHECK:      %[[LT:.+]] = hlo.compare LT, %[[IE]], %[[IO]] : (tensor<4x2xi32>, tensor<4x2xi32>) -> tensor<4x2xi1>
// CHECK:      %[[TIE:.+]] = hlo.and %[[EQ]], %[[LT]]
// CHECK:      %[[PICKI:.+]] = hlo.or %[[PICK]], %[[TIE]]
// CHECK:      %[[V1:.+]] = hlo.select %[[PICK]], %[[XE]], %[[XO]] : (tensor<4x2xi1>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK:      %[[I1:.+]] = hlo.select %[[PICKI]], %[[IE]], %[[IO]] : (tensor<4x2xi1>, tensor<4x2xi32>, tensor<4x2xi32>) -> tensor<4x2xi32>
// CHECK:      %[[XL:.+]] = hlo.slice %[[X]] [0:4:1, 4:5:1] : (tensor<4x5xf32>) -> tensor<4x1xf32>
// CHECK:      %[[V1C:.+]] = hlo.concatenate(%[[V1]], %[[XL]]) dim = 1 : (tensor<4x2xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
// CHECK:      %[[IL:.+]] = hlo.slice %[[IOTA]] [0:4:1, 4:5:1] : (tensor<4x5xi32>) -> tensor<4x1xi32>
// CHECK:      %[[I1C:.+]] = hlo.concatenate(%[[I1]], %[[IL]]) dim = 1 : (tensor<4x2xi32>, tensor<4x1xi32>) -> tensor<4x3xi32>
// CHECK:      hlo.slice %[[V1C]] [0:4:1, 0:2:2] : (tensor<4x3xf32>) -> tensor<4x1xf32>
// CHECK:      hlo.slice %[[I1C]] [0:4:1, 0:2:2] : (tensor<4x3xi32>) -> tensor<4x1xi32>
// CHECK:      hlo.slice %[[V1C]] [0:4:1, 1:2:2] : (tensor<4x3xf32>) -> tensor<4x1xf32>
// CHECK:      hlo.slice %[[V1C]] [0:4:1, 2:3:1] : (tensor<4x3xf32>) -> tensor<4x1xf32>
// CHECK:      hlo.concatenate({{.+}}) dim = 1 : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x2xf32>
// CHECK:      %[[V3:.+]] = hlo.select {{.+}} : (tensor<4x1xi1>, tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK:      %[[I3:.+]] = hlo.select {{.+}} : (tensor<4x1xi1>, tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x1xi32>
// CHECK:      %[[BV:.+]] = hlo.broadcast_in_dim %[[NINF]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK:      %[[BI:.+]] = hlo.broadcast_in_dim %[[ZERO]], dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK:      %[[RV:.+]] = hlo.reshape %[[V3]] : (tensor<4x1xf32>) -> tensor<4xf32>
// CHECK:      %[[RI:.+]] = hlo.reshape %[[I3]] : (tensor<4x1xi32>) -> tensor<4xi32>
// CHECK:      hlo.compare GT, %[[BV]], %[[RV]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK:      %[[R:.+]] = hlo.select {{.+}}, %[[BI]], %[[RI]] : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK:      return %[[R]] : tensor<4xi32>
func.func @argmax_minor(%x: tensor<4x5xf32>) -> tensor<4xi32> {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant dense<0> : tensor<i32>
  %iota = hlo.iota dim = 1 : tensor<4x5xi32>
  %r:2 = hlo.reduce(%x, %iota) init(%ninf, %zero) dims = [1] : (tensor<4x5xf32>, tensor<4x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %0 = hlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %1 = hlo.compare NE, %a, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = hlo.or %0, %1 : tensor<i1>
    %3 = hlo.compare EQ, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = hlo.compare LT, %ai, %bi : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %5 = hlo.and %3, %4 : tensor<i1>
    %6 = hlo.or %2, %5 : tensor<i1>
    %7 = hlo.select %2, %a, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %8 = hlo.select %6, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    hlo.return %7, %8 : tensor<f32>, tensor<i32>
  }
  return %r#1 : tensor<4xi32>
}

// -----

// argmin over the major dim of [4, 3]: the kept dim first ([1, 0]), then
// 4 -> 2 -> 1 (even sizes: no concatenation).
// CHECK-LABEL: func.func @argmin_major
// CHECK-SAME: (%[[X:.+]]: tensor<4x3xf32>, %[[I:.+]]: tensor<4x3xi32>)
// CHECK:      %[[TX:.+]] = hlo.transpose %[[X]], dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
// CHECK:      %[[TI:.+]] = hlo.transpose %[[I]], dims = [1, 0] : (tensor<4x3xi32>) -> tensor<3x4xi32>
// CHECK:      %[[XE:.+]] = hlo.slice %[[TX]] [0:3:1, 0:4:2] : (tensor<3x4xf32>) -> tensor<3x2xf32>
// CHECK:      %[[XO:.+]] = hlo.slice %[[TX]] [0:3:1, 1:4:2] : (tensor<3x4xf32>) -> tensor<3x2xf32>
// CHECK:      hlo.compare LT, %[[XE]], %[[XO]] : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xi1>
// CHECK:      hlo.slice {{.+}} [0:3:1, 0:2:2] : (tensor<3x2xf32>) -> tensor<3x1xf32>
// CHECK:      hlo.select {{.+}} : (tensor<3xi1>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
// CHECK-NOT:  hlo.concatenate
// CHECK:      return
func.func @argmin_major(%x: tensor<4x3xf32>, %i: tensor<4x3xi32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %inf = hlo.constant dense<0x7F800000> : tensor<f32>
  %zero = hlo.constant dense<0> : tensor<i32>
  %r:2 = hlo.reduce(%x, %i) init(%inf, %zero) dims = [0] : (tensor<4x3xf32>, tensor<4x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %0 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %1 = hlo.select %0, %a, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %2 = hlo.select %0, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    hlo.return %1, %2 : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xi32>
}

// -----

// Dims 0 and 2 of [2, 3, 4] (given out of order): the kept dim 1 first,
// then 0 and 2 in increasing order, collapsed to [3, 8]; 8 -> 4 -> 2 -> 1.
// A single-input xor (the kernel has no xor): the same tree; its rank-0
// constant becomes a splat of each level's shape.
// CHECK-LABEL: func.func @multi_dim_xor
// CHECK:      %[[T:.+]] = hlo.transpose %{{.+}}, dims = [1, 0, 2] : (tensor<2x3x4xi32>) -> tensor<3x2x4xi32>
// CHECK:      %[[R:.+]] = hlo.reshape %[[T]] : (tensor<3x2x4xi32>) -> tensor<3x8xi32>
// CHECK:      %[[E:.+]] = hlo.slice %[[R]] [0:3:1, 0:8:2] : (tensor<3x8xi32>) -> tensor<3x4xi32>
// CHECK:      %[[O:.+]] = hlo.slice %[[R]] [0:3:1, 1:8:2] : (tensor<3x8xi32>) -> tensor<3x4xi32>
// CHECK:      %[[X:.+]] = hlo.xor %[[E]], %[[O]] : tensor<3x4xi32>
// CHECK:      %[[C:.+]] = hlo.constant dense<1> : tensor<3x4xi32>
// CHECK:      hlo.and %[[X]], %[[C]] : tensor<3x4xi32>
// CHECK:      hlo.xor {{.+}} : tensor<3x2xi32>
// CHECK:      hlo.xor {{.+}} : tensor<3x1xi32>
// CHECK:      hlo.xor {{.+}} : tensor<3xi32>
// CHECK:      hlo.constant dense<1> : tensor<3xi32>
// CHECK-NOT:  hlo.concatenate
// CHECK:      return
func.func @multi_dim_xor(%x: tensor<2x3x4xi32>) -> tensor<3xi32> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %r = hlo.reduce(%x) init(%zero) dims = [2, 0] : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<3xi32> {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %0 = hlo.xor %a, %b : tensor<i32>
    %1 = hlo.constant dense<1> : tensor<i32>
    %2 = hlo.and %0, %1 : tensor<i32>
    hlo.return %2 : tensor<i32>
  }
  return %r : tensor<3xi32>
}

// -----

// Three inputs (max value, its index, a pred carried along) over all dims
// of [3] to rank 0: 3 -> 2 (+1 concatenated) -> 1.
// CHECK-LABEL: func.func @three_inputs
// CHECK-COUNT-3: hlo.slice %{{.+}} [0:2:2] : (tensor<3x{{.+}}>) -> tensor<1x
// CHECK-COUNT-3: hlo.slice %{{.+}} [1:2:2] : (tensor<3x{{.+}}>) -> tensor<1x
// CHECK-COUNT-3: hlo.select
// CHECK-COUNT-3: hlo.concatenate
// CHECK:      hlo.broadcast_in_dim %{{.+}}, dims = [] : (tensor<f32>) -> tensor<f32>
// CHECK:      hlo.broadcast_in_dim %{{.+}}, dims = [] : (tensor<i32>) -> tensor<i32>
// CHECK:      hlo.broadcast_in_dim %{{.+}}, dims = [] : (tensor<i1>) -> tensor<i1>
// CHECK:      hlo.reshape %{{.+}} : (tensor<1xi1>) -> tensor<i1>
// CHECK:      %[[P:.+]] = hlo.select {{.+}} : (tensor<i1>, tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK:      return {{.+}}, %[[P]]
func.func @three_inputs(%x: tensor<3xf32>, %i: tensor<3xi32>, %p: tensor<3xi1>) -> (tensor<f32>, tensor<i32>, tensor<i1>) {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant dense<0> : tensor<i32>
  %f = hlo.constant dense<false> : tensor<i1>
  %r:3 = hlo.reduce(%x, %i, %p) init(%ninf, %zero, %f) dims = [0] : (tensor<3xf32>, tensor<3xi32>, tensor<3xi1>, tensor<f32>, tensor<i32>, tensor<i1>) -> (tensor<f32>, tensor<i32>, tensor<i1>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %ap: tensor<i1>, %b: tensor<f32>, %bi: tensor<i32>, %bp: tensor<i1>):
    %0 = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %1 = hlo.select %0, %a, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %2 = hlo.select %0, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = hlo.select %0, %ap, %bp : (tensor<i1>, tensor<i1>, tensor<i1>) -> tensor<i1>
    hlo.return %1, %2, %3 : tensor<f32>, tensor<i32>, tensor<i1>
  }
  return %r#0, %r#1, %r#2 : tensor<f32>, tensor<i32>, tensor<i1>
}

// -----

// The kernel's reduces stay; an empty reduction is the broadcast init.
// CHECK-LABEL: func.func @kept_and_empty
// CHECK:      %[[S:.+]] = hlo.reduce(%{{.+}}) init(%{{.+}}) dims = [1]
// CHECK:        hlo.add
// CHECK:      %[[E:.+]] = hlo.broadcast_in_dim %{{.+}}, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK:      return %[[S]], %[[E]]
func.func @kept_and_empty(%x: tensor<4x8xf32>, %y: tensor<4x0xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %one = hlo.constant dense<1> : tensor<i32>
  %s = hlo.reduce(%x) init(%zero) dims = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.add %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %e = hlo.reduce(%y) init(%one) dims = [1] : (tensor<4x0xi32>, tensor<i32>) -> tensor<4xi32> {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %0 = hlo.subtract %a, %b : tensor<i32>
    hlo.return %0 : tensor<i32>
  }
  return %s, %e : tensor<4xf32>, tensor<4xi32>
}

