//===- Dot.cpp - dot_general on the MXU ---------------------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
// tpuc-decompose-dots has already rewritten every dot_general into
// [M,K] x [K,N] or [B,M,K] x [B,K,N].
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Lowering.h"
#include "passes/MxuPrecision.h"

using namespace mlir;

namespace tpuc::hlotpu {

namespace {

/// The bf16 products of an operand split into `splits` pieces (a = a0 + a1
/// + a2, each bf16, a0 largest), as (lhs piece, rhs piece): every pair
/// whose pieces' index sum is below `splits`, which is XLA's bf16x3 and
/// bf16x6. Grouped by the rhs piece (one weight load per group) and the
/// smallest products first, so they are accumulated before the large ones.
SmallVector<std::pair<int64_t, int64_t>> productsOf(int64_t splits) {
  SmallVector<std::pair<int64_t, int64_t>> products;
  for (int64_t j = splits - 1; j >= 0; --j)
    for (int64_t i = splits - 1 - j; i >= 0; --i)
      products.push_back({i, j});
  return products;
}

bool isCanonicalDot(hlo::DotGeneralOp op) {
  hlo::DotDimensionNumbersAttr dn = op.getDotDimensionNumbers();
  int64_t rank = op.getLhs().getType().getRank();
  if (op.getRhs().getType().getRank() != rank ||
      dn.getLhsContracting().size() != 1 || dn.getRhsContracting().size() != 1)
    return false;
  if (rank == 2)
    return dn.getLhsBatch().empty() && dn.getLhsContracting()[0] == 1 &&
           dn.getRhsContracting()[0] == 0;
  return rank == 3 && dn.getLhsBatch().size() == 1 &&
         dn.getLhsBatch()[0] == 0 && dn.getRhsBatch()[0] == 0 &&
         dn.getLhsContracting()[0] == 2 && dn.getRhsContracting()[0] == 1;
}

} // namespace

//===----------------------------------------------------------------------===//
// dot_general on the MXU
//===----------------------------------------------------------------------===//

LogicalResult Lowering::lowerDot(hlo::DotGeneralOp op) {
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
  auto type = cast<RankedTensorType>(op.getType());
  if (!isCanonicalDot(op))
    return unsupported(op, "other than [M,K] x [K,N] or [B,M,K] x [B,K,N] "
                           "(tpuc-decompose-dots makes that form)");
  Type inElem = lhsType.getElementType(), outElem = type.getElementType();
  if (!inElem.isF32() && !inElem.isBF16())
    return unsupported(op, "with integer operands");
  if (!outElem.isF32() && !outElem.isBF16())
    return unsupported(op, "with an integer result");

  int64_t rank = lhsType.getRank();
  int64_t nb = rank == 3 ? lhsType.getDimSize(0) : 1;
  int64_t K = lhsType.getDimSize(rank - 1);
  Geometry ga = geometryOf(lhsType), gb = geometryOf(rhsType),
           gc = geometryOf(type);
  // kt and nt count 128-wide tiles of K and N; a D x D MXU takes D/128
  // (`blocks`) of them at a time: kSteps steps along K, nTiles weight
  // tiles along N.
  int64_t D = mxuDim(), blocks = mxuBlocks();
  int64_t mt = ga.rowTiles, kt = ga.colTiles, nt = gb.colTiles;
  int64_t kSteps = ceilDiv(K, D), nTiles = ceilDiv(nt, blocks);
  bool raggedK = K % D != 0;
  bool outBf16 = outElem.isBF16();
  // f32 operands are split into bf16 pieces on the VPU (one piece is XLA's
  // DEFAULT rounding); bf16 operands are exact in one piece.
  int64_t splits = inElem.isF32() ? bf16PiecesFor(op.getPrecisionConfig(), dotPrecision) : 1;
  SmallVector<std::pair<int64_t, int64_t>> products = productsOf(splits);
  // Operands the MXU cannot read as they are go through the VPU: f32 ones
  // are split, and a ragged K is zeroed past its end on both sides.
  bool prepA = !inElem.isBF16() || raggedK;
  bool prepB = prepA;
  // Every MXU computes: one weight tile (N tile) per group, and the panel's
  // rows split in parts when there are fewer N tiles than MXUs.
  int64_t groups =
      std::min<int64_t>(std::max<int64_t>(spec.machine.mxu_count(), 1), nTiles);

  FailureOr<Value> a = memOf(op.getLhs()), bm = memOf(op.getRhs());
  if (failed(a) || failed(bm))
    return failure();
  Value out = allocHbm(type, op.getLoc());
  hbm[op.getResult()] = out;
  Type bf16 = b.getBF16Type(), f32 = b.getF32Type();

  // M panels: as many rows as fit (longer LHS streams amortise the MXU's
  // fill and drain), a divisor of the row tiles.
  const int64_t kWeightBytes = D * D * 2;
  int64_t vmemBytes = spec.machine.vmem_bytes();
  auto need = [&](int64_t rows) {
    int64_t lhs = splits * 2 * rows * D * 2 +
                  (prepA ? 2 * rows * D * ga.elemBytes : 0);
    int64_t w = groups * (splits * 2 * kWeightBytes +
                          (prepB ? 2 * D * D * gb.elemBytes : 0));
    int64_t cp = groups * 2 * rows * D *
                 (4 + (splits > 1 ? 4 : 0) + (outBf16 ? 2 : 0));
    return lhs + w + cp;
  };
  int64_t panelTiles = 1;
  for (int64_t d = std::min<int64_t>(mt, 1024); d >= 1; --d)
    if (mt % d == 0 && need(d * kSublanes) <= vmemBytes * 3 / 4) {
      panelTiles = d;
      break;
    }
  int64_t mb = panelTiles * kSublanes;
  if (need(mb) > vmemBytes)
    return op.emitError() << "the kernel for 'hlo.dot_general' needs "
                          << need(mb) << " bytes of VMEM but "
                          << spec.machine.name() << " has " << vmemBytes;
  MxuSplit split = splitForMxus(groups, mb);
  int64_t parts = split.parts, partTiles = panelTiles / parts;

  int64_t aTile = ga.tileBytes(), bTile = gb.tileBytes(),
          cTile = gc.tileBytes();
  int64_t aBatch = mt * kt * aTile, cBatch = mt * nt * cTile;
  // B as the kernel reads it: kSteps whole D-row weight tiles per batch.
  int64_t wRowTiles = D / kSublanes;
  int64_t bBatch = kSteps * wRowTiles * nt * bTile;
  // With a ragged K, B's last weight tile would read past its buffer: copy
  // B into one padded to whole D-row tiles (the rows past K are masked).
  Value bsrc = *bm;
  if (raggedK) {
    SmallVector<int64_t> shape(rhsType.getShape());
    shape[rank - 2] = kSteps * D;
    bsrc = allocHbm(rhsType.clone(shape), op.getLoc());
    int64_t srcBatch = gb.rowTiles * nt * bTile;
    dma(*bm, c(0), bsrc, c(0), nb, srcBatch, srcBatch, bBatch, 3);
    wait(3, 1);
  }

  // VMEM: LHS pieces and weight pieces double-buffered by step, C panels
  // (and their bf16 copies) double-buffered by job. A slot of an MXU
  // operand is [parts][blocks][rows of a part][128] (lane blocks, each
  // part's blocks together as MXU_MATMUL reads them); a weight slot is
  // [blocks][D][128].
  int64_t lhsSlot = mb * D * 2, cSlot = mb * D * 4, cOutSlot = mb * D * 2;
  int64_t lhsStageSlot = mb * D * ga.elemBytes,
          wStageSlot = D * D * gb.elemBytes;
  SmallVector<VBuf> lhs, wStage;
  SmallVector<SmallVector<VBuf>> w(groups);
  for (int64_t s = 0; s < splits; ++s)
    lhs.push_back(vmem(bf16, 2 * lhsSlot));
  VBuf lhsStage = prepA ? vmem(inElem, 2 * lhsStageSlot) : VBuf();
  for (int64_t g = 0; g < groups; ++g) {
    for (int64_t s = 0; s < splits; ++s)
      w[g].push_back(vmem(bf16, 2 * kWeightBytes));
    wStage.push_back(prepB ? vmem(inElem, 2 * wStageSlot) : VBuf());
  }
  // With split operands the small products accumulate apart from the
  // large one (XLA sums separate dots): their rounding errors stay small
  // and the result is as close to f32 as one f32 accumulation.
  SmallVector<VBuf> cp, cSmall, cOut;
  for (int64_t g = 0; g < groups; ++g) {
    cp.push_back(vmem(f32, 2 * cSlot));
    if (splits > 1)
      cSmall.push_back(vmem(f32, 2 * cSlot));
    if (outBf16)
      cOut.push_back(vmem(bf16, 2 * cOutSlot));
  }
  // Tile index of (part q, block j, row tile r) in a slot.
  auto slotTile = [&](int64_t q, int64_t j) {
    return (q * blocks + j) * partTiles;
  };

  // Jobs: (batch, M panel, column group) in that nesting, flattened so
  // that the last step of a job can prefetch the next job's first one.
  // Column group `np` computes N tiles groups*np .. groups*np+groups-1;
  // when the groups do not divide the N tiles, the last group's extra
  // MXUs recompute the last N tile (free in time, and it keeps every job
  // the same shape). With D = 256 and an odd number of 128-wide column
  // tiles, the last N tile's second block likewise recomputes column
  // tile nt - 1: identical values written to the same place.
  int64_t mPanels = mt / panelTiles;
  int64_t colGroups = ceilDiv(nTiles, groups);
  int64_t jobs = nb * mPanels * colGroups;
  auto minOf = [&](Value x, int64_t y) -> Value {
    if (std::optional<int64_t> cx = constant(x))
      return c(std::min(*cx, y));
    return arith::MinSIOp::create(b, loc, x, c(y));
  };
  struct Job {
    Value batch, panel;
    SmallVector<Value, 8> cols; // the N tile of each group
  };
  auto remOf = [&](Value x, int64_t y) { return y == 1 ? c(0) : rem(x, y); };
  auto jobAt = [&](Value j) {
    Job job;
    Value t = div(j, colGroups);
    Value np = remOf(j, colGroups);
    job.panel = remOf(t, mPanels);
    job.batch = div(t, mPanels);
    for (int64_t g = 0; g < groups; ++g) {
      Value n = add(mul(np, groups), g);
      if (nTiles % groups != 0 && g > 0)
        n = minOf(n, nTiles - 1);
      job.cols.push_back(n);
    }
    return job;
  };
  // The 128-wide column tile of block j of N tile `n` (of B and C).
  auto colTile = [&](Value n, int64_t j) {
    Value col = add(mul(n, blocks), j);
    return nt % blocks != 0 && j > 0 ? minOf(col, nt - 1) : col;
  };
  // Runs `body` when `flag` (a scalar) is non-zero. The body must compute
  // its scalars from the loop's induction variable and constants: the
  // serializer does not keep other scalars defined before a tpu.if alive
  // through it.
  auto when = [&](Value flag, function_ref<void()> body) {
    if (std::optional<int64_t> cf = constant(flag)) {
      if (*cf != 0)
        body();
      return;
    }
    auto ifOp = tpu::IfOp::create(b, loc, flag);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.getThenBlock()->getTerminator());
    body();
  };

  constexpr int kSemLhs = 0, kSemW = 1, kSemOut = 2;
  // Issue the DMAs of step k of `job` (LHS panel k, one per part and
  // block; weight tile (k, n_g) per group, one per block) into A/B slot
  // `slot`. Past K's last column tile the LHS reads that tile again: the
  // ragged-K mask zeroes those lanes.
  auto fetch = [&](const Job &job, Value k, Value slot) {
    const VBuf &ad = prepA ? lhsStage : lhs[0];
    int64_t adSlot = prepA ? lhsStageSlot : lhsSlot;
    for (int64_t j = 0; j < blocks; ++j) {
      Value kcol = add(mul(k, blocks), j);
      if (kt % blocks != 0 && j > 0)
        kcol = minOf(kcol, kt - 1);
      for (int64_t q = 0; q < parts; ++q) {
        Value aOff = add(add(mul(job.batch, aBatch),
                             mul(job.panel, panelTiles * kt * aTile)),
                         add(mul(kcol, aTile), q * partTiles * kt * aTile));
        dma(*a, aOff, ad.arena,
            add(mul(slot, adSlot), ad.offset + slotTile(q, j) * aTile),
            partTiles, aTile, kt * aTile, aTile, kSemLhs);
      }
    }
    for (int64_t g = 0; g < groups; ++g) {
      const VBuf &wd = prepB ? wStage[g] : w[g][0];
      int64_t wdSlot = prepB ? wStageSlot : kWeightBytes;
      for (int64_t j = 0; j < blocks; ++j) {
        Value bOff = add(add(mul(job.batch, bBatch),
                             mul(k, wRowTiles * nt * bTile)),
                         mul(colTile(job.cols[g], j), bTile));
        dma(bsrc, bOff, wd.arena,
            add(mul(slot, wdSlot), wd.offset + j * wRowTiles * bTile),
            wRowTiles, bTile, nt * bTile, bTile, kSemW);
      }
    }
  };

  // The C write-back of a job goes out in `pieces` DMAs, one per (group,
  // part, block) or, with few of those, rows of them, spread over the steps
  // of the next job so that it shares the DMA engine with the LHS stream
  // instead of stalling the MXUs (a lone job writes whole panels).
  int64_t perRowSplit = groups * parts * blocks;
  int64_t rowSplit =
      jobs > 1 ? largestDivisorAtMost(
                     partTiles,
                     std::clamp<int64_t>(kSteps / perRowSplit, 1, 4))
               : 1;
  int64_t pieces = perRowSplit * rowSplit, pieceTiles = partTiles / rowSplit;
  auto writePiece = [&](const Job &job, Value cslot, int64_t p) {
    int64_t r = p % rowSplit, j = (p / rowSplit) % blocks,
            q = (p / rowSplit / blocks) % parts, g = p / rowSplit / blocks / parts;
    const VBuf &src = outBf16 ? cOut[g] : cp[g];
    int64_t srcSlot = outBf16 ? cOutSlot : cSlot;
    int64_t rowTile = q * partTiles + r * pieceTiles;
    Value cOff = add(add(mul(job.batch, cBatch),
                         mul(job.panel, panelTiles * nt * cTile)),
                     add(mul(colTile(job.cols[g], j), cTile),
                         rowTile * nt * cTile));
    dma(src.arena,
        add(mul(cslot, srcSlot),
            src.offset + (slotTile(q, j) + r * pieceTiles) * cTile),
        out, cOff, pieceTiles, cTile, cTile, nt * cTile, kSemOut);
  };

  // Splits f32 rows (or masks a ragged K of bf16 ones) from `stage` into
  // the bf16 pieces `dst`: x0 = bf16(x), x1 = bf16(x - x0), x2 = x - x0 - x1.
  auto splitTiles = [&](const VBuf &stage, Value src, int64_t srcTile,
                        ArrayRef<VBuf> dst, Value dstOff, int64_t tiles,
                        function_ref<Value(Value, Value)> mask) {
    loop(tiles, [&](Value t) {
      Value x = vload(stage, add(src, mul(t, srcTile)));
      if (mask)
        x = mask(x, t);
      for (int64_t s = 0; s < splits; ++s) {
        Value piece = x;
        if (s + 1 < splits) {
          Value rounded = tpu::VConvertOp::create(
              b, loc, VectorType::get({8, 128}, bf16), x);
          piece = tpu::VConvertOp::create(b, loc, f32Reg(), rounded);
          x = tpu::VSubOp::create(b, loc, x, piece);
        }
        vstore(piece, dst[s], add(dstOff, mul(t, kSublanes * kLanes * 2)));
      }
    });
  };
  constexpr int64_t kBf16Tile = kSublanes * kLanes * 2;

  // Step k of job j: wait for its tiles, prefetch the next step's (the
  // next job's first at the last step), write pieces `writes` of the
  // previous job's C, prepare and multiply.
  auto step = [&](Value j, const Job &job, Value k, bool first, bool last,
                  ArrayRef<int64_t> writes) {
    wait(kSemLhs, parts * blocks);
    wait(kSemW, groups * blocks);
    Value s = add(mul(j, kSteps), k);
    Value slot = rem(s, 2);
    if (!last)
      fetch(job, add(k, 1), rem(add(s, 1), 2));
    else
      when(sub(c(jobs - 1), j), [&] {
        Value nextJob = add(j, 1);
        fetch(jobAt(nextJob), c(0), rem(mul(nextJob, kSteps), 2));
      });
    if (!writes.empty())
      when(j, [&] {
        Value prev = sub(j, c(1));
        Job pj = jobAt(prev);
        for (int64_t p : writes)
          writePiece(pj, rem(prev, 2), p);
      });
    Value cslot = rem(j, 2);
    Value kLeft = raggedK ? sub(c(K), mul(k, D)) : Value();
    if (prepA) {
      // Block j of the step holds K columns k*D + 128j + lane.
      auto prepare = [&](int64_t from, int64_t tiles, int64_t j) {
        splitTiles(lhsStage, add(mul(slot, lhsStageSlot), from * aTile), aTile,
                   lhs, add(mul(slot, lhsSlot), from * kBf16Tile), tiles,
                   [&](Value x, Value) -> Value {
                     if (!raggedK)
                       return x;
                     return maskBelow(
                         x, tpu::VLaneIdOp::create(b, loc, i32Reg()),
                         sub(kLeft, c(j * kLanes)), 0.0);
                   });
      };
      if (!raggedK)
        prepare(0, panelTiles * blocks, 0);
      else
        for (int64_t q = 0; q < parts; ++q)
          for (int64_t jb = 0; jb < blocks; ++jb)
            prepare(slotTile(q, jb), partTiles, jb);
    }
    Value wOff = mul(slot, kWeightBytes);
    if (prepB)
      for (int64_t g = 0; g < groups; ++g)
        for (int64_t jb = 0; jb < blocks; ++jb)
          splitTiles(wStage[g], add(mul(slot, wStageSlot), jb * wRowTiles * bTile),
                     bTile, w[g], add(wOff, jb * wRowTiles * kBf16Tile),
                     wRowTiles, [&](Value x, Value t) -> Value {
                       if (!raggedK)
                         return x;
                       return maskBelow(
                           x, tpu::VSublaneIdOp::create(b, loc, i32Reg()),
                           sub(kLeft, mul(t, kSublanes)), 0.0);
                     });
    // The products, grouped by weight piece: one load per MXU and piece.
    bool mainDone = false, smallDone = false;
    for (int64_t wi = splits - 1; wi >= 0; --wi) {
      SmallVector<std::function<Value(int64_t)>> lhsAts;
      SmallVector<std::function<Value(int64_t, int64_t)>> dstAts;
      SmallVector<std::tuple<int64_t, bool, bool>> picked; // i, main, acc
      for (auto [i, pwi] : products) {
        if (pwi != wi)
          continue;
        bool isMain = i == 0 && wi == 0;
        bool &done = isMain ? mainDone : smallDone;
        picked.push_back({i, isMain, !first || done});
        done = true;
      }
      SmallVector<MxuStream> streams;
      lhsAts.reserve(picked.size());
      dstAts.reserve(picked.size());
      for (auto [i, isMain, acc] : picked) {
        int64_t li = i;
        bool main = isMain;
        lhsAts.push_back([&, li](int64_t q) {
          return add(mul(slot, lhsSlot),
                     lhs[li].offset + slotTile(q, 0) * kBf16Tile);
        });
        dstAts.push_back([&, main](int64_t g, int64_t q) {
          const VBuf &dst = main ? cp[g] : cSmall[g];
          return add(mul(cslot, cSlot),
                     dst.offset + slotTile(q, 0) * kSublanes * kLanes * 4);
        });
        streams.push_back({lhs[li].arena, lhsAts.back(),
                           (main ? cp : cSmall)[0].arena, dstAts.back(), acc});
      }
      issueMxu(split, w[0][wi].arena,
               [&](int64_t g) { return add(wOff, w[g][wi].offset); }, streams);
    }
  };

  // Steps 0..peel-1 are peeled (each writes some of the previous job's C
  // pieces), then the middle steps loop, then the last step is peeled.
  int64_t peel = std::min(pieces, kSteps);
  auto piecesAt = [&](int64_t k) {
    SmallVector<int64_t> ps;
    for (int64_t p = k * pieces / peel; p < (k + 1) * pieces / peel; ++p)
      ps.push_back(p);
    return ps;
  };
  fetch(jobAt(c(0)), c(0), c(0));
  loop(jobs, [&](Value j) {
    Job job = jobAt(j);
    for (int64_t k = 0; k < peel; ++k)
      step(j, job, c(k), k == 0, k == kSteps - 1, piecesAt(k));
    if (kSteps - 1 > peel)
      loop(kSteps - 1 - peel,
           [&](Value i) { step(j, job, add(i, peel), false, false, {}); });
    if (kSteps > peel)
      step(j, job, c(kSteps - 1), false, true, {});
    // Add the small products; round a bf16 result into its own buffer.
    Value cslot = rem(j, 2);
    if (outBf16 || splits > 1)
      for (int64_t g = 0; g < groups; ++g)
        loop(panelTiles * blocks, [&](Value t) {
          Value off = add(mul(cslot, cSlot), mul(t, kSublanes * kLanes * 4));
          Value x = vload(cp[g], off);
          if (splits > 1)
            x = tpu::VAddOp::create(b, loc, x, vload(cSmall[g], off));
          if (outBf16)
            vstore(x, cOut[g], add(mul(cslot, cOutSlot), mul(t, cTile)));
          else
            vstore(x, cp[g], off);
        });
    // The previous job's C went out during this job; job j+1 overwrites
    // its panels.
    when(j, [&] { wait(kSemOut, pieces); });
  });
  Value last = c(jobs - 1);
  Job lastJob = jobAt(last);
  for (int64_t p = 0; p < pieces; ++p)
    writePiece(lastJob, rem(last, 2), p);
  wait(kSemOut, pieces);
  return success();
}

void populateDotPatterns(RewritePatternSet &patterns, Lowering &l) {
  l.addKernel(patterns, &Lowering::lowerDot);
}

} // namespace tpuc::hlotpu
