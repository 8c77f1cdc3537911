// RUN: tpuc-opt %s --split-input-file --tpuc-decompose-reductions | FileCheck %s
// The rewritten functions compute what they computed (interpreter before
// and after, random inputs):
// RUN: rm -rf %t && mkdir -p %t/before %t/after
// RUN: tpuc interpret %S/Inputs/decompose-reductions-semantics.mlir --random-inputs=3 --output-dir=%t/before
// RUN: tpuc-opt %S/Inputs/decompose-reductions-semantics.mlir --tpuc-decompose-reductions -o %t/after.mlir
// RUN: FileCheck %s --check-prefix=REWRITTEN < %t/after.mlir
// RUN: tpuc interpret %t/after.mlir --random-inputs=3 --output-dir=%t/after
// RUN: %python_numpy %S/../e2e/Inputs/compare.py %t/after %t/before 7 1e-6 0.999999 | FileCheck %s --check-prefix=SAME
// REWRITTEN-COUNT-10: hlo.reshape
// SAME-COUNT-7: ok

// The kernels' forms are left alone: the minor dim of any rank, a run
// ending at the second-minor dim (NHWC pooling), all dims.
// CHECK-LABEL: func.func @kernel_forms
// CHECK-NOT: hlo.reshape
// CHECK-NOT: hlo.transpose
// CHECK: hlo.reduce(%{{.+}}) init(%{{.+}}) dims = [2] : (tensor<1x4096x768xf32>
// CHECK: hlo.reduce(%{{.+}}) init(%{{.+}}) dims = [1, 2] : (tensor<1x7x7x2048xf32>
// CHECK: hlo.reduce(%{{.+}}) init(%{{.+}}) dims = [0, 1] : (tensor<5x6xf32>
// CHECK: hlo.reduce(%{{.+}}) init(%{{.+}}) dims = [0] : (tensor<3616xf32>
func.func @kernel_forms(%x: tensor<1x4096x768xf32>, %y: tensor<1x7x7x2048xf32>, %z: tensor<5x6xf32>, %w: tensor<3616xf32>)
    -> (tensor<1x4096xf32>, tensor<1x2048xf32>, tensor<f32>, tensor<f32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %a = hlo.reduce(%x) init(%zero) dims = [2] : (tensor<1x4096x768xf32>, tensor<f32>) -> tensor<1x4096xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %b = hlo.reduce(%y) init(%zero) dims = [1, 2] : (tensor<1x7x7x2048xf32>, tensor<f32>) -> tensor<1x2048xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %c = hlo.reduce(%z) init(%zero) dims = [0, 1] : (tensor<5x6xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %d = hlo.reduce(%w) init(%zero) dims = [0] : (tensor<3616xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  return %a, %b, %c, %d : tensor<1x4096xf32>, tensor<1x2048xf32>, tensor<f32>, tensor<f32>
}

// -----

// The leading dim with two kept minor dims: collapse them (no transpose).
// CHECK-LABEL: func.func @leading_collapse
// CHECK-SAME: (%[[X:.+]]: tensor<4x6x8xf32>
// CHECK-NOT: hlo.transpose
// CHECK: %[[R:.+]] = hlo.reshape %[[X]] : (tensor<4x6x8xf32>) -> tensor<4x48xf32>
// CHECK: %[[S:.+]] = hlo.reduce(%[[R]]) init(%{{.+}}) dims = [0] : (tensor<4x48xf32>, tensor<f32>) -> tensor<48xf32>
// CHECK: hlo.maximum
// CHECK: %[[B:.+]] = hlo.reshape %[[S]] : (tensor<48xf32>) -> tensor<6x8xf32>
// CHECK: return %[[B]]
func.func @leading_collapse(%x: tensor<4x6x8xf32>) -> tensor<6x8xf32> {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %r = hlo.reduce(%x) init(%ninf) dims = [0] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<6x8xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.maximum %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  return %r : tensor<6x8xf32>
}

// -----

// Trailing reduced dims collapse into one minor dim.
// CHECK-LABEL: func.func @minor_collapse
// CHECK-SAME: (%[[X:.+]]: tensor<4x6x8xf32>
// CHECK: %[[R:.+]] = hlo.reshape %[[X]] : (tensor<4x6x8xf32>) -> tensor<4x48xf32>
// CHECK: %[[S:.+]] = hlo.reduce(%[[R]]) init(%{{.+}}) dims = [1] : (tensor<4x48xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK: return %[[S]]
func.func @minor_collapse(%x: tensor<4x6x8xf32>) -> tensor<4xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%x) init(%zero) dims = [1, 2] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  return %r : tensor<4xf32>
}

// -----

// Interleaved reduced and kept dims: kept dims first, then the reduced
// ones collapsed into the minor dim; the result reshaped back.
// CHECK-LABEL: func.func @interleaved
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4x5xf32>
// CHECK: %[[T:.+]] = hlo.transpose %[[X]], dims = [1, 3, 0, 2] : (tensor<2x3x4x5xf32>) -> tensor<3x5x2x4xf32>
// CHECK: %[[R:.+]] = hlo.reshape %[[T]] : (tensor<3x5x2x4xf32>) -> tensor<3x5x8xf32>
// CHECK: %[[S:.+]] = hlo.reduce(%[[R]]) init(%{{.+}}) dims = [2] : (tensor<3x5x8xf32>, tensor<f32>) -> tensor<3x5xf32>
// CHECK: return %[[S]]
func.func @interleaved(%x: tensor<2x3x4x5xf32>) -> tensor<3x5xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%x) init(%zero) dims = [0, 2] : (tensor<2x3x4x5xf32>, tensor<f32>) -> tensor<3x5xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  return %r : tensor<3x5xf32>
}

// -----

// A middle dim with several kept minor dims: the kept minor dims collapse,
// the leading kept dims stay (the sublane kernel per index of dim 0).
// CHECK-LABEL: func.func @middle
// CHECK: hlo.reshape %{{.+}} : (tensor<2x3x4x5xf32>) -> tensor<2x3x20xf32>
// CHECK: hlo.reduce(%{{.+}}) init(%{{.+}}) dims = [1] : (tensor<2x3x20xf32>, tensor<f32>) -> tensor<2x20xf32>
// CHECK: hlo.reshape %{{.+}} : (tensor<2x20xf32>) -> tensor<2x4x5xf32>
func.func @middle(%x: tensor<2x3x4x5xf32>) -> tensor<2x4x5xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%x) init(%zero) dims = [1] : (tensor<2x3x4x5xf32>, tensor<f32>) -> tensor<2x4x5xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  return %r : tensor<2x4x5xf32>
}

// -----

// Inside a fusion body, and variadic reduces (both inputs move alike).
// CHECK-LABEL: func.func @fused_variadic
// CHECK: hlo.fusion
// CHECK: hlo.reshape %{{.+}} : (tensor<4x6x8xf32>) -> tensor<4x48xf32>
// CHECK: hlo.reduce
// CHECK-SAME: dims = [0] : (tensor<4x48xf32>
// CHECK: hlo.return
// CHECK: hlo.transpose %{{.+}}, dims = [1, 0, 2] : (tensor<4x6x8xf32>) -> tensor<6x4x8xf32>
// CHECK: hlo.transpose %{{.+}}, dims = [1, 0, 2] : (tensor<4x6x8xi32>) -> tensor<6x4x8xi32>
// CHECK: hlo.reduce(%{{.+}}, %{{.+}}) init(%{{.+}}, %{{.+}}) dims = [1] : (tensor<6x32xf32>, tensor<6x32xi32>, tensor<f32>, tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>)
func.func @fused_variadic(%x: tensor<4x6x8xf32>, %i: tensor<4x6x8xi32>) -> (tensor<6x8xf32>, tensor<6xf32>, tensor<6xi32>) {
  %f = hlo.fusion input(%x) : (tensor<4x6x8xf32>) -> tensor<6x8xf32> {
  ^bb0(%a: tensor<4x6x8xf32>):
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %r = hlo.reduce(%a) init(%zero) dims = [0] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<6x8xf32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %0 = hlo.add %p, %q : tensor<f32>
      hlo.return %0 : tensor<f32>
    }
    hlo.return %r : tensor<6x8xf32>
  }
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %izero = hlo.constant dense<0> : tensor<i32>
  %m:2 = hlo.reduce(%x, %i) init(%ninf, %izero) dims = [0, 2] : (tensor<4x6x8xf32>, tensor<4x6x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>) {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = hlo.compare GT, %av, %bv : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = hlo.select %gt, %av, %bv : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %j = hlo.select %gt, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    hlo.return %v, %j : tensor<f32>, tensor<i32>
  }
  return %f, %m#0, %m#1 : tensor<6x8xf32>, tensor<6xf32>, tensor<6xi32>
}
