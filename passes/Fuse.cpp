//===- Fuse.cpp - outline fusion plans into hlo.fusion kernels ------------===//
//
// compiler/fusion/FusionPlanner decides; this pass rewrites each planned
// group into an hlo.fusion whose region holds clones of the group's ops
// (with their locations), reads the values defined outside as operands and
// returns the results other ops still read.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/ModuleTarget.h"

#include "compiler/fusion/FusionPlanner.h"
#include "compiler/layout/TiledLayout.h"
#include "dialects/hlo/HloOps.h"
#include "runtime/target/Targets.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace tpuc {
#define GEN_PASS_DEF_FUSE
#include "passes/Passes.h.inc"
} // namespace tpuc

using namespace mlir;

namespace tpuc {
namespace {

/// The group's ops and clones, in block order.
SmallVector<Operation *> membersOf(const fusion::FusionGroup &group) {
  SmallVector<Operation *> members(group.ops.begin(), group.ops.end());
  members.append(group.clones.begin(), group.clones.end());
  llvm::sort(members, [](Operation *x, Operation *y) {
    return x->isBeforeInBlock(y);
  });
  return members;
}

/// The values the group reads from outside, in order of first use.
llvm::SetVector<Value> inputsOf(ArrayRef<Operation *> members) {
  llvm::SmallPtrSet<Operation *, 16> memberSet(members.begin(), members.end());
  llvm::SetVector<Value> inputs;
  for (Operation *op : members)
    for (Value operand : op->getOperands())
      if (!memberSet.contains(operand.getDefiningOp()))
        inputs.insert(operand);
  return inputs;
}

/// Builds the hlo.fusion of `group` before its first op, and maps each
/// result read outside it (by an op it does not own, or as an input of
/// another fusion) to the fusion's result.
hlo::FusionOp outline(const fusion::FusionGroup &group,
                      const llvm::DenseSet<Value> &fusionInputs,
                      llvm::DenseMap<Value, Value> &replacements) {
  SmallVector<Operation *> members = membersOf(group);
  llvm::SetVector<Value> inputs = inputsOf(members);
  llvm::SmallPtrSet<Operation *, 16> owned(group.ops.begin(), group.ops.end());
  Block *block = members.front()->getBlock();
  // A clone's original reads the owned op's value too, so it counts as
  // outside (unused results are dropped once dead clones are gone).
  SmallVector<Value> outputs;
  for (Operation *op : group.ops)
    for (Value result : op->getResults())
      if (fusionInputs.contains(result) ||
          llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !owned.contains(block->findAncestorOpInBlock(*user));
          }))
        outputs.push_back(result);

  Operation *root = group.ops.back();
  OpBuilder builder(members.front());
  auto fusion = hlo::FusionOp::create(
      builder, root->getLoc(), ValueRange(outputs).getTypes(),
      inputs.getArrayRef(),
      hlo::FusionKindAttr::get(builder.getContext(), group.kind));
  Block *body = builder.createBlock(&fusion.getBody());
  IRMapping mapping;
  for (Value input : inputs)
    mapping.map(input, body->addArgument(input.getType(), input.getLoc()));
  for (Operation *op : members)
    builder.clone(*op, mapping);
  SmallVector<Value> returned;
  for (Value output : outputs)
    returned.push_back(mapping.lookup(output));
  hlo::ReturnOp::create(builder, root->getLoc(), returned);
  for (auto [output, result] : llvm::zip(outputs, fusion.getResults()))
    replacements[output] = result;
  // Each output keeps the layout its op had (an entry result's layout is the
  // caller's contract; under --layout=preserve every layout is).
  SmallVector<Attribute> layouts;
  for (Value output : outputs)
    layouts.push_back(layout::recordedLayoutAttr(output));
  layout::setResultLayouts(fusion, layouts);
  return fusion;
}

/// Rebuilds `fusion` without the results nobody reads.
void dropUnusedResults(hlo::FusionOp fusion) {
  if (llvm::all_of(fusion.getResults(),
                   [](Value r) { return !r.use_empty(); }))
    return;
  Operation *ret = fusion.getBody().front().getTerminator();
  SmallVector<Value> kept, returned;
  SmallVector<Attribute> layouts;
  for (auto [result, value] :
       llvm::zip(fusion.getResults(), ret->getOperands()))
    if (!result.use_empty()) {
      kept.push_back(result);
      returned.push_back(value);
      layouts.push_back(layout::recordedLayoutAttr(result));
    }
  OpBuilder builder(fusion);
  auto slim = hlo::FusionOp::create(builder, fusion.getLoc(),
                                    ValueRange(kept).getTypes(),
                                    fusion.getOperands(), fusion.getKindAttr());
  slim.getBody().takeBody(fusion.getBody());
  slim.getBody().front().getTerminator()->setOperands(returned);
  layout::setResultLayouts(slim, layouts);
  for (auto [old, result] : llvm::zip(kept, slim.getResults()))
    old.replaceAllUsesWith(result);
  fusion.erase();
}

class FusePass : public impl::FuseBase<FusePass> {
public:
  using FuseBase::FuseBase;
  void runOnOperation() override;

private:
  LogicalResult fuseBlock(Block &block);

  fusion::FusionOptions options;
};

LogicalResult FusePass::fuseBlock(Block &block) {
  // Loop and branch bodies first: their kernels are planned on their own.
  for (Operation &op : block)
    if (isa<hlo::WhileOp, hlo::ConditionalOp>(op))
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          if (failed(fuseBlock(nested)))
            return failure();

  fusion::FusionPlan plan = fusion::planFusion(block, options);
  if (plan.groups.empty())
    return success();
  llvm::DenseSet<Value> fusionInputs;
  for (const fusion::FusionGroup &group : plan.groups)
    for (Value input : inputsOf(membersOf(group)))
      fusionInputs.insert(input);
  llvm::DenseMap<Value, Value> replacements;
  SmallVector<hlo::FusionOp> fusions;
  for (const fusion::FusionGroup &group : plan.groups)
    fusions.push_back(outline(group, fusionInputs, replacements));
  for (auto &[original, result] : replacements)
    original.replaceAllUsesWith(result);

  // Erase the fused ops, then the originals of clones nobody reads any
  // more, last first so that users go before producers.
  SmallVector<Operation *> fused, cloned;
  for (const fusion::FusionGroup &group : plan.groups) {
    fused.append(group.ops.begin(), group.ops.end());
    cloned.append(group.clones.begin(), group.clones.end());
  }
  auto lastFirst = [](Operation *x, Operation *y) {
    return y->isBeforeInBlock(x);
  };
  llvm::sort(fused, lastFirst);
  llvm::sort(cloned, lastFirst);
  cloned.erase(std::unique(cloned.begin(), cloned.end()), cloned.end());
  llvm::SmallPtrSet<Operation *, 32> erased(fused.begin(), fused.end());
  for (Operation *op : fused)
    op->erase();
  for (Operation *op : cloned)
    if (!erased.contains(op) && op->use_empty())
      op->erase();
  for (hlo::FusionOp fusion : fusions)
    dropUnusedResults(fusion);
  if (!sortTopologically(&block))
    return block.getParentOp()->emitError(
        "tpuc-fuse: the fusions form a cycle (a planner bug)");
  return success();
}

void FusePass::runOnOperation() {
  FailureOr<target::TargetSpec> spec =
      moduleTarget(getOperation(), targetName);
  if (failed(spec))
    return signalPassFailure();
  options.vmemBudgetBytes =
      vmemBudget > 0 ? vmemBudget
                     : static_cast<int64_t>(spec->machine.vmem_bytes());
  options.multiOutput = multiOutput;
  for (auto func : getOperation().getOps<func::FuncOp>())
    if (!func.isDeclaration() && failed(fuseBlock(func.getBody().front())))
      return signalPassFailure();
}

} // namespace
} // namespace tpuc
