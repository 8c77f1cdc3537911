// An input fusion as one kernel (FusedKernel.cpp + Reduce.cpp): the reduce
// streams the bf16 inputs of its producer chain (subtract, multiply,
// convert, a rank-0 scale) and computes its f32 operand tile by tile on
// vregs; the operand never goes to HBM. Minor-dim sums over a ragged
// [3,20,300], bf16 intermediates rounded as the interpreter rounds them;
// the only difference is the order of the f32 sums (tolerance 1e-6).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/f.tpu.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/f.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/f.tpu.mlir -o %t/f.tpx
// RUN: tpuc-run %t/f.tpx --random-inputs=4 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=4 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 1 1e-6 | FileCheck %s
// CHECK: result0: ok shape=[3, 20]
// The scalar and the two bf16 inputs: three DMAs in; the only other DMA
// writes the sums (a tile row's 8 rows, lanes 0..7 of one register, as one
// chunk); none writes the operand.
// IR-COUNT-3: tpu.dma %arg
// IR-NOT: tpu.dma
// IR: tpu.vreduce_lanes
// IR-NOT: tpu.dma
// IR: tpu.dma {{.*}} chunks = 1 chunk_bytes = 32
// IR-NOT: tpu.dma
// IR: return

func.func @main(%x: tensor<3x20x300xbf16>, %y: tensor<3x20x300xbf16>, %s: tensor<f32>) -> tensor<3x20xf32> {
  %r = hlo.fusion input(%x, %y, %s) : (tensor<3x20x300xbf16>, tensor<3x20x300xbf16>, tensor<f32>) -> tensor<3x20xf32> {
  ^bb0(%a: tensor<3x20x300xbf16>, %b: tensor<3x20x300xbf16>, %c: tensor<f32>):
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %0 = hlo.subtract %a, %b : tensor<3x20x300xbf16>
    %1 = hlo.multiply %0, %0 : tensor<3x20x300xbf16>
    %2 = hlo.convert %1 : (tensor<3x20x300xbf16>) -> tensor<3x20x300xf32>
    %3 = hlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<3x20x300xf32>
    %4 = hlo.multiply %2, %3 : tensor<3x20x300xf32>
    %5 = hlo.reduce(%4) init(%zero) dims = [2] : (tensor<3x20x300xf32>, tensor<f32>) -> tensor<3x20xf32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %6 = hlo.add %p, %q : tensor<f32>
      hlo.return %6 : tensor<f32>
    }
    hlo.return %5 : tensor<3x20xf32>
  }
  return %r : tensor<3x20xf32>
}
