// hlo.cholesky compiled through tpuc-expand-cholesky (XLA's blocked
// CholeskyExpander: 128-column blocks, an hlo.while per diagonal block,
// a triangular solve below it) against the reference interpreter (f64,
// rounded once to f32), f32, batch 2: n = 1 (one sqrt), 7 (one unblocked
// loop), 130 (a 128 block, a triangular solve of the 2 rows below it, a
// 2-column block), lower and upper, the unread triangle holding garbage
// (|x| ~ 100), and a constant batch of one SPD and one indefinite matrix
// (all NaN, the other batch element unharmed). Inputs: X X^T / n + I
// (Inputs/linalg_inputs.py). The expansion's dots run at HIGHEST (bf16x6)
// in f32 arithmetic: tolerance 1e-5 of the largest |L| (measured 8e-8).
// RUN: rm -rf %t && mkdir -p %t/in %t/got %t/want
// RUN: %python_numpy %S/Inputs/linalg_inputs.py %t/in
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --input=@%t/in/spd1.npy --input=@%t/in/spd7.npy --input=@%t/in/spd130.npy --input=@%t/in/spd7u.npy --input=@%t/in/spd130u.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/in/spd1.npy --input=@%t/in/spd7.npy --input=@%t/in/spd130.npy --input=@%t/in/spd7u.npy --input=@%t/in/spd130u.npy --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 5 1e-5 | FileCheck %s
// CHECK: result0: ok shape=[2, 1, 1]
// CHECK: result1: ok shape=[2, 7, 7]
// CHECK: result2: ok shape=[2, 130, 130]
// CHECK: result3: ok shape=[2, 7, 7]
// CHECK: result4: ok shape=[2, 130, 130]
// result5: the indefinite matrix is NaN everywhere on both sides, the SPD
// one is not and agrees within 1e-6.
// RUN: %python_numpy -c "import numpy as np; r, w = (np.load('%t/' + d + '/result5.npy') for d in ('got', 'want')); print('nan', np.isnan(r[1]).all(), np.isnan(w[1]).all(), np.isnan(r[0]).any(), float(np.abs(r[0] - w[0]).max()) < 1e-6)" | FileCheck %s --check-prefix=NAN
// NAN: nan True True False True
// The expansion: a while loop, and no cholesky or triangular_solve left.
// RUN: tpuc-opt %s --tpuc-expand-cholesky --tpuc-expand-triangular-solve | FileCheck %s --check-prefix=IR --implicit-check-not=hlo.cholesky --implicit-check-not=hlo.triangular_solve
// IR: hlo.while

func.func @main(%a1: tensor<2x1x1xf32>, %a7: tensor<2x7x7xf32>,
                %a130: tensor<2x130x130xf32>, %u7: tensor<2x7x7xf32>,
                %u130: tensor<2x130x130xf32>)
    -> (tensor<2x1x1xf32>, tensor<2x7x7xf32>, tensor<2x130x130xf32>,
        tensor<2x7x7xf32>, tensor<2x130x130xf32>, tensor<2x3x3xf32>) {
  %0 = hlo.cholesky %a1 {lower = true} : tensor<2x1x1xf32>
  %1 = hlo.cholesky %a7 {lower = true} : tensor<2x7x7xf32>
  %2 = hlo.cholesky %a130 {lower = true} : tensor<2x130x130xf32>
  %3 = hlo.cholesky %u7 : tensor<2x7x7xf32>
  %4 = hlo.cholesky %u130 : tensor<2x130x130xf32>
  %bad = hlo.constant dense<[[[4.0, 0.0, 0.0], [2.0, 5.0, 0.0], [1.0, 1.0, 6.0]],
                             [[4.0, 0.0, 0.0], [2.0, -1.0, 0.0], [1.0, 1.0, 5.0]]]> : tensor<2x3x3xf32>
  %5 = hlo.cholesky %bad {lower = true} : tensor<2x3x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x1x1xf32>, tensor<2x7x7xf32>,
      tensor<2x130x130xf32>, tensor<2x7x7xf32>, tensor<2x130x130xf32>,
      tensor<2x3x3xf32>
}
