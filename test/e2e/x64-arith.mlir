// s64/u64 arithmetic compiled through tpuc-expand-x64 (32-bit words) against
// the interpreter (native 64 bits), bit for bit: every pair of 16 values
// that exercise carries, borrows and the sign bit (Inputs/x64_inputs.py),
// shifts by 0/1/31/32/33/63/64/65/100/-1/2^32.., the float converts on NaN,
// +-inf, +-2^63, 2^64 and fractions, the reductions, and divide/remainder
// (by 0, INT64_MIN / -1, signed and unsigned: a 64-trip while loop).
// RUN: rm -rf %t && mkdir -p %t/in %t/got %t/want
// RUN: %python_numpy %S/Inputs/x64_inputs.py %t/in
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --input=@%t/in/a.npy --input=@%t/in/b.npy --input=@%t/in/s.npy --input=@%t/in/f.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/in/a.npy --input=@%t/in/b.npy --input=@%t/in/s.npy --input=@%t/in/f.npy --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got %t/want 34 | FileCheck %s
// CHECK-COUNT-34: exact
// The executable takes and returns s64 as its s32 words, planar [2, ..].
// RUN: tpuc compile %s --emit=fused -o - | FileCheck %s --check-prefix=SIG
// SIG: func.func @main(%{{.+}}: tensor<2x16x16xi32>{{.*}}, %{{.+}}: tensor<2x16x16xi32>{{.*}}, %{{.+}}: tensor<2x16x16xi32>{{.*}}, %{{.+}}: tensor<16x16xf32>

func.func @main(%a: tensor<16x16xi64>, %b: tensor<16x16xi64>,
                %s: tensor<16x16xi64>, %f: tensor<16x16xf32>)
    -> (tensor<16x16xi64>, tensor<16x16xi64>, tensor<16x16xi64>,
        tensor<16x16xi64>, tensor<16x16xi64>, tensor<16x16xi64>,
        tensor<16x16xi64>, tensor<16x16xi64>, tensor<16x16xi64>,
        tensor<16x16xi64>, tensor<16x16xui64>, tensor<16x16xi64>,
        tensor<16x16xi64>, tensor<16x16xi64>, tensor<16x16xi32>,
        tensor<16x16xi32>, tensor<16x16xi64>, tensor<16x16xf32>,
        tensor<16x16xf32>, tensor<16x16xi64>, tensor<16x16xui64>,
        tensor<16x16xi32>, tensor<16x16xi64>, tensor<16x16xbf16>,
        tensor<16xi64>, tensor<16xi64>, tensor<16xui64>, tensor<16xi64>,
        tensor<16x16xi64>, tensor<16x16xi64>, tensor<16x16xi64>,
        tensor<16x16xi64>, tensor<16x16xui64>, tensor<16x16xui64>) {
  %add = hlo.add %a, %b : tensor<16x16xi64>
  %sub = hlo.subtract %a, %b : tensor<16x16xi64>
  %mul = hlo.multiply %a, %b : tensor<16x16xi64>
  %neg = hlo.negate %a : tensor<16x16xi64>
  %abs = hlo.abs %b : tensor<16x16xi64>
  %and = hlo.and %a, %b : tensor<16x16xi64>
  %or = hlo.or %a, %b : tensor<16x16xi64>
  %xor = hlo.xor %a, %b : tensor<16x16xi64>
  %not = hlo.not %a : tensor<16x16xi64>
  %max = hlo.maximum %a, %b : tensor<16x16xi64>
  %ua = hlo.convert %a : (tensor<16x16xi64>) -> tensor<16x16xui64>
  %ub = hlo.convert %b : (tensor<16x16xi64>) -> tensor<16x16xui64>
  %umin = hlo.minimum %ua, %ub : tensor<16x16xui64>
  %shl = hlo.shift_left %a, %s : tensor<16x16xi64>
  %shrl = hlo.shift_right_logical %a, %s : tensor<16x16xi64>
  %shra = hlo.shift_right_arithmetic %a, %s : tensor<16x16xi64>
  // Six compares as the bits of one s32 (signed) and of another (unsigned).
  %lt = hlo.compare LT, %a, %b : (tensor<16x16xi64>, tensor<16x16xi64>) -> tensor<16x16xi1>
  %le = hlo.compare LE, %a, %b : (tensor<16x16xi64>, tensor<16x16xi64>) -> tensor<16x16xi1>
  %gt = hlo.compare GT, %a, %b : (tensor<16x16xi64>, tensor<16x16xi64>) -> tensor<16x16xi1>
  %ge = hlo.compare GE, %a, %b : (tensor<16x16xi64>, tensor<16x16xi64>) -> tensor<16x16xi1>
  %eq = hlo.compare EQ, %a, %b : (tensor<16x16xi64>, tensor<16x16xi64>) -> tensor<16x16xi1>
  %ne = hlo.compare NE, %a, %b : (tensor<16x16xi64>, tensor<16x16xi64>) -> tensor<16x16xi1>
  %ult = hlo.compare LT, %ua, %ub : (tensor<16x16xui64>, tensor<16x16xui64>) -> tensor<16x16xi1>
  %ule = hlo.compare LE, %ua, %ub : (tensor<16x16xui64>, tensor<16x16xui64>) -> tensor<16x16xi1>
  %ugt = hlo.compare GT, %ua, %ub : (tensor<16x16xui64>, tensor<16x16xui64>) -> tensor<16x16xi1>
  %uge = hlo.compare GE, %ua, %ub : (tensor<16x16xui64>, tensor<16x16xui64>) -> tensor<16x16xi1>
  %slt = hlo.compare LT, %ua, %ub, SIGNED : (tensor<16x16xui64>, tensor<16x16xui64>) -> tensor<16x16xi1>
  %one = hlo.constant dense<1> : tensor<16x16xi32>
  %c1 = hlo.constant dense<1> : tensor<16x16xi32>
  %c2 = hlo.constant dense<2> : tensor<16x16xi32>
  %c3 = hlo.constant dense<3> : tensor<16x16xi32>
  %c4 = hlo.constant dense<4> : tensor<16x16xi32>
  %c5 = hlo.constant dense<5> : tensor<16x16xi32>
  %lt32 = hlo.convert %lt : (tensor<16x16xi1>) -> tensor<16x16xi32>
  %le32 = hlo.convert %le : (tensor<16x16xi1>) -> tensor<16x16xi32>
  %gt32 = hlo.convert %gt : (tensor<16x16xi1>) -> tensor<16x16xi32>
  %ge32 = hlo.convert %ge : (tensor<16x16xi1>) -> tensor<16x16xi32>
  %eq32 = hlo.convert %eq : (tensor<16x16xi1>) -> tensor<16x16xi32>
  %ne32 = hlo.convert %ne : (tensor<16x16xi1>) -> tensor<16x16xi32>
  %le1 = hlo.shift_left %le32, %c1 : tensor<16x16xi32>
  %gt1 = hlo.shift_left %gt32, %c2 : tensor<16x16xi32>
  %ge1 = hlo.shift_left %ge32, %c3 : tensor<16x16xi32>
  %eq1 = hlo.shift_left %eq32, %c4 : tensor<16x16xi32>
  %ne1 = hlo.shift_left %ne32, %c5 : tensor<16x16xi32>
  %s0 = hlo.or %lt32, %le1 : tensor<16x16xi32>
  %s1 = hlo.or %s0, %gt1 : tensor<16x16xi32>
  %s2 = hlo.or %s1, %ge1 : tensor<16x16xi32>
  %s3 = hlo.or %s2, %eq1 : tensor<16x16xi32>
  %scmp = hlo.or %s3, %ne1 : tensor<16x16xi32>
  %ult32 = hlo.convert %ult : (tensor<16x16xi1>) -> tensor<16x16xi32>
  %ule32 = hlo.convert %ule : (tensor<16x16xi1>) -> tensor<16x16xi32>
  %ugt32 = hlo.convert %ugt : (tensor<16x16xi1>) -> tensor<16x16xi32>
  %uge32 = hlo.convert %uge : (tensor<16x16xi1>) -> tensor<16x16xi32>
  %slt32 = hlo.convert %slt : (tensor<16x16xi1>) -> tensor<16x16xi32>
  %ule1 = hlo.shift_left %ule32, %c1 : tensor<16x16xi32>
  %ugt1 = hlo.shift_left %ugt32, %c2 : tensor<16x16xi32>
  %uge1 = hlo.shift_left %uge32, %c3 : tensor<16x16xi32>
  %slt1 = hlo.shift_left %slt32, %c4 : tensor<16x16xi32>
  %u0 = hlo.or %ult32, %ule1 : tensor<16x16xi32>
  %u1 = hlo.or %u0, %ugt1 : tensor<16x16xi32>
  %u2 = hlo.or %u1, %uge1 : tensor<16x16xi32>
  %ucmp = hlo.or %u2, %slt1 : tensor<16x16xi32>
  %sel = hlo.select %lt, %b, %a : (tensor<16x16xi1>, tensor<16x16xi64>, tensor<16x16xi64>) -> tensor<16x16xi64>
  %af = hlo.convert %a : (tensor<16x16xi64>) -> tensor<16x16xf32>
  %uaf = hlo.convert %ua : (tensor<16x16xui64>) -> tensor<16x16xf32>
  %fs = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xi64>
  %fu = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xui64>
  %a32 = hlo.convert %a : (tensor<16x16xi64>) -> tensor<16x16xi32>
  %a32w = hlo.convert %a32 : (tensor<16x16xi32>) -> tensor<16x16xi64>
  %abf = hlo.convert %b : (tensor<16x16xi64>) -> tensor<16x16xbf16>
  %zero = hlo.constant dense<0> : tensor<i64>
  %min64 = hlo.constant dense<-9223372036854775808> : tensor<i64>
  %umax64 = hlo.constant dense<18446744073709551615> : tensor<ui64>
  %radd = hlo.reduce(%a) init(%zero) dims = [1] : (tensor<16x16xi64>, tensor<i64>) -> tensor<16xi64> {
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    %r = hlo.add %x, %y : tensor<i64>
    hlo.return %r : tensor<i64>
  }
  %rmax = hlo.reduce(%b) init(%min64) dims = [0] : (tensor<16x16xi64>, tensor<i64>) -> tensor<16xi64> {
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    %r = hlo.maximum %x, %y : tensor<i64>
    hlo.return %r : tensor<i64>
  }
  %rumin = hlo.reduce(%ub) init(%umax64) dims = [0] : (tensor<16x16xui64>, tensor<ui64>) -> tensor<16xui64> {
  ^bb0(%x: tensor<ui64>, %y: tensor<ui64>):
    %r = hlo.minimum %x, %y : tensor<ui64>
    hlo.return %r : tensor<ui64>
  }
  %rsum = hlo.reduce(%mul) init(%zero) dims = [1] : (tensor<16x16xi64>, tensor<i64>) -> tensor<16xi64> {
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    %r = hlo.add %y, %x : tensor<i64>
    hlo.return %r : tensor<i64>
  }
  %lo = hlo.constant dense<-4294967296> : tensor<i64>
  %hi = hlo.constant dense<4294967296> : tensor<i64>
  %clamp = hlo.clamp %lo, %a, %hi : (tensor<i64>, tensor<16x16xi64>, tensor<i64>) -> tensor<16x16xi64>
  %iota = hlo.iota dim = 1 : tensor<16x16xi64>
  %big = hlo.constant dense<4294967290> : tensor<16x16xi64>
  %iadd = hlo.add %iota, %big : tensor<16x16xi64>
  %div = hlo.divide %a, %b : tensor<16x16xi64>
  %rem = hlo.remainder %a, %b : tensor<16x16xi64>
  %udiv = hlo.divide %ua, %ub : tensor<16x16xui64>
  %urem = hlo.remainder %ua, %ub : tensor<16x16xui64>
  return %add, %sub, %mul, %neg, %abs, %and, %or, %xor, %not, %max, %umin,
         %shl, %shrl, %shra, %scmp, %ucmp, %sel, %af, %uaf, %fs, %fu, %a32,
         %a32w, %abf, %radd, %rmax, %rumin, %rsum, %clamp, %iadd, %div, %rem,
         %udiv, %urem
      : tensor<16x16xi64>, tensor<16x16xi64>, tensor<16x16xi64>,
        tensor<16x16xi64>, tensor<16x16xi64>, tensor<16x16xi64>,
        tensor<16x16xi64>, tensor<16x16xi64>, tensor<16x16xi64>,
        tensor<16x16xi64>, tensor<16x16xui64>, tensor<16x16xi64>,
        tensor<16x16xi64>, tensor<16x16xi64>, tensor<16x16xi32>,
        tensor<16x16xi32>, tensor<16x16xi64>, tensor<16x16xf32>,
        tensor<16x16xf32>, tensor<16x16xi64>, tensor<16x16xui64>,
        tensor<16x16xi32>, tensor<16x16xi64>, tensor<16x16xbf16>,
        tensor<16xi64>, tensor<16xi64>, tensor<16xui64>, tensor<16xi64>,
        tensor<16x16xi64>, tensor<16x16xi64>, tensor<16x16xi64>,
        tensor<16x16xi64>, tensor<16x16xui64>, tensor<16x16xui64>
}
