// The dot kernel's blocking (Dot.cpp, DotKernel::chooseBlocking) against the
// interpreter, with VMEM cut to 8 MiB so that small dots take several jobs
// of several N tiles: [1024,200] x [200,1000] runs 2 M panels of 512 rows
// x 2 column groups of 4 N tiles; x [200,1100] one 1024-row panel x 3
// column groups of 3 N tiles, each tile's rows in two parts, one per MXU.
// K = 200 is ragged (masked) and N ends inside a tile. f32 at DEFAULT
// precision: operands rounded to bf16 (2^-8 each), so over K = 200 random
// [-1,1) terms the error stays below 2^-7 of the largest output. The K
// order of every output element is the one-N-tile-per-MXU kernel's, so the
// results are bit-identical to it: with 2 MiB of VMEM the kernels fall
// back to 2 N tiles per job (16 and 20 jobs).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s --vmem=8MiB -o %t/dot.tpx
// RUN: tpuc-run %t/dot.tpx --random-inputs=11 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=11 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 2 0.0078125 | FileCheck %s
// CHECK: result0: ok shape=[1024, 1000]
// CHECK: result1: ok shape=[1024, 1100]
// RUN: tpuc compile %s --vmem=2MiB --emit=tpu -o %t/narrow.tpu.mlir
// RUN: FileCheck %s --check-prefix=NARROW < %t/narrow.tpu.mlir
// NARROW: tpu.loop %{{.+}} = 0 to %c16 {
// NARROW: tpu.sem_wait 1, 2{{$}}
// NARROW: tpu.loop %{{.+}} = 0 to %c20 {
// NARROW: tpu.sem_wait 1, 2{{$}}
// RUN: tpuc compile %s --vmem=2MiB -o %t/narrow.tpx
// RUN: tpuc-run %t/narrow.tpx --random-inputs=11 --output-dir=%t/narrow
// RUN: cmp %t/got/result0.npy %t/narrow/result0.npy
// RUN: cmp %t/got/result1.npy %t/narrow/result1.npy
//
// The HBM traffic of f32 [2048,1024] x [1024,4096] on tpu-v3: A (8 MiB) 4
// times, B (16 MiB) twice and C (32 MiB) once, 96 MiB. One N tile per MXU
// moved 176 MiB (A 16 times).
// RUN: tpuc compile %S/Inputs/dot-2048x1024x4096.hlo -o %t/big.tpx
// RUN: tpuc-run %t/big.tpx --timing-only --profile=json | FileCheck %s --check-prefix=BIG
// BIG: "hbm_bytes": 100663296,
//
// bf16 [1024,4096] x [4096,50000] on tpu-v3, which the time model calls
// MXU-bound whatever the blocking: the least traffic within 1% of the
// fastest, 980 MiB; 2 N tiles per job (the modeled-fastest) moved 1.9 GiB
// and took twice the cycles, the DMAs' per-transfer costs unmodeled.
// RUN: tpuc compile %S/Inputs/dot-1024x4096x50000-bf16.hlo -o %t/wide.tpx
// RUN: tpuc-run %t/wide.tpx --timing-only --profile=json | FileCheck %s --check-prefix=WIDE
// WIDE: "hbm_bytes": 1027604480,

func.func @main(%x: tensor<1024x200xf32>, %w: tensor<200x1000xf32>,
                %v: tensor<200x1100xf32>)
    -> (tensor<1024x1000xf32>, tensor<1024x1100xf32>) {
  %0 = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<1024x200xf32>, tensor<200x1000xf32>) -> tensor<1024x1000xf32>
  %1 = hlo.dot_general %x, %v, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<1024x200xf32>, tensor<200x1100xf32>) -> tensor<1024x1100xf32>
  return %0, %1 : tensor<1024x1000xf32>, tensor<1024x1100xf32>
}
