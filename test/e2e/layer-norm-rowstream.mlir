// Layer norm over the columns of a ragged [300,200] f32 array (300 rows:
// not a multiple of 8; 200 columns: not a multiple of 128), compiled with
// fusion (tpuc compile): the row sums are reduced, the mean and the
// variance are [300] per-row vectors broadcast along the rows, computed per
// tile row on vregs by the row-resident kernel (RowKernel, FusedKernel.cpp). Also in mixed_bfloat16 (bf16 per-row vectors). The sums differ
// from the interpreter's only in the order of their f32 additions
// (f32: max relative error 1e-5, 4e-7 seen; bf16: 2e-2, 9.5e-3 seen: bf16
// roundings of the statistics and the result).
// RUN: rm -rf %t && mkdir -p %t/got %t/want %t/gotbf %t/wantbf
// RUN: tpuc compile %s -o %t/a.tpx
// RUN: tpuc-run %t/a.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 1 1e-5 | FileCheck %s
// RUN: tpuc compile %s --precision=mixed_bfloat16 -o %t/b.tpx
// RUN: tpuc-run %t/b.tpx --random-inputs=3 --output-dir=%t/gotbf
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/wantbf
// RUN: %python_numpy %S/Inputs/compare.py %t/gotbf %t/wantbf 1 2e-2 | FileCheck %s
// CHECK: result0: ok shape=[300, 200]

func.func @main(%x: tensor<300x200xf32>) -> tensor<300x200xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %n = hlo.constant dense<200.0> : tensor<300xf32>
  %eps = hlo.constant dense<1.0e-5> : tensor<300xf32>
  %sum = hlo.reduce(%x) init(%zero) dims = [1] : (tensor<300x200xf32>, tensor<f32>) -> tensor<300xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %mean = hlo.divide %sum, %n : tensor<300xf32>
  %mb = hlo.broadcast_in_dim %mean, dims = [0] : (tensor<300xf32>) -> tensor<300x200xf32>
  %d = hlo.subtract %x, %mb : tensor<300x200xf32>
  %sq = hlo.multiply %d, %d : tensor<300x200xf32>
  %ss = hlo.reduce(%sq) init(%zero) dims = [1] : (tensor<300x200xf32>, tensor<f32>) -> tensor<300xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %var = hlo.divide %ss, %n : tensor<300xf32>
  %ve = hlo.add %var, %eps : tensor<300xf32>
  %sd = hlo.sqrt %ve : tensor<300xf32>
  %sb = hlo.broadcast_in_dim %sd, dims = [0] : (tensor<300xf32>) -> tensor<300x200xf32>
  %y = hlo.divide %d, %sb : tensor<300x200xf32>
  return %y : tensor<300x200xf32>
}
