// An output fusion's epilogue (bias, residual, relu) on rows of 19 result
// tiles: the tile loop is unrolled by 8 (two iterations) and the last 3
// tiles follow inline; then a strided 1x1 convolution of that result with
// rows of 10 tiles (8 unrolled, 2 inline, no loop). Under mixed_bfloat16
// the first epilogue's result is bf16 (2 KiB tiles: consecutive rows share
// a staging page), so each row is written after the next is computed. f32 and
// mixed_bfloat16 against the interpreter's f32: one bf16 MXU pass, so
// 1e-2 of the largest output for f32 and 3e-2 for mixed_bfloat16
// (measured 3.2e-3 and 6.1e-3).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc interpret %s --random-inputs=7 --output-dir=%t/want
// RUN: tpuc compile %s -o %t/f32.tpx
// RUN: tpuc-run %t/f32.tpx --random-inputs=7 --output-dir=%t/f32
// RUN: %python_numpy %S/Inputs/compare.py %t/f32 %t/want 1 1e-2 | FileCheck %s
// RUN: tpuc compile %s --precision=mixed_bfloat16 -o %t/bf16.tpx
// RUN: tpuc-run %t/bf16.tpx --random-inputs=7 --output-dir=%t/bf16
// RUN: %python_numpy %S/Inputs/compare.py %t/bf16 %t/want 1 3e-2 | FileCheck %s
// RUN: tpuc translate --executable-to-text %t/bf16.tpx | FileCheck %s --check-prefix=BF16
// RUN: tpuc translate --executable-to-text %t/f32.tpx > %t/f32.txt
// RUN: FileCheck %s --check-prefix=EXE --strict-whitespace < %t/f32.txt
// RUN: FileCheck %s --check-prefix=SPLAT --strict-whitespace < %t/f32.txt
// RUN: FileCheck %s --check-prefix=ZERO < %t/f32.txt
// CHECK: result0: ok shape=[1, 3, 75, 16]
// Zeroing the bf16 halo: 8 stores of 2 KiB per iteration.
// ZERO: SMUL [[I:s[0-9]+]], s{{[0-9]+}}, 16384{{$}}
// ZERO-COUNT-8: VST v{{[0-9]+}}, [[I]]{{(\+[0-9]+)?}}, 0, BF16
// ZERO-NEXT: LOOP_END
// BF16: VMAX
// BF16-NOT: VMEM->HBM
// BF16: LOOP_BEGIN s{{[0-9]+}}, 5{{$}}
// BF16-NOT: VMEM->HBM
// BF16: VMAX
// BF16: DMA {{.*}}, 2048, 19, 2048, 2048, {{[0-9]+}}, VMEM->HBM
// BF16-NEXT: LOOP_END
// BF16-NEXT: DMA {{.*}}, 2048, 19, 2048, 2048, {{[0-9]+}}, VMEM->HBM
// The wide convolution's epilogue: 8 tiles per iteration of a loop in its
// row loop (indented twice), then 3.
// EXE: {{[0-9]+}}    LOOP_BEGIN s{{[0-9]+}}, 2{{$}}
// EXE-NOT: LOOP_
// EXE: VMAX
// EXE-COUNT-7: VMAX
// EXE-NEXT: VST
// EXE-NEXT: LOOP_END
// EXE-NOT: LOOP_
// EXE-COUNT-3: VMAX
// EXE: DMA {{.*}}VMEM->HBM
// The relu's zero: one splat per run of tiles.
// SPLAT: {{[0-9]+}}    LOOP_BEGIN s{{[0-9]+}}, 2{{$}}
// SPLAT-NOT: LOOP_
// SPLAT: VSPLAT [[RELU0:v[0-9]+]], 0{{$}}
// SPLAT-NOT: {{LOOP_|VSPLAT}}
// SPLAT: VMAX v{{[0-9]+}}, v{{[0-9]+}}, [[RELU0]], F32
// SPLAT-NOT: {{LOOP_|VSPLAT}}
// SPLAT: LOOP_END
// SPLAT-NOT: LOOP_
// SPLAT: VSPLAT
// SPLAT-NOT: {{LOOP_|VSPLAT}}
// SPLAT: DMA {{.*}}VMEM->HBM
// The 1x1 convolution's: its 10 tiles inline.
// EXE: VMAX
// EXE-NOT: LOOP_
// EXE-COUNT-9: VMAX
// EXE: DMA {{.*}}VMEM->HBM

func.func @main(%x: tensor<1x6x150x8xf32>, %w: tensor<3x3x8x16xf32>,
                %b: tensor<16xf32>, %r: tensor<1x6x150x16xf32>,
                %v: tensor<1x1x16x16xf32>)
    -> tensor<1x3x75x16xf32> {
  %c = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<1x6x150x8xf32>, tensor<3x3x8x16xf32>) -> tensor<1x6x150x16xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [3] : (tensor<16xf32>) -> tensor<1x6x150x16xf32>
  %a = hlo.add %c, %bb : tensor<1x6x150x16xf32>
  %s = hlo.add %a, %r : tensor<1x6x150x16xf32>
  %z = hlo.constant dense<0.0> : tensor<1x6x150x16xf32>
  %o = hlo.maximum %s, %z : tensor<1x6x150x16xf32>
  %c2 = hlo.convolution %o, %v, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>}
       : (tensor<1x6x150x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x3x75x16xf32>
  %b2 = hlo.broadcast_in_dim %b, dims = [3] : (tensor<16xf32>) -> tensor<1x3x75x16xf32>
  %m2 = hlo.multiply %c2, %b2 : tensor<1x3x75x16xf32>
  %z2 = hlo.constant dense<0.0> : tensor<1x3x75x16xf32>
  %o2 = hlo.maximum %m2, %z2 : tensor<1x3x75x16xf32>
  return %o2 : tensor<1x3x75x16xf32>
}
