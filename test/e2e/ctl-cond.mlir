// hlo.conditional with a pred index (branch 0 when true) and with an s32
// index over three branches (out of range runs the last). The random s32
// index of seeds 11, 5, 4, 2 is 0, 1, 2, -7: every branch and out of
// range; the pred `index >= 0` takes both values. The index reaches a
// scalar register through SMEM; tpu.if branches on it and each branch
// copies its results into the conditional's buffers. Single f32
// operations: tolerance 0.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/cond.tpu.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/cond.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/cond.tpu.mlir -o %t/cond.tpx
// RUN: mkdir -p %t/got11 %t/want11
// RUN: tpuc-run %t/cond.tpx --random-inputs=11 --output-dir=%t/got11
// RUN: tpuc interpret %s --random-inputs=11 --output-dir=%t/want11
// RUN: %python_numpy %S/Inputs/compare.py %t/got11 %t/want11 2 0 | FileCheck %s
// RUN: mkdir -p %t/got5 %t/want5
// RUN: tpuc-run %t/cond.tpx --random-inputs=5 --output-dir=%t/got5
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want5
// RUN: %python_numpy %S/Inputs/compare.py %t/got5 %t/want5 2 0 | FileCheck %s
// RUN: mkdir -p %t/got4 %t/want4
// RUN: tpuc-run %t/cond.tpx --random-inputs=4 --output-dir=%t/got4
// RUN: tpuc interpret %s --random-inputs=4 --output-dir=%t/want4
// RUN: %python_numpy %S/Inputs/compare.py %t/got4 %t/want4 2 0 | FileCheck %s
// RUN: mkdir -p %t/got2 %t/want2
// RUN: tpuc-run %t/cond.tpx --random-inputs=2 --output-dir=%t/got2
// RUN: tpuc interpret %s --random-inputs=2 --output-dir=%t/want2
// RUN: %python_numpy %S/Inputs/compare.py %t/got2 %t/want2 2 0 | FileCheck %s
// CHECK: result0: ok shape=[3, 200] max_abs=0
// CHECK: result1: ok shape=[3, 200] max_abs=0
// TPU: tpu.if %{{.+}} : i64 {

func.func @main(%k: tensor<i32>, %x: tensor<3x200xf32>, %y: tensor<3x200xf32>)
    -> (tensor<3x200xf32>, tensor<3x200xf32>) {
  %zero = hlo.constant dense<0> : tensor<i32>
  %q = hlo.compare GE, %k, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r0 = hlo.conditional %q(%x, %y) : (tensor<i1>, tensor<3x200xf32>, tensor<3x200xf32>) -> tensor<3x200xf32> {
  ^bb0(%a: tensor<3x200xf32>):
    %n = hlo.negate %a : tensor<3x200xf32>
    hlo.return %n : tensor<3x200xf32>
  }, {
  ^bb0(%a: tensor<3x200xf32>):
    %e = hlo.exponential %a : tensor<3x200xf32>
    hlo.return %e : tensor<3x200xf32>
  }
  %r1 = hlo.conditional %k(%x, %y, %x) : (tensor<i32>, tensor<3x200xf32>, tensor<3x200xf32>, tensor<3x200xf32>) -> tensor<3x200xf32> {
  ^bb0(%a: tensor<3x200xf32>):
    hlo.return %a : tensor<3x200xf32>
  }, {
  ^bb0(%a: tensor<3x200xf32>):
    %m = hlo.multiply %a, %a : tensor<3x200xf32>
    hlo.return %m : tensor<3x200xf32>
  }, {
  ^bb0(%a: tensor<3x200xf32>):
    %s = hlo.add %a, %a : tensor<3x200xf32>
    hlo.return %s : tensor<3x200xf32>
  }
  return %r0, %r1 : tensor<3x200xf32>, tensor<3x200xf32>
}
