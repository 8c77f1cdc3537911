// RUN: tpuc-opt %s --tpuc-sharding-propagation --tpuc-spmd-partition | FileCheck %s

// A get_tuple_element annotated otherwise than its tuple element: the
// element keeps the tuple's tile, then is resharded to the annotation (the
// columns move from the second mesh axis to the first: both splits
// gathered, the new one cut at (id / 2) * 4).
module attributes {hlo.num_partitions = 4 : i64} {
  // CHECK-LABEL: func.func @main(%arg0: tensor<4x4xf32>
  func.func @main(%x: tensor<8x8xf32> {hlo.sharding = "{devices=[2,2]<=[4]}"}) -> tensor<8x8xf32> {
    // CHECK: %[[T:.+]] = hlo.tuple %arg0 : (tensor<4x4xf32>) -> tuple<tensor<4x4xf32>>
    %t = hlo.tuple %x : (tensor<8x8xf32>) -> tuple<tensor<8x8xf32>>
    // CHECK: %[[E:.+]] = hlo.get_tuple_element %[[T]][0] : (tuple<tensor<4x4xf32>>) -> tensor<4x4xf32>
    // CHECK: %[[G:.+]] = hlo.all_gather %[[E]], dim = 0 {{.*}}replica_groups = dense<{{\[\[}}0, 2], [1, 3]]>{{.*}} -> tensor<8x4xf32>
    // CHECK: %[[F:.+]] = hlo.all_gather %[[G]], dim = 1 {{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3]]>{{.*}} -> tensor<8x8xf32>
    // CHECK: %[[I:.+]] = hlo.divide %{{.+}}, %{{.+}} : tensor<i32>
    // CHECK: %[[O:.+]] = hlo.multiply %[[I]], %{{.+}} : tensor<i32>
    // CHECK: %[[S:.+]] = hlo.dynamic_slice %[[F]], [%{{.+}}, %[[O]]], sizes = [8, 4]
    // CHECK: hlo.negate %[[S]] : tensor<8x4xf32>
    %e = hlo.get_tuple_element %t[0] {hlo.sharding = "{devices=[1,2,2]<=[4] last_tile_dim_replicate}"} : (tuple<tensor<8x8xf32>>) -> tensor<8x8xf32>
    %n = hlo.negate %e : tensor<8x8xf32>
    return %n : tensor<8x8xf32>
  }
}
