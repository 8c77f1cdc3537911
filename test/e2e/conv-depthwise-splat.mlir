// Depthwise convolutions whose filter is a splat (`broadcast(constant)`,
// as in the corpus's depthwise_conv_3x3_1x256x56x56_bf16): the filter is an
// immediate (one vsplat register a tap), not filled into HBM and read back
// (docs/codegen.md "Depthwise NCHW"):
//   result0: bf16 1x64x56x56 3x3 pad 1 (the corpus graph's form): packed
//            NCHW, two planes a vreg
//   result1: f32 1x4x10x200 3x3 stride (2,1) pad 1: general NCHW (plane
//            wider than 128 lanes)
//   result2: f32 2x9x9x130 NHWC 3x3 pad 1 (two lane tiles of channels)
//   result3: f32 1x3x10x20 with a non-splat filter (read as an array)
// Products and their f32 sums in (kh, kw) order are the interpreter's, so
// the results are bit-exact (tolerance 0): in f32 against the program, in
// mixed_bfloat16 against the program after its precision passes (the
// filters are bf16 splats there).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc interpret %s --random-inputs=4 --output-dir=%t/want
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=4 --output-dir=%t/f32
// RUN: %python_numpy %S/Inputs/compare.py %t/f32 %t/want 4 0 | FileCheck %s
// RUN: tpuc compile %s --precision=mixed_bfloat16 --emit=hlo -o %t/bf16.hlo.mlir
// RUN: tpuc interpret %t/bf16.hlo.mlir --random-inputs=4 --output-dir=%t/want-bf16
// RUN: tpuc compile %s --precision=mixed_bfloat16 -o %t/bf16.tpx
// RUN: tpuc-run %t/bf16.tpx --random-inputs=4 --output-dir=%t/bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/bf16 %t/want-bf16 4 0 | FileCheck %s
// The lowered program: no HBM buffer of a splat filter's shape (no fill
// kernel); the non-splat filter keeps its buffer.
// RUN: tpuc-opt %s --canonicalize --tpuc-convert-hlo-to-tpu | FileCheck %s --check-prefix=TPU
// One memory truth (issue 11): the memory plan has no buffer for the splat
// filter either (compiler/analysis/Immediates.h, the rule the lowering
// uses), so the corpus graph's report and executable agree: no global,
// totals.used_bytes = tpuc-run's hbm_used_bytes (7,340,032: argument and
// result; 7,864,320 when the plan kept the 524,288-byte filter).
// RUN: tpuc compile %corpus/depthwise_conv_3x3_1x256x56x56_bf16.hlo -o %t/dw.tpx --report=memory --report-format=json > %t/dw-memory.json
// RUN: tpuc-run %t/dw.tpx --timing-only --profile=json > %t/dw-profile.json
// RUN: cat %t/dw-memory.json %t/dw-profile.json | FileCheck %s --check-prefix=USED
// CHECK: result0: ok shape=[1, 64, 56, 56] max_abs=0 max_rel=0
// CHECK: result1: ok shape=[1, 4, 5, 200] max_abs=0 max_rel=0
// CHECK: result2: ok shape=[2, 9, 9, 130] max_abs=0 max_rel=0
// CHECK: result3: ok shape=[1, 3, 10, 20] max_abs=0 max_rel=0
// TPU-LABEL: func.func @main
// TPU-NOT: memref<64x1x3x3xbf16
// TPU-NOT: memref<4x1x3x3xf32
// TPU-NOT: memref<3x3x1x130xf32
// TPU: memref<3x1x3x3xf32, {{.*}}> -> memref<{{.*}}, #tpu.memory_space<vmem>>

func.func @main(%x: tensor<1x64x56x56xbf16>, %y: tensor<1x4x10x200xf32>,
                %z: tensor<2x9x9x130xf32>, %u: tensor<1x3x10x20xf32>,
                %v: tensor<3x1x3x3xf32>)
    -> (tensor<1x64x56x56xbf16>, tensor<1x4x5x200xf32>,
        tensor<2x9x9x130xf32>, tensor<1x3x10x20xf32>) {
  %h = hlo.constant dense<1.001e-02> : tensor<bf16>
  %w = hlo.broadcast_in_dim %h, dims = [] : (tensor<bf16>) -> tensor<64x1x3x3xbf16>
  %0 = hlo.convolution %x, %w, dim_labels = <"bf01_oi01->bf01"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 64 : i64}
       : (tensor<1x64x56x56xbf16>, tensor<64x1x3x3xbf16>) -> tensor<1x64x56x56xbf16>
  %f = hlo.constant dense<-0.375> : tensor<f32>
  %wf = hlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<4x1x3x3xf32>
  %1 = hlo.convolution %y, %wf, dim_labels = <"bf01_oi01->bf01"> {window_strides = array<i64: 2, 1>, padding = array<i64: 1, 1, 1, 1>, feature_group_count = 4 : i64}
       : (tensor<1x4x10x200xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x5x200xf32>
  %g = hlo.constant dense<0.7> : tensor<f32>
  %wn = hlo.broadcast_in_dim %g, dims = [] : (tensor<f32>) -> tensor<3x3x1x130xf32>
  %2 = hlo.convolution %z, %wn, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 130 : i64}
       : (tensor<2x9x9x130xf32>, tensor<3x3x1x130xf32>) -> tensor<2x9x9x130xf32>
  %3 = hlo.convolution %u, %v, dim_labels = <"bf01_oi01->bf01"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 3 : i64}
       : (tensor<1x3x10x20xf32>, tensor<3x1x3x3xf32>) -> tensor<1x3x10x20xf32>
  return %0, %1, %2, %3 : tensor<1x64x56x56xbf16>, tensor<1x4x5x200xf32>, tensor<2x9x9x130xf32>, tensor<1x3x10x20xf32>
}
// USED:      "executable": {
// USED:        "global_bytes": 0,
// USED:        "used_bytes": [[USED:7340032]]
// USED:      "totals": {
// USED:        "global_bytes": 0,
// USED:        "used_bytes": [[USED]]
// USED:      "hbm_used_bytes": [[USED]],
// USED-NEXT: "hbm_planned_bytes": [[USED]],
