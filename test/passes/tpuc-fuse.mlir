// RUN: tpuc-opt %s --tpuc-fuse | FileCheck %s
// RUN: tpuc-opt %s --tpuc-fuse=vmem-budget=1024 | FileCheck %s --check-prefix=BUDGET
// RUN: tpuc-opt %s --tpuc-fuse=multi-output=false | FileCheck %s --check-prefix=NOMULTI
// Fused regions must still compute the same values (bit-identical in f32).
// RUN: tpuc-opt %s --tpuc-fuse -o %t.mlir
// RUN: tpuc interpret %s --function=siblings --random-inputs=3 --output-dir=%t.ref
// RUN: tpuc interpret %t.mlir --function=siblings --random-inputs=3 --output-dir=%t.fused
// RUN: cmp %t.ref/result0.npy %t.fused/result0.npy
// RUN: cmp %t.ref/result1.npy %t.fused/result1.npy

// CHECK-LABEL: func.func @loop
// CHECK-SAME: (%[[X:.+]]: tensor<8x128xf32>, %[[Y:.+]]: tensor<8x128xf32>, %[[B:.+]]: tensor<128xf32>)
// CHECK: %[[F:.+]] = hlo.fusion loop(%[[X]], %[[Y]], %[[B]])
// CHECK-NEXT: ^bb0(%[[FX:.+]]: tensor<8x128xf32>, %[[FY:.+]]: tensor<8x128xf32>, %[[FB:.+]]: tensor<128xf32>):
// CHECK-NEXT: %[[M:.+]] = hlo.multiply %[[FX]], %[[FY]]
// CHECK-NEXT: %[[BB:.+]] = hlo.broadcast_in_dim %[[FB]]
// CHECK-NEXT: %[[A:.+]] = hlo.add %[[M]], %[[BB]]
// CHECK-NEXT: hlo.return %[[A]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
// BUDGET-LABEL: func.func @loop
// BUDGET-NOT: hlo.fusion
// BUDGET: hlo.multiply
// BUDGET-NOT: hlo.fusion
// BUDGET: return
func.func @loop(%x: tensor<8x128xf32>, %y: tensor<8x128xf32>, %b: tensor<128xf32>) -> tensor<8x128xf32> {
  %m = hlo.multiply %x, %y : tensor<8x128xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [1] : (tensor<128xf32>) -> tensor<8x128xf32>
  %a = hlo.add %m, %bb : tensor<8x128xf32>
  return %a : tensor<8x128xf32>
}

// reduce_sum(x + y * z) is one kernel.
// CHECK-LABEL: func.func @input
// CHECK-NEXT: %[[F:.+]] = hlo.fusion input(
// CHECK: hlo.constant
// CHECK-NEXT: hlo.multiply
// CHECK-NEXT: hlo.add
// CHECK-NEXT: %[[R:.+]] = hlo.reduce
// CHECK: hlo.return %[[R]] : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @input(%x: tensor<8x128xf32>, %y: tensor<8x128xf32>, %z: tensor<8x128xf32>) -> tensor<8xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %m = hlo.multiply %y, %z : tensor<8x128xf32>
  %a = hlo.add %x, %m : tensor<8x128xf32>
  %r = hlo.reduce(%a) init(%zero) dims = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = hlo.add %p, %q : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<8xf32>
}

// Bias add, relu and convert form the dot's epilogue.
// CHECK-LABEL: func.func @output
// CHECK-NEXT: %[[F:.+]] = hlo.fusion output(
// CHECK: hlo.dot_general
// CHECK-NEXT: hlo.broadcast_in_dim
// CHECK-NEXT: hlo.add
// CHECK-NEXT: hlo.maximum
// CHECK-NEXT: %[[C:.+]] = hlo.convert
// CHECK-NEXT: hlo.return %[[C]] : tensor<8x128xbf16>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @output(%x: tensor<8x16xf32>, %w: tensor<16x128xf32>, %b: tensor<128xf32>) -> tensor<8x128xbf16> {
  %zero = hlo.constant dense<0.0> : tensor<8x128xf32>
  %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<8x16xf32>, tensor<16x128xf32>) -> tensor<8x128xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [1] : (tensor<128xf32>) -> tensor<8x128xf32>
  %a = hlo.add %d, %bb : tensor<8x128xf32>
  %r = hlo.maximum %a, %zero : tensor<8x128xf32>
  %c = hlo.convert %r : (tensor<8x128xf32>) -> tensor<8x128xbf16>
  return %c : tensor<8x128xbf16>
}

// Two reductions of the same 512 KiB input: one multi-output input fusion.
// CHECK-LABEL: func.func @siblings
// CHECK-NEXT: %[[F:.+]]:2 = hlo.fusion input(%{{.+}}) : (tensor<256x512xf32>) -> (tensor<256xf32>, tensor<256xf32>)
// CHECK: %[[S:.+]] = hlo.reduce
// CHECK: hlo.multiply
// CHECK: %[[S2:.+]] = hlo.reduce
// CHECK: hlo.return %[[S]], %[[S2]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]#0, %[[F]]#1
// NOMULTI-LABEL: func.func @siblings
// NOMULTI-NOT: hlo.fusion input(%{{.+}}) : (tensor<256x512xf32>) -> (tensor<256xf32>, tensor<256xf32>)
// NOMULTI: return
func.func @siblings(%x: tensor<256x512xf32>) -> (tensor<256xf32>, tensor<256xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %s = hlo.reduce(%x) init(%zero) dims = [1] : (tensor<256x512xf32>, tensor<f32>) -> tensor<256xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = hlo.add %p, %q : tensor<f32>
    hlo.return %t : tensor<f32>
  }
  %sq = hlo.multiply %x, %x : tensor<256x512xf32>
  %s2 = hlo.reduce(%sq) init(%zero) dims = [1] : (tensor<256x512xf32>, tensor<f32>) -> tensor<256xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = hlo.add %p, %q : tensor<f32>
    hlo.return %t : tensor<f32>
  }
  return %s, %s2 : tensor<256xf32>, tensor<256xf32>
}

// The dot's result is returned too, so it is not fused (a contraction is
// never duplicated); the bias add still fuses with its broadcast.
// CHECK-LABEL: func.func @dot_with_two_consumers
// CHECK-NEXT: %[[D:.+]] = hlo.dot_general
// CHECK-NEXT: %[[F:.+]] = hlo.fusion loop(%{{.+}}, %[[D]])
// CHECK-NOT: hlo.dot_general
// CHECK: return %[[D]], %[[F]]
func.func @dot_with_two_consumers(%x: tensor<8x16xf32>, %w: tensor<16x128xf32>, %b: tensor<128xf32>) -> (tensor<8x128xf32>, tensor<8x128xf32>) {
  %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<8x16xf32>, tensor<16x128xf32>) -> tensor<8x128xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [1] : (tensor<128xf32>) -> tensor<8x128xf32>
  %a = hlo.add %d, %bb : tensor<8x128xf32>
  return %d, %a : tensor<8x128xf32>, tensor<8x128xf32>
}

// exp on 128K elements runs once; both consumers share it in one kernel.
// CHECK-LABEL: func.func @expensive_not_duplicated
// CHECK-NEXT: %[[F:.+]]:2 = hlo.fusion loop
// CHECK: hlo.exponential
// CHECK-NOT: hlo.exponential
// CHECK: return %[[F]]#0, %[[F]]#1
func.func @expensive_not_duplicated(%x: tensor<256x512xf32>, %y: tensor<256x512xf32>) -> (tensor<256x512xf32>, tensor<256x512xf32>) {
  %e = hlo.exponential %x : tensor<256x512xf32>
  %a = hlo.add %e, %y : tensor<256x512xf32>
  %m = hlo.multiply %e, %y : tensor<256x512xf32>
  return %a, %m : tensor<256x512xf32>, tensor<256x512xf32>
}

// Fusing exp into the broadcast would compute it 64 times per element.
// CHECK-LABEL: func.func @no_recompute_into_broadcast
// CHECK-NEXT: %[[E:.+]] = hlo.exponential
// CHECK-NEXT: %[[F:.+]] = hlo.fusion loop(%[[E]], %{{.+}})
// CHECK-NOT: hlo.exponential
// CHECK: return %[[F]]
func.func @no_recompute_into_broadcast(%x: tensor<2048xf32>, %y: tensor<64x2048xf32>) -> tensor<64x2048xf32> {
  %e = hlo.exponential %x : tensor<2048xf32>
  %b = hlo.broadcast_in_dim %e, dims = [1] : (tensor<2048xf32>) -> tensor<64x2048xf32>
  %a = hlo.add %b, %y : tensor<64x2048xf32>
  return %a : tensor<64x2048xf32>
}

// A transpose of the two minor dims of a large array moves tiles: unfused.
// CHECK-LABEL: func.func @tile_moving_transpose
// CHECK-NOT: hlo.fusion
// CHECK: hlo.transpose
// CHECK-NEXT: hlo.add
// CHECK-NEXT: return
func.func @tile_moving_transpose(%x: tensor<512x256xf32>, %y: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %t = hlo.transpose %x, dims = [1, 0] : (tensor<512x256xf32>) -> tensor<256x512xf32>
  %a = hlo.add %t, %y : tensor<256x512xf32>
  return %a : tensor<256x512xf32>
}
