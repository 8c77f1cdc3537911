// RUN: tpuc-opt %s --split-input-file --tpuc-expand-narrow-ints --verify-diagnostics | FileCheck %s

// s8 add computes in s32 and wraps: shifted left by 24 and back
// arithmetically (the convert into s8 wraps the same way).
// CHECK-LABEL: func.func @add
// CHECK: %[[C:.+]] = hlo.constant dense<24> : tensor<4xi32>
// CHECK: %[[L:.+]] = hlo.shift_left %{{.+}}, %[[C]] : tensor<4xi32>
// CHECK: %[[A:.+]] = hlo.shift_right_arithmetic %[[L]], %[[C]] : tensor<4xi32>
// CHECK: %[[S:.+]] = hlo.add %[[A]], %[[A]] : tensor<4xi32>
// CHECK: %[[C2:.+]] = hlo.constant dense<24> : tensor<4xi32>
// CHECK: %[[L2:.+]] = hlo.shift_left %[[S]], %[[C2]]
// CHECK: %[[W:.+]] = hlo.shift_right_arithmetic %[[L2]], %[[C2]]
// CHECK: return
// CHECK-NOT: i8
func.func @add(%a32: tensor<4xi32>) -> tensor<4xi32> {
  %a = hlo.convert %a32 : (tensor<4xi32>) -> tensor<4xi8>
  %s = hlo.add %a, %a : tensor<4xi8>
  %r = hlo.convert %s : (tensor<4xi8>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// u8 arithmetic shift: the operand's bits sign-extended first, the result
// masked to 8 bits; f32 to s16 saturates (clamp after the s32 convert).
// CHECK-LABEL: func.func @ushra
// CHECK: %[[M:.+]] = hlo.constant dense<255> : tensor<4xi32>
// CHECK: %[[U:.+]] = hlo.and %{{.+}}, %[[M]]
// CHECK: %[[SL:.+]] = hlo.shift_left %[[U]]
// CHECK: %[[SX:.+]] = hlo.shift_right_arithmetic %[[SL]]
// CHECK: %[[R:.+]] = hlo.shift_right_arithmetic %[[SX]], %[[U]] : tensor<4xi32>
// CHECK: hlo.and %[[R]], %{{.+}}
// CHECK: %[[F:.+]] = hlo.convert %{{.+}} : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-DAG: %[[HI:.+]] = hlo.constant dense<32767> : tensor<4xi32>
// CHECK-DAG: %[[LO:.+]] = hlo.constant dense<-32768> : tensor<4xi32>
// CHECK: hlo.clamp %[[LO]], %[[F]], %[[HI]]
func.func @ushra(%a32: tensor<4xi32>, %f: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %a = hlo.convert %a32 : (tensor<4xi32>) -> tensor<4xui8>
  %s = hlo.shift_right_arithmetic %a, %a : tensor<4xui8>
  %r = hlo.convert %s : (tensor<4xui8>) -> tensor<4xi32>
  %h = hlo.convert %f : (tensor<4xf32>) -> tensor<4xi16>
  %hr = hlo.convert %h : (tensor<4xi16>) -> tensor<4xi32>
  return %r, %hr : tensor<4xi32>, tensor<4xi32>
}

// -----

// A reducer stays one bare s32 add (the kernel's form); the reduce's
// result is wrapped.
// CHECK-LABEL: func.func @reduce
// CHECK: %[[I:.+]] = hlo.constant dense<-1> : tensor<i32>
// CHECK: %[[R:.+]] = hlo.reduce(%{{.+}}) init(%[[I]]) dims = [1] : (tensor<4x8xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT: ^bb0(%[[X:.+]]: tensor<i32>, %[[Y:.+]]: tensor<i32>):
// CHECK-NEXT: %[[S:.+]] = hlo.add %[[X]], %[[Y]] : tensor<i32>
// CHECK-NEXT: hlo.return %[[S]]
// CHECK: hlo.shift_left %[[R]]
func.func @reduce(%a32: tensor<4x8xi32>) -> tensor<4xi32> {
  %a = hlo.convert %a32 : (tensor<4x8xi32>) -> tensor<4x8xi8>
  %z = hlo.constant dense<-1> : tensor<i8>
  %red = hlo.reduce(%a) init(%z) dims = [1] : (tensor<4x8xi8>, tensor<i8>) -> tensor<4xi8> {
  ^bb0(%x: tensor<i8>, %y: tensor<i8>):
    %sum = hlo.add %x, %y : tensor<i8>
    hlo.return %sum : tensor<i8>
  }
  %r = hlo.convert %red : (tensor<4xi8>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// Entry parameters and results keep their types (converted where they
// enter and leave).
// CHECK-LABEL: func.func @entry
// CHECK-SAME: (%[[P:.+]]: tensor<4xui16>) -> tensor<4xui16>
// CHECK: %[[W:.+]] = hlo.convert %[[P]] : (tensor<4xui16>) -> tensor<4xi32>
// CHECK: %[[N:.+]] = hlo.not %[[W]] : tensor<4xi32>
// CHECK: %[[M:.+]] = hlo.and %[[N]], %{{.+}}
// CHECK: %[[R:.+]] = hlo.convert %[[M]] : (tensor<4xi32>) -> tensor<4xui16>
// CHECK: return %[[R]]
func.func @entry(%p: tensor<4xui16>) -> tensor<4xui16> {
  %n = hlo.not %p : tensor<4xui16>
  return %n : tensor<4xui16>
}

// -----

func.func @mulhi(%a: tensor<4xi32>) -> tensor<4xi32> {
  %n = hlo.convert %a : (tensor<4xi32>) -> tensor<4xi8>
  // expected-error @+1 {{tpuc does not compute 'hlo.mulhi' on 4-, 8- or 16-bit integers yet (docs/integers.md)}}
  %m = hlo.mulhi %n, %n : tensor<4xi8>
  %r = hlo.convert %m : (tensor<4xi8>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// An s8 dot that tpuc-expand-integer-contractions left for the VPU: the
// dot of the s32 values, wrapped to s8 (tpuc-strength-reduce-dots then
// makes it a multiply + reduce).
// CHECK-LABEL: func.func @dot
// CHECK: %[[D:.+]] = hlo.dot_general %{{.+}}, %{{.+}}, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<2x3xi32>, tensor<3x2xi32>) -> tensor<2x2xi32>
// CHECK: %[[C:.+]] = hlo.constant dense<24> : tensor<2x2xi32>
// CHECK: %[[L:.+]] = hlo.shift_left %[[D]], %[[C]]
// CHECK: hlo.shift_right_arithmetic %[[L]], %[[C]]
func.func @dot(%a: tensor<2x3xi8>, %b: tensor<3x2xi8>) -> tensor<2x2xi8> {
  %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}
