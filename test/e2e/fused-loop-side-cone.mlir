// Loop and input fusions whose broadcasts read per-column vectors the fusion
// computes from its parameters (docs/codegen.md, "Fused kernels", side
// cones) against the reference interpreter: result0 a loop fusion
// (x + (b * s + b)) * |s| (an f32[200] rank-1 chain and a [1,200] one,
// ragged column tiles); result1 an input fusion, batch-norm-like
// sum over H, W of (y * rsqrt(var^2 + eps) - mean * rsqrt(...)) with
// bf16[64] parameters reshaped to [1,1,1,64] (bf16 rounding after each
// op), its operand converted to f32. Each kernel computes the cones in
// VMEM from the parameters: no HBM temporary holds a column vector.
// Results are bit-identical to the interpreter's (tolerance 0) in f32 and
// mixed_bfloat16.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s --emit=fused -o %t/fused.mlir
// RUN: FileCheck %s --check-prefix=FUSED < %t/fused.mlir
// FUSED: hlo.fusion input
// FUSED: hlo.fusion loop
// FUSED-NOT: hlo.fusion
// RUN: tpuc compile %s --emit=tpu -o %t/f32.tpu.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/f32.tpu.mlir
// TPU-LABEL: func.func @main
// TPU-NOT: tpu.alloc {{.*}}memref<{{(1x)*(64|200)}}x{{(f32|bf16)}},{{.*}}hbm
// TPU: return
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 2 0 | FileCheck %s
// CHECK: result0: ok shape=[40, 200] max_abs=0 max_rel=0
// CHECK: result1: ok shape=[2, 64] max_abs=0 max_rel=0
// RUN: tpuc compile %s --precision=mixed_bfloat16 --dump-dir=%t/dump -o %t/bf16.tpx
// RUN: tpuc compile %s --precision=mixed_bfloat16 --emit=tpu -o %t/bf16.tpu.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/bf16.tpu.mlir
// RUN: tpuc-run %t/bf16.tpx --random-inputs=5 --output-dir=%t/got-bf16
// RUN: tpuc interpret %t/dump/00-hlo.mlir --random-inputs=5 --output-dir=%t/want-bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/got-bf16 %t/want-bf16 2 0 | FileCheck %s

func.func @main(%x: tensor<40x200xf32>, %b: tensor<200xf32>, %s: tensor<200xf32>,
                %y: tensor<2x7x9x64xbf16>, %mean: tensor<64xbf16>, %var: tensor<64xbf16>)
    -> (tensor<40x200xf32>, tensor<2x64xf32>) {
  %bs = hlo.multiply %b, %s : tensor<200xf32>
  %bs2 = hlo.add %bs, %b : tensor<200xf32>
  %bsb = hlo.broadcast_in_dim %bs2, dims = [1] : (tensor<200xf32>) -> tensor<40x200xf32>
  %s2 = hlo.reshape %s : (tensor<200xf32>) -> tensor<1x200xf32>
  %sa = hlo.abs %s2 : tensor<1x200xf32>
  %sab = hlo.broadcast_in_dim %sa, dims = [0, 1] : (tensor<1x200xf32>) -> tensor<40x200xf32>
  %e = hlo.add %x, %bsb : tensor<40x200xf32>
  %r0 = hlo.multiply %e, %sab : tensor<40x200xf32>
  %m4 = hlo.reshape %mean : (tensor<64xbf16>) -> tensor<1x1x1x64xbf16>
  %v4 = hlo.reshape %var : (tensor<64xbf16>) -> tensor<1x1x1x64xbf16>
  %vv = hlo.multiply %v4, %v4 : tensor<1x1x1x64xbf16>
  %eps = hlo.constant dense<1.0e-2> : tensor<1x1x1x64xbf16>
  %ve = hlo.add %vv, %eps : tensor<1x1x1x64xbf16>
  %r = hlo.rsqrt %ve : tensor<1x1x1x64xbf16>
  %sh = hlo.multiply %m4, %r : tensor<1x1x1x64xbf16>
  %rr = hlo.reshape %r : (tensor<1x1x1x64xbf16>) -> tensor<1x64xbf16>
  %rb = hlo.broadcast_in_dim %rr, dims = [0, 3] : (tensor<1x64xbf16>) -> tensor<2x7x9x64xbf16>
  %sh2 = hlo.reshape %sh : (tensor<1x1x1x64xbf16>) -> tensor<1x64xbf16>
  %shb = hlo.broadcast_in_dim %sh2, dims = [0, 3] : (tensor<1x64xbf16>) -> tensor<2x7x9x64xbf16>
  %yn = hlo.multiply %y, %rb : tensor<2x7x9x64xbf16>
  %yc = hlo.subtract %yn, %shb : tensor<2x7x9x64xbf16>
  %ycf = hlo.convert %yc : (tensor<2x7x9x64xbf16>) -> tensor<2x7x9x64xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %r1 = hlo.reduce(%ycf) init(%zero) dims = [1, 2] : (tensor<2x7x9x64xf32>, tensor<f32>) -> tensor<2x64xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %a = hlo.add %p, %q : tensor<f32>
    hlo.return %a : tensor<f32>
  }
  return %r0, %r1 : tensor<40x200xf32>, tensor<2x64xf32>
}
