// Log-softmax of a bf16 [37,129] array whose max reduces bf16 and whose
// sum reduces f32 (exp(x - max) converted): one row-resident fusion
// (docs/fusion.md), each reduce combining in its operand's type. Compared
// with the interpreter: 1e-5 (bit-exact seen); mixed_bfloat16 2e-2 (its
// policy computes the f32 log and convert in bf16: 1e-2 seen, one bf16 ulp).
// RUN: rm -rf %t && mkdir -p %t/got %t/want %t/gotbf
// RUN: tpuc compile %s -o %t/a.tpx --dump-dir=%t/dump
// RUN: FileCheck %s --check-prefix=FUSED --implicit-check-not=hlo.fusion < %t/dump/01-fused.mlir
// RUN: tpuc-run %t/a.tpx --random-inputs=7 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 1 1e-5 | FileCheck %s
// RUN: tpuc compile %s --precision=mixed_bfloat16 -o %t/b.tpx
// RUN: tpuc-run %t/b.tpx --random-inputs=7 --output-dir=%t/gotbf
// RUN: %python_numpy %S/Inputs/compare.py %t/gotbf %t/want 1 2e-2 | FileCheck %s
// CHECK: result0: ok shape=[37, 129]
// FUSED: hlo.fusion input
// FUSED: hlo.maximum {{.+}} : tensor<bf16>
// FUSED: hlo.exponential
// FUSED: hlo.add {{.+}} : tensor<f32>
// FUSED: hlo.log

func.func @main(%x: tensor<37x129xbf16>) -> tensor<37x129xbf16> {
  %ninf = hlo.constant dense<0xFF80> : tensor<bf16>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %m = hlo.reduce(%x) init(%ninf) dims = [1] : (tensor<37x129xbf16>, tensor<bf16>) -> tensor<37xbf16> {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %s = hlo.maximum %a, %b : tensor<bf16>
    hlo.return %s : tensor<bf16>
  }
  %mb = hlo.broadcast_in_dim %m, dims = [0] : (tensor<37xbf16>) -> tensor<37x129xbf16>
  %d = hlo.subtract %x, %mb : tensor<37x129xbf16>
  %e = hlo.exponential %d : tensor<37x129xbf16>
  %ef = hlo.convert %e : (tensor<37x129xbf16>) -> tensor<37x129xf32>
  %s = hlo.reduce(%ef) init(%zero) dims = [1] : (tensor<37x129xf32>, tensor<f32>) -> tensor<37xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = hlo.add %a, %b : tensor<f32>
    hlo.return %t : tensor<f32>
  }
  %l = hlo.log %s : tensor<37xf32>
  %lc = hlo.convert %l : (tensor<37xf32>) -> tensor<37xbf16>
  %lb = hlo.broadcast_in_dim %lc, dims = [0] : (tensor<37xbf16>) -> tensor<37x129xbf16>
  %y = hlo.subtract %d, %lb : tensor<37x129xbf16>
  return %y : tensor<37x129xbf16>
}
