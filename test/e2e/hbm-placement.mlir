// HBM placement: every buffer is used in the steps (top-level ops) its
// kernels run in (tpu.live), the lowering records the memory plan's offset
// of the value it holds (tpu.plan_offset), and the serializer places the
// buffers there: the five values of this chain share two 64 KiB slots
// (%a's for %c and %e, %b's for %d), the executable's HBM is the memory
// plan's to the byte, and the emulator still matches the interpreter bit
// for bit (elementwise f32, tolerance 0).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s --fusion=off --emit=tpu -o %t/chain.tpu.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/chain.tpu.mlir
// TPU: module attributes {tpu.planned_hbm_bytes = 196608 : i64
// TPU: tpu.alloc {tpu.live = array<i64: 1, 2>, tpu.plan_offset = 0 : i64} : memref<64x256xf32
// TPU: tpu.alloc {tpu.live = array<i64: 2, 3>, tpu.plan_offset = 65536 : i64} : memref<64x256xf32
// TPU: tpu.alloc {tpu.live = array<i64: 3, 4>, tpu.plan_offset = 0 : i64} : memref<64x256xf32
// TPU: tpu.alloc {tpu.live = array<i64: 4, 5>, tpu.plan_offset = 65536 : i64} : memref<64x256xf32
// The returned buffer lives to the end (step 6: the result copies).
// TPU: tpu.alloc {tpu.live = array<i64: 5, 6>, tpu.plan_offset = 0 : i64} : memref<64x256xf32
// RUN: tpuc compile %s --fusion=off -o %t/chain.tpx
// RUN: tpuc translate --executable-to-text %t/chain.tpx -o - | FileCheck %s --check-prefix=EXE
// EXE: buffer 0 "arg0" offset 0 size 65536{{$}}
// EXE-NEXT: buffer 1 "scratch0" offset 65536 size 65536 heap steps 1..2 planned
// EXE-NEXT: buffer 2 "scratch1" offset 131072 size 65536 heap steps 2..3 planned
// EXE-NEXT: buffer 3 "scratch2" offset 65536 size 65536 heap steps 3..4 planned
// EXE-NEXT: buffer 4 "scratch3" offset 131072 size 65536 heap steps 4..5 planned
// EXE-NEXT: buffer 5 "result0" offset 65536 size 65536 heap steps 5..6 planned
// EXE: hbm: arguments 65536, constants 0, heap 131072, used 196608 (plan 196608), 5 buffers at planned offsets, 0 placed around them
// RUN: tpuc-run %t/chain.tpx --random-inputs=2 --output-dir=%t/got --profile=json > %t/profile.json
// RUN: FileCheck %s --check-prefix=PROFILE < %t/profile.json
// PROFILE: "hbm_used_bytes": 196608,
// PROFILE-NEXT: "hbm_planned_bytes": 196608,
// RUN: tpuc interpret %s --random-inputs=2 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 1 0 1 | FileCheck %s
// CHECK: result0: ok shape=[64, 256] max_abs=0

func.func @chain(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %a = hlo.exponential %x : tensor<64x256xf32>
  %b = hlo.multiply %a, %x : tensor<64x256xf32>
  %c = hlo.add %b, %x : tensor<64x256xf32>
  %d = hlo.tanh %c : tensor<64x256xf32>
  %e = hlo.subtract %d, %x : tensor<64x256xf32>
  return %e : tensor<64x256xf32>
}
