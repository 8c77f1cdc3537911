// Register spilling (compiler/serializer/RegisterAllocator.h): kernels with
// more than 32 live vregs, or 31 live scalars, serialize and run. The values
// a_i = lane + i (i = 0..39) are all live at once and then consumed in
// reverse, weighted: T = sum_i a_i * (i + 1) = lane * 820 + 21320 (a value
// reloaded from the wrong slot or register changes it).
// RUN: rm -rf %t && split-file --leading-lines %s %t
//
// Straight-line: the farthest-used values go to the VMEM spill area after
// the program's buffer (offset 0, 4096 bytes) and come back before use.
// RUN: tpuc translate --tpu-to-executable %t/straight.mlir -o %t/straight.tpx
// RUN: tpuc translate --tpu-to-executable %t/straight.mlir -o %t/again.tpx
// RUN: cmp %t/straight.tpx %t/again.tpx
// RUN: tpuc translate --executable-to-text %t/straight.tpx | FileCheck %s --check-prefix=STRAIGHT
// RUN: tpuc-run %t/straight.tpx --output-dir=%t/straight
// STRAIGHT: VST v{{[0-9]+}}, 4096, 0, S32
// STRAIGHT: VLD v{{[0-9]+}}, 4096, 0, S32
//
// Spilled across a loop and an if: the values defined before the loop are
// read in every iteration (and after it); each iteration starts with them
// where the first found them, so the body's end reloads what it moved
// before LOOP_END. Iteration 0 takes the else branch (adds a_0 + a_39),
// the others the then branch: 3T + a_0 + a_39, then + a_1 + a_38.
// RUN: tpuc translate --tpu-to-executable %t/loop.mlir -o %t/loop.tpx
// RUN: tpuc translate --executable-to-text %t/loop.tpx | FileCheck %s --check-prefix=LOOP
// RUN: tpuc-run %t/loop.tpx --output-dir=%t/loop
// LOOP:      LOOP_BEGIN
// LOOP:        BRNZ
// LOOP:        VLD v{{[0-9]+}}, {{[0-9]+}}, 0, S32
// LOOP:        BR
// LOOP:        VLD v{{[0-9]+}}, {{[0-9]+}}, 0, S32
// LOOP:        LOOP_END
//
// 40 live scalars (iv - (-j), a subtraction: an add of a constant would be
// folded into its users, docs/tpu-dialect.md) in a loop: scalar registers spill to SMEM with
// SST/SLD; the loop counter (LOOP_END reads it) stays in its register.
// sum over iv = 0, 1 of sum_j (iv + j) * (j + 1) = 43460.
// RUN: tpuc translate --tpu-to-executable %t/scalars.mlir -o %t/scalars.tpx
// RUN: tpuc translate --executable-to-text %t/scalars.tpx > %t/scalars.txt
// RUN: FileCheck %s --check-prefix=SCALARS < %t/scalars.txt
// RUN: FileCheck %s --check-prefix=COUNTER < %t/scalars.txt
// RUN: tpuc-run %t/scalars.tpx --output-dir=%t/scalars
// SCALARS:     LOOP_BEGIN
// SCALARS:       SST s{{[0-9]+}}, 0
// SCALARS:       SLD s{{[0-9]+}}, 0
// SCALARS:     LOOP_END
// COUNTER:     LOOP_BEGIN [[I:s[0-9]+]], 2
// COUNTER-NOT: SLD [[I]],
// COUNTER:     LOOP_END
//
// RUN: %python_numpy -c "import numpy as np; l = np.arange(128)[None, :]; T = l * 820 + 21320; want = {'straight': T, 'loop': 3 * T + 4 * l + 78, 'scalars': np.full((1, 128), 43460)}; print(*[k + (': ok' if (np.load('%t/' + k + '/result0.npy') == w).all() else ': WRONG') for k, w in want.items()])" | FileCheck %s --check-prefix=NUM
// NUM: straight: ok loop: ok scalars: ok

//--- straight.mlir
#hbm = #tpu.memory_space<hbm>
#vmem = #tpu.memory_space<vmem>
#x = #tpu.tiled<{1,0:T(8,128)}>

func.func @main() -> memref<8x128xi32, #x, #hbm> {
  %c0 = arith.constant 0 : index
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %k2 = arith.constant 2 : index
  %k3 = arith.constant 3 : index
  %k4 = arith.constant 4 : index
  %k5 = arith.constant 5 : index
  %k6 = arith.constant 6 : index
  %k7 = arith.constant 7 : index
  %k8 = arith.constant 8 : index
  %k9 = arith.constant 9 : index
  %k10 = arith.constant 10 : index
  %k11 = arith.constant 11 : index
  %k12 = arith.constant 12 : index
  %k13 = arith.constant 13 : index
  %k14 = arith.constant 14 : index
  %k15 = arith.constant 15 : index
  %k16 = arith.constant 16 : index
  %k17 = arith.constant 17 : index
  %k18 = arith.constant 18 : index
  %k19 = arith.constant 19 : index
  %k20 = arith.constant 20 : index
  %k21 = arith.constant 21 : index
  %k22 = arith.constant 22 : index
  %k23 = arith.constant 23 : index
  %k24 = arith.constant 24 : index
  %k25 = arith.constant 25 : index
  %k26 = arith.constant 26 : index
  %k27 = arith.constant 27 : index
  %k28 = arith.constant 28 : index
  %k29 = arith.constant 29 : index
  %k30 = arith.constant 30 : index
  %k31 = arith.constant 31 : index
  %k32 = arith.constant 32 : index
  %k33 = arith.constant 33 : index
  %k34 = arith.constant 34 : index
  %k35 = arith.constant 35 : index
  %k36 = arith.constant 36 : index
  %k37 = arith.constant 37 : index
  %k38 = arith.constant 38 : index
  %k39 = arith.constant 39 : index
  %k40 = arith.constant 40 : index
  %y = tpu.alloc : memref<8x128xi32, #x, #hbm>
  %m = tpu.alloc : memref<8x128xi32, #vmem>
  %lane = tpu.vlane_id : vector<8x128xi32>
  %s0 = tpu.vsplat %k0 : index -> vector<8x128xi32>
  %a0 = tpu.vadd %lane, %s0 : vector<8x128xi32>
  %s1 = tpu.vsplat %k1 : index -> vector<8x128xi32>
  %a1 = tpu.vadd %lane, %s1 : vector<8x128xi32>
  %s2 = tpu.vsplat %k2 : index -> vector<8x128xi32>
  %a2 = tpu.vadd %lane, %s2 : vector<8x128xi32>
  %s3 = tpu.vsplat %k3 : index -> vector<8x128xi32>
  %a3 = tpu.vadd %lane, %s3 : vector<8x128xi32>
  %s4 = tpu.vsplat %k4 : index -> vector<8x128xi32>
  %a4 = tpu.vadd %lane, %s4 : vector<8x128xi32>
  %s5 = tpu.vsplat %k5 : index -> vector<8x128xi32>
  %a5 = tpu.vadd %lane, %s5 : vector<8x128xi32>
  %s6 = tpu.vsplat %k6 : index -> vector<8x128xi32>
  %a6 = tpu.vadd %lane, %s6 : vector<8x128xi32>
  %s7 = tpu.vsplat %k7 : index -> vector<8x128xi32>
  %a7 = tpu.vadd %lane, %s7 : vector<8x128xi32>
  %s8 = tpu.vsplat %k8 : index -> vector<8x128xi32>
  %a8 = tpu.vadd %lane, %s8 : vector<8x128xi32>
  %s9 = tpu.vsplat %k9 : index -> vector<8x128xi32>
  %a9 = tpu.vadd %lane, %s9 : vector<8x128xi32>
  %s10 = tpu.vsplat %k10 : index -> vector<8x128xi32>
  %a10 = tpu.vadd %lane, %s10 : vector<8x128xi32>
  %s11 = tpu.vsplat %k11 : index -> vector<8x128xi32>
  %a11 = tpu.vadd %lane, %s11 : vector<8x128xi32>
  %s12 = tpu.vsplat %k12 : index -> vector<8x128xi32>
  %a12 = tpu.vadd %lane, %s12 : vector<8x128xi32>
  %s13 = tpu.vsplat %k13 : index -> vector<8x128xi32>
  %a13 = tpu.vadd %lane, %s13 : vector<8x128xi32>
  %s14 = tpu.vsplat %k14 : index -> vector<8x128xi32>
  %a14 = tpu.vadd %lane, %s14 : vector<8x128xi32>
  %s15 = tpu.vsplat %k15 : index -> vector<8x128xi32>
  %a15 = tpu.vadd %lane, %s15 : vector<8x128xi32>
  %s16 = tpu.vsplat %k16 : index -> vector<8x128xi32>
  %a16 = tpu.vadd %lane, %s16 : vector<8x128xi32>
  %s17 = tpu.vsplat %k17 : index -> vector<8x128xi32>
  %a17 = tpu.vadd %lane, %s17 : vector<8x128xi32>
  %s18 = tpu.vsplat %k18 : index -> vector<8x128xi32>
  %a18 = tpu.vadd %lane, %s18 : vector<8x128xi32>
  %s19 = tpu.vsplat %k19 : index -> vector<8x128xi32>
  %a19 = tpu.vadd %lane, %s19 : vector<8x128xi32>
  %s20 = tpu.vsplat %k20 : index -> vector<8x128xi32>
  %a20 = tpu.vadd %lane, %s20 : vector<8x128xi32>
  %s21 = tpu.vsplat %k21 : index -> vector<8x128xi32>
  %a21 = tpu.vadd %lane, %s21 : vector<8x128xi32>
  %s22 = tpu.vsplat %k22 : index -> vector<8x128xi32>
  %a22 = tpu.vadd %lane, %s22 : vector<8x128xi32>
  %s23 = tpu.vsplat %k23 : index -> vector<8x128xi32>
  %a23 = tpu.vadd %lane, %s23 : vector<8x128xi32>
  %s24 = tpu.vsplat %k24 : index -> vector<8x128xi32>
  %a24 = tpu.vadd %lane, %s24 : vector<8x128xi32>
  %s25 = tpu.vsplat %k25 : index -> vector<8x128xi32>
  %a25 = tpu.vadd %lane, %s25 : vector<8x128xi32>
  %s26 = tpu.vsplat %k26 : index -> vector<8x128xi32>
  %a26 = tpu.vadd %lane, %s26 : vector<8x128xi32>
  %s27 = tpu.vsplat %k27 : index -> vector<8x128xi32>
  %a27 = tpu.vadd %lane, %s27 : vector<8x128xi32>
  %s28 = tpu.vsplat %k28 : index -> vector<8x128xi32>
  %a28 = tpu.vadd %lane, %s28 : vector<8x128xi32>
  %s29 = tpu.vsplat %k29 : index -> vector<8x128xi32>
  %a29 = tpu.vadd %lane, %s29 : vector<8x128xi32>
  %s30 = tpu.vsplat %k30 : index -> vector<8x128xi32>
  %a30 = tpu.vadd %lane, %s30 : vector<8x128xi32>
  %s31 = tpu.vsplat %k31 : index -> vector<8x128xi32>
  %a31 = tpu.vadd %lane, %s31 : vector<8x128xi32>
  %s32 = tpu.vsplat %k32 : index -> vector<8x128xi32>
  %a32 = tpu.vadd %lane, %s32 : vector<8x128xi32>
  %s33 = tpu.vsplat %k33 : index -> vector<8x128xi32>
  %a33 = tpu.vadd %lane, %s33 : vector<8x128xi32>
  %s34 = tpu.vsplat %k34 : index -> vector<8x128xi32>
  %a34 = tpu.vadd %lane, %s34 : vector<8x128xi32>
  %s35 = tpu.vsplat %k35 : index -> vector<8x128xi32>
  %a35 = tpu.vadd %lane, %s35 : vector<8x128xi32>
  %s36 = tpu.vsplat %k36 : index -> vector<8x128xi32>
  %a36 = tpu.vadd %lane, %s36 : vector<8x128xi32>
  %s37 = tpu.vsplat %k37 : index -> vector<8x128xi32>
  %a37 = tpu.vadd %lane, %s37 : vector<8x128xi32>
  %s38 = tpu.vsplat %k38 : index -> vector<8x128xi32>
  %a38 = tpu.vadd %lane, %s38 : vector<8x128xi32>
  %s39 = tpu.vsplat %k39 : index -> vector<8x128xi32>
  %a39 = tpu.vadd %lane, %s39 : vector<8x128xi32>
  %tw39 = tpu.vsplat %k40 : index -> vector<8x128xi32>
  %tp39 = tpu.vmul %a39, %tw39 : vector<8x128xi32>
  %tw38 = tpu.vsplat %k39 : index -> vector<8x128xi32>
  %tp38 = tpu.vmul %a38, %tw38 : vector<8x128xi32>
  %tq38 = tpu.vadd %tp39, %tp38 : vector<8x128xi32>
  %tw37 = tpu.vsplat %k38 : index -> vector<8x128xi32>
  %tp37 = tpu.vmul %a37, %tw37 : vector<8x128xi32>
  %tq37 = tpu.vadd %tq38, %tp37 : vector<8x128xi32>
  %tw36 = tpu.vsplat %k37 : index -> vector<8x128xi32>
  %tp36 = tpu.vmul %a36, %tw36 : vector<8x128xi32>
  %tq36 = tpu.vadd %tq37, %tp36 : vector<8x128xi32>
  %tw35 = tpu.vsplat %k36 : index -> vector<8x128xi32>
  %tp35 = tpu.vmul %a35, %tw35 : vector<8x128xi32>
  %tq35 = tpu.vadd %tq36, %tp35 : vector<8x128xi32>
  %tw34 = tpu.vsplat %k35 : index -> vector<8x128xi32>
  %tp34 = tpu.vmul %a34, %tw34 : vector<8x128xi32>
  %tq34 = tpu.vadd %tq35, %tp34 : vector<8x128xi32>
  %tw33 = tpu.vsplat %k34 : index -> vector<8x128xi32>
  %tp33 = tpu.vmul %a33, %tw33 : vector<8x128xi32>
  %tq33 = tpu.vadd %tq34, %tp33 : vector<8x128xi32>
  %tw32 = tpu.vsplat %k33 : index -> vector<8x128xi32>
  %tp32 = tpu.vmul %a32, %tw32 : vector<8x128xi32>
  %tq32 = tpu.vadd %tq33, %tp32 : vector<8x128xi32>
  %tw31 = tpu.vsplat %k32 : index -> vector<8x128xi32>
  %tp31 = tpu.vmul %a31, %tw31 : vector<8x128xi32>
  %tq31 = tpu.vadd %tq32, %tp31 : vector<8x128xi32>
  %tw30 = tpu.vsplat %k31 : index -> vector<8x128xi32>
  %tp30 = tpu.vmul %a30, %tw30 : vector<8x128xi32>
  %tq30 = tpu.vadd %tq31, %tp30 : vector<8x128xi32>
  %tw29 = tpu.vsplat %k30 : index -> vector<8x128xi32>
  %tp29 = tpu.vmul %a29, %tw29 : vector<8x128xi32>
  %tq29 = tpu.vadd %tq30, %tp29 : vector<8x128xi32>
  %tw28 = tpu.vsplat %k29 : index -> vector<8x128xi32>
  %tp28 = tpu.vmul %a28, %tw28 : vector<8x128xi32>
  %tq28 = tpu.vadd %tq29, %tp28 : vector<8x128xi32>
  %tw27 = tpu.vsplat %k28 : index -> vector<8x128xi32>
  %tp27 = tpu.vmul %a27, %tw27 : vector<8x128xi32>
  %tq27 = tpu.vadd %tq28, %tp27 : vector<8x128xi32>
  %tw26 = tpu.vsplat %k27 : index -> vector<8x128xi32>
  %tp26 = tpu.vmul %a26, %tw26 : vector<8x128xi32>
  %tq26 = tpu.vadd %tq27, %tp26 : vector<8x128xi32>
  %tw25 = tpu.vsplat %k26 : index -> vector<8x128xi32>
  %tp25 = tpu.vmul %a25, %tw25 : vector<8x128xi32>
  %tq25 = tpu.vadd %tq26, %tp25 : vector<8x128xi32>
  %tw24 = tpu.vsplat %k25 : index -> vector<8x128xi32>
  %tp24 = tpu.vmul %a24, %tw24 : vector<8x128xi32>
  %tq24 = tpu.vadd %tq25, %tp24 : vector<8x128xi32>
  %tw23 = tpu.vsplat %k24 : index -> vector<8x128xi32>
  %tp23 = tpu.vmul %a23, %tw23 : vector<8x128xi32>
  %tq23 = tpu.vadd %tq24, %tp23 : vector<8x128xi32>
  %tw22 = tpu.vsplat %k23 : index -> vector<8x128xi32>
  %tp22 = tpu.vmul %a22, %tw22 : vector<8x128xi32>
  %tq22 = tpu.vadd %tq23, %tp22 : vector<8x128xi32>
  %tw21 = tpu.vsplat %k22 : index -> vector<8x128xi32>
  %tp21 = tpu.vmul %a21, %tw21 : vector<8x128xi32>
  %tq21 = tpu.vadd %tq22, %tp21 : vector<8x128xi32>
  %tw20 = tpu.vsplat %k21 : index -> vector<8x128xi32>
  %tp20 = tpu.vmul %a20, %tw20 : vector<8x128xi32>
  %tq20 = tpu.vadd %tq21, %tp20 : vector<8x128xi32>
  %tw19 = tpu.vsplat %k20 : index -> vector<8x128xi32>
  %tp19 = tpu.vmul %a19, %tw19 : vector<8x128xi32>
  %tq19 = tpu.vadd %tq20, %tp19 : vector<8x128xi32>
  %tw18 = tpu.vsplat %k19 : index -> vector<8x128xi32>
  %tp18 = tpu.vmul %a18, %tw18 : vector<8x128xi32>
  %tq18 = tpu.vadd %tq19, %tp18 : vector<8x128xi32>
  %tw17 = tpu.vsplat %k18 : index -> vector<8x128xi32>
  %tp17 = tpu.vmul %a17, %tw17 : vector<8x128xi32>
  %tq17 = tpu.vadd %tq18, %tp17 : vector<8x128xi32>
  %tw16 = tpu.vsplat %k17 : index -> vector<8x128xi32>
  %tp16 = tpu.vmul %a16, %tw16 : vector<8x128xi32>
  %tq16 = tpu.vadd %tq17, %tp16 : vector<8x128xi32>
  %tw15 = tpu.vsplat %k16 : index -> vector<8x128xi32>
  %tp15 = tpu.vmul %a15, %tw15 : vector<8x128xi32>
  %tq15 = tpu.vadd %tq16, %tp15 : vector<8x128xi32>
  %tw14 = tpu.vsplat %k15 : index -> vector<8x128xi32>
  %tp14 = tpu.vmul %a14, %tw14 : vector<8x128xi32>
  %tq14 = tpu.vadd %tq15, %tp14 : vector<8x128xi32>
  %tw13 = tpu.vsplat %k14 : index -> vector<8x128xi32>
  %tp13 = tpu.vmul %a13, %tw13 : vector<8x128xi32>
  %tq13 = tpu.vadd %tq14, %tp13 : vector<8x128xi32>
  %tw12 = tpu.vsplat %k13 : index -> vector<8x128xi32>
  %tp12 = tpu.vmul %a12, %tw12 : vector<8x128xi32>
  %tq12 = tpu.vadd %tq13, %tp12 : vector<8x128xi32>
  %tw11 = tpu.vsplat %k12 : index -> vector<8x128xi32>
  %tp11 = tpu.vmul %a11, %tw11 : vector<8x128xi32>
  %tq11 = tpu.vadd %tq12, %tp11 : vector<8x128xi32>
  %tw10 = tpu.vsplat %k11 : index -> vector<8x128xi32>
  %tp10 = tpu.vmul %a10, %tw10 : vector<8x128xi32>
  %tq10 = tpu.vadd %tq11, %tp10 : vector<8x128xi32>
  %tw9 = tpu.vsplat %k10 : index -> vector<8x128xi32>
  %tp9 = tpu.vmul %a9, %tw9 : vector<8x128xi32>
  %tq9 = tpu.vadd %tq10, %tp9 : vector<8x128xi32>
  %tw8 = tpu.vsplat %k9 : index -> vector<8x128xi32>
  %tp8 = tpu.vmul %a8, %tw8 : vector<8x128xi32>
  %tq8 = tpu.vadd %tq9, %tp8 : vector<8x128xi32>
  %tw7 = tpu.vsplat %k8 : index -> vector<8x128xi32>
  %tp7 = tpu.vmul %a7, %tw7 : vector<8x128xi32>
  %tq7 = tpu.vadd %tq8, %tp7 : vector<8x128xi32>
  %tw6 = tpu.vsplat %k7 : index -> vector<8x128xi32>
  %tp6 = tpu.vmul %a6, %tw6 : vector<8x128xi32>
  %tq6 = tpu.vadd %tq7, %tp6 : vector<8x128xi32>
  %tw5 = tpu.vsplat %k6 : index -> vector<8x128xi32>
  %tp5 = tpu.vmul %a5, %tw5 : vector<8x128xi32>
  %tq5 = tpu.vadd %tq6, %tp5 : vector<8x128xi32>
  %tw4 = tpu.vsplat %k5 : index -> vector<8x128xi32>
  %tp4 = tpu.vmul %a4, %tw4 : vector<8x128xi32>
  %tq4 = tpu.vadd %tq5, %tp4 : vector<8x128xi32>
  %tw3 = tpu.vsplat %k4 : index -> vector<8x128xi32>
  %tp3 = tpu.vmul %a3, %tw3 : vector<8x128xi32>
  %tq3 = tpu.vadd %tq4, %tp3 : vector<8x128xi32>
  %tw2 = tpu.vsplat %k3 : index -> vector<8x128xi32>
  %tp2 = tpu.vmul %a2, %tw2 : vector<8x128xi32>
  %tq2 = tpu.vadd %tq3, %tp2 : vector<8x128xi32>
  %tw1 = tpu.vsplat %k2 : index -> vector<8x128xi32>
  %tp1 = tpu.vmul %a1, %tw1 : vector<8x128xi32>
  %tq1 = tpu.vadd %tq2, %tp1 : vector<8x128xi32>
  %tw0 = tpu.vsplat %k1 : index -> vector<8x128xi32>
  %tp0 = tpu.vmul %a0, %tw0 : vector<8x128xi32>
  %tq0 = tpu.vadd %tq1, %tp0 : vector<8x128xi32>
  tpu.vstore %tq0, %m[%c0] : vector<8x128xi32>, memref<8x128xi32, #vmem>
  tpu.dma %m[%c0] -> %y[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0
      : memref<8x128xi32, #vmem> -> memref<8x128xi32, #x, #hbm>
  tpu.sem_wait 0, 1
  return %y : memref<8x128xi32, #x, #hbm>
}

//--- loop.mlir
#hbm = #tpu.memory_space<hbm>
#vmem = #tpu.memory_space<vmem>
#x = #tpu.tiled<{1,0:T(8,128)}>

func.func @main() -> memref<8x128xi32, #x, #hbm> {
  %c0 = arith.constant 0 : index
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %k2 = arith.constant 2 : index
  %k3 = arith.constant 3 : index
  %k4 = arith.constant 4 : index
  %k5 = arith.constant 5 : index
  %k6 = arith.constant 6 : index
  %k7 = arith.constant 7 : index
  %k8 = arith.constant 8 : index
  %k9 = arith.constant 9 : index
  %k10 = arith.constant 10 : index
  %k11 = arith.constant 11 : index
  %k12 = arith.constant 12 : index
  %k13 = arith.constant 13 : index
  %k14 = arith.constant 14 : index
  %k15 = arith.constant 15 : index
  %k16 = arith.constant 16 : index
  %k17 = arith.constant 17 : index
  %k18 = arith.constant 18 : index
  %k19 = arith.constant 19 : index
  %k20 = arith.constant 20 : index
  %k21 = arith.constant 21 : index
  %k22 = arith.constant 22 : index
  %k23 = arith.constant 23 : index
  %k24 = arith.constant 24 : index
  %k25 = arith.constant 25 : index
  %k26 = arith.constant 26 : index
  %k27 = arith.constant 27 : index
  %k28 = arith.constant 28 : index
  %k29 = arith.constant 29 : index
  %k30 = arith.constant 30 : index
  %k31 = arith.constant 31 : index
  %k32 = arith.constant 32 : index
  %k33 = arith.constant 33 : index
  %k34 = arith.constant 34 : index
  %k35 = arith.constant 35 : index
  %k36 = arith.constant 36 : index
  %k37 = arith.constant 37 : index
  %k38 = arith.constant 38 : index
  %k39 = arith.constant 39 : index
  %k40 = arith.constant 40 : index
  %y = tpu.alloc : memref<8x128xi32, #x, #hbm>
  %m = tpu.alloc : memref<8x128xi32, #vmem>
  %lane = tpu.vlane_id : vector<8x128xi32>
  %s0 = tpu.vsplat %k0 : index -> vector<8x128xi32>
  %a0 = tpu.vadd %lane, %s0 : vector<8x128xi32>
  %s1 = tpu.vsplat %k1 : index -> vector<8x128xi32>
  %a1 = tpu.vadd %lane, %s1 : vector<8x128xi32>
  %s2 = tpu.vsplat %k2 : index -> vector<8x128xi32>
  %a2 = tpu.vadd %lane, %s2 : vector<8x128xi32>
  %s3 = tpu.vsplat %k3 : index -> vector<8x128xi32>
  %a3 = tpu.vadd %lane, %s3 : vector<8x128xi32>
  %s4 = tpu.vsplat %k4 : index -> vector<8x128xi32>
  %a4 = tpu.vadd %lane, %s4 : vector<8x128xi32>
  %s5 = tpu.vsplat %k5 : index -> vector<8x128xi32>
  %a5 = tpu.vadd %lane, %s5 : vector<8x128xi32>
  %s6 = tpu.vsplat %k6 : index -> vector<8x128xi32>
  %a6 = tpu.vadd %lane, %s6 : vector<8x128xi32>
  %s7 = tpu.vsplat %k7 : index -> vector<8x128xi32>
  %a7 = tpu.vadd %lane, %s7 : vector<8x128xi32>
  %s8 = tpu.vsplat %k8 : index -> vector<8x128xi32>
  %a8 = tpu.vadd %lane, %s8 : vector<8x128xi32>
  %s9 = tpu.vsplat %k9 : index -> vector<8x128xi32>
  %a9 = tpu.vadd %lane, %s9 : vector<8x128xi32>
  %s10 = tpu.vsplat %k10 : index -> vector<8x128xi32>
  %a10 = tpu.vadd %lane, %s10 : vector<8x128xi32>
  %s11 = tpu.vsplat %k11 : index -> vector<8x128xi32>
  %a11 = tpu.vadd %lane, %s11 : vector<8x128xi32>
  %s12 = tpu.vsplat %k12 : index -> vector<8x128xi32>
  %a12 = tpu.vadd %lane, %s12 : vector<8x128xi32>
  %s13 = tpu.vsplat %k13 : index -> vector<8x128xi32>
  %a13 = tpu.vadd %lane, %s13 : vector<8x128xi32>
  %s14 = tpu.vsplat %k14 : index -> vector<8x128xi32>
  %a14 = tpu.vadd %lane, %s14 : vector<8x128xi32>
  %s15 = tpu.vsplat %k15 : index -> vector<8x128xi32>
  %a15 = tpu.vadd %lane, %s15 : vector<8x128xi32>
  %s16 = tpu.vsplat %k16 : index -> vector<8x128xi32>
  %a16 = tpu.vadd %lane, %s16 : vector<8x128xi32>
  %s17 = tpu.vsplat %k17 : index -> vector<8x128xi32>
  %a17 = tpu.vadd %lane, %s17 : vector<8x128xi32>
  %s18 = tpu.vsplat %k18 : index -> vector<8x128xi32>
  %a18 = tpu.vadd %lane, %s18 : vector<8x128xi32>
  %s19 = tpu.vsplat %k19 : index -> vector<8x128xi32>
  %a19 = tpu.vadd %lane, %s19 : vector<8x128xi32>
  %s20 = tpu.vsplat %k20 : index -> vector<8x128xi32>
  %a20 = tpu.vadd %lane, %s20 : vector<8x128xi32>
  %s21 = tpu.vsplat %k21 : index -> vector<8x128xi32>
  %a21 = tpu.vadd %lane, %s21 : vector<8x128xi32>
  %s22 = tpu.vsplat %k22 : index -> vector<8x128xi32>
  %a22 = tpu.vadd %lane, %s22 : vector<8x128xi32>
  %s23 = tpu.vsplat %k23 : index -> vector<8x128xi32>
  %a23 = tpu.vadd %lane, %s23 : vector<8x128xi32>
  %s24 = tpu.vsplat %k24 : index -> vector<8x128xi32>
  %a24 = tpu.vadd %lane, %s24 : vector<8x128xi32>
  %s25 = tpu.vsplat %k25 : index -> vector<8x128xi32>
  %a25 = tpu.vadd %lane, %s25 : vector<8x128xi32>
  %s26 = tpu.vsplat %k26 : index -> vector<8x128xi32>
  %a26 = tpu.vadd %lane, %s26 : vector<8x128xi32>
  %s27 = tpu.vsplat %k27 : index -> vector<8x128xi32>
  %a27 = tpu.vadd %lane, %s27 : vector<8x128xi32>
  %s28 = tpu.vsplat %k28 : index -> vector<8x128xi32>
  %a28 = tpu.vadd %lane, %s28 : vector<8x128xi32>
  %s29 = tpu.vsplat %k29 : index -> vector<8x128xi32>
  %a29 = tpu.vadd %lane, %s29 : vector<8x128xi32>
  %s30 = tpu.vsplat %k30 : index -> vector<8x128xi32>
  %a30 = tpu.vadd %lane, %s30 : vector<8x128xi32>
  %s31 = tpu.vsplat %k31 : index -> vector<8x128xi32>
  %a31 = tpu.vadd %lane, %s31 : vector<8x128xi32>
  %s32 = tpu.vsplat %k32 : index -> vector<8x128xi32>
  %a32 = tpu.vadd %lane, %s32 : vector<8x128xi32>
  %s33 = tpu.vsplat %k33 : index -> vector<8x128xi32>
  %a33 = tpu.vadd %lane, %s33 : vector<8x128xi32>
  %s34 = tpu.vsplat %k34 : index -> vector<8x128xi32>
  %a34 = tpu.vadd %lane, %s34 : vector<8x128xi32>
  %s35 = tpu.vsplat %k35 : index -> vector<8x128xi32>
  %a35 = tpu.vadd %lane, %s35 : vector<8x128xi32>
  %s36 = tpu.vsplat %k36 : index -> vector<8x128xi32>
  %a36 = tpu.vadd %lane, %s36 : vector<8x128xi32>
  %s37 = tpu.vsplat %k37 : index -> vector<8x128xi32>
  %a37 = tpu.vadd %lane, %s37 : vector<8x128xi32>
  %s38 = tpu.vsplat %k38 : index -> vector<8x128xi32>
  %a38 = tpu.vadd %lane, %s38 : vector<8x128xi32>
  %s39 = tpu.vsplat %k39 : index -> vector<8x128xi32>
  %a39 = tpu.vadd %lane, %s39 : vector<8x128xi32>
  %zero = tpu.vsplat %c0 : index -> vector<8x128xi32>
  tpu.vstore %zero, %m[%c0] : vector<8x128xi32>, memref<8x128xi32, #vmem>
  tpu.loop %i = 0 to %k3 {
    %acc = tpu.vload %m[%c0] : memref<8x128xi32, #vmem> -> vector<8x128xi32>
    %tw39 = tpu.vsplat %k40 : index -> vector<8x128xi32>
    %tp39 = tpu.vmul %a39, %tw39 : vector<8x128xi32>
    %tw38 = tpu.vsplat %k39 : index -> vector<8x128xi32>
    %tp38 = tpu.vmul %a38, %tw38 : vector<8x128xi32>
    %tq38 = tpu.vadd %tp39, %tp38 : vector<8x128xi32>
    %tw37 = tpu.vsplat %k38 : index -> vector<8x128xi32>
    %tp37 = tpu.vmul %a37, %tw37 : vector<8x128xi32>
    %tq37 = tpu.vadd %tq38, %tp37 : vector<8x128xi32>
    %tw36 = tpu.vsplat %k37 : index -> vector<8x128xi32>
    %tp36 = tpu.vmul %a36, %tw36 : vector<8x128xi32>
    %tq36 = tpu.vadd %tq37, %tp36 : vector<8x128xi32>
    %tw35 = tpu.vsplat %k36 : index -> vector<8x128xi32>
    %tp35 = tpu.vmul %a35, %tw35 : vector<8x128xi32>
    %tq35 = tpu.vadd %tq36, %tp35 : vector<8x128xi32>
    %tw34 = tpu.vsplat %k35 : index -> vector<8x128xi32>
    %tp34 = tpu.vmul %a34, %tw34 : vector<8x128xi32>
    %tq34 = tpu.vadd %tq35, %tp34 : vector<8x128xi32>
    %tw33 = tpu.vsplat %k34 : index -> vector<8x128xi32>
    %tp33 = tpu.vmul %a33, %tw33 : vector<8x128xi32>
    %tq33 = tpu.vadd %tq34, %tp33 : vector<8x128xi32>
    %tw32 = tpu.vsplat %k33 : index -> vector<8x128xi32>
    %tp32 = tpu.vmul %a32, %tw32 : vector<8x128xi32>
    %tq32 = tpu.vadd %tq33, %tp32 : vector<8x128xi32>
    %tw31 = tpu.vsplat %k32 : index -> vector<8x128xi32>
    %tp31 = tpu.vmul %a31, %tw31 : vector<8x128xi32>
    %tq31 = tpu.vadd %tq32, %tp31 : vector<8x128xi32>
    %tw30 = tpu.vsplat %k31 : index -> vector<8x128xi32>
    %tp30 = tpu.vmul %a30, %tw30 : vector<8x128xi32>
    %tq30 = tpu.vadd %tq31, %tp30 : vector<8x128xi32>
    %tw29 = tpu.vsplat %k30 : index -> vector<8x128xi32>
    %tp29 = tpu.vmul %a29, %tw29 : vector<8x128xi32>
    %tq29 = tpu.vadd %tq30, %tp29 : vector<8x128xi32>
    %tw28 = tpu.vsplat %k29 : index -> vector<8x128xi32>
    %tp28 = tpu.vmul %a28, %tw28 : vector<8x128xi32>
    %tq28 = tpu.vadd %tq29, %tp28 : vector<8x128xi32>
    %tw27 = tpu.vsplat %k28 : index -> vector<8x128xi32>
    %tp27 = tpu.vmul %a27, %tw27 : vector<8x128xi32>
    %tq27 = tpu.vadd %tq28, %tp27 : vector<8x128xi32>
    %tw26 = tpu.vsplat %k27 : index -> vector<8x128xi32>
    %tp26 = tpu.vmul %a26, %tw26 : vector<8x128xi32>
    %tq26 = tpu.vadd %tq27, %tp26 : vector<8x128xi32>
    %tw25 = tpu.vsplat %k26 : index -> vector<8x128xi32>
    %tp25 = tpu.vmul %a25, %tw25 : vector<8x128xi32>
    %tq25 = tpu.vadd %tq26, %tp25 : vector<8x128xi32>
    %tw24 = tpu.vsplat %k25 : index -> vector<8x128xi32>
    %tp24 = tpu.vmul %a24, %tw24 : vector<8x128xi32>
    %tq24 = tpu.vadd %tq25, %tp24 : vector<8x128xi32>
    %tw23 = tpu.vsplat %k24 : index -> vector<8x128xi32>
    %tp23 = tpu.vmul %a23, %tw23 : vector<8x128xi32>
    %tq23 = tpu.vadd %tq24, %tp23 : vector<8x128xi32>
    %tw22 = tpu.vsplat %k23 : index -> vector<8x128xi32>
    %tp22 = tpu.vmul %a22, %tw22 : vector<8x128xi32>
    %tq22 = tpu.vadd %tq23, %tp22 : vector<8x128xi32>
    %tw21 = tpu.vsplat %k22 : index -> vector<8x128xi32>
    %tp21 = tpu.vmul %a21, %tw21 : vector<8x128xi32>
    %tq21 = tpu.vadd %tq22, %tp21 : vector<8x128xi32>
    %tw20 = tpu.vsplat %k21 : index -> vector<8x128xi32>
    %tp20 = tpu.vmul %a20, %tw20 : vector<8x128xi32>
    %tq20 = tpu.vadd %tq21, %tp20 : vector<8x128xi32>
    %tw19 = tpu.vsplat %k20 : index -> vector<8x128xi32>
    %tp19 = tpu.vmul %a19, %tw19 : vector<8x128xi32>
    %tq19 = tpu.vadd %tq20, %tp19 : vector<8x128xi32>
    %tw18 = tpu.vsplat %k19 : index -> vector<8x128xi32>
    %tp18 = tpu.vmul %a18, %tw18 : vector<8x128xi32>
    %tq18 = tpu.vadd %tq19, %tp18 : vector<8x128xi32>
    %tw17 = tpu.vsplat %k18 : index -> vector<8x128xi32>
    %tp17 = tpu.vmul %a17, %tw17 : vector<8x128xi32>
    %tq17 = tpu.vadd %tq18, %tp17 : vector<8x128xi32>
    %tw16 = tpu.vsplat %k17 : index -> vector<8x128xi32>
    %tp16 = tpu.vmul %a16, %tw16 : vector<8x128xi32>
    %tq16 = tpu.vadd %tq17, %tp16 : vector<8x128xi32>
    %tw15 = tpu.vsplat %k16 : index -> vector<8x128xi32>
    %tp15 = tpu.vmul %a15, %tw15 : vector<8x128xi32>
    %tq15 = tpu.vadd %tq16, %tp15 : vector<8x128xi32>
    %tw14 = tpu.vsplat %k15 : index -> vector<8x128xi32>
    %tp14 = tpu.vmul %a14, %tw14 : vector<8x128xi32>
    %tq14 = tpu.vadd %tq15, %tp14 : vector<8x128xi32>
    %tw13 = tpu.vsplat %k14 : index -> vector<8x128xi32>
    %tp13 = tpu.vmul %a13, %tw13 : vector<8x128xi32>
    %tq13 = tpu.vadd %tq14, %tp13 : vector<8x128xi32>
    %tw12 = tpu.vsplat %k13 : index -> vector<8x128xi32>
    %tp12 = tpu.vmul %a12, %tw12 : vector<8x128xi32>
    %tq12 = tpu.vadd %tq13, %tp12 : vector<8x128xi32>
    %tw11 = tpu.vsplat %k12 : index -> vector<8x128xi32>
    %tp11 = tpu.vmul %a11, %tw11 : vector<8x128xi32>
    %tq11 = tpu.vadd %tq12, %tp11 : vector<8x128xi32>
    %tw10 = tpu.vsplat %k11 : index -> vector<8x128xi32>
    %tp10 = tpu.vmul %a10, %tw10 : vector<8x128xi32>
    %tq10 = tpu.vadd %tq11, %tp10 : vector<8x128xi32>
    %tw9 = tpu.vsplat %k10 : index -> vector<8x128xi32>
    %tp9 = tpu.vmul %a9, %tw9 : vector<8x128xi32>
    %tq9 = tpu.vadd %tq10, %tp9 : vector<8x128xi32>
    %tw8 = tpu.vsplat %k9 : index -> vector<8x128xi32>
    %tp8 = tpu.vmul %a8, %tw8 : vector<8x128xi32>
    %tq8 = tpu.vadd %tq9, %tp8 : vector<8x128xi32>
    %tw7 = tpu.vsplat %k8 : index -> vector<8x128xi32>
    %tp7 = tpu.vmul %a7, %tw7 : vector<8x128xi32>
    %tq7 = tpu.vadd %tq8, %tp7 : vector<8x128xi32>
    %tw6 = tpu.vsplat %k7 : index -> vector<8x128xi32>
    %tp6 = tpu.vmul %a6, %tw6 : vector<8x128xi32>
    %tq6 = tpu.vadd %tq7, %tp6 : vector<8x128xi32>
    %tw5 = tpu.vsplat %k6 : index -> vector<8x128xi32>
    %tp5 = tpu.vmul %a5, %tw5 : vector<8x128xi32>
    %tq5 = tpu.vadd %tq6, %tp5 : vector<8x128xi32>
    %tw4 = tpu.vsplat %k5 : index -> vector<8x128xi32>
    %tp4 = tpu.vmul %a4, %tw4 : vector<8x128xi32>
    %tq4 = tpu.vadd %tq5, %tp4 : vector<8x128xi32>
    %tw3 = tpu.vsplat %k4 : index -> vector<8x128xi32>
    %tp3 = tpu.vmul %a3, %tw3 : vector<8x128xi32>
    %tq3 = tpu.vadd %tq4, %tp3 : vector<8x128xi32>
    %tw2 = tpu.vsplat %k3 : index -> vector<8x128xi32>
    %tp2 = tpu.vmul %a2, %tw2 : vector<8x128xi32>
    %tq2 = tpu.vadd %tq3, %tp2 : vector<8x128xi32>
    %tw1 = tpu.vsplat %k2 : index -> vector<8x128xi32>
    %tp1 = tpu.vmul %a1, %tw1 : vector<8x128xi32>
    %tq1 = tpu.vadd %tq2, %tp1 : vector<8x128xi32>
    %tw0 = tpu.vsplat %k1 : index -> vector<8x128xi32>
    %tp0 = tpu.vmul %a0, %tw0 : vector<8x128xi32>
    %tq0 = tpu.vadd %tq1, %tp0 : vector<8x128xi32>
    %new = tpu.vadd %acc, %tq0 : vector<8x128xi32>
    tpu.if %i : index {
      tpu.vstore %new, %m[%c0] : vector<8x128xi32>, memref<8x128xi32, #vmem>
      tpu.yield
    } else {
      %e0 = tpu.vadd %new, %a0 : vector<8x128xi32>
      %e1 = tpu.vadd %e0, %a39 : vector<8x128xi32>
      tpu.vstore %e1, %m[%c0] : vector<8x128xi32>, memref<8x128xi32, #vmem>
      tpu.yield
    }
    tpu.yield
  }
  %fin = tpu.vload %m[%c0] : memref<8x128xi32, #vmem> -> vector<8x128xi32>
  %f1 = tpu.vadd %fin, %a1 : vector<8x128xi32>
  %out = tpu.vadd %f1, %a38 : vector<8x128xi32>
  tpu.vstore %out, %m[%c0] : vector<8x128xi32>, memref<8x128xi32, #vmem>
  tpu.dma %m[%c0] -> %y[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0
      : memref<8x128xi32, #vmem> -> memref<8x128xi32, #x, #hbm>
  tpu.sem_wait 0, 1
  return %y : memref<8x128xi32, #x, #hbm>
}

//--- scalars.mlir
#hbm = #tpu.memory_space<hbm>
#vmem = #tpu.memory_space<vmem>
#x = #tpu.tiled<{1,0:T(8,128)}>

func.func @main() -> memref<8x128xi32, #x, #hbm> {
  %c0 = arith.constant 0 : index
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %k2 = arith.constant 2 : index
  %k3 = arith.constant 3 : index
  %k4 = arith.constant 4 : index
  %k5 = arith.constant 5 : index
  %k6 = arith.constant 6 : index
  %k7 = arith.constant 7 : index
  %k8 = arith.constant 8 : index
  %k9 = arith.constant 9 : index
  %k10 = arith.constant 10 : index
  %k11 = arith.constant 11 : index
  %k12 = arith.constant 12 : index
  %k13 = arith.constant 13 : index
  %k14 = arith.constant 14 : index
  %k15 = arith.constant 15 : index
  %k16 = arith.constant 16 : index
  %k17 = arith.constant 17 : index
  %k18 = arith.constant 18 : index
  %k19 = arith.constant 19 : index
  %k20 = arith.constant 20 : index
  %k21 = arith.constant 21 : index
  %k22 = arith.constant 22 : index
  %k23 = arith.constant 23 : index
  %k24 = arith.constant 24 : index
  %k25 = arith.constant 25 : index
  %k26 = arith.constant 26 : index
  %k27 = arith.constant 27 : index
  %k28 = arith.constant 28 : index
  %k29 = arith.constant 29 : index
  %k30 = arith.constant 30 : index
  %k31 = arith.constant 31 : index
  %k32 = arith.constant 32 : index
  %k33 = arith.constant 33 : index
  %k34 = arith.constant 34 : index
  %k35 = arith.constant 35 : index
  %k36 = arith.constant 36 : index
  %k37 = arith.constant 37 : index
  %k38 = arith.constant 38 : index
  %k39 = arith.constant 39 : index
  %k40 = arith.constant 40 : index
  %n0 = arith.constant 0 : index
  %n1 = arith.constant -1 : index
  %n2 = arith.constant -2 : index
  %n3 = arith.constant -3 : index
  %n4 = arith.constant -4 : index
  %n5 = arith.constant -5 : index
  %n6 = arith.constant -6 : index
  %n7 = arith.constant -7 : index
  %n8 = arith.constant -8 : index
  %n9 = arith.constant -9 : index
  %n10 = arith.constant -10 : index
  %n11 = arith.constant -11 : index
  %n12 = arith.constant -12 : index
  %n13 = arith.constant -13 : index
  %n14 = arith.constant -14 : index
  %n15 = arith.constant -15 : index
  %n16 = arith.constant -16 : index
  %n17 = arith.constant -17 : index
  %n18 = arith.constant -18 : index
  %n19 = arith.constant -19 : index
  %n20 = arith.constant -20 : index
  %n21 = arith.constant -21 : index
  %n22 = arith.constant -22 : index
  %n23 = arith.constant -23 : index
  %n24 = arith.constant -24 : index
  %n25 = arith.constant -25 : index
  %n26 = arith.constant -26 : index
  %n27 = arith.constant -27 : index
  %n28 = arith.constant -28 : index
  %n29 = arith.constant -29 : index
  %n30 = arith.constant -30 : index
  %n31 = arith.constant -31 : index
  %n32 = arith.constant -32 : index
  %n33 = arith.constant -33 : index
  %n34 = arith.constant -34 : index
  %n35 = arith.constant -35 : index
  %n36 = arith.constant -36 : index
  %n37 = arith.constant -37 : index
  %n38 = arith.constant -38 : index
  %n39 = arith.constant -39 : index
  %y = tpu.alloc : memref<8x128xi32, #x, #hbm>
  %m = tpu.alloc : memref<8x128xi32, #vmem>
  %zero = tpu.vsplat %c0 : index -> vector<8x128xi32>
  tpu.vstore %zero, %m[%c0] : vector<8x128xi32>, memref<8x128xi32, #vmem>
  tpu.loop %i = 0 to %k2 {
    %x0 = arith.subi %i, %n0 : index
    %x1 = arith.subi %i, %n1 : index
    %x2 = arith.subi %i, %n2 : index
    %x3 = arith.subi %i, %n3 : index
    %x4 = arith.subi %i, %n4 : index
    %x5 = arith.subi %i, %n5 : index
    %x6 = arith.subi %i, %n6 : index
    %x7 = arith.subi %i, %n7 : index
    %x8 = arith.subi %i, %n8 : index
    %x9 = arith.subi %i, %n9 : index
    %x10 = arith.subi %i, %n10 : index
    %x11 = arith.subi %i, %n11 : index
    %x12 = arith.subi %i, %n12 : index
    %x13 = arith.subi %i, %n13 : index
    %x14 = arith.subi %i, %n14 : index
    %x15 = arith.subi %i, %n15 : index
    %x16 = arith.subi %i, %n16 : index
    %x17 = arith.subi %i, %n17 : index
    %x18 = arith.subi %i, %n18 : index
    %x19 = arith.subi %i, %n19 : index
    %x20 = arith.subi %i, %n20 : index
    %x21 = arith.subi %i, %n21 : index
    %x22 = arith.subi %i, %n22 : index
    %x23 = arith.subi %i, %n23 : index
    %x24 = arith.subi %i, %n24 : index
    %x25 = arith.subi %i, %n25 : index
    %x26 = arith.subi %i, %n26 : index
    %x27 = arith.subi %i, %n27 : index
    %x28 = arith.subi %i, %n28 : index
    %x29 = arith.subi %i, %n29 : index
    %x30 = arith.subi %i, %n30 : index
    %x31 = arith.subi %i, %n31 : index
    %x32 = arith.subi %i, %n32 : index
    %x33 = arith.subi %i, %n33 : index
    %x34 = arith.subi %i, %n34 : index
    %x35 = arith.subi %i, %n35 : index
    %x36 = arith.subi %i, %n36 : index
    %x37 = arith.subi %i, %n37 : index
    %x38 = arith.subi %i, %n38 : index
    %x39 = arith.subi %i, %n39 : index
    %v39 = tpu.vsplat %x39 : index -> vector<8x128xi32>
    %v38 = tpu.vsplat %x38 : index -> vector<8x128xi32>
    %v37 = tpu.vsplat %x37 : index -> vector<8x128xi32>
    %v36 = tpu.vsplat %x36 : index -> vector<8x128xi32>
    %v35 = tpu.vsplat %x35 : index -> vector<8x128xi32>
    %v34 = tpu.vsplat %x34 : index -> vector<8x128xi32>
    %v33 = tpu.vsplat %x33 : index -> vector<8x128xi32>
    %v32 = tpu.vsplat %x32 : index -> vector<8x128xi32>
    %v31 = tpu.vsplat %x31 : index -> vector<8x128xi32>
    %v30 = tpu.vsplat %x30 : index -> vector<8x128xi32>
    %v29 = tpu.vsplat %x29 : index -> vector<8x128xi32>
    %v28 = tpu.vsplat %x28 : index -> vector<8x128xi32>
    %v27 = tpu.vsplat %x27 : index -> vector<8x128xi32>
    %v26 = tpu.vsplat %x26 : index -> vector<8x128xi32>
    %v25 = tpu.vsplat %x25 : index -> vector<8x128xi32>
    %v24 = tpu.vsplat %x24 : index -> vector<8x128xi32>
    %v23 = tpu.vsplat %x23 : index -> vector<8x128xi32>
    %v22 = tpu.vsplat %x22 : index -> vector<8x128xi32>
    %v21 = tpu.vsplat %x21 : index -> vector<8x128xi32>
    %v20 = tpu.vsplat %x20 : index -> vector<8x128xi32>
    %v19 = tpu.vsplat %x19 : index -> vector<8x128xi32>
    %v18 = tpu.vsplat %x18 : index -> vector<8x128xi32>
    %v17 = tpu.vsplat %x17 : index -> vector<8x128xi32>
    %v16 = tpu.vsplat %x16 : index -> vector<8x128xi32>
    %v15 = tpu.vsplat %x15 : index -> vector<8x128xi32>
    %v14 = tpu.vsplat %x14 : index -> vector<8x128xi32>
    %v13 = tpu.vsplat %x13 : index -> vector<8x128xi32>
    %v12 = tpu.vsplat %x12 : index -> vector<8x128xi32>
    %v11 = tpu.vsplat %x11 : index -> vector<8x128xi32>
    %v10 = tpu.vsplat %x10 : index -> vector<8x128xi32>
    %v9 = tpu.vsplat %x9 : index -> vector<8x128xi32>
    %v8 = tpu.vsplat %x8 : index -> vector<8x128xi32>
    %v7 = tpu.vsplat %x7 : index -> vector<8x128xi32>
    %v6 = tpu.vsplat %x6 : index -> vector<8x128xi32>
    %v5 = tpu.vsplat %x5 : index -> vector<8x128xi32>
    %v4 = tpu.vsplat %x4 : index -> vector<8x128xi32>
    %v3 = tpu.vsplat %x3 : index -> vector<8x128xi32>
    %v2 = tpu.vsplat %x2 : index -> vector<8x128xi32>
    %v1 = tpu.vsplat %x1 : index -> vector<8x128xi32>
    %v0 = tpu.vsplat %x0 : index -> vector<8x128xi32>
    %tw39 = tpu.vsplat %k40 : index -> vector<8x128xi32>
    %tp39 = tpu.vmul %v39, %tw39 : vector<8x128xi32>
    %tw38 = tpu.vsplat %k39 : index -> vector<8x128xi32>
    %tp38 = tpu.vmul %v38, %tw38 : vector<8x128xi32>
    %tq38 = tpu.vadd %tp39, %tp38 : vector<8x128xi32>
    %tw37 = tpu.vsplat %k38 : index -> vector<8x128xi32>
    %tp37 = tpu.vmul %v37, %tw37 : vector<8x128xi32>
    %tq37 = tpu.vadd %tq38, %tp37 : vector<8x128xi32>
    %tw36 = tpu.vsplat %k37 : index -> vector<8x128xi32>
    %tp36 = tpu.vmul %v36, %tw36 : vector<8x128xi32>
    %tq36 = tpu.vadd %tq37, %tp36 : vector<8x128xi32>
    %tw35 = tpu.vsplat %k36 : index -> vector<8x128xi32>
    %tp35 = tpu.vmul %v35, %tw35 : vector<8x128xi32>
    %tq35 = tpu.vadd %tq36, %tp35 : vector<8x128xi32>
    %tw34 = tpu.vsplat %k35 : index -> vector<8x128xi32>
    %tp34 = tpu.vmul %v34, %tw34 : vector<8x128xi32>
    %tq34 = tpu.vadd %tq35, %tp34 : vector<8x128xi32>
    %tw33 = tpu.vsplat %k34 : index -> vector<8x128xi32>
    %tp33 = tpu.vmul %v33, %tw33 : vector<8x128xi32>
    %tq33 = tpu.vadd %tq34, %tp33 : vector<8x128xi32>
    %tw32 = tpu.vsplat %k33 : index -> vector<8x128xi32>
    %tp32 = tpu.vmul %v32, %tw32 : vector<8x128xi32>
    %tq32 = tpu.vadd %tq33, %tp32 : vector<8x128xi32>
    %tw31 = tpu.vsplat %k32 : index -> vector<8x128xi32>
    %tp31 = tpu.vmul %v31, %tw31 : vector<8x128xi32>
    %tq31 = tpu.vadd %tq32, %tp31 : vector<8x128xi32>
    %tw30 = tpu.vsplat %k31 : index -> vector<8x128xi32>
    %tp30 = tpu.vmul %v30, %tw30 : vector<8x128xi32>
    %tq30 = tpu.vadd %tq31, %tp30 : vector<8x128xi32>
    %tw29 = tpu.vsplat %k30 : index -> vector<8x128xi32>
    %tp29 = tpu.vmul %v29, %tw29 : vector<8x128xi32>
    %tq29 = tpu.vadd %tq30, %tp29 : vector<8x128xi32>
    %tw28 = tpu.vsplat %k29 : index -> vector<8x128xi32>
    %tp28 = tpu.vmul %v28, %tw28 : vector<8x128xi32>
    %tq28 = tpu.vadd %tq29, %tp28 : vector<8x128xi32>
    %tw27 = tpu.vsplat %k28 : index -> vector<8x128xi32>
    %tp27 = tpu.vmul %v27, %tw27 : vector<8x128xi32>
    %tq27 = tpu.vadd %tq28, %tp27 : vector<8x128xi32>
    %tw26 = tpu.vsplat %k27 : index -> vector<8x128xi32>
    %tp26 = tpu.vmul %v26, %tw26 : vector<8x128xi32>
    %tq26 = tpu.vadd %tq27, %tp26 : vector<8x128xi32>
    %tw25 = tpu.vsplat %k26 : index -> vector<8x128xi32>
    %tp25 = tpu.vmul %v25, %tw25 : vector<8x128xi32>
    %tq25 = tpu.vadd %tq26, %tp25 : vector<8x128xi32>
    %tw24 = tpu.vsplat %k25 : index -> vector<8x128xi32>
    %tp24 = tpu.vmul %v24, %tw24 : vector<8x128xi32>
    %tq24 = tpu.vadd %tq25, %tp24 : vector<8x128xi32>
    %tw23 = tpu.vsplat %k24 : index -> vector<8x128xi32>
    %tp23 = tpu.vmul %v23, %tw23 : vector<8x128xi32>
    %tq23 = tpu.vadd %tq24, %tp23 : vector<8x128xi32>
    %tw22 = tpu.vsplat %k23 : index -> vector<8x128xi32>
    %tp22 = tpu.vmul %v22, %tw22 : vector<8x128xi32>
    %tq22 = tpu.vadd %tq23, %tp22 : vector<8x128xi32>
    %tw21 = tpu.vsplat %k22 : index -> vector<8x128xi32>
    %tp21 = tpu.vmul %v21, %tw21 : vector<8x128xi32>
    %tq21 = tpu.vadd %tq22, %tp21 : vector<8x128xi32>
    %tw20 = tpu.vsplat %k21 : index -> vector<8x128xi32>
    %tp20 = tpu.vmul %v20, %tw20 : vector<8x128xi32>
    %tq20 = tpu.vadd %tq21, %tp20 : vector<8x128xi32>
    %tw19 = tpu.vsplat %k20 : index -> vector<8x128xi32>
    %tp19 = tpu.vmul %v19, %tw19 : vector<8x128xi32>
    %tq19 = tpu.vadd %tq20, %tp19 : vector<8x128xi32>
    %tw18 = tpu.vsplat %k19 : index -> vector<8x128xi32>
    %tp18 = tpu.vmul %v18, %tw18 : vector<8x128xi32>
    %tq18 = tpu.vadd %tq19, %tp18 : vector<8x128xi32>
    %tw17 = tpu.vsplat %k18 : index -> vector<8x128xi32>
    %tp17 = tpu.vmul %v17, %tw17 : vector<8x128xi32>
    %tq17 = tpu.vadd %tq18, %tp17 : vector<8x128xi32>
    %tw16 = tpu.vsplat %k17 : index -> vector<8x128xi32>
    %tp16 = tpu.vmul %v16, %tw16 : vector<8x128xi32>
    %tq16 = tpu.vadd %tq17, %tp16 : vector<8x128xi32>
    %tw15 = tpu.vsplat %k16 : index -> vector<8x128xi32>
    %tp15 = tpu.vmul %v15, %tw15 : vector<8x128xi32>
    %tq15 = tpu.vadd %tq16, %tp15 : vector<8x128xi32>
    %tw14 = tpu.vsplat %k15 : index -> vector<8x128xi32>
    %tp14 = tpu.vmul %v14, %tw14 : vector<8x128xi32>
    %tq14 = tpu.vadd %tq15, %tp14 : vector<8x128xi32>
    %tw13 = tpu.vsplat %k14 : index -> vector<8x128xi32>
    %tp13 = tpu.vmul %v13, %tw13 : vector<8x128xi32>
    %tq13 = tpu.vadd %tq14, %tp13 : vector<8x128xi32>
    %tw12 = tpu.vsplat %k13 : index -> vector<8x128xi32>
    %tp12 = tpu.vmul %v12, %tw12 : vector<8x128xi32>
    %tq12 = tpu.vadd %tq13, %tp12 : vector<8x128xi32>
    %tw11 = tpu.vsplat %k12 : index -> vector<8x128xi32>
    %tp11 = tpu.vmul %v11, %tw11 : vector<8x128xi32>
    %tq11 = tpu.vadd %tq12, %tp11 : vector<8x128xi32>
    %tw10 = tpu.vsplat %k11 : index -> vector<8x128xi32>
    %tp10 = tpu.vmul %v10, %tw10 : vector<8x128xi32>
    %tq10 = tpu.vadd %tq11, %tp10 : vector<8x128xi32>
    %tw9 = tpu.vsplat %k10 : index -> vector<8x128xi32>
    %tp9 = tpu.vmul %v9, %tw9 : vector<8x128xi32>
    %tq9 = tpu.vadd %tq10, %tp9 : vector<8x128xi32>
    %tw8 = tpu.vsplat %k9 : index -> vector<8x128xi32>
    %tp8 = tpu.vmul %v8, %tw8 : vector<8x128xi32>
    %tq8 = tpu.vadd %tq9, %tp8 : vector<8x128xi32>
    %tw7 = tpu.vsplat %k8 : index -> vector<8x128xi32>
    %tp7 = tpu.vmul %v7, %tw7 : vector<8x128xi32>
    %tq7 = tpu.vadd %tq8, %tp7 : vector<8x128xi32>
    %tw6 = tpu.vsplat %k7 : index -> vector<8x128xi32>
    %tp6 = tpu.vmul %v6, %tw6 : vector<8x128xi32>
    %tq6 = tpu.vadd %tq7, %tp6 : vector<8x128xi32>
    %tw5 = tpu.vsplat %k6 : index -> vector<8x128xi32>
    %tp5 = tpu.vmul %v5, %tw5 : vector<8x128xi32>
    %tq5 = tpu.vadd %tq6, %tp5 : vector<8x128xi32>
    %tw4 = tpu.vsplat %k5 : index -> vector<8x128xi32>
    %tp4 = tpu.vmul %v4, %tw4 : vector<8x128xi32>
    %tq4 = tpu.vadd %tq5, %tp4 : vector<8x128xi32>
    %tw3 = tpu.vsplat %k4 : index -> vector<8x128xi32>
    %tp3 = tpu.vmul %v3, %tw3 : vector<8x128xi32>
    %tq3 = tpu.vadd %tq4, %tp3 : vector<8x128xi32>
    %tw2 = tpu.vsplat %k3 : index -> vector<8x128xi32>
    %tp2 = tpu.vmul %v2, %tw2 : vector<8x128xi32>
    %tq2 = tpu.vadd %tq3, %tp2 : vector<8x128xi32>
    %tw1 = tpu.vsplat %k2 : index -> vector<8x128xi32>
    %tp1 = tpu.vmul %v1, %tw1 : vector<8x128xi32>
    %tq1 = tpu.vadd %tq2, %tp1 : vector<8x128xi32>
    %tw0 = tpu.vsplat %k1 : index -> vector<8x128xi32>
    %tp0 = tpu.vmul %v0, %tw0 : vector<8x128xi32>
    %tq0 = tpu.vadd %tq1, %tp0 : vector<8x128xi32>
    %acc = tpu.vload %m[%c0] : memref<8x128xi32, #vmem> -> vector<8x128xi32>
    %new = tpu.vadd %acc, %tq0 : vector<8x128xi32>
    tpu.vstore %new, %m[%c0] : vector<8x128xi32>, memref<8x128xi32, #vmem>
    tpu.yield
  }
  %out = tpu.vload %m[%c0] : memref<8x128xi32, #vmem> -> vector<8x128xi32>
  tpu.vstore %out, %m[%c0] : vector<8x128xi32>, memref<8x128xi32, #vmem>
  tpu.dma %m[%c0] -> %y[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0
      : memref<8x128xi32, #vmem> -> memref<8x128xi32, #x, #hbm>
  tpu.sem_wait 0, 1
  return %y : memref<8x128xi32, #x, #hbm>
}

