// hlo.reshape that splits or merges the minor dim within one tile column
// (the dims before it equal): one copyBox over the split shape, the longest
// outer axis as the DMAs' chunks (DLRM's [3616,6,6] -> [3616,36] in 6 DMAs
// instead of two relayouts through a row-major temporary). f32, bf16 and
// s32, both directions, a minor dim of exactly 128, the longest axis not
// the first, and one of 132 lanes (two tile columns: still the relayouts).
// Pure data movement: compared bit for bit (tolerance 0).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --fusion=off -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 6 | FileCheck %s
// CHECK: result0: ok shape=[37, 36]
// CHECK: result1: ok shape=[37, 6, 6]
// CHECK: result2: ok shape=[20, 5, 24]
// CHECK: result3: ok shape=[9, 128]
// CHECK: result4: ok shape=[3, 50, 8]
// CHECK: result5: ok shape=[9, 132]
//
// [37,6,6] -> [37,36]: per row of the 6x6 matrices one DMA of 37 chunks of
// 6 elements (24 bytes), source stride one tile (4 KiB), destination stride
// one row (512 bytes), and the reverse for [37,36] -> [37,6,6]; no
// row-major temporary.
// RUN: tpuc compile %s --fusion=off --emit=tpu -o %t/t.mlir
// RUN: FileCheck %s --check-prefix=SHAPE < %t/t.mlir
// SHAPE:      tpu.loop %{{.*}} = 0 to %c6 {
// SHAPE:        tpu.dma %arg0[%{{.*}}] -> %{{.*}} chunks = 37 chunk_bytes = 24 src_stride = 4096 dst_stride = 512
// SHAPE:      tpu.sem_wait 3, 6
// SHAPE:      tpu.loop %{{.*}} = 0 to %c6 {
// SHAPE:        tpu.dma %arg5[%{{.*}}] -> %{{.*}} chunks = 37 chunk_bytes = 24 src_stride = 512 dst_stride = 4096
// SHAPE:      tpu.sem_wait 3, 6

func.func @main(%a: tensor<37x6x6xf32>, %b: tensor<20x5x3x8xbf16>,
                %c: tensor<9x4x32xi32>, %d: tensor<3x50x2x4xf32>,
                %e: tensor<9x4x33xf32>, %f: tensor<37x36xf32>)
    -> (tensor<37x36xf32>, tensor<37x6x6xf32>, tensor<20x5x24xbf16>,
        tensor<9x128xi32>, tensor<3x50x8xf32>, tensor<9x132xf32>) {
  %0 = hlo.reshape %a : (tensor<37x6x6xf32>) -> tensor<37x36xf32>
  %1 = hlo.reshape %f : (tensor<37x36xf32>) -> tensor<37x6x6xf32>
  %2 = hlo.reshape %b : (tensor<20x5x3x8xbf16>) -> tensor<20x5x24xbf16>
  %3 = hlo.reshape %c : (tensor<9x4x32xi32>) -> tensor<9x128xi32>
  %4 = hlo.reshape %d : (tensor<3x50x2x4xf32>) -> tensor<3x50x8xf32>
  %5 = hlo.reshape %e : (tensor<9x4x33xf32>) -> tensor<9x132xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<37x36xf32>, tensor<37x6x6xf32>, tensor<20x5x24xbf16>, tensor<9x128xi32>, tensor<3x50x8xf32>, tensor<9x132xf32>
}
