//===- SimplifyWhileLoops.cpp - XLA's WhileLoopSimplifier -----------------===//
//
// tpuc-simplify-while-loops: see Passes.td for the contract.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "dialects/hlo/WhileLoopState.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/BitVector.h"

namespace tpuc {
#define GEN_PASS_DEF_SIMPLIFYWHILELOOPS
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

struct Counts {
  int64_t forwarded = 0, removed = 0, flattened = 0, deadElements = 0;
};

/// Replaces every `get_tuple_element [k]` of `tuple` (an hlo.tuple op's
/// result) by `elements[k]`, and erases the tuple when nothing else reads
/// it.
void forwardTupleReads(Value tuple, ValueRange elements) {
  for (Operation *user : llvm::make_early_inc_range(tuple.getUsers()))
    if (auto gte = dyn_cast<hlo::GetTupleElementOp>(user)) {
      gte.replaceAllUsesWith(elements[gte.getIndex()]);
      gte.erase();
    }
  if (tuple.use_empty())
    tuple.getDefiningOp()->erase();
}

/// A new loop with `operands` as its state and the regions of `loop`
/// (whose block arguments the caller adjusts); `loop` stays in place.
hlo::WhileOp rebuild(hlo::WhileOp loop, ValueRange operands) {
  OpBuilder builder(loop);
  auto fresh = hlo::WhileOp::create(builder, loop.getLoc(), operands,
                                    llvm::to_vector(loop->getDiscardableAttrs()));
  fresh.getCond().takeBody(loop.getCond());
  fresh.getBody().takeBody(loop.getBody());
  return fresh;
}

/// XLA's TryFlattenNestedTuples, one level: a tuple state becomes one
/// operand per element, so that the steps below see every element as its
/// own block argument and result.
hlo::WhileOp flattenTupleState(hlo::WhileOp loop, Counts &counts) {
  WhileLoopState state(loop);
  if (!state.isTuple())
    return loop;
  OpBuilder builder(loop);
  SmallVector<Value> inits;
  for (unsigned k = 0; k < state.size(); ++k)
    inits.push_back(state.init(builder, k));
  auto types = cast<TupleType>(loop.getOperand()[0].getType()).getTypes();
  hlo::WhileOp flat = rebuild(loop, inits);
  for (Region *region : {&flat.getCond(), &flat.getBody()}) {
    Block &block = region->front();
    SmallVector<Value> args;
    for (Type type : types)
      args.push_back(block.addArgument(type, loop.getLoc()));
    OpBuilder atBegin = OpBuilder::atBlockBegin(&block);
    auto whole = hlo::TupleOp::create(atBegin, loop.getLoc(), args);
    block.getArgument(0).replaceAllUsesWith(whole.getResult());
    block.eraseArgument(0);
    forwardTupleReads(whole, args);
  }
  Operation *ret = flat.getBody().front().getTerminator();
  Value next = ret->getOperand(0);
  SmallVector<Value> elements;
  if (auto built = next.getDefiningOp<hlo::TupleOp>()) {
    elements.assign(built.getOperands().begin(), built.getOperands().end());
  } else {
    OpBuilder retBuilder(ret);
    for (unsigned k = 0; k < state.size(); ++k)
      elements.push_back(
          hlo::GetTupleElementOp::create(retBuilder, loop.getLoc(), next, k));
  }
  ret->setOperands(elements);
  if (auto built = next.getDefiningOp<hlo::TupleOp>(); built && built.use_empty())
    built.erase();
  builder.setInsertionPointAfter(loop);
  auto result = hlo::TupleOp::create(builder, loop.getLoc(), flat.getResults());
  loop.getResult(0).replaceAllUsesWith(result.getResult());
  loop.erase();
  forwardTupleReads(result, flat.getResults());
  ++counts.flattened;
  return flat;
}

/// Whether element `k` of an operand-state loop only feeds itself: its
/// result and its condition argument are unused, and in the body what
/// reads it (transitively, pure top-level ops) reaches the terminator only
/// as element `k`.
bool isDeadElement(hlo::WhileOp loop, unsigned k) {
  if (!loop.getResult(k).use_empty() ||
      !loop.getCond().getArgument(k).use_empty())
    return false;
  Block &body = loop.getBody().front();
  Operation *ret = body.getTerminator();
  SmallVector<Value> work{body.getArgument(k)};
  llvm::DenseSet<Operation *> slice;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (user == ret) {
        if (use.getOperandNumber() != k)
          return false;
        continue;
      }
      if (user->getBlock() != &body || !isMemoryEffectFree(user))
        return false;
      if (slice.insert(user).second)
        llvm::append_range(work, user->getResults());
    }
  }
  return true;
}

/// XLA's TryRemoveDeadWhileParams: drops the elements that only feed
/// themselves (and the work computing them).
hlo::WhileOp removeDeadElements(hlo::WhileOp loop, Counts &counts) {
  Block &cond = loop.getCond().front(), &body = loop.getBody().front();
  llvm::BitVector dead(loop.getNumResults());
  for (unsigned k = 0; k < loop.getNumResults(); ++k)
    dead[k] = isDeadElement(loop, k);
  if (dead.none())
    return loop;
  // Make each dead element pass through, then erase the work that
  // computed it.
  Operation *ret = body.getTerminator();
  for (unsigned k : dead.set_bits())
    ret->setOperand(k, body.getArgument(k));
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
  SmallVector<Value> operands;
  for (unsigned k = 0; k < loop.getNumResults(); ++k)
    if (!dead[k])
      operands.push_back(loop.getOperand()[k]);
  hlo::WhileOp fresh = rebuild(loop, operands);
  ret->eraseOperands(dead);
  cond.eraseArguments(dead);
  body.eraseArguments(dead);
  unsigned next = 0;
  for (unsigned k = 0; k < loop.getNumResults(); ++k)
    if (!dead[k])
      loop.getResult(k).replaceAllUsesWith(fresh.getResult(next++));
  loop.erase();
  counts.deadElements += dead.count();
  return fresh;
}

/// Replaces the loop's results by `values` (one per result) and erases it.
void replaceLoop(hlo::WhileOp loop, ValueRange values) {
  loop->replaceAllUsesWith(values);
  loop->erase();
}

void simplify(hlo::WhileOp loop, Counts &counts) {
  loop = flattenTupleState(loop, counts);
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

  if (!counted || counted->tripCount > 1) {
    removeDeadElements(loop, counts);
    return;
  }
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
    numFlattened += counts.flattened;
    numDeadElements += counts.deadElements;
  }
};

} // namespace
} // namespace tpuc
