//===- HoistWhileInvariants.cpp - loop-invariant code motion for while ----===//
//
// tpuc-hoist-while-invariants: XLA's WhileLoopInvariantCodeMotion. See
// Passes.td for the contract.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "dialects/hlo/WhileLoopState.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace tpuc {
#define GEN_PASS_DEF_HOISTWHILEINVARIANTS
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// Ops not worth hoisting by themselves: free (reshape, bitcast, tuple
/// plumbing, constants) or larger than what they read (broadcast, iota),
/// so hoisting them alone would only lengthen live ranges. They are cloned
/// before the loop when a hoisted op needs them.
bool isTrivial(Operation *op) {
  return op->hasTrait<OpTrait::ConstantLike>() ||
         isa<hlo::BroadcastInDimOp, hlo::IotaOp, hlo::ReshapeOp,
             hlo::BitcastConvertOp, hlo::GetTupleElementOp, hlo::TupleOp>(op);
}

class Hoister {
public:
  Hoister(hlo::WhileOp loop) : state(loop), builder(loop) {}

  /// Hoists the invariant work of the loop body; returns the ops hoisted.
  int64_t run() {
    hlo::WhileOp loop = state.loop();
    Region &body = loop.getBody();
    if (!state.readsAreKnown(body))
      return 0;
    for (unsigned k = 0; k < state.size(); ++k)
      if (state.isInvariant(k))
        for (Value read : state.reads(body, k))
          invariantReads[read] = k;
    int64_t hoisted = 0;
    for (Operation &op :
         llvm::make_early_inc_range(body.front().without_terminator())) {
      if (!isInvariant(&op))
        continue;
      invariantOps.insert(&op);
      if (isTrivial(&op))
        continue;
      Operation *copy = cloneBeforeLoop(&op);
      op.replaceAllUsesWith(copy->getResults());
      ++hoisted;
    }
    // What the hoisting left unused in the body.
    SmallVector<Operation *> ops;
    for (Operation &op : body.front().without_terminator())
      ops.push_back(&op);
    for (Operation *op : llvm::reverse(ops))
      if (isOpTriviallyDead(op)) {
        outside.erase(op);
        op->erase();
      }
    return hoisted;
  }

private:
  bool definedInBody(Value value) const {
    return state.loop().getBody().isAncestor(value.getParentRegion());
  }

  bool isInvariantValue(Value value) const {
    if (!definedInBody(value) || invariantReads.count(value) ||
        outsideReads.count(value))
      return true;
    Operation *def = value.getDefiningOp();
    return def && invariantOps.count(def);
  }

  /// Pure work whose every input (also those its regions read from
  /// above) is invariant. Loops stay: hoisting one out of a loop that may
  /// run zero times could make the program run forever.
  bool isInvariant(Operation *op) const {
    if (isa<hlo::WhileOp>(op) || !isMemoryEffectFree(op))
      return false;
    bool invariant = true;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (!op->isAncestor(operand.getParentRegion()->getParentOp()) &&
            !isInvariantValue(operand))
          invariant = false;
    });
    return invariant;
  }

  /// The value before the loop that equals the invariant body value
  /// `value`.
  Value materialize(Value value) {
    if (!definedInBody(value))
      return value;
    // An invariant element read: its initial value.
    auto read = invariantReads.find(value);
    if (read != invariantReads.end()) {
      Value init = state.init(builder, read->second);
      invariantReads.erase(read);
      outsideReads[value] = init;
      return init;
    }
    auto known = outsideReads.find(value);
    if (known != outsideReads.end())
      return known->second;
    Operation *def = value.getDefiningOp();
    if (!outside.count(def))
      cloneBeforeLoop(def);
    return outside[def]->getResult(cast<OpResult>(value).getResultNumber());
  }

  Operation *cloneBeforeLoop(Operation *op) {
    IRMapping mapping;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (!op->isAncestor(operand.getParentRegion()->getParentOp()))
          mapping.map(operand, materialize(operand));
    });
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(state.loop());
    Operation *copy = builder.clone(*op, mapping);
    outside[op] = copy;
    return copy;
  }

  WhileLoopState state;
  OpBuilder builder;
  llvm::DenseMap<Value, unsigned> invariantReads; // not yet materialized
  llvm::DenseMap<Value, Value> outsideReads;      // materialized
  llvm::DenseSet<Operation *> invariantOps;
  llvm::DenseMap<Operation *, Operation *> outside;
};

struct HoistWhileInvariantsPass
    : impl::HoistWhileInvariantsBase<HoistWhileInvariantsPass> {
  void runOnOperation() override {
    // Inner loops first, so that their hoisted work can leave the outer
    // loop too.
    SmallVector<hlo::WhileOp> loops;
    getOperation()->walk([&](hlo::WhileOp loop) { loops.push_back(loop); });
    for (hlo::WhileOp loop : loops)
      numHoisted += Hoister(loop).run();
  }
};

} // namespace
} // namespace tpuc
