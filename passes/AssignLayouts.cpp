//===- AssignLayouts.cpp - padding-aware layout assignment ----------------===//

#include "passes/Passes.h"
#include "passes/ModuleTarget.h"

#include "compiler/layout/TiledLayout.h"
#include "dialects/hlo/HloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

namespace tpuc {
#define GEN_PASS_DEF_ASSIGNLAYOUTS
#include "passes/Passes.h.inc"
} // namespace tpuc

using namespace mlir;
using tpuc::layout::TiledLayout;

namespace tpuc {
namespace {

/// Ops whose result layout the pass may choose.
bool isFreeProducer(Operation *op) {
  if (op->getNumResults() != 1 ||
      (op->getNumRegions() > 0 && !isa<hlo::ReduceOp>(op)))
    return false;
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<hlo::SelectOp, hlo::ClampOp, hlo::BroadcastInDimOp, hlo::IotaOp,
             hlo::ConstantOp, hlo::TransposeOp, hlo::ReshapeOp,
             hlo::DynamicSliceOp, hlo::DynamicUpdateSliceOp,
             hlo::ConcatenateOp, hlo::PadOp, hlo::SliceOp, hlo::ReverseOp,
             hlo::ReduceOp, hlo::BitcastConvertOp>(op);
}

/// Whether operand `i` of `op` must have the layout of its result.
bool sharesLayout(Operation *op, unsigned i) {
  if (isa<hlo::DynamicUpdateSliceOp, hlo::PadOp>(op))
    return i == 0;
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<hlo::SelectOp, hlo::ClampOp, hlo::ConcatenateOp, hlo::SliceOp,
             hlo::ReverseOp>(op);
}

/// Ops that read an operand in any layout at no extra cost. A fusion's
/// kernel streams its operands in the layout they have (its parameters
/// take the layout of the value passed in), so a value read only by
/// fusions is as free as one read by a transpose.
bool readsAnyLayout(Operation *op) {
  return isa<hlo::BroadcastInDimOp, hlo::ReduceOp, hlo::TransposeOp,
             hlo::ReshapeOp, hlo::DynamicSliceOp, hlo::FusionOp>(op);
}

struct Group {
  SmallVector<Value> members;
  // Values with a fixed layout read by members' ops: (value, its layout).
  llvm::MapVector<Value, TiledLayout> fixedInputs;
  // Members read by ops that need their original layout.
  llvm::MapVector<Value, TiledLayout> fixedUses;
};

class AssignLayoutsPass : public impl::AssignLayoutsBase<AssignLayoutsPass> {
public:
  using AssignLayoutsBase::AssignLayoutsBase;
  void runOnOperation() override;

private:
  int64_t padded(Value value, const TiledLayout &layout);
  LogicalResult assign(func::FuncOp func);

  target::TilingRules rules;
};

int64_t AssignLayoutsPass::padded(Value value, const TiledLayout &layout) {
  auto type = cast<RankedTensorType>(value.getType());
  std::string error;
  FailureOr<layout::ByteSizes> sizes = layout::byteSizes(
      type, layout::withDefaultTiles(type, {layout.minorToMajor, {}}, rules),
      error);
  return succeeded(sizes) ? sizes->padded
                          : std::numeric_limits<int64_t>::max() / 4;
}

/// Candidate layouts of rank `rank`: each ordered pair of minor dims, the
/// rest major to minor (only the two minor dims change the padding).
static SmallVector<TiledLayout> candidates(int64_t rank) {
  SmallVector<TiledLayout> all;
  for (int64_t minor = 0; minor < rank; ++minor)
    for (int64_t second = 0; second < rank; ++second) {
      if (minor == second)
        continue;
      TiledLayout layout;
      layout.minorToMajor = {minor, second};
      for (int64_t d = rank - 1; d >= 0; --d)
        if (d != minor && d != second)
          layout.minorToMajor.push_back(d);
      all.push_back(layout);
    }
  return all;
}

LogicalResult AssignLayoutsPass::assign(func::FuncOp func) {
  Block &body = func.getBody().front();
  bool isEntry = func.isPublic();
  // Values the pass may re-layout: results of free producers in the body,
  // of rank 2 or more (lower ranks have one layout), and the entry
  // arguments when allowed.
  llvm::DenseMap<Value, int> node;
  SmallVector<Value> values;
  SmallVector<TiledLayout> original;
  auto addNode = [&](Value v) -> LogicalResult {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || type.getRank() < 2)
      return success();
    FailureOr<TiledLayout> layout = layout::recordedLayout(v);
    if (failed(layout))
      return failure();
    node[v] = values.size();
    values.push_back(v);
    original.push_back({layout->minorToMajor, {}});
    return success();
  };
  if (isEntry && changeEntryLayouts)
    for (BlockArgument arg : body.getArguments())
      if (failed(addNode(arg)))
        return failure();
  for (Operation &op : body)
    if (isFreeProducer(&op) && failed(addNode(op.getResult(0))))
      return failure();

  // Union-find over nodes that must share a layout.
  SmallVector<int> parent(values.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int v) {
    while (parent[v] != v)
      v = parent[v] = parent[parent[v]];
    return v;
  };
  for (Operation &op : body) {
    if (op.getNumResults() != 1 || !node.count(op.getResult(0)))
      continue;
    for (auto [i, operand] : llvm::enumerate(op.getOperands()))
      if (sharesLayout(&op, i) && node.count(operand))
        parent[find(node[operand])] = find(node[op.getResult(0)]);
  }
  llvm::MapVector<int, Group> groups;
  for (auto [i, v] : llvm::enumerate(values))
    groups[find(i)].members.push_back(v);
  // Boundaries: fixed values flowing into a group, group values flowing
  // into uses that need their recorded layout.
  for (Operation &op : body) {
    bool isReturn = isa<func::ReturnOp>(op);
    bool keepsResult =
        op.getNumResults() == 1 && node.count(op.getResult(0));
    for (auto [i, operand] : llvm::enumerate(op.getOperands())) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type || type.getRank() < 2)
        continue;
      if (keepsResult && sharesLayout(&op, i)) {
        if (node.count(operand))
          continue;
        FailureOr<TiledLayout> layout = layout::recordedLayout(operand);
        if (failed(layout))
          return failure();
        groups[find(node[op.getResult(0)])].fixedInputs.insert(
            {operand, {layout->minorToMajor, {}}});
        continue;
      }
      if (!node.count(operand) || (!isReturn && readsAnyLayout(&op)))
        continue;
      if (isReturn && isEntry && changeEntryLayouts)
        continue;
      int n = node[operand];
      groups[find(n)].fixedUses.insert({operand, original[n]});
    }
  }

  OpBuilder builder(func.getContext());
  for (auto &[root, group] : groups) {
    (void)root;
    int64_t rank =
        cast<RankedTensorType>(group.members.front().getType()).getRank();
    // What the recorded layouts cost (no copies), and each candidate.
    int64_t keep = 0;
    for (Value v : group.members)
      keep += padded(v, original[node[v]]);
    auto cost = [&](const TiledLayout &layout) {
      int64_t total = 0;
      for (Value v : group.members)
        total += padded(v, layout);
      for (auto &[v, need] : group.fixedInputs)
        if (need != layout)
          total += padded(v, layout) + padded(v, need);
      for (auto &[v, need] : group.fixedUses)
        if (need != layout)
          total += padded(v, layout) + padded(v, need);
      return total;
    };
    std::optional<TiledLayout> best;
    int64_t bestCost = keep;
    for (const TiledLayout &layout : candidates(rank)) {
      int64_t c = cost(layout);
      if (c < bestCost) {
        best = layout;
        bestCost = c;
      }
    }
    if (!best)
      continue;
    auto record = [&](Operation *op, Value v, const TiledLayout &layout) {
      std::string t = layout::printLayout(layout);
      bool dflt = layout.minorToMajor == layout::descendingOrder(rank);
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        if (dflt)
          func.removeArgAttr(arg.getArgNumber(), "hlo.layout");
        else
          func.setArgAttr(arg.getArgNumber(), "hlo.layout",
                          builder.getStringAttr(t));
      } else if (dflt) {
        op->removeAttr("hlo.layout");
      } else {
        op->setAttr("hlo.layout", builder.getStringAttr(t));
      }
    };
    for (Value v : group.members)
      record(v.getDefiningOp(), v, *best);
    // A copy into the group's layout for each fixed input, before its first
    // reader in the group; a copy back for each use that needs the old one.
    auto insertCopy = [&](Value v, Operation *before, const TiledLayout &to,
                          llvm::function_ref<bool(OpOperand &)> replaceIf) {
      builder.setInsertionPoint(before);
      auto copy = hlo::CopyOp::create(builder, v.getLoc(), v);
      record(copy, copy.getResult(), to);
      v.replaceUsesWithIf(copy.getResult(), [&](OpOperand &use) {
        return use.getOwner() != copy && replaceIf(use);
      });
    };
    llvm::SmallPtrSet<Value, 8> memberSet(group.members.begin(),
                                          group.members.end());
    for (auto &[v, need] : group.fixedInputs) {
      if (need == *best)
        continue;
      Operation *first = nullptr;
      for (OpOperand &use : v.getUses()) {
        Operation *user = use.getOwner();
        if (user->getBlock() == &body && user->getNumResults() == 1 &&
            memberSet.contains(user->getResult(0)) &&
            sharesLayout(user, use.getOperandNumber()) &&
            (!first || user->isBeforeInBlock(first)))
          first = user;
      }
      if (first)
        insertCopy(v, first, *best, [&](OpOperand &use) {
          Operation *user = use.getOwner();
          return user->getNumResults() == 1 &&
                 memberSet.contains(user->getResult(0)) &&
                 sharesLayout(user, use.getOperandNumber());
        });
    }
    for (auto &[v, need] : group.fixedUses) {
      if (need == *best)
        continue;
      auto needsOld = [&](OpOperand &use) {
        Operation *user = use.getOwner();
        if (isa<func::ReturnOp>(user))
          return !(isEntry && changeEntryLayouts);
        if (readsAnyLayout(user))
          return false;
        return !(user->getNumResults() == 1 &&
                 memberSet.contains(user->getResult(0)) &&
                 sharesLayout(user, use.getOperandNumber()));
      };
      Operation *first = nullptr;
      for (OpOperand &use : v.getUses()) {
        Operation *user = body.findAncestorOpInBlock(*use.getOwner());
        if (user && needsOld(use) && (!first || user->isBeforeInBlock(first)))
          first = user;
      }
      if (first)
        insertCopy(v, first, need, needsOld);
    }
  }
  return success();
}

void AssignLayoutsPass::runOnOperation() {
  FailureOr<target::TargetSpec> spec =
      moduleTarget(getOperation(), targetName);
  if (failed(spec))
    return signalPassFailure();
  rules = spec->tiling;
  for (auto func : getOperation().getOps<func::FuncOp>())
    if (!func.isDeclaration() && failed(assign(func)))
      return signalPassFailure();
}

} // namespace
} // namespace tpuc
