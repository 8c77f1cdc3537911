// The reductions the VPU kernels do not take: one diagnostic at the op.
// RUN: not tpuc-opt %s --split-input-file --tpuc-convert-hlo-to-tpu 2>&1 | FileCheck %s

// Not in a kernel's form (tpuc-decompose-reductions rewrites it).
// CHECK: error: tpuc cannot lower 'hlo.reduce' over dims other than the minor one, a run ending at the second-minor one, or all (run tpuc-decompose-reductions first) yet
func.func @middle_of_minor(%x: tensor<4x6x8xf32>) -> tensor<6x8xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%x) init(%zero) dims = [0] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<6x8xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  return %r : tensor<6x8xf32>
}

// -----

// CHECK: error: tpuc cannot lower 'hlo.reduce' with several inputs (variadic) yet
func.func @variadic(%x: tensor<6x8xf32>, %i: tensor<6x8xi32>) -> (tensor<6xf32>, tensor<6xi32>) {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %izero = hlo.constant dense<0> : tensor<i32>
  %m:2 = hlo.reduce(%x, %i) init(%ninf, %izero) dims = [1] : (tensor<6x8xf32>, tensor<6x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>) {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = hlo.compare GT, %av, %bv : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = hlo.select %gt, %av, %bv : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %j = hlo.select %gt, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    hlo.return %v, %j : tensor<f32>, tensor<i32>
  }
  return %m#0, %m#1 : tensor<6xf32>, tensor<6xi32>
}

// -----

// CHECK: error: tpuc cannot lower 'hlo.reduce' with a hlo.xor body on i32 yet
func.func @xor(%x: tensor<6x8xi32>) -> tensor<6xi32> {
  %izero = hlo.constant dense<0> : tensor<i32>
  %r = hlo.reduce(%x) init(%izero) dims = [1] : (tensor<6x8xi32>, tensor<i32>) -> tensor<6xi32> {
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %0 = hlo.xor %p, %q : tensor<i32>
    hlo.return %0 : tensor<i32>
  }
  return %r : tensor<6xi32>
}

// -----

// CHECK: error: tpuc cannot lower 'hlo.reduce' with a body other than one binary op of its arguments yet
func.func @two_ops(%x: tensor<6x8xf32>) -> tensor<6xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%x) init(%zero) dims = [1] : (tensor<6x8xf32>, tensor<f32>) -> tensor<6xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.multiply %q, %q : tensor<f32>
    %1 = hlo.add %p, %0 : tensor<f32>
    hlo.return %1 : tensor<f32>
  }
  return %r : tensor<6xf32>
}

// -----

// CHECK: error: tpuc cannot lower 'hlo.reduce_window' with a window on dims other than 1 and 2 (H, W of NHWC) yet
func.func @window_on_c(%x: tensor<1x8x8x16xf32>) -> tensor<1x8x8x8xf32> {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %r = hlo.reduce_window(%x) init(%ninf) {window_dimensions = array<i64: 1, 1, 1, 2>, window_strides = array<i64: 1, 1, 1, 2>} : (tensor<1x8x8x16xf32>, tensor<f32>) -> tensor<1x8x8x8xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.maximum %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  return %r : tensor<1x8x8x8xf32>
}

// -----

// CHECK: error: tpuc cannot lower 'hlo.reduce_window' with dilations yet
func.func @dilated(%x: tensor<1x8x8x16xf32>) -> tensor<1x6x8x16xf32> {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %r = hlo.reduce_window(%x) init(%ninf) {window_dimensions = array<i64: 1, 2, 1, 1>, window_dilations = array<i64: 1, 2, 1, 1>} : (tensor<1x8x8x16xf32>, tensor<f32>) -> tensor<1x6x8x16xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.maximum %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  return %r : tensor<1x6x8x16xf32>
}

// -----

// CHECK: error: tpuc cannot lower 'hlo.reduce_window' other than on a 4-D (NHWC) array yet
func.func @rank2(%x: tensor<8x16xf32>) -> tensor<7x16xf32> {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %r = hlo.reduce_window(%x) init(%ninf) {window_dimensions = array<i64: 2, 1>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<7x16xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.maximum %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  return %r : tensor<7x16xf32>
}
