//===- DecomposeDots.cpp - dot_general into [B,M,K] x [B,K,N] ------------===//
//
// tpuc-decompose-dots: XLA's DotDecomposer for the MXU kernel. See
// Passes.td for the contract.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/DotOperands.h"

#include "compiler/layout/TiledLayout.h"
#include "dialects/hlo/HloOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace tpuc {
#define GEN_PASS_DEF_DECOMPOSEDOTS
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// Rewrites one dot_general into the kernel's form: the lhs transposed to
/// (batch, free, contracting) and the rhs to (batch, contracting, free),
/// each group collapsed into one dim by a reshape; the result, which is
/// (batch, lhs free, rhs free) in both forms, is reshaped back.
struct CanonicalizeDot : public OpRewritePattern<hlo::DotGeneralOp> {
  using OpRewritePattern::OpRewritePattern;

  /// [M,K] x [K,N] or [B,M,K] x [B,K,N], or with the rhs as [N,K] or
  /// [B,N,K] (contracted on its minor dim) or the lhs as [K,M] or [B,K,M]
  /// (contracted on its major dim) where `transposableOperand` allows.
  static bool isCanonical(hlo::DotGeneralOp op) {
    hlo::DotDimensionNumbersAttr dn = op.getDotDimensionNumbers();
    int64_t lhsRank = op.getLhs().getType().getRank();
    int64_t rhsRank = op.getRhs().getType().getRank();
    ArrayRef<int64_t> lb = dn.getLhsBatch(), rb = dn.getRhsBatch(),
                      lc = dn.getLhsContracting(), rc = dn.getRhsContracting();
    if (lc.size() != 1 || rc.size() != 1)
      return false;
    // The VPU kernel reads each element where it is stored: any order of
    // the free and contracting dims after a leading batch.
    if (isVpuBatchedDot(op))
      return lhsRank == 3 && rhsRank == 3 && lb.size() == 1 && lb[0] == 0 &&
             rb[0] == 0;
    bool majorLc =
        transposableOperand(op.getLhs(), true) && lc[0] == lhsRank - 2;
    bool minorRc =
        transposableOperand(op.getRhs(), false) && rc[0] == rhsRank - 1;
    if (lb.empty())
      return lhsRank == 2 && rhsRank == 2 && (lc[0] == 1 || majorLc) &&
             (rc[0] == 0 || minorRc);
    return lhsRank == 3 && rhsRank == 3 && lb.size() == 1 && lb[0] == 0 &&
           rb[0] == 0 && (lc[0] == 2 || majorLc) && (rc[0] == 1 || minorRc);
  }

  /// The MXU kernel reads an operand in the other order than its canonical
  /// one (an lhs contracted on its major dim, an rhs on its minor dim) as
  /// it is stored, transposing its 128x128 blocks on the XLU, when
  /// `mxuReadsTransposed` takes its type and it is stored row-major.
  static bool transposableOperand(Value v, bool lhs) {
    auto type = cast<RankedTensorType>(v.getType());
    if (!mxuReadsTransposed(type, lhs))
      return false;
    mlir::StringAttr recorded = layout::recordedLayoutAttr(v);
    if (!recorded || recorded.getValue().empty())
      return true;
    FailureOr<layout::TiledLayout> stored = layout::recordedLayout(v);
    return succeeded(stored) &&
           stored->minorToMajor == layout::descendingOrder(type.getRank());
  }

  /// Whether `v`'s dims are in the order `first`, `second`, `third` of its
  /// groups, one dim each (the batch group possibly empty).
  static bool inOrder(ArrayRef<int64_t> first, ArrayRef<int64_t> second,
                      ArrayRef<int64_t> third) {
    SmallVector<int64_t> dims(first);
    llvm::append_range(dims, second);
    llvm::append_range(dims, third);
    return first.size() <= 1 && second.size() == 1 && third.size() == 1 &&
           llvm::equal(dims, llvm::seq<int64_t>(0, dims.size()));
  }

  LogicalResult matchAndRewrite(hlo::DotGeneralOp op,
                                PatternRewriter &rewriter) const override {
    if (isCanonical(op))
      return failure();
    hlo::DotDimensionNumbersAttr dn = op.getDotDimensionNumbers();
    auto lhsType = op.getLhs().getType(), rhsType = op.getRhs().getType();
    ArrayRef<int64_t> ls = lhsType.getShape(), rs = rhsType.getShape();
    ArrayRef<int64_t> lb = dn.getLhsBatch(), rb = dn.getRhsBatch(),
                      lc = dn.getLhsContracting(), rc = dn.getRhsContracting();
    SmallVector<int64_t> lf = dotFreeDims(ls.size(), lb, lc),
                         rf = dotFreeDims(rs.size(), rb, rc);
    int64_t batch = dimsProduct(ls, lb), m = dimsProduct(ls, lf),
            k = dimsProduct(ls, lc), n = dimsProduct(rs, rf);
    bool batched = !lb.empty();
    Location loc = op.getLoc();

    // An lhs already in (batch, contracting, free) order or an rhs in
    // (batch, free, contracting) order stays so (the kernel transposes its
    // blocks) rather than being transposed in HBM.
    bool transposedLhs =
        inOrder(lb, lc, lf) && transposableOperand(op.getLhs(), true);
    bool transposedRhs =
        inOrder(rb, rf, rc) && transposableOperand(op.getRhs(), false);
    SmallVector<int64_t> lhsPerm(lb), rhsPerm(rb);
    llvm::append_range(lhsPerm, transposedLhs ? lc : lf);
    llvm::append_range(lhsPerm, transposedLhs ? lf : lc);
    llvm::append_range(rhsPerm, transposedRhs ? rf : rc);
    llvm::append_range(rhsPerm, transposedRhs ? rc : rf);
    SmallVector<int64_t> lhsShape, rhsShape, outShape;
    if (batched) {
      lhsShape.push_back(batch);
      rhsShape.push_back(batch);
      outShape.push_back(batch);
    }
    if (transposedLhs)
      llvm::append_values(lhsShape, k, m);
    else
      llvm::append_values(lhsShape, m, k);
    if (transposedRhs)
      llvm::append_values(rhsShape, n, k);
    else
      llvm::append_values(rhsShape, k, n);
    llvm::append_values(outShape, m, n);
    Value lhs = relayoutOperand(rewriter, loc, op.getLhs(), lhsPerm, lhsShape);
    Value rhs = relayoutOperand(rewriter, loc, op.getRhs(), rhsPerm, rhsShape);

    int64_t b = batched ? 1 : 0;
    auto dims = hlo::DotDimensionNumbersAttr::get(
        getContext(), batched ? ArrayRef<int64_t>{0} : ArrayRef<int64_t>{},
        batched ? ArrayRef<int64_t>{0} : ArrayRef<int64_t>{},
        {transposedLhs ? b : b + 1}, {transposedRhs ? b + 1 : b});
    RankedTensorType type = op.getType();
    auto dot =
        hlo::DotGeneralOp::create(rewriter, loc, type.clone(outShape), lhs, rhs,
                                  dims, op.getPrecisionConfigAttr());
    Value result = dot.getResult();
    if (type.getShape() != ArrayRef<int64_t>(outShape))
      result = hlo::ReshapeOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

class DecomposeDotsPass : public impl::DecomposeDotsBase<DecomposeDotsPass> {
public:
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<CanonicalizeDot>(&getContext());
    // One walk, no folding: every dot (fusion bodies included) is visited
    // once and the rewrite never produces a non-canonical dot.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
} // namespace tpuc
