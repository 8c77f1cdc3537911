//===- ExpandCholesky.cpp - cholesky as XLA's CholeskyExpander ------------===//
//
// tpuc-expand-cholesky: hlo.cholesky becomes XLA's blocked left-looking
// factorization (block size 128): per block column, the panel minus the
// product of the factored columns, the diagonal block by the unblocked
// Cholesky-Banachiewicz loop (an hlo.while of batched L L^T products,
// masks and one sqrt), and the panel below it by an hlo.triangular_solve
// (expanded by tpuc-expand-triangular-solve). A matrix whose factorization
// meets a NaN pivot is all NaN. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/LinalgBuilder.h"

#include "dialects/hlo/HloOps.h"

#include <limits>
#include <numeric>

namespace tpuc {
#define GEN_PASS_DEF_EXPANDCHOLESKY
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// XLA's block size for cholesky (CholeskyExpander::ExpandInstruction).
constexpr int64_t kBlockSize = 128;

/// The pred [..., 1, 1] of `a`'s batch.
RankedTensorType errorType(OpBuilder &b, RankedTensorType a) {
  SmallVector<int64_t> shape(a.getShape());
  shape[shape.size() - 1] = shape[shape.size() - 2] = 1;
  return RankedTensorType::get(shape, b.getI1Type());
}

/// XLA's CholeskyUnblocked: (l, error) of the lower factor of `a`
/// ([..., k, k]), one column per trip of an hlo.while.
std::pair<Value, Value> unblocked(LinalgBuilder &lb, Value a) {
  OpBuilder &b = lb.builder();
  Location loc = a.getLoc();
  RankedTensorType type = tensorType(a);
  int64_t rank = type.getRank(), n = type.getShape().back();
  SmallVector<Value> init{a, lb.splat(type, 0),
                          lb.splat(errorType(b, type), 0)};
  SmallVector<Value> out = lb.forEachIndex(
      0, n, init, [&](Value i, ArrayRef<Value> state) -> SmallVector<Value> {
        Value bodyA = state[0], l = state[1], seen = state[2];
        // (row, col) with row >= col == i: column i on and below the
        // diagonal.
        Value col = lb.iotaLike(bodyA, rank - 1);
        Value row = lb.iotaLike(bodyA, rank - 2);
        Value iSplat = lb.broadcastTo(i, tensorType(col), ArrayRef<int64_t>{});
        Value mask = hlo::AndOp::create(
            b, loc,
            hlo::CompareOp::create(b, loc, hlo::ComparisonDirection::GE, row,
                                   col, hlo::ComparisonTypeAttr()),
            hlo::CompareOp::create(b, loc, hlo::ComparisonDirection::EQ, col,
                                   iSplat, hlo::ComparisonTypeAttr()));
        // A - L L^T: L's columns from i on are zero, so this is column i's
        // remainder (XLA: faster than slicing).
        Value square = hlo::SubtractOp::create(b, loc, bodyA,
                                               lb.batchDot(l, false, l, true));
        Value lii = hlo::SqrtOp::create(
            b, loc, lb.dynamicSliceMinor(square, i, i, 1, 1));
        seen = hlo::OrOp::create(b, loc, seen, lb.isNan(lii));
        SmallVector<int64_t> all(rank);
        std::iota(all.begin(), all.end(), 0);
        Value scaled = hlo::DivideOp::create(b, loc, square,
                                             lb.broadcastTo(lii, type, all));
        Value next = hlo::AddOp::create(
            b, loc,
            hlo::SelectOp::create(b, loc, mask, scaled, lb.splat(type, 0)), l);
        return {bodyA, next, seen};
      });
  return {out[1], out[2]};
}

/// XLA's BuildCholesky: the lower factor of `a` ([..., n, n]).
Value buildCholesky(LinalgBuilder &lb, Value a) {
  OpBuilder &b = lb.builder();
  Location loc = a.getLoc();
  RankedTensorType type = tensorType(a);
  int64_t rank = type.getRank(), n = type.getShape().back();
  Value l = lb.splat(type, 0);
  RankedTensorType errType = errorType(b, type);
  Value seen = lb.splat(errType, 0);
  for (int64_t i = 0; i < n; i += kBlockSize) {
    int64_t k = std::min(kBlockSize, n - i);
    Value panel = lb.sliceMinor(a, i, i, n, i + k);
    if (i > 0) {
      // a[i:, i:i+k] -= l[i:, :i] l[i:i+k, :i]^T
      Value lhs = lb.sliceMinor(l, i, 0, n, i);
      Value rhs = lb.sliceMinor(l, i, 0, i + k, i);
      panel = hlo::SubtractOp::create(b, loc, panel,
                                      lb.batchDot(lhs, false, rhs, true));
    }
    Value x = lb.sliceMinor(panel, 0, 0, k, k);
    Value factorized, error;
    if (k == 1) {
      factorized = hlo::SqrtOp::create(b, loc, x);
      error = lb.isNan(factorized);
    } else {
      std::tie(factorized, error) = unblocked(lb, x);
    }
    seen = hlo::OrOp::create(b, loc, seen, error);
    l = lb.updateSliceMinor(l, factorized, i, i);
    if (i + k < n) {
      // l[i+k:, i:i+k] = trsm_right_transpose(l[i:i+k, i:i+k], a[i+k:, i:i+k])
      Value below = lb.sliceMinor(panel, k, 0, n - i, k);
      Value update = hlo::TriangularSolveOp::create(
          b, loc, tensorType(below), factorized, below, /*left_side=*/false,
          /*lower=*/true, /*unit_diagonal=*/false, /*transpose_a=*/true);
      l = lb.updateSliceMinor(l, update, i + k, i);
    }
  }
  SmallVector<int64_t> all(rank);
  std::iota(all.begin(), all.end(), 0);
  return hlo::SelectOp::create(
      b, loc, lb.broadcastTo(seen, errType.clone(type.getShape()), all),
      lb.splat(type, std::numeric_limits<double>::quiet_NaN()), l);
}

void expand(hlo::CholeskyOp op) {
  OpBuilder b(op);
  LinalgBuilder lb(b, op.getLoc());
  Value a = op.getOperand();
  Value result = a;
  if (tensorType(a).getNumElements() != 0) {
    // The upper factor is the transposed lower factor of the transpose.
    if (!op.getLower())
      a = lb.transposeMinor(a);
    result = buildCholesky(lb, a);
    if (!op.getLower())
      result = lb.transposeMinor(result);
  }
  op.getResult().replaceAllUsesWith(result);
  op.erase();
}

class ExpandCholeskyPass : public impl::ExpandCholeskyBase<ExpandCholeskyPass> {
public:
  void runOnOperation() override {
    SmallVector<hlo::CholeskyOp> ops;
    getOperation()->walk([&](hlo::CholeskyOp op) { ops.push_back(op); });
    for (hlo::CholeskyOp op : ops)
      expand(op);
  }
};
} // namespace
} // namespace tpuc
