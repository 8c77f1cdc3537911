// A softmax whose rows are too wide for the row-resident kernel (5000
// columns: 40 column tiles, over fusion::kRowKernelMaxColTiles) keeps the
// plan of separate reduce and loop fusions, and is still right against
// the interpreter (1e-5).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s -o %t/a.tpx --dump-dir=%t/dump
// RUN: FileCheck %s --check-prefix=FUSED < %t/dump/01-fused.mlir
// RUN: tpuc-run %t/a.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 1 1e-5 | FileCheck %s
// CHECK: result0: ok shape=[16, 5000]
// FUSED: hlo.fusion input
// FUSED: hlo.maximum
// FUSED: hlo.return
// FUSED: hlo.fusion
// FUSED: hlo.fusion loop

func.func @main(%x: tensor<16x5000xf32>) -> tensor<16x5000xf32> {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %m = hlo.reduce(%x) init(%ninf) dims = [1] : (tensor<16x5000xf32>, tensor<f32>) -> tensor<16xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.maximum %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %mb = hlo.broadcast_in_dim %m, dims = [0] : (tensor<16xf32>) -> tensor<16x5000xf32>
  %d = hlo.subtract %x, %mb : tensor<16x5000xf32>
  %e = hlo.exponential %d : tensor<16x5000xf32>
  %s = hlo.reduce(%e) init(%zero) dims = [1] : (tensor<16x5000xf32>, tensor<f32>) -> tensor<16xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = hlo.add %a, %b : tensor<f32>
    hlo.return %t : tensor<f32>
  }
  %sb = hlo.broadcast_in_dim %s, dims = [0] : (tensor<16xf32>) -> tensor<16x5000xf32>
  %y = hlo.divide %e, %sb : tensor<16x5000xf32>
  return %y : tensor<16x5000xf32>
}
