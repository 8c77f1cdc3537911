//===- ExpandRng.cpp - XLA's RngExpander, the generator state as constants -===//
//
// tpuc-expand-rng: every hlo.rng becomes what XLA's RngExpander builds
// (xla/hlo/transforms/expanders/rng_expander.cc over
// xla/hlo/builder/lib/prng.cc): Philox-4x32 bits keyed by the op's seed at
// the counter an rng_get_and_update_state returns, then the distribution
// in hlo ops. The program's generator state starts at XLA's initial value
// in every execution and advances only at the entry's top level, so each
// rng_get_and_update_state (and each rng's implicit one) returns a value
// known at compile time: the pass walks the entry in program order and
// replaces them by constants. The interpreter computes the same numbers
// (compiler/interpreter/RandomKernels.cpp, docs/random.md). See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/LinalgBuilder.h"

#include "dialects/hlo/HloOps.h"
#include "dialects/hlo/RngShape.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cmath>

namespace tpuc {
#define GEN_PASS_DEF_EXPANDRNG
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;
// Ops are created one per statement (never two as arguments of one call),
// so that their order in the IR does not depend on the compiler.

/// A u64[n] constant of `words`.
Value u64Constant(OpBuilder &b, Location loc, ArrayRef<uint64_t> words) {
  auto type = RankedTensorType::get({static_cast<int64_t>(words.size())},
                                    b.getIntegerType(64, false));
  SmallVector<APInt> values;
  for (uint64_t w : words)
    values.push_back(APInt(64, w));
  return hlo::ConstantOp::create(b, loc, DenseElementsAttr::get(type, values));
}

/// Philox-4x32 bits of u32[shape] from the state (key, counter) as s32
/// words (the VPU's integer type; the bits are the same).
Value philoxWords(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  Value state) {
  auto bitsType = RankedTensorType::get(shape, b.getIntegerType(32, false));
  auto generator = hlo::RngBitGeneratorOp::create(
      b, loc, TypeRange{state.getType(), bitsType}, state,
      hlo::RngAlgorithmAttr::get(b.getContext(), hlo::RngAlgorithm::PHILOX));
  return hlo::BitcastConvertOp::create(
      b, loc, RankedTensorType::get(shape, b.getI32Type()),
      generator.getOutput());
}

/// prng.cc's ConvertRandomBitsToUniformFloatingPoint before the scaling:
/// the 23 high bits of each word as an f32 in [0, 1).
Value unitFloats(LinalgBuilder &lb, Value words) {
  OpBuilder &b = lb.builder();
  Location loc = words.getLoc();
  RankedTensorType type = tensorType(words);
  Value mantissa = hlo::ShiftRightLogicalOp::create(
      b, loc, words, lb.splat(type, 9));
  // Below 2^23: the signed conversion is the unsigned one.
  auto floats = RankedTensorType::get(type.getShape(), b.getF32Type());
  Value values = hlo::ConvertOp::create(b, loc, floats, mantissa);
  return hlo::MultiplyOp::create(b, loc, values,
                                 lb.splat(floats, std::ldexp(1.0, -23)));
}

/// x % r as unsigned 32-bit words held in s32 arrays of one shape, from
/// the signed ops the VPU has: r >= 2^31 (negative as s32) leaves x - r
/// when x >= r, else x; a smaller r reduces x >> 1 (non-negative) with
/// the signed remainder, doubles it and adds x's low bit (below 2r), and
/// subtracts r once more when that is >= r; r = 0 leaves x (XLA's x % 0).
Value unsignedRemainder(LinalgBuilder &lb, Value x, Value r) {
  OpBuilder &b = lb.builder();
  Location loc = x.getLoc();
  RankedTensorType type = tensorType(x);
  Value zero = lb.splat(type, 0);
  Value one = lb.splat(type, 1);
  Value sign = lb.splat(type, static_cast<int32_t>(0x80000000u));
  auto compare = [&](hlo::ComparisonDirection direction, Value p, Value q) {
    return hlo::CompareOp::create(b, loc, direction, p, q,
                                  hlo::ComparisonTypeAttr());
  };
  auto unsignedLess = [&](Value p, Value q) {
    Value ps = hlo::XorOp::create(b, loc, p, sign);
    Value qs = hlo::XorOp::create(b, loc, q, sign);
    return compare(hlo::ComparisonDirection::LT, ps, qs);
  };
  auto reduceOnce = [&](Value y) -> Value {
    Value less = unsignedLess(y, r);
    Value minus = hlo::SubtractOp::create(b, loc, y, r);
    return hlo::SelectOp::create(b, loc, less, y, minus);
  };
  // r < 2^31: the signed remainder of x >> 1 by r (a positive divisor).
  Value small = compare(hlo::ComparisonDirection::GT, r, zero);
  Value divisor = hlo::SelectOp::create(b, loc, small, r, one);
  Value halfX = hlo::ShiftRightLogicalOp::create(b, loc, x, one);
  Value t = hlo::RemainderOp::create(b, loc, halfX, divisor);
  Value twice = hlo::ShiftLeftOp::create(b, loc, t, one);
  Value lowBit = hlo::AndOp::create(b, loc, x, one);
  Value y = hlo::AddOp::create(b, loc, twice, lowBit);
  Value bySmall = reduceOnce(y);
  Value byLarge = reduceOnce(x);
  Value large = compare(hlo::ComparisonDirection::LT, r, zero);
  Value result = hlo::SelectOp::create(b, loc, large, byLarge, bySmall);
  Value isZero = compare(hlo::ComparisonDirection::EQ, r, zero);
  return hlo::SelectOp::create(b, loc, isZero, x, result);
}

/// The scalar `x` broadcast to `type`.
Value broadcast(LinalgBuilder &lb, Value x, RankedTensorType type) {
  return lb.broadcastTo(x, type, {});
}

/// XLA's NormalFloatingPointDistribution + BoxMullerTransform: uniform
/// [0, 1) pairs along a new dimension after the split one, each pair
/// (x0, x1) giving sin(2 pi x1) and cos(2 pi x1) times
/// sqrt(-2 log max(x0, 1e-7)).
Value standardNormal(LinalgBuilder &lb, ArrayRef<int64_t> shape,
                     Value state) {
  OpBuilder &b = lb.builder();
  Location loc = state.getLoc();
  int64_t split = hlo::threeFrySplitDimension(shape);
  int64_t pairDim = split < 0 ? 0 : split + 1;
  SmallVector<int64_t> pairShape;
  if (split < 0) {
    pairShape.push_back(2);
  } else {
    pairShape.append(shape.begin(), shape.begin() + split);
    pairShape.push_back((shape[split] + 1) / 2);
    pairShape.push_back(2);
    pairShape.append(shape.begin() + split + 1, shape.end());
  }
  Value uniform = unitFloats(lb, philoxWords(b, loc, pairShape, state));
  auto half = [&](int64_t k) -> Value {
    SmallVector<int64_t> lo(pairShape.size(), 0), hi(pairShape);
    lo[pairDim] = k;
    hi[pairDim] = k + 1;
    return hlo::SliceOp::create(b, loc, uniform, b.getDenseI64ArrayAttr(lo),
                                b.getDenseI64ArrayAttr(hi),
                                b.getDenseI64ArrayAttr(SmallVector<int64_t>(
                                    pairShape.size(), 1)));
  };
  Value x0 = half(0), x1 = half(1);
  RankedTensorType type = tensorType(x0);
  Value u1 = hlo::MaximumOp::create(b, loc, x0, lb.splat(type, 1.0e-7f));
  Value v1 = hlo::MultiplyOp::create(
      b, loc, lb.splat(type, static_cast<float>(2.0f * M_PI)), x1);
  Value minusTwo = lb.splat(type, -2.0f);
  Value log = hlo::LogOp::create(b, loc, u1);
  Value u2 = hlo::SqrtOp::create(
      b, loc, hlo::MultiplyOp::create(b, loc, minusTwo, log));
  Value z0 = hlo::MultiplyOp::create(b, loc, hlo::SineOp::create(b, loc, v1),
                                     u2);
  Value z1 = hlo::MultiplyOp::create(b, loc,
                                     hlo::CosineOp::create(b, loc, v1), u2);
  auto result = RankedTensorType::get(shape, b.getF32Type());
  if (split < 0)
    return hlo::ReshapeOp::create(b, loc, result, z0);
  // CombineShapePair: the pairs interleaved along the split dimension, the
  // odd size's extra element dropped.
  Value both = hlo::ConcatenateOp::create(b, loc, ValueRange{z0, z1}, pairDim);
  SmallVector<int64_t> even(shape);
  even[split] = (shape[split] + 1) / 2 * 2;
  Value combined = hlo::ReshapeOp::create(
      b, loc, RankedTensorType::get(even, b.getF32Type()), both);
  if (even[split] == shape[split])
    return combined;
  return hlo::SliceOp::create(
      b, loc, combined,
      b.getDenseI64ArrayAttr(SmallVector<int64_t>(shape.size(), 0)),
      b.getDenseI64ArrayAttr(shape),
      b.getDenseI64ArrayAttr(SmallVector<int64_t>(shape.size(), 1)));
}

/// Numbers of `type` (f32, s32 or u32) in `distribution` from the Philox
/// state.
Value draw(OpBuilder &b, Location loc, RankedTensorType type,
           hlo::RngDistribution distribution, Value a, Value bound,
           Value state) {
  LinalgBuilder lb(b, loc);
  if (distribution == hlo::RngDistribution::NORMAL) {
    // a_or_mean + b_or_sigma * normal.
    Value normal = standardNormal(lb, type.getShape(), state);
    Value scaled = hlo::MultiplyOp::create(b, loc, broadcast(lb, bound, type),
                                           normal);
    return hlo::AddOp::create(b, loc, broadcast(lb, a, type), scaled);
  }
  Value words = philoxWords(b, loc, type.getShape(), state);
  if (type.getElementType().isF32()) {
    // values * (b - a) + a.
    Value unit = unitFloats(lb, words);
    Value range = hlo::SubtractOp::create(b, loc, bound, a);
    Value scaled = hlo::MultiplyOp::create(b, loc, unit,
                                           broadcast(lb, range, type));
    return hlo::AddOp::create(b, loc, scaled, broadcast(lb, a, type));
  }
  // ConvertRandomBitsToUniformInt: a + (d >> 1) + (d - (d >> 1)),
  // d = bits % (b - a), on the words as s32 (the same bits).
  auto s32 = RankedTensorType::get(type.getShape(), b.getI32Type());
  auto s32Scalar = RankedTensorType::get({}, b.getI32Type());
  auto toS32 = [&](Value x, RankedTensorType to) -> Value {
    return x.getType() == to ? x
                             : hlo::BitcastConvertOp::create(b, loc, to, x);
  };
  Value low = toS32(a, s32Scalar);
  Value high = toS32(bound, s32Scalar);
  Value range = hlo::SubtractOp::create(b, loc, high, low);
  Value d = unsignedRemainder(lb, words, broadcast(lb, range, s32));
  Value half = hlo::ShiftRightLogicalOp::create(b, loc, d, lb.splat(s32, 1));
  Value rest = hlo::SubtractOp::create(b, loc, d, half);
  Value base = broadcast(lb, low, s32);
  Value sum = hlo::AddOp::create(b, loc, base, half);
  sum = hlo::AddOp::create(b, loc, sum, rest);
  return sum.getType() == type ? sum
                               : hlo::BitcastConvertOp::create(b, loc, type, sum);
}

class ExpandRngPass : public impl::ExpandRngBase<ExpandRngPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The ops that use the state, and the seeds of the rngs before any is
    // replaced (an rng's seed is its position among the module's rngs).
    SmallVector<Operation *> users;
    llvm::DenseMap<Operation *, uint64_t> seeds;
    module.walk([&](Operation *op) {
      if (auto rng = dyn_cast<hlo::RngOp>(op))
        seeds[op] = rng.getOpSeed();
      if (isa<hlo::RngOp, hlo::RngGetAndUpdateStateOp>(op))
        users.push_back(op);
    });
    if (users.empty())
      return;
    // A state known at compile time needs every use to run once per
    // execution, in program order: at the top level of one function, the
    // entry.
    Block *entry = users.front()->getBlock();
    for (Operation *op : users) {
      auto func = dyn_cast<func::FuncOp>(op->getParentOp());
      if (op->getBlock() != entry || !func || func.isPrivate()) {
        op->emitError() << "tpuc cannot compile '" << op->getName()
                        << "' here yet: the generator state is a "
                           "compile-time constant, so every op that reads "
                           "it must be at the top level of the entry "
                           "function (not in a loop, branch or callee)";
        return signalPassFailure();
      }
    }
    uint64_t low = hlo::kRngInitialStateLow, high = 0;
    for (Operation &op : llvm::make_early_inc_range(*entry)) {
      OpBuilder b(&op);
      if (auto get = dyn_cast<hlo::RngGetAndUpdateStateOp>(op)) {
        get.replaceAllUsesWith(u64Constant(b, op.getLoc(), {low, high}));
        hlo::advanceRngState(low, high, get.getDelta());
        op.erase();
        continue;
      }
      auto rng = dyn_cast<hlo::RngOp>(op);
      if (!rng)
        continue;
      Value state = u64Constant(b, op.getLoc(), {seeds[&op], low, high});
      hlo::advanceRngState(low, high, rng.getStateDelta());
      Value a = rng.getA(), bound = rng.getB();
      auto type = cast<RankedTensorType>(rng.getType());
      Value result;
      if (type.getElementType().isBF16()) {
        // ConvertSmallFpRngToF32Rng: drawn in f32, then converted.
        auto f32 = RankedTensorType::get({}, b.getF32Type());
        a = hlo::ConvertOp::create(b, op.getLoc(), f32, a);
        bound = hlo::ConvertOp::create(b, op.getLoc(), f32, bound);
        Value wide = draw(
            b, op.getLoc(),
            RankedTensorType::get(type.getShape(), b.getF32Type()),
            rng.getDistribution(), a, bound, state);
        result = hlo::ConvertOp::create(b, op.getLoc(), type, wide);
      } else {
        result = draw(b, op.getLoc(), type, rng.getDistribution(), a, bound,
                      state);
      }
      rng.replaceAllUsesWith(result);
      op.erase();
    }
  }
};

} // namespace
} // namespace tpuc
