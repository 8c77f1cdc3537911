// Sorts by 32-bit integer keys in unsigned order: u32 keys (XLA's default
// compare of unsigned types is UNSIGNED) ascending and descending, u32 keys
// under a SIGNED compare (signed order), s32 keys under an UNSIGNED one,
// each carrying a u32 operand; rows of 16 values around the sign bit and
// the ends (Inputs/u32_inputs.py). The kernel flips the keys' sign bit
// (unsigned order is signed order with it flipped) and back. Exact match.
// RUN: rm -rf %t && mkdir -p %t/in %t/got %t/want
// RUN: %python_numpy %S/Inputs/u32_inputs.py %t/in
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --input=@%t/in/b.npy --input=@%t/in/s.npy --output-dir=%t/got --result-names=index
// RUN: tpuc interpret %s --input=@%t/in/b.npy --input=@%t/in/s.npy --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got %t/want 8 | FileCheck %s
// CHECK-COUNT-8: exact

func.func @main(%k: tensor<16x16xui32>, %v: tensor<16x16xui32>)
    -> (tensor<16x16xui32>, tensor<16x16xui32>, tensor<16x16xui32>,
        tensor<16x16xui32>, tensor<16x16xui32>, tensor<16x16xui32>,
        tensor<16x16xi32>, tensor<16x16xui32>) {
  %0:2 = hlo.sort(%k, %v) dim = 1 : (tensor<16x16xui32>, tensor<16x16xui32>) -> (tensor<16x16xui32>, tensor<16x16xui32>) {
  ^bb0(%a: tensor<ui32>, %b: tensor<ui32>, %c: tensor<ui32>, %d: tensor<ui32>):
    %lt = hlo.compare LT, %a, %b : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  }
  %1:2 = hlo.sort(%k, %v) dim = 1 : (tensor<16x16xui32>, tensor<16x16xui32>) -> (tensor<16x16xui32>, tensor<16x16xui32>) {
  ^bb0(%a: tensor<ui32>, %b: tensor<ui32>, %c: tensor<ui32>, %d: tensor<ui32>):
    %gt = hlo.compare GT, %a, %b, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    hlo.return %gt : tensor<i1>
  }
  %2:2 = hlo.sort(%k, %v) dim = 1 : (tensor<16x16xui32>, tensor<16x16xui32>) -> (tensor<16x16xui32>, tensor<16x16xui32>) {
  ^bb0(%a: tensor<ui32>, %b: tensor<ui32>, %c: tensor<ui32>, %d: tensor<ui32>):
    %lt = hlo.compare LT, %a, %b, SIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  }
  %ks = hlo.bitcast_convert %k : (tensor<16x16xui32>) -> tensor<16x16xi32>
  %3:2 = hlo.sort(%ks, %v) dim = 1 : (tensor<16x16xi32>, tensor<16x16xui32>) -> (tensor<16x16xi32>, tensor<16x16xui32>) {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<ui32>, %d: tensor<ui32>):
    %lt = hlo.compare LT, %a, %b, UNSIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  }
  return %0#0, %0#1, %1#0, %1#1, %2#0, %2#1, %3#0, %3#1
      : tensor<16x16xui32>, tensor<16x16xui32>, tensor<16x16xui32>,
        tensor<16x16xui32>, tensor<16x16xui32>, tensor<16x16xui32>,
        tensor<16x16xi32>, tensor<16x16xui32>
}
