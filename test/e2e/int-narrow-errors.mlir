// What `tpuc compile` still rejects of the integer and narrow types
// (docs/integers.md), with one error naming the op and the type, exit 1
// and no output: entry parameters of other types (s8/u8/s16/u16 ones
// compile: int-narrow-entry.mlir, f16 ones too: f16.mlir), ops without an
// s32 form on them (mulhi, bitcast_convert), bitcast_convert on f16 (f16
// arithmetic compiles: f16.mlir), and a grouped s64 convolution.
// RUN: rm -rf %t && split-file %s %t
// RUN: not tpuc compile %t/entry.mlir -o %t/e.tpx 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not tpuc compile %t/s8.mlir -o %t/s8.tpx 2>&1 | FileCheck %s --check-prefix=S8
// RUN: not tpuc compile %t/u16.mlir -o %t/u16.tpx 2>&1 | FileCheck %s --check-prefix=U16
// RUN: not tpuc compile %t/f16.mlir -o %t/f16.tpx 2>&1 | FileCheck %s --check-prefix=F16
// RUN: not tpuc compile %t/s64conv.mlir -o %t/d.tpx 2>&1 | FileCheck %s --check-prefix=POW
// RUN: not ls %t/e.tpx %t/s8.tpx %t/u16.tpx %t/f16.tpx %t/d.tpx
// ENTRY: entry.mlir:1:17: error: tpuc cannot lower entry type 'tensor<8x128xf64>' yet (f32, bf16, f16, s32, u32, s8, u8, s16, u16 and pred arrays only)
// S8: s8.mlir:3:8: error: tpuc does not compute 'hlo.mulhi' on 4-, 8- or 16-bit integers yet (docs/integers.md)
// U16: u16.mlir:2:8: error: tpuc does not compute 'hlo.bitcast_convert' on 4-, 8- or 16-bit integers yet (docs/integers.md)
// F16: f16.mlir:2:8: error: tpuc does not compute 'hlo.bitcast_convert' on f16 or f8 types yet (docs/integers.md)
// POW: s64conv.mlir:2:8: error: tpuc emulates a 64-bit integer convolution only with feature_group_count and batch_group_count 1

//--- entry.mlir
func.func @main(%a: tensor<8x128xf64>) -> tensor<8x128xf64> {
  return %a : tensor<8x128xf64>
}
//--- s8.mlir
func.func @main(%a: tensor<8x128xi32>) -> tensor<8x128xi32> {
  %n = hlo.convert %a : (tensor<8x128xi32>) -> tensor<8x128xi8>
  %s = hlo.mulhi %n, %n : tensor<8x128xi8>
  %r = hlo.convert %s : (tensor<8x128xi8>) -> tensor<8x128xi32>
  return %r : tensor<8x128xi32>
}
//--- u16.mlir
func.func @main(%a: tensor<8x128xi32>) -> tensor<8x128x2xui16> {
  %r = hlo.bitcast_convert %a : (tensor<8x128xi32>) -> tensor<8x128x2xui16>
  return %r : tensor<8x128x2xui16>
}
//--- f16.mlir
func.func @main(%a: tensor<8x128xi32>) -> tensor<8x128x2xf16> {
  %r = hlo.bitcast_convert %a : (tensor<8x128xi32>) -> tensor<8x128x2xf16>
  return %r : tensor<8x128x2xf16>
}
//--- s64conv.mlir
func.func @main(%a: tensor<1x3x8x8xi64>, %b: tensor<3x1x3x3xi64>) -> tensor<1x3x6x6xi64> {
  %r = hlo.convolution %a, %b, dim_labels = <"bf01_oi01->bf01"> {feature_group_count = 3 : i64} : (tensor<1x3x8x8xi64>, tensor<3x1x3x3xi64>) -> tensor<1x3x6x6xi64>
  return %r : tensor<1x3x6x6xi64>
}
