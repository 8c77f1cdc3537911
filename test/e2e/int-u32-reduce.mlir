// u32 maxima and minima order unsigned in every reduction kernel, bit for
// bit against the interpreter on values around the sign bit and the ends
// (Inputs/u32_inputs.py; a's rows are constant, b's columns): reduce in
// each family (minor: over the minor dim, also of a's rows of one value
// below 2^31, where the masked lanes' identity shows; leading: over dim 0
// and over dims 0-1 of a rank-3 array; all), reduce_window (3x3 SAME,
// a cumulative min along the minor dim, a 2x2 stride-2 pool of NHWC) and a
// scatter-max/min. The identities are 0 (max) and 2^32 - 1 (min).
// RUN: rm -rf %t && mkdir -p %t/in %t/got %t/want
// RUN: %python_numpy %S/Inputs/u32_inputs.py %t/in
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --input=@%t/in/a.npy --input=@%t/in/b.npy --output-dir=%t/got --result-names=index
// RUN: tpuc interpret %s --input=@%t/in/a.npy --input=@%t/in/b.npy --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got %t/want 13 | FileCheck %s
// CHECK-COUNT-13: exact
// The max and min reduce as u32 (dtype U32 in the executable).
// RUN: tpuc compile %s --emit=tpu -o - | FileCheck %s --check-prefix=TPU
// TPU-DAG: tpu.vreduce_lanes max, {{.*}} unsigned
// TPU-DAG: tpu.vreduce_lanes min, {{.*}} unsigned
// TPU-DAG: tpu.vreduce_sublanes max, {{.*}} unsigned
// TPU-DAG: tpu.vreduce_sublanes min, {{.*}} unsigned
// TPU-DAG: tpu.vmax {{.*}} unsigned
// TPU-DAG: tpu.vmin {{.*}} unsigned
// RUN: tpuc translate --executable-to-text %t/t.tpx -o - | FileCheck %s --check-prefix=EXE
// EXE-DAG: VREDUCE_LANES {{.*}}U32
// EXE-DAG: VREDUCE_SUBLANES {{.*}}U32
// EXE-DAG: VMAX {{.*}}U32
// EXE-DAG: VMIN {{.*}}U32

func.func @main(%a: tensor<16x16xui32>, %b: tensor<16x16xui32>)
    -> (tensor<16xui32>, tensor<16xui32>, tensor<16xui32>, tensor<16xui32>,
        tensor<16xui32>, tensor<16xui32>, tensor<ui32>, tensor<ui32>,
        tensor<16x16xui32>, tensor<16x16xui32>, tensor<1x2x2x64xui32>,
        tensor<16x16xui32>, tensor<16x16xui32>) {
  %zero = hlo.constant dense<0> : tensor<ui32>
  %ones = hlo.constant dense<4294967295> : tensor<ui32>
  %c = hlo.add %a, %b : tensor<16x16xui32>
  // minor
  %r0 = hlo.reduce(%c) init(%zero) dims = [1] : (tensor<16x16xui32>, tensor<ui32>) -> tensor<16xui32> {
  ^bb0(%p: tensor<ui32>, %q: tensor<ui32>):
    %0 = hlo.maximum %p, %q : tensor<ui32>
    hlo.return %0 : tensor<ui32>
  }
  %r1 = hlo.reduce(%c) init(%ones) dims = [1] : (tensor<16x16xui32>, tensor<ui32>) -> tensor<16xui32> {
  ^bb0(%p: tensor<ui32>, %q: tensor<ui32>):
    %0 = hlo.minimum %p, %q : tensor<ui32>
    hlo.return %0 : tensor<ui32>
  }
  %r2 = hlo.reduce(%a) init(%zero) dims = [1] : (tensor<16x16xui32>, tensor<ui32>) -> tensor<16xui32> {
  ^bb0(%p: tensor<ui32>, %q: tensor<ui32>):
    %0 = hlo.maximum %p, %q : tensor<ui32>
    hlo.return %0 : tensor<ui32>
  }
  // leading
  %r3 = hlo.reduce(%c) init(%zero) dims = [0] : (tensor<16x16xui32>, tensor<ui32>) -> tensor<16xui32> {
  ^bb0(%p: tensor<ui32>, %q: tensor<ui32>):
    %0 = hlo.maximum %p, %q : tensor<ui32>
    hlo.return %0 : tensor<ui32>
  }
  %c3 = hlo.reshape %c : (tensor<16x16xui32>) -> tensor<4x4x16xui32>
  %r4 = hlo.reduce(%c3) init(%ones) dims = [0, 1] : (tensor<4x4x16xui32>, tensor<ui32>) -> tensor<16xui32> {
  ^bb0(%p: tensor<ui32>, %q: tensor<ui32>):
    %0 = hlo.minimum %p, %q : tensor<ui32>
    hlo.return %0 : tensor<ui32>
  }
  %r5 = hlo.reduce(%b) init(%ones) dims = [0] : (tensor<16x16xui32>, tensor<ui32>) -> tensor<16xui32> {
  ^bb0(%p: tensor<ui32>, %q: tensor<ui32>):
    %0 = hlo.minimum %p, %q : tensor<ui32>
    hlo.return %0 : tensor<ui32>
  }
  // all
  %r6 = hlo.reduce(%c) init(%zero) dims = [0, 1] : (tensor<16x16xui32>, tensor<ui32>) -> tensor<ui32> {
  ^bb0(%p: tensor<ui32>, %q: tensor<ui32>):
    %0 = hlo.maximum %p, %q : tensor<ui32>
    hlo.return %0 : tensor<ui32>
  }
  %r7 = hlo.reduce(%c) init(%ones) dims = [0, 1] : (tensor<16x16xui32>, tensor<ui32>) -> tensor<ui32> {
  ^bb0(%p: tensor<ui32>, %q: tensor<ui32>):
    %0 = hlo.minimum %p, %q : tensor<ui32>
    hlo.return %0 : tensor<ui32>
  }
  // reduce_window
  %w0 = hlo.reduce_window(%c) init(%zero) {window_dimensions = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<16x16xui32>, tensor<ui32>) -> tensor<16x16xui32> {
  ^bb0(%p: tensor<ui32>, %q: tensor<ui32>):
    %0 = hlo.maximum %p, %q : tensor<ui32>
    hlo.return %0 : tensor<ui32>
  }
  %w1 = hlo.reduce_window(%c) init(%ones) {window_dimensions = array<i64: 1, 16>, padding = array<i64: 0, 0, 15, 0>} : (tensor<16x16xui32>, tensor<ui32>) -> tensor<16x16xui32> {
  ^bb0(%p: tensor<ui32>, %q: tensor<ui32>):
    %0 = hlo.minimum %p, %q : tensor<ui32>
    hlo.return %0 : tensor<ui32>
  }
  %c4 = hlo.reshape %c : (tensor<16x16xui32>) -> tensor<1x4x4x16xui32>
  %t4 = hlo.concatenate(%c4, %c4, %c4, %c4) dim = 3 : (tensor<1x4x4x16xui32>, tensor<1x4x4x16xui32>, tensor<1x4x4x16xui32>, tensor<1x4x4x16xui32>) -> tensor<1x4x4x64xui32>
  %w2 = hlo.reduce_window(%t4) init(%zero) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x4x4x64xui32>, tensor<ui32>) -> tensor<1x2x2x64xui32> {
  ^bb0(%p: tensor<ui32>, %q: tensor<ui32>):
    %0 = hlo.maximum %p, %q : tensor<ui32>
    hlo.return %0 : tensor<ui32>
  }
  // scatter
  %i = hlo.constant dense<[[0], [3], [3], [15], [9]]> : tensor<5x1xi32>
  %u = hlo.slice %b [0:5:1, 0:16:1] : (tensor<16x16xui32>) -> tensor<5x16xui32>
  %s0 = hlo.scatter(%a) at %i updates(%u), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<16x16xui32>, tensor<5x1xi32>, tensor<5x16xui32>) -> tensor<16x16xui32> {
  ^bb0(%p: tensor<ui32>, %q: tensor<ui32>):
    %0 = hlo.maximum %p, %q : tensor<ui32>
    hlo.return %0 : tensor<ui32>
  }
  %s1 = hlo.scatter(%a) at %i updates(%u), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<16x16xui32>, tensor<5x1xi32>, tensor<5x16xui32>) -> tensor<16x16xui32> {
  ^bb0(%p: tensor<ui32>, %q: tensor<ui32>):
    %0 = hlo.minimum %p, %q : tensor<ui32>
    hlo.return %0 : tensor<ui32>
  }
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %w0, %w1, %w2, %s0, %s1
      : tensor<16xui32>, tensor<16xui32>, tensor<16xui32>, tensor<16xui32>,
        tensor<16xui32>, tensor<16xui32>, tensor<ui32>, tensor<ui32>,
        tensor<16x16xui32>, tensor<16x16xui32>, tensor<1x2x2x64xui32>,
        tensor<16x16xui32>, tensor<16x16xui32>
}
