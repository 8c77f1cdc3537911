// RUN: tpuc-opt %s --tpuc-mixed-precision | FileCheck %s
// RUN: tpuc-opt %s --tpuc-mixed-precision=policy=float32 | FileCheck %s --check-prefix=F32
// RUN: not tpuc-opt %s --tpuc-mixed-precision=policy=fp8 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: unknown precision policy 'fp8'; expected mixed_bfloat16 or float32
// F32-LABEL: func.func @main
// F32-NOT: hlo.convert
// F32: return

// Parameter 1 is a variable: its update (w - lr * w) stays f32. The dot
// reads bf16 and accumulates in f32; relu and tanh store bf16; the
// reduction accumulates in f32; the signature is unchanged.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.+]]: tensor<8x16xf32>, %[[W:.+]]: tensor<16x128xf32>, %[[LR:.+]]: tensor<f32>)
// CHECK-DAG: %[[XB:.+]] = hlo.convert %[[X]] : (tensor<8x16xf32>) -> tensor<8x16xbf16>
// CHECK-DAG: %[[WB:.+]] = hlo.convert %[[W]] : (tensor<16x128xf32>) -> tensor<16x128xbf16>
// CHECK: %[[D:.+]] = hlo.dot_general %[[XB]], %[[WB]], {{.*}} : (tensor<8x16xbf16>, tensor<16x128xbf16>) -> tensor<8x128xf32>
// CHECK: %[[DB:.+]] = hlo.convert %[[D]] : (tensor<8x128xf32>) -> tensor<8x128xbf16>
// CHECK: %[[R:.+]] = hlo.maximum %[[DB]], %{{.+}} : tensor<8x128xbf16>
// CHECK-NEXT: %[[T:.+]] = hlo.tanh %[[R]] : tensor<8x128xbf16>
// CHECK-NEXT: %[[TF:.+]] = hlo.convert %[[T]] : (tensor<8x128xbf16>) -> tensor<8x128xf32>
// CHECK-NEXT: %[[S:.+]] = hlo.reduce(%[[TF]]) {{.*}} -> tensor<8xf32>
// CHECK: %[[LRB:.+]] = hlo.broadcast_in_dim %[[LR]], dims = [] : (tensor<f32>) -> tensor<16x128xf32>
// CHECK-NEXT: %[[G:.+]] = hlo.multiply %[[LRB]], %[[W]] : tensor<16x128xf32>
// CHECK-NEXT: %[[W2:.+]] = hlo.subtract %[[W]], %[[G]] : tensor<16x128xf32>
// CHECK-NEXT: return %[[TF]], %[[W2]], %[[S]] : tensor<8x128xf32>, tensor<16x128xf32>, tensor<8xf32>
module attributes {hlo.input_output_alias = [#hlo.alias<output_index = [1], parameter_number = 1, kind = may_alias>]} {
func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x128xf32>, %lr: tensor<f32>) -> (tensor<8x128xf32>, tensor<16x128xf32>, tensor<8xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<8x16xf32>, tensor<16x128xf32>) -> tensor<8x128xf32>
  %z = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
  %r = hlo.maximum %d, %z : tensor<8x128xf32>
  %t = hlo.tanh %r : tensor<8x128xf32>
  %s = hlo.reduce(%t) init(%zero) dims = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %a = hlo.add %p, %q : tensor<f32>
    hlo.return %a : tensor<f32>
  }
  %lrb = hlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<16x128xf32>
  %g = hlo.multiply %lrb, %w : tensor<16x128xf32>
  %w2 = hlo.subtract %w, %g : tensor<16x128xf32>
  return %t, %w2, %s : tensor<8x128xf32>, tensor<16x128xf32>, tensor<8xf32>
}

// A max pool (exact in bf16: it selects) runs on bf16 like the relu before
// it: input, init, body and result; a sum pool stays f32.
// CHECK-LABEL: func.func @pools
// CHECK: %[[R:.+]] = hlo.maximum %{{.+}}, %{{.+}} : tensor<1x8x8x16xbf16>
// CHECK: %[[P:.+]] = hlo.reduce_window(%[[R]]) init(%{{.+}}) {{.*}} : (tensor<1x8x8x16xbf16>, tensor<bf16>) -> tensor<1x4x4x16xbf16>
// CHECK-NEXT: ^bb0(%{{.+}}: tensor<bf16>, %{{.+}}: tensor<bf16>):
// CHECK-NEXT: hlo.maximum %{{.+}}, %{{.+}} : tensor<bf16>
// CHECK: hlo.reduce_window(%{{.+}}) init(%{{.+}}) {{.*}} : (tensor<1x8x8x16xf32>, tensor<f32>) -> tensor<1x4x4x16xf32>
// CHECK-NEXT: ^bb0(%{{.+}}: tensor<f32>, %{{.+}}: tensor<f32>):
// CHECK-NEXT: hlo.add %{{.+}}, %{{.+}} : tensor<f32>
func.func @pools(%x: tensor<1x8x8x16xf32>) -> (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<1x8x8x16xf32>
  %r = hlo.maximum %x, %zero : tensor<1x8x8x16xf32>
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %p = hlo.reduce_window(%r) init(%ninf) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x16xf32>, tensor<f32>) -> tensor<1x4x4x16xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = hlo.maximum %a, %b : tensor<f32>
    hlo.return %m : tensor<f32>
  }
  %z = hlo.constant dense<0.0> : tensor<f32>
  %s = hlo.reduce_window(%x) init(%z) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x16xf32>, tensor<f32>) -> tensor<1x4x4x16xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = hlo.add %a, %b : tensor<f32>
    hlo.return %m : tensor<f32>
  }
  return %p, %s : tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>
}
}
