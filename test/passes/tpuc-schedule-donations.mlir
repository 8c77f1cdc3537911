// RUN: tpuc-opt %s --tpuc-schedule-donations --split-input-file | FileCheck %s

// The update of %w (donated to result 0) was placed before the input
// gradient that still reads %w: it moves right after that read.
// CHECK-LABEL: func.func @main
// CHECK: %[[DX:.*]] = hlo.dot_general %arg2, %arg0
// CHECK-NEXT: %[[U:.*]] = hlo.subtract %arg0, %arg1
// CHECK-NEXT: return %[[U]], %[[DX]]
module attributes {hlo.input_output_alias = [#hlo.alias<output_index = [0], parameter_number = 0, kind = may_alias>]} {
  func.func @main(%w: tensor<8x8xf32>, %g: tensor<8x8xf32>, %dy: tensor<4x8xf32>) -> (tensor<8x8xf32>, tensor<4x8xf32>) {
    %u = hlo.subtract %w, %g : tensor<8x8xf32>
    %dx = hlo.dot_general %dy, %w, dims = <lhs_contracting = [1], rhs_contracting = [1]> : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    return %u, %dx : tensor<8x8xf32>, tensor<4x8xf32>
  }
}

// -----

// A read inside a region counts for the op holding it; the update moves
// after the while.
// CHECK-LABEL: func.func @main
// CHECK: hlo.while
// CHECK: hlo.add %{{.*}}, %arg0
// CHECK-NEXT: hlo.return
// CHECK-NEXT: }
// CHECK-NEXT: %[[U:.*]] = hlo.negate %arg0
// CHECK-NEXT: return %[[U]]
module attributes {hlo.input_output_alias = [#hlo.alias<output_index = [0], parameter_number = 0, kind = may_alias>]} {
  func.func @main(%w: tensor<8xf32>, %n: tensor<i32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %u = hlo.negate %w : tensor<8xf32>
    %r:2 = hlo.while(%n, %w) : tensor<i32>, tensor<8xf32> cond {
    ^bb0(%i: tensor<i32>, %x: tensor<8xf32>):
      %z = hlo.constant dense<0> : tensor<i32>
      %c = hlo.compare GT, %i, %z : (tensor<i32>, tensor<i32>) -> tensor<i1>
      hlo.return %c : tensor<i1>
    } do {
    ^bb0(%i: tensor<i32>, %x: tensor<8xf32>):
      %one = hlo.constant dense<1> : tensor<i32>
      %j = hlo.subtract %i, %one : tensor<i32>
      %y = hlo.add %x, %w : tensor<8xf32>
      hlo.return %j, %y : tensor<i32>, tensor<8xf32>
    }
    return %u, %r#1 : tensor<8xf32>, tensor<8xf32>
  }
}

// -----

// Something reads the update before the parameter's last read: nothing
// moves (the lowering copies instead).
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[U:.*]] = hlo.negate %arg0
// CHECK-NEXT: %[[V:.*]] = hlo.add %[[U]], %arg0
// CHECK-NEXT: %[[X:.*]] = hlo.multiply %arg0, %arg0
// CHECK-NEXT: return %[[U]], %[[V]], %[[X]]
module attributes {hlo.input_output_alias = [#hlo.alias<output_index = [0], parameter_number = 0, kind = may_alias>]} {
  func.func @main(%w: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
    %u = hlo.negate %w : tensor<8xf32>
    %v = hlo.add %u, %w : tensor<8xf32>
    %x = hlo.multiply %w, %w : tensor<8xf32>
    return %u, %v, %x : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  }
}

// -----

// Already after the last reader: unchanged.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: hlo.multiply %arg0, %arg0
// CHECK-NEXT: hlo.negate %arg0
module attributes {hlo.input_output_alias = [#hlo.alias<output_index = [0], parameter_number = 0, kind = may_alias>]} {
  func.func @main(%w: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %x = hlo.multiply %w, %w : tensor<8xf32>
    %u = hlo.negate %w : tensor<8xf32>
    return %u, %x : tensor<8xf32>, tensor<8xf32>
  }
}
