//===- ElementTypeChange.h - compute an op in another float type -*- C++ -*-===//
//
// Shared by tpuc-mixed-precision and tpuc-float-normalization: both move an
// op from one float type to another with converts around it, then fold the
// convert pairs that round-trip exactly.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_PASSES_ELEMENTTYPECHANGE_H
#define TPUC_PASSES_ELEMENTTYPECHANGE_H

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tpuc {

inline bool hasElementType(mlir::Type type, mlir::Type element) {
  auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
  return tensor && tensor.getElementType() == element;
}

/// Makes `op` read `to` where it read `from` (a convert on each such
/// operand) and, with `results`, produce `to` where it produced `from` (a
/// convert back for its users). Appends the converts to `converts`.
inline void computeIn(mlir::Operation *op, mlir::Type from, mlir::Type to,
                      bool results,
                      llvm::SmallVectorImpl<mlir::Operation *> &converts) {
  mlir::OpBuilder builder(op);
  for (mlir::OpOperand &operand : op->getOpOperands()) {
    mlir::Value value = operand.get();
    if (!hasElementType(value.getType(), from))
      continue;
    auto type = mlir::cast<mlir::RankedTensorType>(value.getType());
    auto convert = hlo::ConvertOp::create(builder, op->getLoc(),
                                          type.clone(to), value);
    operand.set(convert);
    converts.push_back(convert);
  }
  if (!results)
    return;
  builder.setInsertionPointAfter(op);
  for (mlir::Value result : op->getResults()) {
    if (!hasElementType(result.getType(), from))
      continue;
    auto type = mlir::cast<mlir::RankedTensorType>(result.getType());
    result.setType(type.clone(to));
    auto convert =
        hlo::ConvertOp::create(builder, op->getLoc(), type, result);
    result.replaceAllUsesExcept(convert, convert);
    converts.push_back(convert);
  }
}

/// Folds the converts in `converts` that undo each other exactly and erases
/// those left unused.
inline void foldConverts(llvm::ArrayRef<mlir::Operation *> converts) {
  if (converts.empty())
    return;
  mlir::GreedyRewriteConfig config;
  config.setStrictness(mlir::GreedyRewriteStrictness::ExistingOps);
  (void)mlir::applyOpPatternsGreedily(
      converts,
      mlir::FrozenRewritePatternSet(
          mlir::RewritePatternSet(converts.front()->getContext())),
      config);
}

} // namespace tpuc

#endif // TPUC_PASSES_ELEMENTTYPECHANGE_H
