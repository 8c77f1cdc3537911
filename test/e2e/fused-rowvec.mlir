// Per-row statistics as a layer norm and a softmax loss compute them
// (issue #11), through the whole `tpuc compile` pipeline with fusion: a
// reduce over the minor dim, the reshape to [.., N, 1] (lanes to
// sublanes, inside a loop fusion), a divide, and the lane broadcast back
// over the rows. Ragged [1,12,130,200] and [300,10] (a rank-1 [300]
// statistic). f32: the reduce sums in another order than the interpreter
// (tolerance 1e-5 of the largest output; the per-row results are exact up
// to that order).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=7 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 4 1e-5 | FileCheck %s
// CHECK: result0: ok shape=[1, 12, 130, 1]
// CHECK: result1: ok shape=[1, 12, 130, 200]
// CHECK: result2: ok shape=[300, 1]
// CHECK: result3: ok shape=[300, 10]
// mixed_bfloat16, against the interpreter on the program after the
// precision passes (the same tolerance: only the reduce order differs).
// RUN: tpuc compile %s --precision=mixed_bfloat16 --dump-dir=%t/dump -o %t/bf16.tpx
// RUN: tpuc-run %t/bf16.tpx --random-inputs=7 --output-dir=%t/got-bf16
// RUN: tpuc interpret %t/dump/00-hlo.mlir --random-inputs=7 --output-dir=%t/want-bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/got-bf16 %t/want-bf16 4 1e-5 | FileCheck %s
// The same without fusion: every reshape and broadcast its own kernel.
// RUN: tpuc compile %s --fusion=off -o %t/off.tpx
// RUN: tpuc-run %t/off.tpx --random-inputs=7 --output-dir=%t/got-off
// RUN: %python_numpy %S/Inputs/compare.py %t/got-off %t/want 4 1e-5 | FileCheck %s

func.func @main(%x: tensor<1x12x130x200xf32>, %y: tensor<300x10xf32>)
    -> (tensor<1x12x130x1xf32>, tensor<1x12x130x200xf32>, tensor<300x1xf32>,
        tensor<300x10xf32>) {
  %zero = hlo.constant dense<0.000000e+00> : tensor<f32>
  %n = hlo.constant dense<2.000000e+02> : tensor<1x12x130x1xf32>
  %s = hlo.reduce(%x) init(%zero) dims = [3] : (tensor<1x12x130x200xf32>, tensor<f32>) -> tensor<1x12x130xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = hlo.add %a, %b : tensor<f32>
    hlo.return %t : tensor<f32>
  }
  %s1 = hlo.reshape %s : (tensor<1x12x130xf32>) -> tensor<1x12x130x1xf32>
  %mean = hlo.divide %s1, %n : tensor<1x12x130x1xf32>
  %mr = hlo.reshape %mean : (tensor<1x12x130x1xf32>) -> tensor<1x12x130xf32>
  %mb = hlo.broadcast_in_dim %mr, dims = [0, 1, 2] : (tensor<1x12x130xf32>) -> tensor<1x12x130x200xf32>
  %c = hlo.subtract %x, %mb : tensor<1x12x130x200xf32>
  %r = hlo.reduce(%y) init(%zero) dims = [1] : (tensor<300x10xf32>, tensor<f32>) -> tensor<300xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = hlo.add %a, %b : tensor<f32>
    hlo.return %t : tensor<f32>
  }
  %r1 = hlo.reshape %r : (tensor<300xf32>) -> tensor<300x1xf32>
  %e = hlo.exponential %r1 : tensor<300x1xf32>
  %rb = hlo.broadcast_in_dim %r, dims = [0] : (tensor<300xf32>) -> tensor<300x10xf32>
  %d = hlo.subtract %y, %rb : tensor<300x10xf32>
  return %mean, %c, %e, %d : tensor<1x12x130x1xf32>, tensor<1x12x130x200xf32>, tensor<300x1xf32>, tensor<300x10xf32>
}
