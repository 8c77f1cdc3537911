//===- ElementTypeChange.h - compute an op in another float type -*- C++ -*-===//
//
// Shared by tpuc-mixed-precision and tpuc-float-normalization: both move an
// op from one float type to another with converts around it, then fold the
// convert pairs that round-trip exactly. widenFunction and WideningPass
// are the walk and the pass of tpuc-expand-narrow-ints and tpuc-expand-narrow-floats,
// which compute a narrow type in a wide one; wrapToNarrow and narrowBounds
// are the narrow-integer forms that tpuc-expand-narrow-ints builds in hlo
// ops and the elementwise kernels in tpu ops.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_PASSES_ELEMENTTYPECHANGE_H
#define TPUC_PASSES_ELEMENTTYPECHANGE_H

#include "dialects/hlo/HloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tpuc {

inline bool hasElementType(mlir::Type type, mlir::Type element) {
  auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
  return tensor && tensor.getElementType() == element;
}

/// `t` with `widenArray` applied to its arrays, also inside tuples (a while
/// loop's state); null if it changes none (`widenArray` returns null for
/// an array it keeps).
inline mlir::Type
widenTuples(mlir::Type t,
            llvm::function_ref<mlir::Type(mlir::Type)> widenArray) {
  auto tuple = mlir::dyn_cast<mlir::TupleType>(t);
  if (!tuple)
    return widenArray(t);
  bool any = false;
  llvm::SmallVector<mlir::Type> types;
  for (mlir::Type e : tuple.getTypes()) {
    mlir::Type w = widenTuples(e, widenArray);
    any |= static_cast<bool>(w);
    types.push_back(w ? w : e);
  }
  return any ? mlir::TupleType::get(t.getContext(), types) : mlir::Type();
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

/// Converts each entry parameter of `func` that `wide` gives a type (null:
/// none) to that type where it enters (the parameter keeps its type;
/// `entered` sees each convert), then applies `widen` to every op of `func`
/// in pre-order, collected first so `widen` may replace ops; the first
/// failure (`widen` emitted the diagnostic) stops it.
inline mlir::LogicalResult
widenFunction(mlir::func::FuncOp func, mlir::OpBuilder &b,
              llvm::function_ref<mlir::Type(mlir::Type)> wide,
              llvm::function_ref<void(mlir::Value, mlir::Type)> entered,
              llvm::function_ref<mlir::LogicalResult(mlir::Operation *)> widen) {
  if (func.isExternal())
    return mlir::success();
  mlir::Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  for (mlir::BlockArgument arg : entry.getArguments())
    if (mlir::Type type = wide(arg.getType())) {
      auto convert = hlo::ConvertOp::create(b, arg.getLoc(), type, arg);
      arg.replaceAllUsesExcept(convert, convert);
      entered(convert, arg.getType());
    }
  llvm::SmallVector<mlir::Operation *> ops;
  func.walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *op) {
    if (op != func.getOperation())
      ops.push_back(op);
  });
  for (mlir::Operation *op : ops)
    if (mlir::failed(widen(op)))
      return mlir::failure();
  return mlir::success();
}

/// The pass of tpuc-expand-narrow-ints and tpuc-expand-narrow-floats (`Base` is its
/// generated base): a `Widener` built from the context runs on each
/// function of the module; the first failure fails the pass.
template <typename Base, typename Widener> class WideningPass : public Base {
public:
  using Base::Base;

  void runOnOperation() override {
    Widener widener(&this->getContext());
    for (auto func : this->getOperation().template getOps<mlir::func::FuncOp>())
      if (mlir::failed(widener.run(func)))
        return this->signalPassFailure();
  }
};

/// The smallest and largest value of the 8- or 16-bit integer type `narrow`.
inline std::pair<int64_t, int64_t> narrowBounds(mlir::Type narrow) {
  unsigned bits = narrow.getIntOrFloatBitWidth();
  if (narrow.isUnsignedInteger())
    return {0, (int64_t(1) << bits) - 1};
  return {-(int64_t(1) << (bits - 1)), (int64_t(1) << (bits - 1)) - 1};
}

/// `x`, s32 words, wrapped to the range of the 8- or 16-bit integer type
/// `narrow` (XLA's two's-complement wrap-around): the low bits masked for
/// an unsigned type, shifted left and arithmetically back for a signed one.
/// Built from the and/shift-left/arithmetic-shift-right ops of a dialect;
/// `splat(v)` gives each constant operand (asked for once per use: the
/// shift twice, which `splat` may answer with one value).
template <typename AndOp, typename ShlOp, typename ShraOp, typename Splat>
mlir::Value wrapToNarrow(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value x, mlir::Type narrow, Splat splat) {
  unsigned bits = narrow.getIntOrFloatBitWidth();
  if (narrow.isUnsignedInteger())
    return AndOp::create(b, loc, x, splat((int64_t(1) << bits) - 1));
  mlir::Value up = ShlOp::create(b, loc, x, splat(32 - bits));
  return ShraOp::create(b, loc, up, splat(32 - bits));
}

} // namespace tpuc

#endif // TPUC_PASSES_ELEMENTTYPECHANGE_H
