// Reductions over all dims to a scalar (rank 0: element 0 of one padded
// tile): f32 sum of a rank-1 f32[3000] (ragged flat index masked), max of
// f32[3,17,300] (ragged rows and lanes), the product of s32[40] (no
// VREDUCE for products: lane and sublane broadcasts; s32 wraps like the
// interpreter), and the minimum of a bf16[5,9] (exact). Sums: each lane
// adds its elements in order, then the 128 lanes and 8 sublanes:
// tolerance 1e-5 of the result.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-decompose-reductions --tpuc-convert-hlo-to-tpu -o %t/r.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/r.tpu.mlir -o %t/r.tpx
// RUN: tpuc-run %t/r.tpx --random-inputs=13 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=13 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 4 1e-5 0.999999 | FileCheck %s
// CHECK: result0: ok shape=[]
// CHECK: result1: ok shape=[]
// CHECK: result2: ok shape=[]
// CHECK: result3: ok shape=[]

func.func @all(%x: tensor<3000xf32>, %y: tensor<3x17x300xf32>, %i: tensor<40xi32>, %h: tensor<5x9xbf16>)
    -> (tensor<f32>, tensor<f32>, tensor<i32>, tensor<bf16>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %binf = hlo.constant dense<0x7F80> : tensor<bf16>
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %one = hlo.constant dense<1> : tensor<i32>
  %a = hlo.reduce(%x) init(%zero) dims = [0] : (tensor<3000xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %b = hlo.reduce(%y) init(%ninf) dims = [0, 1, 2] : (tensor<3x17x300xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.maximum %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %c = hlo.reduce(%i) init(%one) dims = [0] : (tensor<40xi32>, tensor<i32>) -> tensor<i32> {
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %0 = hlo.multiply %p, %q : tensor<i32>
    hlo.return %0 : tensor<i32>
  }
  %d = hlo.reduce(%h) init(%binf) dims = [0, 1] : (tensor<5x9xbf16>, tensor<bf16>) -> tensor<bf16> {
  ^bb0(%p: tensor<bf16>, %q: tensor<bf16>):
    %0 = hlo.minimum %p, %q : tensor<bf16>
    hlo.return %0 : tensor<bf16>
  }
  return %a, %b, %c, %d : tensor<f32>, tensor<f32>, tensor<i32>, tensor<bf16>
}
