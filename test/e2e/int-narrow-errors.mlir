// What `tpuc compile` says today about s8/u8/s16/u16 and f16 arrays
// (docs/integers.md): one error at the first op that produces one, naming
// the op and the type, exit 1. Entry parameters and results of these types
// are rejected before that.
// RUN: rm -rf %t && split-file %s %t
// RUN: not tpuc compile %t/entry.mlir -o %t/e.tpx 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not tpuc compile %t/s8.mlir -o %t/s8.tpx 2>&1 | FileCheck %s --check-prefix=S8
// RUN: not tpuc compile %t/u16.mlir -o %t/u16.tpx 2>&1 | FileCheck %s --check-prefix=U16
// RUN: not tpuc compile %t/f16.mlir -o %t/f16.tpx 2>&1 | FileCheck %s --check-prefix=F16
// RUN: not tpuc compile %t/s64pow.mlir -o %t/d.tpx 2>&1 | FileCheck %s --check-prefix=POW
// RUN: not ls %t/e.tpx %t/s8.tpx %t/u16.tpx %t/f16.tpx %t/d.tpx
// ENTRY: entry.mlir:1:17: error: tpuc cannot lower entry type 'tensor<8x128xi8>' yet (f32, bf16, s32 and u32 arrays only)
// S8: s8.mlir:2:8: error: tpuc cannot lower 'hlo.convert' producing tensor<8x128xi8> yet
// U16: u16.mlir:2:8: error: tpuc cannot lower 'hlo.convert' producing tensor<8x128xui16> yet
// F16: f16.mlir:2:8: error: tpuc cannot lower 'hlo.convert' producing tensor<8x128xf16> yet
// POW: s64pow.mlir:2:8: error: tpuc does not emulate 64-bit integer 'hlo.power' on 'tensor<8xi64>' (tpuc-expand-x64 has no word form for it; docs/integers.md)

//--- entry.mlir
func.func @main(%a: tensor<8x128xi8>) -> tensor<8x128xi8> {
  %r = hlo.add %a, %a : tensor<8x128xi8>
  return %r : tensor<8x128xi8>
}
//--- s8.mlir
func.func @main(%a: tensor<8x128xi32>) -> tensor<8x128xi32> {
  %n = hlo.convert %a : (tensor<8x128xi32>) -> tensor<8x128xi8>
  %s = hlo.add %n, %n : tensor<8x128xi8>
  %r = hlo.convert %s : (tensor<8x128xi8>) -> tensor<8x128xi32>
  return %r : tensor<8x128xi32>
}
//--- u16.mlir
func.func @main(%a: tensor<8x128xi32>) -> tensor<8x128xi32> {
  %n = hlo.convert %a : (tensor<8x128xi32>) -> tensor<8x128xui16>
  %s = hlo.multiply %n, %n : tensor<8x128xui16>
  %r = hlo.convert %s : (tensor<8x128xui16>) -> tensor<8x128xi32>
  return %r : tensor<8x128xi32>
}
//--- f16.mlir
func.func @main(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %n = hlo.convert %a : (tensor<8x128xf32>) -> tensor<8x128xf16>
  %s = hlo.add %n, %n : tensor<8x128xf16>
  %r = hlo.convert %s : (tensor<8x128xf16>) -> tensor<8x128xf32>
  return %r : tensor<8x128xf32>
}
//--- s64pow.mlir
func.func @main(%a: tensor<8xi64>) -> tensor<8xi64> {
  %r = hlo.power %a, %a : tensor<8xi64>
  return %r : tensor<8xi64>
}
