// HBM buffer reuse: a buffer is free after the last kernel that reads its
// value, and a later result of the same type takes it. The five results
// of this chain need two buffers (%a's for %c and %e, %b's for %d), and
// the emulator still matches the interpreter bit for bit (elementwise f32,
// tolerance 0).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s --fusion=off --emit=tpu -o %t/chain.tpu.mlir
// RUN: FileCheck %s --check-prefix=TPU < %t/chain.tpu.mlir
// TPU-COUNT-2: tpu.alloc : memref<64x256xf32, #tpu.tiled<{1,0:T(8,128)}>, #tpu.memory_space<hbm>>
// TPU-NOT: tpu.alloc : memref<64x256xf32, #tpu.tiled<{1,0:T(8,128)}>, #tpu.memory_space<hbm>>
// RUN: tpuc compile %s --fusion=off -o %t/chain.tpx
// RUN: tpuc-run %t/chain.tpx --random-inputs=2 --output-dir=%t/got
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
