//===- SimplifyScalars.cpp - divisions and remainders the kernels need not --===//
//
// tpuc-simplify-scalars: rewrites the kernels' scalar address arithmetic
// with what the values are known to be. See Passes.td for the contract.
//
//===----------------------------------------------------------------------===//

#include "passes/InductionVar.h"
#include "passes/Passes.h"

#include "dialects/tpu/TpuOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tpuc {
#define GEN_PASS_DEF_SIMPLIFYSCALARS
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

std::optional<int64_t> constantOf(Value v) {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)) && value.getSignificantBits() <= 64)
    return value.getSExtValue();
  return std::nullopt;
}

/// The divisor of a division or remainder when it is a positive constant.
std::optional<int64_t> positiveDivisor(Value v) {
  std::optional<int64_t> c = constantOf(v);
  return c && *c > 0 ? c : std::nullopt;
}

/// A bound B with |v| < B, when the ops that compute v give one: constants,
/// a tpu.loop's induction variable (0 .. trip count - 1), remainders and
/// quotients by positive constants, sums and products of bounded values.
std::optional<int64_t> magnitudeBound(Value v, int depth = 0) {
  if (std::optional<int64_t> k = constantOf(v))
    return *k == INT64_MIN ? std::nullopt : std::optional<int64_t>(std::abs(*k) + 1);
  if (depth > 8)
    return std::nullopt;
  if (isa<BlockArgument>(v))
    return inductionVarTrips(v);
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumOperands() != 2)
    return std::nullopt;
  std::optional<int64_t> rhs = constantOf(def->getOperand(1));
  if (isa<arith::RemSIOp>(def) && rhs && *rhs > 0)
    return *rhs;
  std::optional<int64_t> a = magnitudeBound(def->getOperand(0), depth + 1);
  if (!a)
    return std::nullopt;
  if (isa<arith::DivSIOp>(def) && rhs && *rhs > 0)
    return (*a - 1) / *rhs + 1;
  std::optional<int64_t> b = magnitudeBound(def->getOperand(1), depth + 1);
  if (!b)
    return std::nullopt;
  int64_t out;
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    if (__builtin_add_overflow(*a - 1, *b, &out))
      return std::nullopt;
    return out;
  }
  if (isa<arith::MulIOp>(def)) {
    if (__builtin_mul_overflow(*a - 1, *b - 1, &out) || out == INT64_MAX)
      return std::nullopt;
    return out + 1;
  }
  return std::nullopt;
}

/// x rem c, c > 0 (truncating, the sign of x):
///   x when |x| < c;  0 when x = y * k with k % c == 0;
///   y rem c when x = y rem d with d % c == 0.
struct SimplifyRemainder : OpRewritePattern<arith::RemSIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::RemSIOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> c = positiveDivisor(op.getRhs());
    if (!c)
      return failure();
    Value x = op.getLhs();
    if (std::optional<int64_t> bound = magnitudeBound(x);
        bound && *bound <= *c) {
      rewriter.replaceOp(op, x);
      return success();
    }
    if (auto mul = x.getDefiningOp<arith::MulIOp>()) {
      std::optional<int64_t> k = constantOf(mul.getRhs());
      if (k && *k % *c == 0) {
        rewriter.replaceOpWithNewOp<arith::ConstantOp>(
            op, rewriter.getZeroAttr(op.getType()));
        return success();
      }
    }
    if (auto inner = x.getDefiningOp<arith::RemSIOp>()) {
      std::optional<int64_t> d = constantOf(inner.getRhs());
      if (d && *d > 0 && *d % *c == 0 && *d != *c) {
        rewriter.modifyOpInPlace(
            op, [&] { op.getLhsMutable().assign(inner.getLhs()); });
        return success();
      }
    }
    return failure();
  }
};

/// x / c, c > 0 (truncating):
///   0 when |x| < c;  y * (k / c) when x = y * k with k % c == 0;
///   y / (c / k) when x = y * k, k > 0, c % k == 0;
///   y / (d * c) when x = y / d, d > 0.
struct SimplifyQuotient : OpRewritePattern<arith::DivSIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::DivSIOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> c = positiveDivisor(op.getRhs());
    if (!c)
      return failure();
    Value x = op.getLhs();
    Type type = op.getType();
    Location loc = op.getLoc();
    auto constant = [&](int64_t v) {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getIntegerAttr(type, v));
    };
    if (std::optional<int64_t> bound = magnitudeBound(x);
        bound && *bound <= *c) {
      rewriter.replaceOp(op, constant(0));
      return success();
    }
    if (auto mul = x.getDefiningOp<arith::MulIOp>()) {
      std::optional<int64_t> k = constantOf(mul.getRhs());
      if (k && *k % *c == 0) {
        rewriter.replaceOpWithNewOp<arith::MulIOp>(op, mul.getLhs(),
                                                   constant(*k / *c));
        return success();
      }
      if (k && *k > 0 && *c % *k == 0) {
        rewriter.replaceOpWithNewOp<arith::DivSIOp>(op, mul.getLhs(),
                                                    constant(*c / *k));
        return success();
      }
    }
    if (auto inner = x.getDefiningOp<arith::DivSIOp>()) {
      std::optional<int64_t> d = constantOf(inner.getRhs());
      int64_t product;
      if (d && *d > 0 && !__builtin_mul_overflow(*d, *c, &product)) {
        rewriter.replaceOpWithNewOp<arith::DivSIOp>(op, inner.getLhs(),
                                                    constant(product));
        return success();
      }
    }
    return failure();
  }
};

class SimplifyScalarsPass
    : public impl::SimplifyScalarsBase<SimplifyScalarsPass> {
public:
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SimplifyRemainder, SimplifyQuotient>(&getContext());
    arith::MulIOp::getCanonicalizationPatterns(patterns, &getContext());
    arith::AddIOp::getCanonicalizationPatterns(patterns, &getContext());
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      signalPassFailure();
  }
};

} // namespace
} // namespace tpuc
