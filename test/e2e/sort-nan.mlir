// JAX's sort comparator (TOTALORDER LT of canonicalised floats) on
// f32[12,200] keys holding NaN (x > 0.8), -0.0 (x < -0.8) and 0.0
// (0.6 < x <= 0.8), built by selects from random inputs, carrying an s32
// operand: NaNs go last, -0.0 and 0.0 are equal, and all three keep their
// order (stable), which the carried operand shows. Bit-exact: the inputs'
// NaN is 0x7FC00000, the NaN the kernel writes for every NaN key.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/sort.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/sort.tpu.mlir -o %t/sort.tpx
// RUN: tpuc-run %t/sort.tpx --random-inputs=11 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=11 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 2 | FileCheck %s
// CHECK: result0: ok shape=[12, 200] bit-exact
// CHECK: result1: ok shape=[12, 200] bit-exact

func.func @sort(%x: tensor<12x200xf32>, %i: tensor<12x200xi32>) -> (tensor<12x200xf32>, tensor<12x200xi32>) {
  %nan = hlo.constant dense<0x7FC00000> : tensor<12x200xf32>
  %negzero = hlo.constant dense<-0.0> : tensor<12x200xf32>
  %zero = hlo.constant dense<0.0> : tensor<12x200xf32>
  %c08 = hlo.constant dense<0.8> : tensor<12x200xf32>
  %c06 = hlo.constant dense<0.6> : tensor<12x200xf32>
  %cm08 = hlo.constant dense<-0.8> : tensor<12x200xf32>
  %p0 = hlo.compare GT, %x, %c06 : (tensor<12x200xf32>, tensor<12x200xf32>) -> tensor<12x200xi1>
  %y0 = hlo.select %p0, %zero, %x : (tensor<12x200xi1>, tensor<12x200xf32>, tensor<12x200xf32>) -> tensor<12x200xf32>
  %p1 = hlo.compare GT, %x, %c08 : (tensor<12x200xf32>, tensor<12x200xf32>) -> tensor<12x200xi1>
  %y1 = hlo.select %p1, %nan, %y0 : (tensor<12x200xi1>, tensor<12x200xf32>, tensor<12x200xf32>) -> tensor<12x200xf32>
  %p2 = hlo.compare LT, %x, %cm08 : (tensor<12x200xf32>, tensor<12x200xf32>) -> tensor<12x200xi1>
  %y2 = hlo.select %p2, %negzero, %y1 : (tensor<12x200xi1>, tensor<12x200xf32>, tensor<12x200xf32>) -> tensor<12x200xf32>
  %0:2 = hlo.sort(%y2, %i) dim = 1 {is_stable = true} : (tensor<12x200xf32>, tensor<12x200xi32>) -> (tensor<12x200xf32>, tensor<12x200xi32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %n = hlo.constant dense<0x7FC00000> : tensor<f32>
    %z = hlo.constant dense<0.0> : tensor<f32>
    %ane = hlo.compare NE, %a, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %aeq = hlo.compare EQ, %a, %z : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %a0 = hlo.select %aeq, %z, %a : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %a1 = hlo.select %ane, %n, %a0 : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %bne = hlo.compare NE, %b, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %beq = hlo.compare EQ, %b, %z : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %b0 = hlo.select %beq, %z, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %b1 = hlo.select %bne, %n, %b0 : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %lt = hlo.compare LT, %a1, %b1, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  }
  return %0#0, %0#1 : tensor<12x200xf32>, tensor<12x200xi32>
}
