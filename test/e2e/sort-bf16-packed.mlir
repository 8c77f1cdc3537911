// A descending sort of bf16[20,300] alone with JAX's comparator (TOTALORDER
// GT of canonicalised floats), the packed path: (key, index) in one s32
// per element. The keys hold NaN (x > 0.8, first), -0.0 (x < -0.8) and
// 0.0 (0.6 < x <= 0.8), built by selects from random inputs: -0.0 and 0.0
// compare equal, so their bit patterns show the stable order. Bit-exact:
// the inputs' NaN is 0x7FC0, the NaN the kernel writes for every NaN key.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/sort.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/sort.tpu.mlir -o %t/sort.tpx
// RUN: tpuc-run %t/sort.tpx --random-inputs=11 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=11 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 1 | FileCheck %s
// CHECK: result0: ok shape=[20, 300] bit-exact

func.func @sort(%x: tensor<20x300xbf16>) -> tensor<20x300xbf16> {
  %nan = hlo.constant dense<0x7FC0> : tensor<20x300xbf16>
  %negzero = hlo.constant dense<-0.0> : tensor<20x300xbf16>
  %zero = hlo.constant dense<0.0> : tensor<20x300xbf16>
  %c08 = hlo.constant dense<0.8> : tensor<20x300xbf16>
  %c06 = hlo.constant dense<0.6> : tensor<20x300xbf16>
  %cm08 = hlo.constant dense<-0.8> : tensor<20x300xbf16>
  %p0 = hlo.compare GT, %x, %c06 : (tensor<20x300xbf16>, tensor<20x300xbf16>) -> tensor<20x300xi1>
  %y0 = hlo.select %p0, %zero, %x : (tensor<20x300xi1>, tensor<20x300xbf16>, tensor<20x300xbf16>) -> tensor<20x300xbf16>
  %p1 = hlo.compare GT, %x, %c08 : (tensor<20x300xbf16>, tensor<20x300xbf16>) -> tensor<20x300xi1>
  %y1 = hlo.select %p1, %nan, %y0 : (tensor<20x300xi1>, tensor<20x300xbf16>, tensor<20x300xbf16>) -> tensor<20x300xbf16>
  %p2 = hlo.compare LT, %x, %cm08 : (tensor<20x300xbf16>, tensor<20x300xbf16>) -> tensor<20x300xi1>
  %y2 = hlo.select %p2, %negzero, %y1 : (tensor<20x300xi1>, tensor<20x300xbf16>, tensor<20x300xbf16>) -> tensor<20x300xbf16>
  %0 = hlo.sort(%y2) dim = 1 {is_stable = true} : (tensor<20x300xbf16>) -> tensor<20x300xbf16> {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %n = hlo.constant dense<0x7FC0> : tensor<bf16>
    %z = hlo.constant dense<0.0> : tensor<bf16>
    %ane = hlo.compare NE, %a, %a : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %aeq = hlo.compare EQ, %a, %z : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %a0 = hlo.select %aeq, %z, %a : (tensor<i1>, tensor<bf16>, tensor<bf16>) -> tensor<bf16>
    %a1 = hlo.select %ane, %n, %a0 : (tensor<i1>, tensor<bf16>, tensor<bf16>) -> tensor<bf16>
    %bne = hlo.compare NE, %b, %b : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %beq = hlo.compare EQ, %b, %z : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %b0 = hlo.select %beq, %z, %b : (tensor<i1>, tensor<bf16>, tensor<bf16>) -> tensor<bf16>
    %b1 = hlo.select %bne, %n, %b0 : (tensor<i1>, tensor<bf16>, tensor<bf16>) -> tensor<bf16>
    %gt = hlo.compare GT, %a1, %b1, TOTALORDER : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    hlo.return %gt : tensor<i1>
  }
  return %0 : tensor<20x300xbf16>
}
