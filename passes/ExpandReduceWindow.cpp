//===- ExpandReduceWindow.cpp - reduce_window as window-offset slices -----===//
//
// tpuc-expand-reduce-window: a reduce_window the VPU kernel
// (passes/HloToTpu/ReduceWindow.cpp) does not take becomes, per window
// offset, a strided slice of the operand padded (and base-dilated) with
// the init value, combined into the result by the body's op. See
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

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
  if (op.getInputs().size() != 1)
    return op.emitError() << "tpuc compiles 'hlo.reduce_window' with one "
                             "input only, not "
                          << op.getInputs().size();
  Operation *combine = bodyOp(op.getBody());
  if (!combine)
    return op.emitError()
           << "tpuc compiles 'hlo.reduce_window' in this form only with a "
              "body that is one add, multiply, maximum, minimum, and or or of "
              "its arguments";
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
  if (padded && !isIdentity(combine, init))
    return op.emitError() << "tpuc compiles a padded or base-dilated "
                             "'hlo.reduce_window' only with an init value "
                             "that is the identity of its body";

  OpBuilder b(op);
  Location loc = op.getLoc();
  Value x = input;
  if (padded) {
    SmallVector<int64_t> lo, hi, interior;
    for (int64_t d = 0; d < rank; ++d) {
      lo.push_back(padding[2 * d]);
      hi.push_back(padding[2 * d + 1]);
      interior.push_back(base[d] - 1);
    }
    x = hlo::PadOp::create(b, loc, x, init, b.getDenseI64ArrayAttr(lo),
                           b.getDenseI64ArrayAttr(hi),
                           b.getDenseI64ArrayAttr(interior));
  }
  // XLA's order: the init, then the window's elements in row-major order.
  Value acc = hlo::BroadcastInDimOp::create(b, loc, type, init,
                                            b.getDenseI64ArrayAttr({}));
  ArrayRef<int64_t> os = type.getShape();
  if (type.getNumElements() > 0)
    for (int64_t k = 0; k < offsets; ++k) {
      SmallVector<int64_t> start(rank), limit(rank);
      for (int64_t d = rank - 1, r = k; d >= 0; --d) {
        start[d] = (r % window[d]) * dil[d];
        r /= window[d];
        limit[d] = start[d] + (os[d] - 1) * strides[d] + 1;
      }
      Value v = hlo::SliceOp::create(b, loc, x, b.getDenseI64ArrayAttr(start),
                                     b.getDenseI64ArrayAttr(limit),
                                     b.getDenseI64ArrayAttr(strides));
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
