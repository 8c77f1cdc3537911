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
static FailureOr<int64_t> forEachIndexVector(
    Lowering &l, Value indices, int64_t ivd, int64_t k, int64_t unroll,
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
  Value flat = *idxMem;
  if (idxRank >= 2) {
    auto flatType = RankedTensorType::get({nb * k}, idxType.getElementType());
    flat = l.allocHbm(flatType, l.loc);
    copyBoxAndWait(l, tiledView(*idxMem, idxType), {},
                   linearView(flat, idxType.getShape(), 4, order), {},
                   identityAxes(idxType.getShape()));
  }
  if (nb == 0)
    return 0;
  int64_t per = std::min(nb, std::max<int64_t>(1, kIndexBlock / k));
  Value smem = smemArena(l, per * k * 4);
  // One block of `count` batch positions starting at flat position `first`.
  auto block = [&](Value first, int64_t count) -> int64_t {
    l.dma(flat, l.mul(first, k * 4), smem, l.c(0), 1, count * k * 4, 0, 0,
          kIndexSem);
    l.wait(kIndexSem, 1);
    int64_t perPos = 0;
    auto position = [&](Value p) {
      SmallVector<Value> vector;
      for (int64_t j = 0; j < k; ++j)
        vector.push_back(sload(l, smem, l.add(l.mul(p, k * 4), l.c(4 * j))));
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
    int64_t u = std::min(unroll, count);
    l.loop(count / u, [&](Value q) {
      Value base = l.mul(q, u);
      for (int64_t i = 0; i < u; ++i)
        position(l.add(base, i));
    });
    for (int64_t i = count - count % u; i < count; ++i)
      position(l.c(i));
    return count * perPos;
  };
  int64_t full = nb / per, perBlock = 0;
  l.loop(full, [&](Value blk) { perBlock = block(l.mul(blk, per), per); });
  int64_t total = full * perBlock;
  if (nb % per)
    total += block(l.c(full * per), nb % per);
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
  // Slices of up to a vreg's elements are scalar-bound: unrolled by 8.
  int64_t sliceElems = 1;
  for (int64_t s : sizes)
    sliceElems *= s;
  FailureOr<int64_t> total = forEachIndexVector(
      *this, op.getStartIndices(), ivd, k, sliceElems <= 1024 ? 8 : 1,
      [&](ArrayRef<Value> vector, ArrayRef<Value> coords) {
        SmallVector<Value> srcStart(opType.getRank(), c(0));
        for (auto [j, od] : llvm::enumerate(dn.getStartIndexMap()))
          srcStart[od] =
              clampIndex(*this, vector[j], opType.getDimSize(od) - sizes[od]);
        // A batching dim's start is the position's own coordinate in the
        // paired index dim (take_along_axis): XLA's implicit iota.
        for (auto [od, id] : llvm::zip(dn.getOperandBatchingDims(),
                                       dn.getStartIndicesBatchingDims()))
          srcStart[od] = clampIndex(*this, coords[batchCoord(id, ivd)],
                                    opType.getDimSize(od) - sizes[od]);
        SmallVector<Value> dstStart(type.getRank(), c(0));
        for (auto [i, d] : llvm::enumerate(batchOut))
          dstStart[d] = coords[i];
        return copyBox(*this, views->first, srcStart, views->second, dstStart,
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
  if (op.getInputs().size() != 1)
    return unsupported(op, "with several inputs");
  hlo::ScatterDimensionNumbersAttr dn = op.getDimensionNumbers();
  auto idxType = cast<RankedTensorType>(op.getScatterIndices().getType());
  if (!idxType.getElementType().isInteger(32))
    return unsupported(op, "with indices that are not s32");
  auto combine = scatterCombiner(op);
  if (!combine)
    return unsupported(op, "whose update computation is not one add, "
                           "multiply, maximum or minimum (and or or on "
                           "pred), or a replace");
  auto type = cast<RankedTensorType>(op.getResult(0).getType());
  Value update = op.getUpdates()[0];
  auto upType = cast<RankedTensorType>(update.getType());
  int64_t ivd = dn.getIndexVectorDim();
  int64_t k = ivd < idxType.getRank() ? idxType.getDimSize(ivd) : 1;
  FailureOr<std::pair<View, View>> views =
      resultViews(*this, op, op.getInputs()[0]);
  if (failed(views))
    return failure();
  FailureOr<Value> upMem = memOf(update);
  if (failed(upMem))
    return failure();
  copyWhole(*this, views->first.mem, views->second.mem, type);

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
  // Row-major windows of the result and of the update in VMEM, padded to
  // whole vregs (zeroed once: the padding is read and never copied out).
  Type elem = storageType(type.getElementType());
  VectorType regType = elem.isInteger(32) ? i32Reg() : f32Reg();
  int64_t eb = elementBytes(elem), vregs = ceilDiv(elems, 1024);
  VBuf w = vmem(elem, vregs * 1024 * eb), u = vmem(elem, vregs * 1024 * eb);
  Value zero = tpu::VSplatOp::create(
      b, loc, regType,
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)).getResult());
  for (int64_t r = 0; r < vregs; ++r) {
    tpu::VStoreOp::create(b, loc, zero, w.arena, c(w.offset + r * 1024 * eb), 0);
    tpu::VStoreOp::create(b, loc, zero, u.arena, c(u.offset + r * 1024 * eb), 0);
  }
  View wv = linearView(w.arena, windowShape, eb),
       uv = linearView(u.arena, windowShape, eb);
  wv.base = w.offset;
  uv.base = u.offset;
  View upView = tiledView(*upMem, upType);
  SmallVector<Axis> toW, fromW, toU;
  for (auto [i, od] : llvm::enumerate(operandDims)) {
    int dim = static_cast<int>(i);
    toW.push_back({windowShape[i], static_cast<int>(od), 1, dim, 1});
    fromW.push_back({windowShape[i], dim, 1, static_cast<int>(od), 1});
    toU.push_back({windowShape[i], static_cast<int>(windowDims[i]), 1, dim, 1});
  }
  FailureOr<int64_t> total = forEachIndexVector(
      *this, op.getScatterIndices(), ivd, k, 1,
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
        int64_t n = copyBox(*this, views->second, start, wv, {}, toW,
                            kCopySem);
        n += copyBox(*this, upView, upStart, uv, {}, toU, kCopySem);
        wait(kCopySem, n);
        for (int64_t r = 0; r < vregs; ++r) {
          Value x = tpu::VLoadOp::create(b, loc, regType, w.arena,
                                         c(w.offset + r * 1024 * eb), 0);
          Value y = tpu::VLoadOp::create(b, loc, regType, u.arena,
                                         c(u.offset + r * 1024 * eb), 0);
          tpu::VStoreOp::create(b, loc, combine(*this, x, y), w.arena,
                                c(w.offset + r * 1024 * eb), 0);
        }
        copyBoxAndWait(*this, wv, {}, views->second, start, fromW);
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
