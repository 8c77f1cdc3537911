//===- FusedKernel.cpp - an hlo.fusion as loop kernels ------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
//
// A fusion's elementwise ops (fitsLoopKernel) are grouped, per shape, into
// loop kernels (Elementwise.cpp's emitLoopKernel): each input streams
// HBM -> VMEM once per block of (8,128) tiles, the whole chain runs on
// vregs and each value read outside the group is written once. The other
// ops of the fusion (a reduce, a dot, a broadcast, a transpose) are lowered
// by their own kernels between the groups, so a fusion rooted at a reduce
// or a dot becomes: its producer chain in one pass, the op, its epilogue
// in one pass.
//
// Program order decides the groups: an elementwise op joins the open group
// of its shape; an op of another kind first closes (emits) the groups whose
// values it reads, and so does an elementwise op that reads a group of
// another shape (a rank-0 operand). The emission is deterministic.
//
// A row-resident fusion (fusion::rowResidentKernel: layer norm, softmax) is
// one kernel instead (RowKernel): whole rows in VMEM, statistics on vregs.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Epilogue.h"
#include "passes/HloToTpu/Lowering.h"
#include "passes/HloToTpu/Reduction.h"

#include "compiler/fusion/FusedKernelSupport.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace tpuc::hlotpu {

namespace {

/// The elementwise ops of one shape that become one loop kernel.
struct LoopGroup {
  RankedTensorType shape;
  llvm::SetVector<Operation *> ops;
  bool open = true;
};

int64_t product(ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

SmallVector<int64_t> nonUnit(ArrayRef<int64_t> dims) {
  SmallVector<int64_t> out;
  for (int64_t d : dims)
    if (d != 1)
      out.push_back(d);
  return out;
}

/// How a loop kernel reads a broadcast_in_dim from its source, kept whole
/// in VMEM: the source's tile for the kernel's tile (global tile T, tile
/// row G = T / colTiles, column tile ct = T % colTiles, row tile within
/// the outer index rt = G % rowTiles) and the lanes it spreads.
enum class Spread {
  Splat,   // a splat constant: an immediate
  Scalar,  // one element: lane 0 of sublane 0 everywhere, before the loop
  PerRow,  // source [..., R, 1]: tile G (or rt), lane 0 to every lane
  PerCol,  // source [..., 1, C]: tile ct, sublane 0 to every sublane
  PerColFlat, // source [C] (T(1024)): tile ct / 8, sublane ct % 8
  Whole,   // source [..., R, C] over broadcast outer dims: tile T (or T % RC)
  PerColOuter, // source [P, C] of a result [P..., Q..., R, C] whose outer
               // dims the source keeps a prefix of (a per-image, per-channel
               // value over an NHWC image: [N, C] -> [N, H, W, C]; Q = 1 for
               // a per-batch vector, [B, D] -> [B, S, D]): tile row
               // G reads source row p = (G / rowTiles) / Q, in tile
               // (p / 8) * colTiles + ct, sublane p % 8 to every sublane
  RowStream, // source [R] of a rank-2 [R, C] result (per-row statistics, a
             // one-hot's labels): streamed with the blocks; tile row t
             // reads elements 8t.. one per sublane, lane 0 to every lane
  ColStream, // source [C] of a rank-2 [R, C] result too large to keep whole
             // (per-column statistics: a one-hot's in its physical order):
             // the block's columns fetched with it; column tile ct reads
             // elements 128ct.., the same on every sublane
  Iota,      // an iota (`source` is the iota): computed from the position
};

struct BroadcastForm {
  Spread spread;
  Value source;
  bool outerBroadcast = false; // the source has no outer dims to follow
  int64_t outerRepeat = 1;     // PerColOuter's Q: result outer rows per
                               // source row
};

/// The source of a broadcast operand: through reshapes that only add or
/// drop unit dims (they rename the elements, not move them).
Value peelUnitReshapes(Value v) {
  while (auto reshape = v.getDefiningOp<hlo::ReshapeOp>()) {
    auto from = cast<RankedTensorType>(reshape.getOperand().getType());
    auto to = cast<RankedTensorType>(reshape.getType());
    if (nonUnit(from.getShape()) != nonUnit(to.getShape()))
      break;
    v = reshape.getOperand();
  }
  return v;
}

std::optional<BroadcastForm> broadcastForm(hlo::BroadcastInDimOp op) {
  auto out = cast<RankedTensorType>(op.getType());
  auto operand = cast<RankedTensorType>(op.getOperand().getType());
  ArrayRef<int64_t> dims = op.getBroadcastDimensions();
  int64_t n = out.getRank();
  if (!isLowerableElementType(out.getElementType()))
    return std::nullopt;
  // The operand's shape aligned to the result's dims (1 where broadcast);
  // dims must keep their order (no transposing broadcast).
  SmallVector<int64_t> aligned(n, 1);
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (i > 0 && d <= dims[i - 1])
      return std::nullopt;
    aligned[d] = operand.getDimSize(i);
  }
  Value source = peelUnitReshapes(op.getOperand());
  auto x = cast<RankedTensorType>(source.getType());
  if (operand.getShape() == out.getShape())
    return std::nullopt; // a copy: an elementwise op's job
  if (isSplatConstant(source))
    return BroadcastForm{Spread::Splat, source};
  if (x.getNumElements() == 1)
    return BroadcastForm{Spread::Scalar, source};
  if (n < 2)
    return std::nullopt;
  ArrayRef<int64_t> s = out.getShape(), xs = x.getShape();
  int64_t rows = s[n - 2], cols = s[n - 1];
  int64_t outer = product(s.drop_back(2));
  int64_t xr = x.getRank();
  auto outerOf = [&](ArrayRef<int64_t> shape, int64_t rank) {
    return rank >= 2 ? product(shape.drop_back(2)) : 1;
  };
  int64_t xOuter = outerOf(xs, xr);
  ArrayRef<int64_t> alignedOuter = ArrayRef<int64_t>(aligned).drop_back(2);
  bool outerKept = alignedOuter == s.drop_back(2);
  bool outerGone = product(alignedOuter) == 1;
  // PerColOuter: a [P, C] source keeping the first `kept` outer dims (P
  // their product) and the columns; source row p spreads over the Q =
  // outer / P consecutive outer indices after it, and over the rows.
  auto perColOuter = [&](int64_t kept) -> std::optional<BroadcastForm> {
    int64_t prefix = product(s.take_front(kept));
    if (aligned[n - 2] != 1 || aligned[n - 1] != cols || xr != 2 ||
        xs[0] != prefix || xs[1] != cols)
      return std::nullopt;
    return BroadcastForm{Spread::PerColOuter, source, false, outer / prefix};
  };
  if (!outerKept && !outerGone) {
    // The source keeps a prefix of the outer dims, the others broadcast.
    int64_t kept = 0;
    while (kept < n - 2 && alignedOuter[kept] == s[kept])
      ++kept;
    if (kept == 0 || product(alignedOuter.drop_front(kept)) != 1)
      return std::nullopt;
    return perColOuter(kept);
  }
  // Sources of the outer-broadcast forms must carry no outer dims; those
  // that follow them carry exactly the result's.
  bool outerOk = outerGone ? xOuter == 1 : xOuter == outer;
  if (aligned[n - 2] == rows && aligned[n - 1] == cols && xr >= 2 &&
      xs[xr - 2] == rows && xs[xr - 1] == cols && outerOk)
    return BroadcastForm{Spread::Whole, source, outerGone && outer > 1};
  if (aligned[n - 2] == rows && aligned[n - 1] == 1 && cols > 1 &&
      xr >= 2 && xs[xr - 2] == rows && xs[xr - 1] == 1 && outerOk)
    return BroadcastForm{Spread::PerRow, source, outerGone && outer > 1};
  if (aligned[n - 2] == rows && aligned[n - 1] == 1 && cols > 1 && xr == 1 &&
      outer == 1 && ceilDiv(cols, kLanes) <= fusion::kLoopKernelBlockTiles)
    return BroadcastForm{Spread::RowStream, source};
  if (aligned[n - 2] == 1 && aligned[n - 1] == cols && outerGone) {
    if (xr == 1 && outer == 1 &&
        elementBytes(storageType(x.getElementType())) == 4 &&
        geometryOf(x).bytes() > fusion::kResidentInputBytes)
      return BroadcastForm{Spread::ColStream, source};
    if (xr == 1)
      return BroadcastForm{Spread::PerColFlat, source, true};
    if (xs[xr - 1] == cols && xs[xr - 2] == 1 && xOuter == 1)
      return BroadcastForm{Spread::PerCol, source, true};
  }
  // The source keeps every outer dim and the columns, of a rank-3 result
  // (a per-batch vector over a sequence, [B, D] -> [B, S, D]): PerColOuter
  // with one outer index per source row.
  if (outerKept && outer > 1 && rows > 1)
    return perColOuter(n - 2);
  return std::nullopt;
}

/// A per-column broadcast source that a fusion computes from its parameters
/// (batch norm's `(beta - mean * gamma * rsqrt(var + eps))`, f32[C] each):
/// the elementwise ops and unit reshapes of column vectors ([C] or
/// [1, ..., 1, C]) that compute it, in program order, and the parameters
/// they read (column vectors of the same C, or one element). The kernel that
/// reads the broadcast computes it in VMEM (loadResidents) rather than
/// kernel by kernel through HBM temporaries.
struct SideCone {
  SmallVector<Operation *> ops;
  SmallVector<Value> leaves;
  int64_t cols = 0;
};

bool isPerColumn(const BroadcastForm &form) {
  return form.spread == Spread::PerCol || form.spread == Spread::PerColFlat;
}

bool isFloatValue(Value v) {
  Type e = cast<RankedTensorType>(v.getType()).getElementType();
  return e.isF32() || e.isBF16();
}

std::optional<SideCone> sideCone(Value source) {
  auto type = cast<RankedTensorType>(source.getType());
  if (!source.getDefiningOp() || type.getRank() == 0)
    return std::nullopt;
  SideCone cone;
  cone.cols = type.getShape().back();
  auto isColumns = [&](Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    return t.getRank() >= 1 && t.getShape().back() == cone.cols &&
           product(t.getShape().drop_back()) == 1 && isFloatValue(v);
  };
  // At most a block's tiles of columns (8192): the parameters and the
  // computed [1, C] stay small beside the kernel's own VMEM.
  if (!isColumns(source) ||
      ceilDiv(cone.cols, kLanes) > fusion::kLoopKernelBlockTiles)
    return std::nullopt;
  llvm::DenseSet<Value> seen;
  std::function<bool(Value)> visit = [&](Value v) {
    if (!seen.insert(v).second || isSplatConstant(v))
      return true;
    if (isa<BlockArgument>(v)) {
      auto t = cast<RankedTensorType>(v.getType());
      if (!isFloatValue(v) || (t.getNumElements() != 1 && !isColumns(v)))
        return false;
      cone.leaves.push_back(v);
      return true;
    }
    Operation *def = v.getDefiningOp();
    if (!isColumns(v) || def->getNumResults() != 1)
      return false;
    auto reshape = dyn_cast<hlo::ReshapeOp>(def);
    if (!reshape && !fitsLoopKernel(def))
      return false;
    for (Value operand : def->getOperands())
      if (!visit(operand))
        return false;
    cone.ops.push_back(def);
    return true;
  };
  if (!visit(source) || cone.ops.empty())
    return std::nullopt; // not computed, or a splat constant
  return cone;
}

} // namespace

bool fitsLoopBroadcast(Operation *op) {
  if (auto iota = dyn_cast<hlo::IotaOp>(op)) {
    Type elem = iota.getType().getElementType();
    return isLowerableElementType(elem) && !elem.isInteger(1);
  }
  auto bcast = dyn_cast<hlo::BroadcastInDimOp>(op);
  if (!bcast)
    return false;
  std::optional<BroadcastForm> form = broadcastForm(bcast);
  if (!form)
    return false;
  auto x = cast<RankedTensorType>(form->source.getType());
  return form->spread == Spread::Splat || form->spread == Spread::RowStream ||
         form->spread == Spread::ColStream ||
         geometryOf(x).bytes() <= fusion::kResidentInputBytes;
}

namespace {

/// Emits the row-resident kernel of `fusion` (RowKernel, below).
LogicalResult emitRowKernel(Lowering &l, hlo::FusionOp fusion,
                            const fusion::RowKernelShape &shape);

/// Lowers one hlo.fusion in program order: elementwise ops join the open
/// loop group of their shape; any other op first emits the groups whose
/// values it reads, then its own kernel; a reduce of a group's value
/// computes it from the group's inputs (fuseIntoReduce); an output fusion's
/// contraction applies its epilogue (emitContraction).
class FusionLowering {
public:
  FusionLowering(Lowering &l, hlo::FusionOp fusion)
      : l(l), fusion(fusion), body(fusion.getBody().front()) {}
  LogicalResult run();

private:
  /// Lowers the body's op `inner` (in program order).
  LogicalResult lowerInner(Operation &inner);
  /// Emits group `i`: its values read by anything outside it become the
  /// kernel's outputs.
  LogicalResult emitGroup(size_t i);
  /// Emits the open groups that define a value `op` (or its regions) reads.
  LogicalResult emitProducers(Operation *op);
  /// Adds the elementwise op (or loop broadcast) `op` to the open group of
  /// its shape, after the groups of its rank-0 operands.
  LogicalResult addToGroup(Operation *op);
  /// Reshapes that only feed broadcasts the loop kernels read through
  /// (they rename unit dims) need no buffer of their own.
  void findAbsorbedReshapes();
  /// A reduce whose kernel computes its operand per tile from an open
  /// group's inputs: the group, and the members the operand is computed
  /// from (broadcasts included, not what they read).
  struct FusedReduce {
    size_t group;
    llvm::DenseSet<Operation *> cone;
  };
  /// The open group whose value `op` reduces, when the reduce kernel can
  /// compute it per tile from the group's inputs (an input fusion in one
  /// pass); broadcasts over it are read by position (residentAt).
  std::optional<FusedReduce> fuseIntoReduce(Operation *op);
  /// Lowers the reduce `op` of `fused.group`'s value as an input fusion.
  LogicalResult lowerFusedReduce(Operation *op, const FusedReduce &fused);
  /// The values of the group the fused reduce computes (its cone) that
  /// something outside the group reads from HBM (the fusion's results): the
  /// reduce's kernel writes them too (a multi-output fusion in one pass), so
  /// the group's own kernel need not recompute them.
  SmallVector<Value> exportsOf(const FusedReduce &fused);
  /// The row-resident kernel's shape when the body is one
  /// (fusion::rowResidentKernel, the planner's predicate) and every result
  /// is computed in it.
  std::optional<fusion::RowKernelShape> rowKernelShape();
  /// An output fusion: the contraction's kernel applies the epilogue to
  /// its result tiles, emitted where the epilogue's last op is.
  LogicalResult emitContraction();
  /// The side cones (SideCone) of the per-column broadcasts the kernels
  /// read (an epilogue's, a loop group's, a fused reduce's), when nothing
  /// else reads their values: each kernel computes them in VMEM, so they
  /// get no kernels of their own.
  void findSideCones();

  Lowering &l;
  hlo::FusionOp fusion;
  Block &body;
  std::vector<LoopGroup> groups;
  llvm::DenseMap<Operation *, size_t> groupOf;
  /// Ops that compute a group's value themselves (fused reduces).
  llvm::DenseSet<Operation *> inKernel;
  llvm::DenseSet<Operation *> absorbed;
  llvm::DenseSet<Operation *> sideOps;
  Operation *hero = nullptr, *lastEpilogueOp = nullptr;
  std::optional<Lowering::EpilogueOps> ep;
};

LogicalResult FusionLowering::run() {
  for (auto [arg, operand] :
       llvm::zip(body.getArguments(), fusion.getOperands())) {
    FailureOr<Value> mem = l.memOf(operand);
    if (failed(mem))
      return failure();
    l.hbm[arg] = *mem;
  }
  if (std::optional<fusion::RowKernelShape> shape = rowKernelShape()) {
    if (failed(emitRowKernel(l, fusion, *shape)))
      return failure();
  } else {
    findAbsorbedReshapes();
    ep = findEpilogue(body, hero, lastEpilogueOp);
    findSideCones();
    for (Operation &inner : body.without_terminator())
      if (failed(lowerInner(inner)))
        return failure();
    for (size_t i = 0; i < groups.size(); ++i)
      if (groups[i].open && failed(emitGroup(i)))
        return failure();
  }

  for (auto [result, value] :
       llvm::zip(fusion.getResults(), body.getTerminator()->getOperands())) {
    FailureOr<Value> mem = l.memOf(value);
    if (failed(mem))
      return failure();
    l.hbm[result] = *mem;
  }
  return success();
}

std::optional<fusion::RowKernelShape> FusionLowering::rowKernelShape() {
  Operation *terminator = body.getTerminator();
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  if (llvm::any_of(terminator->getOperands(), [&](Value v) {
        return !v.getDefiningOp() || v.getDefiningOp()->getBlock() != &body;
      }))
    return std::nullopt;
  return fusion::rowResidentKernel(ops, [&](Value v) {
    return llvm::is_contained(terminator->getOperands(), v);
  });
}

LogicalResult FusionLowering::lowerInner(Operation &inner) {
  if (sideOps.contains(&inner))
    return success();
  if (ep && (&inner == hero || ep->ops.contains(&inner))) {
    // A broadcast something else reads too is also lowered on its own.
    bool alsoOutside = isa<hlo::BroadcastInDimOp>(inner) &&
                       llvm::any_of(inner.getUsers(), [&](Operation *user) {
                         Operation *top = body.findAncestorOpInBlock(*user);
                         return !top || !ep->ops.contains(top);
                       });
    if (&inner == lastEpilogueOp && failed(emitContraction()))
      return failure();
    if (!alsoOutside)
      return success();
  }
  if (std::optional<FusedReduce> fused = fuseIntoReduce(&inner))
    return lowerFusedReduce(&inner, *fused);
  if (absorbed.contains(&inner))
    return emitProducers(&inner);
  if (fitsLoopKernel(&inner) || fitsLoopBroadcast(&inner))
    return addToGroup(&inner);
  if (failed(emitProducers(&inner)) || failed(l.lowerOp(&inner)))
    return failure();
  return success();
}

void FusionLowering::findSideCones() {
  llvm::DenseSet<Operation *> cones, spreads;
  for (Operation &op : body.without_terminator()) {
    // A broadcast a kernel reads per column from a resident source: the
    // contraction's epilogue, a loop group or a fused reduce.
    auto bcast = dyn_cast<hlo::BroadcastInDimOp>(op);
    if (!bcast || !fitsLoopBroadcast(bcast))
      continue;
    std::optional<BroadcastForm> form = broadcastForm(bcast);
    if (!form || !isPerColumn(*form))
      continue;
    if (std::optional<SideCone> cone = sideCone(form->source)) {
      cones.insert(cone->ops.begin(), cone->ops.end());
      spreads.insert(bcast);
    }
  }
  // All or nothing: every value of the cones is read only by the cones,
  // by those broadcasts, or by reshapes the broadcasts read through.
  std::function<bool(Operation *)> inside = [&](Operation *user) {
    if (cones.contains(user))
      return true;
    if (isa<hlo::BroadcastInDimOp>(user))
      return spreads.contains(user);
    return isa<hlo::ReshapeOp>(user) && absorbed.contains(user) &&
           llvm::all_of(user->getUsers(), inside);
  };
  for (Operation *op : cones)
    if (!llvm::all_of(op->getUsers(), inside))
      return;
  sideOps = std::move(cones);
}

LogicalResult FusionLowering::emitGroup(size_t i) {
  LoopGroup &group = groups[i];
  group.open = false;
  SmallVector<Value> roots;
  for (Operation *op : group.ops)
    for (Value result : op->getResults())
      if (!l.hbm.count(result) && // not written by a fused reduce
          llvm::any_of(result.getUsers(), [&](Operation *user) {
            Operation *top = body.findAncestorOpInBlock(*user);
            return !top ||
                   (!group.ops.contains(top) && !inKernel.contains(top));
          }))
        roots.push_back(result);
  if (roots.empty())
    return success();
  l.beginKernel(group.ops.back());
  if (failed(l.emitLoopKernel(
          roots, [&](Operation *op) { return group.ops.contains(op); })))
    return failure();
  return l.endKernel();
}

LogicalResult FusionLowering::emitProducers(Operation *op) {
  llvm::SetVector<size_t> needed;
  op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != &body)
        continue;
      auto it = groupOf.find(def);
      if (it != groupOf.end() && groups[it->second].open &&
          !groups[it->second].ops.contains(op))
        needed.insert(it->second);
    }
  });
  llvm::SmallVector<size_t> order(needed.begin(), needed.end());
  llvm::sort(order);
  for (size_t i : order)
    if (failed(emitGroup(i)))
      return failure();
  return success();
}

LogicalResult FusionLowering::addToGroup(Operation *op) {
  auto shape = cast<RankedTensorType>(op->getResult(0).getType());
  auto it = llvm::find_if(groups, [&](const LoopGroup &g) {
    return g.open && g.shape.getShape() == shape.getShape();
  });
  size_t index = it - groups.begin();
  if (it == groups.end()) {
    groups.push_back({shape, {}, true});
    index = groups.size() - 1;
  }
  // Rank-0 operands computed by another open group come first.
  groups[index].ops.insert(op);
  groupOf[op] = index;
  return emitProducers(op);
}

void FusionLowering::findAbsorbedReshapes() {
  for (Operation &inner : llvm::reverse(body.without_terminator())) {
    auto reshape = dyn_cast<hlo::ReshapeOp>(inner);
    if (reshape && !reshape->use_empty() &&
        nonUnit(reshape.getOperand().getType().getShape()) ==
            nonUnit(reshape.getType().getShape()) &&
        llvm::all_of(reshape->getUsers(), [&](Operation *user) {
          return (fitsLoopBroadcast(user) && user->getBlock() == &body) ||
                 absorbed.contains(user);
        }))
      absorbed.insert(reshape);
  }
}

std::optional<FusionLowering::FusedReduce>
FusionLowering::fuseIntoReduce(Operation *op) {
  auto reduce = dyn_cast<hlo::ReduceOp>(op);
  if (!reduce || reduce.getInputs().size() != 1)
    return std::nullopt;
  Operation *def = reduce.getInputs()[0].getDefiningOp();
  auto it = def ? groupOf.find(def) : groupOf.end();
  if (it == groupOf.end() || !groups[it->second].open)
    return std::nullopt;
  const LoopGroup &group = groups[it->second];
  SmallVector<Operation *> stack{def};
  FusedReduce fused{it->second, {}};
  while (!stack.empty()) {
    Operation *member = stack.pop_back_val();
    if (!fused.cone.insert(member).second)
      continue;
    if (auto bcast = dyn_cast<hlo::BroadcastInDimOp>(member)) {
      std::optional<BroadcastForm> form = broadcastForm(bcast);
      if (!form)
        return std::nullopt;
      continue;
    }
    for (Value v : member->getOperands()) {
      Operation *d = v.getDefiningOp();
      if (d && group.ops.contains(d))
        stack.push_back(d);
      else if (d && groupOf.count(d) && groups[groupOf[d]].open)
        return std::nullopt; // a rank-0 value of another open group
    }
  }
  return fused;
}

LogicalResult FusionLowering::lowerFusedReduce(Operation *op,
                                               const FusedReduce &fused) {
  // The init value may come from a group; the input does not need one.
  inKernel.insert(op);
  const LoopGroup &group = groups[fused.group];
  auto initDef = cast<hlo::ReduceOp>(op).getInitValues()[0].getDefiningOp();
  if (initDef && groupOf.count(initDef) && groups[groupOf[initDef]].open &&
      failed(emitGroup(groupOf[initDef])))
    return failure();
  l.fusedProducer = [&](Operation *member) {
    return group.ops.contains(member);
  };
  l.fusedExports = exportsOf(fused);
  LogicalResult lowered = l.lowerOp(op);
  l.fusedProducer = nullptr;
  l.fusedExports.clear();
  return lowered;
}

SmallVector<Value> FusionLowering::exportsOf(const FusedReduce &fused) {
  const LoopGroup &group = groups[fused.group];
  // A user that will not read the value from HBM: a member of the group
  // (or an op of its shape that joins it later) or a reduce (fused).
  auto computesIt = [&](Operation *top) {
    if (group.ops.contains(top) || inKernel.contains(top) ||
        isa<hlo::ReduceOp>(top))
      return true;
    return (fitsLoopKernel(top) || fitsLoopBroadcast(top)) &&
           cast<RankedTensorType>(top->getResult(0).getType()).getShape() ==
               group.shape.getShape();
  };
  SmallVector<Value> exports;
  for (Operation *member : group.ops) {
    if (!fused.cone.contains(member) || isa<hlo::BroadcastInDimOp>(member))
      continue;
    for (Value v : member->getResults())
      if (!l.hbm.count(v) &&
          llvm::any_of(v.getUsers(), [&](Operation *user) {
            Operation *top = body.findAncestorOpInBlock(*user);
            return !top || top == body.getTerminator() || !computesIt(top);
          }))
        exports.push_back(v);
  }
  return exports;
}

LogicalResult FusionLowering::emitContraction() {
  // The epilogue's operands computed by open groups are written first,
  // in program order (ep->ops is a set: its order is the pointers').
  SmallVector<Operation *> readers{hero};
  for (Operation &op : body.without_terminator())
    if (ep->ops.contains(&op))
      readers.push_back(&op);
  for (Operation *op : readers)
    if (failed(emitProducers(op)))
      return failure();
  l.epilogue = *ep;
  LogicalResult lowered = l.lowerOp(hero);
  bool applied = !l.epilogue;
  l.epilogue.reset();
  if (failed(lowered) || applied)
    return lowered;
  // A kernel without an epilogue wrote its result: one loop kernel.
  SmallVector<Value> computed = ep->computedRoots();
  if (computed.empty())
    return success();
  l.beginKernel(lastEpilogueOp);
  if (failed(l.emitLoopKernel(
          computed, [&](Operation *op) { return ep->ops.contains(op); })))
    return failure();
  return l.endKernel();
}

/// A row-resident normalization fusion (fusion::rowResidentKernel: layer
/// norm, softmax) as one kernel. Blocks of whole tile rows of the
/// row-shaped inputs stream through two VMEM slots (block b+1's DMAs issued
/// before block b is computed, block b's results written back while b+1
/// is). Per tile row, each reduce in program order combines its operand's
/// column tiles (computed on vregs from the slots, as a loop kernel
/// computes them; the ragged last one masked with the identity) and
/// reduces the lanes: sublane s then holds row s's value in every lane,
/// which is the per-row broadcast's tile. The statistics' elementwise ops
/// run on those registers (emitTile), and the results' tiles are computed
/// and stored. x is read from HBM once and y written once.
class RowKernel {
public:
  RowKernel(Lowering &l, hlo::FusionOp fusion,
            const fusion::RowKernelShape &shape)
      : l(l), body(fusion.getBody().front()), shape(shape) {}
  LogicalResult emit();

private:
  /// The per-row register of statistic `v`, or of its per-row broadcast
  /// (computed on first use).
  FailureOr<Value> statReg(Value v, llvm::DenseMap<Value, Value> &stats);
  /// Tile row at tile `first` of the slots: statistics, then results.
  LogicalResult tileRow(Value first);

  Lowering &l;
  Block &body;
  fusion::RowKernelShape shape;
  RankedTensorType rowType;
  Geometry g;
  llvm::DenseMap<Value, std::pair<VBuf, int64_t>> ins;
  SmallVector<std::pair<Value, VBuf>> inMems;
  struct Out {
    Value value, mem;
    VBuf buf;
    int64_t tileBytes;
  };
  SmallVector<Out> outs;
  llvm::DenseMap<Operation *, std::pair<Reduction, Value>> reductions;
  /// The splat constants' registers, made once before the loops.
  llvm::DenseMap<Value, Value> splats;
  /// Classes of equal values (ops of the same kind and attributes on equal
  /// operands), of two or more.
  SmallVector<SmallVector<Value>> sameValues;
};

LogicalResult RowKernel::emit() {
  for (Operation &op : body.without_terminator())
    if (auto reduce = dyn_cast<hlo::ReduceOp>(op)) {
      rowType = cast<RankedTensorType>(reduce.getInputs()[0].getType());
      break;
    }
  g = geometryOf(rowType);
  int64_t tileRows = g.outer * g.rowTiles;
  int64_t blockRows = largestDivisorAtMost(tileRows, shape.maxBlockTileRows);
  int64_t blocks = tileRows / blockRows;
  // Three slots when there are blocks enough: a block's DMAs then have two
  // blocks' compute to arrive in, behind the previous block's write-back.
  int64_t slots = std::min(blocks, fusion::kRowKernelSlots);
  int64_t blockTiles = blockRows * g.colTiles;
  Operation *terminator = body.getTerminator();
  l.beginKernel(terminator->getOperand(0).getDefiningOp());
  auto slotBuffer = [&](Value v) -> std::pair<VBuf, int64_t> {
    auto t = cast<RankedTensorType>(v.getType());
    int64_t tileBytes = geometryOf(t).tileBytes();
    return {l.vmem(storageType(t.getElementType()),
                   slots * blockTiles * tileBytes),
            tileBytes};
  };
  // The inputs: row-shaped arguments, and arguments read as rows through a
  // reshape that moves no byte (the kernel streams the argument's buffer).
  for (Operation &op : body.without_terminator())
    for (Value v : op.getOperands()) {
      Value from = v;
      if (Operation *def = v.getDefiningOp();
          def && fusion::isRowInputReshape(def, rowType.getShape()))
        from = def->getOperand(0);
      if (isa<BlockArgument>(from) && !ins.count(v) &&
          cast<RankedTensorType>(v.getType()).getShape() ==
              rowType.getShape()) {
        ins[v] = slotBuffer(v);
        inMems.push_back({l.hbm.lookup(from), ins[v].first});
      }
    }
  for (Value v : terminator->getOperands()) {
    if (l.hbm.count(v))
      continue; // returned twice
    auto [buf, tileBytes] = slotBuffer(v);
    Value mem = l.allocHbm(cast<RankedTensorType>(v.getType()), v.getLoc());
    l.hbm[v] = mem;
    outs.push_back({v, mem, buf, tileBytes});
  }
  llvm::DenseMap<Value, size_t> classOf;
  SmallVector<Operation *> reps;
  for (Operation &op : body.without_terminator()) {
    if (op.getNumRegions() || op.getNumResults() != 1)
      continue;
    auto same = [&](Value x, Value y) {
      auto cx = classOf.find(x), cy = classOf.find(y);
      return success(x == y || (cx != classOf.end() && cy != classOf.end() &&
                                cx->second == cy->second));
    };
    auto it = llvm::find_if(reps, [&](Operation *rep) {
      return OperationEquivalence::isEquivalentTo(
          &op, rep, same, nullptr, OperationEquivalence::IgnoreLocations);
    });
    if (it == reps.end()) {
      classOf[op.getResult(0)] = reps.size();
      reps.push_back(&op);
      sameValues.emplace_back();
    } else {
      classOf[op.getResult(0)] = it - reps.begin();
    }
    sameValues[classOf[op.getResult(0)]].push_back(op.getResult(0));
  }
  llvm::erase_if(sameValues, [](auto &c) { return c.size() < 2; });
  // The reductions' combiners and init registers, once.
  for (Operation &op : body.without_terminator())
    if (auto reduce = dyn_cast<hlo::ReduceOp>(op)) {
      FailureOr<Reduction> red = Reduction::match(
          l, reduce, reduce.getBody(),
          getElementTypeOrSelf(reduce.getInputs()[0].getType()));
      if (failed(red))
        return failure();
      FailureOr<Value> init = red->init(reduce.getInitValues()[0]);
      if (failed(init))
        return failure();
      reductions.try_emplace(reduce, *red, *init);
    }
  for (Operation &op : body.without_terminator())
    if (op.getNumResults() == 1 && isSplatConstant(op.getResult(0))) {
      llvm::DenseMap<Value, std::pair<VBuf, int64_t>> none;
      if (failed(l.emitTile(op.getResult(0), l.c(0), none, splats)))
        return failure();
    }
  if (slots > 1) // both output slots start free
    tpu::SemSignalOp::create(l.b, l.loc, 1, slots * outs.size());
  LogicalResult status = success();
  l.pipeline(
      blocks,
      [&](Value blk) {
        Value slot = l.rem(blk, slots);
        for (auto &[mem, buf] : inMems) {
          int64_t bytes = buf.bytes / slots;
          l.dma(mem, l.mul(blk, bytes), buf.arena,
                l.add(l.mul(slot, bytes), buf.offset), 1, bytes, 0, 0, 0);
        }
      },
      [&](Value blk) {
        Value slot = l.rem(blk, slots);
        l.wait(0, inMems.size()); // block blk's
        if (slots > 1)
          l.wait(1, outs.size());
        l.loop(blockRows, [&](Value r) {
          if (failed(tileRow(l.add(l.mul(slot, blockTiles),
                                   l.mul(r, g.colTiles)))))
            status = failure();
        });
        for (Out &out : outs) {
          int64_t bytes = out.buf.bytes / slots;
          l.dma(out.buf.arena, l.add(l.mul(slot, bytes), out.buf.offset),
                out.mem, l.mul(blk, bytes), 1, bytes, 0, 0, 1);
        }
      },
      slots);
  l.wait(1, std::min(blocks, slots) * outs.size());
  if (failed(status))
    return failure();
  return l.endKernel();
}

FailureOr<Value> RowKernel::statReg(Value v,
                                    llvm::DenseMap<Value, Value> &stats) {
  if (Value r = stats.lookup(v))
    return r;
  Operation *def = v.getDefiningOp();
  // A unit-dim reshape, or a per-row broadcast: the same register.
  if (isa<hlo::ReshapeOp, hlo::BroadcastInDimOp>(def)) {
    Value source = def->getOperand(0);
    FailureOr<Value> r = statReg(source, stats);
    if (failed(r))
      return failure();
    if (l.roundOnUse.contains(source))
      l.roundOnUse.insert(v);
    return stats[v] = *r;
  }
  for (Value operand : def->getOperands())
    if (!isSplatConstant(operand) && failed(statReg(operand, stats)))
      return failure();
  llvm::DenseMap<Value, std::pair<VBuf, int64_t>> none;
  return l.emitTile(v, l.c(0), none, stats);
}

LogicalResult RowKernel::tileRow(Value first) {
  // What each column tile computed stays for the later passes over the row
  // (x loaded once, x - mean computed once for the variance and the
  // result), statistics are the same register in every column tile.
  llvm::DenseMap<Value, Value> stats = splats;
  SmallVector<llvm::DenseMap<Value, Value>> memos(g.colTiles);
  int64_t raggedLanes = g.cols % kLanes;
  auto emitAt = [&](Value v, int64_t ct) -> FailureOr<Value> {
    llvm::DenseMap<Value, Value> &memo = memos[ct];
    for (auto &[key, reg] : stats)
      memo.try_emplace(key, reg);
    FailureOr<Value> r = l.emitTile(v, l.add(first, ct), ins, memo);
    // Equal ops (the clones of a cloned producer: the variance's and the
    // result's x - mean) share what one of them computed.
    for (ArrayRef<Value> equal : sameValues) {
      auto it = llvm::find_if(equal, [&](Value e) { return memo.count(e); });
      if (it == equal.end())
        continue;
      Value reg = memo[*it];
      bool round = l.roundOnUse.contains(*it);
      for (Value e : equal) {
        memo.try_emplace(e, reg);
        if (round)
          l.roundOnUse.insert(e);
      }
    }
    return r;
  };
  for (Operation &op : body.without_terminator()) {
    if (isa<hlo::BroadcastInDimOp>(op)) {
      if (failed(statReg(op.getResult(0), stats)))
        return failure();
      continue;
    }
    auto reduce = dyn_cast<hlo::ReduceOp>(op);
    if (!reduce)
      continue;
    auto &[red, init] = reductions.find(reduce)->second;
    Value operand = reduce.getInputs()[0], acc;
    for (int64_t ct = 0; ct < g.colTiles; ++ct) {
      FailureOr<Value> x = emitAt(operand, ct);
      if (failed(x))
        return failure();
      Value tile = l.roundOnUse.contains(operand) ? l.roundToBf16(*x) : *x;
      if (raggedLanes && ct == g.colTiles - 1)
        tile = red.maskBelow(tile,
                             tpu::VLaneIdOp::create(l.b, l.loc, l.i32Reg()),
                             l.c(raggedLanes));
      acc = acc ? red.combine(acc, tile) : tile;
    }
    Value result = reduce.getResult(0);
    stats[result] = red.combine(red.reduceLanes(acc), init);
    if (getElementTypeOrSelf(result.getType()).isBF16())
      l.roundOnUse.insert(result);
  }
  for (Out &out : outs)
    for (int64_t ct = 0; ct < g.colTiles; ++ct) {
      FailureOr<Value> r = emitAt(out.value, ct);
      if (failed(r))
        return failure();
      Value tile = l.add(first, ct);
      tpu::VStoreOp::create(l.b, l.loc, *r, out.buf.arena,
                            l.add(l.mul(tile, out.tileBytes), out.buf.offset),
                            0);
    }
  return success();
}

LogicalResult emitRowKernel(Lowering &l, hlo::FusionOp fusion,
                            const fusion::RowKernelShape &shape) {
  return RowKernel(l, fusion, shape).emit();
}

} // namespace

LogicalResult Lowering::lowerFusion(hlo::FusionOp fusion) {
  return FusionLowering(*this, fusion).run();
}

namespace {

/// A broadcast source (or rank-0 operand) a loop kernel keeps in VMEM.
struct Resident {
  Value value;
  BroadcastForm form;
  VBuf buf;
  int64_t tileBytes;
  bool isInt;
};

/// What the ops `isMember` accepts, computing `roots` (of shape `type`),
/// read from outside: arrays of that shape (`inputs`, streamed block by
/// block), rank-0 operands and broadcast sources (`spreads`, kept whole in
/// VMEM). Splat constants are immediates.
LogicalResult collectLeaves(ValueRange roots, RankedTensorType type,
                            function_ref<bool(Operation *)> isMember,
                            SmallVectorImpl<Value> &inputs,
                            SmallVectorImpl<std::pair<Value, BroadcastForm>> &spreads) {
  llvm::DenseSet<Operation *> seen;
  std::function<LogicalResult(Operation *)> collect =
      [&](Operation *user) -> LogicalResult {
    if (!seen.insert(user).second)
      return success();
    if (auto bcast = dyn_cast<hlo::BroadcastInDimOp>(user)) {
      std::optional<BroadcastForm> form = broadcastForm(bcast);
      if (!form)
        return unsupported(user, "in a loop kernel");
      spreads.push_back({bcast.getResult(), *form});
      return success();
    }
    if (auto iota = dyn_cast<hlo::IotaOp>(user)) {
      spreads.push_back(
          {iota.getResult(), BroadcastForm{Spread::Iota, iota.getResult()}});
      return success();
    }
    if (std::string why = unsupportedForm(user); !why.empty())
      return unsupported(user, why);
    for (Value v : user->getOperands()) {
      if (isSplatConstant(v))
        continue;
      if (Operation *def = v.getDefiningOp(); def && isMember(def)) {
        if (failed(collect(def)))
          return failure();
        continue;
      }
      if (llvm::is_contained(inputs, v) ||
          llvm::any_of(spreads, [&](auto &p) { return p.first == v; }))
        continue;
      auto t = cast<RankedTensorType>(v.getType());
      if (!isLowerableElementType(t.getElementType()))
        return unsupported(user, "on this element type");
      if (t.getRank() == 0 && type.getRank() != 0)
        spreads.push_back({v, BroadcastForm{Spread::Scalar, v}});
      else if (t.getShape() != type.getShape())
        return unsupported(user, "with operands of different shapes");
      else
        inputs.push_back(v);
    }
    return success();
  };
  for (Value root : roots)
    if (failed(collect(root.getDefiningOp())))
      return failure();
  return success();
}

LogicalResult computeSideCones(Lowering &l,
                               ArrayRef<std::pair<Value, SideCone>> cones,
                               const llvm::DenseMap<Value, Resident> &leaves,
                               SmallVectorImpl<Resident> &residents);

/// Broadcast sources whose DMAs are issued (fetchResidents) and not yet
/// waited for (finishResidents).
struct PendingResidents {
  SmallVector<Resident> residents;
  // Side cones (a per-column source the fusion computes from parameters):
  // the parameters' DMAs go out with the others, and the cone is computed
  // once per column tile after the wait.
  SmallVector<std::pair<Value, SideCone>> cones;
  llvm::DenseMap<Value, Resident> coneLeaves;
  int64_t dmas = 0;
  int sem = 0;
};

/// Issues the broadcast sources' DMAs into VMEM (one each, on `sem`) and
/// puts the splats in `hoisted`.
FailureOr<PendingResidents>
fetchResidents(Lowering &l, ArrayRef<std::pair<Value, BroadcastForm>> spreads,
               llvm::DenseMap<Value, Value> &hoisted, int sem) {
  OpBuilder &b = l.b;
  Location loc = l.loc;
  PendingResidents pending;
  pending.sem = sem;
  SmallVector<Resident> &residents = pending.residents;
  int64_t &dmas = pending.dmas;
  SmallVector<std::pair<Value, SideCone>> &cones = pending.cones;
  llvm::DenseMap<Value, Resident> &coneLeaves = pending.coneLeaves;
  auto fetchWhole = [&](Value source, BroadcastForm form,
                        bool isInt) -> FailureOr<Resident> {
    FailureOr<Value> mem = l.memOf(source);
    if (failed(mem))
      return failure();
    auto x = cast<RankedTensorType>(source.getType());
    Geometry xg = geometryOf(x);
    VBuf buf = l.vmem(storageType(x.getElementType()),
                      form.spread == Spread::Scalar ? xg.tileBytes()
                                                    : xg.bytes());
    l.dma(*mem, l.c(0), buf.arena, l.c(buf.offset), 1, buf.bytes, 0, 0, sem);
    ++dmas;
    return Resident{source, form, buf, xg.tileBytes(), isInt};
  };
  for (auto &[value, form] : spreads) {
    if (form.spread == Spread::RowStream || form.spread == Spread::ColStream ||
        form.spread == Spread::Iota)
      continue; // streamed with the blocks, or computed per tile
    auto x = cast<RankedTensorType>(form.source.getType());
    bool isInt = !x.getElementType().isF32() && !x.getElementType().isBF16();
    if (isPerColumn(form) && !l.hbm.count(form.source)) {
      if (std::optional<SideCone> cone = sideCone(form.source)) {
        for (Value leaf : cone->leaves) {
          if (coneLeaves.count(leaf))
            continue;
          auto t = cast<RankedTensorType>(leaf.getType());
          Spread spread = t.getNumElements() == 1 ? Spread::Scalar
                          : t.getRank() == 1      ? Spread::PerColFlat
                                                  : Spread::PerCol;
          FailureOr<Resident> r =
              fetchWhole(leaf, BroadcastForm{spread, leaf, true}, false);
          if (failed(r))
            return failure();
          coneLeaves[leaf] = *r;
        }
        cones.push_back({value, std::move(*cone)});
        continue;
      }
    }
    if (form.spread == Spread::Splat) {
      if (std::optional<double> f = splatValue(form.source)) {
        hoisted[value] = l.splatF32(*f);
        continue;
      }
      // An integer splat: its lanes as s32.
      auto dense = cast<DenseElementsAttr>(
          form.source.getDefiningOp<hlo::ConstantOp>().getValue());
      APInt i = dense.getSplatValue<APInt>();
      Value cst = arith::ConstantOp::create(
          b, loc,
          b.getI32IntegerAttr(i.getBitWidth() == 1 ? i.getZExtValue()
                                                   : i.getSExtValue()));
      hoisted[value] = tpu::VSplatOp::create(b, loc, l.i32Reg(), cst);
      continue;
    }
    FailureOr<Resident> r = fetchWhole(form.source, form, isInt);
    if (failed(r))
      return failure();
    r->value = value;
    residents.push_back(*r);
  }
  return pending;
}

/// Waits for the sources' DMAs, computes the side cones, and puts the
/// one-element sources, spread to every lane, in `hoisted`; the others are
/// returned for per-tile reads.
FailureOr<SmallVector<Resident>>
finishResidents(Lowering &l, PendingResidents &pending,
                llvm::DenseMap<Value, Value> &hoisted) {
  OpBuilder &b = l.b;
  Location loc = l.loc;
  SmallVector<Resident> &residents = pending.residents;
  l.wait(pending.sem, pending.dmas);
  if (failed(computeSideCones(l, pending.cones, pending.coneLeaves,
                              residents)))
    return failure();
  SmallVector<Resident> perTile;
  for (const Resident &r : residents) {
    if (r.form.spread != Spread::Scalar) {
      perTile.push_back(r);
      continue;
    }
    Value tile = tpu::VLoadOp::create(b, loc, r.isInt ? l.i32Reg() : l.f32Reg(),
                                      r.buf.arena, l.c(r.buf.offset), 0);
    Value lane = tpu::VBroadcastLaneOp::create(b, loc, tile, l.c(0));
    hoisted[r.value] = tpu::VBroadcastSublaneOp::create(b, loc, lane, l.c(0));
  }
  return perTile;
}

/// Loads the broadcast sources into VMEM (one DMA each, waited for), and
/// puts the splats and one-element sources, spread to every lane, in
/// `hoisted`; the others are returned for per-tile reads.
FailureOr<SmallVector<Resident>>
loadResidents(Lowering &l, ArrayRef<std::pair<Value, BroadcastForm>> spreads,
              llvm::DenseMap<Value, Value> &hoisted) {
  FailureOr<PendingResidents> pending = fetchResidents(l, spreads, hoisted, 0);
  if (failed(pending))
    return failure();
  return finishResidents(l, *pending, hoisted);
}

/// The `kind` spreads of `spreads`: (the broadcast, its source's HBM
/// buffer, the source's storage type).
FailureOr<SmallVector<std::tuple<Value, Value, Type>>>
spreadSources(Lowering &l, ArrayRef<std::pair<Value, BroadcastForm>> spreads,
              Spread kind) {
  SmallVector<std::tuple<Value, Value, Type>> sources;
  for (auto &[value, form] : spreads) {
    if (form.spread != kind)
      continue;
    FailureOr<Value> mem = l.memOf(form.source);
    if (failed(mem))
      return failure();
    sources.push_back(
        {value, *mem,
         storageType(
             cast<RankedTensorType>(form.source.getType()).getElementType())});
  }
  return sources;
}

/// Tile `tile` of a resident broadcast source.
Value residentTile(Lowering &l, const Resident &r, Value tile) {
  return tpu::VLoadOp::create(l.b, l.loc, r.isInt ? l.i32Reg() : l.f32Reg(),
                              r.buf.arena,
                              l.add(l.mul(tile, r.tileBytes), r.buf.offset), 0);
}

/// The tile a resident broadcast source gives the result's tile at tile row
/// `row` (global) and column tile `col`, the result being of geometry `g`.
Value residentAt(Lowering &l, const Resident &r, const Geometry &g, Value row,
                 Value col) {
  bool outer = r.form.outerBroadcast;
  switch (r.form.spread) {
  case Spread::PerRow:
    return tpu::VBroadcastLaneOp::create(
        l.b, l.loc, residentTile(l, r, outer ? l.rem(row, g.rowTiles) : row),
        l.c(0));
  case Spread::PerCol:
    return tpu::VBroadcastSublaneOp::create(l.b, l.loc,
                                            residentTile(l, r, col), l.c(0));
  case Spread::PerColFlat:
    // T(1024) tiles: tile col / 8, sublane col % 8, on every sublane.
    return tpu::VBroadcastSublaneOp::create(
        l.b, l.loc, residentTile(l, r, l.div(col, kSublanes)),
        l.rem(col, kSublanes));
  case Spread::Whole: {
    Value global = l.add(l.mul(row, g.colTiles), col);
    return residentTile(
        l, r, outer ? l.rem(global, g.rowTiles * g.colTiles) : global);
  }
  case Spread::PerColOuter: {
    Value p = l.div(row, g.rowTiles * r.form.outerRepeat);
    Value tile = l.add(l.mul(l.div(p, kSublanes), g.colTiles), col);
    return tpu::VBroadcastSublaneOp::create(
        l.b, l.loc, residentTile(l, r, tile), l.rem(p, kSublanes));
  }
  case Spread::Splat:
  case Spread::Scalar:
  case Spread::RowStream:
  case Spread::ColStream:
  case Spread::Iota:
    break;
  }
  llvm_unreachable("not a per-tile resident");
}

/// Computes each side cone (the broadcast `value` of a source the fusion
/// computes, SideCone) from its parameters in VMEM (`leaves`): per column
/// tile, the cone's ops on vregs (Lowering::emitTile) and one store of the
/// result to that tile of an f32 [1, C] buffer, read then as a PerCol
/// resident. The same source is computed once.
LogicalResult computeSideCones(Lowering &l,
                               ArrayRef<std::pair<Value, SideCone>> cones,
                               const llvm::DenseMap<Value, Resident> &leaves,
                               SmallVectorImpl<Resident> &residents) {
  constexpr int64_t kF32Tile = kSublanes * kLanes * 4;
  llvm::DenseMap<Value, VBuf> computed;
  for (auto &[value, cone] : cones) {
    Value source = cone.ops.back()->getResult(0);
    auto it = computed.find(source);
    if (it == computed.end()) {
      int64_t cols = ceilDiv(cone.cols, kLanes);
      VBuf buf = l.vmem(l.b.getF32Type(), cols * kF32Tile);
      llvm::DenseMap<Value, Value> hoisted;
      for (Value leaf : cone.leaves) {
        const Resident &r = leaves.find(leaf)->second;
        if (r.form.spread != Spread::Scalar)
          continue;
        Value lane = tpu::VBroadcastLaneOp::create(
            l.b, l.loc, residentTile(l, r, l.c(0)), l.c(0));
        hoisted[leaf] =
            tpu::VBroadcastSublaneOp::create(l.b, l.loc, lane, l.c(0));
      }
      LogicalResult status = success();
      l.loop(cols, [&](Value col) {
        llvm::DenseMap<Value, Value> memo = hoisted;
        llvm::DenseMap<Value, std::pair<VBuf, int64_t>> none;
        for (Value leaf : cone.leaves) {
          const Resident &r = leaves.find(leaf)->second;
          if (r.form.spread != Spread::Scalar)
            memo[leaf] = residentAt(
                l, r, geometryOf(cast<RankedTensorType>(leaf.getType())),
                l.c(0), col);
        }
        for (Operation *op : cone.ops) {
          Value v = op->getResult(0);
          if (auto reshape = dyn_cast<hlo::ReshapeOp>(op)) {
            // A unit reshape renames the elements: the same register.
            Value from = reshape.getOperand();
            FailureOr<Value> x = l.emitTile(from, l.c(0), none, memo);
            if (failed(x)) {
              status = failure();
              return;
            }
            memo[v] = *x;
            if (l.roundOnUse.contains(from))
              l.roundOnUse.insert(v);
          } else if (failed(l.emitTile(v, l.c(0), none, memo))) {
            status = failure();
            return;
          }
        }
        Value x = memo.lookup(source);
        if (l.roundOnUse.contains(source))
          x = l.roundToBf16(x);
        l.vstore(x, buf, l.mul(col, kF32Tile));
      });
      if (failed(status))
        return failure();
      it = computed.insert({source, buf}).first;
    }
    residents.push_back({value, BroadcastForm{Spread::PerCol, source, true},
                         it->second, kF32Tile, false});
  }
  return success();
}

/// The VMEM a resident broadcast source takes (whole pages): a side cone's
/// parameters and its computed [1, C] buffer.
int64_t residentSourceBytes(Lowering &l, const BroadcastForm &form) {
  auto pagesOf = [](Value v, bool oneTile) {
    Geometry g = geometryOf(cast<RankedTensorType>(v.getType()));
    return llvm::alignTo(oneTile ? g.tileBytes() : g.bytes(), 4096);
  };
  if (form.spread == Spread::Splat)
    return 0;
  if (isPerColumn(form) && !l.hbm.count(form.source))
    if (std::optional<SideCone> cone = sideCone(form.source)) {
      int64_t bytes = ceilDiv(cone->cols, kLanes) * kSublanes * kLanes * 4;
      for (Value leaf : cone->leaves)
        bytes += pagesOf(
            leaf, cast<RankedTensorType>(leaf.getType()).getNumElements() == 1);
      return bytes;
    }
  return pagesOf(form.source, form.spread == Spread::Scalar);
}

/// The RowStream sources of `spreads`, each with a VMEM buffer of `slots`
/// page-aligned slots of `tileRows` tile rows (8 elements each), zeroed once: a tile
/// row's load reads 128 lanes from each of its 8 elements on.
FailureOr<SmallVector<Lowering::RowStream>>
rowStreams(Lowering &l, ArrayRef<std::pair<Value, BroadcastForm>> spreads,
           int64_t tileRows, int64_t slots) {
  auto sources = spreadSources(l, spreads, Spread::RowStream);
  if (failed(sources))
    return failure();
  SmallVector<Lowering::RowStream> streams;
  for (auto &[value, mem, elem] : *sources) {
    int64_t eb = elementBytes(elem);
    int64_t tile = kSublanes * kLanes * eb;
    // Each slot ends with a lane row of padding, so no load of one slot
    // reaches into the other (which a DMA may be filling), and takes whole
    // VMEM pages: a slot shares no page with the other, so the next
    // block's fetch does not hold up this block's loads (the scoreboard
    // tracks pages).
    int64_t rowBytes = kSublanes * eb;
    int64_t slotBytes =
        llvm::alignTo(tileRows * rowBytes + kLanes * eb,
                      Lowering::kVmemPageBytes);
    VBuf buf = l.vmem(elem, llvm::divideCeil(slots * slotBytes, tile) * tile);
    bool isInt = !elem.isF32() && !elem.isBF16();
    Value zero = isInt ? l.splatIndex(l.c(0)) : l.splatF32(0.0);
    l.loop(buf.bytes / tile,
           [&](Value i) { l.vstore(zero, buf, l.mul(i, tile)); });
    streams.push_back({value, mem, buf, slotBytes, rowBytes, isInt});
  }
  return streams;
}

/// The bytes of one slot of a column stream of `tiles` column tiles: 128
/// elements each and a vreg of slack, so the last tile's load (8 sublanes
/// from its column on) stays inside the slot.
int64_t columnSlotBytes(int64_t tiles) { return (tiles + kSublanes) * kLanes * 4; }

/// The ColStream sources of `spreads`: (the broadcast, its source's HBM
/// buffer, a VMEM buffer of `slots` slots of `tiles` column tiles).
FailureOr<SmallVector<std::tuple<Value, Value, VBuf>>>
columnStreams(Lowering &l, ArrayRef<std::pair<Value, BroadcastForm>> spreads,
              int64_t tiles, int64_t slots = 1) {
  auto sources = spreadSources(l, spreads, Spread::ColStream);
  if (failed(sources))
    return failure();
  SmallVector<std::tuple<Value, Value, VBuf>> streams;
  for (auto &[value, mem, elem] : *sources) {
    VBuf buf = l.vmem(elem, slots * columnSlotBytes(tiles));
    // The slack after each slot's columns is read (by the last columns'
    // loads, beyond sublane 0) but never fetched: zero it once.
    Value zero = elem.isF32() ? l.splatF32(0.0) : l.splatIndex(l.c(0));
    for (int64_t slot = 0; slot < slots; ++slot)
      l.vstore(zero, buf,
               l.c(slot * columnSlotBytes(tiles) + tiles * kLanes * 4));
    streams.push_back({value, mem, buf});
  }
  return streams;
}

/// DMAs column tiles firstCol .. firstCol + tiles - 1 (128 elements each,
/// contiguous in a rank-1 source) into each buffer at byte `at` (semaphore 0).
void fetchColumns(Lowering &l, ArrayRef<std::pair<Value, VBuf>> columns,
                  Value firstCol, int64_t tiles, Value at) {
  for (auto &[mem, buf] : columns)
    l.dma(mem, l.mul(firstCol, kLanes * 4), buf.arena, l.add(at, buf.offset),
          1, tiles * kLanes * 4, 0, 0, 0);
}

/// Column tile `colInBlock` of a streamed per-column broadcast, the same
/// 128 lanes on every sublane.
Value loadColumn(Lowering &l, const VBuf &buf, bool isInt, Value colInBlock) {
  Value x = tpu::VLoadOp::create(
      l.b, l.loc, isInt ? l.i32Reg() : l.f32Reg(), buf.arena,
      l.add(l.mul(colInBlock, kLanes * 4), buf.offset), 0);
  return tpu::VBroadcastSublaneOp::create(l.b, l.loc, x, l.c(0));
}

} // namespace

/// The roots of an epilogue its ops compute (not the contraction's own
/// result), and the leaves they read.
static LogicalResult
epilogueSpreads(const Lowering::EpilogueOps &e,
                SmallVectorImpl<Value> &inputs,
                SmallVectorImpl<std::pair<Value, BroadcastForm>> &spreads) {
  auto type = cast<RankedTensorType>(e.result.getType());
  if (failed(collectLeaves(
          e.computedRoots(), type, [&](Operation *op) { return e.ops.contains(op); },
          inputs, spreads)))
    return failure();
  for (auto &[value, form] : spreads)
    if (form.spread != Spread::Splat && form.spread != Spread::Scalar &&
        form.spread != Spread::PerCol && form.spread != Spread::PerColFlat)
      return unsupported(value.getDefiningOp(),
                         "in a contraction epilogue (only splats, scalars "
                         "and per-column sources)");
  return success();
}

LogicalResult Lowering::epilogueLeaves(const EpilogueOps &e,
                                       SmallVectorImpl<Value> &inputs,
                                       int64_t &residentBytes) {
  SmallVector<std::pair<Value, BroadcastForm>> spreads;
  if (failed(epilogueSpreads(e, inputs, spreads)))
    return failure();
  residentBytes = 0;
  for (auto &[value, form] : spreads)
    residentBytes += residentSourceBytes(*this, form);
  return success();
}

FailureOr<Lowering::FinishEpilogueSources>
Lowering::fetchEpilogueSources(const EpilogueOps &e,
                               llvm::DenseMap<Value, Value> &hoisted, int sem) {
  SmallVector<Value> inputs;
  SmallVector<std::pair<Value, BroadcastForm>> spreads;
  if (failed(epilogueSpreads(e, inputs, spreads)))
    return failure();
  FailureOr<PendingResidents> pending =
      fetchResidents(*this, spreads, hoisted, sem);
  if (failed(pending))
    return failure();
  // Only per-column forms are left (epilogueSpreads): the row is unused.
  Geometry g = geometryOf(cast<RankedTensorType>(e.result.getType()));
  return FinishEpilogueSources(
      [this, g, pending = std::move(*pending)](
          llvm::DenseMap<Value, Value> &hoisted) mutable
      -> FailureOr<EpilogueColumns> {
        FailureOr<SmallVector<Resident>> perTile =
            finishResidents(*this, pending, hoisted);
        if (failed(perTile))
          return failure();
        return EpilogueColumns(
            [this, g, residents = std::move(*perTile)](
                llvm::DenseMap<Value, Value> &memo, Value col) {
              for (const Resident &r : residents)
                memo[r.value] = residentAt(*this, r, g, c(0), col);
            });
      });
}

void Lowering::beginColumns(OperandStream &s, Value firstCol, int64_t tiles) {
  s.firstCol = firstCol;
  fetchColumns(*this, s.columns, firstCol, tiles, c(0));
  wait(0, s.columns.size());
}

void Lowering::fetchRows(const RowStream &r, Value firstTileRow,
                         Value slotOffset, int64_t tileRows) {
  dma(r.mem, mul(firstTileRow, r.rowBytes), r.buf.arena,
      add(slotOffset, r.buf.offset), 1, tileRows * r.rowBytes, 0, 0, 0);
}

Value Lowering::loadRow(const RowStream &r, Value slot, Value row) {
  // Sublane s reads from the row's element s on: lane 0 is its value.
  Value tile = tpu::VLoadOp::create(
      b, loc, r.isInt ? i32Reg() : f32Reg(), r.buf.arena,
      add(add(mul(slot, r.slotBytes), mul(row, r.rowBytes)), r.buf.offset),
      r.rowBytes / kSublanes);
  return tpu::VBroadcastLaneOp::create(b, loc, tile, c(0));
}

FailureOr<Lowering::OperandStream>
Lowering::streamOperand(Value operand, int64_t slotBytes, int64_t pitchTiles) {
  auto type = cast<RankedTensorType>(operand.getType());
  OperandStream s;
  s.operand = operand;
  s.elemBytes = elementBytes(storageType(type.getElementType()));
  Operation *def = operand.getDefiningOp();
  if (!fusedProducer || !def || !fusedProducer(def)) {
    FailureOr<Value> mem = memOf(operand);
    if (failed(mem))
      return failure();
    s.sources.push_back({*mem,
                         vmem(storageType(type.getElementType()), 2 * slotBytes),
                         s.elemBytes});
    return s;
  }
  // Input fusion: stream the producers' inputs (slots scaled by their
  // element size), compute the operand per tile.
  s.produced = true;
  SmallVector<Value> inputs;
  SmallVector<std::pair<Value, BroadcastForm>> spreads;
  if (failed(collectLeaves(operand, type, fusedProducer, inputs, spreads)))
    return failure();
  FailureOr<SmallVector<Resident>> perTile =
      loadResidents(*this, spreads, s.hoisted);
  if (failed(perTile))
    return failure();
  Geometry g = geometryOf(type);
  s.tileBytes = kSublanes * kLanes * s.elemBytes;
  s.rowBytes = (pitchTiles ? pitchTiles : g.colTiles) * s.tileBytes;
  // Values read by position: per-column broadcasts (kept whole, or
  // streamed by column block) and iotas.
  for (const Resident &r : *perTile) {
    if (r.form.spread == Spread::PerRow)
      s.rowwise.push_back({r.value, [this, r, g](Value row) {
                             return residentAt(*this, r, g, row, Value());
                           }});
    else
      s.positional.push_back(
          {r.value, [this, r, g](Value row, Value col, Value) {
             return residentAt(*this, r, g, row, col);
           }});
  }
  FailureOr<SmallVector<std::tuple<Value, Value, VBuf>>> columns =
      columnStreams(*this, spreads, s.rowBytes / s.tileBytes);
  if (failed(columns))
    return failure();
  for (auto &[value, mem, buf] : *columns) {
    s.columns.push_back({mem, buf});
    bool isInt = !cast<RankedTensorType>(value.getType())
                      .getElementType()
                      .isF32();
    s.positional.push_back(
        {value, [this, buf = buf, isInt](Value, Value, Value colInBlock) {
           return loadColumn(*this, buf, isInt, colInBlock);
         }});
  }
  for (auto &[value, form] : spreads)
    if (form.spread == Spread::Iota)
      s.positional.push_back(
          {value, [this, iota = value.getDefiningOp<hlo::IotaOp>()](
                      Value row, Value col, Value) {
             return iotaTile(iota, row, col);
           }});
  FailureOr<SmallVector<RowStream>> rows =
      rowStreams(*this, spreads, slotBytes / s.rowBytes, 2);
  if (failed(rows))
    return failure();
  s.rows = std::move(*rows);
  s.slotRows = slotBytes / s.rowBytes;
  for (Value in : inputs) {
    auto t = cast<RankedTensorType>(in.getType());
    int64_t eb = elementBytes(storageType(t.getElementType()));
    // A row-groups reshape has no buffer: its reduce streams the operand's
    // rows in groups (Reduce.cpp).
    auto split = in.getDefiningOp<hlo::ReshapeOp>();
    FailureOr<Value> mem = memOf(
        split && isReducedRowGroups(split) ? split.getOperand() : in);
    if (failed(mem))
      return failure();
    VBuf slots = vmem(storageType(t.getElementType()),
                      2 * slotBytes * eb / s.elemBytes);
    s.sources.push_back({*mem, slots, eb});
    // Loads at (element offset) x (element bytes).
    s.ins[in] = {slots, eb};
  }
  for (Value v : fusedExports) {
    auto t = cast<RankedTensorType>(v.getType());
    Type store = storageType(t.getElementType());
    int64_t eb = elementBytes(store);
    Value mem = allocHbm(t, v.getLoc());
    hbm[v] = mem;
    s.exports.push_back({v, mem, vmem(store, 2 * slotBytes * eb / s.elemBytes),
                         eb});
  }
  fusedExports.clear();
  return s;
}

int64_t Lowering::streamSlotFactor(Value operand) {
  Operation *def = operand.getDefiningOp();
  if (!fusedProducer || !def || !fusedProducer(def))
    return 1;
  auto type = cast<RankedTensorType>(operand.getType());
  SmallVector<Value> inputs;
  SmallVector<std::pair<Value, BroadcastForm>> spreads;
  {
    // Quiet: streamOperand reports what it cannot stream.
    ScopedDiagnosticHandler quiet(def->getContext(),
                                  [](Diagnostic &) { return success(); });
    if (failed(collectLeaves(operand, type, fusedProducer, inputs, spreads)))
      return 1;
  }
  int64_t elemBytes = elementBytes(storageType(type.getElementType()));
  int64_t bytes = 0;
  for (Value in : llvm::concat<const Value>(inputs, fusedExports))
    bytes += elementBytes(storageType(
        cast<RankedTensorType>(in.getType()).getElementType()));
  return std::max<int64_t>(1, llvm::divideCeil(bytes, elemBytes));
}

namespace {
/// The stream's exports at element offset `elements` of their slots, from
/// the registers of the tile just computed (`memo`).
void storeExports(Lowering &l, Lowering::OperandStream &s, Value elements,
                  llvm::DenseMap<Value, Value> &memo) {
  for (const Lowering::OperandStream::Export &e : s.exports) {
    Value r = *l.emitTile(e.value, elements, s.ins, memo);
    l.vstore(r, e.buf, l.mul(elements, e.elemBytes));
  }
}
} // namespace

Value Lowering::loadStreamed(OperandStream &s, Value off) {
  if (!s.produced) {
    const VBuf &slots = std::get<1>(s.sources.front());
    auto type = cast<RankedTensorType>(s.operand.getType());
    bool isInt = !type.getElementType().isF32() &&
                 !type.getElementType().isBF16();
    return tpu::VLoadOp::create(b, loc, isInt ? i32Reg() : f32Reg(),
                                slots.arena, add(off, slots.offset), 0);
  }
  Value elements;
  if (std::optional<int64_t> k = constant(off))
    elements = c(*k / s.elemBytes);
  else
    elements = arith::DivSIOp::create(b, loc, off, c(s.elemBytes));
  llvm::DenseMap<Value, Value> memo = s.hoisted;
  if (!s.rows.empty()) {
    // Tile rows count across both slots: slot p's rows follow slot p-1's.
    Value tileRow = arith::DivSIOp::create(b, loc, off, c(s.rowBytes));
    Value slot = arith::DivSIOp::create(b, loc, tileRow, c(s.slotRows));
    Value row = rem(tileRow, s.slotRows);
    for (const RowStream &r : s.rows)
      memo[r.value] = loadRow(r, slot, row);
  }
  if (!s.positional.empty() || !s.rowwise.empty()) {
    // The tile's place: its tile row in the slots after the block's first,
    // its column tile in the column block after the block's first.
    Value row = add(s.blockRow, rem(div(off, s.rowBytes), s.slotRows));
    for (auto &[value, tileOf] : s.rowwise)
      memo[value] = tileOf(row);
    Value colInBlock = div(rem(off, s.rowBytes), s.tileBytes);
    Value col = cast<RankedTensorType>(s.operand.getType()).getRank() == 1
                    ? row // a rank-1 operand's tile rows are its tiles
                    : add(s.firstCol ? s.firstCol : c(0), colInBlock);
    for (auto &[value, tileOf] : s.positional)
      memo[value] = tileOf(row, col, colInBlock);
  }
  Value r = *emitTile(s.operand, elements, s.ins, memo);
  storeExports(*this, s, elements, memo);
  // A bf16 operand computed here reads as the rounded value it would
  // have been stored as.
  return roundOnUse.contains(s.operand) ? roundToBf16(r) : r;
}

Value Lowering::loadStreamedAt(OperandStream &s, Value rowOff, int64_t col) {
  if (!s.produced) {
    const VBuf &slots = std::get<1>(s.sources.front());
    auto type = cast<RankedTensorType>(s.operand.getType());
    bool isInt = !type.getElementType().isF32() &&
                 !type.getElementType().isBF16();
    return tpu::VLoadOp::create(
        b, loc, isInt ? i32Reg() : f32Reg(), slots.arena,
        add(rowOff, slots.offset + col * geometryOf(type).tileBytes()), 0);
  }
  // The row's registers: once per tile row (and block of code).
  if (s.cachedRow != rowOff || s.cachedBlock != b.getInsertionBlock()) {
    s.cachedRow = rowOff;
    s.cachedBlock = b.getInsertionBlock();
    s.rowRegs = s.hoisted;
    Value tileRow = div(rowOff, s.rowBytes);
    if (!s.rows.empty()) {
      // Tile rows count across both slots: slot p's rows follow slot p-1's.
      Value slot = div(tileRow, s.slotRows);
      Value row = rem(tileRow, s.slotRows);
      for (const RowStream &r : s.rows)
        s.rowRegs[r.value] = loadRow(r, slot, row);
    }
    if (!s.rowwise.empty()) {
      Value row = add(s.blockRow, rem(tileRow, s.slotRows));
      for (auto &[value, tileOf] : s.rowwise)
        s.rowRegs[value] = tileOf(row);
    }
  }
  llvm::DenseMap<Value, Value> memo = s.rowRegs;
  if (!s.positional.empty()) {
    Value row = add(s.blockRow, rem(div(rowOff, s.rowBytes), s.slotRows));
    Value colInBlock = c(col);
    Value globalCol =
        cast<RankedTensorType>(s.operand.getType()).getRank() == 1
            ? row
            : add(s.firstCol ? s.firstCol : c(0), colInBlock);
    for (auto &[value, tileOf] : s.positional)
      memo[value] = tileOf(row, globalCol, colInBlock);
  }
  // Element offsets: the row's base (shared) plus a constant, so each
  // input's address is one add (Lowering::mul and add fold the constant).
  Value elements = add(div(rowOff, s.elemBytes), col * s.tileBytes / s.elemBytes);
  Value r = *emitTile(s.operand, elements, s.ins, memo);
  storeExports(*this, s, elements, memo);
  return roundOnUse.contains(s.operand) ? roundToBf16(r) : r;
}

namespace {

/// A loop kernel's root [N, K] that is only the operand of a concatenate
/// [N, M, K] along dim 1 (through the unit reshape to [N, 1, K] the
/// concatenate reads through): the kernel writes it straight into row `index`
/// of each [M, K] tile of the concatenation instead of into a buffer of its
/// own (DLRM's embedding lookups). Whole tiles of rows (N % 8 == 0), one
/// column tile (K <= 128) and one tile per [M, K] (M <= 8), so row n of the
/// root is one chunk of K elements.
struct ConcatSlice {
  hlo::ConcatenateOp concat;
  Value operand; // the reshape's result
  int64_t index; // its row in the [M, K] tiles
};

std::optional<ConcatSlice> concatSlice(Value root) {
  auto type = cast<RankedTensorType>(root.getType());
  if (type.getRank() != 2 || !root.hasOneUse())
    return std::nullopt;
  auto reshape = dyn_cast<hlo::ReshapeOp>(*root.getUsers().begin());
  if (!reshape || !reshape->hasOneUse() ||
      reshape.getType().getShape() !=
          ArrayRef<int64_t>{type.getDimSize(0), 1, type.getDimSize(1)})
    return std::nullopt;
  auto concat = dyn_cast<hlo::ConcatenateOp>(*reshape->getUsers().begin());
  if (!concat || concat.getDimension() != 1 ||
      concat->getBlock() != reshape->getBlock() ||
      !isa<hlo::FusionOp>(concat->getParentOp()))
    return std::nullopt;
  auto concatType = cast<RankedTensorType>(concat.getType());
  if (concatType.getElementType() != type.getElementType() ||
      type.getDimSize(0) % kSublanes != 0 ||
      type.getDimSize(1) > kLanes || concatType.getDimSize(1) > kSublanes)
    return std::nullopt;
  int64_t index = 0;
  for (Value input : concat.getInputs()) {
    if (input == reshape.getResult())
      return ConcatSlice{concat, input, index};
    index += cast<RankedTensorType>(input.getType()).getDimSize(1);
  }
  return std::nullopt;
}

/// One loop kernel (Lowering::emitLoopKernel): `roots` computed tile by
/// tile on vregs from the leaves collectLeaves finds, in blocks of whole
/// tiles with kLoopKernelSlots (3) slots per streamed array: block b+2's
/// inputs arrive while block b is computed and block b-1's outputs leave.
class LoopKernel {
public:
  LoopKernel(Lowering &l, ValueRange roots)
      : l(l), roots(roots),
        type(cast<RankedTensorType>(roots.front().getType())),
        g(geometryOf(type)) {}
  LogicalResult emit(function_ref<bool(Operation *)> isMember);

private:
  using RowStream = Lowering::RowStream;
  /// The block size and the number of slots.
  void planBlocks();
  /// The streams of the broadcast sources and the inputs, the resident
  /// broadcast sources (loaded), and the outputs' slots and HBM buffers.
  LogicalResult allocBuffers();
  /// Block `blk`'s inputs (`tiles` of them: blockTiles, or lastTiles for
  /// the last block) into slot blk % 2 (semaphore 0).
  void fetch(Value blk, int64_t tiles);
  /// Computes block `blk` once its inputs are in and its output slot's
  /// previous write-back (two blocks ago) has left, then writes it back
  /// (semaphore 1).
  void run(Value blk, int64_t tiles);
  /// Block `blk`'s write-back from slot `slot` (semaphore 1).
  void writeBack(Value slot, Value blk, int64_t tiles);
  /// The registers the tile row of tile `t` of block `blk` (in slot
  /// `slot`) reads from the per-row sources (streamed or kept whole).
  llvm::DenseMap<Value, Value> rowRegs(Value slot, Value blk, Value t);
  /// `rowMemo` and what tile `t` reads from the other broadcast sources
  /// and iotas.
  llvm::DenseMap<Value, Value>
  tileRegs(const llvm::DenseMap<Value, Value> &rowMemo, Value slot, Value blk,
           Value t);
  /// Tile rows of at most this many tiles are unrolled.
  static constexpr int64_t kUnrolledColumns = 16;

  Lowering &l;
  ValueRange roots;
  RankedTensorType type;
  Geometry g;
  SmallVector<Value> inputs;
  SmallVector<std::pair<Value, BroadcastForm>> spreads;
  bool streamsRows = false;
  int64_t blockTiles = 0, blocks = 0, blockRows = 0, slots = 1, blockCols = 0;
  /// The last block's tiles: blockTiles, or fewer when the tile count has
  /// no divisor near the block limit (a ragged last block).
  int64_t lastTiles = 0;
  SmallVector<std::tuple<Value, Value, VBuf>> colStreams;
  SmallVector<std::pair<Value, VBuf>> columns;
  SmallVector<RowStream> rows;
  llvm::DenseMap<Value, std::pair<VBuf, int64_t>> ins;
  SmallVector<std::pair<Value, VBuf>> inMems;
  llvm::DenseMap<Value, Value> hoisted;
  SmallVector<Resident> perTile;
  /// One VMEM block per slot and one HBM buffer per output. An output that
  /// is a slice of a concatenation (concatSlice) is written there row by
  /// row: `rowStride` bytes between rows from `offset` on (0: its own
  /// buffer, written whole).
  struct Out {
    Value value, mem;
    VBuf buf;
    int64_t tileBytes;
    int64_t offset = 0, rowStride = 0;
  };
  SmallVector<Out> outs;
  LogicalResult status = success();
};

LogicalResult LoopKernel::emit(function_ref<bool(Operation *)> isMember) {
  if (failed(collectLeaves(roots, type, isMember, inputs, spreads)))
    return failure();
  planBlocks();
  if (failed(allocBuffers()))
    return failure();
  // Every output slot starts free.
  if (slots > 1)
    tpu::SemSignalOp::create(l.b, l.loc, 1, slots * outs.size());
  if (lastTiles == blockTiles) {
    l.pipeline(
        blocks, [&](Value blk) { fetch(blk, blockTiles); },
        [&](Value blk) { run(blk, blockTiles); }, slots);
  } else {
    auto tiles = [&](bool last) { return last ? lastTiles : blockTiles; };
    l.pipelineRagged(
        blocks, [&](Value blk, bool last) { fetch(blk, tiles(last)); },
        [&](Value blk, bool last) { run(blk, tiles(last)); }, slots);
  }
  l.wait(1, std::min<int64_t>(blocks, slots) * outs.size());
  return status;
}

void LoopKernel::planBlocks() {
  // Blocks of whole tiles: a divisor of the tile count, at most
  // kLoopKernelBlockTiles per array and kLoopKernelVmemBytes for all
  // (counting every slot); whole tile rows when a broadcast source streams
  // with them.
  int64_t bytesPerTile = 0;
  for (Value v : llvm::concat<const Value>(inputs, roots))
    bytesPerTile += geometryOf(cast<RankedTensorType>(v.getType())).tileBytes();
  streamsRows = llvm::any_of(
      spreads, [](auto &p) { return p.second.spread == Spread::RowStream; });
  // A streamed per-column broadcast needs blocks within a tile row (or of
  // whole tile rows): each block fetches its columns.
  bool streamsCols = llvm::any_of(
      spreads, [](auto &p) { return p.second.spread == Spread::ColStream; });
  int64_t limit = std::min<int64_t>(
      fusion::kLoopKernelBlockTiles,
      std::max<int64_t>(1, fusion::kLoopKernelVmemBytes /
                               (fusion::kLoopKernelSlots * bytesPerTile)));
  auto wholeRows = [&](int64_t rows) {
    return g.colTiles *
           largestDivisorAtMost(rows, std::max<int64_t>(1, limit / g.colTiles));
  };
  blockTiles = streamsRows   ? wholeRows(g.rowTiles)
               : streamsCols ? largestDivisorAtMost(g.colTiles, limit)
                             : largestDivisorAtMost(g.tiles(), limit);
  // Short tile rows run unrolled (LoopKernel::run) in blocks of whole rows,
  // unless that makes the blocks less than half as large.
  if (!streamsRows && !streamsCols && g.colTiles <= kUnrolledColumns &&
      2 * wholeRows(g.tiles() / g.colTiles) >= blockTiles)
    blockTiles = wholeRows(g.tiles() / g.colTiles);
  // A tile count whose divisors under the limit are all small (452 = 4 x
  // 113 tiles of DLRM's [3616,8]) would make many blocks, each one DMA
  // latency: blocks of whole rows near the limit and a ragged last block.
  // Streamed per-column sources fetch a block's columns and per-row ones
  // its rows (when the array is one matrix): the latter take a ragged
  // block too, the former keep the divisor.
  int64_t rowsNearLimit = std::max<int64_t>(1, limit / g.colTiles);
  if (!streamsCols && (!streamsRows || g.outer == 1) &&
      4 * blockTiles < limit && g.rowTiles * g.outer > rowsNearLimit)
    blockTiles = rowsNearLimit * g.colTiles;
  blocks = ceilDiv(g.tiles(), blockTiles);
  lastTiles = g.tiles() - (blocks - 1) * blockTiles;
  blockRows = blockTiles / g.colTiles;
  slots = std::min(blocks, fusion::kLoopKernelSlots);
  blockCols = std::min(blockTiles, g.colTiles);
}

LogicalResult LoopKernel::allocBuffers() {
  FailureOr<SmallVector<std::tuple<Value, Value, VBuf>>> cols =
      columnStreams(l, spreads, blockCols, slots);
  if (failed(cols))
    return failure();
  colStreams = std::move(*cols);
  for (auto &[value, mem, buf] : colStreams)
    columns.push_back({mem, buf});
  FailureOr<SmallVector<RowStream>> rowsOr =
      streamsRows ? rowStreams(l, spreads, blockRows, slots)
                  : FailureOr<SmallVector<RowStream>>(SmallVector<RowStream>());
  if (failed(rowsOr))
    return failure();
  rows = std::move(*rowsOr);
  // One VMEM block per slot of an input or output; its tile bytes.
  auto slotBuffer = [&](Value v) -> std::pair<VBuf, int64_t> {
    auto t = cast<RankedTensorType>(v.getType());
    int64_t tileBytes = geometryOf(t).tileBytes();
    return {
        l.vmem(storageType(t.getElementType()), slots * blockTiles * tileBytes),
        tileBytes};
  };
  for (Value in : inputs) {
    FailureOr<Value> mem = l.memOf(in);
    if (failed(mem))
      return failure();
    auto [buf, tileBytes] = slotBuffer(in);
    ins[in] = {buf, tileBytes};
    inMems.push_back({*mem, buf});
  }
  // Broadcast sources: whole in VMEM, one DMA each before the loops; the
  // one-element ones are spread to every lane right away.
  FailureOr<SmallVector<Resident>> residents =
      loadResidents(l, spreads, hoisted);
  if (failed(residents))
    return failure();
  perTile = std::move(*residents);
  for (Value root : roots) {
    auto [buf, tileBytes] = slotBuffer(root);
    if (std::optional<ConcatSlice> slice = concatSlice(root)) {
      auto type = cast<RankedTensorType>(slice->concat.getType());
      Value &mem = l.hbm[slice->concat.getResult()];
      if (!mem)
        mem = l.allocHbm(type, slice->concat.getLoc());
      l.concatOperandsWritten.insert(slice->operand);
      Geometry g = geometryOf(type);
      outs.push_back({root, mem, buf, tileBytes,
                      slice->index * kLanes * g.elemBytes, g.tileBytes()});
      continue;
    }
    Value mem =
        l.allocHbm(cast<RankedTensorType>(root.getType()), root.getLoc());
    l.hbm[root] = mem;
    outs.push_back({root, mem, buf, tileBytes});
  }
  return success();
}

void LoopKernel::fetch(Value blk, int64_t tiles) {
  Value slot = l.rem(blk, slots);
  for (auto &[mem, buf] : inMems) {
    int64_t bytes = buf.bytes / slots;
    l.dma(mem, l.mul(blk, bytes), buf.arena,
          l.add(l.mul(slot, bytes), buf.offset), 1,
          bytes / blockTiles * tiles, 0, 0, 0);
  }
  for (const RowStream &r : rows)
    l.fetchRows(r, l.mul(blk, blockRows), l.mul(slot, r.slotBytes),
                tiles / g.colTiles);
  if (!columns.empty())
    fetchColumns(l, columns, l.rem(l.mul(blk, blockTiles), g.colTiles),
                 blockCols, l.mul(slot, columnSlotBytes(blockCols)));
}

void LoopKernel::run(Value blk, int64_t tiles) {
  Value slot = l.rem(blk, slots);
  int64_t fetched = inMems.size() + rows.size() + columns.size();
  if (fetched)
    l.wait(0, fetched); // block blk's (completions are consumed in order)
  if (slots > 1)
    l.wait(1, outs.size());
  Value firstTile = l.mul(slot, blockTiles);
  auto emitTiles = [&](Value inSlot, llvm::DenseMap<Value, Value> &memo) {
    for (Out &out : outs) {
      FailureOr<Value> r = l.emitTile(out.value, inSlot, ins, memo);
      if (failed(r)) {
        status = failure();
        return;
      }
      tpu::VStoreOp::create(l.b, l.loc, *r, out.buf.arena,
                            l.add(l.mul(inSlot, out.tileBytes), out.buf.offset),
                            0);
    }
  };
  if (blockTiles % g.colTiles == 0 && g.colTiles <= kUnrolledColumns) {
    // Blocks of whole tile rows, a row's tiles unrolled: each address one
    // add to the row's base, the per-row sources read once per row.
    l.loop(tiles / g.colTiles, [&](Value r) {
      Value rowFirst = l.mul(r, g.colTiles);
      llvm::DenseMap<Value, Value> rowMemo = rowRegs(slot, blk, rowFirst);
      for (int64_t ct = 0; ct < g.colTiles; ++ct) {
        Value t = l.add(rowFirst, ct);
        llvm::DenseMap<Value, Value> memo = tileRegs(rowMemo, slot, blk, t);
        emitTiles(l.add(firstTile, t), memo);
      }
    });
    return writeBack(slot, blk, tiles);
  }
  l.loop(tiles, [&](Value t) {
    llvm::DenseMap<Value, Value> memo =
        tileRegs(rowRegs(slot, blk, t), slot, blk, t);
    emitTiles(l.add(firstTile, t), memo);
  });
  writeBack(slot, blk, tiles);
}

void LoopKernel::writeBack(Value slot, Value blk, int64_t tiles) {
  for (Out &out : outs) {
    int64_t bytes = out.buf.bytes / slots;
    if (out.rowStride) {
      // Row r of the block (r * 128 lanes in the slot) to its row of the
      // concatenation, one tile per row there.
      Geometry og = geometryOf(cast<RankedTensorType>(out.value.getType()));
      int64_t blockRows = blockTiles * kSublanes;
      l.dma(out.buf.arena, l.add(l.mul(slot, bytes), out.buf.offset), out.mem,
            l.add(l.mul(blk, blockRows * out.rowStride), out.offset),
            tiles * kSublanes, og.cols * og.elemBytes, kLanes * og.elemBytes,
            out.rowStride, 1);
      continue;
    }
    l.dma(out.buf.arena, l.add(l.mul(slot, bytes), out.buf.offset), out.mem,
          l.mul(blk, bytes), 1, bytes / blockTiles * tiles, 0, 0, 1);
  }
}

llvm::DenseMap<Value, Value> LoopKernel::rowRegs(Value slot, Value blk,
                                                 Value t) {
  llvm::DenseMap<Value, Value> memo = hoisted;
  if (!rows.empty()) {
    Value row = l.div(t, g.colTiles);
    for (const RowStream &r : rows)
      memo[r.value] = l.loadRow(r, slot, row);
  }
  Value global = l.add(l.mul(blk, blockTiles), t);
  for (const Resident &r : perTile)
    if (r.form.spread == Spread::PerRow)
      memo[r.value] =
          residentAt(l, r, g, l.div(global, g.colTiles), Value());
  return memo;
}

llvm::DenseMap<Value, Value>
LoopKernel::tileRegs(const llvm::DenseMap<Value, Value> &rowMemo, Value slot,
                     Value blk, Value t) {
  llvm::DenseMap<Value, Value> memo = rowMemo;
  // The tile's place in the result, for the broadcast sources.
  Value global = l.add(l.mul(blk, blockTiles), t);
  Value colInBlock = blockTiles > g.colTiles ? l.rem(t, g.colTiles) : t;
  for (auto &[value, mem, buf] : colStreams)
    memo[value] = loadColumn(
        l, buf,
        !cast<RankedTensorType>(value.getType()).getElementType().isF32(),
        l.add(l.mul(slot, columnSlotBytes(blockCols) / (kLanes * 4)),
              colInBlock));
  for (auto &[value, form] : spreads)
    if (form.spread == Spread::Iota)
      memo[value] =
          l.iotaTile(value.getDefiningOp<hlo::IotaOp>(),
                     l.div(global, g.colTiles), l.rem(global, g.colTiles));
  for (const Resident &r : perTile)
    if (r.form.spread != Spread::PerRow)
      memo[r.value] = residentAt(l, r, g, l.div(global, g.colTiles),
                                 l.rem(global, g.colTiles));
  return memo;
}

} // namespace

LogicalResult
Lowering::emitLoopKernel(ValueRange roots,
                         function_ref<bool(Operation *)> isMember) {
  return LoopKernel(*this, roots).emit(isMember);
}

void populateFusionPatterns(RewritePatternSet &patterns, Lowering &l) {
  l.addKernel(patterns, &Lowering::lowerFusion, KernelKind::Direct);
}

} // namespace tpuc::hlotpu
