//===- Gather.cpp - dynamic slices, gather and scatter ------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h, Relayout.h and
// docs/codegen.md. Run-time indices go HBM -> SMEM by DMA, into scalar
// registers by SLD, are clamped as XLA does, and become the dynamic start
// indices of a copyBox (HBM -> HBM DMAs of the slice's contiguous runs).
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Reduction.h"
#include "passes/HloToTpu/Relayout.h"

using namespace mlir;

namespace tpuc::hlotpu {

// Semaphores (docs/codegen.md): 0 = inputs (indices to SMEM), 3 = copies.
static constexpr int kIndexSem = 0, kCopySem = 3;
// Indices per SMEM block of a gather (4 KiB of s32).
static constexpr int64_t kIndexBlock = 1024;
static constexpr llvm::StringLiteral kSmemArenaAttr = "tpuc.index_smem";
// Gathers of one row per index whose source offsets are computed by the
// VPU (lowerGather): from this many positions (below, the extra VMEM round
// trip costs more than the 3 scalar instructions per row it saves) up to
// this many (256 KiB of VMEM staging).
static constexpr int64_t kVectorizedMinPositions = 256;
static constexpr int64_t kVectorizedMaxPositions = 64 * 1024;

Value smemArena(Lowering &l, int64_t bytes) {
  int64_t words = std::max<int64_t>(ceilDiv(bytes, 4), 1);
  auto space = tpu::MemorySpaceAttr::get(l.ctx, tpu::MemorySpace::smem);
  auto typeOf = [&](int64_t n) {
    return MemRefType::get({n}, l.b.getI32Type(), nullptr, space);
  };
  for (auto alloc : l.newFunc.getBody().front().getOps<tpu::AllocOp>()) {
    if (!alloc->hasAttr(kSmemArenaAttr))
      continue;
    if (cast<MemRefType>(alloc.getType()).getDimSize(0) < words)
      alloc.getResult().setType(typeOf(words));
    return alloc;
  }
  OpBuilder::InsertionGuard guard(l.b);
  l.b.setInsertionPoint(l.allocPoint);
  auto alloc = tpu::AllocOp::create(l.b, l.module.getLoc(), typeOf(words),
                                    ElementsAttr());
  alloc->setAttr(kSmemArenaAttr, l.b.getUnitAttr());
  return alloc;
}

static Value sload(Lowering &l, Value smem, Value byteOffset) {
  Value word = tpu::SLoadOp::create(l.b, l.loc, smem, byteOffset);
  return arith::IndexCastOp::create(l.b, l.loc, l.b.getIndexType(), word);
}

FailureOr<SmallVector<Value>> loadScalars(Lowering &l, ValueRange indices) {
  SmallVector<Value> result(indices.size());
  SmallVector<std::pair<size_t, int64_t>> loaded; // (which, SMEM offset)
  Value smem;
  for (auto [i, index] : llvm::enumerate(indices)) {
    auto type = cast<RankedTensorType>(index.getType());
    if (!type.getElementType().isInteger(32))
      return FailureOr<SmallVector<Value>>(unsupported(
          l.kernelOp, "with indices that are not s32"));
    DenseIntElementsAttr cst;
    if (auto op = index.getDefiningOp<hlo::ConstantOp>())
      cst = dyn_cast<DenseIntElementsAttr>(op.getValue());
    if (cst) {
      result[i] = l.c(cst.getSplatValue<APInt>().getSExtValue());
      continue;
    }
    FailureOr<Value> mem = l.memOf(index);
    if (failed(mem))
      return failure();
    if (!smem)
      smem = smemArena(l, 4 * indices.size());
    int64_t off = 4 * static_cast<int64_t>(loaded.size());
    l.dma(*mem, l.c(0), smem, l.c(off), 1, 4, 0, 0, kIndexSem);
    loaded.push_back({i, off});
  }
  l.wait(kIndexSem, loaded.size());
  for (auto [i, off] : loaded)
    result[i] = sload(l, smem, l.c(off));
  return result;
}

Value clampIndex(Lowering &l, Value x, int64_t hi) {
  if (hi <= 0)
    return l.c(0);
  if (std::optional<int64_t> cx = Lowering::constant(x))
    return l.c(std::clamp<int64_t>(*cx, 0, hi));
  Value lo = arith::MaxSIOp::create(l.b, l.loc, x, l.c(0));
  return arith::MinSIOp::create(l.b, l.loc, lo, l.c(hi));
}

/// The clamped start of each operand dimension for a slice of `sizes`.
static SmallVector<Value> clampStarts(Lowering &l, ArrayRef<Value> starts,
                                      RankedTensorType operand,
                                      ArrayRef<int64_t> sizes) {
  SmallVector<Value> clamped;
  for (auto [d, s] : llvm::enumerate(starts))
    clamped.push_back(clampIndex(l, s, operand.getDimSize(d) - sizes[d]));
  return clamped;
}

//===----------------------------------------------------------------------===//
// dynamic_slice, dynamic_update_slice
//===----------------------------------------------------------------------===//

LogicalResult Lowering::lowerDynamicSlice(hlo::DynamicSliceOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  auto inType = cast<RankedTensorType>(op.getOperand().getType());
  FailureOr<std::pair<View, View>> views = resultViews(*this, op, op.getOperand());
  if (failed(views))
    return failure();
  FailureOr<SmallVector<Value>> starts = loadScalars(*this, op.getStartIndices());
  if (failed(starts))
    return failure();
  copyBoxAndWait(*this, views->first,
                 clampStarts(*this, *starts, inType, op.getSliceSizes()),
                 views->second, {}, identityAxes(type.getShape()));
  return success();
}

LogicalResult Lowering::lowerDynamicUpdateSlice(hlo::DynamicUpdateSliceOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  auto upType = cast<RankedTensorType>(op.getUpdate().getType());
  FailureOr<std::pair<View, View>> views = resultViews(*this, op, op.getOperand());
  if (failed(views))
    return failure();
  FailureOr<Value> update = memOf(op.getUpdate());
  if (failed(update))
    return failure();
  FailureOr<SmallVector<Value>> starts = loadScalars(*this, op.getStartIndices());
  if (failed(starts))
    return failure();
  copyWhole(*this, views->first.mem, views->second.mem, type);
  copyBoxAndWait(*this, tiledView(*update, upType), {}, views->second,
                 clampStarts(*this, *starts, type, upType.getShape()),
                 identityAxes(upType.getShape()));
  return success();
}

//===----------------------------------------------------------------------===//
// gather and scatter
//===----------------------------------------------------------------------===//

/// Walks the index vectors of `indices` (index vector dim `ivd`, `k`
/// entries; `ivd == rank` means k = 1): they are relaid out row-major with
/// the index vector last into a rank-1 HBM array, go to SMEM in blocks of
/// up to kIndexBlock words, and for each batch position `body(vector,
/// batchCoords)` gets the `k` indices (scalar registers) and the position's
/// coordinates in the batch dims. Returns the sum of `body`'s DMA counts
/// over all positions. With `unroll` > 1 the positions of a block are
/// walked `unroll` at a time (then the remainder): a small body (a
/// gather's one DMA per row) is bound by the scalar unit, and unrolled its
/// SMEM and destination addresses are one base and constant offsets.
///
/// With `vectorize` (k = 1 only) the indices are staged in VMEM first and
/// each vreg of 1024 is replaced by `vectorize(vreg)` (a gather's clamped
/// source byte offsets): what `body` gets is that word, so the per-position
/// scalar work (`SMAX`, `SMIN`, `SMUL`, or a tiled dim's `SDIV`/`SREM`) is
/// done 1024 lanes at a time. The blocks then go VMEM -> SMEM through two
/// halves of the SMEM buffer, block b+1's DMA issued before block b's
/// positions so its latency hides behind them.
static FailureOr<int64_t> forEachIndexVector(
    Lowering &l, Value indices, int64_t ivd, int64_t k, int64_t unroll,
    function_ref<Value(Value)> vectorize,
    function_ref<int64_t(ArrayRef<Value>, ArrayRef<Value>)> body) {
  auto idxType = cast<RankedTensorType>(indices.getType());
  int64_t idxRank = idxType.getRank();
  FailureOr<Value> idxMem = l.memOf(indices);
  if (failed(idxMem))
    return failure();
  SmallVector<int64_t> batchShape, order;
  for (int64_t d = 0; d < idxRank; ++d)
    if (d != ivd) {
      batchShape.push_back(idxType.getDimSize(d));
      order.push_back(d);
    }
  if (ivd < idxRank)
    order.push_back(ivd);
  int64_t nb = 1;
  for (int64_t s : batchShape)
    nb *= s;
  if (nb == 0)
    return 0;
  // An empty index vector (k = 0: every position starts at the origin)
  // still walks its positions.
  int64_t per =
      std::min(nb, std::max<int64_t>(1, kIndexBlock / std::max<int64_t>(1, k)));
  int64_t blocks = ceilDiv(nb, per);
  bool staged = vectorize && k == 1;
  Value smem = smemArena(l, per * k * 4 * (staged && blocks > 1 ? 2 : 1));
  // The indices row-major with the index vector last: into a rank-1 HBM
  // array (a rank-1 operand already is one), or straight into VMEM when
  // staged (the last vreg's tail zeroed: its lanes are read), transformed
  // there a vreg at a time in place.
  Value flat = *idxMem;
  VBuf vbuf;
  if (staged) {
    int64_t vregs = ceilDiv(nb, kIndexBlock), vregBytes = kIndexBlock * 4;
    vbuf = l.vmem(l.b.getI32Type(), vregs * vregBytes);
    if (nb % kIndexBlock)
      l.vstore(l.splatIndex(l.c(0)), vbuf, l.c((vregs - 1) * vregBytes));
    View staging = linearView(vbuf.arena, idxType.getShape(), 4, order);
    staging.base = vbuf.offset;
    l.wait(kIndexSem, copyBox(l, tiledView(*idxMem, idxType), {}, staging, {},
                              identityAxes(idxType.getShape()), kIndexSem));
    l.loop(vregs, [&](Value r) {
      Value off = l.mul(r, vregBytes);
      l.vstore(vectorize(l.vload(vbuf, off)), vbuf, off);
    });
  } else if (idxRank >= 2) {
    auto flatType = RankedTensorType::get({nb * k}, idxType.getElementType());
    flat = l.allocHbm(flatType, l.loc);
    copyBoxAndWait(l, tiledView(*idxMem, idxType), {},
                   linearView(flat, idxType.getShape(), 4, order), {},
                   identityAxes(idxType.getShape()));
  }
  // Block `blk`'s indices to SMEM (half blk % 2 when staged).
  auto smemBase = [&](Value blk) {
    return staged && blocks > 1 ? l.mul(l.rem(blk, 2), per * 4) : l.c(0);
  };
  // Block `blk` of `count` batch positions starts at flat position `first`.
  auto fetch = [&](Value blk, Value first, int64_t count) {
    if (k == 0) // no index to fetch: a signal keeps the waits uniform
      tpu::SemSignalOp::create(l.b, l.loc, kIndexSem, 1);
    else if (staged)
      l.dma(vbuf.arena, l.add(l.mul(first, 4), vbuf.offset), smem,
            smemBase(blk), 1, count * 4, 0, 0, kIndexSem);
    else
      l.dma(flat, l.mul(first, k * 4), smem, l.c(0), 1, count * k * 4, 0, 0,
            kIndexSem);
  };
  int64_t perPos = 0;
  auto block = [&](Value blk, Value first, int64_t count) -> int64_t {
    l.wait(kIndexSem, 1);
    Value smemAt = smemBase(blk);
    auto position = [&](Value p) {
      SmallVector<Value> vector;
      for (int64_t j = 0; j < k; ++j)
        vector.push_back(
            sload(l, smem, l.add(smemAt, l.add(l.mul(p, k * 4), l.c(4 * j)))));
      SmallVector<Value> coords(batchShape.size());
      Value rest = l.add(first, p);
      for (int64_t i = static_cast<int64_t>(batchShape.size()) - 1; i >= 0;
           --i) {
        // The outermost coordinate is below its size already (the flat
        // position is below the product of the sizes).
        coords[i] = i == 0 ? rest : l.rem(rest, batchShape[i]);
        if (i > 0)
          rest = Lowering::constant(rest)
                     ? l.c(*Lowering::constant(rest) / batchShape[i])
                     : Value(arith::DivSIOp::create(l.b, l.loc, rest,
                                                    l.c(batchShape[i])));
      }
      perPos = body(vector, coords);
    };
    l.unrolledLoop(count, unroll, [&](Value first, int64_t n) {
      for (int64_t i = 0; i < n; ++i)
        position(l.add(first, i));
    });
    return count * perPos;
  };
  int64_t full = nb / per;
  if (staged) {
    // Block b+1's DMA goes before block b's positions (the other half).
    auto count = [&](bool last) { return last && nb % per ? nb % per : per; };
    if (blocks == 1) {
      fetch(l.c(0), l.c(0), nb);
      return block(l.c(0), l.c(0), nb);
    }
    l.pipelineRagged(
        blocks,
        [&](Value blk, bool last) { fetch(blk, l.mul(blk, per), count(last)); },
        [&](Value blk, bool last) {
          block(blk, l.mul(blk, per), count(last));
        });
    return nb * perPos;
  }
  int64_t perBlock = 0;
  l.loop(full, [&](Value blk) {
    Value first = l.mul(blk, per);
    fetch(blk, first, per);
    perBlock = block(blk, first, per);
  });
  int64_t total = full * perBlock;
  if (nb % per) {
    Value first = l.c(full * per);
    fetch(l.c(full), first, nb % per);
    total += block(l.c(full), first, nb % per);
  }
  return total;
}

/// The position of index dim `d` among the batch coordinates that
/// forEachIndexVector passes (every index dim but the index vector dim).
static size_t batchCoord(int64_t d, int64_t ivd) {
  return static_cast<size_t>(d > ivd ? d - 1 : d);
}

LogicalResult Lowering::lowerGather(hlo::GatherOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  auto opType = cast<RankedTensorType>(op.getOperand().getType());
  auto idxType = cast<RankedTensorType>(op.getStartIndices().getType());
  hlo::GatherDimensionNumbersAttr dn = op.getDimensionNumbers();
  ArrayRef<int64_t> sizes = op.getSliceSizes();
  if (!idxType.getElementType().isInteger(32))
    return unsupported(op, "with indices that are not s32");
  int64_t ivd = dn.getIndexVectorDim();
  int64_t k = ivd < idxType.getRank() ? idxType.getDimSize(ivd) : 1;
  if (k != static_cast<int64_t>(dn.getStartIndexMap().size()))
    return unsupported(op, "whose index vector is not the start_index_map");
  FailureOr<std::pair<View, View>> views =
      resultViews(*this, op, op.getOperand());
  if (failed(views))
    return failure();
  // Result dims: the offset dims take the operand's non-collapsed dims in
  // order, the others are the batch dims in order.
  SmallVector<int> batchOut;
  SmallVector<Axis> axes;
  ArrayRef<int64_t> offsetDims = dn.getOffsetDims();
  for (int d = 0; d < type.getRank(); ++d)
    if (!llvm::is_contained(offsetDims, d))
      batchOut.push_back(d);
  size_t next = 0;
  for (int d = 0; d < opType.getRank(); ++d) {
    if (llvm::is_contained(dn.getCollapsedSliceDims(), d) ||
        llvm::is_contained(dn.getOperandBatchingDims(), d))
      continue;
    axes.push_back({sizes[d], d, 1, static_cast<int>(offsetDims[next++]), 1});
  }
  llvm::sort(axes, [](const Axis &x, const Axis &y) { return x.dstDim < y.dstDim; });
  // Slices of up to a vreg's elements are scalar-bound: unrolled by 8 (32
  // when vectorized: a row is then only SLD and DMA, and the loop's own
  // three instructions per trip would be a seventh of it).
  int64_t sliceElems = 1;
  for (int64_t s : sizes)
    sliceElems *= s;
  // One start index into a dim taken one index wide (an embedding row):
  // with enough positions its clamp and byte offset are computed 1024 lanes
  // at a time (forEachIndexVector), and the source view addresses that dim
  // in bytes.
  View src = views->first;
  int64_t od = k == 1 ? dn.getStartIndexMap().front() : 0;
  DimAddress odAddr = k == 1 ? src.dims[od] : DimAddress();
  int64_t hi = k == 1 ? opType.getDimSize(od) - 1 : 0;
  // The largest offset (a tiled dim's bound: hi / p tiles and p - 1 rows)
  // must fit the s32 lanes.
  int64_t maxOffset =
      odAddr.period ? hi / odAddr.period * odAddr.hi +
                          (odAddr.period - 1) * odAddr.lo
                    : hi * odAddr.lo;
  bool vectorized =
      k == 1 && dn.getOperandBatchingDims().empty() && sizes[od] == 1 &&
      hi >= 0 && maxOffset < (int64_t{1} << 31) &&
      (!odAddr.period || llvm::isPowerOf2_64(odAddr.period)) &&
      idxType.getNumElements() >= kVectorizedMinPositions &&
      idxType.getNumElements() <= kVectorizedMaxPositions;
  auto rowOffsets = [&](Value v) -> Value {
    v = tpu::VMaxOp::create(b, loc, v, splatIndex(c(0)));
    v = tpu::VMinOp::create(b, loc, v, splatIndex(c(hi)));
    auto times = [&](Value x, int64_t m) -> Value {
      return m == 1 ? x : tpu::VMulOp::create(b, loc, x, splatIndex(c(m)));
    };
    if (!odAddr.period)
      return times(v, odAddr.lo);
    int64_t shift = llvm::Log2_64(odAddr.period);
    Value q = tpu::VShraOp::create(b, loc, v, splatIndex(c(shift)));
    Value r = tpu::VAndOp::create(b, loc, v, splatIndex(c(odAddr.period - 1)));
    return tpu::VAddOp::create(b, loc, times(q, odAddr.hi),
                               times(r, odAddr.lo));
  };
  if (vectorized)
    src.dims[od] = {0, 0, 1};
  FailureOr<int64_t> total = forEachIndexVector(
      *this, op.getStartIndices(), ivd, k,
      sliceElems > 1024 ? 1 : vectorized ? 32 : 8,
      vectorized ? function_ref<Value(Value)>(rowOffsets) : nullptr,
      [&](ArrayRef<Value> vector, ArrayRef<Value> coords) {
        SmallVector<Value> srcStart(opType.getRank(), c(0));
        for (auto [j, od] : llvm::enumerate(dn.getStartIndexMap()))
          srcStart[od] = vectorized ? vector[j]
                                    : clampIndex(*this, vector[j],
                                                 opType.getDimSize(od) -
                                                     sizes[od]);
        // A batching dim's start is the position's own coordinate in the
        // paired index dim (take_along_axis): XLA's implicit iota.
        for (auto [od, id] : llvm::zip(dn.getOperandBatchingDims(),
                                       dn.getStartIndicesBatchingDims()))
          srcStart[od] = clampIndex(*this, coords[batchCoord(id, ivd)],
                                    opType.getDimSize(od) - sizes[od]);
        SmallVector<Value> dstStart(type.getRank(), c(0));
        for (auto [i, d] : llvm::enumerate(batchOut))
          dstStart[d] = coords[i];
        return copyBox(*this, src, srcStart, views->second, dstStart,
                       axes, kCopySem);
      });
  if (failed(total))
    return failure();
  wait(kCopySem, *total);
  return success();
}

/// The VPU op of a scatter's update computation, if it is one binary op of
/// (current, update) or returns the update (a replacing scatter).
static std::function<Value(Lowering &, Value, Value)>
scatterCombiner(hlo::ScatterOp op) {
  Region &body = op.getUpdateComputation();
  if (body.front().getNumArguments() != 2)
    return nullptr;
  Value result = body.front().getTerminator()->getOperand(0);
  if (result == body.front().getArgument(1))
    return [](Lowering &, Value, Value upd) { return upd; };
  // One binary op of the two arguments, combined as the reductions do (u32
  // maxima and minima order unsigned; and/or on pred are min/max).
  Operation *combiner = reductionCombiner(body);
  Type elem = cast<RankedTensorType>(result.getType()).getElementType();
  std::optional<Reduction::Kind> kind =
      combiner ? combinerKind(combiner, elem) : std::nullopt;
  if (!kind)
    return nullptr;
  return [kind = *kind, isUnsigned = elem.isUnsignedInteger(32)](
             Lowering &l, Value x, Value y) {
    return combineWith(l, kind, isUnsigned, x, y);
  };
}

LogicalResult Lowering::lowerScatter(hlo::ScatterOp op) {
  hlo::ScatterDimensionNumbersAttr dn = op.getDimensionNumbers();
  auto idxType = cast<RankedTensorType>(op.getScatterIndices().getType());
  if (!idxType.getElementType().isInteger(32))
    return unsupported(op, "with indices that are not s32");
  // One input with one combining op, or the update computation evaluated
  // as it stands on the registers of every input's and update's window
  // (several inputs: its arguments are the current values, then the
  // updates).
  int64_t count = op.getInputs().size();
  auto combine = count == 1 ? scatterCombiner(op) : nullptr;
  if (!combine && failed(checkRegisterRegion(op, op.getUpdateComputation(),
                                             "an update computation")))
    return failure();
  auto type = cast<RankedTensorType>(op.getResult(0).getType());
  auto upType = cast<RankedTensorType>(op.getUpdates()[0].getType());
  int64_t ivd = dn.getIndexVectorDim();
  int64_t k = ivd < idxType.getRank() ? idxType.getDimSize(ivd) : 1;
  // Per input: its view and its result's (a new HBM buffer holding a copy
  // of the input), and its update's view.
  SmallVector<View> results, updates;
  for (auto [input, update, result] :
       llvm::zip(op.getInputs(), op.getUpdates(), op.getResults())) {
    FailureOr<Value> in = memOf(input);
    if (failed(in))
      return failure();
    auto t = cast<RankedTensorType>(result.getType());
    Value out = allocHbm(t, op.getLoc());
    hbm[result] = out;
    FailureOr<Value> upMem = memOf(update);
    if (failed(upMem))
      return failure();
    copyWhole(*this, *in, out, t);
    results.push_back(tiledView(out, t));
    updates.push_back(
        tiledView(*upMem, cast<RankedTensorType>(update.getType())));
  }

  // The window: update window dims <-> operand dims neither inserted nor
  // batching, in order.
  ArrayRef<int64_t> windowDims = dn.getUpdateWindowDims();
  SmallVector<int64_t> windowShape, operandDims, scatterDims;
  for (int64_t d = 0, i = 0; d < type.getRank(); ++d)
    if (!llvm::is_contained(dn.getInsertedWindowDims(), d) &&
        !llvm::is_contained(dn.getInputBatchingDims(), d)) {
      operandDims.push_back(d);
      windowShape.push_back(upType.getDimSize(windowDims[i++]));
    }
  for (int64_t d = 0; d < upType.getRank(); ++d)
    if (!llvm::is_contained(windowDims, d))
      scatterDims.push_back(d);
  int64_t elems = 1;
  for (int64_t s : windowShape)
    elems *= s;
  // Per input, row-major windows of the result and of the update in VMEM,
  // padded to whole vregs (zeroed once: the padding is read and never
  // copied out).
  int64_t vregs = ceilDiv(elems, 1024);
  struct Window {
    VectorType regType;
    int64_t eb;
    VBuf w, u;
    View wv, uv;
  };
  SmallVector<Window, 1> windows;
  for (Value result : op.getResults()) {
    Type elem = storageType(getElementTypeOrSelf(result.getType()));
    Window win;
    win.regType = elem.isInteger(32) ? i32Reg() : f32Reg();
    win.eb = elementBytes(elem);
    win.w = vmem(elem, vregs * 1024 * win.eb);
    win.u = vmem(elem, vregs * 1024 * win.eb);
    Value zero = tpu::VSplatOp::create(
        b, loc, win.regType,
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)).getResult());
    for (int64_t r = 0; r < vregs; ++r)
      for (const VBuf &buf : {win.w, win.u})
        tpu::VStoreOp::create(b, loc, zero, buf.arena,
                              c(buf.offset + r * 1024 * win.eb), 0);
    win.wv = linearView(win.w.arena, windowShape, win.eb);
    win.uv = linearView(win.u.arena, windowShape, win.eb);
    win.wv.base = win.w.offset;
    win.uv.base = win.u.offset;
    windows.push_back(win);
  }
  SmallVector<Axis> toW, fromW, toU;
  for (auto [i, od] : llvm::enumerate(operandDims)) {
    int dim = static_cast<int>(i);
    toW.push_back({windowShape[i], static_cast<int>(od), 1, dim, 1});
    fromW.push_back({windowShape[i], dim, 1, static_cast<int>(od), 1});
    toU.push_back({windowShape[i], static_cast<int>(windowDims[i]), 1, dim, 1});
  }
  FailureOr<int64_t> total = forEachIndexVector(
      *this, op.getScatterIndices(), ivd, k, 1, nullptr,
      [&](ArrayRef<Value> vector, ArrayRef<Value> coords) -> int64_t {
        // XLA skips a window that is not wholly inside the operand: the
        // position's loop runs once when every start equals its clamp.
        // A batching dim's start is the position's coordinate in the
        // paired index dim.
        SmallVector<Value> start(type.getRank(), c(0));
        Value off = c(0);
        auto place = [&](int64_t od, Value index) {
          int64_t size = 1;
          if (auto it = llvm::find(operandDims, od); it != operandDims.end())
            size = windowShape[it - operandDims.begin()];
          start[od] = index;
          Value clamped = clampIndex(*this, index, type.getDimSize(od) - size);
          Value d = sub(index, clamped);
          off = add(off, arith::MaxSIOp::create(b, loc, d, sub(c(0), d)));
        };
        for (auto [j, od] : llvm::enumerate(dn.getScatterDimsToOperandDims()))
          place(od, vector[j]);
        for (auto [od, id] : llvm::zip(dn.getInputBatchingDims(),
                                       dn.getScatterIndicesBatchingDims()))
          place(od, coords[batchCoord(id, ivd)]);
        Value trips = sub(c(1), arith::MinSIOp::create(b, loc, off, c(1)));
        auto once = tpu::LoopOp::create(b, loc, trips);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(once.getBody()->getTerminator());
        SmallVector<Value> upStart(upType.getRank(), c(0));
        for (auto [i, d] : llvm::enumerate(scatterDims))
          upStart[d] = coords[i];
        int64_t n = 0;
        for (auto [win, result, update] : llvm::zip(windows, results, updates)) {
          n += copyBox(*this, result, start, win.wv, {}, toW, kCopySem);
          n += copyBox(*this, update, upStart, win.uv, {}, toU, kCopySem);
        }
        wait(kCopySem, n);
        for (int64_t r = 0; r < vregs; ++r) {
          auto load = [&](const Window &win, const VBuf &buf) -> Value {
            return tpu::VLoadOp::create(b, loc, win.regType, buf.arena,
                                        c(buf.offset + r * 1024 * win.eb), 0);
          };
          SmallVector<Value> args;
          for (const Window &win : windows)
            args.push_back(load(win, win.w));
          for (const Window &win : windows)
            args.push_back(load(win, win.u));
          SmallVector<Value> next =
              combine ? SmallVector<Value>{combine(*this, args[0], args[1])}
                      : emitRegion(op.getUpdateComputation(), args);
          for (auto [win, v] : llvm::zip(windows, next))
            tpu::VStoreOp::create(b, loc, v, win.w.arena,
                                  c(win.w.offset + r * 1024 * win.eb), 0);
        }
        n = 0;
        for (auto [win, result] : llvm::zip(windows, results))
          n += copyBox(*this, win.wv, {}, result, start, fromW, kCopySem);
        wait(kCopySem, n);
        return 0;
      });
  return failure(failed(total));
}

void populateGatherPatterns(RewritePatternSet &patterns, Lowering &l) {
  l.addKernel(patterns, &Lowering::lowerDynamicSlice);
  l.addKernel(patterns, &Lowering::lowerDynamicUpdateSlice);
  l.addKernel(patterns, &Lowering::lowerGather);
  l.addKernel(patterns, &Lowering::lowerScatter);
}

} // namespace tpuc::hlotpu
