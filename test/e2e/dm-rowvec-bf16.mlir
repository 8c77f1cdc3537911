// Per-row vectors between lanes and sublanes (issue #11), standalone
// kernels (--fusion=off), bf16 (2-byte elements in (8,128) tiles), ragged
// shapes: the forms of dm-rowvec.mlir (reshapes that insert or drop a unit
// minor dim, lane broadcasts of a per-row vector) on bf16 arrays. Pure data
// movement: compared bit for bit (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --fusion=off -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=6 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=6 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 10 | FileCheck %s
// CHECK: result0: ok shape=[300, 1]
// CHECK: result1: ok shape=[1, 12, 130, 1]
// CHECK: result2: ok shape=[3, 300, 1]
// CHECK: result3: ok shape=[3, 300]
// CHECK: result4: ok shape=[300]
// CHECK: result5: ok shape=[1, 12, 130, 200]
// CHECK: result6: ok shape=[300, 10]
// CHECK: result7: ok shape=[3, 300, 5]
// CHECK: result8: ok shape=[1, 12, 130, 1]
// CHECK: result9: ok shape=[2, 9, 1]

func.func @main(%v: tensor<300xbf16>, %h: tensor<1x12x130xbf16>,
                %m: tensor<3x300xbf16>, %i: tensor<1x12x130xbf16>,
                %j: tensor<2x9xbf16>)
    -> (tensor<300x1xbf16>, tensor<1x12x130x1xbf16>, tensor<3x300x1xbf16>,
        tensor<3x300xbf16>, tensor<300xbf16>, tensor<1x12x130x200xbf16>,
        tensor<300x10xbf16>, tensor<3x300x5xbf16>, tensor<1x12x130x1xbf16>,
        tensor<2x9x1xbf16>) {
  %0 = hlo.reshape %v : (tensor<300xbf16>) -> tensor<300x1xbf16>
  %1 = hlo.reshape %h : (tensor<1x12x130xbf16>) -> tensor<1x12x130x1xbf16>
  %2 = hlo.reshape %m : (tensor<3x300xbf16>) -> tensor<3x300x1xbf16>
  %3 = hlo.reshape %2 : (tensor<3x300x1xbf16>) -> tensor<3x300xbf16>
  %4 = hlo.reshape %0 : (tensor<300x1xbf16>) -> tensor<300xbf16>
  %5 = hlo.broadcast_in_dim %h, dims = [0, 1, 2] : (tensor<1x12x130xbf16>) -> tensor<1x12x130x200xbf16>
  %6 = hlo.broadcast_in_dim %v, dims = [0] : (tensor<300xbf16>) -> tensor<300x10xbf16>
  %7 = hlo.broadcast_in_dim %m, dims = [0, 1] : (tensor<3x300xbf16>) -> tensor<3x300x5xbf16>
  %8 = hlo.reshape %i : (tensor<1x12x130xbf16>) -> tensor<1x12x130x1xbf16>
  %9 = hlo.reshape %j : (tensor<2x9xbf16>) -> tensor<2x9x1xbf16>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9
      : tensor<300x1xbf16>, tensor<1x12x130x1xbf16>, tensor<3x300x1xbf16>,
        tensor<3x300xbf16>, tensor<300xbf16>, tensor<1x12x130x200xbf16>,
        tensor<300x10xbf16>, tensor<3x300x5xbf16>, tensor<1x12x130x1xbf16>,
        tensor<2x9x1xbf16>
}
