// RUN: tpuc-opt %s --split-input-file --tpuc-data-parallel=num-devices=4 --verify-diagnostics | FileCheck %s
// The batch (dimension 0 of every non-donated parameter) is split over 4
// devices; donated parameters stay whole; reductions and dots over the batch
// are completed by all-reduces.

// CHECK: module attributes {hlo.input_output_alias = {{.*}}, hlo.num_partitions = 4 : i64, hlo.replica_count = 1 : i64}
// CHECK-LABEL: func.func @step
// CHECK-SAME: %[[W:.+]]: tensor<8x2xf32> {hlo.sharding = "{replicated}"}
// CHECK-SAME: %[[X:.+]]: tensor<4x8xf32> {hlo.sharding = "{devices=[4,1]<=[4]}"}
// CHECK-SAME: -> (tensor<8x2xf32> {hlo.sharding = "{replicated}"}, tensor<f32> {hlo.sharding = "{replicated}"}, tensor<4x2xf32> {hlo.sharding = "{devices=[4,1]<=[4]}"})
module attributes {hlo.input_output_alias = [#hlo.alias<output_index = [0], parameter_number = 0, kind = may_alias>]} {
  func.func @step(%w: tensor<8x2xf32>, %x: tensor<16x8xf32>) -> (tensor<8x2xf32>, tensor<f32>, tensor<16x2xf32>) {
    // The device's offset, computed once.
    // CHECK: %[[PID:.+]] = hlo.partition_id : tensor<ui32>
    // CHECK: %[[OFF:.+]] = hlo.convert %[[PID]] : (tensor<ui32>) -> tensor<i32>
    // The split operand carries the split through the dot (a free dimension).
    // CHECK: %[[Y:.+]] = hlo.dot_general %[[X]], %[[W]], {{.*}} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
    %y = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<16x8xf32>, tensor<8x2xf32>) -> tensor<16x2xf32>
    // A replicated full-size operand is sliced to this device's rows.
    // CHECK: %[[START:.+]] = hlo.multiply %[[OFF]], %{{.+}} : tensor<i32>
    // CHECK: %[[PART:.+]] = hlo.dynamic_slice %{{.+}}, [%[[START]], %{{.+}}], sizes = [4, 2] : (tensor<16x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
    // CHECK: %[[R:.+]] = hlo.maximum %[[Y]], %[[PART]] : tensor<4x2xf32>
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %zeros = hlo.constant dense<0.0> : tensor<16x2xf32>
    %r = hlo.maximum %y, %zeros : tensor<16x2xf32>
    // A dot contracting the batch: the partial products are summed over all
    // devices (the weight gradient).
    // CHECK: %[[G:.+]] = hlo.dot_general %[[X]], %[[R]], {{.*}} : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
    // CHECK: %[[GS:.+]] = hlo.all_reduce(%[[G]]) {channel_id = {{[0-9]+}} : i64, replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}
    %g = hlo.dot_general %x, %r, dims = <lhs_contracting = [0], rhs_contracting = [0]> : (tensor<16x8xf32>, tensor<16x2xf32>) -> tensor<8x2xf32>
    // CHECK: %[[NEW:.+]] = hlo.subtract %[[W]], %[[GS]] : tensor<8x2xf32>
    %new = hlo.subtract %w, %g : tensor<8x2xf32>
    // A reduction over the batch: local sums, then an all-reduce with the
    // reduction's own computation; the graph's scaling stays.
    // CHECK: %[[S:.+]] = hlo.reduce(%[[R]]) init(%{{.+}}) dims = [0, 1] : (tensor<4x2xf32>, tensor<f32>) -> tensor<f32>
    // CHECK: %[[SS:.+]] = hlo.all_reduce(%[[S]])
    // CHECK: hlo.add
    // CHECK: %[[MEAN:.+]] = hlo.divide %[[SS]], %{{.+}} : tensor<f32>
    %s = hlo.reduce(%r) init(%zero) dims = [0, 1] : (tensor<16x2xf32>, tensor<f32>) -> tensor<f32> {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = hlo.add %a, %b : tensor<f32>
      hlo.return %t : tensor<f32>
    }
    %n = hlo.constant dense<32.0> : tensor<f32>
    %mean = hlo.divide %s, %n : tensor<f32>
    // CHECK: return %[[NEW]], %[[MEAN]], %[[R]]
    return %new, %mean, %r : tensor<8x2xf32>, tensor<f32>, tensor<16x2xf32>
  }
}

// -----

func.func @uneven(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  // expected-error @-1 {{tpuc-data-parallel: dimension 0 of 'tensor<6x8xf32>' does not split over 4 devices}}
  return %x : tensor<6x8xf32>
}

// -----

func.func @sort(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{tpuc-data-parallel: cannot partition this op with an operand split along dimension 0}}
  %s = hlo.sort(%x) dim = 0 : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }
  return %s : tensor<8xf32>
}

// -----

// A replicated broadcast along the split dimension (a gradient's scale) is
// broadcast straight to the device's rows: no full-size array, no slice.
// CHECK-LABEL: func.func @scale
// CHECK-SAME: %[[X:.+]]: tensor<4x8xf32>
// CHECK: %[[C:.+]] = hlo.constant dense<2.500000e-01> : tensor<f32>
// CHECK: %[[B:.+]] = hlo.broadcast_in_dim %[[C]], dims = [] : (tensor<f32>) -> tensor<4x8xf32>
// CHECK: hlo.multiply %[[X]], %[[B]] : tensor<4x8xf32>
// CHECK-NOT: hlo.dynamic_slice
module {
  func.func @scale(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %c = hlo.constant dense<0.25> : tensor<f32>
    %b = hlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %y = hlo.multiply %x, %b : tensor<16x8xf32>
    return %y : tensor<16x8xf32>
  }
}
