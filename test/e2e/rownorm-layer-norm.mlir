// Layer norm of a [3,50,200] array (B > 1; 50 rows per batch: not a
// multiple of 8; 200 columns: not a multiple of 128) as one row-resident
// kernel (fusion::rowResidentKernel, FusionPlanner.cpp; RowKernel,
// FusedKernel.cpp): the mean, the variance and the normalized result are one
// fusion, and its kernel reads x once (one DMA per block in) and writes y
// once (one DMA per block out). Compared with the interpreter: f32 (1e-5;
// bit-exact seen) and mixed_bfloat16 (2e-2: bf16 roundings of x - mean and
// the statistics, as the program asks).
// RUN: rm -rf %t && mkdir -p %t/got %t/want %t/gotbf
// RUN: tpuc compile %s -o %t/a.tpx --dump-dir=%t/dump
// RUN: FileCheck %s --check-prefix=FUSED --implicit-check-not=hlo.fusion < %t/dump/01-fused.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/dump/02-tpu.mlir
// RUN: tpuc-run %t/a.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 1 1e-5 | FileCheck %s
// RUN: tpuc compile %s --precision=mixed_bfloat16 -o %t/b.tpx
// RUN: tpuc-run %t/b.tpx --random-inputs=3 --output-dir=%t/gotbf
// RUN: %python_numpy %S/Inputs/compare.py %t/gotbf %t/want 1 2e-2 | FileCheck %s
// CHECK: result0: ok shape=[3, 50, 200]
// FUSED: hlo.fusion input
// FUSED: hlo.reduce
// FUSED: hlo.reduce
// FUSED: hlo.sqrt
// FUSED: hlo.divide {{.+}} : tensor<3x50x200xf32>
// One kernel: x in, y out, per block.
// TPU-COUNT-2: tpu.dma
// TPU-NOT: tpu.dma

func.func @main(%x: tensor<3x50x200xf32>) -> tensor<3x50x200xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %n = hlo.constant dense<200.0> : tensor<3x50xf32>
  %eps = hlo.constant dense<1.0e-5> : tensor<3x50xf32>
  %sum = hlo.reduce(%x) init(%zero) dims = [2] : (tensor<3x50x200xf32>, tensor<f32>) -> tensor<3x50xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %mean = hlo.divide %sum, %n : tensor<3x50xf32>
  %mb = hlo.broadcast_in_dim %mean, dims = [0, 1] : (tensor<3x50xf32>) -> tensor<3x50x200xf32>
  %d = hlo.subtract %x, %mb : tensor<3x50x200xf32>
  %sq = hlo.multiply %d, %d : tensor<3x50x200xf32>
  %ss = hlo.reduce(%sq) init(%zero) dims = [2] : (tensor<3x50x200xf32>, tensor<f32>) -> tensor<3x50xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %var = hlo.divide %ss, %n : tensor<3x50xf32>
  %ve = hlo.add %var, %eps : tensor<3x50xf32>
  %sd = hlo.sqrt %ve : tensor<3x50xf32>
  %sb = hlo.broadcast_in_dim %sd, dims = [0, 1] : (tensor<3x50xf32>) -> tensor<3x50x200xf32>
  %y = hlo.divide %d, %sb : tensor<3x50x200xf32>
  return %y : tensor<3x50x200xf32>
}
