// Scatters whose update computation is not one combining op, and scatters
// of several inputs: the computation evaluated on the registers of every
// input's and update's window (the current values, then the updates), as
// XLA applies it. Random s32 indices in [-8, 7]: windows not wholly inside
// the operand are skipped and repeated indices apply in order.
//   result0: a row scatter that subtracts (f32)
//   result1, result2: a scatter-argmax of (value f32, index s32) pairs:
//            the update replaces where it is larger (ties keep the
//            current), both inputs from one comparison
//   result3, result4: XLA's scatter_expander form, (s32, f32) inputs whose
//            computation returns the updates (a variadic replace)
//   result5: a bf16 computation of several ops, 0.5 * current + update
//            (rounded to bf16 after each op, as the interpreter does)
// Same operations in the same order as the interpreter: bit-exact.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --fusion=off -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=8 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=8 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 6 | FileCheck %s
// CHECK: result0: ok shape=[10, 130] bit-exact
// CHECK: result1: ok shape=[9, 40] bit-exact
// CHECK: result2: ok shape=[9, 40] bit-exact
// CHECK: result3: ok shape=[5] bit-exact
// CHECK: result4: ok shape=[5] bit-exact
// CHECK: result5: ok shape=[6, 3, 20] bit-exact

func.func @main(%t: tensor<10x130xf32>, %i: tensor<12x1xi32>, %u: tensor<12x130xf32>,
                %v: tensor<9x40xf32>, %vi: tensor<9x40xi32>, %j: tensor<20x1xi32>,
                %uv: tensor<20x40xf32>, %ui: tensor<20x40xi32>,
                %k: tensor<3xi32>, %ks: tensor<3xi32>, %kf: tensor<3xf32>,
                %h: tensor<6x3x20xbf16>, %hi: tensor<7x2xi32>, %hu: tensor<7x2x20xbf16>)
    -> (tensor<10x130xf32>, tensor<9x40xf32>, tensor<9x40xi32>, tensor<5xi32>,
        tensor<5xf32>, tensor<6x3x20xbf16>) {
  %0 = hlo.scatter(%t) at %i updates(%u), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<10x130xf32>, tensor<12x1xi32>, tensor<12x130xf32>) -> tensor<10x130xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.subtract %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %1:2 = hlo.scatter(%v, %vi) at %j updates(%uv, %ui), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<9x40xf32>, tensor<9x40xi32>, tensor<20x1xi32>, tensor<20x40xf32>, tensor<20x40xi32>) -> (tensor<9x40xf32>, tensor<9x40xi32>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = hlo.compare GT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = hlo.select %gt, %b, %a : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %mi = hlo.select %gt, %bi, %ai : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    hlo.return %m, %mi : tensor<f32>, tensor<i32>
  }
  %base = hlo.iota dim = 0 : tensor<5xi32>
  %basef = hlo.constant dense<[2.0, 4.0, 6.0, 8.0, 10.0]> : tensor<5xf32>
  %2:2 = hlo.scatter(%base, %basef) at %k updates(%ks, %kf), dims = <update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<5xi32>, tensor<5xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xf32>) -> (tensor<5xi32>, tensor<5xf32>) {
  ^bb0(%a: tensor<i32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<f32>):
    hlo.return %c, %d : tensor<i32>, tensor<f32>
  }
  %3 = hlo.scatter(%h) at %hi updates(%hu), dims = <update_window_dims = [1, 2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1> : (tensor<6x3x20xbf16>, tensor<7x2xi32>, tensor<7x2x20xbf16>) -> tensor<6x3x20xbf16> {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %half = hlo.constant dense<0.5> : tensor<bf16>
    %ah = hlo.multiply %a, %half : tensor<bf16>
    %s = hlo.add %ah, %b : tensor<bf16>
    hlo.return %s : tensor<bf16>
  }
  return %0, %1#0, %1#1, %2#0, %2#1, %3
      : tensor<10x130xf32>, tensor<9x40xf32>, tensor<9x40xi32>, tensor<5xi32>,
        tensor<5xf32>, tensor<6x3x20xbf16>
}
