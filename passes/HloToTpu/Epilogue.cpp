//===- Epilogue.cpp - an output fusion's epilogue in its contraction kernel===//
//
// Part of tpuc-convert-hlo-to-tpu; see Epilogue.h and docs/codegen.md.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Epilogue.h"

#include "compiler/fusion/FusedKernelSupport.h"

using namespace mlir;

namespace tpuc::hlotpu {

namespace {
/// Result tiles per iteration of an epilogue's tile loop.
constexpr int64_t kEpilogueUnroll = 8;

int64_t tileBytesOf(Value v) {
  return geometryOf(cast<RankedTensorType>(v.getType())).tileBytes();
}
} // namespace

std::optional<Lowering::EpilogueOps>
findEpilogue(Block &body, Operation *&hero, Operation *&last) {
  hero = last = nullptr;
  for (Operation &op : body.without_terminator())
    if (isa<hlo::DotGeneralOp, hlo::ConvolutionOp>(op)) {
      if (hero)
        return std::nullopt;
      hero = &op;
    }
  if (!hero)
    return std::nullopt;
  Lowering::EpilogueOps e;
  e.result = hero->getResult(0);
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(e.result.getType()).getShape();
  auto sameShape = [&](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && t.getShape() == shape;
  };
  auto fits = [&](Operation *op) {
    return op->getNumResults() == 1 && sameShape(op->getResult(0)) &&
           fusion::fitsContractionEpilogue(op) &&
           (isa<hlo::BroadcastInDimOp>(op) ? fitsLoopBroadcast(op)
                                           : fitsLoopKernel(op));
  };
  llvm::DenseSet<Value> reach{e.result};
  for (Operation *op = hero->getNextNode(); op && op != body.getTerminator();
       op = op->getNextNode()) {
    if (llvm::none_of(op->getOperands(),
                      [&](Value v) { return reach.contains(v); }))
      continue;
    // Every other operand: a splat, a scalar, an array of the shape, or a
    // broadcast the kernel reads from its source.
    bool operandsFit = llvm::all_of(op->getOperands(), [&](Value v) {
      auto bcast = v.getDefiningOp<hlo::BroadcastInDimOp>();
      return reach.contains(v) || !bcast || fits(bcast);
    });
    if (!fits(op) || isa<hlo::BroadcastInDimOp>(op) || !operandsFit)
      break;
    e.ops.insert(op);
    reach.insert(op->getResult(0));
    last = op;
    for (Value v : op->getOperands())
      if (auto bcast = v.getDefiningOp<hlo::BroadcastInDimOp>();
          bcast && bcast->getBlock() == &body)
        e.ops.insert(bcast);
  }
  if (!last)
    return std::nullopt;
  // Elementwise ops that only the epilogue reads, before the contraction
  // or after it (a relu mask's compare of another array).
  for (Operation *op = last->getPrevNode(); op; op = op->getPrevNode())
    if (op != hero && !e.ops.contains(op) && fits(op) && !op->use_empty() &&
        llvm::all_of(op->getUsers(),
                     [&](Operation *user) { return e.ops.contains(user); })) {
      e.ops.insert(op);
      for (Value v : op->getOperands())
        if (auto bcast = v.getDefiningOp<hlo::BroadcastInDimOp>();
            bcast && bcast->getBlock() == &body && fits(bcast))
          e.ops.insert(bcast);
    }
  // What is read outside: the kernel's results, in program order.
  auto readOutside = [&](Value v) {
    return llvm::any_of(v.getUsers(), [&](Operation *user) {
      Operation *top = body.findAncestorOpInBlock(*user);
      return !top || !e.ops.contains(top);
    });
  };
  if (readOutside(e.result))
    e.roots.push_back(e.result);
  for (Operation &op : body.without_terminator())
    if (e.ops.contains(&op) && !isa<hlo::BroadcastInDimOp>(op) &&
        readOutside(op.getResult(0)))
      e.roots.push_back(op.getResult(0));
  return e;
}

LogicalResult EpilogueKernel::take(Lowering &l, Value result,
                                   std::optional<EpilogueKernel> &ep) {
  if (!l.epilogue || l.epilogue->result != result)
    return success();
  EpilogueKernel k(l, std::move(*l.epilogue));
  l.epilogue.reset();
  SmallVector<Value> leaves;
  if (failed(l.epilogueLeaves(k.ops, leaves, k.residentBytes)))
    return failure();
  for (Value v : leaves)
    if (v != result)
      k.inputs.push_back({v, Value(), VBuf(), tileBytesOf(v)});
  for (Value v : k.ops.roots)
    k.roots.push_back({v, Value(), VBuf(), tileBytesOf(v)});
  ep.emplace(std::move(k));
  return success();
}

void EpilogueKernel::placeRootInPanels() {
  constexpr int64_t kF32Tile = kSublanes * kLanes * 4;
  for (auto [i, a] : llvm::enumerate(roots))
    if (a.value == ops.result && a.tileBytes == kF32Tile)
      inPanels = i;
  for (auto [i, a] : llvm::enumerate(roots))
    if (inPanels < 0 && a.tileBytes == kF32Tile &&
        cast<RankedTensorType>(a.value.getType()).getElementType().isF32())
      inPanels = i;
}

int64_t EpilogueKernel::vmemBytes(int64_t tiles, int64_t slots) const {
  int64_t bytes = residentBytes;
  for (const Array &a : inputs)
    bytes += Lowering::pages(tiles * a.tileBytes);
  for (auto [i, a] : llvm::enumerate(roots))
    if (static_cast<int64_t>(i) != inPanels)
      bytes += Lowering::pages(slots * tiles * a.tileBytes);
  return bytes;
}

LogicalResult EpilogueKernel::begin(int64_t panelTiles, int64_t slots) {
  if (failed(beginFetching(panelTiles, slots, 0)))
    return failure();
  return sourcesReady();
}

LogicalResult EpilogueKernel::beginFetching(int64_t panelTiles, int64_t slots,
                                            int sem) {
  tiles = panelTiles;
  auto elemOf = [](Value v) {
    return storageType(cast<RankedTensorType>(v.getType()).getElementType());
  };
  for (Array &a : inputs) {
    FailureOr<Value> mem = l.memOf(a.value);
    if (failed(mem))
      return failure();
    a.mem = *mem;
    a.buf = l.vmem(elemOf(a.value), tiles * a.tileBytes);
  }
  for (auto [i, a] : llvm::enumerate(roots)) {
    auto type = cast<RankedTensorType>(a.value.getType());
    a.mem = l.allocHbm(type, a.value.getLoc());
    l.hbm[a.value] = a.mem;
    if (static_cast<int64_t>(i) != inPanels)
      a.buf = l.vmem(elemOf(a.value), slots * tiles * a.tileBytes);
  }
  auto finish = l.fetchEpilogueSources(ops, hoisted, sem);
  if (failed(finish))
    return failure();
  finishSources = std::move(*finish);
  return success();
}

LogicalResult EpilogueKernel::sourcesReady() {
  assert(finishSources && "sourcesReady() once, after beginFetching()");
  FailureOr<Lowering::EpilogueColumns> perCol = finishSources(hoisted);
  finishSources = nullptr;
  if (failed(perCol))
    return failure();
  perColumn = std::move(*perCol);
  return success();
}

bool EpilogueKernel::stagingSharesPages() const {
  for (auto [i, a] : llvm::enumerate(roots))
    if (static_cast<int64_t>(i) != inPanels &&
        a.tileBytes < Lowering::kVmemPageBytes)
      return true;
  return false;
}

void EpilogueKernel::fetch(const EpiloguePiece &p, int sem) {
  for (const Array &a : inputs)
    l.dma(a.mem, l.mul(p.outTile, a.tileBytes), a.buf.arena,
          l.add(l.mul(p.stageTile, a.tileBytes), a.buf.offset), p.tiles,
          a.tileBytes, p.stride * a.tileBytes, a.tileBytes, sem);
}

LogicalResult EpilogueKernel::apply(const EpiloguePiece &p,
                                    const VBuf &panels, Value panelOff,
                                    Value slot) {
  constexpr int64_t kF32Tile = kSublanes * kLanes * 4;
  assert(perColumn && "apply() after sourcesReady()");
  llvm::DenseMap<Value, Value> base = hoisted;
  perColumn(base, p.col);
  llvm::DenseMap<Value, std::pair<VBuf, int64_t>> ins;
  for (const Array &a : inputs)
    ins[a.value] = {a.buf, a.tileBytes};
  bool resultBf16 = cast<RankedTensorType>(ops.result.getType())
                        .getElementType()
                        .isBF16();
  LogicalResult status = success();
  // `shared`: what the tiles of a run share (its first tile's splats).
  auto tile = [&](Value t, llvm::DenseMap<Value, Value> &shared, bool first) {
    llvm::DenseMap<Value, Value> memo = shared;
    // The contraction's result as the interpreter has it: a bf16 result
    // is the f32 accumulation rounded once.
    Value tileOff = l.add(panelOff, l.mul(t, kF32Tile));
    Value x = l.vload(panels, tileOff);
    memo[ops.result] = resultBf16 ? l.roundToBf16(x) : x;
    Value stage = l.add(p.stageTile, t);
    SmallVector<Value> values;
    for (const Array &a : roots) {
      FailureOr<Value> r = l.emitTile(a.value, stage, ins, memo);
      if (failed(r)) {
        status = failure();
        return;
      }
      values.push_back(*r);
    }
    // The root in the panels overwrites its tile once every root has read it.
    for (auto [i, a] : llvm::enumerate(roots))
      if (static_cast<int64_t>(i) == inPanels)
        l.vstore(values[i], panels, tileOff);
      else
        l.vstore(values[i], a.buf,
                 l.mul(l.add(l.mul(slot, tiles), stage), a.tileBytes));
    if (first)
      for (auto [v, r] : memo)
        if (isSplatConstant(v))
          shared[v] = r;
  };
  // Unrolled: a tile's addresses are constant offsets from its group's
  // (free in `s[reg] + imm` operands), so the scalar unit issues a few
  // instructions per group instead of four and a LOOP_END per tile; the
  // group's tiles share their splat constants.
  l.unrolledLoop(p.tiles, kEpilogueUnroll, [&](Value t0, int64_t n) {
    llvm::DenseMap<Value, Value> shared = base;
    for (int64_t k = 0; k < n; ++k)
      tile(l.add(t0, k), shared, k == 0);
  });
  return status;
}

void EpilogueKernel::write(const EpiloguePiece &p, Value slot, int sem,
                           const VBuf &panels, Value panelOff) {
  for (auto [i, a] : llvm::enumerate(roots)) {
    bool fromPanels = static_cast<int64_t>(i) == inPanels;
    assert((!fromPanels || (panels.arena && panelOff)) &&
           "a kernel that placed a root in its panels must pass them");
    const VBuf &src = fromPanels ? panels : a.buf;
    Value srcOff =
        fromPanels ? panelOff
                   : l.mul(l.add(l.mul(slot, tiles), p.stageTile), a.tileBytes);
    l.dma(src.arena, l.add(srcOff, src.offset), a.mem,
          l.mul(p.outTile, a.tileBytes), p.tiles, a.tileBytes, a.tileBytes,
          p.stride * a.tileBytes, sem);
  }
}

} // namespace tpuc::hlotpu
