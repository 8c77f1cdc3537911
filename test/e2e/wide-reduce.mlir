// Reductions over the rows of arrays whose tile rows are longer than a
// VMEM slot (547 column tiles of f32 = 2.2 MiB per tile row): the leading
// and the all-dims reduce kernels stream column blocks of 256 tiles (two
// full blocks and a ragged one of 35 tiles, its last tile with 113 lanes),
// each block with its own accumulators, as a one-hot's logits [10, N] in
// their physical order need at N = 29,360,128. Cases: a column sum of
// x [10, 70001]; a column max of exp(x) * 2 (the producer fused into the
// reduce kernel under `tpuc compile`); the max of all of x; a sum over the
// middle dim of y [3, 10, 70001] (three slabs); an iota of x's shape
// (written in column blocks). Tolerance 1e-5 of the largest output (the
// kernels sum in another order than the interpreter; iota is exact).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s -o %t/wide.tpx
// RUN: tpuc translate --executable-to-text %t/wide.tpx -o - | FileCheck %s --check-prefix=EXE
// RUN: tpuc-run %t/wide.tpx --random-inputs=7 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 5 1e-5 0.999999 | FileCheck %s
// CHECK: result0: ok shape=[70001]
// CHECK: result1: ok shape=[70001]
// CHECK: result2: ok shape=[]
// CHECK: result3: ok shape=[3, 70001]
// CHECK: result4: ok shape=[10, 70001] max_abs=0
//
// Column blocks keep every kernel within VMEM; the column max reads x once
// and writes no [10, 70001] intermediate: the buffers are the two
// arguments and the five results.
// EXE: buffer 1 "arg1"
// EXE-NEXT: buffer 2 "result0"
// EXE: buffer 6 "result4"
// EXE-NEXT: hbm: arguments

func.func @wide(%x: tensor<10x70001xf32>, %y: tensor<3x10x70001xf32>) -> (tensor<70001xf32>, tensor<70001xf32>, tensor<f32>, tensor<3x70001xf32>, tensor<10x70001xi32>) {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %two = hlo.constant dense<2.0> : tensor<10x70001xf32>
  %s = hlo.reduce(%x) init(%zero) dims = [0] : (tensor<10x70001xf32>, tensor<f32>) -> tensor<70001xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.add %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %e = hlo.exponential %x : tensor<10x70001xf32>
  %e2 = hlo.multiply %e, %two : tensor<10x70001xf32>
  %m = hlo.reduce(%e2) init(%ninf) dims = [0] : (tensor<10x70001xf32>, tensor<f32>) -> tensor<70001xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.maximum %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %all = hlo.reduce(%x) init(%ninf) dims = [0, 1] : (tensor<10x70001xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.maximum %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %ys = hlo.reduce(%y) init(%zero) dims = [1] : (tensor<3x10x70001xf32>, tensor<f32>) -> tensor<3x70001xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = hlo.add %a, %b : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %i = hlo.iota dim = 1 : tensor<10x70001xi32>
  return %s, %m, %all, %ys, %i : tensor<70001xf32>, tensor<70001xf32>, tensor<f32>, tensor<3x70001xf32>, tensor<10x70001xi32>
}
