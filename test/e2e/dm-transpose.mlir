// hlo.transpose on ragged shapes of rank 2..6, f32: permutations that keep
// the minor dim (row-run DMAs), swap the two minor dims, and move the minor
// dim elsewhere (element-strided DMAs); [2,200,150] -> [2,150,200] takes
// the VTRANSPOSE path with ragged 128x128 blocks. Pure data movement:
// compared bit for bit (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --fusion=off -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=1 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=1 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 8 | FileCheck %s
// CHECK: result0: ok shape=[20, 3, 130]
// CHECK: result1: ok shape=[130, 20, 3]
// CHECK: result2: ok shape=[3, 130, 20]
// CHECK: result3: ok shape=[130, 20]
// CHECK: result4: ok shape=[5, 2, 3, 9, 4, 7]
// CHECK: result5: ok shape=[9, 2, 3, 11, 5]
// CHECK: result6: ok shape=[2, 150, 200]
// CHECK: result7: ok shape=[2, 3, 40, 130]

func.func @main(%x: tensor<3x20x130xf32>, %y: tensor<20x130xf32>,
                %z: tensor<2x3x4x5x7x9xf32>, %w: tensor<2x3x5x9x11xf32>,
                %m: tensor<2x200x150xf32>,
                %q: tensor<3x2x130x40xf32>)
    -> (tensor<20x3x130xf32>, tensor<130x20x3xf32>, tensor<3x130x20xf32>,
        tensor<130x20xf32>, tensor<5x2x3x9x4x7xf32>, tensor<9x2x3x11x5xf32>,
        tensor<2x150x200xf32>, tensor<2x3x40x130xf32>) {
  %0 = hlo.transpose %x, dims = [1, 0, 2] : (tensor<3x20x130xf32>) -> tensor<20x3x130xf32>
  %1 = hlo.transpose %x, dims = [2, 1, 0] : (tensor<3x20x130xf32>) -> tensor<130x20x3xf32>
  %2 = hlo.transpose %x, dims = [0, 2, 1] : (tensor<3x20x130xf32>) -> tensor<3x130x20xf32>
  %3 = hlo.transpose %y, dims = [1, 0] : (tensor<20x130xf32>) -> tensor<130x20xf32>
  %4 = hlo.transpose %z, dims = [3, 0, 1, 5, 2, 4] : (tensor<2x3x4x5x7x9xf32>) -> tensor<5x2x3x9x4x7xf32>
  %5 = hlo.transpose %w, dims = [3, 0, 1, 4, 2] : (tensor<2x3x5x9x11xf32>) -> tensor<9x2x3x11x5xf32>
  %6 = hlo.transpose %m, dims = [0, 2, 1] : (tensor<2x200x150xf32>) -> tensor<2x150x200xf32>
  %7 = hlo.transpose %q, dims = [1, 0, 3, 2] : (tensor<3x2x130x40xf32>) -> tensor<2x3x40x130xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<20x3x130xf32>, tensor<130x20x3xf32>, tensor<3x130x20xf32>, tensor<130x20xf32>, tensor<5x2x3x9x4x7xf32>, tensor<9x2x3x11x5xf32>, tensor<2x150x200xf32>, tensor<2x3x40x130xf32>
}
