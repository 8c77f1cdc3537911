//===- ExpandRng.cpp - XLA's RngExpander, the generator state as constants -===//
//
// tpuc-expand-rng: every hlo.rng becomes what XLA's RngExpander builds
// (xla/hlo/transforms/expanders/rng_expander.cc over
// xla/hlo/builder/lib/prng.cc): Philox-4x32 bits keyed by the op's seed at
// the counter an rng_get_and_update_state returns, then the distribution
// in hlo ops. The program's generator state starts at XLA's initial value
// in every execution, so at the entry's top level each
// rng_get_and_update_state (and each rng's implicit one) returns a value
// known at compile time: the pass walks the entry in program order and
// replaces them by constants. From the first loop, branch or call that
// draws, the state is a run-time u64[2] threaded through them in the order
// the interpreter advances its one state (compiler/interpreter/
// RandomKernels.cpp computes the same numbers; docs/random.md). See
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/LinalgBuilder.h"

#include "dialects/hlo/HloOps.h"
#include "dialects/hlo/RngShape.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/CallInterfaces.h"

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

/// The generator state as the walk reaches each op in program order:
/// known at compile time (the entry's top level, until a loop, branch or
/// call that draws), else `value`, a u64[2] (low, high) threaded through
/// those ops.
struct RngState {
  uint64_t low = hlo::kRngInitialStateLow, high = 0;
  Value value;
};

/// u64[1] slices and arithmetic on the threaded state.
struct StateOps {
  OpBuilder &b;
  Location loc;

  Value slice(Value v, int64_t i) {
    return hlo::SliceOp::create(b, loc, v, b.getDenseI64ArrayAttr({i}),
                                b.getDenseI64ArrayAttr({i + 1}),
                                b.getDenseI64ArrayAttr({1}));
  }
  /// (low, high) + delta, the carry into high as advanceRngState's.
  Value advance(Value state, uint64_t delta) {
    Value low = slice(state, 0);
    Value high = slice(state, 1);
    Value step = u64Constant(b, loc, {delta});
    Value sum = hlo::AddOp::create(b, loc, low, step);
    Value carry = hlo::CompareOp::create(b, loc, hlo::ComparisonDirection::LT,
                                         sum, low, hlo::ComparisonTypeAttr());
    Value one = u64Constant(b, loc, {1});
    Value zero = u64Constant(b, loc, {0});
    Value inc = hlo::SelectOp::create(b, loc, carry, one, zero);
    Value next = hlo::AddOp::create(b, loc, high, inc);
    return hlo::ConcatenateOp::create(b, loc, ValueRange{sum, next}, 0);
  }
};

class RngExpander {
public:
  explicit RngExpander(ModuleOp module) : module(module) {}
  LogicalResult run();

private:
  /// Marks the ops that draw (rng users and the loops, branches, calls
  /// and functions that hold or call one).
  void markDrawing(ArrayRef<Operation *> users);
  LogicalResult expandBlock(Block &block, RngState &state);
  /// The state as a u64[2] value (a constant while it is known).
  Value valueOf(OpBuilder &b, Location loc, const RngState &state) {
    return state.value ? state.value
                       : u64Constant(b, loc, {state.low, state.high});
  }
  void advance(OpBuilder &b, Location loc, RngState &state, uint64_t delta) {
    if (state.value)
      state.value = StateOps{b, loc}.advance(state.value, delta);
    else
      hlo::advanceRngState(state.low, state.high, delta);
  }
  LogicalResult expandRng(hlo::RngOp rng, RngState &state);
  LogicalResult threadWhile(hlo::WhileOp loop, RngState &state);
  LogicalResult threadConditional(hlo::ConditionalOp cond, RngState &state);
  LogicalResult threadCall(CallOpInterface call, RngState &state);
  /// `func` given the state as its last argument and result (once).
  LogicalResult threadFunction(func::FuncOp func);

  ModuleOp module;
  /// An rng's seed: its position among the module's rngs before any is
  /// replaced (as the interpreter numbers them).
  llvm::DenseMap<Operation *, uint64_t> seeds;
  llvm::DenseSet<Operation *> drawing;
  llvm::DenseSet<Operation *> threadedFunctions;
};

void RngExpander::markDrawing(ArrayRef<Operation *> users) {
  SmallVector<Operation *> work(users.begin(), users.end());
  SmallVector<CallOpInterface> calls;
  module.walk([&](CallOpInterface call) { calls.push_back(call); });
  while (!work.empty()) {
    for (Operation *op : std::exchange(work, {}))
      for (Operation *p = op; p && !isa<ModuleOp>(p); p = p->getParentOp())
        if (!drawing.insert(p).second)
          break;
    for (CallOpInterface call : calls)
      if (!drawing.contains(call))
        if (Operation *callee = call.resolveCallable();
            callee && drawing.contains(callee))
          work.push_back(call);
  }
}

LogicalResult RngExpander::expandRng(hlo::RngOp rng, RngState &state) {
  OpBuilder b(rng);
  Location loc = rng.getLoc();
  Value words;
  if (state.value) {
    Value seed = u64Constant(b, loc, {seeds[rng]});
    words = hlo::ConcatenateOp::create(b, loc, ValueRange{seed, state.value}, 0);
  } else {
    words = u64Constant(b, loc, {seeds[rng], state.low, state.high});
  }
  advance(b, loc, state, rng.getStateDelta());
  Value a = rng.getA(), bound = rng.getB();
  auto type = cast<RankedTensorType>(rng.getType());
  Value result;
  if (type.getElementType().isBF16()) {
    // ConvertSmallFpRngToF32Rng: drawn in f32, then converted.
    auto f32 = RankedTensorType::get({}, b.getF32Type());
    a = hlo::ConvertOp::create(b, loc, f32, a);
    bound = hlo::ConvertOp::create(b, loc, f32, bound);
    Value wide =
        draw(b, loc, RankedTensorType::get(type.getShape(), b.getF32Type()),
             rng.getDistribution(), a, bound, words);
    result = hlo::ConvertOp::create(b, loc, type, wide);
  } else {
    result = draw(b, loc, type, rng.getDistribution(), a, bound, words);
  }
  rng.replaceAllUsesWith(result);
  rng->erase();
  return success();
}

LogicalResult RngExpander::threadWhile(hlo::WhileOp loop, RngState &state) {
  // The state is one more element of the loop's state: the body draws
  // from its argument and returns what it advanced to.
  if (llvm::any_of(loop.getCond().front(),
                   [&](Operation &inner) { return drawing.contains(&inner); }))
    return loop.emitError("tpuc cannot compile a while loop whose condition "
                          "draws random numbers");
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> operands(loop.getOperand());
  Value init = valueOf(b, loc, state);
  operands.push_back(init);
  auto fresh = hlo::WhileOp::create(b, loc, operands,
                                    llvm::to_vector(loop->getDiscardableAttrs()));
  fresh.getCond().takeBody(loop.getCond());
  fresh.getBody().takeBody(loop.getBody());
  fresh.getCond().front().addArgument(init.getType(), loc);
  Block &body = fresh.getBody().front();
  RngState inner;
  inner.value = body.addArgument(init.getType(), loc);
  if (failed(expandBlock(body, inner)))
    return failure();
  body.getTerminator()->insertOperands(
      body.getTerminator()->getNumOperands(), inner.value);
  loop.replaceAllUsesWith(fresh.getResults().drop_back());
  loop->erase();
  state.value = fresh.getResults().back();
  return success();
}

LogicalResult RngExpander::threadConditional(hlo::ConditionalOp cond,
                                             RngState &state) {
  // The branches read the state from above (a branch's one argument stays
  // its operand) and each returns the state it advanced to as one more
  // result.
  OpBuilder b(cond);
  Location loc = cond.getLoc();
  Value incoming = valueOf(b, loc, state);
  SmallVector<Type> results(cond.getResultTypes());
  results.push_back(incoming.getType());
  OperationState st(loc, cond->getName());
  st.addOperands(cond->getOperands());
  st.addTypes(results);
  st.addAttributes(cond->getAttrs());
  for (size_t i = 0; i < cond.getBranches().size(); ++i)
    st.addRegion();
  Operation *fresh = b.create(st);
  for (auto [i, region] : llvm::enumerate(cond.getBranches())) {
    fresh->getRegion(i).takeBody(region);
    Block &block = fresh->getRegion(i).front();
    RngState inner;
    inner.value = incoming;
    if (failed(expandBlock(block, inner)))
      return failure();
    block.getTerminator()->insertOperands(
        block.getTerminator()->getNumOperands(), inner.value);
  }
  cond.replaceAllUsesWith(fresh->getResults().drop_back());
  cond->erase();
  state.value = fresh->getResults().back();
  return success();
}

LogicalResult RngExpander::threadFunction(func::FuncOp func) {
  if (!threadedFunctions.insert(func).second)
    return success();
  Block &entry = func.getBody().front();
  Type stateType =
      RankedTensorType::get({2}, IntegerType::get(func.getContext(), 64,
                                                  IntegerType::Unsigned));
  RngState inner;
  inner.value = entry.addArgument(stateType, func.getLoc());
  SmallVector<Type> inputs(func.getArgumentTypes());
  inputs.push_back(stateType);
  SmallVector<Type> outputs(func.getResultTypes());
  outputs.push_back(stateType);
  func.setFunctionType(FunctionType::get(func.getContext(), inputs, outputs));
  if (failed(expandBlock(entry, inner)))
    return failure();
  Operation *ret = entry.getTerminator();
  ret->insertOperands(ret->getNumOperands(), inner.value);
  return success();
}

LogicalResult RngExpander::threadCall(CallOpInterface call, RngState &state) {
  auto callee = dyn_cast_or_null<func::FuncOp>(call.resolveCallable());
  if (!callee || callee.isExternal() || callee.getBody().getBlocks().size() != 1)
    return call->emitError() << "tpuc cannot compile this call of a "
                                "computation that draws random numbers";
  if (failed(threadFunction(callee)))
    return failure();
  OpBuilder b(call);
  Location loc = call.getLoc();
  OperationState st(loc, call->getName());
  st.addOperands(call->getOperands());
  st.addOperands(valueOf(b, loc, state));
  SmallVector<Type> results(call->getResultTypes());
  results.push_back(callee.getResultTypes().back());
  st.addTypes(results);
  st.addAttributes(call->getAttrs());
  Operation *fresh = b.create(st);
  call->replaceAllUsesWith(fresh->getResults().drop_back());
  call->erase();
  state.value = fresh->getResults().back();
  return success();
}

LogicalResult RngExpander::expandBlock(Block &block, RngState &state) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (!drawing.contains(&op))
      continue;
    if (auto get = dyn_cast<hlo::RngGetAndUpdateStateOp>(op)) {
      OpBuilder b(&op);
      get.replaceAllUsesWith(valueOf(b, op.getLoc(), state));
      advance(b, op.getLoc(), state, get.getDelta());
      op.erase();
      continue;
    }
    LogicalResult done = failure();
    if (auto rng = dyn_cast<hlo::RngOp>(op))
      done = expandRng(rng, state);
    else if (auto loop = dyn_cast<hlo::WhileOp>(op))
      done = threadWhile(loop, state);
    else if (auto cond = dyn_cast<hlo::ConditionalOp>(op))
      done = threadConditional(cond, state);
    else if (auto call = dyn_cast<CallOpInterface>(op))
      done = threadCall(call, state);
    else
      done = op.emitError() << "tpuc cannot compile '" << op.getName()
                            << "' holding ops that draw random numbers";
    if (failed(done))
      return failure();
  }
  return success();
}

LogicalResult RngExpander::run() {
  SmallVector<Operation *> users;
  module.walk([&](Operation *op) {
    if (auto rng = dyn_cast<hlo::RngOp>(op))
      seeds[op] = rng.getOpSeed();
    if (isa<hlo::RngOp, hlo::RngGetAndUpdateStateOp>(op))
      users.push_back(op);
  });
  if (users.empty())
    return success();
  markDrawing(users);
  // Every execution starts at XLA's initial state; each public function is
  // a program's entry. The state is known until the first loop, branch or
  // call that draws, and threaded through them from there on.
  for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
    if (func.isPrivate() || func.isExternal() || !drawing.contains(func))
      continue;
    if (func.getBody().getBlocks().size() != 1)
      return func.emitError("tpuc expects one block per function");
    RngState state;
    if (failed(expandBlock(func.getBody().front(), state)))
      return failure();
  }
  return success();
}

class ExpandRngPass : public impl::ExpandRngBase<ExpandRngPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    if (failed(RngExpander(getOperation()).run()))
      signalPassFailure();
  }
};

} // namespace
} // namespace tpuc
