// u32 constants that are not splats live in the executable's constant table
// as their 32 bits (stored like s32), including values past 2^31: a table
// xor'ed into an argument, and the table returned itself. Exact (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s -o %t/u32.tpx
// RUN: tpuc-run %t/u32.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 2 0 | FileCheck %s
// RUN: %python_numpy -c "import numpy as np; print(np.load('%t/got/result1.npy').dtype, np.load('%t/got/result1.npy')[0, :4])" | FileCheck %s --check-prefix=BITS
// CHECK: result0: ok shape=[2, 4] max_abs=0
// CHECK: result1: ok shape=[2, 4] max_abs=0
// BITS: uint32 [         0 4294967295 2147483648         7]

func.func @u32(%x: tensor<2x4xui32>) -> (tensor<2x4xui32>, tensor<2x4xui32>) {
  %c = hlo.constant dense<[[0, 4294967295, 2147483648, 7], [1, 2, 3, 4000000000]]> : tensor<2x4xui32>
  %y = hlo.xor %x, %c : tensor<2x4xui32>
  return %y, %c : tensor<2x4xui32>, tensor<2x4xui32>
}
