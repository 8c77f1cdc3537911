// reduce_window over H and W of NHWC: resnet50's max pool (size 1x3x3x1,
// stride 1x2x2x1, no padding; ragged C = 64), a padded max pool (3x3,
// stride 2, padding 1 on each side: the padding is the init value) on
// f32[2,17,19,70], a SAME-padded 3x3 stride-1 sum with C = 130 (two lane
// tiles, the second ragged), and a 2x2 stride-2 bf16 sum (average-pool
// style). Every result is bit-exact: the kernel combines a window's elements
// in row-major order starting from the init value, and rounds a bf16 sum
// after each add, as the interpreter does (before session 17 it kept the
// bf16 sum in f32 and rounded once: 2^-7 apart).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/r.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/r.tpu.mlir -o %t/r.tpx
// RUN: tpuc-run %t/r.tpx --random-inputs=17 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=17 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 3 0 0.9999999 | FileCheck %s
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 4 0 0.9999999 | FileCheck %s --check-prefix=BF16
// CHECK: result0: ok shape=[1, 7, 7, 64]
// CHECK: result1: ok shape=[2, 9, 10, 70]
// CHECK: result2: ok shape=[1, 9, 12, 130]
// BF16: result3: ok shape=[2, 4, 5, 200]

func.func @pool(%x: tensor<1x15x15x64xf32>, %y: tensor<2x17x19x70xf32>, %z: tensor<1x9x12x130xf32>,
                %h: tensor<2x8x10x200xbf16>)
    -> (tensor<1x7x7x64xf32>, tensor<2x9x10x70xf32>, tensor<1x9x12x130xf32>, tensor<2x4x5x200xbf16>) {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %bzero = hlo.constant dense<0.0> : tensor<bf16>
  %a = hlo.reduce_window(%x) init(%ninf) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x15x15x64xf32>, tensor<f32>) -> tensor<1x7x7x64xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.maximum %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %b = hlo.reduce_window(%y) init(%ninf) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = array<i64: 0, 0, 1, 1, 1, 1, 0, 0>} : (tensor<2x17x19x70xf32>, tensor<f32>) -> tensor<2x9x10x70xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.maximum %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %c = hlo.reduce_window(%z) init(%zero) {window_dimensions = array<i64: 1, 3, 3, 1>, padding = array<i64: 0, 0, 1, 1, 1, 1, 0, 0>} : (tensor<1x9x12x130xf32>, tensor<f32>) -> tensor<1x9x12x130xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %d = hlo.reduce_window(%h) init(%bzero) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<2x8x10x200xbf16>, tensor<bf16>) -> tensor<2x4x5x200xbf16> {
  ^bb0(%p: tensor<bf16>, %q: tensor<bf16>):
    %0 = hlo.add %p, %q : tensor<bf16>
    hlo.return %0 : tensor<bf16>
  }
  return %a, %b, %c, %d : tensor<1x7x7x64xf32>, tensor<2x9x10x70xf32>, tensor<1x9x12x130xf32>, tensor<2x4x5x200xbf16>
}
