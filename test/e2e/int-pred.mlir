// pred arrays (stored as s32 0/1) and conversions, f32[37,130] and
// s32[37,130] (ragged): compares with users other than a select, and / or
// / xor / not on pred, select on a pred array, convert pred -> f32 and
// s32, s32 -> f32, f32 -> s32 (truncation), f32 -> pred, and logistic.
// Integer and 0/1 results are exact (tolerance 0); logistic is
// 1 / (1 + exp(-x)) in f32 on both sides (libm's expf): 1e-6.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/pred.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/pred.tpu.mlir -o %t/pred.tpx
// RUN: tpuc-run %t/pred.tpx --random-inputs=2 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=2 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 5 0 | FileCheck %s --check-prefix=EXACT
// RUN: %python_numpy -c "import numpy as np; g = np.load('%t/got/result5.npy'); w = np.load('%t/want/result5.npy'); e = np.abs(g - w).max(); print('logistic:', 'ok' if e <= 1e-6 and g.shape == (37, 130) else e)" | FileCheck %s --check-prefix=LOGISTIC
// EXACT: result0: ok shape=[37, 130] max_abs=0
// EXACT: result1: ok shape=[37, 130] max_abs=0
// EXACT: result2: ok shape=[37, 130] max_abs=0
// EXACT: result3: ok shape=[37, 130] max_abs=0
// EXACT: result4: ok shape=[37, 130] max_abs=0
// LOGISTIC: logistic: ok

func.func @pred(%x: tensor<37x130xf32>, %y: tensor<37x130xf32>, %i: tensor<37x130xi32>)
    -> (tensor<37x130xi32>, tensor<37x130xf32>, tensor<37x130xi32>,
        tensor<37x130xf32>, tensor<37x130xi32>, tensor<37x130xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<37x130xf32>
  %izero = hlo.constant dense<0> : tensor<37x130xi32>
  %gt = hlo.compare GT, %x, %y : (tensor<37x130xf32>, tensor<37x130xf32>) -> tensor<37x130xi1>
  %pos = hlo.compare GE, %x, %zero : (tensor<37x130xf32>, tensor<37x130xf32>) -> tensor<37x130xi1>
  %ineg = hlo.compare LT, %i, %izero : (tensor<37x130xi32>, tensor<37x130xi32>) -> tensor<37x130xi1>
  %and = hlo.and %gt, %pos : tensor<37x130xi1>
  %or = hlo.or %and, %ineg : tensor<37x130xi1>
  %xor = hlo.xor %or, %pos : tensor<37x130xi1>
  %not = hlo.not %xor : tensor<37x130xi1>
  // A compare used by a select and by an and: an array of its own.
  %sel = hlo.select %gt, %x, %y : (tensor<37x130xi1>, tensor<37x130xf32>, tensor<37x130xf32>) -> tensor<37x130xf32>
  %sel2 = hlo.select %not, %sel, %zero : (tensor<37x130xi1>, tensor<37x130xf32>, tensor<37x130xf32>) -> tensor<37x130xf32>
  %r0 = hlo.convert %not : (tensor<37x130xi1>) -> tensor<37x130xi32>
  %pf = hlo.convert %and : (tensor<37x130xi1>) -> tensor<37x130xf32>
  %if = hlo.convert %i : (tensor<37x130xi32>) -> tensor<37x130xf32>
  %r1 = hlo.add %pf, %if : tensor<37x130xf32>
  %x8 = hlo.multiply %x, %if : tensor<37x130xf32>
  %r2 = hlo.convert %x8 : (tensor<37x130xf32>) -> tensor<37x130xi32>
  %xp = hlo.convert %r2 : (tensor<37x130xi32>) -> tensor<37x130xi1>
  %r4 = hlo.convert %xp : (tensor<37x130xi1>) -> tensor<37x130xi32>
  %r5 = hlo.logistic %x8 : tensor<37x130xf32>
  return %r0, %r1, %r2, %sel2, %r4, %r5
      : tensor<37x130xi32>, tensor<37x130xf32>, tensor<37x130xi32>,
        tensor<37x130xf32>, tensor<37x130xi32>, tensor<37x130xf32>
}
