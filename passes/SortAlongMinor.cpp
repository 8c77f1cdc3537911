//===- SortAlongMinor.cpp - sorts along the minor dimension ---------------===//
//
// tpuc-sort-along-minor: a sort along a dimension other than the minor one
// becomes transposes that make it the minor one, the sort along it, and the
// inverse transposes of its results (the sort kernel sorts rows). See
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/ExpandEach.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/Builders.h"

namespace tpuc {
#define GEN_PASS_DEF_SORTALONGMINOR
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// Whether `op` sorts along a dimension other than the minor one.
bool notAlongMinor(hlo::SortOp op) {
  auto type = cast<RankedTensorType>(op.getInputs()[0].getType());
  return type.getRank() > 1 &&
         static_cast<int64_t>(op.getDimension()) != type.getRank() - 1;
}

LogicalResult moveToMinor(hlo::SortOp op) {
  auto type = cast<RankedTensorType>(op.getInputs()[0].getType());
  int64_t rank = type.getRank();
  int64_t dim = static_cast<int64_t>(op.getDimension());
  // The sorted dimension last, the others in their order.
  SmallVector<int64_t> perm, inverse(rank);
  for (int64_t d = 0; d < rank; ++d)
    if (d != dim)
      perm.push_back(d);
  perm.push_back(dim);
  for (int64_t i = 0; i < rank; ++i)
    inverse[perm[i]] = i;

  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> inputs;
  SmallVector<Type> types;
  for (Value in : op.getInputs()) {
    Value t = hlo::TransposeOp::create(b, loc, in, b.getDenseI64ArrayAttr(perm));
    inputs.push_back(t);
    types.push_back(t.getType());
  }
  auto sorted = hlo::SortOp::create(b, loc, types, inputs, rank - 1,
                                    op.getIsStable());
  sorted.getComparator().takeBody(op.getComparator());
  for (auto [old, result] : llvm::zip(op.getResults(), sorted.getResults()))
    old.replaceAllUsesWith(hlo::TransposeOp::create(
        b, loc, result, b.getDenseI64ArrayAttr(inverse)));
  op.erase();
  return success();
}

class SortAlongMinorPass
    : public impl::SortAlongMinorBase<SortAlongMinorPass> {
public:
  void runOnOperation() override {
    (void)expandEach<hlo::SortOp>(getOperation(), notAlongMinor, moveToMinor);
  }
};
} // namespace
} // namespace tpuc
