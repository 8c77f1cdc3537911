// hlo.slice (strided), hlo.pad (low/high/interior, negative edges, a splat
// and an array padding value), hlo.concatenate (minor and outer dims) and
// hlo.reverse, f32 on ragged shapes. Pure data movement: compared bit for
// bit (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --fusion=off -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=1 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=1 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 10 | FileCheck %s
// CHECK: result0: ok shape=[6, 67]
// CHECK: result1: ok shape=[3, 9, 43]
// CHECK: result2: ok shape=[1, 114, 114, 3]
// CHECK: result3: ok shape=[30, 267]
// CHECK: result4: ok shape=[11, 150]
// CHECK: result5: ok shape=[20, 333]
// CHECK: result6: ok shape=[40, 200]
// CHECK: result7: ok shape=[20, 200]
// CHECK: result8: ok shape=[3, 20, 130]
// CHECK: result9: ok shape=[300]

func.func @main(%x: tensor<20x200xf32>, %y: tensor<3x20x130xf32>,
                %img: tensor<1x112x112x3xf32>, %p: tensor<f32>,
                %v: tensor<300xf32>)
    -> (tensor<6x67xf32>, tensor<3x9x43xf32>, tensor<1x114x114x3xf32>,
        tensor<30x267xf32>, tensor<11x150xf32>, tensor<20x333xf32>,
        tensor<40x200xf32>, tensor<20x200xf32>, tensor<3x20x130xf32>,
        tensor<300xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.slice %x [3:20:3, 1:200:3] : (tensor<20x200xf32>) -> tensor<6x67xf32>
  %1 = hlo.slice %y [0:3:1, 2:20:2, 1:130:3] : (tensor<3x20x130xf32>) -> tensor<3x9x43xf32>
  %2 = hlo.pad %img, %zero, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x112x112x3xf32>, tensor<f32>) -> tensor<1x114x114x3xf32>
  %3 = hlo.pad %x, %p, low = [-2, 5], high = [-7, -137], interior = [1, 1] : (tensor<20x200xf32>, tensor<f32>) -> tensor<30x267xf32>
  %4 = hlo.pad %x, %p, low = [-10, -50], high = [1, 0], interior = [0, 0] : (tensor<20x200xf32>, tensor<f32>) -> tensor<11x150xf32>
  %y1 = hlo.slice %x [0:20:1, 5:135:1] : (tensor<20x200xf32>) -> tensor<20x130xf32>
  %x2 = hlo.slice %x [0:20:1, 0:3:1] : (tensor<20x200xf32>) -> tensor<20x3xf32>
  %5 = hlo.concatenate(%x, %y1, %x2) dim = 1 : (tensor<20x200xf32>, tensor<20x130xf32>, tensor<20x3xf32>) -> tensor<20x333xf32>
  %6 = hlo.concatenate(%x, %x) dim = 0 : (tensor<20x200xf32>, tensor<20x200xf32>) -> tensor<40x200xf32>
  %7 = hlo.reverse %x, dims = [0, 1] : tensor<20x200xf32>
  %8 = hlo.reverse %y, dims = [1] : tensor<3x20x130xf32>
  %9 = hlo.reverse %v, dims = [0] : tensor<300xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<6x67xf32>, tensor<3x9x43xf32>, tensor<1x114x114x3xf32>, tensor<30x267xf32>, tensor<11x150xf32>, tensor<20x333xf32>, tensor<40x200xf32>, tensor<20x200xf32>, tensor<3x20x130xf32>, tensor<300xf32>
}
