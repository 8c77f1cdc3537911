//===- Dot.cpp - dot_general on the MXU ---------------------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Lowering.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace tpuc::hlotpu {

//===----------------------------------------------------------------------===//
// dot_general on the MXU
//===----------------------------------------------------------------------===//

LogicalResult Lowering::lowerDot(hlo::DotGeneralOp op) {
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
  auto type = cast<RankedTensorType>(op.getType());
  auto dn = op.getDotDimensionNumbers();
  if (lhsType.getRank() != 2 || rhsType.getRank() != 2 ||
      !dn.getLhsBatch().empty() || dn.getLhsContracting().size() != 1 ||
      dn.getLhsContracting()[0] != 1 || dn.getRhsContracting().size() != 1 ||
      dn.getRhsContracting()[0] != 0)
    return unsupported(op, "other than a 2-D [M,K] x [K,N] product");
  if (!type.getElementType().isF32())
    return unsupported(op, "with a non-f32 result");
  if (auto precision = op.getPrecisionConfig())
    for (Attribute p : *precision)
      if (cast<hlo::PrecisionAttr>(p).getValue() != hlo::Precision::DEFAULT)
        return unsupported(op, "with precision " +
                                   hlo::stringifyPrecision(
                                       cast<hlo::PrecisionAttr>(p).getValue()));

  Geometry ga = geometryOf(lhsType), gb = geometryOf(rhsType),
           gc = geometryOf(type);
  int64_t K = lhsType.getDimSize(1);
  int64_t mt = ga.rowTiles, kt = ga.colTiles, nt = gb.colTiles;
  bool raggedK = K % kLanes != 0;
  // Operands the MXU cannot read as they are go through the VPU: f32 ones
  // are rounded to bf16 (XLA's DEFAULT precision: one bf16 pass), and a
  // ragged K is zeroed past its end on both sides.
  bool prepA = !lhsType.getElementType().isBF16() || raggedK;
  bool prepB = !rhsType.getElementType().isBF16() || raggedK;
  int64_t groups = spec.machine.mxu_count() >= 2 ? 2 : 1;

  FailureOr<Value> a = memOf(op.getLhs()), bm = memOf(op.getRhs());
  if (failed(a) || failed(bm))
    return failure();
  Value out = allocHbm(type, op.getLoc());
  hbm[op.getResult()] = out;
  Type bf16 = b.getBF16Type(), f32 = b.getF32Type();

  // M panels: as many rows as fit (longer LHS streams amortise the MXU's
  // fill and drain), a divisor of the row tiles.
  int64_t vmemBytes = spec.machine.vmem_bytes();
  auto need = [&](int64_t rows) {
    int64_t lhs = 2 * rows * kLanes * 2 + (prepA ? 2 * rows * kLanes * ga.elemBytes : 0);
    int64_t w = groups * 2 * (kLanes * kLanes * 2 +
                              (prepB ? kLanes * kLanes * gb.elemBytes : 0));
    int64_t cp = groups * rows * kLanes * 4;
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

  // With a ragged K, B's last weight tile would read past its buffer: copy
  // B into one padded to whole 128-row tiles (the rows past K are masked).
  Value bsrc = *bm;
  if (raggedK) {
    auto padded = RankedTensorType::get({kt * kLanes, rhsType.getDimSize(1)},
                                        rhsType.getElementType());
    bsrc = allocHbm(padded, op.getLoc());
    dma(*bm, c(0), bsrc, c(0), 1, gb.bytes(), 0, 0, 3);
    wait(3, 1);
  }

  int64_t lhsSlot = mb * kLanes * 2, wSlot = kLanes * kLanes * 2,
          cSlot = mb * kLanes * 4;
  int64_t aTile = ga.tileBytes(), bTile = gb.tileBytes();
  VBuf lhs = vmem(bf16, 2 * lhsSlot);
  VBuf lhsStage = prepA ? vmem(lhsType.getElementType(), 2 * mb * kLanes * ga.elemBytes) : VBuf();
  SmallVector<VBuf> w, wStage;
  for (int64_t g = 0; g < groups; ++g) {
    w.push_back(vmem(bf16, 2 * wSlot));
    wStage.push_back(prepB ? vmem(rhsType.getElementType(),
                                  2 * kLanes * kLanes * gb.elemBytes)
                           : VBuf());
  }
  SmallVector<VBuf> cp;
  for (int64_t g = 0; g < groups; ++g)
    cp.push_back(vmem(f32, cSlot));
  int64_t lhsStageSlot = mb * kLanes * ga.elemBytes,
          wStageSlot = kLanes * kLanes * gb.elemBytes;

  constexpr int kSemLhs = 0, kSemW = 1, kSemOut = 2;
  // Issue the DMAs of step k (LHS panel k of M panel `mp`; weight tile
  // (k, n_g) per group) into slot k % 2.
  auto fetch = [&](Value mp, Value k, ArrayRef<Value> ns) {
    Value slot = rem(k, 2);
    Value aOff = add(mul(mp, panelTiles * kt * aTile),
                                   mul(k, aTile));
    const VBuf &ad = prepA ? lhsStage : lhs;
    int64_t adSlot = prepA ? lhsStageSlot : lhsSlot;
    dma(*a, aOff, ad.arena, add(mul(slot, adSlot), ad.offset), panelTiles,
        aTile, kt * aTile, aTile, kSemLhs);
    for (size_t g = 0; g < ns.size(); ++g) {
      const VBuf &wd = prepB ? wStage[g] : w[g];
      int64_t wdSlot = prepB ? wStageSlot : wSlot;
      Value bOff = add(mul(k, 16 * nt * bTile),
                                           mul(ns[g], bTile));
      dma(bsrc, bOff, wd.arena, add(mul(slot, wdSlot), wd.offset),
          kLanes / kSublanes, bTile, nt * bTile, bTile, kSemW);
    }
  };
  // Step k: wait for its tiles, prefetch step k+1's, prepare, multiply.
  auto step = [&](Value mp, Value k, ArrayRef<Value> ns, bool first,
                  bool hasNext) {
    wait(kSemLhs, 1);
    wait(kSemW, ns.size());
    if (hasNext)
      fetch(mp, add(k, 1), ns);
    Value slot = rem(k, 2);
    Value kLeft = raggedK ? sub(c(K), mul(k, kLanes)) : Value();
    if (prepA) {
      Value src = mul(slot, lhsStageSlot), dst = mul(slot, lhsSlot);
      loop(panelTiles, [&](Value t) {
        Value x = vload(lhsStage, add(src, mul(t, aTile)));
        if (raggedK)
          x = maskBelow(x, tpu::VLaneIdOp::create(b, loc, i32Reg()), kLeft, 0.0);
        vstore(x, lhs, add(dst, mul(t, kSublanes * kLanes * 2)));
      });
    }
    for (size_t g = 0; g < ns.size(); ++g) {
      Value wOff = mul(slot, wSlot);
      if (prepB) {
        Value src = mul(slot, wStageSlot);
        loop(kLanes / kSublanes, [&](Value t) {
          Value x = vload(wStage[g], add(src, mul(t, bTile)));
          if (raggedK)
            x = maskBelow(x, tpu::VSublaneIdOp::create(b, loc, i32Reg()),
                          sub(kLeft, mul(t, kSublanes)), 0.0);
          vstore(x, w[g], add(wOff, mul(t, kSublanes * kLanes * 2)));
        });
      }
      tpu::MxuLoadWeightsOp::create(b, loc, w[g].arena, add(wOff, w[g].offset),
                                      static_cast<uint32_t>(g));
      tpu::MxuMatmulOp::create(b, loc, lhs.arena,
                                 add(mul(slot, lhsSlot), lhs.offset),
                                 cp[g].arena, c(cp[g].offset),
                                 static_cast<uint32_t>(g), mb, !first);
    }
  };
  // One group of output columns: the K loop (first and last steps peeled,
  // as they differ in accumulate and prefetch), then the C panels out.
  auto columnGroup = [&](Value mp, ArrayRef<Value> ns) {
    fetch(mp, c(0), ns);
    step(mp, c(0), ns, /*first=*/true, /*hasNext=*/kt > 1);
    if (kt > 2)
      loop(kt - 2, [&](Value i) { step(mp, add(i, 1), ns, false, true); });
    if (kt > 1)
      step(mp, c(kt - 1), ns, false, false);
    for (size_t g = 0; g < ns.size(); ++g) {
      Value cOff = add(mul(mp, panelTiles * nt * gc.tileBytes()),
                       mul(ns[g], gc.tileBytes()));
      dma(cp[g].arena, c(cp[g].offset), out, cOff, panelTiles, gc.tileBytes(),
          gc.tileBytes(), nt * gc.tileBytes(), kSemOut);
    }
    wait(kSemOut, ns.size());
  };
  loop(mt / panelTiles, [&](Value mp) {
    loop(nt / groups, [&](Value np) {
      SmallVector<Value> ns;
      for (int64_t g = 0; g < groups; ++g)
        ns.push_back(add(mul(np, groups), g));
      columnGroup(mp, ns);
    });
    if (nt % groups)
      columnGroup(mp, {c(nt - 1)});
  });
  return success();
}


} // namespace tpuc::hlotpu
