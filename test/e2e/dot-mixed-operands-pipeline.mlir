// mixed_bfloat16 through the whole `tpuc compile` pipeline: dots of a bf16
// activation (a relu computed in bf16) and an f32 parameter. The policy
// converts the parameter to bf16 for the MXU; tpuc-split-convolution-
// precision has the dot read the f32 value instead (the kernel rounds it
// the same way), so the fusion lowering writes no converted bf16 copy of
// the weight to HBM: none of the weights' bf16 shapes is allocated.
//   result0: relu(relu(x) @ w + b), an output fusion (ragged M, K, N)
//   result1: relu(x) @ wt^T (a transposed f32 rhs)
//   result2: wl @ relu(x)^T (the f32 operand on the left)
//   result3: relu(g)^T @ dy (a transposed bf16 lhs, the weight gradient)
//   result4: a batched dot
// Against the interpreter on the program after the precision passes (bf16
// converts, exact products, f32 accumulation): within the last f32 ulps
// of the accumulation order, 2^-20 of the largest output (measured
// <= 1.2e-7; the kernels that read the converted copies gave the same
// bits, result0 exact).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s --precision=mixed_bfloat16 --dump-dir=%t/dump -o %t/bf16.tpx
// RUN: tpuc-run %t/bf16.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %t/dump/00-hlo.mlir --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 5 9.5367431640625e-07 | FileCheck %s
// RUN: FileCheck %s --check-prefix=COPY < %t/dump/02-tpu.mlir
// COPY-NOT: memref<300x200xbf16
// COPY-NOT: memref<256x300xbf16
// COPY-NOT: memref<200x300xbf16
// COPY-NOT: memref<256x136xbf16
// COPY-NOT: memref<3x70x130xbf16
// COPY: memref<40x300xbf16
// COPY-NOT: memref<300x200xbf16
// COPY-NOT: memref<256x300xbf16
// COPY-NOT: memref<200x300xbf16
// COPY-NOT: memref<256x136xbf16
// COPY-NOT: memref<3x70x130xbf16
// CHECK: result0: ok shape=[40, 200]
// CHECK: result1: ok shape=[40, 256]
// CHECK: result2: ok shape=[200, 40]
// CHECK: result3: ok shape=[128, 136]
// CHECK: result4: ok shape=[3, 20, 130]

func.func @main(%x: tensor<40x300xf32>, %w: tensor<300x200xf32>, %b: tensor<200xf32>,
                %wt: tensor<256x300xf32>, %wl: tensor<200x300xf32>,
                %g: tensor<256x128xf32>, %dy: tensor<256x136xf32>,
                %xb: tensor<3x20x70xf32>, %wb: tensor<3x70x130xf32>)
    -> (tensor<40x200xf32>, tensor<40x256xf32>, tensor<200x40xf32>, tensor<128x136xf32>, tensor<3x20x130xf32>) {
  %z = hlo.constant dense<0.0> : tensor<40x300xf32>
  %a = hlo.maximum %x, %z : tensor<40x300xf32>
  %0 = hlo.dot_general %a, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<40x300xf32>, tensor<300x200xf32>) -> tensor<40x200xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [1] : (tensor<200xf32>) -> tensor<40x200xf32>
  %1 = hlo.add %0, %bb : tensor<40x200xf32>
  %z2 = hlo.constant dense<0.0> : tensor<40x200xf32>
  %2 = hlo.maximum %1, %z2 : tensor<40x200xf32>
  %3 = hlo.dot_general %a, %wt, dims = <lhs_contracting = [1], rhs_contracting = [1]> : (tensor<40x300xf32>, tensor<256x300xf32>) -> tensor<40x256xf32>
  %4 = hlo.dot_general %wl, %a, dims = <lhs_contracting = [1], rhs_contracting = [1]> : (tensor<200x300xf32>, tensor<40x300xf32>) -> tensor<200x40xf32>
  %zg = hlo.constant dense<0.0> : tensor<256x128xf32>
  %ga = hlo.maximum %g, %zg : tensor<256x128xf32>
  %5 = hlo.dot_general %ga, %dy, dims = <lhs_contracting = [0], rhs_contracting = [0]> : (tensor<256x128xf32>, tensor<256x136xf32>) -> tensor<128x136xf32>
  %zb = hlo.constant dense<0.0> : tensor<3x20x70xf32>
  %xa = hlo.maximum %xb, %zb : tensor<3x20x70xf32>
  %6 = hlo.dot_general %xa, %wb, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]> : (tensor<3x20x70xf32>, tensor<3x70x130xf32>) -> tensor<3x20x130xf32>
  return %2, %3, %4, %5, %6 : tensor<40x200xf32>, tensor<40x256xf32>, tensor<200x40xf32>, tensor<128x136xf32>, tensor<3x20x130xf32>
}
