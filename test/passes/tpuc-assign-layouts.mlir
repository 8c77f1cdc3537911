// RUN: tpuc-opt %s --split-input-file --tpuc-assign-layouts | FileCheck %s
// RUN: not tpuc-opt %s --tpuc-assign-layouts=target=nope 2>&1 | FileCheck %s --check-prefix=BADTARGET
// BADTARGET: error: unknown target 'nope'; valid targets: tpu-v2, tpu-v3, tpu-v4, tpu-v5e, tpu-v5p, tpu-v6e, tpu7x

// The one-hot of the reference report: XLA kept the depth (10) minor, 12.8x
// padding; the long dim minor pads 10 to 16 only. The whole elementwise
// group moves together; the reduction reads any layout.
// CHECK-LABEL: func.func @one_hot
// CHECK: hlo.iota dim = 1 {hlo.layout = "{0,1}"} : tensor<29360128x10xi32>
// CHECK: hlo.broadcast_in_dim {{.*}} {hlo.layout = "{0,1}"}
// CHECK: hlo.compare {{.*}} {hlo.layout = "{0,1}"}
// CHECK: hlo.convert {{.*}} {hlo.layout = "{0,1}"}
// CHECK-NOT: hlo.copy
func.func @one_hot(%labels: tensor<29360128xi32>) -> tensor<10xf32> {
  %iota = hlo.iota dim = 1 : tensor<29360128x10xi32>
  %b = hlo.broadcast_in_dim %labels, dims = [0] : (tensor<29360128xi32>) -> tensor<29360128x10xi32>
  %eq = hlo.compare EQ, %iota, %b : (tensor<29360128x10xi32>, tensor<29360128x10xi32>) -> tensor<29360128x10xi1>
  %f = hlo.convert %eq : (tensor<29360128x10xi1>) -> tensor<29360128x10xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %sum = hlo.reduce(%f) init(%zero) dims = [0] : (tensor<29360128x10xf32>, tensor<f32>) -> tensor<10xf32> {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %s = hlo.add %a, %c : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %sum : tensor<10xf32>
}

// -----

// Layouts that already pad nothing stay as they are.
// CHECK-LABEL: func.func @aligned
// CHECK-NOT: hlo.layout
// CHECK-NOT: hlo.copy
func.func @aligned(%x: tensor<256x1024xf32>) -> tensor<256x1024xf32> {
  %e = hlo.exponential %x : tensor<256x1024xf32>
  %a = hlo.add %e, %e : tensor<256x1024xf32>
  return %a : tensor<256x1024xf32>
}

// -----

// The entry argument keeps its layout: a copy into the group's layout pays
// because the group is much larger than the argument; the result is copied
// back to the signature's layout only because the return needs it.
// CHECK-LABEL: func.func @entry_boundary
// CHECK-SAME: (%[[X:.+]]: tensor<4096x3xf32>)
// CHECK: %[[C:.+]] = hlo.copy %[[X]] {hlo.layout = "{0,1}"}
// CHECK: hlo.exponential %[[C]] {hlo.layout = "{0,1}"}
// CHECK: %[[N:.+]] = hlo.negate {{.*}} {hlo.layout = "{0,1}"}
// CHECK: %[[R:.+]] = hlo.reduce(%[[N]])
// CHECK: return %[[R]]
func.func @entry_boundary(%x: tensor<4096x3xf32>) -> tensor<3xf32> {
  %e = hlo.exponential %x : tensor<4096x3xf32>
  %m = hlo.multiply %e, %e : tensor<4096x3xf32>
  %n = hlo.negate %m : tensor<4096x3xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %sum = hlo.reduce(%n) init(%zero) dims = [0] : (tensor<4096x3xf32>, tensor<f32>) -> tensor<3xf32> {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %s = hlo.add %a, %c : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %sum : tensor<3xf32>
}

// -----

// Dot operands keep the MXU's row-major layout: a narrow group feeding a dot
// would need a copy back, which costs more than its padding saves.
// CHECK-LABEL: func.func @dot_operand
// CHECK-NOT: hlo.layout
// CHECK-NOT: hlo.copy
func.func @dot_operand(%x: tensor<64x8xf32>, %w: tensor<8x128xf32>) -> tensor<64x128xf32> {
  %e = hlo.exponential %x : tensor<64x8xf32>
  %d = hlo.dot_general %e, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<64x8xf32>, tensor<8x128xf32>) -> tensor<64x128xf32>
  return %d : tensor<64x128xf32>
}
