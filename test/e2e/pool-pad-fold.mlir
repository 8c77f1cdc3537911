// A pad whose padding cannot change the pool (hlo canonicalization
// FoldPadIntoReduceWindow) joins the reduce_window's own padding: the
// pooling kernel pads in VMEM and no padded copy goes through HBM.
//   result0: resnet50's pool1 shape class: relu, pad by convert(0), a 3x3
//            stride-2 -inf max-pool; C = 200 (not a multiple of 128),
//            odd H, W
//   result1: the same in bf16, asymmetric padding
//   result2: a pad by the init value (-inf) of a max-pool, no relu (no
//            window all padding: compare.py takes no infinities)
//   result3: a pad by 0 of an unclamped operand stays (the pad value wins
//            where a window's elements are all negative)
// Max-pools pick elements: exact.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=3 --output-dir=%t/got
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 4 0 0.9999999 | FileCheck %s
// RUN: tpuc compile %s --emit=fused -o - | FileCheck %s --check-prefix=FUSED
// CHECK: result0: ok shape=[1, 9, 9, 200] max_abs=0 max_rel=0
// CHECK: result1: ok shape=[1, 8, 7, 64] max_abs=0 max_rel=0
// CHECK: result2: ok shape=[2, 4, 4, 8] max_abs=0 max_rel=0
// CHECK: result3: ok shape=[1, 4, 4, 8] max_abs=0 max_rel=0
// FUSED-COUNT-1: hlo.pad
// FUSED-NOT: hlo.pad
// FUSED-DAG: padding = array<i64: 0, 0, 1, 1, 1, 1, 0, 0>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}{{.*}}tensor<1x17x17x200xf32>
// FUSED-DAG: padding = array<i64: 0, 0, 1, 2, 0, 1, 0, 0>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}{{.*}}tensor<1x14x14x64xbf16>
// FUSED-DAG: padding = array<i64: 0, 0, 1, 1, 1, 1, 0, 0>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}{{.*}}tensor<2x7x7x8xf32>

func.func @pools(%y: tensor<1x17x17x200xf32>, %h: tensor<1x14x14x64xbf16>, %x: tensor<2x7x7x8xf32>, %u: tensor<1x8x8x8xf32>)
    -> (tensor<1x9x9x200xf32>, tensor<1x8x7x64xbf16>, tensor<2x4x4x8xf32>, tensor<1x4x4x8xf32>) {
  %zero = hlo.constant dense<0> : tensor<i32>
  %z = hlo.convert %zero : (tensor<i32>) -> tensor<f32>
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %c0 = hlo.constant dense<0.0> : tensor<f32>
  %b0 = hlo.broadcast_in_dim %c0, dims = [] : (tensor<f32>) -> tensor<1x17x17x200xf32>
  %r = hlo.maximum %y, %b0 : tensor<1x17x17x200xf32>
  %p0 = hlo.pad %r, %z, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x17x17x200xf32>, tensor<f32>) -> tensor<1x19x19x200xf32>
  %0 = hlo.reduce_window(%p0) init(%ninf) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x19x19x200xf32>, tensor<f32>) -> tensor<1x9x9x200xf32> {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %m = hlo.maximum %a, %c : tensor<f32>
    hlo.return %m : tensor<f32>
  }
  %hz = hlo.convert %zero : (tensor<i32>) -> tensor<bf16>
  %hninf = hlo.constant dense<0xFF80> : tensor<bf16>
  %hb = hlo.broadcast_in_dim %hz, dims = [] : (tensor<bf16>) -> tensor<1x14x14x64xbf16>
  %hr = hlo.maximum %h, %hb : tensor<1x14x14x64xbf16>
  %p1 = hlo.pad %hr, %hz, low = [0, 1, 0, 0], high = [0, 2, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x14x14x64xbf16>, tensor<bf16>) -> tensor<1x17x15x64xbf16>
  %1 = hlo.reduce_window(%p1) init(%hninf) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x17x15x64xbf16>, tensor<bf16>) -> tensor<1x8x7x64xbf16> {
  ^bb0(%a: tensor<bf16>, %c: tensor<bf16>):
    %m = hlo.maximum %a, %c : tensor<bf16>
    hlo.return %m : tensor<bf16>
  }
  %p2 = hlo.pad %x, %ninf, low = [0, 1, 0, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<2x7x7x8xf32>, tensor<f32>) -> tensor<2x9x8x8xf32>
  %2 = hlo.reduce_window(%p2) init(%ninf) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = array<i64: 0, 0, 0, 0, 1, 0, 0, 0>} : (tensor<2x9x8x8xf32>, tensor<f32>) -> tensor<2x4x4x8xf32> {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %m = hlo.maximum %a, %c : tensor<f32>
    hlo.return %m : tensor<f32>
  }
  %p3 = hlo.pad %u, %z, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x8x8x8xf32>, tensor<f32>) -> tensor<1x10x10x8xf32>
  %3 = hlo.reduce_window(%p3) init(%ninf) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x10x10x8xf32>, tensor<f32>) -> tensor<1x4x4x8xf32> {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %m = hlo.maximum %a, %c : tensor<f32>
    hlo.return %m : tensor<f32>
  }
  return %0, %1, %2, %3 : tensor<1x9x9x200xf32>, tensor<1x8x7x64xbf16>, tensor<2x4x4x8xf32>, tensor<1x4x4x8xf32>
}
