// bf16 per-row vectors [300] (ragged: 300 rows, 200 columns) through the
// whole `tpuc compile` pipeline: a bf16 input and a row sum converted to
// bf16, each broadcast along the rows, are streamed with the blocks of
// the row reduction (Reduce.cpp) and of the loop kernel that reads them
// (RowStream, 16 bytes per tile row, vload sublane stride 2). Before,
// each took its own lane-broadcast kernel. The sum is f32 (only its order
// differs from the interpreter: 1e-5); result1 rounds the f32 sum to bf16,
// where an order difference may flip one bf16 ulp (4e-3): tolerance 1e-2.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s --dump-dir=%t/dump -o %t/f.tpx
// RUN: FileCheck %s --check-prefix=IR < %t/dump/02-tpu.mlir
// IR-COUNT-6: sublane_stride = 2 : memref<{{.*}}xbf16
// IR-NOT: sublane_stride = 2
// RUN: tpuc-run %t/f.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 1 1e-5 | FileCheck %s --check-prefix=SUM
// SUM: result0: ok shape=[300]
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 2 1e-2 | FileCheck %s
// CHECK: result1: ok shape=[300, 200]

func.func @main(%x: tensor<300x200xbf16>, %r: tensor<300xbf16>) -> (tensor<300xf32>, tensor<300x200xbf16>) {
  %zero = hlo.constant dense<0.000000e+00> : tensor<f32>
  %b = hlo.broadcast_in_dim %r, dims = [0] : (tensor<300xbf16>) -> tensor<300x200xbf16>
  %c = hlo.subtract %x, %b : tensor<300x200xbf16>
  %cf = hlo.convert %c : (tensor<300x200xbf16>) -> tensor<300x200xf32>
  %s = hlo.reduce(%cf) init(%zero) dims = [1] : (tensor<300x200xf32>, tensor<f32>) -> tensor<300xf32> {
  ^bb0(%a: tensor<f32>, %e: tensor<f32>):
    %t = hlo.add %a, %e : tensor<f32>
    hlo.return %t : tensor<f32>
  }
  %s16 = hlo.convert %s : (tensor<300xf32>) -> tensor<300xbf16>
  %sb = hlo.broadcast_in_dim %s16, dims = [0] : (tensor<300xbf16>) -> tensor<300x200xbf16>
  %d = hlo.multiply %c, %sb : tensor<300x200xbf16>
  return %s, %d : tensor<300xf32>, tensor<300x200xbf16>
}
