// Output fusions whose epilogue broadcasts per-column vectors the fusion
// computes from its parameters (docs/codegen.md, "Output fusions", side
// cones) against the reference interpreter: result0 batch norm after a
// 3x3 NHWC convolution, relu(conv * (rsqrt(var^2 + eps) * gamma) +
// (beta - mean * scale)) with f32[64] parameters reshaped to [1,1,1,64]
// (resnet50's chain; 64 columns, half a lane tile); result1 a dot with a
// rank-1 bias chain (b * s + b, f32[200], ragged column tiles), a [1,200]
// scale |s| and a bf16[200] chain (h * g + h, rounded to bf16 after each
// op) converted to f32. The contraction's kernel computes each cone in
// VMEM from its parameters: no HBM temporary holds a column vector.
// f32: tolerance 2^-7 of the largest output (the MXU rounds operands to
// bf16; measured 1.5e-3, 1.9e-3).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s --emit=fused -o %t/fused.mlir
// RUN: FileCheck %s --check-prefix=FUSED < %t/fused.mlir
// FUSED-COUNT-2: hlo.fusion output
// FUSED-NOT: hlo.fusion
// RUN: tpuc compile %s --emit=tpu -o %t/f32.tpu.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/f32.tpu.mlir
// TPU-LABEL: func.func @main
// TPU-NOT: tpu.alloc {{.*}}memref<{{(1x)*(64|200)}}x{{(f32|bf16)}},{{.*}}hbm
// TPU: return
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 2 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[2, 9, 7, 64]
// CHECK: result1: ok shape=[40, 200]
// mixed_bfloat16 (the chains become bf16, rsqrt in f32 between converts)
// against the interpreter on the program after the precision passes:
// bit-identical (tolerance 0), and no HBM temporaries either.
// RUN: tpuc compile %s --precision=mixed_bfloat16 --dump-dir=%t/dump -o %t/bf16.tpx
// RUN: FileCheck %s --check-prefix=FUSED < %t/dump/01-fused.mlir
// RUN: tpuc compile %s --precision=mixed_bfloat16 --emit=tpu -o %t/bf16.tpu.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/bf16.tpu.mlir
// RUN: tpuc-run %t/bf16.tpx --random-inputs=5 --output-dir=%t/got-bf16
// RUN: tpuc interpret %t/dump/00-hlo.mlir --random-inputs=5 --output-dir=%t/want-bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/got-bf16 %t/want-bf16 2 0 | FileCheck %s --check-prefix=EXACT
// EXACT: result0: ok {{.*}} max_abs=0 max_rel=0
// EXACT: result1: ok {{.*}} max_abs=0 max_rel=0

func.func @main(%img: tensor<2x9x7x13xf32>, %k: tensor<3x3x13x64xf32>,
                %mean: tensor<64xf32>, %var: tensor<64xf32>,
                %gamma: tensor<64xf32>, %beta: tensor<64xf32>,
                %x: tensor<40x300xf32>, %w: tensor<300x200xf32>,
                %b: tensor<200xf32>, %s: tensor<200xf32>,
                %h: tensor<200xbf16>, %g: tensor<200xbf16>)
    -> (tensor<2x9x7x64xf32>, tensor<40x200xf32>) {
  %c = hlo.convolution %img, %k, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
      : (tensor<2x9x7x13xf32>, tensor<3x3x13x64xf32>) -> tensor<2x9x7x64xf32>
  %m4 = hlo.reshape %mean : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
  %v4 = hlo.reshape %var : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
  %vv = hlo.multiply %v4, %v4 : tensor<1x1x1x64xf32>
  %eps = hlo.constant dense<1.0e-3> : tensor<1x1x1x64xf32>
  %ve = hlo.add %vv, %eps : tensor<1x1x1x64xf32>
  %r = hlo.rsqrt %ve : tensor<1x1x1x64xf32>
  %g4 = hlo.reshape %gamma : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
  %sc = hlo.multiply %r, %g4 : tensor<1x1x1x64xf32>
  %sc2 = hlo.reshape %sc : (tensor<1x1x1x64xf32>) -> tensor<1x64xf32>
  %scb = hlo.broadcast_in_dim %sc2, dims = [0, 3] : (tensor<1x64xf32>) -> tensor<2x9x7x64xf32>
  %y = hlo.multiply %c, %scb : tensor<2x9x7x64xf32>
  %nm = hlo.negate %m4 : tensor<1x1x1x64xf32>
  %t1 = hlo.multiply %nm, %sc : tensor<1x1x1x64xf32>
  %b4 = hlo.reshape %beta : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
  %sh = hlo.add %t1, %b4 : tensor<1x1x1x64xf32>
  %sh2 = hlo.reshape %sh : (tensor<1x1x1x64xf32>) -> tensor<1x64xf32>
  %shb = hlo.broadcast_in_dim %sh2, dims = [0, 3] : (tensor<1x64xf32>) -> tensor<2x9x7x64xf32>
  %z = hlo.add %y, %shb : tensor<2x9x7x64xf32>
  %czero = hlo.constant dense<0.0> : tensor<2x9x7x64xf32>
  %y0 = hlo.maximum %z, %czero : tensor<2x9x7x64xf32>
  %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<40x300xf32>, tensor<300x200xf32>) -> tensor<40x200xf32>
  %bs = hlo.multiply %b, %s : tensor<200xf32>
  %bs2 = hlo.add %bs, %b : tensor<200xf32>
  %bsb = hlo.broadcast_in_dim %bs2, dims = [1] : (tensor<200xf32>) -> tensor<40x200xf32>
  %e = hlo.add %d, %bsb : tensor<40x200xf32>
  %s2 = hlo.reshape %s : (tensor<200xf32>) -> tensor<1x200xf32>
  %sa = hlo.abs %s2 : tensor<1x200xf32>
  %sab = hlo.broadcast_in_dim %sa, dims = [0, 1] : (tensor<1x200xf32>) -> tensor<40x200xf32>
  %f = hlo.multiply %e, %sab : tensor<40x200xf32>
  %hg = hlo.multiply %h, %g : tensor<200xbf16>
  %hg2 = hlo.add %hg, %h : tensor<200xbf16>
  %hg32 = hlo.convert %hg2 : (tensor<200xbf16>) -> tensor<200xf32>
  %hgb = hlo.broadcast_in_dim %hg32, dims = [1] : (tensor<200xf32>) -> tensor<40x200xf32>
  %y1 = hlo.subtract %f, %hgb : tensor<40x200xf32>
  return %y0, %y1 : tensor<2x9x7x64xf32>, tensor<40x200xf32>
}
