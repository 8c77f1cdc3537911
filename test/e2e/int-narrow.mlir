// s8/u8/s16/u16 compiled through tpuc-expand-narrow-ints (computed in s32,
// wrapped after each op) against the interpreter (native narrow types),
// bit for bit: every pair of 16 values around the 8- and 16-bit limits
// (Inputs/narrow_inputs.py), shifts by 0 to 17 and -1, float converts of
// fractions, out-of-range values, NaN and inf, an iota past 127 and an
// add-reduce that wraps. Entry parameters and results are s32/f32 (narrow
// entry types do not compile yet: int-narrow-errors.mlir).
// RUN: rm -rf %t && mkdir -p %t/in %t/got %t/want
// RUN: %python_numpy %S/Inputs/narrow_inputs.py %t/in
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --input=@%t/in/a.npy --input=@%t/in/b.npy --input=@%t/in/s.npy --input=@%t/in/f.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/in/a.npy --input=@%t/in/b.npy --input=@%t/in/s.npy --input=@%t/in/f.npy --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got %t/want 13 | FileCheck %s
// CHECK-COUNT-13: exact

func.func @main(%a32: tensor<16x16xi32>, %b32: tensor<16x16xi32>,
                %s32: tensor<16x16xi32>, %f: tensor<16x16xf32>)
    -> (tensor<16x16xi32>, tensor<16x16xi32>, tensor<16x16xi32>,
        tensor<16x16xi32>, tensor<16x16xi32>, tensor<16x16xi32>,
        tensor<16x16xf32>, tensor<16x16xi32>, tensor<2x300xi32>,
        tensor<16xi32>, tensor<16x16xui32>, tensor<16x16xi32>,
        tensor<16x16xi32>) {
  %a = hlo.convert %a32 : (tensor<16x16xi32>) -> tensor<16x16xi8>
  %b = hlo.convert %b32 : (tensor<16x16xi32>) -> tensor<16x16xi8>
  %s = hlo.convert %s32 : (tensor<16x16xi32>) -> tensor<16x16xi8>
  %ua = hlo.convert %a32 : (tensor<16x16xi32>) -> tensor<16x16xui8>
  %ub = hlo.convert %b32 : (tensor<16x16xi32>) -> tensor<16x16xui8>
  %us = hlo.convert %s32 : (tensor<16x16xi32>) -> tensor<16x16xui8>
  %ha = hlo.convert %a32 : (tensor<16x16xi32>) -> tensor<16x16xi16>
  %hb = hlo.convert %b32 : (tensor<16x16xi32>) -> tensor<16x16xi16>
  %wa = hlo.convert %a32 : (tensor<16x16xi32>) -> tensor<16x16xui16>
  %wb = hlo.convert %b32 : (tensor<16x16xi32>) -> tensor<16x16xui16>
  // s8 arithmetic, packed as four bytes of one s32 result each.
  %add = hlo.add %a, %b : tensor<16x16xi8>
  %sub = hlo.subtract %a, %b : tensor<16x16xi8>
  %mul = hlo.multiply %a, %b : tensor<16x16xi8>
  %neg = hlo.negate %a : tensor<16x16xi8>
  %abs = hlo.abs %a : tensor<16x16xi8>
  %div = hlo.divide %a, %b : tensor<16x16xi8>
  %rem = hlo.remainder %a, %b : tensor<16x16xi8>
  %shl = hlo.shift_left %a, %s : tensor<16x16xi8>
  %shrl = hlo.shift_right_logical %a, %s : tensor<16x16xi8>
  %shra = hlo.shift_right_arithmetic %a, %s : tensor<16x16xi8>
  %not = hlo.not %a : tensor<16x16xi8>
  %max = hlo.maximum %a, %b : tensor<16x16xi8>
  %r0 = hlo.convert %add : (tensor<16x16xi8>) -> tensor<16x16xi32>
  %r1 = hlo.convert %sub : (tensor<16x16xi8>) -> tensor<16x16xi32>
  %r2 = hlo.convert %mul : (tensor<16x16xi8>) -> tensor<16x16xi32>
  %r3n = hlo.convert %neg : (tensor<16x16xi8>) -> tensor<16x16xi32>
  %r3a = hlo.convert %abs : (tensor<16x16xi8>) -> tensor<16x16xi32>
  %k1000 = hlo.constant dense<1000> : tensor<16x16xi32>
  %r3m = hlo.multiply %r3n, %k1000 : tensor<16x16xi32>
  %r3 = hlo.add %r3m, %r3a : tensor<16x16xi32>
  %r4d = hlo.convert %div : (tensor<16x16xi8>) -> tensor<16x16xi32>
  %r4r = hlo.convert %rem : (tensor<16x16xi8>) -> tensor<16x16xi32>
  %r4m = hlo.multiply %r4d, %k1000 : tensor<16x16xi32>
  %r4 = hlo.add %r4m, %r4r : tensor<16x16xi32>
  %r5l = hlo.convert %shl : (tensor<16x16xi8>) -> tensor<16x16xi32>
  %r5r = hlo.convert %shrl : (tensor<16x16xi8>) -> tensor<16x16xi32>
  %r5a = hlo.convert %shra : (tensor<16x16xi8>) -> tensor<16x16xi32>
  %r5n = hlo.convert %not : (tensor<16x16xi8>) -> tensor<16x16xi32>
  %r5x = hlo.convert %max : (tensor<16x16xi8>) -> tensor<16x16xi32>
  %k256 = hlo.constant dense<256> : tensor<16x16xi32>
  %p1 = hlo.multiply %r5l, %k256 : tensor<16x16xi32>
  %p2 = hlo.add %p1, %r5r : tensor<16x16xi32>
  %p3 = hlo.multiply %p2, %k256 : tensor<16x16xi32>
  %p4 = hlo.add %p3, %r5a : tensor<16x16xi32>
  %p5 = hlo.multiply %p4, %k256 : tensor<16x16xi32>
  %r5 = hlo.add %p5, %r5n : tensor<16x16xi32>
  // f32 -> s8 (saturating) and s8 -> f32.
  %fs8 = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xi8>
  %fu8 = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xui8>
  %fs16 = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xi16>
  %r6a = hlo.convert %fs8 : (tensor<16x16xi8>) -> tensor<16x16xf32>
  %r6b = hlo.convert %fu8 : (tensor<16x16xui8>) -> tensor<16x16xf32>
  %r6c = hlo.convert %fs16 : (tensor<16x16xi16>) -> tensor<16x16xf32>
  %k1e3 = hlo.constant dense<1000.0> : tensor<16x16xf32>
  %k1e6 = hlo.constant dense<1000000.0> : tensor<16x16xf32>
  %r6m = hlo.multiply %r6a, %k1e6 : tensor<16x16xf32>
  %r6n = hlo.multiply %r6b, %k1e3 : tensor<16x16xf32>
  %r6o = hlo.add %r6m, %r6n : tensor<16x16xf32>
  %r6 = hlo.add %r6o, %r6c : tensor<16x16xf32>
  // u8: arithmetic, shifts, not, popcnt, clz; u16 and s16 multiply.
  %uadd = hlo.add %ua, %ub : tensor<16x16xui8>
  %umul = hlo.multiply %uadd, %ub : tensor<16x16xui8>
  %ushrl = hlo.shift_right_logical %ua, %us : tensor<16x16xui8>
  %ushra = hlo.shift_right_arithmetic %ua, %us : tensor<16x16xui8>
  %unot = hlo.not %ua : tensor<16x16xui8>
  %udiv = hlo.divide %ua, %ub : tensor<16x16xui8>
  %pop = hlo.popcnt %a : tensor<16x16xi8>
  %clz = hlo.count_leading_zeros %a : tensor<16x16xi8>
  %q0 = hlo.convert %umul : (tensor<16x16xui8>) -> tensor<16x16xi32>
  %q1 = hlo.convert %ushrl : (tensor<16x16xui8>) -> tensor<16x16xi32>
  %q2 = hlo.convert %ushra : (tensor<16x16xui8>) -> tensor<16x16xi32>
  %q3 = hlo.convert %unot : (tensor<16x16xui8>) -> tensor<16x16xi32>
  %q4 = hlo.convert %udiv : (tensor<16x16xui8>) -> tensor<16x16xi32>
  %q5 = hlo.convert %pop : (tensor<16x16xi8>) -> tensor<16x16xi32>
  %q6 = hlo.convert %clz : (tensor<16x16xi8>) -> tensor<16x16xi32>
  %u1 = hlo.multiply %q0, %k256 : tensor<16x16xi32>
  %u2 = hlo.add %u1, %q1 : tensor<16x16xi32>
  %u3 = hlo.multiply %u2, %k256 : tensor<16x16xi32>
  %u4 = hlo.add %u3, %q2 : tensor<16x16xi32>
  %u5 = hlo.multiply %u4, %k256 : tensor<16x16xi32>
  %r7 = hlo.add %u5, %q3 : tensor<16x16xi32>
  %k16 = hlo.constant dense<16> : tensor<16x16xi32>
  %v1 = hlo.multiply %q4, %k16 : tensor<16x16xi32>
  %v2 = hlo.add %v1, %q5 : tensor<16x16xi32>
  %v3 = hlo.multiply %v2, %k16 : tensor<16x16xi32>
  %r8x = hlo.add %v3, %q6 : tensor<16x16xi32>
  %hmul = hlo.multiply %ha, %hb : tensor<16x16xi16>
  %wmul = hlo.multiply %wa, %wb : tensor<16x16xui16>
  %hm = hlo.convert %hmul : (tensor<16x16xi16>) -> tensor<16x16xi32>
  %wm = hlo.convert %wmul : (tensor<16x16xui16>) -> tensor<16x16xi32>
  %k65536 = hlo.constant dense<65536> : tensor<16x16xi32>
  %hw0 = hlo.multiply %hm, %k65536 : tensor<16x16xi32>
  %hw = hlo.add %hw0, %wm : tensor<16x16xi32>
  // iota s8 past 127 and an s8 add-reduce that wraps.
  %io = hlo.iota dim = 1 : tensor<2x300xi8>
  %iop = hlo.constant dense<5> : tensor<2x300xi8>
  %io5 = hlo.add %io, %iop : tensor<2x300xi8>
  %r9 = hlo.convert %io5 : (tensor<2x300xi8>) -> tensor<2x300xi32>
  %z = hlo.constant dense<3> : tensor<i8>
  %red = hlo.reduce(%a) init(%z) dims = [1] : (tensor<16x16xi8>, tensor<i8>) -> tensor<16xi8> {
  ^bb0(%x: tensor<i8>, %y: tensor<i8>):
    %sum = hlo.add %x, %y : tensor<i8>
    hlo.return %sum : tensor<i8>
  }
  %r10 = hlo.convert %red : (tensor<16xi8>) -> tensor<16xi32>
  %r11 = hlo.convert %ua : (tensor<16x16xui8>) -> tensor<16x16xui32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r9, %r10, %r11, %hw, %r8x
      : tensor<16x16xi32>, tensor<16x16xi32>, tensor<16x16xi32>,
        tensor<16x16xi32>, tensor<16x16xi32>, tensor<16x16xi32>,
        tensor<16x16xf32>, tensor<16x16xi32>, tensor<2x300xi32>,
        tensor<16xi32>, tensor<16x16xui32>, tensor<16x16xi32>,
        tensor<16x16xi32>
}
