// RUN: tpuc-opt %s --tpuc-simplify-scalars | FileCheck %s

// A loop kernel's tile addresses: the tile index from the byte offset, its
// row and sublane from the tile index. Known quotients and remainders go;
// the ones that depend on values with no known bound stay.
// CHECK-LABEL: func.func @tile_addresses
// CHECK: tpu.loop %[[I:.+]] = 0 to %c32 {
// CHECK-NOT: arith.remsi %[[I]]
// CHECK-NOT: arith.divsi %{{.+}}, %c4096
// CHECK: %[[ROW:.+]] = arith.divsi %[[I]], %c8 : index
// CHECK: %[[SUB:.+]] = arith.remsi %[[I]], %c8 : index
// CHECK: %[[ADDR:.+]] = arith.muli %[[ROW]], %c4096 : index
// CHECK: tpu.vload %{{.+}}[%[[ADDR]]]
// CHECK: tpu.vbcast_sublane %{{.+}}, %[[SUB]]
// CHECK: %[[T:.+]] = arith.divsi %arg0, %c3 : index
// CHECK: arith.remsi %[[T]], %c5 : index
// CHECK: %[[Q12:.+]] = arith.divsi %arg0, %c12 : index
// CHECK: return
func.func @tile_addresses(%n: index, %buf: memref<65536xf32, #tpu.memory_space<vmem>>) -> index {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  tpu.loop %i = 0 to %c32 {
    // The byte offset of tile i, and back: i, and a zero remainder.
    %off = arith.muli %i, %c4096 : index
    %tile = arith.divsi %off, %c4096 : index
    %zero = arith.remsi %off, %c4096 : index
    // i < 32 < 64: i rem 64 is i, i / 64 is 0.
    %wrapped = arith.remsi %tile, %c64 : index
    %outer = arith.divsi %tile, %c64 : index
    %row = arith.divsi %wrapped, %c8 : index
    %sub = arith.remsi %wrapped, %c8 : index
    %base = arith.muli %row, %c4096 : index
    %a = arith.addi %base, %zero : index
    %b = arith.muli %outer, %c4096 : index
    %addr = arith.addi %a, %b : index
    %x = tpu.vload %buf[%addr] : memref<65536xf32, #tpu.memory_space<vmem>> -> vector<8x128xf32>
    %y = tpu.vbcast_sublane %x, %sub : vector<8x128xf32>, index
    tpu.vstore %y, %buf[%addr] : vector<8x128xf32>, memref<65536xf32, #tpu.memory_space<vmem>>
  }
  // (n / 3) rem 5 and n / 3 / 4 = n / 12: the first stays, the quotients merge.
  %q = arith.divsi %n, %c3 : index
  %r = arith.remsi %q, %c5 : index
  %qq = arith.divsi %q, %c4 : index
  %s = arith.addi %r, %qq : index

  return %s : index
}
