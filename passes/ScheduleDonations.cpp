//===- ScheduleDonations.cpp - donated updates after the old value's reads ===//
//
// tpuc-schedule-donations: moves the op computing a donated output (a
// training step's weight update) after the last read of the parameter it
// overwrites, when nothing in between reads the update, so the lowering can
// write it in place. See Passes.td for the contract.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/hlo/HloDialect.h"
#include "dialects/hlo/HloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tpuc {
#define GEN_PASS_DEF_SCHEDULEDONATIONS
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// The last op of `block` (a top-level ancestor) that reads `value`, other
/// than `except`; null when there is none.
Operation *lastReader(Block &block, Value value, Operation *except) {
  Operation *last = nullptr;
  for (Operation *user : value.getUsers()) {
    Operation *top = block.findAncestorOpInBlock(*user);
    if (!top || top == except || top->hasTrait<OpTrait::IsTerminator>())
      continue;
    if (!last || last->isBeforeInBlock(top))
      last = top;
  }
  return last;
}

/// Whether every reader of `op`'s results in `block` (the terminator aside)
/// comes after `point`.
bool readAfter(Operation *op, Operation *point, Block &block) {
  for (Value result : op->getResults())
    for (Operation *user : result.getUsers()) {
      Operation *top = block.findAncestorOpInBlock(*user);
      if (top && !top->hasTrait<OpTrait::IsTerminator>() &&
          !point->isBeforeInBlock(top))
        return false;
    }
  return true;
}

class ScheduleDonationsPass
    : public impl::ScheduleDonationsBase<ScheduleDonationsPass> {
public:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp entry = hlo::entryFunction(module);
    if (!entry)
      return;
    Block &block = entry.getBody().front();
    // In the order of the aliases: each move only goes later, past reads.
    for (auto [alias, producer] : hlo::aliasProducers(module)) {
      if (!alias.getParameterIndex().empty() ||
          alias.getParameterNumber() >= block.getNumArguments() ||
          producer->getBlock() != &block || !isMemoryEffectFree(producer))
        continue;
      Operation *last = lastReader(
          block, block.getArgument(alias.getParameterNumber()), producer);
      if (!last || last->isBeforeInBlock(producer) ||
          !readAfter(producer, last, block))
        continue;
      producer->moveAfter(last);
    }
  }
};

} // namespace
} // namespace tpuc
