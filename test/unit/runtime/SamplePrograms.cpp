#include "SamplePrograms.h"

#include <algorithm>

namespace tpuc::runtime::test {

// The loop runs over steps t = j * kb + k (kb = k / 128), j the 128-column
// block of C and k the 128-deep block of the reduction. Step t needs the
// slab A[:, k] (m x 128) and the tile B[k, j] (128 x 128), which strided
// DMAs gather from the T(8,128) tiles into contiguous row-major VMEM slot
// t % 2 (semaphore t % 2); the loads of step t + 1 are issued before step t
// computes, so DMA overlaps the MXUs. Every MXU loads the same weights and
// takes m / mxu_count rows. C[:, j] accumulates over k in VMEM slot j % 2
// and goes back to HBM with one strided DMA (semaphore 2) after the last k;
// before slot j % 2 is reused for j + 2 the program waits for that DMA.
ProgramBuilder tiledMatmulProgram(const exe::Target &target, int64_t m,
                                  int64_t n, int64_t k) {
  constexpr int64_t kTileBf16 = 8 * 128 * 2, kTileF32 = 8 * 128 * 4;
  const int64_t nb = n / 128, kb = k / 128, steps = nb * kb;
  const int64_t mxus = target.mxu_count(), rowsPerMxu = m / mxus;
  const int64_t slabA = m * 128 * 2, slot = slabA + 128 * 128 * 2;
  const int64_t cBase = 2 * slot, cSlot = m * 128 * 4;
  ProgramBuilder b(target);
  b.setDebugOp("dot.1", "jit(matmul)/dot_general");
  uint32_t pa = b.addParameter("a", makeShape(exe::BF16, {m, k}, {{8, 128}}));
  uint32_t pb = b.addParameter("b", makeShape(exe::BF16, {k, n}, {{8, 128}}));
  uint32_t rc = b.addResult("c", makeShape(exe::F32, {m, n}, {{8, 128}}));
  const int64_t hbmA = b.parameterOffset(pa), hbmB = b.parameterOffset(pb),
                hbmC = b.resultOffset(rc);

  // Loads of step s[step] into slot s[step] % 2. Clobbers s10..s14.
  auto issueLoads = [&](uint32_t step) {
    b.scalar(exe::SREM, 10, {sreg(step), imm(kb)}); // k
    b.scalar(exe::SDIV, 11, {sreg(step), imm(kb)}); // j
    b.scalar(exe::SREM, 14, {sreg(step), imm(2)});  // slot and semaphore
    b.scalar(exe::SMUL, 12, {sreg(14), imm(slot)});
    // A[:, k]: m/8 row tiles; tile (r, k) is at (r * kb + k) * 2048.
    b.scalar(exe::SMUL, 13, {sreg(10), imm(kTileBf16)});
    b.dma(exe::HBM, sreg(13, hbmA), exe::VMEM, sreg(12), imm(kTileBf16),
          imm(m / 8), imm(kb * kTileBf16), imm(kTileBf16), sreg(14));
    // B[k, j]: row tiles 16k.., column tile j; tile (r, j) at (r*nb + j)*2048.
    b.scalar(exe::SMUL, 13, {sreg(10), imm(16 * nb * kTileBf16)});
    b.scalar(exe::SMUL, 10, {sreg(11), imm(kTileBf16)});
    b.scalar(exe::SADD, 13, {sreg(13), sreg(10)});
    b.dma(exe::HBM, sreg(13, hbmB), exe::VMEM, sreg(12, slabA),
          imm(kTileBf16), imm(16), imm(nb * kTileBf16), imm(kTileBf16),
          sreg(14));
  };
  // Emits BRNZ on s[cond]; returns its index for patching the target.
  auto branchIf = [&](uint32_t cond) {
    int64_t at = b.pc();
    b.emit(exe::BRNZ).add_args()->set_reg(cond);
    return at;
  };
  auto landHere = [&](int64_t branch) {
    b.proto().mutable_instructions(branch)->set_target(b.pc());
  };

  b.scalar(exe::SMOV, 2, {imm(0)});
  issueLoads(2);
  b.loopBegin(1, imm(steps));
  b.scalar(exe::SADD, 2, {sreg(1), imm(1)});
  b.scalar(exe::SCMP, 3, {sreg(2), imm(steps)}).set_cmp(exe::EQ);
  int64_t lastStep = branchIf(3);
  issueLoads(2);
  landHere(lastStep);
  b.scalar(exe::SREM, 4, {sreg(1), imm(2)});  // slot
  b.scalar(exe::SDIV, 5, {sreg(1), imm(kb)}); // j
  b.scalar(exe::SREM, 9, {sreg(1), imm(kb)}); // k
  b.semWait(sreg(4), imm(2));
  b.scalar(exe::SMUL, 6, {sreg(4), imm(slot)});
  for (int64_t x = 0; x < mxus; ++x)
    b.mxuLoadWeights(x, sreg(6, slabA));
  b.scalar(exe::SREM, 7, {sreg(5), imm(2)});
  b.scalar(exe::SMUL, 7, {sreg(7), imm(cSlot)});
  // k == 0 and j >= 2: wait for the write-back of j - 2 from this C slot.
  b.scalar(exe::SCMP, 10, {sreg(9), imm(0)}).set_cmp(exe::NE);
  b.scalar(exe::SCMP, 11, {sreg(5), imm(2)}).set_cmp(exe::LT);
  b.scalar(exe::SOR, 10, {sreg(10), sreg(11)});
  int64_t noWait = branchIf(10);
  b.semWait(imm(2), imm(1));
  landHere(noWait);
  int64_t accumulate = branchIf(9);
  for (bool acc : {false, true}) {
    if (acc)
      landHere(accumulate);
    for (int64_t x = 0; x < mxus; ++x)
      b.mxuMatmul(x, sreg(6, x * rowsPerMxu * 256),
                  sreg(7, cBase + x * rowsPerMxu * 512), imm(rowsPerMxu), acc);
    if (!acc) // over the accumulating copies
      b.emit(exe::BR).set_target(b.pc() + mxus);
  }
  // After the last k: C[:, j] (m/8 tiles) to column tile j of C.
  b.scalar(exe::SCMP, 10, {sreg(9), imm(kb - 1)}).set_cmp(exe::NE);
  int64_t noWriteBack = branchIf(10);
  b.scalar(exe::SMUL, 8, {sreg(5), imm(kTileF32)});
  b.dma(exe::VMEM, sreg(7, cBase), exe::HBM, sreg(8, hbmC), imm(kTileF32),
        imm(m / 8), imm(kTileF32), imm(nb * kTileF32), imm(2));
  landHere(noWriteBack);
  b.loopEnd();
  b.semWait(imm(2), imm(std::min<int64_t>(2, nb)));
  b.emit(exe::HALT);
  return b;
}

// For each 8-row block r (tiles at r*8192 and r*8192 + 4096): max over the
// 256 lanes, exp(x - max), sum, divide.
ProgramBuilder rowSoftmaxProgram() {
  ProgramBuilder b;
  b.setDebugOp("softmax.1", "jax.nn.softmax");
  exe::Shape shape = makeShape(exe::F32, {16, 256}, {{8, 128}});
  uint32_t px = b.addParameter("x", shape);
  uint32_t ry = b.addResult("y", shape);
  b.dma(exe::HBM, imm(b.parameterOffset(px)), exe::VMEM, imm(0), imm(16384),
        imm(1), imm(0), imm(0), imm(0));
  b.semWait(imm(0), imm(1));
  b.loopBegin(1, imm(2));
  b.scalar(exe::SMUL, 2, {sreg(1), imm(8192)});
  b.vld(0, sreg(2), exe::F32);
  b.vld(1, sreg(2, 4096), exe::F32);
  b.vector(exe::VMAX, 2, {0, 1}, exe::F32);
  b.vector(exe::VREDUCE_LANES, 2, {2}, exe::F32).set_reduce(exe::REDUCE_MAX);
  b.vector(exe::VSUB, 0, {0, 2}, exe::F32);
  b.vector(exe::VSUB, 1, {1, 2}, exe::F32);
  b.vector(exe::VEXP, 0, {0}, exe::F32);
  b.vector(exe::VEXP, 1, {1}, exe::F32);
  b.vector(exe::VADD, 3, {0, 1}, exe::F32);
  b.vector(exe::VREDUCE_LANES, 3, {3}, exe::F32).set_reduce(exe::REDUCE_SUM);
  b.vector(exe::VDIV, 0, {0, 3}, exe::F32);
  b.vector(exe::VDIV, 1, {1, 3}, exe::F32);
  b.vst(0, sreg(2, 16384), exe::F32);
  b.vst(1, sreg(2, 16384 + 4096), exe::F32);
  b.loopEnd();
  b.dma(exe::VMEM, imm(16384), exe::HBM, imm(b.resultOffset(ry)), imm(16384),
        imm(1), imm(0), imm(0), imm(0));
  b.semWait(imm(0), imm(1));
  return b;
}

ProgramBuilder scaleProgram() {
  ProgramBuilder b;
  exe::Shape shape = makeShape(exe::F32, {8, 128}, {{8, 128}});
  uint32_t px = b.addParameter("x", shape);
  uint32_t ry = b.addResult("y", shape);
  b.setDebugOp("copy.1", "jit(f)/x");
  b.dma(exe::HBM, imm(b.parameterOffset(px)), exe::VMEM, imm(0), imm(4096),
        imm(1), imm(0), imm(0), imm(0));
  b.semWait(imm(0), imm(1));
  b.setDebugOp("fusion.2", "jit(f)/add");
  b.vld(0, imm(0), exe::F32);
  b.vsplatF32(1, 2);
  b.vector(exe::VMUL, 0, {0, 1}, exe::F32);
  b.vsplatF32(1, 1);
  b.vector(exe::VADD, 0, {0, 1}, exe::F32);
  b.vst(0, imm(4096), exe::F32);
  b.setDebugOp("copy.3", "jit(f)/y");
  b.dma(exe::VMEM, imm(4096), exe::HBM, imm(b.resultOffset(ry)), imm(4096),
        imm(1), imm(0), imm(0), imm(0));
  b.semWait(imm(0), imm(1));
  b.emit(exe::HALT);
  return b;
}

ProgramBuilder sgdStepProgram() {
  ProgramBuilder b;
  exe::Shape shape = makeShape(exe::F32, {8, 128}, {{8, 128}});
  uint32_t pw = b.addParameter("w", shape);
  uint32_t pg = b.addParameter("g", shape);
  uint32_t rw = b.addResult("w_new", shape, /*aliasParameter=*/pw);
  uint32_t rl = b.addResult("loss", makeShape(exe::F32, {1}, {{1024}}));
  b.setDebugOp("copy.1", "jit(train_step)/params");
  b.dma(exe::HBM, imm(b.parameterOffset(pw)), exe::VMEM, imm(0), imm(4096),
        imm(1), imm(0), imm(0), imm(0));
  b.dma(exe::HBM, imm(b.parameterOffset(pg)), exe::VMEM, imm(4096), imm(4096),
        imm(1), imm(0), imm(0), imm(0));
  b.semWait(imm(0), imm(2));
  b.setDebugOp("fusion.2", "jit(train_step)/sub");
  b.vld(0, imm(0), exe::F32);
  b.vld(1, imm(4096), exe::F32);
  b.vst(0, imm(8192), exe::F32); // the loss: w before the update
  b.vsplatF32(2, 0.25f);
  b.vector(exe::VMUL, 1, {1, 2}, exe::F32);
  b.vector(exe::VSUB, 0, {0, 1}, exe::F32);
  b.vst(0, imm(0), exe::F32);
  b.setDebugOp("copy.3", "jit(train_step)/outputs");
  b.dma(exe::VMEM, imm(0), exe::HBM, imm(b.resultOffset(rw)), imm(4096), imm(1),
        imm(0), imm(0), imm(0));
  b.dma(exe::VMEM, imm(8192), exe::HBM, imm(b.resultOffset(rl)), imm(4096),
        imm(1), imm(0), imm(0), imm(0));
  b.semWait(imm(0), imm(2));
  b.emit(exe::HALT);
  return b;
}

} // namespace tpuc::runtime::test
