// Data movement on rank-0 and rank-1 arrays (row-major {0:T(1024)} layout,
// arrays longer than one 1024-element tile), s32: transpose, reverse,
// strided slice, concatenate, pad with interior and negative edges,
// dynamic_slice, broadcast of a vector, reshape to rank 0.
// Pure data movement: compared bit for bit (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --fusion=off -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=7 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 8 | FileCheck %s
// CHECK: result0: ok shape=[]
// CHECK: result1: ok shape=[2500]
// CHECK: result2: ok shape=[833]
// CHECK: result3: ok shape=[2503]
// CHECK: result4: ok shape=[4996]
// CHECK: result5: ok shape=[1030]
// CHECK: result6: ok shape=[3, 2500]
// CHECK: result7: ok shape=[]

func.func @main(%s: tensor<i32>, %v: tensor<2500xi32>, %w: tensor<3xi32>, %i: tensor<i32>, %one: tensor<1x1xi32>)
    -> (tensor<i32>, tensor<2500xi32>, tensor<833xi32>, tensor<2503xi32>,
        tensor<4996xi32>, tensor<1030xi32>, tensor<3x2500xi32>, tensor<i32>) {
  %0 = hlo.transpose %s, dims = [] : (tensor<i32>) -> tensor<i32>
  %1 = hlo.reverse %v, dims = [0] : tensor<2500xi32>
  %2 = hlo.slice %v [1:2500:3] : (tensor<2500xi32>) -> tensor<833xi32>
  %3 = hlo.concatenate(%v, %w) dim = 0 : (tensor<2500xi32>, tensor<3xi32>) -> tensor<2503xi32>
  %4 = hlo.pad %v, %s, low = [-3], high = [0], interior = [1] : (tensor<2500xi32>, tensor<i32>) -> tensor<4996xi32>
  %5 = hlo.dynamic_slice %v, [%i], sizes = [1030] : (tensor<2500xi32>, tensor<i32>) -> tensor<1030xi32>
  %6 = hlo.broadcast_in_dim %v, dims = [1] : (tensor<2500xi32>) -> tensor<3x2500xi32>
  %7 = hlo.reshape %one : (tensor<1x1xi32>) -> tensor<i32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<i32>, tensor<2500xi32>, tensor<833xi32>, tensor<2503xi32>, tensor<4996xi32>, tensor<1030xi32>, tensor<3x2500xi32>, tensor<i32>
}
