// Reduces the VPU kernel does not take, compiled through
// tpuc-expand-variadic-reduce, bit-exact against the interpreter:
// - a 3-input reduce over dims 0 and 2 of [5,7,33] (165 elements per
//   result: the max of round(4x) and its position as two iotas, ties to
//   the first position in row-major order over the reduced dims);
// - bf16 argmin over dim 0 of [1000,37] (bf16(y): ties), JAX's region;
// - single-input s32 reduces with bodies the kernel lacks: xor over dim 1
//   of [37,129], and the sum modulo 256 (add, then and with a rank-0
//   constant: associative) over all dims to a rank-0 result.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s -o %t/r.tpx
// RUN: tpuc-run %t/r.tpx --random-inputs=7 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 6 | FileCheck %s
// CHECK: result0: ok shape=[7] bit-exact
// CHECK: result1: ok shape=[7] bit-exact
// CHECK: result2: ok shape=[7] bit-exact
// CHECK: result3: ok shape=[37] bit-exact
// CHECK: result4: ok shape=[37] bit-exact
// CHECK: result5: ok shape=[] bit-exact

func.func @main(%x: tensor<5x7x33xf32>, %y: tensor<1000x37xf32>, %z: tensor<37x129xi32>)
    -> (tensor<7xf32>, tensor<7xi32>, tensor<7xi32>, tensor<37xi32>, tensor<37xi32>, tensor<i32>) {
  %four = hlo.constant dense<4.0> : tensor<5x7x33xf32>
  %x4 = hlo.multiply %x, %four : tensor<5x7x33xf32>
  %xr = hlo.round_nearest_even %x4 : tensor<5x7x33xf32>
  %i0 = hlo.iota dim = 0 : tensor<5x7x33xi32>
  %i2 = hlo.iota dim = 2 : tensor<5x7x33xi32>
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant dense<0> : tensor<i32>
  %m:3 = hlo.reduce(%xr, %i0, %i2) init(%ninf, %zero, %zero) dims = [2, 0] : (tensor<5x7x33xf32>, tensor<5x7x33xi32>, tensor<5x7x33xi32>, tensor<f32>, tensor<i32>, tensor<i32>) -> (tensor<7xf32>, tensor<7xi32>, tensor<7xi32>) {
  ^bb0(%a: tensor<f32>, %a0: tensor<i32>, %a2: tensor<i32>, %b: tensor<f32>, %b0: tensor<i32>, %b2: tensor<i32>):
    %gt = hlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %eq = hlo.compare EQ, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt0 = hlo.compare LT, %a0, %b0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %eq0 = hlo.compare EQ, %a0, %b0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %lt2 = hlo.compare LT, %a2, %b2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %same0 = hlo.and %eq0, %lt2 : tensor<i1>
    %first = hlo.or %lt0, %same0 : tensor<i1>
    %tie = hlo.and %eq, %first : tensor<i1>
    %pick = hlo.or %gt, %tie : tensor<i1>
    %v = hlo.select %pick, %a, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %j0 = hlo.select %pick, %a0, %b0 : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %j2 = hlo.select %pick, %a2, %b2 : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    hlo.return %v, %j0, %j2 : tensor<f32>, tensor<i32>, tensor<i32>
  }
  %yb = hlo.convert %y : (tensor<1000x37xf32>) -> tensor<1000x37xbf16>
  %iy = hlo.iota dim = 0 : tensor<1000x37xi32>
  %inf = hlo.constant dense<0x7F80> : tensor<bf16>
  %n:2 = hlo.reduce(%yb, %iy) init(%inf, %zero) dims = [0] : (tensor<1000x37xbf16>, tensor<1000x37xi32>, tensor<bf16>, tensor<i32>) -> (tensor<37xbf16>, tensor<37xi32>) {
  ^bb0(%a: tensor<bf16>, %ai: tensor<i32>, %b: tensor<bf16>, %bi: tensor<i32>):
    %0 = hlo.compare LT, %a, %b : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %1 = hlo.compare NE, %a, %a : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %2 = hlo.or %0, %1 : tensor<i1>
    %3 = hlo.compare EQ, %a, %b : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %4 = hlo.compare LT, %ai, %bi : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %5 = hlo.and %3, %4 : tensor<i1>
    %6 = hlo.or %2, %5 : tensor<i1>
    %7 = hlo.select %2, %a, %b : (tensor<i1>, tensor<bf16>, tensor<bf16>) -> tensor<bf16>
    %8 = hlo.select %6, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    hlo.return %7, %8 : tensor<bf16>, tensor<i32>
  }
  %x0 = hlo.reduce(%z) init(%zero) dims = [1] : (tensor<37x129xi32>, tensor<i32>) -> tensor<37xi32> {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %0 = hlo.xor %a, %b : tensor<i32>
    hlo.return %0 : tensor<i32>
  }
  %a0 = hlo.reduce(%z) init(%zero) dims = [0, 1] : (tensor<37x129xi32>, tensor<i32>) -> tensor<i32> {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %0 = hlo.add %a, %b : tensor<i32>
    %mask = hlo.constant dense<255> : tensor<i32>
    %1 = hlo.and %0, %mask : tensor<i32>
    hlo.return %1 : tensor<i32>
  }
  return %m#0, %m#1, %m#2, %n#1, %x0, %a0 : tensor<7xf32>, tensor<7xi32>, tensor<7xi32>, tensor<37xi32>, tensor<37xi32>, tensor<i32>
}
