//===- SimplifyWhileLoops.cpp - XLA's WhileLoopSimplifier -----------------===//
//
// tpuc-simplify-while-loops: see Passes.td for the contract.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/WhileLoopState.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"

namespace tpuc {
#define GEN_PASS_DEF_SIMPLIFYWHILELOOPS
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

struct Counts {
  int64_t forwarded = 0, removed = 0;
};

/// Replaces the loop's results by `values` (one per result) and erases it.
void replaceLoop(hlo::WhileOp loop, ValueRange values) {
  loop->replaceAllUsesWith(values);
  loop->erase();
}

void simplify(hlo::WhileOp loop, Counts &counts) {
  WhileLoopState state(loop);
  OpBuilder builder(loop);
  std::optional<WhileLoopState::CountedLoop> counted = state.countedLoop();

  // Results that are known before the loop runs: invariant elements are
  // their initial values; in a counted loop, the counter is its final
  // value, and an element the body sets to a value from before the loop
  // (hoisted work) is that value once the loop has run at least once.
  for (unsigned k = 0; k < state.size(); ++k) {
    bool isCounter = counted && counted->counter == k;
    Value next = state.next(k);
    bool setFromOutside = counted && counted->tripCount >= 1 && next &&
                          !loop.getBody().isAncestor(next.getParentRegion());
    if (!state.isInvariant(k) && !isCounter && !setFromOutside)
      continue;
    std::optional<SmallVector<Value>> reads = state.resultReads(k);
    if (!reads)
      continue;
    for (Value read : *reads) {
      if (read.use_empty())
        continue;
      Value known;
      if (state.isInvariant(k)) {
        known = state.init(builder, k);
      } else if (setFromOutside) {
        known = next;
      } else {
        auto type = cast<RankedTensorType>(read.getType());
        known = hlo::ConstantOp::create(
            builder, loop.getLoc(),
            DenseElementsAttr::get(
                type, builder.getIntegerAttr(type.getElementType(),
                                             counted->finalValue)));
      }
      read.replaceAllUsesWith(known);
      ++counts.forwarded;
    }
  }

  if (!counted || counted->tripCount > 1)
    return;
  // No iteration: the results are the initial state. One iteration: the
  // body once, on the initial state.
  ++counts.removed;
  if (counted->tripCount == 0)
    return replaceLoop(loop, loop.getOperand());
  Block &body = loop.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArguments(), loop.getOperand());
  for (Operation &op : body.without_terminator())
    builder.clone(op, mapping);
  SmallVector<Value> results;
  for (Value value : body.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(value));
  replaceLoop(loop, results);
}

struct SimplifyWhileLoopsPass
    : impl::SimplifyWhileLoopsBase<SimplifyWhileLoopsPass> {
  void runOnOperation() override {
    SmallVector<hlo::WhileOp> loops;
    getOperation()->walk([&](hlo::WhileOp loop) { loops.push_back(loop); });
    Counts counts;
    for (hlo::WhileOp loop : loops)
      simplify(loop, counts);
    numForwarded += counts.forwarded;
    numRemoved += counts.removed;
  }
};

} // namespace
} // namespace tpuc
