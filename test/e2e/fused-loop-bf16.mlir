// One loop kernel per hlo.fusion (passes/HloToTpu/FusedKernel.cpp): a
// bf16 chain of subtract, multiply, compare/select, maximum, divide and
// convert in one pass over the (8,128) tiles, with two outputs (one read
// back as the fusion's second result). The ops are IEEE-exact and the
// kernel rounds every bf16 intermediate as the interpreter does, so the
// results must match bit for bit (max relative error 0). Ragged shape:
// 20x300 pads both minor dims.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/f.tpu.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/f.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/f.tpu.mlir -o %t/f.tpx
// RUN: tpuc-run %t/f.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 2 0 | FileCheck %s
// CHECK: result0: ok shape=[20, 300]
// CHECK: result1: ok shape=[20, 300]
// A loop over the 3 tile rows, each row's 3 tiles unrolled: per tile one
// vload per input and one vstore per output.
// IR: tpu.loop
// IR-COUNT-2: tpu.vload
// IR-NOT: tpu.vload
// IR-COUNT-2: tpu.vstore
// IR-NOT: tpu.vstore
// IR: tpu.vload
// IR: tpu.vload
// IR-NOT: tpu.vload
// IR-COUNT-2: tpu.vstore
// IR-NOT: tpu.vstore
// IR: tpu.vload
// IR: tpu.vload
// IR-NOT: tpu.vload
// IR-COUNT-2: tpu.vstore
// IR-NOT: tpu.vstore
// IR: return

func.func @main(%x: tensor<20x300xbf16>, %y: tensor<20x300xbf16>) -> (tensor<20x300xbf16>, tensor<20x300xf32>) {
  %r:2 = hlo.fusion loop(%x, %y) : (tensor<20x300xbf16>, tensor<20x300xbf16>) -> (tensor<20x300xbf16>, tensor<20x300xf32>) {
  ^bb0(%a: tensor<20x300xbf16>, %b: tensor<20x300xbf16>):
    %zero = hlo.constant dense<0.0> : tensor<20x300xbf16>
    %three = hlo.constant dense<3.0> : tensor<20x300xbf16>
    %0 = hlo.subtract %a, %b : tensor<20x300xbf16>
    %1 = hlo.multiply %0, %a : tensor<20x300xbf16>
    %p = hlo.compare GT, %1, %zero : (tensor<20x300xbf16>, tensor<20x300xbf16>) -> tensor<20x300xi1>
    %2 = hlo.select %p, %1, %b : (tensor<20x300xi1>, tensor<20x300xbf16>, tensor<20x300xbf16>) -> tensor<20x300xbf16>
    %3 = hlo.maximum %2, %0 : tensor<20x300xbf16>
    %4 = hlo.divide %3, %three : tensor<20x300xbf16>
    %5 = hlo.add %4, %b : tensor<20x300xbf16>
    %6 = hlo.convert %5 : (tensor<20x300xbf16>) -> tensor<20x300xf32>
    %7 = hlo.multiply %6, %6 : tensor<20x300xf32>
    hlo.return %4, %7 : tensor<20x300xbf16>, tensor<20x300xf32>
  }
  return %r#0, %r#1 : tensor<20x300xbf16>, tensor<20x300xf32>
}
