// s32 bit operations on the VPU (VAND VOR VXOR VSHL VSHRL VSHRA VPOPCNT
// VCLZ VMULHI), s32[20,300] (ragged in both dims), against the
// interpreter. Random inputs are in [-8, 7] (so popcnt and clz see 0 and
// -1); multiplying by odd constants spreads them over all 32 bits. Shift
// amounts are iota - 40 along the minor dim: -40..259, so every row shifts
// by 0, 31, 32, larger and negative amounts (XLA: an amount >= 32 read as
// unsigned gives 0, or the sign for an arithmetic right shift). Exact:
// tolerance 0.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/bits.tpu.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/bits.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/bits.tpu.mlir -o %t/bits.tpx
// RUN: tpuc-run %t/bits.tpx --random-inputs=7 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 10 | FileCheck %s
// TPU-DAG: tpu.vand
// TPU-DAG: tpu.vor
// TPU-DAG: tpu.vxor
// TPU-DAG: tpu.vshl
// TPU-DAG: tpu.vshrl
// TPU-DAG: tpu.vshra
// TPU-DAG: tpu.vpopcnt
// TPU-DAG: tpu.vclz
// TPU-DAG: tpu.vmulhi
// CHECK-COUNT-10: ok
// CHECK-NOT: MISMATCH

func.func @bits(%a: tensor<20x300xi32>, %b: tensor<20x300xi32>)
    -> (tensor<20x300xi32>, tensor<20x300xi32>, tensor<20x300xi32>,
        tensor<20x300xi32>, tensor<20x300xi32>, tensor<20x300xi32>,
        tensor<20x300xi32>, tensor<20x300xi32>, tensor<20x300xi32>,
        tensor<20x300xi32>) {
  %k1 = hlo.constant dense<305419897> : tensor<20x300xi32>
  %k2 = hlo.constant dense<-1985229329> : tensor<20x300xi32>
  %forty = hlo.constant dense<40> : tensor<20x300xi32>
  %wa = hlo.multiply %a, %k1 : tensor<20x300xi32>
  %wb = hlo.multiply %b, %k2 : tensor<20x300xi32>
  %iota = hlo.iota dim = 1 : tensor<20x300xi32>
  %amount = hlo.subtract %iota, %forty : tensor<20x300xi32>
  %and = hlo.and %wa, %wb : tensor<20x300xi32>
  %or = hlo.or %wa, %b : tensor<20x300xi32>
  %xor = hlo.xor %wa, %wb : tensor<20x300xi32>
  %not = hlo.not %wa : tensor<20x300xi32>
  %shl = hlo.shift_left %wa, %amount : tensor<20x300xi32>
  %shrl = hlo.shift_right_logical %wa, %amount : tensor<20x300xi32>
  %shra = hlo.shift_right_arithmetic %wa, %amount : tensor<20x300xi32>
  %popcnt = hlo.popcnt %a : tensor<20x300xi32>
  %pw = hlo.popcnt %wb : tensor<20x300xi32>
  %pop = hlo.add %popcnt, %pw : tensor<20x300xi32>
  %clz = hlo.count_leading_zeros %a : tensor<20x300xi32>
  %mulhi = hlo.mulhi %wa, %wb : tensor<20x300xi32>
  return %and, %or, %xor, %not, %shl, %shrl, %shra, %pop, %clz, %mulhi
      : tensor<20x300xi32>, tensor<20x300xi32>, tensor<20x300xi32>,
        tensor<20x300xi32>, tensor<20x300xi32>, tensor<20x300xi32>,
        tensor<20x300xi32>, tensor<20x300xi32>, tensor<20x300xi32>,
        tensor<20x300xi32>
}
