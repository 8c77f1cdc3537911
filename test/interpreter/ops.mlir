// Small programs with constant inputs, checked through the summary and the
// written .npy files.
// RUN: tpuc interpret %s | FileCheck %s
// RUN: rm -rf %t && tpuc interpret %s --output-dir=%t
// RUN: %python_numpy -c "import numpy as np; a = np.load('%t/result0.npy'); print(a.dtype, a.tolist()); b = np.load('%t/result1.npy'); print(b.dtype, b.tolist()); c = np.load('%t/result2.npy'); print(c.dtype, c.view('<u2').tolist())" | FileCheck %s --check-prefix=NPY

// CHECK:      result 0: s32[4]
// CHECK-NEXT:   values: -2147483648 -2 -1 2147483647
// CHECK-NEXT:   min -2.14748e+09  max 2.14748e+09  mean -1
// CHECK:      result 1: f32[2,2]
// CHECK-NEXT:   values: 19 22 43 50
// CHECK:      result 2: bf16[2]
// CHECK-NEXT:   values: 1 1.01562
// NPY: int32 [-2147483648, -2, -1, 2147483647]
// NPY: float32 {{\[\[}}19.0, 22.0], [43.0, 50.0]]
// NPY: |V2 [16256, 16258]
func.func @main() -> (tensor<4xi32>, tensor<2x2xf32>, tensor<2xbf16>) {
  %a = hlo.constant dense<[2147483647, -7, 5, 2147483646]> : tensor<4xi32>
  %b = hlo.constant dense<[1, 2, 0, 1]> : tensor<4xi32>
  %sum = hlo.add %a, %b : tensor<4xi32>
  %q = hlo.divide %sum, %b : tensor<4xi32>
  %m = hlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %n = hlo.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %d = hlo.dot_general %m, %n, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %x = hlo.constant dense<[1.0, 1.0078125]> : tensor<2xbf16>
  %e = hlo.constant dense<0.00390625> : tensor<2xbf16>
  %r = hlo.add %x, %e : tensor<2xbf16>
  return %q, %d, %r : tensor<4xi32>, tensor<2x2xf32>, tensor<2xbf16>
}
