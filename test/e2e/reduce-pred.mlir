// and/or reductions over pred (stored as s32 0/1: and is a VMIN, or a
// VMAX, with identities 1 and 0), as dlrm's reduce_and over [N,1]; pred
// results are converted to s32 to be returned. Exact: tolerance 0.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-decompose-reductions --tpuc-convert-hlo-to-tpu -o %t/r.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/r.tpu.mlir -o %t/r.tpx
// RUN: tpuc-run %t/r.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 3 0 1 | FileCheck %s
// CHECK: result0: ok shape=[37]
// CHECK: result1: ok shape=[37]
// CHECK: result2: ok shape=[37]

func.func @pred(%x: tensor<37x2xf32>, %y: tensor<37x1xf32>) -> (tensor<37xi32>, tensor<37xi32>, tensor<37xi32>) {
  %c = hlo.constant dense<-0.2> : tensor<37x2xf32>
  %zero = hlo.constant dense<0.0> : tensor<37x1xf32>
  %t = hlo.constant dense<true> : tensor<i1>
  %f = hlo.constant dense<false> : tensor<i1>
  %p = hlo.compare GT, %x, %c : (tensor<37x2xf32>, tensor<37x2xf32>) -> tensor<37x2xi1>
  %q = hlo.compare LT, %y, %zero : (tensor<37x1xf32>, tensor<37x1xf32>) -> tensor<37x1xi1>
  %a = hlo.reduce(%p) init(%t) dims = [1] : (tensor<37x2xi1>, tensor<i1>) -> tensor<37xi1> {
  ^bb0(%u: tensor<i1>, %v: tensor<i1>):
    %0 = hlo.and %u, %v : tensor<i1>
    hlo.return %0 : tensor<i1>
  }
  %o = hlo.reduce(%p) init(%f) dims = [1] : (tensor<37x2xi1>, tensor<i1>) -> tensor<37xi1> {
  ^bb0(%u: tensor<i1>, %v: tensor<i1>):
    %0 = hlo.or %u, %v : tensor<i1>
    hlo.return %0 : tensor<i1>
  }
  %n = hlo.reduce(%q) init(%t) dims = [1] : (tensor<37x1xi1>, tensor<i1>) -> tensor<37xi1> {
  ^bb0(%u: tensor<i1>, %v: tensor<i1>):
    %0 = hlo.and %u, %v : tensor<i1>
    hlo.return %0 : tensor<i1>
  }
  %ai = hlo.convert %a : (tensor<37xi1>) -> tensor<37xi32>
  %oi = hlo.convert %o : (tensor<37xi1>) -> tensor<37xi32>
  %ni = hlo.convert %n : (tensor<37xi1>) -> tensor<37xi32>
  return %ai, %oi, %ni : tensor<37xi32>, tensor<37xi32>, tensor<37xi32>
}
