// An output fusion's dot of short MXU steps (Dot.cpp,
// DotKernel::choosePipelining): relu(x w + b) of x [8,2048] streams its
// operands 4 steps ahead while the epilogue keeps its two slots and the
// job's finish in place. Through the whole pipeline, against the
// interpreter (f32 at DEFAULT: 2^-7 of the largest output).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s -o %t/got.tpx
// RUN: tpuc-run %t/got.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 2 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[8, 1000]
// CHECK: result1: ok shape=[8, 1000]

func.func @main(%x: tensor<8x2048xf32>, %w: tensor<2048x1000xf32>,
                %b: tensor<1000xf32>)
    -> (tensor<8x1000xf32>, tensor<8x1000xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<8x1000xf32>
  %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<8x2048xf32>, tensor<2048x1000xf32>) -> tensor<8x1000xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [1] : (tensor<1000xf32>) -> tensor<8x1000xf32>
  %s = hlo.add %d, %bb : tensor<8x1000xf32>
  %r = hlo.maximum %s, %zero : tensor<8x1000xf32>
  return %s, %r : tensor<8x1000xf32>, tensor<8x1000xf32>
}
