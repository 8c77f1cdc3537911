// A fusion that reshapes [B,K] pieces to [B,1,K] and concatenates them on
// the unit dim (DLRM's interaction input): the concatenate reads each
// piece through a view of the reshaped shape, so the reshapes have no HBM
// buffer (each would be a 4 KiB tile per row: 128x the data) and move no
// byte. Ragged B (300), f32 and bf16 pieces, fusion on and off, bit for bit
// against the interpreter (the adds are exact in both: tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/off %t/want
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc compile %s --fusion=off -o %t/off.tpx
// RUN: tpuc-run %t/off.tpx --random-inputs=3 --output-dir=%t/off
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 2 | FileCheck %s
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/off %t/want 2 | FileCheck %s
// RUN: tpuc compile %s --emit=tpu -o %t/t.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/t.mlir
// CHECK: result0: ok shape=[300, 3, 8]
// CHECK: result1: ok shape=[300, 3, 8]
// TPU-NOT: tpu.alloc {{.*}}memref<300x1x8x
// TPU: tpu.dma {{.*}} chunks = 300 chunk_bytes = 32 src_stride = 512 dst_stride = 4096

func.func @main(%a: tensor<300x8xf32>, %b: tensor<300x8xf32>,
                %c: tensor<300x8xbf16>)
    -> (tensor<300x3x8xf32>, tensor<300x3x8xbf16>) {
  %s = hlo.add %a, %b : tensor<300x8xf32>
  %ra = hlo.reshape %a : (tensor<300x8xf32>) -> tensor<300x1x8xf32>
  %rs = hlo.reshape %s : (tensor<300x8xf32>) -> tensor<300x1x8xf32>
  %rb = hlo.reshape %b : (tensor<300x8xf32>) -> tensor<300x1x8xf32>
  %0 = hlo.concatenate(%ra, %rs, %rb) dim = 1 : (tensor<300x1x8xf32>, tensor<300x1x8xf32>, tensor<300x1x8xf32>) -> tensor<300x3x8xf32>
  %t = hlo.add %c, %c : tensor<300x8xbf16>
  %rc = hlo.reshape %c : (tensor<300x8xbf16>) -> tensor<300x1x8xbf16>
  %rt = hlo.reshape %t : (tensor<300x8xbf16>) -> tensor<300x1x8xbf16>
  %1 = hlo.concatenate(%rc, %rt, %rc) dim = 1 : (tensor<300x1x8xbf16>, tensor<300x1x8xbf16>, tensor<300x1x8xbf16>) -> tensor<300x3x8xbf16>
  return %0, %1 : tensor<300x3x8xf32>, tensor<300x3x8xbf16>
}
