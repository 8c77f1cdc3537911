// f16 reduce_window and scatter through tpuc-expand-narrow-floats on tpu-v3 and
// tpu-v6e against the interpreter: a 2x2/2 window sum, a padded 3x3/2 max
// pool, a row scatter-add (random s32 indices in [-8, 7]: out-of-range
// windows skipped, repeats combined) and a scatter-max. The device combines
// in f32 and rounds the result to f16 once; the interpreter rounds after
// every step, so the sums differ by an f16 ulp at some elements (relative
// to the output's largest magnitude: 8.1e-4 window sum, 7.0e-4 scatter-add
// measured); the maxima take an input value and compare bit for bit.
// RUN: rm -rf %t && mkdir -p %t/got %t/got6 %t/want
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc compile %s --target=tpu-v6e -o %t/t6.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=5 --output-dir=%t/got --result-names=index
// RUN: tpuc-run %t/t6.tpx --random-inputs=5 --output-dir=%t/got6 --result-names=index
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 4 2e-3 0.99999 | FileCheck %s
// RUN: %python_numpy %S/Inputs/compare.py %t/got6 %t/want 4 2e-3 0.99999 | FileCheck %s
// CHECK: result0: ok
// CHECK: result1: ok
// CHECK: result2: ok
// CHECK: result3: ok
// The maxima are exact, and the results are f16 on the host.
// RUN: %python_numpy -c "import numpy as n; print([(str(n.load('%t/' + d + '/result%%d.npy' %% i).dtype), bool((n.load('%t/' + d + '/result%%d.npy' %% i) == n.load('%t/want/result%%d.npy' %% i)).all())) for d in ('got', 'got6') for i in (1, 3)])" | FileCheck %s --check-prefix=EXACT
// EXACT: [('float16', True), ('float16', True), ('float16', True), ('float16', True)]

func.func @main(%a32: tensor<8x16xf32>, %t32: tensor<10x130xf32>,
                %i: tensor<12x1xi32>, %u32: tensor<12x130xf32>, %j: tensor<12x1xi32>)
    -> (tensor<4x8xf16>, tensor<4x8xf16>, tensor<10x130xf16>, tensor<10x130xf16>) {
  %a = hlo.convert %a32 : (tensor<8x16xf32>) -> tensor<8x16xf16>
  %t = hlo.convert %t32 : (tensor<10x130xf32>) -> tensor<10x130xf16>
  %u = hlo.convert %u32 : (tensor<12x130xf32>) -> tensor<12x130xf16>
  %z = hlo.constant dense<0.0> : tensor<f16>
  %ninf = hlo.constant dense<0xFC00> : tensor<f16>
  %0 = hlo.reduce_window(%a) init(%z) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<8x16xf16>, tensor<f16>) -> tensor<4x8xf16> {
  ^bb0(%x: tensor<f16>, %y: tensor<f16>):
    %s = hlo.add %x, %y : tensor<f16>
    hlo.return %s : tensor<f16>
  }
  %1 = hlo.reduce_window(%a) init(%ninf) {window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>} : (tensor<8x16xf16>, tensor<f16>) -> tensor<4x8xf16> {
  ^bb0(%x: tensor<f16>, %y: tensor<f16>):
    %s = hlo.maximum %x, %y : tensor<f16>
    hlo.return %s : tensor<f16>
  }
  %2 = hlo.scatter(%t) at %i updates(%u), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<10x130xf16>, tensor<12x1xi32>, tensor<12x130xf16>) -> tensor<10x130xf16> {
  ^bb0(%x: tensor<f16>, %y: tensor<f16>):
    %s = hlo.add %x, %y : tensor<f16>
    hlo.return %s : tensor<f16>
  }
  %3 = hlo.scatter(%t) at %j updates(%u), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<10x130xf16>, tensor<12x1xi32>, tensor<12x130xf16>) -> tensor<10x130xf16> {
  ^bb0(%x: tensor<f16>, %y: tensor<f16>):
    %s = hlo.maximum %x, %y : tensor<f16>
    hlo.return %s : tensor<f16>
  }
  return %0, %1, %2, %3 : tensor<4x8xf16>, tensor<4x8xf16>, tensor<10x130xf16>, tensor<10x130xf16>
}
