// RUN: tpuc-opt %s --tpuc-normalize-layouts --split-input-file | FileCheck %s

// Logits stored {0,1}: the log-sum-exp fusion and the loss fusion compute
// on the physical [10,1000] array; one transpose (a layout bitcast) feeds
// both.
// CHECK-LABEL: func.func @onehot
// CHECK-NEXT: %[[P:.+]] = hlo.transpose %arg0, dims = [1, 0] : (tensor<1000x10xf32>) -> tensor<10x1000xf32>
// CHECK: hlo.fusion input(%[[P]]) {tpuc.physical_order} : (tensor<10x1000xf32>) -> tensor<1000xf32>
// CHECK: hlo.reduce(%{{.+}}) init(%{{.+}}) dims = [0] : (tensor<10x1000xf32>, tensor<f32>) -> tensor<1000xf32>
// CHECK: hlo.fusion input(%arg1, %{{.+}}, %[[P]]) {tpuc.physical_order} : (tensor<1000xi32>, tensor<1000xf32>, tensor<10x1000xf32>) -> tensor<f32>
// CHECK: hlo.iota dim = 0 : tensor<10x1000xi32>
// CHECK: hlo.broadcast_in_dim %{{.+}}, dims = [1] : (tensor<1000xi32>) -> tensor<10x1000xi32>
// CHECK: hlo.constant dense<2.000000e+00> : tensor<10x1000xf32>
// CHECK: hlo.reduce(%{{.+}}) init(%{{.+}}) dims = [0, 1] : (tensor<10x1000xf32>, tensor<f32>) -> tensor<f32>
func.func @onehot(%x: tensor<1000x10xf32> {hlo.layout = "{0,1}"}, %labels: tensor<1000xi32>) -> tensor<f32> {
  %m = hlo.fusion input(%x) : (tensor<1000x10xf32>) -> tensor<1000xf32> {
  ^bb0(%a: tensor<1000x10xf32>):
    %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
    %r = hlo.reduce(%a) init(%ninf) dims = [1] : (tensor<1000x10xf32>, tensor<f32>) -> tensor<1000xf32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = hlo.maximum %p, %q : tensor<f32>
      hlo.return %s : tensor<f32>
    }
    hlo.return %r : tensor<1000xf32>
  }
  %loss = hlo.fusion input(%labels, %m, %x) : (tensor<1000xi32>, tensor<1000xf32>, tensor<1000x10xf32>) -> tensor<f32> {
  ^bb0(%l: tensor<1000xi32>, %mx: tensor<1000xf32>, %a: tensor<1000x10xf32>):
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %iota = hlo.iota dim = 1 : tensor<1000x10xi32>
    %lb = hlo.broadcast_in_dim %l, dims = [0] : (tensor<1000xi32>) -> tensor<1000x10xi32>
    %eq = hlo.compare EQ, %lb, %iota : (tensor<1000x10xi32>, tensor<1000x10xi32>) -> tensor<1000x10xi1>
    %oh = hlo.convert %eq : (tensor<1000x10xi1>) -> tensor<1000x10xf32>
    %two = hlo.constant dense<2.0> : tensor<1000x10xf32>
    %mb = hlo.broadcast_in_dim %mx, dims = [0] : (tensor<1000xf32>) -> tensor<1000x10xf32>
    %sh = hlo.subtract %a, %mb : tensor<1000x10xf32>
    %sc = hlo.multiply %sh, %two : tensor<1000x10xf32>
    %prod = hlo.multiply %oh, %sc : tensor<1000x10xf32>
    %tot = hlo.reduce(%prod) init(%zero) dims = [0, 1] : (tensor<1000x10xf32>, tensor<f32>) -> tensor<f32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = hlo.add %p, %q : tensor<f32>
      hlo.return %s : tensor<f32>
    }
    hlo.return %tot : tensor<f32>
  }
  return %loss : tensor<f32>
}

// -----

// A reader that is not such a fusion (here the argument is returned): the
// argument keeps its logical order everywhere.
// CHECK-LABEL: func.func @returned
// CHECK-NOT: hlo.transpose
// CHECK-NOT: tpuc.physical_order
func.func @returned(%x: tensor<1000x10xf32> {hlo.layout = "{0,1}"}) -> (tensor<1000xf32>, tensor<1000x10xf32>) {
  %m = hlo.fusion input(%x) : (tensor<1000x10xf32>) -> tensor<1000xf32> {
  ^bb0(%a: tensor<1000x10xf32>):
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %r = hlo.reduce(%a) init(%zero) dims = [1] : (tensor<1000x10xf32>, tensor<f32>) -> tensor<1000xf32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = hlo.add %p, %q : tensor<f32>
      hlo.return %s : tensor<f32>
    }
    hlo.return %r : tensor<1000xf32>
  }
  return %m, %x : tensor<1000xf32>, tensor<1000x10xf32>
}

// -----

// A row-major result of the argument's rank is computed in the physical
// order too and read back through a transpose (a kernel: the argument stays
// 1.6x padded instead of 12.8x); a result in the argument's layout would be
// its bytes as they are.
// CHECK-LABEL: func.func @full_result
// CHECK-NEXT: %[[P:.+]] = hlo.transpose %arg0, dims = [1, 0] : (tensor<1000x10xf32>) -> tensor<10x1000xf32>
// CHECK-NEXT: %[[E:.+]] = hlo.fusion loop(%[[P]]) {tpuc.physical_order} : (tensor<10x1000xf32>) -> tensor<10x1000xf32>
// CHECK: %[[B:.+]] = hlo.transpose %[[E]], dims = [1, 0] {tpuc.physical_view} : (tensor<10x1000xf32>) -> tensor<1000x10xf32>
// CHECK-NEXT: return %[[B]]
func.func @full_result(%x: tensor<1000x10xf32> {hlo.layout = "{0,1}"}) -> tensor<1000x10xf32> {
  %e = hlo.fusion loop(%x) : (tensor<1000x10xf32>) -> tensor<1000x10xf32> {
  ^bb0(%a: tensor<1000x10xf32>):
    %b = hlo.exponential %a : tensor<1000x10xf32>
    hlo.return %b : tensor<1000x10xf32>
  }
  return %e : tensor<1000x10xf32>
}
