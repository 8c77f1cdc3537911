// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu | FileCheck %s

// while over a tuple (ControlFlow.cpp): the tuple is bookkeeping (its
// leaves' buffers), the state is copied into fixed HBM buffers once; the
// condition's pred goes HBM -> SMEM and to a scalar register (sload) that
// tpu.condition branches on; the body's kernels are emitted inside
// tpu.while's do region and write the next state into the state buffers.
// CHECK-LABEL: func.func @main
// CHECK: %[[ZERO:.+]] = tpu.alloc init dense<0> : tensor<i32>
// CHECK: %[[I:.+]] = tpu.alloc {{.*}}memref<i32
// CHECK: %[[X:.+]] = tpu.alloc {{.*}}memref<8x128xf32
// CHECK: %[[P:.+]] = tpu.alloc : memref<1xi32, #tpu.memory_space<smem>>
// CHECK: tpu.dma %[[ZERO]]{{.*}} -> %[[I]]
// CHECK: tpu.dma %arg0{{.*}} -> %[[X]]
// CHECK: tpu.sem_wait 0, 2
// CHECK: tpu.while {
// CHECK: tpu.dma %[[I]]
// CHECK: tpu.vcmp lt
// CHECK: -> %[[P]]
// CHECK: %[[C:.+]] = tpu.sload %[[P]]
// CHECK: tpu.condition %[[C]]
// CHECK: } do {
// CHECK: tpu.vadd
// CHECK: -> %[[I]]
// CHECK: tpu.dma %[[X]]
// CHECK: tpu.vexp
// CHECK: -> %[[X]]
// CHECK: tpu.yield
// CHECK: }
// CHECK: return %[[X]]
func.func @main(%arg0: tensor<8x128xf32>) -> (tensor<8x128xf32>) {
  %0 = hlo.constant dense<1> : tensor<i32>
  %1 = hlo.constant dense<4> : tensor<i32>
  %2 = hlo.constant dense<0> : tensor<i32>
  %3:2 = hlo.while(%2, %arg0) : tensor<i32>, tensor<8x128xf32> cond {
  ^bb0(%arg1: tensor<i32>, %arg2: tensor<8x128xf32>):
    %4 = hlo.compare LT, %arg1, %1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %4 : tensor<i1>
  } do {
  ^bb0(%arg1: tensor<i32>, %arg2: tensor<8x128xf32>):
    %4 = hlo.add %arg1, %0 : tensor<i32>
    %5 = hlo.exponential %arg2 : tensor<8x128xf32>
    hlo.return %4, %5 : tensor<i32>, tensor<8x128xf32>
  }
  return %3#1 : tensor<8x128xf32>
}

