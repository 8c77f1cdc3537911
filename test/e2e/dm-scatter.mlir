// hlo.scatter with random s32 indices in [-8, 7]: windows that are not
// wholly inside the operand are skipped, as in XLA; repeated indices
// combine in order. A row scatter-add (f32), a scatter-max of 2-D windows
// (s32) and a replacing scatter (bf16). The f32 add sums the same values in
// the same order as the interpreter, so all compare bit for bit
// (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --fusion=off -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=6 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=6 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 3 | FileCheck %s
// CHECK: result0: ok shape=[10, 130]
// CHECK: result1: ok shape=[4, 9, 20]
// CHECK: result2: ok shape=[7, 3]

func.func @main(%t: tensor<10x130xf32>, %i: tensor<12x1xi32>, %u: tensor<12x130xf32>,
                %t2: tensor<4x9x20xi32>, %i2: tensor<5x2xi32>, %u2: tensor<5x3x20xi32>,
                %t3: tensor<7x3xbf16>, %i3: tensor<4xi32>, %u3: tensor<4x3xbf16>)
    -> (tensor<10x130xf32>, tensor<4x9x20xi32>, tensor<7x3xbf16>) {
  %0 = hlo.scatter(%t) at %i updates(%u), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<10x130xf32>, tensor<12x1xi32>, tensor<12x130xf32>) -> tensor<10x130xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %1 = hlo.scatter(%t2) at %i2 updates(%u2), dims = <update_window_dims = [1, 2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1> : (tensor<4x9x20xi32>, tensor<5x2xi32>, tensor<5x3x20xi32>) -> tensor<4x9x20xi32> {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = hlo.maximum %a, %b : tensor<i32>
    hlo.return %s : tensor<i32>
  }
  %2 = hlo.scatter(%t3) at %i3 updates(%u3), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<7x3xbf16>, tensor<4xi32>, tensor<4x3xbf16>) -> tensor<7x3xbf16> {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    hlo.return %b : tensor<bf16>
  }
  return %0, %1, %2 : tensor<10x130xf32>, tensor<4x9x20xi32>, tensor<7x3xbf16>
}
