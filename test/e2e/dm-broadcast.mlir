// hlo.broadcast_in_dim in general, f32: a scalar (array and splat constant)
// to rank 2 and 4, a per-channel vector [C] -> [N,H,W,C], [N] -> [N,1],
// rows, columns and a size-1 dim expanded in the middle, on ragged shapes.
// Pure data movement: compared bit for bit (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --fusion=off -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=1 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=1 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 8 | FileCheck %s
// CHECK: result0: ok shape=[9, 300]
// CHECK: result1: ok shape=[2, 5, 7, 131]
// CHECK: result2: ok shape=[2, 5, 7, 131]
// CHECK: result3: ok shape=[20, 1]
// CHECK: result4: ok shape=[20, 130]
// CHECK: result5: ok shape=[130, 20]
// CHECK: result6: ok shape=[3, 4, 20, 9]
// CHECK: result7: ok shape=[1030]

func.func @main(%s: tensor<f32>, %c: tensor<131xf32>, %n: tensor<20xf32>,
                %m: tensor<3x1x9xf32>)
    -> (tensor<9x300xf32>, tensor<2x5x7x131xf32>, tensor<2x5x7x131xf32>,
        tensor<20x1xf32>, tensor<20x130xf32>, tensor<130x20xf32>,
        tensor<3x4x20x9xf32>, tensor<1030xf32>) {
  %k = hlo.constant dense<2.5> : tensor<f32>
  %0 = hlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<9x300xf32>
  %1 = hlo.broadcast_in_dim %k, dims = [] : (tensor<f32>) -> tensor<2x5x7x131xf32>
  %2 = hlo.broadcast_in_dim %c, dims = [3] : (tensor<131xf32>) -> tensor<2x5x7x131xf32>
  %3 = hlo.broadcast_in_dim %n, dims = [0] : (tensor<20xf32>) -> tensor<20x1xf32>
  %4 = hlo.broadcast_in_dim %n, dims = [0] : (tensor<20xf32>) -> tensor<20x130xf32>
  %5 = hlo.broadcast_in_dim %n, dims = [1] : (tensor<20xf32>) -> tensor<130x20xf32>
  %6 = hlo.broadcast_in_dim %m, dims = [0, 1, 3] : (tensor<3x1x9xf32>) -> tensor<3x4x20x9xf32>
  %7 = hlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<1030xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<9x300xf32>, tensor<2x5x7x131xf32>, tensor<2x5x7x131xf32>, tensor<20x1xf32>, tensor<20x130xf32>, tensor<130x20xf32>, tensor<3x4x20x9xf32>, tensor<1030xf32>
}
