//===- StrengthReduceDots.cpp - small and integer dots on the VPU ---------===//
//
// tpuc-strength-reduce-dots: dot_general as broadcast + multiply +
// reduce(add) when the MXU would mostly multiply padding, and for every
// integer dot (the MXU multiplies bf16 only). See Passes.td for the
// contract and the cost rule.
//
//===----------------------------------------------------------------------===//

#include "passes/DotCost.h"
#include "passes/DotOperands.h"
#include "passes/ModuleTarget.h"
#include "passes/Passes.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace tpuc {
#define GEN_PASS_DEF_STRENGTHREDUCEDOTS
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// The accumulation type of a dot of `result` elements, as the reference
/// interpreter accumulates (f32 for bf16/f16/f32 results, the result's own
/// integer type for integers: a wrapping sum whose low bits are those of
/// the interpreter's 64-bit one), or null when the dot stays as it is.
Type accumulationType(hlo::DotGeneralOp op) {
  Type result = op.getType().getElementType();
  auto supported = [](Type t) {
    return t.isF32() || t.isBF16() || t.isF16() ||
           (t.isInteger() && t.getIntOrFloatBitWidth() > 1 &&
            t.getIntOrFloatBitWidth() <= 32);
  };
  if (!supported(result) ||
      !supported(op.getLhs().getType().getElementType()) ||
      !supported(op.getRhs().getType().getElementType()))
    return nullptr;
  if (isa<FloatType>(result))
    return Float32Type::get(op.getContext());
  return result;
}

struct StrengthReduceDot : public OpRewritePattern<hlo::DotGeneralOp> {
  StrengthReduceDot(MLIRContext *context, DotMachine machine)
      : OpRewritePattern(context), machine(machine) {}
  DotMachine machine;

  LogicalResult matchAndRewrite(hlo::DotGeneralOp op,
                                PatternRewriter &rewriter) const override {
    Type acc = accumulationType(op);
    if (!acc)
      return failure();
    hlo::DotDimensionNumbersAttr dn = op.getDotDimensionNumbers();
    ArrayRef<int64_t> ls = op.getLhs().getType().getShape(),
                      rs = op.getRhs().getType().getShape();
    ArrayRef<int64_t> lb = dn.getLhsBatch(), rb = dn.getRhsBatch(),
                      lc = dn.getLhsContracting(), rc = dn.getRhsContracting();
    SmallVector<int64_t> lf = dotFreeDims(ls.size(), lb, lc),
                         rf = dotFreeDims(rs.size(), rb, rc);
    DotSizes s = dotSizes(op);
    bool integer = !isa<FloatType>(acc);
    // Tiny batched float dots have a kernel of their own (Dot.cpp).
    if (!integer && (isVpuBatchedDot(op) || !vpuDotIsCheaper(s, machine)))
      return failure();
    bool batchMinor = batchMinorVregs(s) < batchMajorVregs(s);
    Location loc = op.getLoc();

    // The operands in the accumulation type, their groups in the product's
    // order: batch-major lhs [B?,M,K] and rhs [B?,K,N] into the product
    // [B?,M,K,N]; batch-minor lhs [M,K,B] and rhs [N,K,B] into [M,N,K,B].
    // K is reduced either way and the minor dim stays (the leading-form
    // reduce kernel).
    bool batched = !lb.empty();
    auto operand = [&](Value v, ArrayRef<ArrayRef<int64_t>> groups,
                       ArrayRef<int64_t> sizes) {
      SmallVector<int64_t> perm, shape;
      for (auto [group, size] : llvm::zip(groups, sizes)) {
        llvm::append_range(perm, group);
        shape.push_back(size);
      }
      v = relayoutOperand(rewriter, loc, v, perm, shape);
      auto type = cast<RankedTensorType>(v.getType());
      if (type.getElementType() != acc)
        v = hlo::ConvertOp::create(rewriter, loc, type.clone(acc), v);
      return v;
    };
    Value lhs, rhs;
    SmallVector<int64_t> shape, lhsDims, rhsDims;
    if (batchMinor) {
      lhs = operand(op.getLhs(), {lf, lc, lb}, {s.m, s.k, s.b});
      rhs = operand(op.getRhs(), {rf, rc, rb}, {s.n, s.k, s.b});
      shape = {s.m, s.n, s.k, s.b};
      lhsDims = {0, 2, 3};
      rhsDims = {1, 2, 3};
    } else if (batched) {
      lhs = operand(op.getLhs(), {lb, lf, lc}, {s.b, s.m, s.k});
      rhs = operand(op.getRhs(), {rb, rc, rf}, {s.b, s.k, s.n});
      shape = {s.b, s.m, s.k, s.n};
      lhsDims = {0, 1, 2};
      rhsDims = {0, 2, 3};
    } else {
      lhs = operand(op.getLhs(), {lf, lc}, {s.m, s.k});
      rhs = operand(op.getRhs(), {rc, rf}, {s.k, s.n});
      shape = {s.m, s.k, s.n};
      lhsDims = {0, 1};
      rhsDims = {1, 2};
    }
    auto productType = RankedTensorType::get(shape, acc);
    Value product = hlo::MultiplyOp::create(
        rewriter, loc,
        hlo::BroadcastInDimOp::create(rewriter, loc, productType, lhs,
                                      rewriter.getDenseI64ArrayAttr(lhsDims)),
        hlo::BroadcastInDimOp::create(rewriter, loc, productType, rhs,
                                      rewriter.getDenseI64ArrayAttr(rhsDims)));
    Value sum = reduceSum(rewriter, loc, product, shape.size() - 2);
    if (batchMinor) // [M,N,B] -> [B,M,N]
      sum = hlo::TransposeOp::create(rewriter, loc, sum,
                                     rewriter.getDenseI64ArrayAttr({2, 0, 1}));
    RankedTensorType type = op.getType();
    auto sumType = cast<RankedTensorType>(sum.getType());
    if (sumType.getElementType() != type.getElementType())
      sum = hlo::ConvertOp::create(rewriter, loc,
                                   sumType.clone(type.getElementType()), sum);
    if (sumType.getShape() != type.getShape())
      sum = hlo::ReshapeOp::create(rewriter, loc, type, sum);
    rewriter.replaceOp(op, sum);
    return success();
  }

  /// reduce(x, dims = [dim], add) from zero.
  static Value reduceSum(PatternRewriter &rewriter, Location loc, Value x,
                         int64_t dim) {
    Type elem = cast<RankedTensorType>(x.getType()).getElementType();
    auto scalar = RankedTensorType::get({}, elem);
    Value zero = hlo::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(scalar, rewriter.getZeroAttr(elem)));
    auto reduce =
        hlo::ReduceOp::create(rewriter, loc, ValueRange{x}, ValueRange{zero},
                              rewriter.getDenseI64ArrayAttr({dim}));
    Block *block = rewriter.createBlock(&reduce.getBody(), {}, {scalar, scalar},
                                        {loc, loc});
    Value sum = hlo::AddOp::create(rewriter, loc, block->getArgument(0),
                                   block->getArgument(1));
    hlo::ReturnOp::create(rewriter, loc, sum);
    rewriter.setInsertionPointAfter(reduce);
    return reduce.getResult(0);
  }
};

/// A tiny batched dot (`isVpuBatchedDot`) whose one use converts its f32
/// result to bf16 (mixed_bfloat16's rounding of the interaction) becomes a
/// dot of the bf16 result: the interpreter's dot accumulates in f32 and
/// rounds once either way, and the VPU kernel then writes the bf16 values
/// itself instead of a convert kernel reading the f32 [B,M,N] array, whose
/// [M,N] tiles are mostly padding.
struct NarrowVpuDotResult : public OpRewritePattern<hlo::ConvertOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(hlo::ConvertOp op,
                                PatternRewriter &rewriter) const override {
    auto dot = op.getOperand().getDefiningOp<hlo::DotGeneralOp>();
    auto type = cast<RankedTensorType>(op.getType());
    if (!dot || !dot->hasOneUse() || !dot.getType().getElementType().isF32() ||
        !type.getElementType().isBF16() || !isVpuBatchedDot(dot))
      return failure();
    // The dot's location: the kernel is the framework's dot.
    auto narrow = hlo::DotGeneralOp::create(
        rewriter, dot.getLoc(), type, dot.getLhs(), dot.getRhs(),
        dot.getDotDimensionNumbersAttr(), dot.getPrecisionConfigAttr());
    rewriter.replaceOp(op, narrow.getResult());
    rewriter.eraseOp(dot);
    return success();
  }
};

class StrengthReduceDotsPass
    : public impl::StrengthReduceDotsBase<StrengthReduceDotsPass> {
public:
  using StrengthReduceDotsBase::StrengthReduceDotsBase;

  void runOnOperation() override {
    FailureOr<target::TargetSpec> spec =
        moduleTarget(getOperation(), targetName);
    if (failed(spec))
      return signalPassFailure();
    DotMachine machine = DotMachine::of(*spec);
    RewritePatternSet patterns(&getContext());
    patterns.add<StrengthReduceDot>(&getContext(), machine);
    patterns.add<NarrowVpuDotResult>(&getContext());
    // One walk: neither rewrite leaves a dot for another visit.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
} // namespace tpuc
