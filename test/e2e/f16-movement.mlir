// f16 data movement and control flow through tpuc-expand-narrow-floats, bit for bit
// against the interpreter on tpu-v3 and tpu-v6e: f16 entry parameters
// (random f16 inputs on both sides), a sort by f16 keys, a while loop whose
// tuple state holds an f16 array (multiplied by an f16 constant, rounded
// each trip), concatenate, dynamic_slice, reverse, transpose and a strided
// slice of f16 arrays.
// RUN: rm -rf %t && mkdir -p %t/got %t/got6 %t/want
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc compile %s --target=tpu-v6e -o %t/t6.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=3 --output-dir=%t/got --result-names=index
// RUN: tpuc-run %t/t6.tpx --random-inputs=3 --output-dir=%t/got6 --result-names=index
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got %t/want 7 | FileCheck %s
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got6 %t/want 7 | FileCheck %s
// CHECK-COUNT-7: exact

!st = tuple<tensor<16x128xf16>, tensor<i32>>
func.func @main(%a: tensor<16x128xf16>, %i: tensor<i32>)
    -> (tensor<16x128xf16>, tensor<16x128xf16>, tensor<32x128xf16>,
        tensor<8x128xf16>, tensor<16x128xf16>, tensor<128x16xf16>,
        tensor<16x64xf16>) {
  %z = hlo.constant dense<0> : tensor<i32>
  %s = hlo.sort(%a) dim = 1 : (tensor<16x128xf16>) -> tensor<16x128xf16> {
  ^bb0(%p: tensor<f16>, %q: tensor<f16>):
    %c = hlo.compare LT, %p, %q : (tensor<f16>, tensor<f16>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }
  %k = hlo.constant dense<1.5> : tensor<16x128xf16>
  %init = hlo.tuple %a, %z : (tensor<16x128xf16>, tensor<i32>) -> !st
  %w = hlo.while(%init) : !st cond {
  ^bb0(%st: !st):
    %n = hlo.get_tuple_element %st[1] : (!st) -> tensor<i32>
    %lim = hlo.constant dense<3> : tensor<i32>
    %c = hlo.compare LT, %n, %lim : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } do {
  ^bb0(%st: !st):
    %x = hlo.get_tuple_element %st[0] : (!st) -> tensor<16x128xf16>
    %n = hlo.get_tuple_element %st[1] : (!st) -> tensor<i32>
    %y = hlo.multiply %x, %k : tensor<16x128xf16>
    %one = hlo.constant dense<1> : tensor<i32>
    %m = hlo.add %n, %one : tensor<i32>
    %r = hlo.tuple %y, %m : (tensor<16x128xf16>, tensor<i32>) -> !st
    hlo.return %r : !st
  }
  %w0 = hlo.get_tuple_element %w[0] : (!st) -> tensor<16x128xf16>
  %cat = hlo.concatenate(%a, %s) dim = 0 : (tensor<16x128xf16>, tensor<16x128xf16>) -> tensor<32x128xf16>
  %ds = hlo.dynamic_slice %a, [%i, %z], sizes = [8, 128] : (tensor<16x128xf16>, tensor<i32>, tensor<i32>) -> tensor<8x128xf16>
  %rev = hlo.reverse %a, dims = [1] : tensor<16x128xf16>
  %t = hlo.transpose %a, dims = [1, 0] : (tensor<16x128xf16>) -> tensor<128x16xf16>
  %sl = hlo.slice %a [0:16:1, 0:128:2] : (tensor<16x128xf16>) -> tensor<16x64xf16>
  return %s, %w0, %cat, %ds, %rev, %t, %sl : tensor<16x128xf16>, tensor<16x128xf16>, tensor<32x128xf16>,
        tensor<8x128xf16>, tensor<16x128xf16>, tensor<128x16xf16>, tensor<16x64xf16>
}
