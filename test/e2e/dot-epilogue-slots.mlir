// An output fusion's dot whose epilogue roots take one VMEM slot instead of
// two (Dot.cpp, DotKernel::plan) when that leaves room for a wider C block:
// relu(x w + b) with two f32 roots, the bias add and the relu. With 8 MiB
// of VMEM the two-slot roots allow 8 jobs; one slot allows 4 (the root
// writes of a job then finish before the next job's epilogue, which waits
// for them). With 3 MiB: 32 jobs -> 16. Against the interpreter (f32 at
// DEFAULT precision: tolerance 2^-7 of the largest output), and bit for
// bit across the blockings (the K order of every element is unchanged).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s --vmem=8MiB --emit=tpu -o %t/one.tpu.mlir
// RUN: FileCheck %s --check-prefix=ONE < %t/one.tpu.mlir
// ONE-NOT: tpu.loop %{{.+}} = 0 to %c8 {
// ONE: tpu.loop %{{.+}} = 0 to %c4 {
// RUN: tpuc compile %s --vmem=3MiB --emit=tpu -o %t/small.tpu.mlir
// RUN: FileCheck %s --check-prefix=SMALL < %t/small.tpu.mlir
// SMALL-NOT: tpu.loop %{{.+}} = 0 to %c32 {
// SMALL: tpu.loop %{{.+}} = 0 to %c16 {
// RUN: tpuc compile %s --vmem=8MiB -o %t/one.tpx
// RUN: tpuc-run %t/one.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 2 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[1024, 1024]
// CHECK: result1: ok shape=[1024, 1024]
// RUN: tpuc compile %s --vmem=3MiB -o %t/small.tpx
// RUN: tpuc-run %t/small.tpx --random-inputs=5 --output-dir=%t/small
// RUN: tpuc compile %s -o %t/wide.tpx
// RUN: tpuc-run %t/wide.tpx --random-inputs=5 --output-dir=%t/wide
// RUN: cmp %t/got/result0.npy %t/small/result0.npy
// RUN: cmp %t/got/result1.npy %t/small/result1.npy
// RUN: cmp %t/got/result0.npy %t/wide/result0.npy
// RUN: cmp %t/got/result1.npy %t/wide/result1.npy

func.func @main(%x: tensor<1024x256xf32>, %w: tensor<256x1024xf32>,
                %b: tensor<1024xf32>)
    -> (tensor<1024x1024xf32>, tensor<1024x1024xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<1024x1024xf32>
  %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<1024x256xf32>, tensor<256x1024xf32>) -> tensor<1024x1024xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [1] : (tensor<1024xf32>) -> tensor<1024x1024xf32>
  %s = hlo.add %d, %bb : tensor<1024x1024xf32>
  %r = hlo.maximum %s, %zero : tensor<1024x1024xf32>
  return %s, %r : tensor<1024x1024xf32>, tensor<1024x1024xf32>
}
