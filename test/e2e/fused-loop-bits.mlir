// The bit, shift and rounding ops in one fused loop kernel
// (passes/HloToTpu/FusedKernel.cpp takes every op fitsLoopKernel accepts):
// an s32 chain of shifts, and/or/xor/not, popcnt, clz and mulhi, and an
// f32 chain of floor, round, remainder, reduce-precision, a TOTALORDER
// compare and bitcasts, each one pass over the (8,128) tiles of a ragged
// 20x300 array. Bit-exact against the interpreter, NaN payloads included
// (the bitcasts make NaNs with payloads; maximum keeps the NaN operand).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/f.tpu.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/f.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/f.tpu.mlir -o %t/f.tpx
// RUN: tpuc-run %t/f.tpx --random-inputs=9 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=9 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 2 | FileCheck %s
// CHECK-COUNT-2: ok
// CHECK-NOT: MISMATCH
// Two loops over the 3 tile rows, each row's 3 tiles unrolled: per tile
// one vload per input and one vstore per output.
// IR: tpu.loop
// IR-COUNT-2: tpu.vload
// IR-NOT: tpu.vload
// IR: tpu.vstore
// IR-NOT: tpu.vstore
// IR-COUNT-2: tpu.vload
// IR-NOT: tpu.vload
// IR: tpu.vstore
// IR-NOT: tpu.vstore
// IR-COUNT-2: tpu.vload
// IR-NOT: tpu.vload
// IR: tpu.vstore
// IR-NOT: tpu.vstore
// IR: tpu.loop
// IR: tpu.vload
// IR-NOT: tpu.vload
// IR: tpu.vstore
// IR-NOT: tpu.vstore
// IR: tpu.vload
// IR-NOT: tpu.vload
// IR: tpu.vstore
// IR-NOT: tpu.vstore
// IR: tpu.vload
// IR-NOT: tpu.vload
// IR: tpu.vstore
// IR-NOT: tpu.vstore
// IR: return

func.func @main(%i: tensor<20x300xi32>, %j: tensor<20x300xi32>, %x: tensor<20x300xf32>)
    -> (tensor<20x300xi32>, tensor<20x300xf32>) {
  %r0 = hlo.fusion loop(%i, %j) : (tensor<20x300xi32>, tensor<20x300xi32>) -> tensor<20x300xi32> {
  ^bb0(%a: tensor<20x300xi32>, %b: tensor<20x300xi32>):
    %k = hlo.constant dense<-1640531535> : tensor<20x300xi32>
    %s = hlo.constant dense<5> : tensor<20x300xi32>
    %0 = hlo.multiply %a, %k : tensor<20x300xi32>
    %1 = hlo.shift_left %0, %b : tensor<20x300xi32>
    %2 = hlo.shift_right_logical %0, %s : tensor<20x300xi32>
    %3 = hlo.shift_right_arithmetic %0, %b : tensor<20x300xi32>
    %4 = hlo.xor %1, %2 : tensor<20x300xi32>
    %5 = hlo.and %4, %3 : tensor<20x300xi32>
    %6 = hlo.not %5 : tensor<20x300xi32>
    %7 = hlo.or %6, %b : tensor<20x300xi32>
    %8 = hlo.popcnt %7 : tensor<20x300xi32>
    %9 = hlo.count_leading_zeros %4 : tensor<20x300xi32>
    %10 = hlo.mulhi %0, %7 : tensor<20x300xi32>
    %11 = hlo.add %8, %9 : tensor<20x300xi32>
    %12 = hlo.xor %11, %10 : tensor<20x300xi32>
    hlo.return %12 : tensor<20x300xi32>
  }
  %r1 = hlo.fusion loop(%x) : (tensor<20x300xf32>) -> tensor<20x300xf32> {
  ^bb0(%a: tensor<20x300xf32>):
    %seven = hlo.constant dense<7.0> : tensor<20x300xf32>
    %third = hlo.constant dense<0.3> : tensor<20x300xf32>
    %0 = hlo.multiply %a, %seven : tensor<20x300xf32>
    %1 = hlo.floor %0 : tensor<20x300xf32>
    %2 = hlo.round_nearest_even %0 : tensor<20x300xf32>
    %3 = hlo.remainder %0, %third : tensor<20x300xf32>
    %4 = hlo.reduce_precision %3, exponent_bits = 5, mantissa_bits = 2 : tensor<20x300xf32>
    %5 = hlo.add %4, %1 : tensor<20x300xf32>
    %p = hlo.compare LT, %5, %2, TOTALORDER : (tensor<20x300xf32>, tensor<20x300xf32>) -> tensor<20x300xi1>
    %6 = hlo.select %p, %5, %2 : (tensor<20x300xi1>, tensor<20x300xf32>, tensor<20x300xf32>) -> tensor<20x300xf32>
    %7 = hlo.bitcast_convert %6 : (tensor<20x300xf32>) -> tensor<20x300xi32>
    %8 = hlo.round_nearest_afz %a : tensor<20x300xf32>
    %9 = hlo.bitcast_convert %8 : (tensor<20x300xf32>) -> tensor<20x300xi32>
    %10 = hlo.xor %7, %9 : tensor<20x300xi32>
    %11 = hlo.bitcast_convert %10 : (tensor<20x300xi32>) -> tensor<20x300xf32>
    %12 = hlo.ceil %6 : tensor<20x300xf32>
    %13 = hlo.maximum %11, %12 : tensor<20x300xf32>
    hlo.return %13 : tensor<20x300xf32>
  }
  return %r0, %r1 : tensor<20x300xi32>, tensor<20x300xf32>
}
