// Reductions over a run of dims ending at the second-minor one (sublanes),
// read in their tiled layout with no relayout: NHWC average-pool style
// dims {1,2} of f32[2,5,7,260] (ragged rows 7 and lanes 260, repeated per
// n), the middle dim of f32[10,25,50] (graphsage's mean), dims {0,1} of
// f32[3,11,130], max of the leading dim of bf16[37,300], and s32 max.
// f32 sums run per lane over the tile rows then VREDUCE_SUBLANES:
// tolerance 1e-5 of the largest output (summation order); max is exact.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-decompose-reductions --tpuc-convert-hlo-to-tpu -o %t/r.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/r.tpu.mlir -o %t/r.tpx
// RUN: tpuc-run %t/r.tpx --random-inputs=11 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=11 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 5 1e-5 0.999999 | FileCheck %s
// CHECK: result0: ok shape=[2, 260]
// CHECK: result1: ok shape=[10, 50]
// CHECK: result2: ok shape=[130]
// CHECK: result3: ok shape=[300]
// CHECK: result4: ok shape=[4, 140]
// Slabs of one block each (dims {1,2} of [2,5,7,260]: 2 slabs of 5 tile
// rows) stream as one pipelined sequence, their results through two
// staging slots: semaphore 1 pre-signalled twice, one wait per slab, two at
// the end (no per-slab wait for the DMA in or out).
// RUN: FileCheck %s --check-prefix=PIPE < %t/r.tpu.mlir
// PIPE:      tpu.sem_signal 1, 2
// PIPE:      tpu.dma %arg0{{.*}}sem = 0
// PIPE:      tpu.dma %arg0{{.*}}sem = 0
// PIPE:      tpu.sem_wait 0, 1
// PIPE:      tpu.sem_wait 1, 1
// PIPE:      tpu.dma {{.*}}sem = 1
// PIPE:      tpu.sem_wait 0, 1
// PIPE:      tpu.sem_wait 1, 1
// PIPE:      tpu.dma {{.*}}sem = 1
// PIPE-NEXT: tpu.sem_wait 1, 2

func.func @leading(%x: tensor<2x5x7x260xf32>, %y: tensor<10x25x50xf32>, %z: tensor<3x11x130xf32>,
                   %h: tensor<37x300xbf16>, %i: tensor<4x9x140xi32>)
    -> (tensor<2x260xf32>, tensor<10x50xf32>, tensor<130xf32>, tensor<300xbf16>, tensor<4x140xi32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %bninf = hlo.constant dense<0xFF80> : tensor<bf16>
  %imin = hlo.constant dense<-2147483648> : tensor<i32>
  %a = hlo.reduce(%x) init(%zero) dims = [1, 2] : (tensor<2x5x7x260xf32>, tensor<f32>) -> tensor<2x260xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %b = hlo.reduce(%y) init(%zero) dims = [1] : (tensor<10x25x50xf32>, tensor<f32>) -> tensor<10x50xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %c = hlo.reduce(%z) init(%zero) dims = [0, 1] : (tensor<3x11x130xf32>, tensor<f32>) -> tensor<130xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %d = hlo.reduce(%h) init(%bninf) dims = [0] : (tensor<37x300xbf16>, tensor<bf16>) -> tensor<300xbf16> {
  ^bb0(%p: tensor<bf16>, %q: tensor<bf16>):
    %0 = hlo.maximum %p, %q : tensor<bf16>
    hlo.return %0 : tensor<bf16>
  }
  %e = hlo.reduce(%i) init(%imin) dims = [1] : (tensor<4x9x140xi32>, tensor<i32>) -> tensor<4x140xi32> {
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %0 = hlo.maximum %p, %q : tensor<i32>
    hlo.return %0 : tensor<i32>
  }
  return %a, %b, %c, %d, %e : tensor<2x260xf32>, tensor<10x50xf32>, tensor<130xf32>, tensor<300xbf16>, tensor<4x140xi32>
}
