// hlo.while with a tuple state (an s32 counter and two f32[10,130] arrays,
// ragged) and an hlo.call left in the body (the test skips --inline): the
// state lives in fixed HBM buffers, the condition's pred reaches a scalar
// register through SMEM, and the body's results are copied back into the
// state (the swap `a <- b` goes through a saved copy). Seven iterations of
// (a, b) <- (b, (a + b) * 0.5), then a second loop (no tuple) of five
// iterations of acc <- acc * 0.5 + x, whose results are written into the
// state in place (nothing reads the old state after they are computed).
// The same f32 operations in the same order on both sides: tolerance 0.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/while.tpu.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/while.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/while.tpu.mlir -o %t/while.tpx
// RUN: tpuc-run %t/while.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 4 0 | FileCheck %s
// CHECK: result0: ok shape=[10, 130] max_abs=0
// CHECK: result1: ok shape=[10, 130] max_abs=0
// CHECK: result2: ok shape=[] max_abs=0
// CHECK: result3: ok shape=[10, 130] max_abs=0
// TPU: tpu.while {
// TPU: tpu.dma %{{.+}} -> %{{.+}} chunks = 1 chunk_bytes = 4 {{.*}} -> memref<1xi32, #tpu.memory_space<smem>>
// TPU: %[[F:.+]] = tpu.sload
// TPU-NEXT: tpu.condition %[[F]] : i64
// TPU: } do {

!state = tuple<tensor<i32>, tensor<10x130xf32>, tensor<10x130xf32>>
!pair = tuple<tensor<10x130xf32>, tensor<10x130xf32>>

func.func private @step(%a: tensor<10x130xf32>, %b: tensor<10x130xf32>) -> !pair {
  %s = hlo.add %a, %b : tensor<10x130xf32>
  %t = hlo.tuple %b, %s : (tensor<10x130xf32>, tensor<10x130xf32>) -> !pair
  return %t : !pair
}

func.func @main(%x: tensor<10x130xf32>, %y: tensor<10x130xf32>)
    -> (tensor<10x130xf32>, tensor<10x130xf32>, tensor<i32>, tensor<10x130xf32>) {
  %zero = hlo.constant dense<0> : tensor<i32>
  %init = hlo.tuple %zero, %x, %y : (tensor<i32>, tensor<10x130xf32>, tensor<10x130xf32>) -> !state
  %w = hlo.while(%init) : !state cond {
  ^bb0(%s: !state):
    %i = hlo.get_tuple_element %s[0] : (!state) -> tensor<i32>
    %n = hlo.constant dense<7> : tensor<i32>
    %lt = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } do {
  ^bb0(%s: !state):
    %i = hlo.get_tuple_element %s[0] : (!state) -> tensor<i32>
    %a = hlo.get_tuple_element %s[1] : (!state) -> tensor<10x130xf32>
    %b = hlo.get_tuple_element %s[2] : (!state) -> tensor<10x130xf32>
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %c = hlo.call @step(%a, %b) : (tensor<10x130xf32>, tensor<10x130xf32>) -> !pair
    %na = hlo.get_tuple_element %c[0] : (!pair) -> tensor<10x130xf32>
    %nb = hlo.get_tuple_element %c[1] : (!pair) -> tensor<10x130xf32>
    %half = hlo.constant dense<0.5> : tensor<10x130xf32>
    %nb2 = hlo.multiply %nb, %half : tensor<10x130xf32>
    %r = hlo.tuple %i1, %na, %nb2 : (tensor<i32>, tensor<10x130xf32>, tensor<10x130xf32>) -> !state
    hlo.return %r : !state
  }
  %ra = hlo.get_tuple_element %w[1] : (!state) -> tensor<10x130xf32>
  %rb = hlo.get_tuple_element %w[2] : (!state) -> tensor<10x130xf32>
  %ri = hlo.get_tuple_element %w[0] : (!state) -> tensor<i32>
  %v:3 = hlo.while(%zero, %y, %x) : tensor<i32>, tensor<10x130xf32>, tensor<10x130xf32> cond {
  ^bb0(%i: tensor<i32>, %acc: tensor<10x130xf32>, %in: tensor<10x130xf32>):
    %n = hlo.constant dense<5> : tensor<i32>
    %lt = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %acc: tensor<10x130xf32>, %in: tensor<10x130xf32>):
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %half = hlo.constant dense<0.5> : tensor<10x130xf32>
    %h = hlo.multiply %acc, %half : tensor<10x130xf32>
    %acc1 = hlo.add %h, %in : tensor<10x130xf32>
    hlo.return %i1, %acc1, %in : tensor<i32>, tensor<10x130xf32>, tensor<10x130xf32>
  }
  return %ra, %rb, %ri, %v#1 : tensor<10x130xf32>, tensor<10x130xf32>, tensor<i32>, tensor<10x130xf32>
}
