// RUN: tpuc-opt %s --tpuc-float-normalization | FileCheck %s
// RUN: tpuc-opt %s --tpuc-float-normalization=target=tpu-v5e | FileCheck %s --check-prefix=V5E
// RUN: not tpuc-opt %s --tpuc-float-normalization=target=tpu-v9 2>&1 | FileCheck %s --check-prefix=BAD
// The interpreter rounds bf16 after every op, so computing in f32 between
// converts gives bit-identical results.
// RUN: tpuc-opt %s --tpuc-float-normalization -o %t.mlir
// RUN: tpuc interpret %s --function=f --random-inputs=5 --output-dir=%t.ref
// RUN: tpuc interpret %t.mlir --function=f --random-inputs=5 --output-dir=%t.norm
// RUN: cmp %t.ref/result0.npy %t.norm/result0.npy

// BAD: unknown target 'tpu-v9'

// On tpu-v3 exp, log and divide go through f32; add stays bf16. The
// rounding between exp and log stays (a narrowing round trip).
// CHECK-LABEL: func.func @f
// CHECK-SAME: (%[[X:.+]]: tensor<8xbf16>, %[[Y:.+]]: tensor<8xbf16>)
// CHECK-NEXT: %[[XF:.+]] = hlo.convert %[[X]] : (tensor<8xbf16>) -> tensor<8xf32>
// CHECK-NEXT: %[[E:.+]] = hlo.exponential %[[XF]] : tensor<8xf32>
// CHECK-NEXT: %[[EB:.+]] = hlo.convert %[[E]] : (tensor<8xf32>) -> tensor<8xbf16>
// CHECK-NEXT: %[[EF:.+]] = hlo.convert %[[EB]] : (tensor<8xbf16>) -> tensor<8xf32>
// CHECK-NEXT: %[[L:.+]] = hlo.log %[[EF]] : tensor<8xf32>
// CHECK-NEXT: %[[LB:.+]] = hlo.convert %[[L]] : (tensor<8xf32>) -> tensor<8xbf16>
// CHECK-NEXT: %[[A:.+]] = hlo.add %[[LB]], %[[Y]] : tensor<8xbf16>
// CHECK-DAG: %[[AF:.+]] = hlo.convert %[[A]] : (tensor<8xbf16>) -> tensor<8xf32>
// CHECK-DAG: %[[YF:.+]] = hlo.convert %[[Y]] : (tensor<8xbf16>) -> tensor<8xf32>
// CHECK: %[[D:.+]] = hlo.divide %[[AF]], %[[YF]] : tensor<8xf32>
// CHECK-NEXT: %[[DB:.+]] = hlo.convert %[[D]] : (tensor<8xf32>) -> tensor<8xbf16>
// CHECK-NEXT: return %[[DB]]

// f32 ops are left alone.
// CHECK-LABEL: func.func @already_f32
// CHECK-NOT: hlo.convert
// CHECK: return

// v5e computes bf16 transcendentals and divide itself.
// V5E-LABEL: func.func @f
// V5E-NOT: hlo.convert
// V5E: return
func.func @f(%x: tensor<8xbf16>, %y: tensor<8xbf16>) -> tensor<8xbf16> {
  %e = hlo.exponential %x : tensor<8xbf16>
  %l = hlo.log %e : tensor<8xbf16>
  %a = hlo.add %l, %y : tensor<8xbf16>
  %d = hlo.divide %a, %y : tensor<8xbf16>
  return %d : tensor<8xbf16>
}
func.func @already_f32(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = hlo.exponential %x : tensor<8xf32>
  return %e : tensor<8xf32>
}
