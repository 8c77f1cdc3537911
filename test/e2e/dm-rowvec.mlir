// Per-row vectors between lanes and sublanes (issue #11), standalone
// kernels (--fusion=off), f32 and s32, ragged shapes: reshapes that insert
// or drop a unit minor dim ([300] -> [300,1], [1,12,130] -> [1,12,130,1],
// [3,300] -> [3,300,1] and back), and lane broadcasts of a per-row vector
// ([1,12,130] -> [1,12,130,200] dims={0,1,2}, [300] -> [300,10] dims={0},
// [3,300] -> [3,300,5]). A [.., N, 1] array has one column of tiles, so
// its row dim is linear (one DMA per run of N, not per tile of 8); the
// lane broadcasts write each tile row from a ring of VMEM pages. Pure data
// movement: compared bit for bit (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --fusion=off -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=4 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=4 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 10 | FileCheck %s
// CHECK: result0: ok shape=[300, 1]
// CHECK: result1: ok shape=[1, 12, 130, 1]
// CHECK: result2: ok shape=[3, 300, 1]
// CHECK: result3: ok shape=[3, 300]
// CHECK: result4: ok shape=[300]
// CHECK: result5: ok shape=[1, 12, 130, 200]
// CHECK: result6: ok shape=[300, 10]
// CHECK: result7: ok shape=[3, 300, 5]
// CHECK: result8: ok shape=[1, 12, 130, 1]
// CHECK: result9: ok shape=[2, 9, 1]

func.func @main(%v: tensor<300xf32>, %h: tensor<1x12x130xf32>,
                %m: tensor<3x300xf32>, %i: tensor<1x12x130xi32>,
                %j: tensor<2x9xi32>)
    -> (tensor<300x1xf32>, tensor<1x12x130x1xf32>, tensor<3x300x1xf32>,
        tensor<3x300xf32>, tensor<300xf32>, tensor<1x12x130x200xf32>,
        tensor<300x10xf32>, tensor<3x300x5xf32>, tensor<1x12x130x1xi32>,
        tensor<2x9x1xi32>) {
  %0 = hlo.reshape %v : (tensor<300xf32>) -> tensor<300x1xf32>
  %1 = hlo.reshape %h : (tensor<1x12x130xf32>) -> tensor<1x12x130x1xf32>
  %2 = hlo.reshape %m : (tensor<3x300xf32>) -> tensor<3x300x1xf32>
  %3 = hlo.reshape %2 : (tensor<3x300x1xf32>) -> tensor<3x300xf32>
  %4 = hlo.reshape %0 : (tensor<300x1xf32>) -> tensor<300xf32>
  %5 = hlo.broadcast_in_dim %h, dims = [0, 1, 2] : (tensor<1x12x130xf32>) -> tensor<1x12x130x200xf32>
  %6 = hlo.broadcast_in_dim %v, dims = [0] : (tensor<300xf32>) -> tensor<300x10xf32>
  %7 = hlo.broadcast_in_dim %m, dims = [0, 1] : (tensor<3x300xf32>) -> tensor<3x300x5xf32>
  %8 = hlo.reshape %i : (tensor<1x12x130xi32>) -> tensor<1x12x130x1xi32>
  %9 = hlo.reshape %j : (tensor<2x9xi32>) -> tensor<2x9x1xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9
      : tensor<300x1xf32>, tensor<1x12x130x1xf32>, tensor<3x300x1xf32>,
        tensor<3x300xf32>, tensor<300xf32>, tensor<1x12x130x200xf32>,
        tensor<300x10xf32>, tensor<3x300x5xf32>, tensor<1x12x130x1xi32>,
        tensor<2x9x1xi32>
}
