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
  /// [B,N,K] (contracted on its minor dim) where `transposedRhsOk`.
  static bool isCanonical(hlo::DotGeneralOp op) {
    hlo::DotDimensionNumbersAttr dn = op.getDotDimensionNumbers();
    int64_t lhsRank = op.getLhs().getType().getRank();
    int64_t rhsRank = op.getRhs().getType().getRank();
    ArrayRef<int64_t> lb = dn.getLhsBatch(), rb = dn.getRhsBatch(),
                      lc = dn.getLhsContracting(), rc = dn.getRhsContracting();
    if (lc.size() != 1 || rc.size() != 1)
      return false;
    bool minorRc = transposedRhsOk(op.getRhs()) && rc[0] == rhsRank - 1;
    if (lb.empty())
      return lhsRank == 2 && rhsRank == 2 && lc[0] == 1 &&
             (rc[0] == 0 || minorRc);
    return lhsRank == 3 && rhsRank == 3 && lb.size() == 1 && lb[0] == 0 &&
           rb[0] == 0 && lc[0] == 2 && (rc[0] == 1 || minorRc);
  }

  /// The MXU kernel reads an f32 rhs contracted on its minor dim as it is
  /// stored, transposing its 128x128 blocks on the XLU (docs/codegen.md),
  /// when it is stored in row-major order. bf16 rhs operands are
  /// transposed here: the XLU transposes 32-bit words, two packed bf16s.
  static bool transposedRhsOk(Value rhs) {
    if (!cast<RankedTensorType>(rhs.getType()).getElementType().isF32())
      return false;
    mlir::StringAttr recorded = layout::recordedLayoutAttr(rhs);
    if (!recorded || recorded.getValue().empty())
      return true;
    FailureOr<layout::TiledLayout> stored = layout::recordedLayout(rhs);
    return succeeded(stored) &&
           stored->minorToMajor ==
               layout::descendingOrder(
                   cast<RankedTensorType>(rhs.getType()).getRank());
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

    SmallVector<int64_t> lhsPerm(lb), rhsPerm(rb);
    llvm::append_range(lhsPerm, lf);
    llvm::append_range(lhsPerm, lc);
    // An rhs already in (batch, free, contracting) order stays so (the
    // kernel transposes its blocks) rather than being transposed in HBM.
    SmallVector<int64_t> rhsMinorK(rb);
    llvm::append_range(rhsMinorK, rf);
    llvm::append_range(rhsMinorK, rc);
    bool transposedRhs = rb.size() <= 1 && rf.size() == 1 && rc.size() == 1 &&
                         llvm::equal(rhsMinorK, llvm::seq<int64_t>(
                                                    0, rhsMinorK.size())) &&
                         transposedRhsOk(op.getRhs());
    if (transposedRhs) {
      rhsPerm = rhsMinorK;
    } else {
      llvm::append_range(rhsPerm, rc);
      llvm::append_range(rhsPerm, rf);
    }
    SmallVector<int64_t> lhsShape, rhsShape, outShape;
    if (batched) {
      lhsShape.push_back(batch);
      rhsShape.push_back(batch);
      outShape.push_back(batch);
    }
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
        batched ? ArrayRef<int64_t>{0} : ArrayRef<int64_t>{}, {b + 1},
        {transposedRhs ? b + 1 : b});
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
