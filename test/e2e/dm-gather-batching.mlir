// hlo.gather and hlo.scatter with batching dims (XLA's
// operand_batching_dims / input_batching_dims): the start of a batching dim
// is the position's own coordinate in its paired index dim. Random s32
// indices in [-8, 7], clamped (gather) or skipped (scatter) as XLA does.
// Gathers: jnp.take_along_axis along the minor axis (f32) and the leading
// axis (s32), two batching dims with a window (bf16), a batching index dim
// after the index vector dim with an implicit vector (f32). Scatters: the
// take_along_axis transpose (scatter-add, f32) and a replacing scatter of
// rows with the batching dim not leading (s32).
// Pure data movement, and the adds sum in the interpreter's order: compared
// bit for bit (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --fusion=off -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=7 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 6 | FileCheck %s
// CHECK: result0: ok shape=[5, 17]
// CHECK: result1: ok shape=[3, 6]
// CHECK: result2: ok shape=[2, 3, 4, 130]
// CHECK: result3: ok shape=[4, 3, 2]
// CHECK: result4: ok shape=[5, 40]
// CHECK: result5: ok shape=[9, 3, 20]

func.func @main(%v: tensor<5x40xf32>, %i: tensor<5x17x1xi32>,
                %w: tensor<12x6xi32>, %j: tensor<3x6x1xi32>,
                %x: tensor<2x3x10x130xbf16>, %k: tensor<2x3x4x1xi32>,
                %y: tensor<3x11x2xf32>, %l: tensor<4x3x2xi32>,
                %s: tensor<5x40xf32>, %si: tensor<5x17x1xi32>, %su: tensor<5x17xf32>,
                %r: tensor<9x3x20xi32>, %ri: tensor<3x4xi32>, %ru: tensor<3x4x20xi32>)
    -> (tensor<5x17xf32>, tensor<3x6xi32>, tensor<2x3x4x130xbf16>,
        tensor<4x3x2xf32>, tensor<5x40xf32>, tensor<9x3x20xi32>) {
  %0 = hlo.gather %v, %i, dims = <offset_dims = [], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, sizes = [1, 1] : (tensor<5x40xf32>, tensor<5x17x1xi32>) -> tensor<5x17xf32>
  %1 = hlo.gather %w, %j, dims = <offset_dims = [], collapsed_slice_dims = [0], operand_batching_dims = [1], start_indices_batching_dims = [1], start_index_map = [0], index_vector_dim = 2>, sizes = [1, 1] : (tensor<12x6xi32>, tensor<3x6x1xi32>) -> tensor<3x6xi32>
  %2 = hlo.gather %x, %k, dims = <offset_dims = [3], collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, sizes = [1, 1, 1, 130] : (tensor<2x3x10x130xbf16>, tensor<2x3x4x1xi32>) -> tensor<2x3x4x130xbf16>
  %3 = hlo.gather %y, %l, dims = <offset_dims = [], collapsed_slice_dims = [1], operand_batching_dims = [0, 2], start_indices_batching_dims = [1, 2], start_index_map = [1], index_vector_dim = 3>, sizes = [1, 1, 1] : (tensor<3x11x2xf32>, tensor<4x3x2xi32>) -> tensor<4x3x2xf32>
  %4 = hlo.scatter(%s) at %si updates(%su), dims = <update_window_dims = [], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2> : (tensor<5x40xf32>, tensor<5x17x1xi32>, tensor<5x17xf32>) -> tensor<5x40xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = hlo.add %a, %b : tensor<f32>
    hlo.return %t : tensor<f32>
  }
  %5 = hlo.scatter(%r) at %ri updates(%ru), dims = <update_window_dims = [2], inserted_window_dims = [0], input_batching_dims = [1], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2> : (tensor<9x3x20xi32>, tensor<3x4xi32>, tensor<3x4x20xi32>) -> tensor<9x3x20xi32> {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    hlo.return %b : tensor<i32>
  }
  return %0, %1, %2, %3, %4, %5 : tensor<5x17xf32>, tensor<3x6xi32>, tensor<2x3x4x130xbf16>, tensor<4x3x2xf32>, tensor<5x40xf32>, tensor<9x3x20xi32>
}
