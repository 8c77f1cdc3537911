//===- ExpandNarrowInts.cpp - s4/u4/s8/u8/s16/u16 computed in s32 ---------===//
//
// tpuc-expand-narrow-ints: the VPU computes on s32, so (as XLA TPU does for
// its narrow integers) every s4/u4/s8/u8/s16/u16 value inside a function becomes
// an s32 array holding the same integer (sign- or zero-extended), and every
// op whose s32 result can leave the narrow range is followed by a wrap to
// it: a shift left and back (arithmetic for signed types) or a mask
// (unsigned), XLA's two's-complement wrap-around. Data movement, compares,
// selects, min/max keep the range and need none. See Passes.td and
// docs/integers.md.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/ElementTypeChange.h"
#include "passes/LinalgBuilder.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tpuc {
#define GEN_PASS_DEF_EXPANDNARROWINTS
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// The narrow integer element type of `t` (4, 8 or 16 bits), else null.
IntegerType narrowType(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  if (!tensor)
    return {};
  auto elem = dyn_cast<IntegerType>(tensor.getElementType());
  if (!elem || (elem.getWidth() != 4 && elem.getWidth() != 8 &&
                elem.getWidth() != 16))
    return {};
  return elem;
}

RankedTensorType wideType(Type t) {
  auto tensor = cast<RankedTensorType>(t);
  return RankedTensorType::get(tensor.getShape(),
                               IntegerType::get(t.getContext(), 32));
}

/// `t` with its narrow integer tensors made s32, also inside tuples (a
/// while loop's state); null if it holds none.
Type widenedType(Type t) {
  return widenTuples(
      t, [](Type a) { return narrowType(a) ? Type(wideType(a)) : Type(); });
}

class Widener {
public:
  explicit Widener(MLIRContext *ctx) : b(ctx) {}

  LogicalResult run(func::FuncOp func);

private:
  Value splatLike(Value x, int32_t v) {
    LinalgBuilder lb(b, x.getLoc());
    return lb.splat(tensorType(x), v);
  }
  /// x (s32) wrapped to `elem`'s range. The form asks for one constant
  /// (the mask, or the shift for both shifts): one hlo.constant.
  Value wrap(Value x, IntegerType elem) {
    return wrapToNarrow<hlo::AndOp, hlo::ShiftLeftOp,
                        hlo::ShiftRightArithmeticOp>(
        b, x.getLoc(), x, elem, [&, made = Value()](int64_t v) mutable {
          return made ? made : made = splatLike(x, v);
        });
  }
  /// x (s32, in `elem`'s range) as the other extension of its bits: the
  /// zero extension of a signed value, the sign extension of an unsigned.
  Value reinterpret(Value x, IntegerType elem) {
    return wrap(x, IntegerType::get(b.getContext(), elem.getWidth(),
                                    elem.isUnsigned() ? IntegerType::Signless
                                                      : IntegerType::Unsigned));
  }
  LogicalResult widen(Operation *op);
  /// Gives r's readers what `build` makes of r (built after r).
  void replaceUses(Value r, llvm::function_ref<Value()> build) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : r.getUses())
      uses.push_back(&use);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(r);
    Value v = build();
    if (IntegerType n = original.lookup(r))
      original[v] = n;
    for (OpOperand *use : uses)
      use->set(v);
  }

  OpBuilder b;
  /// The narrow type each widened value had.
  DenseMap<Value, IntegerType> original;
};

/// Ops whose s32 result may leave the narrow range.
bool needsWrap(Operation *op) {
  return isa<hlo::AddOp, hlo::SubtractOp, hlo::MultiplyOp, hlo::NegOp,
             hlo::AbsOp, hlo::DivideOp, hlo::RemainderOp, hlo::ShiftLeftOp,
             hlo::ShiftRightLogicalOp, hlo::ShiftRightArithmeticOp, hlo::NotOp,
             hlo::IotaOp, hlo::ReduceOp, hlo::ReduceWindowOp, hlo::ScatterOp,
             hlo::AllReduceOp, hlo::ReduceScatterOp, hlo::PowerOp, hlo::SignOp,
             hlo::DotGeneralOp>(op);
}

/// Ops that take narrow values as the integers they hold (the result
/// needs no wrap).
bool keepsRange(Operation *op) {
  return isa<hlo::BroadcastInDimOp, hlo::ReshapeOp, hlo::TransposeOp,
             hlo::ReverseOp, hlo::SliceOp, hlo::ConcatenateOp, hlo::PadOp,
             hlo::CopyOp, hlo::DynamicSliceOp, hlo::DynamicUpdateSliceOp,
             hlo::GatherOp, hlo::SelectOp, hlo::ClampOp, hlo::MaximumOp,
             hlo::MinimumOp, hlo::AndOp, hlo::OrOp, hlo::XorOp, hlo::CompareOp,
             hlo::SortOp, hlo::WhileOp, hlo::ConditionalOp, hlo::ReturnOp,
             hlo::TupleOp, hlo::GetTupleElementOp, hlo::PopcntOp, hlo::ClzOp,
             hlo::ConvertOp, hlo::ConstantOp, hlo::MapOp, hlo::FusionOp,
             hlo::SelectAndScatterOp, hlo::AllGatherOp, hlo::AllToAllOp,
             hlo::CollectivePermuteOp, hlo::CollectiveBroadcastOp>(op);
}

LogicalResult Widener::widen(Operation *op) {
  // The narrow element type of each result (and of the operands) before
  // the types change.
  SmallVector<IntegerType> resultElems;
  for (Type t : op->getResultTypes())
    resultElems.push_back(narrowType(t));
  IntegerType operandElem;
  for (Value v : op->getOperands())
    if (IntegerType n = original.lookup(v))
      operandElem = n;
  // Tuples (a while's state) hold narrow arrays too: they change type,
  // their elements keep the range.
  bool anyNarrow = operandElem || llvm::any_of(op->getResultTypes(),
                                               [](Type t) {
                                                 return bool(widenedType(t));
                                               });
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        if (Type wide = widenedType(arg.getType())) {
          if (IntegerType n = narrowType(arg.getType()))
            original[arg] = n;
          arg.setType(wide);
          anyNarrow = true;
        }
  if (!anyNarrow)
    return success();
  if (isa<hlo::BitcastConvertOp, hlo::ConvolutionOp,
          hlo::RngBitGeneratorOp>(op) ||
      (!needsWrap(op) && !keepsRange(op) && !isa<func::ReturnOp>(op)))
    return op->emitError() << "tpuc does not compute '" << op->getName()
                           << "' on 4-, 8- or 16-bit integers yet "
                              "(docs/integers.md)";
  Location loc = op->getLoc();
  b.setInsertionPoint(op);
  if (isa<func::ReturnOp>(op)) {
    // Entry results keep their narrow types.
    auto func = cast<func::FuncOp>(op->getParentOp());
    for (auto [i, t] : llvm::enumerate(func.getResultTypes()))
      if (narrowType(t))
        op->setOperand(i, hlo::ConvertOp::create(b, loc, t, op->getOperand(i)));
    return success();
  }
  // Operand forms some ops need: the bits zero-extended for a logical
  // shift, popcnt and clz of a signed type, sign-extended for an
  // arithmetic shift of an unsigned one.
  if (operandElem) {
    bool zeroExtend =
        isa<hlo::ShiftRightLogicalOp, hlo::PopcntOp, hlo::ClzOp>(op) &&
        !operandElem.isUnsigned();
    bool signExtend =
        isa<hlo::ShiftRightArithmeticOp>(op) && operandElem.isUnsigned();
    if (zeroExtend || signExtend)
      op->setOperand(0, reinterpret(op->getOperand(0), operandElem));
  }
  if (auto c = dyn_cast<hlo::ConstantOp>(op)) {
    auto attr = dyn_cast<DenseIntElementsAttr>(c.getValue());
    if (!attr)
      return c.emitError("tpuc expects a dense integer constant");
    bool isUnsigned = resultElems[0].isUnsigned();
    SmallVector<APInt> values;
    for (const APInt &v : attr.getValues<APInt>())
      values.push_back(isUnsigned ? v.zext(32) : v.sext(32));
    auto type = wideType(c.getType());
    auto wide = hlo::ConstantOp::create(
        b, loc, DenseIntElementsAttr::get(type, values));
    original[wide.getResult()] = resultElems[0];
    c.getResult().replaceAllUsesWith(wide.getResult());
    c->erase();
    return success();
  }
  if (auto cv = dyn_cast<hlo::ConvertOp>(op)) {
    IntegerType to = resultElems[0];
    Type from = tensorType(cv.getOperand()).getElementType();
    if (!to) {
      // From a narrow (now s32) value: converts as is; to u32 the bits.
      if (cv.getType().getElementType().isUnsignedInteger(32)) {
        Value bits = hlo::BitcastConvertOp::create(b, loc, cv.getType(),
                                                   cv.getOperand());
        cv.getResult().replaceAllUsesWith(bits);
        cv->erase();
      }
      return success();
    }
    if (from.isUnsignedInteger(32)) {
      Value bits = hlo::BitcastConvertOp::create(b, loc, wideType(cv.getType()),
                                                 cv.getOperand());
      Value wrapped = wrap(bits, to);
      original[wrapped] = to;
      cv.getResult().replaceAllUsesWith(wrapped);
      cv->erase();
      return success();
    }
    cv.getResult().setType(wideType(cv.getType()));
    original[cv.getResult()] = to;
    if (isa<FloatType>(from)) {
      // Truncated and saturated to s32, then to the narrow range.
      auto [lo, hi] = narrowBounds(to);
      Value r = cv.getResult();
      replaceUses(r, [&] {
        return hlo::ClampOp::create(b, loc, splatLike(r, lo), r,
                                    splatLike(r, hi));
      });
    } else {
      replaceUses(cv.getResult(), [&] { return wrap(cv.getResult(), to); });
    }
    return success();
  }
  for (auto [r, elem] : llvm::zip(op->getResults(), resultElems)) {
    if (!elem) {
      if (Type wide = widenedType(r.getType()))
        r.setType(wide); // a tuple
      continue;
    }
    r.setType(wideType(r.getType()));
    original[r] = elem;
    if (isa<hlo::ClzOp>(op)) {
      // clz of the zero-extended bits, less the 32 - width leading zeros.
      replaceUses(r, [&, r = Value(r), elem = elem] {
        return hlo::SubtractOp::create(b, loc, r,
                                       splatLike(r, 32 - elem.getWidth()));
      });
      continue;
    }
    // Inside a reducer the kernel wants the bare op; the reduction's
    // result is wrapped instead (the wrap commutes with add and multiply).
    if (!needsWrap(op) ||
        isa<hlo::ReduceOp, hlo::ReduceWindowOp, hlo::ScatterOp,
            hlo::SelectAndScatterOp, hlo::AllReduceOp, hlo::ReduceScatterOp>(
            op->getParentOp()))
      continue;
    replaceUses(r, [&, r = Value(r), elem = elem] { return wrap(r, elem); });
  }
  return success();
}

LogicalResult Widener::run(func::FuncOp func) {
  // Narrow entry parameters are converted to s32 where they enter.
  return widenFunction(
      func, b,
      [](Type t) { return narrowType(t) ? Type(wideType(t)) : Type(); },
      [&](Value wide, Type t) { original[wide] = narrowType(t); },
      [&](Operation *op) { return widen(op); });
}

class ExpandNarrowIntsPass
    : public WideningPass<impl::ExpandNarrowIntsBase<ExpandNarrowIntsPass>, Widener> {
public:
  using WideningPass::WideningPass;
};
} // namespace
} // namespace tpuc
