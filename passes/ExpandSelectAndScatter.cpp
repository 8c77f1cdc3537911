//===- ExpandSelectAndScatter.cpp - max-pool gradients as window offsets --===//
//
// tpuc-expand-select-and-scatter: a select_and_scatter the VPU kernel
// (passes/HloToTpu/ReduceWindow.cpp) does not take, whose select is a
// comparison (GE/GT/LE/LT, as max and min pooling emit) and whose scatter
// is an add becomes, per window offset, a strided slice of the operand, a
// running selection (the first element in row-major window order that the
// comparison prefers, as XLA defines it) and the selected source values
// padded back into place and summed. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/ExpandEach.h"
#include "passes/HloToTpu/Reduction.h"
#include "passes/OptionalArrays.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/Builders.h"

namespace tpuc {
#define GEN_PASS_DEF_EXPANDSELECTANDSCATTER
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// Window offsets a select_and_scatter may expand into.
constexpr int64_t kMaxWindowOffsets = 1024;

Value splat(OpBuilder &b, Location loc, RankedTensorType type, double f,
            int64_t i) {
  Type elem = type.getElementType();
  Attribute a = isa<FloatType>(elem) ? Attribute(b.getFloatAttr(elem, f))
                                     : Attribute(b.getIntegerAttr(elem, i));
  return hlo::ConstantOp::create(b, loc, DenseElementsAttr::get(type, a));
}

LogicalResult expand(hlo::SelectAndScatterOp op) {
  std::optional<hlo::ComparisonDirection> dir =
      hlotpu::poolSelectDirection(op);
  if (!dir)
    return op.emitError()
           << "tpuc compiles 'hlo.select_and_scatter' only with a select "
              "that is one GE, GT, LE or LT comparison of its arguments";
  if (!isa_and_nonnull<hlo::AddOp>(
          hlotpu::reductionCombiner(op.getScatter())))
    return op.emitError() << "tpuc compiles 'hlo.select_and_scatter' only "
                             "with a scatter that adds its arguments";
  auto cmp = cast<hlo::CompareOp>(hlotpu::reductionCombiner(op.getSelect()));

  RankedTensorType xType = op.getOperand().getType();
  RankedTensorType srcType = op.getSource().getType();
  RankedTensorType type = op.getType();
  int64_t rank = xType.getRank();
  ArrayRef<int64_t> window = op.getWindowDimensions();
  SmallVector<int64_t> strides = orDefault(op.getWindowStrides(), rank, 1);
  SmallVector<int64_t> padding = orDefault(op.getPadding(), 2 * rank, 0);
  int64_t offsets = 1;
  for (int64_t w : window)
    offsets *= w;
  if (offsets > kMaxWindowOffsets)
    return op.emitError() << "'hlo.select_and_scatter' with a window of "
                          << offsets << " elements (tpuc expands at most "
                          << kMaxWindowOffsets << ")";

  OpBuilder b(op);
  Location loc = op.getLoc();
  ArrayRef<int64_t> xs = xType.getShape(), os = srcType.getShape();
  auto i32Type = RankedTensorType::get(os, b.getI32Type());
  Value result = hlo::BroadcastInDimOp::create(b, loc, type, op.getInitValue(),
                                               b.getDenseI64ArrayAttr({}));
  if (srcType.getNumElements() == 0 || xType.getNumElements() == 0) {
    op.getResult().replaceAllUsesWith(result);
    op.erase();
    return success();
  }

  // The operand padded (with anything: padding is never selected).
  Value padded = op.getOperand();
  if (llvm::any_of(padding, [](int64_t p) { return p != 0; })) {
    SmallVector<int64_t> lo, hi;
    for (int64_t d = 0; d < rank; ++d) {
      lo.push_back(padding[2 * d]);
      hi.push_back(padding[2 * d + 1]);
    }
    Value zero = splat(
        b, loc, RankedTensorType::get({}, xType.getElementType()), 0.0, 0);
    padded = hlo::PadOp::create(
        b, loc, padded, zero, b.getDenseI64ArrayAttr(lo),
        b.getDenseI64ArrayAttr(hi),
        b.getDenseI64ArrayAttr(SmallVector<int64_t>(rank, 0)));
  }
  auto andOf = [&](Value x, Value y) -> Value {
    if (!x)
      return y;
    if (!y)
      return x;
    return hlo::AndOp::create(b, loc, x, y);
  };

  // The running selection: its value, its offset (-1 for none yet) and
  // whether any offset was valid yet (null: known to be everywhere).
  Value cur, idx, have;
  struct Offset {
    Value k; // the offset's index, splat over the source's shape
    SmallVector<int64_t> w;
  };
  SmallVector<Offset> used;
  for (int64_t k = 0; k < offsets; ++k) {
    SmallVector<int64_t> w(rank);
    for (int64_t d = rank - 1, r = k; d >= 0; --d) {
      w[d] = r % window[d];
      r /= window[d];
    }
    // Source positions o whose element o*s + w - lo lies in the operand:
    // a box [first, last] per dim; outside it, a mask of iota compares.
    Value valid;
    bool empty = false;
    for (int64_t d = 0; d < rank && !empty; ++d) {
      int64_t shift = w[d] - padding[2 * d], s = strides[d];
      int64_t first = shift >= 0 ? 0 : (-shift + s - 1) / s;
      int64_t last = std::min<int64_t>(
          os[d] - 1, xs[d] - 1 - shift < 0 ? -1 : (xs[d] - 1 - shift) / s);
      if (first > last) {
        empty = true;
        break;
      }
      Value iota;
      auto bound = [&](hlo::ComparisonDirection dir, int64_t v) {
        if (!iota)
          iota = hlo::IotaOp::create(b, loc, i32Type, d);
        valid =
            andOf(valid, hlo::CompareOp::create(b, loc, dir, iota,
                                                splat(b, loc, i32Type, 0, v),
                                                hlo::ComparisonTypeAttr()));
      };
      if (first > 0)
        bound(hlo::ComparisonDirection::GE, first);
      if (last < os[d] - 1)
        bound(hlo::ComparisonDirection::LE, last);
    }
    if (empty)
      continue;
    SmallVector<int64_t> limit;
    for (int64_t d = 0; d < rank; ++d)
      limit.push_back(w[d] + (os[d] - 1) * strides[d] + 1);
    Value v = hlo::SliceOp::create(b, loc, padded, b.getDenseI64ArrayAttr(w),
                                   b.getDenseI64ArrayAttr(limit),
                                   b.getDenseI64ArrayAttr(strides));
    Value kk = splat(b, loc, i32Type, 0, k);
    if (!cur) {
      cur = v;
      idx = valid ? hlo::SelectOp::create(b, loc, valid, kk,
                                          splat(b, loc, i32Type, 0, -1))
                        .getResult()
                  : kk;
      have = valid;
    } else {
      // The selected element stays where select(selected, v) holds and
      // something is selected, or where v is padding. Without padding
      // the compare only feeds the selects, which compute it in
      // registers (no array of its own).
      Value keep = hlo::CompareOp::create(b, loc, *dir, cur, v,
                                          cmp.getCompareTypeAttr());
      if (have)
        keep = hlo::AndOp::create(b, loc, keep, have);
      if (valid)
        keep =
            hlo::OrOp::create(b, loc, keep, hlo::NotOp::create(b, loc, valid));
      cur = hlo::SelectOp::create(b, loc, keep, cur, v);
      idx = hlo::SelectOp::create(b, loc, keep, idx, kk);
      if (have)
        have = valid ? hlo::OrOp::create(b, loc, have, valid).getResult()
                     : Value();
    }
    used.push_back({kk, w});
  }

  // Each offset's selected source values, placed at o*s + w - lo.
  Value zeros = splat(b, loc, srcType, 0.0, 0);
  Value zero = splat(
      b, loc, RankedTensorType::get({}, srcType.getElementType()), 0.0, 0);
  for (const Offset &o : used) {
    Value mine = hlo::CompareOp::create(b, loc, hlo::ComparisonDirection::EQ,
                                        idx, o.k, hlo::ComparisonTypeAttr());
    Value part = hlo::SelectOp::create(b, loc, mine, op.getSource(), zeros);
    SmallVector<int64_t> lo, hi, interior;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t shift = o.w[d] - padding[2 * d];
      lo.push_back(shift);
      hi.push_back(xs[d] - 1 - (shift + (os[d] - 1) * strides[d]));
      interior.push_back(strides[d] - 1);
    }
    Value placed = hlo::PadOp::create(
        b, loc, part, zero, b.getDenseI64ArrayAttr(lo),
        b.getDenseI64ArrayAttr(hi), b.getDenseI64ArrayAttr(interior));
    result = hlo::AddOp::create(b, loc, result, placed);
  }
  op.getResult().replaceAllUsesWith(result);
  op.erase();
  return success();
}

class ExpandSelectAndScatterPass
    : public impl::ExpandSelectAndScatterBase<ExpandSelectAndScatterPass> {
public:
  void runOnOperation() override {
    if (failed(expandEach<hlo::SelectAndScatterOp>(
            getOperation(),
            [](hlo::SelectAndScatterOp op) {
              return !hlotpu::selectAndScatterKernelTakes(op);
            },
            expand)))
      signalPassFailure();
  }
};
} // namespace
} // namespace tpuc
