// A residual add of two convolutions, each with its bias and batch norm
// (resnet50's first block of a stage: conv2_block1_3_conv plus the
// projection shortcut conv2_block1_0_conv), then a relu. The shortcut's
// bias and batch norm end the shortcut convolution's own epilogue, so its
// kernel stores the branch's value (bf16 under mixed_bfloat16, not the f32
// product) and the main convolution's epilogue only adds it: the fusion
// planner's "it ends <other contraction>'s epilogue".
// Against the interpreter's f32: DEFAULT is one bf16 MXU pass, so
// tolerance 2^-7 of the largest output (measured 1.7e-3). mixed_bfloat16
// against the interpreted program after the precision passes: 2^-10 (the
// same ops, rounded alike, in another kernel; measured 0). Both results
// are bit-identical to main's binary's (checked when written).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=3 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=3 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 1 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[1, 16, 16, 64]
// RUN: tpuc compile %s --precision=mixed_bfloat16 --dump-dir=%t/dump -o %t/bf16.tpx
// RUN: tpuc-run %t/bf16.tpx --random-inputs=3 --output-dir=%t/got-bf16
// RUN: tpuc interpret %t/dump/00-hlo.mlir --random-inputs=3 --output-dir=%t/want-bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/got-bf16 %t/want-bf16 1 0.0009765625 | FileCheck %s
// The shortcut's fusion applies its bias and batch norm and returns the
// bf16 branch; the main convolution's fusion applies its own and adds that
// branch, read as an operand (on main's binary the first fusion was the
// bare convolution returning f32, the second applied both branches).
// RUN: FileCheck %s --check-prefix=FUSED --input-file=%t/dump/01-fused.mlir
// FUSED: hlo.fusion output({{.*}}) -> tensor<1x16x16x64xbf16> {
// FUSED: hlo.convolution
// FUSED: hlo.add
// FUSED-NEXT: hlo.multiply
// FUSED-NEXT: hlo.add
// FUSED-NEXT: hlo.return {{.*}} : tensor<1x16x16x64xbf16>
// FUSED: hlo.fusion output({{.*}}, %0) :
// FUSED-NEXT: ^bb0({{.*}}, %[[BRANCH:arg[0-9]+]]: tensor<1x16x16x64xbf16>):
// FUSED: hlo.convolution
// FUSED: hlo.add
// FUSED-NEXT: hlo.multiply
// FUSED-NEXT: hlo.add
// FUSED-NEXT: hlo.add {{.*}}, %[[BRANCH]] :
// FUSED-NEXT: hlo.maximum

func.func @block(%x: tensor<1x16x16x32xf32>, %w: tensor<1x1x32x64xf32>,
                 %ws: tensor<1x1x32x64xf32>, %bias: tensor<64xf32>,
                 %s: tensor<64xf32>, %b: tensor<64xf32>,
                 %biass: tensor<64xf32>, %ss: tensor<64xf32>,
                 %bs: tensor<64xf32>) -> tensor<1x16x16x64xf32> {
  %c = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f">
       : (tensor<1x16x16x32xf32>, tensor<1x1x32x64xf32>) -> tensor<1x16x16x64xf32>
  %biasb = hlo.broadcast_in_dim %bias, dims = [3] : (tensor<64xf32>) -> tensor<1x16x16x64xf32>
  %sb = hlo.broadcast_in_dim %s, dims = [3] : (tensor<64xf32>) -> tensor<1x16x16x64xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [3] : (tensor<64xf32>) -> tensor<1x16x16x64xf32>
  %c1 = hlo.add %c, %biasb : tensor<1x16x16x64xf32>
  %m = hlo.multiply %c1, %sb : tensor<1x16x16x64xf32>
  %a = hlo.add %m, %bb : tensor<1x16x16x64xf32>
  %cs = hlo.convolution %x, %ws, dim_labels = <"b01f_01io->b01f">
       : (tensor<1x16x16x32xf32>, tensor<1x1x32x64xf32>) -> tensor<1x16x16x64xf32>
  %biassb = hlo.broadcast_in_dim %biass, dims = [3] : (tensor<64xf32>) -> tensor<1x16x16x64xf32>
  %ssb = hlo.broadcast_in_dim %ss, dims = [3] : (tensor<64xf32>) -> tensor<1x16x16x64xf32>
  %bsb = hlo.broadcast_in_dim %bs, dims = [3] : (tensor<64xf32>) -> tensor<1x16x16x64xf32>
  %cs1 = hlo.add %cs, %biassb : tensor<1x16x16x64xf32>
  %ms = hlo.multiply %cs1, %ssb : tensor<1x16x16x64xf32>
  %as = hlo.add %ms, %bsb : tensor<1x16x16x64xf32>
  %sum = hlo.add %a, %as : tensor<1x16x16x64xf32>
  %z = hlo.constant dense<0.0> : tensor<1x16x16x64xf32>
  %out = hlo.maximum %sum, %z : tensor<1x16x16x64xf32>
  return %out : tensor<1x16x16x64xf32>
}
