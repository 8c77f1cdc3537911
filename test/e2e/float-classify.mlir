// is-finite, reduce-precision (VREDUCE_PRECISION), bitcast-convert and
// TOTALORDER / UNSIGNED compares on the VPU, f32[20,300] (ragged), against
// the interpreter, bit for bit. x = (iota - 150) / 4 along the minor dim;
// s = x / (x * 0) is +-inf where x != 0 and NaN at x = 0, so is-finite,
// reduce-precision and the total order see NaN and both infinities, and x
// vs -x compares -0 with +0. reduce-precision to f16 (5, 10) of values up
// to 1.5e6 overflows to inf, of values near 1e-5 flushes to 0, to (8, 7)
// rounds to bf16, to (4, 3) to an 8-bit float.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/cls.tpu.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/cls.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/cls.tpu.mlir -o %t/cls.tpx
// RUN: tpuc-run %t/cls.tpx --random-inputs=4 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=4 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 12 | FileCheck %s
// RUN: %python_numpy -c "import numpy as np; r = [np.load('%t/got/result%%d.npy' %% i) for i in range(12)]; print('finite', r[0][0, 150], r[0][0, 149], r[1][0, 0]); print('rp', r[2][0, 0], r[2][0, 299], np.isnan(r[5][0, 150]), r[5][0, 0]); print('order', r[9][0, 150], r[10][0, 150], r[10][0, 149], r[10][0, 151])" | FileCheck %s --check-prefix=EDGE
// TPU-DAG: tpu.vreduce_precision
// TPU-DAG: tpu.vbitcast
// TPU-DAG: tpu.vshra
// CHECK-COUNT-12: ok
// CHECK-NOT: MISMATCH
// EDGE: finite 0 0 1
// EDGE: rp -inf inf True inf
// EDGE: order 0 0 1 0

func.func @classify(%a: tensor<20x300xf32>, %i: tensor<20x300xi32>, %j: tensor<20x300xi32>)
    -> (tensor<20x300xi32>, tensor<20x300xi32>, tensor<20x300xf32>,
        tensor<20x300xf32>, tensor<20x300xf32>, tensor<20x300xf32>,
        tensor<20x300xf32>, tensor<20x300xi32>, tensor<20x300xi32>,
        tensor<20x300xi32>, tensor<20x300xi32>, tensor<20x300xi32>) {
  %c150 = hlo.constant dense<150.0> : tensor<20x300xf32>
  %quarter = hlo.constant dense<0.25> : tensor<20x300xf32>
  %zero = hlo.constant dense<0.0> : tensor<20x300xf32>
  %big = hlo.constant dense<40000.0> : tensor<20x300xf32>
  %tiny = hlo.constant dense<0.00003> : tensor<20x300xf32>
  %k = hlo.constant dense<305419897> : tensor<20x300xi32>
  %iota = hlo.iota dim = 1 : tensor<20x300xf32>
  %d = hlo.subtract %iota, %c150 : tensor<20x300xf32>
  %x = hlo.multiply %d, %quarter : tensor<20x300xf32>
  %x0 = hlo.multiply %x, %zero : tensor<20x300xf32>
  %s = hlo.divide %x, %x0 : tensor<20x300xf32>
  %fin_s = hlo.is_finite %s : (tensor<20x300xf32>) -> tensor<20x300xi1>
  %fin_a = hlo.is_finite %a : (tensor<20x300xf32>) -> tensor<20x300xi1>
  %r0 = hlo.convert %fin_s : (tensor<20x300xi1>) -> tensor<20x300xi32>
  %r1 = hlo.convert %fin_a : (tensor<20x300xi1>) -> tensor<20x300xi32>
  %xb = hlo.multiply %x, %big : tensor<20x300xf32>
  %xa = hlo.add %xb, %a : tensor<20x300xf32>
  %r2 = hlo.reduce_precision %xa, exponent_bits = 5, mantissa_bits = 10 : tensor<20x300xf32>
  %at = hlo.multiply %a, %tiny : tensor<20x300xf32>
  %r3 = hlo.reduce_precision %at, exponent_bits = 5, mantissa_bits = 10 : tensor<20x300xf32>
  %r4 = hlo.reduce_precision %a, exponent_bits = 8, mantissa_bits = 7 : tensor<20x300xf32>
  %r5 = hlo.reduce_precision %s, exponent_bits = 4, mantissa_bits = 3 : tensor<20x300xf32>
  %wi = hlo.multiply %i, %k : tensor<20x300xi32>
  %r6 = hlo.bitcast_convert %wi : (tensor<20x300xi32>) -> tensor<20x300xf32>
  %r7 = hlo.bitcast_convert %s : (tensor<20x300xf32>) -> tensor<20x300xi32>
  %nx = hlo.negate %x : tensor<20x300xf32>
  %lt_s = hlo.compare LT, %s, %x, TOTALORDER : (tensor<20x300xf32>, tensor<20x300xf32>) -> tensor<20x300xi1>
  %r8 = hlo.convert %lt_s : (tensor<20x300xi1>) -> tensor<20x300xi32>
  %eq_x = hlo.compare EQ, %x, %nx, TOTALORDER : (tensor<20x300xf32>, tensor<20x300xf32>) -> tensor<20x300xi1>
  %r9 = hlo.convert %eq_x : (tensor<20x300xi1>) -> tensor<20x300xi32>
  %ge_x = hlo.compare GE, %nx, %x, TOTALORDER : (tensor<20x300xf32>, tensor<20x300xf32>) -> tensor<20x300xi1>
  %r10 = hlo.convert %ge_x : (tensor<20x300xi1>) -> tensor<20x300xi32>
  %lt_u = hlo.compare LT, %i, %j, UNSIGNED : (tensor<20x300xi32>, tensor<20x300xi32>) -> tensor<20x300xi1>
  %r11 = hlo.convert %lt_u : (tensor<20x300xi1>) -> tensor<20x300xi32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11
      : tensor<20x300xi32>, tensor<20x300xi32>, tensor<20x300xf32>,
        tensor<20x300xf32>, tensor<20x300xf32>, tensor<20x300xf32>,
        tensor<20x300xf32>, tensor<20x300xi32>, tensor<20x300xi32>,
        tensor<20x300xi32>, tensor<20x300xi32>, tensor<20x300xi32>
}
