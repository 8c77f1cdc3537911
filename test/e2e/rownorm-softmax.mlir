// Softmax over the minor dim of [100,300] (rows not a multiple of 8,
// columns not a multiple of 128): max, sum(exp(x - max)), exp(x - max) / sum
// in one row-resident kernel (fusion::rowResidentKernel; RowKernel,
// FusedKernel.cpp), f32 and bf16 input. Compared with the interpreter:
// f32 1e-5, the bf16 program 2e-2 (its exp and divide round to bf16; the
// kernel sums in f32 and rounds once, the interpreter rounds every add).
// RUN: rm -rf %t && mkdir -p %t/got %t/want %t/gotb %t/wantb
// RUN: sed -e 's/ELEM/f32/g' %s > %t/f32.mlir
// RUN: sed -e 's/ELEM/bf16/g' %s > %t/bf16.mlir
// RUN: tpuc compile %t/f32.mlir -o %t/a.tpx --dump-dir=%t/dump
// RUN: FileCheck %s --check-prefix=FUSED --implicit-check-not=hlo.fusion < %t/dump/01-fused.mlir
// RUN: tpuc-run %t/a.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %t/f32.mlir --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 1 1e-5 | FileCheck %s
// RUN: tpuc compile %t/bf16.mlir -o %t/b.tpx
// RUN: tpuc-run %t/b.tpx --random-inputs=5 --output-dir=%t/gotb
// RUN: tpuc interpret %t/bf16.mlir --random-inputs=5 --output-dir=%t/wantb
// RUN: %python_numpy %S/Inputs/compare.py %t/gotb %t/wantb 1 2e-2 | FileCheck %s
// CHECK: result0: ok shape=[100, 300]
// FUSED: hlo.fusion input
// FUSED: hlo.reduce
// FUSED: hlo.maximum
// FUSED: hlo.exponential
// FUSED: hlo.reduce
// FUSED: hlo.divide

func.func @main(%x: tensor<100x300xELEM>) -> tensor<100x300xELEM> {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %xf = hlo.convert %x : (tensor<100x300xELEM>) -> tensor<100x300xf32>
  %m = hlo.reduce(%xf) init(%ninf) dims = [1] : (tensor<100x300xf32>, tensor<f32>) -> tensor<100xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.maximum %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %mc = hlo.convert %m : (tensor<100xf32>) -> tensor<100xELEM>
  %mb = hlo.broadcast_in_dim %mc, dims = [0] : (tensor<100xELEM>) -> tensor<100x300xELEM>
  %d = hlo.subtract %x, %mb : tensor<100x300xELEM>
  %e = hlo.exponential %d : tensor<100x300xELEM>
  %ef = hlo.convert %e : (tensor<100x300xELEM>) -> tensor<100x300xf32>
  %s = hlo.reduce(%ef) init(%zero) dims = [1] : (tensor<100x300xf32>, tensor<f32>) -> tensor<100xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = hlo.add %a, %b : tensor<f32>
    hlo.return %t : tensor<f32>
  }
  %sc = hlo.convert %s : (tensor<100xf32>) -> tensor<100xELEM>
  %sb = hlo.broadcast_in_dim %sc, dims = [0] : (tensor<100xELEM>) -> tensor<100x300xELEM>
  %y = hlo.divide %e, %sb : tensor<100x300xELEM>
  return %y : tensor<100x300xELEM>
}
