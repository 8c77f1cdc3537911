// Output fusions as one kernel (docs/codegen.md, "Output fusions") against
// the reference interpreter, through the whole `tpuc compile` pipeline:
// result0 relu(x @ w + b) (a [200] bias, ragged M, K and N), result1
// bf16(x2 @ w2 * 0.5 + r) (a same-shape residual streamed per result piece,
// a convert to bf16 in the epilogue), result2 a batched [3,20,70] x
// [3,70,130] dot minus a rank-0 scalar, result3 relu(conv + b) (3x3 NHWC,
// padding 1, a [20] bias on the features). Each is one `hlo.fusion output`
// whose epilogue runs on the MXU result tiles in VMEM.
// f32: the MXU rounds the operands to bf16 (DEFAULT precision): tolerance
// 2^-7 of the largest output (measured 2.0e-3, 5.7e-3 with the bf16
// result's own rounding, 1.9e-3, 2.0e-3).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s --emit=fused -o %t/fused.mlir
// RUN: FileCheck %s --check-prefix=FUSED < %t/fused.mlir
// FUSED-COUNT-4: hlo.fusion output
// FUSED-NOT: hlo.fusion
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 4 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[40, 200]
// CHECK: result1: ok shape=[40, 200]
// CHECK: result2: ok shape=[3, 20, 130]
// CHECK: result3: ok shape=[2, 9, 7, 20]
// mixed_bfloat16 against the interpreter on the program after the
// precision passes: the operands are bf16 (exact products, f32
// accumulation) and the epilogue rounds where the HLO converts, as the
// interpreter does: bit-identical (tolerance 0).
// RUN: tpuc compile %s --precision=mixed_bfloat16 --dump-dir=%t/dump -o %t/bf16.tpx
// RUN: FileCheck %s --check-prefix=FUSED < %t/dump/01-fused.mlir
// RUN: tpuc-run %t/bf16.tpx --random-inputs=5 --output-dir=%t/got-bf16
// RUN: tpuc interpret %t/dump/00-hlo.mlir --random-inputs=5 --output-dir=%t/want-bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/got-bf16 %t/want-bf16 4 0 | FileCheck %s --check-prefix=EXACT
// EXACT: result0: ok {{.*}} max_abs=0 max_rel=0
// EXACT: result1: ok {{.*}} max_abs=0 max_rel=0
// EXACT: result2: ok {{.*}} max_abs=0 max_rel=0
// EXACT: result3: ok {{.*}} max_abs=0 max_rel=0

func.func @main(%x: tensor<40x300xf32>, %w: tensor<300x200xf32>,
                %b: tensor<200xf32>, %x2: tensor<40x300xf32>,
                %w2: tensor<300x200xf32>, %r: tensor<40x200xf32>,
                %xb: tensor<3x20x70xf32>, %wb: tensor<3x70x130xf32>,
                %s: tensor<f32>, %img: tensor<2x9x7x13xf32>,
                %k: tensor<3x3x13x20xf32>, %cb: tensor<20xf32>)
    -> (tensor<40x200xf32>, tensor<40x200xbf16>, tensor<3x20x130xf32>,
        tensor<2x9x7x20xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<40x200xf32>
  %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<40x300xf32>, tensor<300x200xf32>) -> tensor<40x200xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [1] : (tensor<200xf32>) -> tensor<40x200xf32>
  %a = hlo.add %d, %bb : tensor<40x200xf32>
  %y1 = hlo.maximum %a, %zero : tensor<40x200xf32>
  %half = hlo.constant dense<0.5> : tensor<40x200xf32>
  %d2 = hlo.dot_general %x2, %w2, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<40x300xf32>, tensor<300x200xf32>) -> tensor<40x200xf32>
  %m2 = hlo.multiply %d2, %half : tensor<40x200xf32>
  %s2 = hlo.add %m2, %r : tensor<40x200xf32>
  %y2 = hlo.convert %s2 : (tensor<40x200xf32>) -> tensor<40x200xbf16>
  %d3 = hlo.dot_general %xb, %wb, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
      : (tensor<3x20x70xf32>, tensor<3x70x130xf32>) -> tensor<3x20x130xf32>
  %sb = hlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<3x20x130xf32>
  %y3 = hlo.subtract %d3, %sb : tensor<3x20x130xf32>
  %c = hlo.convolution %img, %k, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
      : (tensor<2x9x7x13xf32>, tensor<3x3x13x20xf32>) -> tensor<2x9x7x20xf32>
  %cbb = hlo.broadcast_in_dim %cb, dims = [3] : (tensor<20xf32>) -> tensor<2x9x7x20xf32>
  %ca = hlo.add %c, %cbb : tensor<2x9x7x20xf32>
  %czero = hlo.constant dense<0.0> : tensor<2x9x7x20xf32>
  %y4 = hlo.maximum %ca, %czero : tensor<2x9x7x20xf32>
  return %y1, %y2, %y3, %y4 : tensor<40x200xf32>, tensor<40x200xbf16>, tensor<3x20x130xf32>, tensor<2x9x7x20xf32>
}
