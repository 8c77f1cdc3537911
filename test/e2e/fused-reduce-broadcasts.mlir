// Reduces whose fused operand reads broadcasts by position (FusedKernel.cpp
// residentAt): per-row sources (layer norm's variance: x - mean, the mean a
// bf16 [..., R, 1] statistic, also spread over outer dims), per-column
// [1, C] sources and whole [R, C] sources spread over the outer dim, into
// minor-dim, leading and all-dims reduces of a ragged [3,20,300]. Each
// fusion is one kernel: no HBM buffer of the operand's shape is allocated.
// Tolerance 1e-5: only the order of the f32 sums differs.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/f.tpu.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/f.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/f.tpu.mlir -o %t/f.tpx
// RUN: tpuc-run %t/f.tpx --random-inputs=7 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 5 1e-5 | FileCheck %s
// CHECK: result0: ok shape=[3, 20]
// CHECK: result1: ok shape=[3, 20]
// CHECK: result2: ok shape=[3, 20]
// CHECK: result3: ok shape=[300]
// CHECK: result4: ok shape=[]
// IR-NOT: tpu.alloc : memref<3x20x300x
// IR: return

func.func @main(%x: tensor<3x20x300xbf16>, %mean: tensor<3x20x1xf32>,
                %rowScale: tensor<20x1xf32>, %colScale: tensor<1x300xf32>,
                %w: tensor<20x300xf32>)
    -> (tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>, tensor<300xf32>,
        tensor<f32>) {
  // Layer norm's variance: the mean rounded to bf16, spread along the rows.
  %var = hlo.fusion input(%x, %mean) : (tensor<3x20x300xbf16>, tensor<3x20x1xf32>) -> tensor<3x20xf32> {
  ^bb0(%a: tensor<3x20x300xbf16>, %m: tensor<3x20x1xf32>):
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %0 = hlo.convert %m : (tensor<3x20x1xf32>) -> tensor<3x20x1xbf16>
    %1 = hlo.reshape %0 : (tensor<3x20x1xbf16>) -> tensor<3x20xbf16>
    %2 = hlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<3x20xbf16>) -> tensor<3x20x300xbf16>
    %3 = hlo.subtract %a, %2 : tensor<3x20x300xbf16>
    %4 = hlo.multiply %3, %3 : tensor<3x20x300xbf16>
    %5 = hlo.convert %4 : (tensor<3x20x300xbf16>) -> tensor<3x20x300xf32>
    %6 = hlo.reduce(%5) init(%zero) dims = [2] : (tensor<3x20x300xf32>, tensor<f32>) -> tensor<3x20xf32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %7 = hlo.add %p, %q : tensor<f32>
      hlo.return %7 : tensor<f32>
    }
    hlo.return %6 : tensor<3x20xf32>
  }
  // A per-row source spread over the outer dim and a per-column one.
  %rc = hlo.fusion input(%x, %rowScale, %colScale) : (tensor<3x20x300xbf16>, tensor<20x1xf32>, tensor<1x300xf32>) -> tensor<3x20xf32> {
  ^bb0(%a: tensor<3x20x300xbf16>, %r: tensor<20x1xf32>, %c: tensor<1x300xf32>):
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %0 = hlo.convert %a : (tensor<3x20x300xbf16>) -> tensor<3x20x300xf32>
    %1 = hlo.broadcast_in_dim %r, dims = [1, 2] : (tensor<20x1xf32>) -> tensor<3x20x300xf32>
    %2 = hlo.broadcast_in_dim %c, dims = [1, 2] : (tensor<1x300xf32>) -> tensor<3x20x300xf32>
    %3 = hlo.multiply %0, %1 : tensor<3x20x300xf32>
    %4 = hlo.subtract %3, %2 : tensor<3x20x300xf32>
    %5 = hlo.reduce(%4) init(%zero) dims = [2] : (tensor<3x20x300xf32>, tensor<f32>) -> tensor<3x20xf32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %7 = hlo.maximum %p, %q : tensor<f32>
      hlo.return %7 : tensor<f32>
    }
    hlo.return %5 : tensor<3x20xf32>
  }
  // A whole [R, C] source spread over the outer dim, three reduce forms.
  %wm = hlo.fusion input(%x, %w) : (tensor<3x20x300xbf16>, tensor<20x300xf32>) -> tensor<3x20xf32> {
  ^bb0(%a: tensor<3x20x300xbf16>, %v: tensor<20x300xf32>):
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %0 = hlo.convert %a : (tensor<3x20x300xbf16>) -> tensor<3x20x300xf32>
    %1 = hlo.broadcast_in_dim %v, dims = [1, 2] : (tensor<20x300xf32>) -> tensor<3x20x300xf32>
    %2 = hlo.multiply %0, %1 : tensor<3x20x300xf32>
    %3 = hlo.reduce(%2) init(%zero) dims = [2] : (tensor<3x20x300xf32>, tensor<f32>) -> tensor<3x20xf32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %7 = hlo.add %p, %q : tensor<f32>
      hlo.return %7 : tensor<f32>
    }
    hlo.return %3 : tensor<3x20xf32>
  }
  %lead = hlo.fusion input(%x, %rowScale, %w) : (tensor<3x20x300xbf16>, tensor<20x1xf32>, tensor<20x300xf32>) -> tensor<300xf32> {
  ^bb0(%a: tensor<3x20x300xbf16>, %r: tensor<20x1xf32>, %v: tensor<20x300xf32>):
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %0 = hlo.convert %a : (tensor<3x20x300xbf16>) -> tensor<3x20x300xf32>
    %1 = hlo.broadcast_in_dim %r, dims = [1, 2] : (tensor<20x1xf32>) -> tensor<3x20x300xf32>
    %2 = hlo.broadcast_in_dim %v, dims = [1, 2] : (tensor<20x300xf32>) -> tensor<3x20x300xf32>
    %3 = hlo.multiply %0, %1 : tensor<3x20x300xf32>
    %4 = hlo.add %3, %2 : tensor<3x20x300xf32>
    %5 = hlo.reduce(%4) init(%zero) dims = [0, 1] : (tensor<3x20x300xf32>, tensor<f32>) -> tensor<300xf32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %7 = hlo.add %p, %q : tensor<f32>
      hlo.return %7 : tensor<f32>
    }
    hlo.return %5 : tensor<300xf32>
  }
  %all = hlo.fusion input(%x, %mean, %colScale) : (tensor<3x20x300xbf16>, tensor<3x20x1xf32>, tensor<1x300xf32>) -> tensor<f32> {
  ^bb0(%a: tensor<3x20x300xbf16>, %m: tensor<3x20x1xf32>, %c: tensor<1x300xf32>):
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %0 = hlo.convert %a : (tensor<3x20x300xbf16>) -> tensor<3x20x300xf32>
    %1 = hlo.broadcast_in_dim %m, dims = [0, 1, 2] : (tensor<3x20x1xf32>) -> tensor<3x20x300xf32>
    %2 = hlo.broadcast_in_dim %c, dims = [1, 2] : (tensor<1x300xf32>) -> tensor<3x20x300xf32>
    %3 = hlo.subtract %0, %1 : tensor<3x20x300xf32>
    %4 = hlo.multiply %3, %2 : tensor<3x20x300xf32>
    %5 = hlo.reduce(%4) init(%zero) dims = [0, 1, 2] : (tensor<3x20x300xf32>, tensor<f32>) -> tensor<f32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %7 = hlo.add %p, %q : tensor<f32>
      hlo.return %7 : tensor<f32>
    }
    hlo.return %5 : tensor<f32>
  }
  return %var, %rc, %wm, %lead, %all : tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>, tensor<300xf32>, tensor<f32>
}
