// hlo.reshape between ragged shapes, bf16 and s32: tile-preserving (a byte
// copy), to and from rank 1 and 0 (one relayout), and general reshapes that
// change the minor dims (two relayouts through a row-major array). Pure
// data movement: compared bit for bit (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --fusion=off -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=2 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=2 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 8 | FileCheck %s
// CHECK: result0: ok shape=[1, 6, 130]
// CHECK: result1: ok shape=[780]
// CHECK: result2: ok shape=[13, 60]
// CHECK: result3: ok shape=[2, 3, 130]
// CHECK: result4: ok shape=[5, 1, 156]
// CHECK: result5: ok shape=[1, 1]
// CHECK: result6: ok shape=[35, 3, 1]
// CHECK: result7: ok shape=[7, 3, 5]

func.func @main(%x: tensor<6x130xbf16>, %s: tensor<bf16>, %i: tensor<105xi32>)
    -> (tensor<1x6x130xbf16>, tensor<780xbf16>, tensor<13x60xbf16>,
        tensor<2x3x130xbf16>, tensor<5x1x156xbf16>, tensor<1x1xbf16>,
        tensor<35x3x1xi32>, tensor<7x3x5xi32>) {
  %0 = hlo.reshape %x : (tensor<6x130xbf16>) -> tensor<1x6x130xbf16>
  %1 = hlo.reshape %x : (tensor<6x130xbf16>) -> tensor<780xbf16>
  %2 = hlo.reshape %x : (tensor<6x130xbf16>) -> tensor<13x60xbf16>
  %3 = hlo.reshape %x : (tensor<6x130xbf16>) -> tensor<2x3x130xbf16>
  %4 = hlo.reshape %2 : (tensor<13x60xbf16>) -> tensor<5x1x156xbf16>
  %5 = hlo.reshape %s : (tensor<bf16>) -> tensor<1x1xbf16>
  %6 = hlo.reshape %i : (tensor<105xi32>) -> tensor<35x3x1xi32>
  %7 = hlo.reshape %6 : (tensor<35x3x1xi32>) -> tensor<7x3x5xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<1x6x130xbf16>, tensor<780xbf16>, tensor<13x60xbf16>, tensor<2x3x130xbf16>, tensor<5x1x156xbf16>, tensor<1x1xbf16>, tensor<35x3x1xi32>, tensor<7x3x5xi32>
}
