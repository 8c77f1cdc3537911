// hlo.dynamic_slice and hlo.dynamic_update_slice, f32, with run-time s32
// start indices (random in [-8, 7], so XLA's clamping to [0, dim - size]
// is exercised at both ends): starts in the minor dims (element DMAs) and
// in outer dims only (row runs), bench_scan's [2000,3] row update.
// Pure data movement: compared bit for bit (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --fusion=off -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=4 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=4 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 5 | FileCheck %s
// CHECK: result0: ok shape=[5, 130]
// CHECK: result1: ok shape=[1, 20, 130]
// CHECK: result2: ok shape=[2000, 3]
// CHECK: result3: ok shape=[20, 200]
// CHECK: result4: ok shape=[1, 3]

func.func @main(%x: tensor<20x200xf32>, %y: tensor<3x20x130xf32>,
                %h: tensor<2000x3xf32>, %i: tensor<i32>, %j: tensor<i32>,
                %u: tensor<5x130xf32>, %r: tensor<1x3xf32>)
    -> (tensor<5x130xf32>, tensor<1x20x130xf32>, tensor<2000x3xf32>,
        tensor<20x200xf32>, tensor<1x3xf32>) {
  %c0 = hlo.constant dense<0> : tensor<i32>
  %0 = hlo.dynamic_slice %x, [%i, %j], sizes = [5, 130] : (tensor<20x200xf32>, tensor<i32>, tensor<i32>) -> tensor<5x130xf32>
  %1 = hlo.dynamic_slice %y, [%j, %i, %i], sizes = [1, 20, 130] : (tensor<3x20x130xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x20x130xf32>
  %2 = hlo.dynamic_update_slice %h, %r, [%i, %c0] : (tensor<2000x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2000x3xf32>
  %3 = hlo.dynamic_update_slice %x, %u, [%j, %i] : (tensor<20x200xf32>, tensor<5x130xf32>, tensor<i32>, tensor<i32>) -> tensor<20x200xf32>
  %4 = hlo.dynamic_slice %2, [%i, %c0], sizes = [1, 3] : (tensor<2000x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
  return %0, %1, %2, %3, %4 : tensor<5x130xf32>, tensor<1x20x130xf32>, tensor<2000x3xf32>, tensor<20x200xf32>, tensor<1x3xf32>
}
