// A reduce over the middle dim of a reshape that splits the second-minor
// dim of a fusion's argument of one tile column ([.., N*K, C] ->
// [.., N, K, C], C <= 128; graphsage's mean of [250,50] in groups of 25):
// the reduce reads the argument's rows in groups of K, one DMA of K rows
// per group, and the reshape moves no byte (no relayout copy). f32 sums of
// ragged groups (K = 25), groups under leading dims whose N*K rows are
// whole tile rows ([2,48,20] -> [2,6,8,20]) and are not ([3,30,7] ->
// [3,5,6,7]), an s32 max and a bf16 max (exact). The sums differ from the
// interpreter's only in the order of the f32 adds (tolerance 1e-6).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc compile %s --emit=tpu -o %t/f.tpu.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/f.tpu.mlir
// RUN: tpuc compile %s -o %t/f.tpx
// RUN: tpuc-run %t/f.tpx --random-inputs=5 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=5 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 5 1e-6 | FileCheck %s
// CHECK: result0: ok shape=[10, 50]
// CHECK: result1: ok shape=[2, 6, 20]
// CHECK: result2: ok shape=[3, 5, 7]
// CHECK: result3: ok shape=[4, 16]
// CHECK: result4: ok shape=[5, 9]
//
// [250,50] in groups of 25: one DMA of 25 rows (12800 bytes) per group
// from the argument itself, no HBM -> HBM copy of it.
// IR-LABEL: func.func @main
// IR-NOT: tpu.dma %arg0[{{.*}}] -> %{{.*}} : memref<250x50xf32, {{.*}}hbm>> -> memref<{{.*}}hbm>>
// IR: tpu.dma %arg0[%{{.*}}] -> %{{.*}} chunks = 1 chunk_bytes = 12800 src_stride = 0 dst_stride = 0 sem = 0 : memref<250x50xf32, {{.*}}> -> memref<{{.*}}vmem>>
// IR-NOT: tpu.dma %arg0[{{.*}}] -> %{{.*}} : memref<250x50xf32, {{.*}}hbm>> -> memref<{{.*}}hbm>>

func.func @main(%a: tensor<250x50xf32>, %b: tensor<2x48x20xf32>,
                %c: tensor<3x30x7xf32>, %d: tensor<40x16xbf16>,
                %e: tensor<45x9xi32>)
    -> (tensor<10x50xf32>, tensor<2x6x20xf32>, tensor<3x5x7xf32>,
        tensor<4x16xbf16>, tensor<5x9xi32>) {
  %r0 = hlo.fusion input(%a) : (tensor<250x50xf32>) -> tensor<10x50xf32> {
  ^bb0(%x: tensor<250x50xf32>):
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %0 = hlo.reshape %x : (tensor<250x50xf32>) -> tensor<10x25x50xf32>
    %1 = hlo.reduce(%0) init(%zero) dims = [1] : (tensor<10x25x50xf32>, tensor<f32>) -> tensor<10x50xf32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %2 = hlo.add %p, %q : tensor<f32>
      hlo.return %2 : tensor<f32>
    }
    hlo.return %1 : tensor<10x50xf32>
  }
  %r1 = hlo.fusion input(%b) : (tensor<2x48x20xf32>) -> tensor<2x6x20xf32> {
  ^bb0(%x: tensor<2x48x20xf32>):
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %0 = hlo.reshape %x : (tensor<2x48x20xf32>) -> tensor<2x6x8x20xf32>
    %1 = hlo.reduce(%0) init(%zero) dims = [2] : (tensor<2x6x8x20xf32>, tensor<f32>) -> tensor<2x6x20xf32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %2 = hlo.add %p, %q : tensor<f32>
      hlo.return %2 : tensor<f32>
    }
    hlo.return %1 : tensor<2x6x20xf32>
  }
  %r2 = hlo.fusion input(%c) : (tensor<3x30x7xf32>) -> tensor<3x5x7xf32> {
  ^bb0(%x: tensor<3x30x7xf32>):
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %0 = hlo.reshape %x : (tensor<3x30x7xf32>) -> tensor<3x5x6x7xf32>
    %1 = hlo.reduce(%0) init(%zero) dims = [2] : (tensor<3x5x6x7xf32>, tensor<f32>) -> tensor<3x5x7xf32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %2 = hlo.add %p, %q : tensor<f32>
      hlo.return %2 : tensor<f32>
    }
    hlo.return %1 : tensor<3x5x7xf32>
  }
  %r3 = hlo.fusion input(%d) : (tensor<40x16xbf16>) -> tensor<4x16xbf16> {
  ^bb0(%x: tensor<40x16xbf16>):
    %low = hlo.constant dense<-3.0e+38> : tensor<bf16>
    %0 = hlo.reshape %x : (tensor<40x16xbf16>) -> tensor<4x10x16xbf16>
    %1 = hlo.reduce(%0) init(%low) dims = [1] : (tensor<4x10x16xbf16>, tensor<bf16>) -> tensor<4x16xbf16> {
    ^bb0(%p: tensor<bf16>, %q: tensor<bf16>):
      %2 = hlo.maximum %p, %q : tensor<bf16>
      hlo.return %2 : tensor<bf16>
    }
    hlo.return %1 : tensor<4x16xbf16>
  }
  %r4 = hlo.fusion input(%e) : (tensor<45x9xi32>) -> tensor<5x9xi32> {
  ^bb0(%x: tensor<45x9xi32>):
    %low = hlo.constant dense<-2147483648> : tensor<i32>
    %0 = hlo.reshape %x : (tensor<45x9xi32>) -> tensor<5x9x9xi32>
    %1 = hlo.reduce(%0) init(%low) dims = [1] : (tensor<5x9x9xi32>, tensor<i32>) -> tensor<5x9xi32> {
    ^bb0(%p: tensor<i32>, %q: tensor<i32>):
      %2 = hlo.maximum %p, %q : tensor<i32>
      hlo.return %2 : tensor<i32>
    }
    hlo.return %1 : tensor<5x9xi32>
  }
  return %r0, %r1, %r2, %r3, %r4 : tensor<10x50xf32>, tensor<2x6x20xf32>, tensor<3x5x7xf32>, tensor<4x16xbf16>, tensor<5x9xi32>
}
