// Multi-output input fusions in one kernel (FusedKernel.cpp exportsOf,
// Reduce.cpp streamBlocks): a fusion that returns a value its reduce is
// computed from (softmax's exp, a relu gradient summed for the bias
// gradient) has the reduce's kernel store that value's tiles where it
// computes them and write them back block by block, so the inputs are read
// once and no loop kernel recomputes the value. One fusion per reduce
// family: minor ([3,20,300] exp(x - y) summed over the rows), leading
// (bf16 select(a > 0, g, 0) over the ragged rows of [700,300], a bf16
// export), all ([50,130] products), and leading in column blocks ([16,70000]
// |w| maxima: a tile row longer than the slots). The exports match the
// interpreter bit for bit; the sums differ only in the order of their f32
// additions (tolerance 1e-5).
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/f.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/f.tpu.mlir -o %t/f.tpx
// Every input read once and every result written once: 11,087,872 bytes of
// [3,20,300] f32 (110,592 each; x, y, exp), [700,300] bf16 (540,672 each),
// [50,130] f32 (57,344 each) and [16,70000] f32 (4,481,024 each), plus
// 282,400 bytes of sums and maxima. Separate loop kernels for the exports
// moved 17,268,512.
// RUN: tpuc-run %t/f.tpx --timing-only --profile=json | FileCheck %s --check-prefix=PROF
// PROF: "hbm_bytes": 11370272,
// RUN: tpuc-run %t/f.tpx --random-inputs=4 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=4 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 8 1e-5 | FileCheck %s
// CHECK: result0: ok shape=[3, 20, 300] max_abs=0 max_rel=0
// CHECK: result1: ok shape=[3, 20]
// CHECK: result2: ok shape=[700, 300] max_abs=0 max_rel=0
// CHECK: result3: ok shape=[300]
// CHECK: result4: ok shape=[50, 130] max_abs=0 max_rel=0
// CHECK: result5: ok shape=[]
// CHECK: result6: ok shape=[16, 70000] max_abs=0 max_rel=0
// CHECK: result7: ok shape=[70000] max_abs=0 max_rel=0

func.func @main(%x: tensor<3x20x300xf32>, %y: tensor<3x20x300xf32>, %a: tensor<700x300xbf16>, %g: tensor<700x300xbf16>, %u: tensor<50x130xf32>, %v: tensor<50x130xf32>, %w: tensor<16x70000xf32>) -> (tensor<3x20x300xf32>, tensor<3x20xf32>, tensor<700x300xbf16>, tensor<300xf32>, tensor<50x130xf32>, tensor<f32>, tensor<16x70000xf32>, tensor<70000xf32>) {
  %r:2 = hlo.fusion input(%x, %y) : (tensor<3x20x300xf32>, tensor<3x20x300xf32>) -> (tensor<3x20x300xf32>, tensor<3x20xf32>) {
  ^bb0(%p0: tensor<3x20x300xf32>, %p1: tensor<3x20x300xf32>):
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %0 = hlo.subtract %p0, %p1 : tensor<3x20x300xf32>
    %1 = hlo.exponential %0 : tensor<3x20x300xf32>
    %2 = hlo.reduce(%1) init(%zero) dims = [2] : (tensor<3x20x300xf32>, tensor<f32>) -> tensor<3x20xf32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %3 = hlo.add %p, %q : tensor<f32>
      hlo.return %3 : tensor<f32>
    }
    hlo.return %1, %2 : tensor<3x20x300xf32>, tensor<3x20xf32>
  }
  %s:2 = hlo.fusion input(%a, %g) : (tensor<700x300xbf16>, tensor<700x300xbf16>) -> (tensor<700x300xbf16>, tensor<300xf32>) {
  ^bb0(%p0: tensor<700x300xbf16>, %p1: tensor<700x300xbf16>):
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %zb = hlo.constant dense<0.0> : tensor<700x300xbf16>
    %0 = hlo.compare GT, %p0, %zb : (tensor<700x300xbf16>, tensor<700x300xbf16>) -> tensor<700x300xi1>
    %1 = hlo.select %0, %p1, %zb : (tensor<700x300xi1>, tensor<700x300xbf16>, tensor<700x300xbf16>) -> tensor<700x300xbf16>
    %2 = hlo.convert %1 : (tensor<700x300xbf16>) -> tensor<700x300xf32>
    %3 = hlo.reduce(%2) init(%zero) dims = [0] : (tensor<700x300xf32>, tensor<f32>) -> tensor<300xf32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %4 = hlo.add %p, %q : tensor<f32>
      hlo.return %4 : tensor<f32>
    }
    hlo.return %1, %3 : tensor<700x300xbf16>, tensor<300xf32>
  }
  %t:2 = hlo.fusion input(%u, %v) : (tensor<50x130xf32>, tensor<50x130xf32>) -> (tensor<50x130xf32>, tensor<f32>) {
  ^bb0(%p0: tensor<50x130xf32>, %p1: tensor<50x130xf32>):
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %0 = hlo.multiply %p0, %p1 : tensor<50x130xf32>
    %1 = hlo.reduce(%0) init(%zero) dims = [0, 1] : (tensor<50x130xf32>, tensor<f32>) -> tensor<f32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %2 = hlo.add %p, %q : tensor<f32>
      hlo.return %2 : tensor<f32>
    }
    hlo.return %0, %1 : tensor<50x130xf32>, tensor<f32>
  }
  %m:2 = hlo.fusion input(%w) : (tensor<16x70000xf32>) -> (tensor<16x70000xf32>, tensor<70000xf32>) {
  ^bb0(%p0: tensor<16x70000xf32>):
    %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
    %0 = hlo.abs %p0 : tensor<16x70000xf32>
    %1 = hlo.reduce(%0) init(%ninf) dims = [0] : (tensor<16x70000xf32>, tensor<f32>) -> tensor<70000xf32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %2 = hlo.maximum %p, %q : tensor<f32>
      hlo.return %2 : tensor<f32>
    }
    hlo.return %0, %1 : tensor<16x70000xf32>, tensor<70000xf32>
  }
  return %r#0, %r#1, %s#0, %s#1, %t#0, %t#1, %m#0, %m#1 : tensor<3x20x300xf32>, tensor<3x20xf32>, tensor<700x300xbf16>, tensor<300xf32>, tensor<50x130xf32>, tensor<f32>, tensor<16x70000xf32>, tensor<70000xf32>
}
