//===- CseScalars.cpp - one scalar instruction per value, per block -------===//
//
// tpuc-cse-scalars: common-subexpression elimination of the scalar
// arithmetic the kernels emit. See Passes.td for the contract.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/DenseMap.h"

namespace tpuc {
#define GEN_PASS_DEF_CSESCALARS
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// Pure arith ops on scalars (index or integer results): the address and
/// loop arithmetic. Vector ops are left alone: merging them keeps vregs
/// live, and there are 32.
bool isScalarArithmetic(Operation *op) {
  return op->getDialect() &&
         isa<arith::ArithDialect>(op->getDialect()) &&
         op->getNumRegions() == 0 && op->getNumResults() == 1 &&
         op->getResult(0).getType().isIntOrIndex() && isPure(op);
}

struct ScalarKey : llvm::DenseMapInfo<Operation *> {
  static unsigned getHashValue(const Operation *op) {
    return OperationEquivalence::computeHash(
        const_cast<Operation *>(op), OperationEquivalence::directHashValue,
        OperationEquivalence::ignoreHashValue,
        OperationEquivalence::IgnoreLocations);
  }
  static bool isEqual(const Operation *a, const Operation *b) {
    if (a == b)
      return true;
    if (a == getEmptyKey() || a == getTombstoneKey() || b == getEmptyKey() ||
        b == getTombstoneKey())
      return false;
    return OperationEquivalence::isEquivalentTo(
        const_cast<Operation *>(a), const_cast<Operation *>(b),
        OperationEquivalence::IgnoreLocations);
  }
};

class CseScalarsPass : public impl::CseScalarsBase<CseScalarsPass> {
public:
  void runOnOperation() override {
    getOperation()->walk([](Block *block) {
      llvm::DenseMap<Operation *, Operation *, ScalarKey> seen;
      for (Operation &op : llvm::make_early_inc_range(*block)) {
        if (!isScalarArithmetic(&op))
          continue;
        auto [it, inserted] = seen.try_emplace(&op, &op);
        if (inserted)
          continue;
        op.getResult(0).replaceAllUsesWith(it->second->getResult(0));
        op.erase();
      }
    });
  }
};
} // namespace
} // namespace tpuc
