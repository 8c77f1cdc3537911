// Constants that are not splats go to the executable's constant table and
// the loader writes them into HBM (f32, s32, pred, bf16; rank 0, 1, 2);
// a large s32 splat is filled on the VPU; a returned constant is copied.
// Exact: tolerance 0.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/const.tpu.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/const.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/const.tpu.mlir -o %t/const.tpx
// RUN: tpuc translate --executable-to-text %t/const.tpx | FileCheck %s --check-prefix=TABLE
// RUN: tpuc-run %t/const.tpx --random-inputs=1 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=1 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 6 0 | FileCheck %s
// CHECK: result0: ok shape=[2, 3] max_abs=0
// CHECK: result1: ok shape=[5] max_abs=0
// CHECK: result2: ok shape=[2, 3] max_abs=0
// CHECK: result3: ok shape=[40, 300] max_abs=0
// CHECK: result4: ok shape=[] max_abs=0
// CHECK: result5: ok shape=[40, 300] max_abs=0
// TPU: tpu.alloc init dense<{{\[}}[1.000000e+00, -2.500000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// TPU: tpu.alloc init dense<[1, 0, 1, 1, 0]> : tensor<5xi32>
// TABLE: constant 0 "constant0" F32[2,3]{1,0:T(8,128)} buffer {{[0-9]+}} (24 bytes)
// TABLE: constant 1 "constant1" S32[5]{0:T(1024)} buffer {{[0-9]+}} (20 bytes)
// TABLE: constant 2 "constant2" S32[5]{0:T(1024)} buffer {{[0-9]+}} (20 bytes)
// TABLE: constant 3 "constant3" BF16[2,3]{1,0:T(8,128)} buffer {{[0-9]+}} (12 bytes)
// TABLE: constant 4 "constant4" S32[]{:T(1024)} buffer {{[0-9]+}} (4 bytes)

func.func @consts(%x: tensor<2x3xf32>, %s: tensor<40x300xi32>)
    -> (tensor<2x3xf32>, tensor<5xi32>, tensor<2x3xf32>, tensor<40x300xi32>,
        tensor<i32>, tensor<40x300xi32>) {
  %k = hlo.constant dense<[[1.0, -2.5, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %r0 = hlo.multiply %x, %k : tensor<2x3xf32>
  %ik = hlo.constant dense<[3, -7, 11, 0, 2147483647]> : tensor<5xi32>
  %pk = hlo.constant dense<[true, false, true, true, false]> : tensor<5xi1>
  %zero = hlo.constant dense<0> : tensor<5xi32>
  %r1 = hlo.select %pk, %ik, %zero : (tensor<5xi1>, tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  %hk = hlo.constant dense<[[0.5, 1.5, -3.0], [100.0, 0.25, 7.0]]> : tensor<2x3xbf16>
  %hf = hlo.convert %hk : (tensor<2x3xbf16>) -> tensor<2x3xf32>
  %r2 = hlo.add %hf, %x : tensor<2x3xf32>
  // An s32 splat too large for the table that is needed as an array (it
  // is returned) is filled on the VPU; as an add's operand it is a splat.
  %big = hlo.constant dense<-3> : tensor<40x300xi32>
  %r5 = hlo.add %s, %big : tensor<40x300xi32>
  %r4 = hlo.constant dense<42> : tensor<i32>
  return %r0, %r1, %r2, %big, %r4, %r5
      : tensor<2x3xf32>, tensor<5xi32>, tensor<2x3xf32>, tensor<40x300xi32>,
        tensor<i32>, tensor<40x300xi32>
}
