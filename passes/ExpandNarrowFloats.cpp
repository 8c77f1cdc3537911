//===- ExpandNarrowFloats.cpp - f16/f8 in f32, rounded after each op ------===//
//
// tpuc-expand-narrow-floats: the VPU and the MXU compute on f32 (and bf16),
// so (as XLA TPU's float normalization does for f16 and the f8 types) every
// f16 or f8 value inside a function becomes an f32 array holding the same
// value, and every op whose f32 result can leave the type's value set is
// followed by the rounding to the type (NarrowFloatRounding: XLA's convert
// f32 -> the type). Data movement, compares, selects, min/max, negate and
// abs keep the set and need none. See Passes.td and docs/integers.md.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/ElementTypeChange.h"
#include "passes/LinalgBuilder.h"
#include "passes/NarrowFloat.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tpuc {
#define GEN_PASS_DEF_EXPANDNARROWFLOATS
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

bool isF16Tensor(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && isNarrowFloat(tensor.getElementType());
}

/// `t` with f16 and f8 tensors (also inside tuples: a while loop's state) made
/// f32; null if it holds none.
Type widenedType(Type t) {
  return widenTuples(t, [](Type a) -> Type {
    if (!isF16Tensor(a))
      return {};
    return cast<RankedTensorType>(a).clone(Float32Type::get(a.getContext()));
  });
}

RankedTensorType wideType(Type t) {
  return cast<RankedTensorType>(widenedType(t));
}

/// hlo ops for NarrowFloatRounding::build, splats of `type`.
struct HloRoundingOps {
  OpBuilder &b;
  Location loc;
  RankedTensorType type;

  Value constant(double c) { return LinalgBuilder(b, loc).splat(type, c); }
  Value reducePrecision(Value x, int e, int m) {
    return hlo::ReducePrecisionOp::create(b, loc, x, e, m);
  }
  Value multiply(Value x, Value y) {
    return hlo::MultiplyOp::create(b, loc, x, y);
  }
  Value roundNearestEven(Value x) {
    return hlo::RoundNearestEvenOp::create(b, loc, x);
  }
  Value abs(Value x) { return hlo::AbsOp::create(b, loc, x); }
  Value compare(hlo::ComparisonDirection d, Value x, Value y) {
    return hlo::CompareOp::create(b, loc, d, x, y, hlo::ComparisonTypeAttr());
  }
  Value lessThan(Value x, Value y) {
    return compare(hlo::ComparisonDirection::LT, x, y);
  }
  Value greaterThan(Value x, Value y) {
    return compare(hlo::ComparisonDirection::GT, x, y);
  }
  Value equal(Value x, Value y) {
    return compare(hlo::ComparisonDirection::EQ, x, y);
  }
  Value select(Value p, Value a, Value b2) {
    return hlo::SelectOp::create(b, loc, p, a, b2);
  }
};

/// Ops whose result holds f16 values when their operands do: data
/// movement, compares, selects, min/max, negate, abs, and the integral
/// roundings (an integral f16 value's floor is itself, a fraction's is
/// below 2048 and exact).
bool keepsF16(Operation *op) {
  return isa<hlo::BroadcastInDimOp, hlo::ReshapeOp, hlo::TransposeOp,
             hlo::ReverseOp, hlo::SliceOp, hlo::ConcatenateOp, hlo::PadOp,
             hlo::CopyOp, hlo::DynamicSliceOp, hlo::DynamicUpdateSliceOp,
             hlo::GatherOp, hlo::SelectOp, hlo::ClampOp, hlo::MaximumOp,
             hlo::MinimumOp, hlo::NegOp, hlo::AbsOp, hlo::SignOp,
             hlo::CompareOp, hlo::IsFiniteOp, hlo::SortOp, hlo::WhileOp,
             hlo::ConditionalOp, hlo::ReturnOp, hlo::TupleOp,
             hlo::GetTupleElementOp, hlo::FloorOp, hlo::CeilOp,
             hlo::RoundNearestEvenOp, hlo::RoundNearestAfzOp, func::ReturnOp>(
      op);
}

/// Ops whose region computes the combiner of a reduction: the kernels
/// want the bare f32 op there; the reduction's result is rounded instead.
bool isReducer(Operation *op) {
  return isa_and_nonnull<hlo::ReduceOp, hlo::ReduceWindowOp, hlo::ScatterOp,
                         hlo::SelectAndScatterOp, hlo::AllReduceOp,
                         hlo::ReduceScatterOp>(op);
}

class Widener {
public:
  explicit Widener(MLIRContext *ctx) : b(ctx) {}

  LogicalResult run(func::FuncOp func);

private:
  /// x (f32) rounded to the nearest value of `narrow`, kept in f32.
  Value roundTo(Type narrow, Value x) {
    HloRoundingOps ops{b, x.getLoc(), tensorType(x)};
    return NarrowFloatRounding::of(narrow)->build(ops, x);
  }
  /// Gives r's readers the rounding of r (built after r).
  void roundUses(Value r, Type narrow) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : r.getUses())
      uses.push_back(&use);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(r);
    Value v = roundTo(narrow, r);
    for (OpOperand *use : uses)
      use->set(v);
  }
  LogicalResult widen(Operation *op);

  OpBuilder b;
};

LogicalResult Widener::widen(Operation *op) {
  SmallVector<bool> f16Results;
  for (Type t : op->getResultTypes())
    f16Results.push_back(static_cast<bool>(widenedType(t)));
  bool anyF16 = llvm::is_contained(f16Results, true) ||
                llvm::any_of(op->getOperandTypes(),
                             [](Type t) { return bool(widenedType(t)); });
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        if (Type w = widenedType(arg.getType())) {
          arg.setType(w);
          anyF16 = true;
        }
  Location loc = op->getLoc();
  b.setInsertionPoint(op);
  if (isa<hlo::BitcastConvertOp>(op) && anyF16)
    return op->emitError() << "tpuc does not compute 'hlo.bitcast_convert' "
                              "on f16 or f8 types yet (docs/integers.md)";
  if (isa<func::ReturnOp>(op)) {
    // Entry results keep their f16 types (their values are f16 already).
    auto func = cast<func::FuncOp>(op->getParentOp());
    for (auto [i, t] : llvm::enumerate(func.getResultTypes()))
      if (isF16Tensor(t) && !isF16Tensor(op->getOperand(i).getType()))
        op->setOperand(i, hlo::ConvertOp::create(b, loc, t, op->getOperand(i)));
    return success();
  }
  if (auto cv = dyn_cast<hlo::ConvertOp>(op);
      cv && cv.getType() == cv.getOperand().getType()) {
    // From f16 (widened) to f32: the value itself.
    cv.getResult().replaceAllUsesWith(cv.getOperand());
    cv->erase();
    return success();
  }
  if (!anyF16)
    return success();
  if (auto c = dyn_cast<hlo::ConstantOp>(op)) {
    auto attr = dyn_cast<DenseFPElementsAttr>(c.getValue());
    if (!attr)
      return c.emitError("tpuc expects a dense f16 or f8 constant");
    auto wide = hlo::ConstantOp::create(
        b, loc, attr.mapValues(b.getF32Type(), [](const APFloat &v) {
          bool lost;
          APFloat w = v;
          w.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
          return w.bitcastToAPInt();
        }));
    c.getResult().replaceAllUsesWith(wide.getResult());
    c->erase();
    return success();
  }
  if (auto cv = dyn_cast<hlo::ConvertOp>(op)) {
    Value in = cv.getOperand();
    if (!f16Results[0])
      return success(); // from f16 (now f32): exact, reads the f32 value

    // To f16: to f32 first (exact for f32, bf16, and for the integers
    // f16 can hold; larger ones round past 65520 to inf either way),
    // then the rounding.
    Value wide = in;
    if (!tensorType(in).getElementType().isF32())
      wide = hlo::ConvertOp::create(b, loc, wideType(cv.getType()), in);
    Value r = roundTo(tensorType(cv.getResult()).getElementType(), wide);
    cv.getResult().replaceAllUsesWith(r);
    cv->erase();
    return success();
  }
  bool round = !keepsF16(op) && !isReducer(op->getParentOp());
  for (auto [r, isF16] : llvm::zip(op->getResults(), f16Results)) {
    if (!isF16)
      continue;
    Type narrow = getElementTypeOrSelf(r.getType());
    r.setType(widenedType(r.getType()));
    if (round && isa<RankedTensorType>(r.getType()))
      roundUses(r, narrow);
  }
  return success();
}

LogicalResult Widener::run(func::FuncOp func) {
  // f16 entry parameters are converted to f32 where they enter.
  return widenFunction(
      func, b, [](Type t) { return isF16Tensor(t) ? widenedType(t) : Type(); },
      [](Value, Type) {}, [&](Operation *op) { return widen(op); });
}

class ExpandNarrowFloatsPass
    : public WideningPass<impl::ExpandNarrowFloatsBase<ExpandNarrowFloatsPass>,
                          Widener> {
public:
  using WideningPass::WideningPass;
};
} // namespace
} // namespace tpuc
