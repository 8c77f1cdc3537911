// hlo.transpose on ragged shapes of rank 2..6, bf16: permutations that keep
// the minor dim (row-run DMAs), swap the two minor dims, and move the minor
// dim elsewhere (element-strided DMAs); [2,200,150] -> [2,150,200] takes
// the VTRANSPOSE path with ragged 128x128 blocks. Pure data movement:
// compared bit for bit (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --fusion=off -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=1 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=1 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 7 | FileCheck %s
// CHECK: result0: ok shape=[20, 3, 130]
// CHECK: result1: ok shape=[130, 20, 3]
// CHECK: result2: ok shape=[3, 130, 20]
// CHECK: result3: ok shape=[130, 20]
// CHECK: result4: ok shape=[5, 2, 3, 9, 4, 7]
// CHECK: result5: ok shape=[9, 2, 3, 11, 5]
// CHECK: result6: ok shape=[2, 150, 200]

func.func @main(%x: tensor<3x20x130xbf16>, %y: tensor<20x130xbf16>,
                %z: tensor<2x3x4x5x7x9xbf16>, %w: tensor<2x3x5x9x11xbf16>,
                %m: tensor<2x200x150xbf16>)
    -> (tensor<20x3x130xbf16>, tensor<130x20x3xbf16>, tensor<3x130x20xbf16>,
        tensor<130x20xbf16>, tensor<5x2x3x9x4x7xbf16>, tensor<9x2x3x11x5xbf16>,
        tensor<2x150x200xbf16>) {
  %0 = hlo.transpose %x, dims = [1, 0, 2] : (tensor<3x20x130xbf16>) -> tensor<20x3x130xbf16>
  %1 = hlo.transpose %x, dims = [2, 1, 0] : (tensor<3x20x130xbf16>) -> tensor<130x20x3xbf16>
  %2 = hlo.transpose %x, dims = [0, 2, 1] : (tensor<3x20x130xbf16>) -> tensor<3x130x20xbf16>
  %3 = hlo.transpose %y, dims = [1, 0] : (tensor<20x130xbf16>) -> tensor<130x20xbf16>
  %4 = hlo.transpose %z, dims = [3, 0, 1, 5, 2, 4] : (tensor<2x3x4x5x7x9xbf16>) -> tensor<5x2x3x9x4x7xbf16>
  %5 = hlo.transpose %w, dims = [3, 0, 1, 4, 2] : (tensor<2x3x5x9x11xbf16>) -> tensor<9x2x3x11x5xbf16>
  %6 = hlo.transpose %m, dims = [0, 2, 1] : (tensor<2x200x150xbf16>) -> tensor<2x150x200xbf16>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<20x3x130xbf16>, tensor<130x20x3xbf16>, tensor<3x130x20xbf16>, tensor<130x20xbf16>, tensor<5x2x3x9x4x7xbf16>, tensor<9x2x3x11x5xbf16>, tensor<2x150x200xbf16>
}
