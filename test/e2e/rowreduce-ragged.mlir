// Row reductions and normalizations of ragged shapes (rows not a multiple
// of 8, columns not of 128) in the kernel forms of docs/codegen.md
// ("Reductions", "Fused kernels"): minor-dim reduces write a group of up to
// 16 tile rows (8 rows each, selected into one register's lanes) with one
// DMA; the fused operand's per-row mean is read once per tile row; the
// normalizing loop kernel runs blocks of whole tile rows with the row's
// tiles unrolled. Groups of 16 ([2,250,300]: 32 tile rows per outer index,
// the last one ragged), of 2 ([5,44,130]) and of 1 ([3,100,200]: 13 tile
// rows), f32 and bf16 operands, sum/max/min, f32 and bf16 results.
// Tolerance 1e-5: only the order of the f32 sum differs (max/min and the
// normalizing kernels are exact).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/f.tpu.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/f.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/f.tpu.mlir -o %t/f.tpx
// RUN: tpuc-run %t/f.tpx --random-inputs=11 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=11 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 6 1e-5 | FileCheck %s
// CHECK: result0: ok shape=[2, 250]
// CHECK: result1: ok shape=[5, 44]
// CHECK: result2: ok shape=[3, 100]
// CHECK: result3: ok shape=[124]
// CHECK: result4: ok shape=[2, 250, 300]
// CHECK: result5: ok shape=[3, 100, 200]
// One DMA per group: 16 tile rows of [2,250,300] (512 bytes), 2 of
// [5,44,130] (64 bytes), 1 of [3,100,200] (32 bytes), 16 of the bf16
// [124,200] max (256 bytes).
// IR: tpu.dma {{.*}} chunks = 1 chunk_bytes = 512 src_stride = 0 dst_stride = 0 sem = 1
// IR: tpu.dma {{.*}} chunks = 1 chunk_bytes = 64 src_stride = 0 dst_stride = 0 sem = 1
// IR: tpu.dma {{.*}} chunks = 1 chunk_bytes = 16 src_stride = 0 dst_stride = 0 sem = 1
// IR: tpu.dma {{.*}} chunks = 1 chunk_bytes = 256 src_stride = 0 dst_stride = 0 sem = 1
// IR: return

func.func @main(%x: tensor<2x250x300xbf16>, %mean: tensor<2x250x1xf32>,
                %y: tensor<5x44x130xf32>, %z: tensor<3x100x200xf32>,
                %zs: tensor<3x100x1xf32>, %h: tensor<124x200xbf16>)
    -> (tensor<2x250xf32>, tensor<5x44xf32>, tensor<3x100xbf16>,
        tensor<124xbf16>, tensor<2x250x300xbf16>, tensor<3x100x200xf32>) {
  // Layer norm's variance: the bf16 mean spread along the rows.
  %var = hlo.fusion input(%x, %mean) : (tensor<2x250x300xbf16>, tensor<2x250x1xf32>) -> tensor<2x250xf32> {
  ^bb0(%a: tensor<2x250x300xbf16>, %m: tensor<2x250x1xf32>):
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %0 = hlo.convert %m : (tensor<2x250x1xf32>) -> tensor<2x250x1xbf16>
    %1 = hlo.reshape %0 : (tensor<2x250x1xbf16>) -> tensor<2x250xbf16>
    %2 = hlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<2x250xbf16>) -> tensor<2x250x300xbf16>
    %3 = hlo.subtract %a, %2 : tensor<2x250x300xbf16>
    %4 = hlo.multiply %3, %3 : tensor<2x250x300xbf16>
    %5 = hlo.convert %4 : (tensor<2x250x300xbf16>) -> tensor<2x250x300xf32>
    %6 = hlo.reduce(%5) init(%zero) dims = [2] : (tensor<2x250x300xf32>, tensor<f32>) -> tensor<2x250xf32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %7 = hlo.add %p, %q : tensor<f32>
      hlo.return %7 : tensor<f32>
    }
    hlo.return %6 : tensor<2x250xf32>
  }
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %mx = hlo.reduce(%y) init(%ninf) dims = [2] : (tensor<5x44x130xf32>, tensor<f32>) -> tensor<5x44xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %7 = hlo.maximum %p, %q : tensor<f32>
    hlo.return %7 : tensor<f32>
  }
  // A maximum of the bf16-rounded f32 operand (exact), a bf16 result.
  %zsum = hlo.fusion input(%z) : (tensor<3x100x200xf32>) -> tensor<3x100xbf16> {
  ^bb0(%a: tensor<3x100x200xf32>):
    %zero = hlo.constant dense<0xFF80> : tensor<bf16>
    %b = hlo.convert %a : (tensor<3x100x200xf32>) -> tensor<3x100x200xbf16>
    %0 = hlo.reduce(%b) init(%zero) dims = [2] : (tensor<3x100x200xbf16>, tensor<bf16>) -> tensor<3x100xbf16> {
    ^bb0(%p: tensor<bf16>, %q: tensor<bf16>):
      %7 = hlo.maximum %p, %q : tensor<bf16>
      hlo.return %7 : tensor<bf16>
    }
    hlo.return %0 : tensor<3x100xbf16>
  }
  %binf = hlo.constant dense<0x7F80> : tensor<bf16>
  %hmin = hlo.reduce(%h) init(%binf) dims = [1] : (tensor<124x200xbf16>, tensor<bf16>) -> tensor<124xbf16> {
  ^bb0(%p: tensor<bf16>, %q: tensor<bf16>):
    %7 = hlo.minimum %p, %q : tensor<bf16>
    hlo.return %7 : tensor<bf16>
  }
  // The normalizing kernels: (x - mean) / scale per row, bf16 and f32.
  %norm = hlo.fusion loop(%x, %mean) : (tensor<2x250x300xbf16>, tensor<2x250x1xf32>) -> tensor<2x250x300xbf16> {
  ^bb0(%a: tensor<2x250x300xbf16>, %m: tensor<2x250x1xf32>):
    %0 = hlo.convert %m : (tensor<2x250x1xf32>) -> tensor<2x250x1xbf16>
    %1 = hlo.reshape %0 : (tensor<2x250x1xbf16>) -> tensor<2x250xbf16>
    %2 = hlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<2x250xbf16>) -> tensor<2x250x300xbf16>
    %3 = hlo.subtract %a, %2 : tensor<2x250x300xbf16>
    %4 = hlo.divide %3, %2 : tensor<2x250x300xbf16>
    hlo.return %4 : tensor<2x250x300xbf16>
  }
  %znorm = hlo.fusion loop(%z, %zs) : (tensor<3x100x200xf32>, tensor<3x100x1xf32>) -> tensor<3x100x200xf32> {
  ^bb0(%a: tensor<3x100x200xf32>, %s: tensor<3x100x1xf32>):
    %1 = hlo.reshape %s : (tensor<3x100x1xf32>) -> tensor<3x100xf32>
    %2 = hlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<3x100xf32>) -> tensor<3x100x200xf32>
    %3 = hlo.divide %a, %2 : tensor<3x100x200xf32>
    hlo.return %3 : tensor<3x100x200xf32>
  }
  return %var, %mx, %zsum, %hmin, %norm, %znorm : tensor<2x250xf32>, tensor<5x44xf32>, tensor<3x100xbf16>, tensor<124xbf16>, tensor<2x250x300xbf16>, tensor<3x100x200xf32>
}
