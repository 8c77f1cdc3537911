//===- ApplyBody.h - a reducer's body applied to whole arrays ---*- C++ -*-===//
//
// The expansions of reduce and reduce_window (tpuc-expand-variadic-reduce,
// tpuc-expand-reduce-window) apply the op's body elementwise to arrays: one
// clone of each rank-0 op of the body at the arrays' shape.
//
//===----------------------------------------------------------------------===//
#ifndef TPUC_PASSES_APPLYBODY_H
#define TPUC_PASSES_APPLYBODY_H

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace tpuc {

/// The body `body` of `op` applied elementwise to tensors of shape `shape`:
/// `args` stand for the body's arguments (accumulators, then inputs),
/// rank-0 constants and values from above become splats of `shape`. A body
/// op that is not a rank-0 elementwise op is an error at `op`.
inline mlir::FailureOr<llvm::SmallVector<mlir::Value>>
applyBody(mlir::OpBuilder &b, mlir::Operation *op, mlir::Region &body,
          mlir::ValueRange args, llvm::ArrayRef<int64_t> shape) {
  using namespace mlir;
  Location loc = op->getLoc();
  Block &block = body.front();
  auto typeOf = [&](Value scalar) {
    return RankedTensorType::get(shape, getElementTypeOrSelf(scalar));
  };
  IRMapping map;
  map.map(block.getArguments(), args);
  auto lookup = [&](Value v) -> Value {
    if (Value mapped = map.lookupOrNull(v))
      return mapped;
    // A rank-0 value defined above the op.
    Value splat = hlo::BroadcastInDimOp::create(b, loc, typeOf(v), v,
                                                b.getDenseI64ArrayAttr({}));
    map.map(v, splat);
    return splat;
  };
  auto rankZero = [](Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    return type && type.getRank() == 0;
  };
  for (Operation &inner : block.without_terminator()) {
    if (inner.getNumResults() != 1 || inner.getNumRegions() != 0 ||
        !llvm::all_of(inner.getOperands(), rankZero) ||
        !rankZero(inner.getResult(0)))
      return op->emitError()
             << "tpuc expands '" << op->getName()
             << "' bodies of rank-0 elementwise ops only, not '"
             << inner.getName() << "'";
    Value result = inner.getResult(0);
    Value mapped;
    if (auto cst = dyn_cast<hlo::ConstantOp>(inner)) {
      auto dense = cast<DenseElementsAttr>(cst.getValue());
      mapped = hlo::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(typeOf(result),
                                 dense.getSplatValue<Attribute>()));
    } else if (isa<hlo::BroadcastInDimOp, hlo::ReshapeOp>(inner)) {
      // Rank 0 to rank 0: the operand itself.
      mapped = lookup(inner.getOperand(0));
    } else if (inner.hasTrait<OpTrait::Elementwise>() ||
               isa<hlo::SelectOp, hlo::ClampOp, hlo::BitcastConvertOp>(
                   inner)) {
      OperationState state(loc, inner.getName());
      for (Value operand : inner.getOperands())
        state.addOperands(lookup(operand));
      state.addTypes(typeOf(result));
      state.addAttributes(inner.getAttrs());
      mapped = b.create(state)->getResult(0);
    } else {
      return op->emitError()
             << "tpuc expands '" << op->getName()
             << "' bodies of elementwise ops only, not '" << inner.getName()
             << "'";
    }
    map.map(result, mapped);
  }
  SmallVector<Value> results;
  for (Value v : block.getTerminator()->getOperands())
    results.push_back(lookup(v));
  return results;
}

} // namespace tpuc

#endif // TPUC_PASSES_APPLYBODY_H
