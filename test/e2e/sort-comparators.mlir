// Sort comparators other than one compare of a key's two elements: the
// kernel evaluates the comparator region on the registers, both ways round,
// and breaks its ties by the element index (stable).
// - %lex: JAX's two-key lexicographic form (num_keys=2: LT on the first key,
//   or EQ on it and GT on the second) over an f32 key with many ties
//   (floor(4x)) and an s32 key in [-8, 7], carrying an f32 operand;
// - %perm: XLA's permutation sort (the comparator masks the keys' low bits)
//   along dim 0, through tpuc-sort-along-minor;
// - %raw: a TOTALORDER compare of raw floats (-0.0 before 0.0, -NaN first,
//   NaN last) on keys built to hold all four, carrying the index;
// - %mag: bf16 keys ordered by magnitude (abs in the comparator);
// - %flag: pred keys (false before true), carrying an f32 operand.
// Bit-exact against the interpreter (a stable sort of each row).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-sort-along-minor --tpuc-convert-hlo-to-tpu -o %t/sort.tpu.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/sort.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/sort.tpu.mlir -o %t/sort.tpx
// RUN: tpuc-run %t/sort.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 10 | FileCheck %s
// CHECK: result0: ok shape=[16, 300] bit-exact
// CHECK: result1: ok shape=[16, 300] bit-exact
// CHECK: result2: ok shape=[16, 300] bit-exact
// CHECK: result3: ok shape=[40, 64] bit-exact
// CHECK: result4: ok shape=[12, 200] bit-exact
// CHECK: result5: ok shape=[12, 200] bit-exact
// CHECK: result6: ok shape=[8, 200] bit-exact
// CHECK: result7: ok shape=[8, 200] bit-exact
// CHECK: result8: ok shape=[8, 130] bit-exact
// CHECK: result9: ok shape=[8, 130] bit-exact
// The regions' ops on the registers: the lexicographic comparator's floor
// key compared both ways (FLOAT lt and eq), the mask, the total-order key.
// TPU-DAG: tpu.vand
// TPU-DAG: tpu.vshra
// TPU-DAG: tpu.vabs

func.func @main(%x: tensor<16x300xf32>, %k2: tensor<16x300xi32>,
                %y: tensor<16x300xf32>, %p: tensor<40x64xi32>,
                %r: tensor<12x200xf32>, %ri: tensor<12x200xi32>,
                %m: tensor<8x200xbf16>, %mi: tensor<8x200xi32>,
                %fx: tensor<8x130xf32>)
    -> (tensor<16x300xf32>, tensor<16x300xi32>, tensor<16x300xf32>,
        tensor<40x64xi32>, tensor<12x200xf32>, tensor<12x200xi32>,
        tensor<8x200xbf16>, tensor<8x200xi32>, tensor<8x130xi1>,
        tensor<8x130xf32>) {
  %c4 = hlo.constant dense<4.0> : tensor<16x300xf32>
  %x4 = hlo.multiply %x, %c4 : tensor<16x300xf32>
  %k1 = hlo.floor %x4 : tensor<16x300xf32>
  %lex:3 = hlo.sort(%k1, %k2, %y) dim = 1 {is_stable = true} : (tensor<16x300xf32>, tensor<16x300xi32>, tensor<16x300xf32>) -> (tensor<16x300xf32>, tensor<16x300xi32>, tensor<16x300xf32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>, %e: tensor<f32>, %f: tensor<f32>):
    %lt = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %eq = hlo.compare EQ, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %gt = hlo.compare GT, %c, %d : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %and = hlo.and %eq, %gt : tensor<i1>
    %or = hlo.or %lt, %and : tensor<i1>
    hlo.return %or : tensor<i1>
  }

  %perm = hlo.sort(%p) dim = 0 {is_stable = true} : (tensor<40x64xi32>) -> tensor<40x64xi32> {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %mask = hlo.constant dense<3> : tensor<i32>
    %am = hlo.and %a, %mask : tensor<i32>
    %bm = hlo.and %b, %mask : tensor<i32>
    %lt = hlo.compare LT, %am, %bm : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  }

  // r > 0.5: NaN, r < -0.5: -NaN, 0.25 < r <= 0.5: 0.0, -0.5 <= r < -0.25: -0.0.
  %nan = hlo.constant dense<0x7FC00000> : tensor<12x200xf32>
  %negnan = hlo.constant dense<0xFFC00000> : tensor<12x200xf32>
  %zero = hlo.constant dense<0.0> : tensor<12x200xf32>
  %negzero = hlo.constant dense<-0.0> : tensor<12x200xf32>
  %c05 = hlo.constant dense<0.5> : tensor<12x200xf32>
  %cm05 = hlo.constant dense<-0.5> : tensor<12x200xf32>
  %c025 = hlo.constant dense<0.25> : tensor<12x200xf32>
  %cm025 = hlo.constant dense<-0.25> : tensor<12x200xf32>
  %q0 = hlo.compare GT, %r, %c025 : (tensor<12x200xf32>, tensor<12x200xf32>) -> tensor<12x200xi1>
  %s0 = hlo.select %q0, %zero, %r : (tensor<12x200xi1>, tensor<12x200xf32>, tensor<12x200xf32>) -> tensor<12x200xf32>
  %q1 = hlo.compare LT, %r, %cm025 : (tensor<12x200xf32>, tensor<12x200xf32>) -> tensor<12x200xi1>
  %s1 = hlo.select %q1, %negzero, %s0 : (tensor<12x200xi1>, tensor<12x200xf32>, tensor<12x200xf32>) -> tensor<12x200xf32>
  %q2 = hlo.compare GT, %r, %c05 : (tensor<12x200xf32>, tensor<12x200xf32>) -> tensor<12x200xi1>
  %s2 = hlo.select %q2, %nan, %s1 : (tensor<12x200xi1>, tensor<12x200xf32>, tensor<12x200xf32>) -> tensor<12x200xf32>
  %q3 = hlo.compare LT, %r, %cm05 : (tensor<12x200xf32>, tensor<12x200xf32>) -> tensor<12x200xi1>
  %s3 = hlo.select %q3, %negnan, %s2 : (tensor<12x200xi1>, tensor<12x200xf32>, tensor<12x200xf32>) -> tensor<12x200xf32>
  %raw:2 = hlo.sort(%s3, %ri) dim = 1 : (tensor<12x200xf32>, tensor<12x200xi32>) -> (tensor<12x200xf32>, tensor<12x200xi32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = hlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  }

  %mag:2 = hlo.sort(%m, %mi) dim = 1 {is_stable = true} : (tensor<8x200xbf16>, tensor<8x200xi32>) -> (tensor<8x200xbf16>, tensor<8x200xi32>) {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>, %c: tensor<i32>, %d: tensor<i32>):
    %aa = hlo.abs %a : tensor<bf16>
    %ba = hlo.abs %b : tensor<bf16>
    %lt = hlo.compare LT, %aa, %ba : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  }

  %czero = hlo.constant dense<0.0> : tensor<8x130xf32>
  %pk = hlo.compare GT, %fx, %czero : (tensor<8x130xf32>, tensor<8x130xf32>) -> tensor<8x130xi1>
  %flag:2 = hlo.sort(%pk, %fx) dim = 1 {is_stable = true} : (tensor<8x130xi1>, tensor<8x130xf32>) -> (tensor<8x130xi1>, tensor<8x130xf32>) {
  ^bb0(%a: tensor<i1>, %b: tensor<i1>, %c: tensor<f32>, %d: tensor<f32>):
    %lt = hlo.compare LT, %a, %b : (tensor<i1>, tensor<i1>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  }
  return %lex#0, %lex#1, %lex#2, %perm, %raw#0, %raw#1, %mag#0, %mag#1,
         %flag#0, %flag#1
      : tensor<16x300xf32>, tensor<16x300xi32>, tensor<16x300xf32>,
        tensor<40x64xi32>, tensor<12x200xf32>, tensor<12x200xi32>,
        tensor<8x200xbf16>, tensor<8x200xi32>, tensor<8x130xi1>,
        tensor<8x130xf32>
}
