// f32 and bf16 rounding (VFLOOR VCEIL VROUND_AFZ VROUND_EVEN) and float
// remainder (VREM: fmod), f32[20,300] (ragged), against the interpreter,
// bit for bit. x = (iota - 150) / 4 along the minor dim holds every
// quarter in [-37.5, 37.25]: the ties +-0.5, +-1.5, +-2.5 round away from
// zero for round-nearest-afz and to even for round-nearest-even, and
// -0.25 rounds to -0. The remainder divides random values by x (x = 0
// gives NaN) and x by random values.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/round.tpu.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/round.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/round.tpu.mlir -o %t/round.tpx
// RUN: tpuc-run %t/round.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 7 | FileCheck %s
// RUN: %python_numpy -c "import numpy as np; g = np.load('%t/got/result2.npy'); print('afz', g[0, 148], g[0, 144], g[0, 152], g[0, 156], g[0, 149]); g = np.load('%t/got/result3.npy'); print('even', g[0, 148], g[0, 144], g[0, 152], g[0, 156], g[0, 160])" | FileCheck %s --check-prefix=TIES
// TPU-DAG: tpu.vfloor
// TPU-DAG: tpu.vceil
// TPU-DAG: tpu.vround_afz
// TPU-DAG: tpu.vround_even
// TPU-DAG: tpu.vrem
// CHECK-COUNT-7: ok
// CHECK-NOT: MISMATCH
// TIES: afz -1.0 -2.0 1.0 2.0 -0.0
// TIES: even -0.0 -2.0 0.0 2.0 2.0

func.func @round(%a: tensor<20x300xf32>, %h: tensor<20x300xbf16>)
    -> (tensor<20x300xf32>, tensor<20x300xf32>, tensor<20x300xf32>,
        tensor<20x300xf32>, tensor<20x300xf32>, tensor<20x300xf32>,
        tensor<20x300xbf16>) {
  %c150 = hlo.constant dense<150.0> : tensor<20x300xf32>
  %quarter = hlo.constant dense<0.25> : tensor<20x300xf32>
  %ten = hlo.constant dense<10.0> : tensor<20x300xf32>
  %iota = hlo.iota dim = 1 : tensor<20x300xf32>
  %d = hlo.subtract %iota, %c150 : tensor<20x300xf32>
  %x = hlo.multiply %d, %quarter : tensor<20x300xf32>
  %floor = hlo.floor %x : tensor<20x300xf32>
  %ceil = hlo.ceil %x : tensor<20x300xf32>
  %afz = hlo.round_nearest_afz %x : tensor<20x300xf32>
  %even = hlo.round_nearest_even %x : tensor<20x300xf32>
  %a10 = hlo.multiply %a, %ten : tensor<20x300xf32>
  %rem = hlo.remainder %a10, %x : tensor<20x300xf32>
  %rem2 = hlo.remainder %x, %a : tensor<20x300xf32>
  %hfloor = hlo.round_nearest_even %h : tensor<20x300xbf16>
  return %floor, %ceil, %afz, %even, %rem, %rem2, %hfloor
      : tensor<20x300xf32>, tensor<20x300xf32>, tensor<20x300xf32>,
        tensor<20x300xf32>, tensor<20x300xf32>, tensor<20x300xf32>,
        tensor<20x300xbf16>
}
