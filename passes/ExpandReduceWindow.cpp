//===- ExpandReduceWindow.cpp - reduce_window as window-offset slices -----===//
//
// tpuc-expand-reduce-window: a reduce_window the VPU kernel
// (passes/HloToTpu/ReduceWindow.cpp) does not take becomes, per window
// offset, a strided slice of the operand padded (and base-dilated) with
// the init value, combined into the result by the body's op; any other
// body or several inputs, the body applied elementwise to the slices, with
// a mask that skips the padding. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/ApplyBody.h"
#include "passes/ExpandEach.h"
#include "passes/HloToTpu/Reduction.h"
#include "passes/OptionalArrays.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

namespace tpuc {
#define GEN_PASS_DEF_EXPANDREDUCEWINDOW
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// Window offsets a reduce_window may expand into.
constexpr int64_t kMaxWindowOffsets = 1024;

/// What the VPU kernel takes: one operand, a window
/// hlotpu::poolWindowMismatch accepts.
bool kernelTakes(hlo::ReduceWindowOp op) {
  auto type = cast<RankedTensorType>(op.getInputs()[0].getType());
  return op.getInputs().size() == 1 &&
         !hlotpu::poolWindowMismatch(
             type.getRank(), op.getWindowDimensions(), op.getWindowStrides(),
             op.getPadding(), op.getBaseDilations(), op.getWindowDilations());
}

/// The body's one add, multiply, maximum, minimum, and or or of its two
/// arguments (on any element type), or null.
Operation *bodyOp(Region &body) {
  Operation *op = hlotpu::reductionCombiner(body);
  if (!op || !isa<hlo::AddOp, hlo::MultiplyOp, hlo::MaximumOp, hlo::MinimumOp,
                  hlo::AndOp, hlo::OrOp>(op))
    return nullptr;
  return op;
}

/// Whether `init` is a constant that `op` leaves its other operand
/// unchanged with (0 for add, 1 for multiply, -inf/+inf or the integer
/// extremes for max/min, false/true for or/and): padding with it then is
/// the same as skipping the padding, as XLA does.
bool isIdentity(Operation *op, Value init) {
  DenseElementsAttr attr;
  if (!matchPattern(init, m_Constant(&attr)) || !attr.isSplat())
    return false;
  Type elem = attr.getElementType();
  if (isa<FloatType>(elem)) {
    APFloat v = attr.getSplatValue<APFloat>();
    // +0 or -0: the sum starts at the init, so extra init terms change
    // nothing.
    if (isa<hlo::AddOp>(op))
      return v.isZero();
    if (isa<hlo::MultiplyOp>(op))
      return v.isExactlyValue(1.0);
    if (isa<hlo::MaximumOp>(op))
      return v.isInfinity() && v.isNegative();
    if (isa<hlo::MinimumOp>(op))
      return v.isInfinity() && !v.isNegative();
    return false;
  }
  APInt v = attr.getSplatValue<APInt>();
  bool isUnsigned = elem.isUnsignedInteger();
  unsigned bits = v.getBitWidth();
  if (isa<hlo::AddOp, hlo::OrOp>(op))
    return v.isZero();
  if (isa<hlo::MultiplyOp>(op))
    return v.isOne();
  if (isa<hlo::AndOp>(op))
    return v.isAllOnes();
  if (isa<hlo::MaximumOp>(op))
    return isUnsigned ? v.isZero() : v == APInt::getSignedMinValue(bits);
  if (isa<hlo::MinimumOp>(op))
    return isUnsigned ? v.isAllOnes() : v == APInt::getSignedMaxValue(bits);
  return false;
}

LogicalResult expand(hlo::ReduceWindowOp op) {
  Value input = op.getInputs()[0], init = op.getInitValues()[0];
  auto inType = cast<RankedTensorType>(input.getType());
  auto type = cast<RankedTensorType>(op.getResult(0).getType());
  int64_t rank = inType.getRank();
  ArrayRef<int64_t> window = op.getWindowDimensions();
  SmallVector<int64_t> strides = orDefault(op.getWindowStrides(), rank, 1);
  SmallVector<int64_t> padding = orDefault(op.getPadding(), 2 * rank, 0);
  SmallVector<int64_t> base = orDefault(op.getBaseDilations(), rank, 1);
  SmallVector<int64_t> dil = orDefault(op.getWindowDilations(), rank, 1);
  int64_t offsets = 1;
  for (int64_t w : window)
    offsets *= w;
  if (offsets > kMaxWindowOffsets)
    return op.emitError() << "'hlo.reduce_window' with a window of " << offsets
                          << " elements (tpuc expands at most "
                          << kMaxWindowOffsets << ")";
  bool padded = llvm::any_of(padding, [](int64_t p) { return p != 0; }) ||
                llvm::any_of(base, [](int64_t b) { return b != 1; });
  // One input whose body is one op that the init leaves unchanged: padding
  // with the init is skipping the padding.
  Operation *combine =
      op.getInputs().size() == 1 ? bodyOp(op.getBody()) : nullptr;
  bool identityPadding = combine && (!padded || isIdentity(combine, init));

  OpBuilder b(op);
  Location loc = op.getLoc();
  auto pad = [&](Value x, Value with) -> Value {
    SmallVector<int64_t> lo, hi, interior;
    for (int64_t d = 0; d < rank; ++d) {
      lo.push_back(padding[2 * d]);
      hi.push_back(padding[2 * d + 1]);
      interior.push_back(base[d] - 1);
    }
    return hlo::PadOp::create(b, loc, x, with, b.getDenseI64ArrayAttr(lo),
                              b.getDenseI64ArrayAttr(hi),
                              b.getDenseI64ArrayAttr(interior));
  };
  // The window offset k's element of every output position: a strided
  // slice of the padded array.
  ArrayRef<int64_t> os = type.getShape();
  auto sliceAt = [&](Value x, int64_t k) -> Value {
    SmallVector<int64_t> start(rank), limit(rank);
    for (int64_t d = rank - 1, r = k; d >= 0; --d) {
      start[d] = (r % window[d]) * dil[d];
      r /= window[d];
      limit[d] = start[d] + (os[d] - 1) * strides[d] + 1;
    }
    return hlo::SliceOp::create(b, loc, x, b.getDenseI64ArrayAttr(start),
                                b.getDenseI64ArrayAttr(limit),
                                b.getDenseI64ArrayAttr(strides));
  };
  auto broadcast = [&](Value scalar, ArrayRef<int64_t> shape) -> Value {
    return hlo::BroadcastInDimOp::create(
        b, loc, RankedTensorType::get(shape, getElementTypeOrSelf(scalar)),
        scalar, b.getDenseI64ArrayAttr({}));
  };

  if (identityPadding) {
    Value x = padded ? pad(input, init) : input;
    // XLA's order: the init, then the window's elements in row-major order.
    Value acc = broadcast(init, os);
    if (type.getNumElements() > 0)
      for (int64_t k = 0; k < offsets; ++k) {
        Value v = sliceAt(x, k);
        bool swapped = combine->getOperand(0) == op.getBody().getArgument(1);
        OperationState state(loc, combine->getName());
        state.addOperands(swapped ? ValueRange{v, acc} : ValueRange{acc, v});
        state.addTypes(type);
        acc = b.create(state)->getResult(0);
      }
    op.getResult(0).replaceAllUsesWith(acc);
    op.erase();
    return success();
  }

  // Any other body, several inputs, or padding the init is not neutral
  // for: the body applied elementwise per window offset; padding and
  // base-dilation holes are skipped as XLA skips them, by a pred mask of
  // the real elements padded along with the inputs (each step keeps the
  // accumulators where the mask slice is false).
  SmallVector<Value> xs(op.getInputs());
  Value mask;
  if (padded) {
    for (auto [x, with] : llvm::zip(xs, op.getInitValues()))
      x = pad(x, with);
    auto predScalar = [&](bool v) -> Value {
      return hlo::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(RankedTensorType::get({}, b.getI1Type()), v));
    };
    Value real = predScalar(true), hole = predScalar(false);
    mask = pad(broadcast(real, inType.getShape()), hole);
  }
  SmallVector<Value> acc;
  for (Value v : op.getInitValues())
    acc.push_back(broadcast(v, os));
  if (type.getNumElements() > 0)
    for (int64_t k = 0; k < offsets; ++k) {
      SmallVector<Value> args(acc);
      for (Value x : xs)
        args.push_back(sliceAt(x, k));
      FailureOr<SmallVector<Value>> next =
          applyBody(b, op, op.getBody(), args, os);
      if (failed(next))
        return failure();
      if (mask) {
        Value real = sliceAt(mask, k);
        for (auto [n, a] : llvm::zip(*next, acc))
          n = hlo::SelectOp::create(b, loc, real, n, a);
      }
      acc = std::move(*next);
    }
  op.replaceAllUsesWith(acc);
  op.erase();
  return success();
}

class ExpandReduceWindowPass
    : public impl::ExpandReduceWindowBase<ExpandReduceWindowPass> {
public:
  void runOnOperation() override {
    if (failed(expandEach<hlo::ReduceWindowOp>(
            getOperation(),
            [](hlo::ReduceWindowOp op) { return !kernelTakes(op); }, expand)))
      signalPassFailure();
  }
};
} // namespace
} // namespace tpuc
