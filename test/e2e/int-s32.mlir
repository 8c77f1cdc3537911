// s32 elementwise on the VPU, s32[20,300] (ragged in both dims), against
// the interpreter. Random s32 inputs are in [-8, 7], so divisors of 0 and
// -1 occur: XLA's x / 0 = -1 and x % 0 = x must match. Integer results
// are exact: tolerance 0.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/s32.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/s32.tpu.mlir -o %t/s32.tpx
// RUN: tpuc-run %t/s32.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 6 0 | FileCheck %s
// CHECK: result0: ok shape=[20, 300] max_abs=0
// CHECK: result1: ok shape=[20, 300] max_abs=0
// CHECK: result2: ok shape=[20, 300] max_abs=0
// CHECK: result3: ok shape=[20, 300] max_abs=0
// CHECK: result4: ok shape=[20, 300] max_abs=0
// CHECK: result5: ok shape=[20, 300] max_abs=0

func.func @s32(%a: tensor<20x300xi32>, %b: tensor<20x300xi32>)
    -> (tensor<20x300xi32>, tensor<20x300xi32>, tensor<20x300xi32>,
        tensor<20x300xi32>, tensor<20x300xi32>, tensor<20x300xi32>) {
  %three = hlo.constant dense<3> : tensor<20x300xi32>
  %lo = hlo.constant dense<-2> : tensor<i32>
  %hi = hlo.constant dense<5> : tensor<i32>
  %add = hlo.add %a, %b : tensor<20x300xi32>
  %sub = hlo.subtract %a, %b : tensor<20x300xi32>
  %mul = hlo.multiply %add, %sub : tensor<20x300xi32>
  %mul3 = hlo.multiply %mul, %three : tensor<20x300xi32>
  %div = hlo.divide %a, %b : tensor<20x300xi32>
  %rem = hlo.remainder %a, %b : tensor<20x300xi32>
  %max = hlo.maximum %a, %b : tensor<20x300xi32>
  %min = hlo.minimum %a, %b : tensor<20x300xi32>
  %neg = hlo.negate %min : tensor<20x300xi32>
  %mm = hlo.subtract %max, %neg : tensor<20x300xi32>
  %abs = hlo.abs %a : tensor<20x300xi32>
  %sign = hlo.sign %b : tensor<20x300xi32>
  %as = hlo.multiply %abs, %sign : tensor<20x300xi32>
  %clamp = hlo.clamp %lo, %a, %hi : (tensor<i32>, tensor<20x300xi32>, tensor<i32>) -> tensor<20x300xi32>
  return %mul3, %div, %rem, %mm, %as, %clamp
      : tensor<20x300xi32>, tensor<20x300xi32>, tensor<20x300xi32>,
        tensor<20x300xi32>, tensor<20x300xi32>, tensor<20x300xi32>
}
