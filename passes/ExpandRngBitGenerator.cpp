//===- ExpandRngBitGenerator.cpp - XLA's RngBitGeneratorExpander ----------===//
//
// tpuc-expand-rng-bit-generator: hlo.rng_bit_generator becomes the
// Threefry-2x32 or Philox-4x32 rounds XLA's RngBitGeneratorExpander builds
// (xla/hlo/builder/lib/prng.cc), on 32-bit words held in s32 arrays (the
// VPU's integer type; unsigned products and compares are rebuilt from the
// signed ones). The u64 state enters as its (low, high) u32 halves through
// hlo.bitcast_convert and leaves the same way, so that tpuc-expand-x64 only
// meets bitcasts. The bits are exactly the interpreter's
// (compiler/interpreter/RandomKernels.cpp, docs/random.md). See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/ExpandEach.h"
#include "passes/LinalgBuilder.h"

#include "dialects/hlo/HloOps.h"
#include "dialects/hlo/RngShape.h"

namespace tpuc {
#define GEN_PASS_DEF_EXPANDRNGBITGENERATOR
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// 32-bit word arithmetic on s32 arrays of one shape (or rank-0 scalars,
/// broadcast when mixed with arrays).
class Words {
public:
  Words(OpBuilder &b, Location loc) : b(b), loc(loc), lb(b, loc) {}

  Value constant(RankedTensorType type, uint32_t v) {
    return lb.splat(type, static_cast<int32_t>(v));
  }
  Value scalar(uint32_t v) { return constant(scalarType(), v); }
  RankedTensorType scalarType() {
    return RankedTensorType::get({}, b.getI32Type());
  }
  /// `x` broadcast to `like`'s shape when it is a scalar and `like` is not.
  Value match(Value x, Value like) {
    if (tensorType(x).getRank() != 0 || tensorType(like).getRank() == 0)
      return x;
    return lb.broadcastTo(x, tensorType(like), {});
  }
  Value add(Value x, Value y) {
    return hlo::AddOp::create(b, loc, match(x, y), match(y, x));
  }
  Value add(Value x, uint32_t v) { return add(x, constant(tensorType(x), v)); }
  Value xorOf(Value x, Value y) {
    return hlo::XorOp::create(b, loc, match(x, y), match(y, x));
  }
  Value rotateLeft(Value x, int distance) {
    Value left =
        hlo::ShiftLeftOp::create(b, loc, x, constant(tensorType(x), distance));
    Value right = hlo::ShiftRightLogicalOp::create(
        b, loc, x, constant(tensorType(x), 32 - distance));
    return hlo::OrOp::create(b, loc, left, right);
  }
  /// x < y as unsigned 32-bit words: the signed order with the sign bits
  /// flipped.
  Value unsignedLess(Value x, Value y) {
    Value sign = constant(tensorType(x), 0x80000000u);
    return hlo::CompareOp::create(b, loc, hlo::ComparisonDirection::LT,
                                  hlo::XorOp::create(b, loc, x, sign),
                                  hlo::XorOp::create(b, loc, match(y, x), sign),
                                  hlo::ComparisonTypeAttr());
  }
  /// 0 or 1 from a pred.
  Value carry(Value pred) {
    RankedTensorType type =
        RankedTensorType::get(tensorType(pred).getShape(), b.getI32Type());
    return hlo::SelectOp::create(b, loc, pred, constant(type, 1),
                                 constant(type, 0));
  }
  /// The (low, high) words of x * m as unsigned 32-bit words, m a constant:
  /// the signed high word plus the corrections for operands whose sign bit
  /// is set (m when x's is, x when m's is).
  std::pair<Value, Value> multiplyWide(Value x, uint32_t m) {
    RankedTensorType type = tensorType(x);
    Value mv = constant(type, m);
    Value low = hlo::MultiplyOp::create(b, loc, x, mv);
    Value high = hlo::MulhiOp::create(b, loc, x, mv);
    Value negative =
        hlo::CompareOp::create(b, loc, hlo::ComparisonDirection::LT, x,
                               constant(type, 0), hlo::ComparisonTypeAttr());
    high = hlo::AddOp::create(
        b, loc, high,
        hlo::SelectOp::create(b, loc, negative, mv, constant(type, 0)));
    if (m & 0x80000000u)
      high = hlo::AddOp::create(b, loc, high, x);
    return {low, high};
  }

  OpBuilder &b;
  Location loc;
  LinalgBuilder lb;
};

/// The state u64[n] as n (low, high) pairs of rank-0 s32 words.
SmallVector<std::pair<Value, Value>> stateWords(Words &w, Value state) {
  OpBuilder &b = w.b;
  Location loc = w.loc;
  int64_t n = tensorType(state).getDimSize(0);
  Value halves = hlo::BitcastConvertOp::create(
      b, loc, RankedTensorType::get({n, 2}, b.getIntegerType(32, false)),
      state);
  halves = hlo::BitcastConvertOp::create(
      b, loc, RankedTensorType::get({n, 2}, b.getI32Type()), halves);
  SmallVector<std::pair<Value, Value>> words;
  auto word = [&](int64_t i, int64_t h) -> Value {
    Value one = w.lb.sliceMinor(halves, i, h, i + 1, h + 1);
    return hlo::ReshapeOp::create(b, loc, w.scalarType(), one);
  };
  for (int64_t i = 0; i < n; ++i)
    words.push_back({word(i, 0), word(i, 1)});
  return words;
}

/// The u64[n] state from (low, high) pairs of rank-0 s32 words.
Value joinState(Words &w, ArrayRef<std::pair<Value, Value>> words) {
  OpBuilder &b = w.b;
  Location loc = w.loc;
  int64_t n = words.size();
  auto pairType = RankedTensorType::get({1, 1}, b.getI32Type());
  SmallVector<Value> rows;
  for (auto [low, high] : words) {
    Value l = hlo::ReshapeOp::create(b, loc, pairType, low);
    Value h = hlo::ReshapeOp::create(b, loc, pairType, high);
    rows.push_back(hlo::ConcatenateOp::create(b, loc, ValueRange{l, h}, 1));
  }
  Value pairs = hlo::ConcatenateOp::create(b, loc, rows, 0);
  pairs = hlo::BitcastConvertOp::create(
      b, loc, RankedTensorType::get({n, 2}, b.getIntegerType(32, false)),
      pairs);
  return hlo::BitcastConvertOp::create(
      b, loc, RankedTensorType::get({n}, b.getIntegerType(64, false)), pairs);
}

/// (low, high) + delta (a s32 array of non-negative values, or a constant
/// when `delta` is null) as 64-bit words with carry.
std::pair<Value, Value> add64(Words &w, Value low, Value high, Value delta) {
  Value sum = w.add(low, delta);
  Value carried = w.add(high, w.carry(w.unsignedLess(sum, delta)));
  return {sum, carried};
}

/// Threefry-2x32, 20 rounds, on word arrays x0, x1 and scalar keys.
std::pair<Value, Value> threeFry2x32(Words &w, Value x0, Value x1, Value k0,
                                     Value k1) {
  static constexpr int kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  Value ks[3] = {k0, k1, w.xorOf(w.xorOf(k0, k1), w.scalar(0x1BD11BDAu))};
  x0 = w.add(x0, ks[0]);
  x1 = w.add(x1, ks[1]);
  for (uint32_t block = 0; block < 5; ++block) {
    for (int r = 0; r < 4; ++r) {
      x0 = w.add(x0, x1);
      x1 = w.rotateLeft(x1, kRotations[(block % 2) * 4 + r]);
      x1 = w.xorOf(x1, x0);
    }
    x0 = w.add(x0, ks[(block + 1) % 3]);
    x1 = w.add(w.add(x1, ks[(block + 2) % 3]), block + 1);
  }
  return {x0, x1};
}

/// Philox-4x32, 10 rounds.
std::array<Value, 4> philox4x32(Words &w, std::array<Value, 4> x, Value k0,
                                Value k1) {
  for (int round = 0; round < 10; ++round) {
    auto [lo0, hi0] = w.multiplyWide(x[0], 0xD2511F53u);
    auto [lo1, hi1] = w.multiplyWide(x[2], 0xCD9E8D57u);
    x = {w.xorOf(w.xorOf(hi1, x[1]), k0), lo1, w.xorOf(w.xorOf(hi0, x[3]), k1),
         lo0};
    k0 = w.add(k0, w.scalar(0x9E3779B9u));
    k1 = w.add(k1, w.scalar(0xBB67AE85u));
  }
  return x;
}

/// words[k] ([count] each) interleaved into [count * words.size()].
Value interleave(Words &w, ArrayRef<Value> words) {
  OpBuilder &b = w.b;
  int64_t count = tensorType(words[0]).getDimSize(0);
  int64_t n = words.size();
  SmallVector<Value> columns;
  for (Value v : words)
    columns.push_back(hlo::ReshapeOp::create(
        b, w.loc, RankedTensorType::get({count, 1}, b.getI32Type()), v));
  Value stacked = hlo::ConcatenateOp::create(b, w.loc, columns, 1);
  return hlo::ReshapeOp::create(
      b, w.loc, RankedTensorType::get({count * n}, b.getI32Type()), stacked);
}

/// The first `count` elements of the rank-1 `flat`, reshaped to `shape`
/// (s32), or to [shape..., 2] pairs when `pairs`.
Value shapeBits(Words &w, Value flat, ArrayRef<int64_t> shape, bool pairs) {
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  int64_t width = pairs ? 2 : 1;
  if (tensorType(flat).getDimSize(0) != count * width)
    flat = hlo::SliceOp::create(w.b, w.loc, flat, w.b.getDenseI64ArrayAttr({0}),
                                w.b.getDenseI64ArrayAttr({count * width}),
                                w.b.getDenseI64ArrayAttr({1}));
  SmallVector<int64_t> out(shape);
  if (pairs)
    out.push_back(2);
  return hlo::ReshapeOp::create(
      w.b, w.loc, RankedTensorType::get(out, w.b.getI32Type()), flat);
}

Value iota(Words &w, int64_t n) {
  return hlo::IotaOp::create(w.b, w.loc,
                             RankedTensorType::get({n}, w.b.getI32Type()), 0);
}

struct Draw {
  Value bits; // s32 [shape] or [shape, 2] for 64-bit elements
  SmallVector<std::pair<Value, Value>> state;
};

Draw threeFry(Words &w, ArrayRef<std::pair<Value, Value>> state,
              ArrayRef<int64_t> shape, bool wide) {
  auto [k0, k1] = state[0];
  auto [c0, c1] = state[1];
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  Draw draw;
  if (wide) {
    auto [lo, hi] = add64(w, c0, c1, iota(w, count));
    auto [x0, x1] = threeFry2x32(w, lo, hi, k0, k1);
    draw.bits = shapeBits(w, interleave(w, {x0, x1}), shape, true);
    draw.state = {state[0], add64(w, c0, c1, w.scalar(count))};
    return draw;
  }
  SmallVector<int64_t> half(shape);
  int64_t split = hlo::threeFrySplitDimension(shape);
  if (split >= 0)
    half[split] = (shape[split] + 1) / 2;
  int64_t halves = 1;
  for (int64_t d : half)
    halves *= d;
  auto [lo, hi] = add64(w, c0, c1, iota(w, halves));
  auto [x0, x1] = threeFry2x32(w, lo, hi, k0, k1);
  if (split < 0) {
    // A scalar: the first word of the one pair.
    draw.bits = shapeBits(w, x0, shape, false);
  } else {
    // Element (.., i, ..) of the split dimension is word i % 2 of half
    // element (.., i / 2, ..): the two words stacked after the split
    // dimension, which then merges with it.
    SmallVector<int64_t> stacked(half);
    stacked.insert(stacked.begin() + split + 1, 1);
    auto type = RankedTensorType::get(stacked, w.b.getI32Type());
    Value a = hlo::ReshapeOp::create(w.b, w.loc, type, x0);
    Value c = hlo::ReshapeOp::create(w.b, w.loc, type, x1);
    Value both =
        hlo::ConcatenateOp::create(w.b, w.loc, ValueRange{a, c}, split + 1);
    SmallVector<int64_t> merged(half);
    merged[split] *= 2;
    Value bits = hlo::ReshapeOp::create(
        w.b, w.loc, RankedTensorType::get(merged, w.b.getI32Type()), both);
    if (merged[split] != shape[split]) {
      SmallVector<int64_t> zero(shape.size(), 0), one(shape.size(), 1);
      bits = hlo::SliceOp::create(
          w.b, w.loc, bits, w.b.getDenseI64ArrayAttr(zero),
          w.b.getDenseI64ArrayAttr(shape), w.b.getDenseI64ArrayAttr(one));
    }
    draw.bits = bits;
  }
  draw.state = {state[0], add64(w, c0, c1, w.scalar(halves))};
  return draw;
}

Draw philox(Words &w, ArrayRef<std::pair<Value, Value>> state,
            ArrayRef<int64_t> shape, bool wide) {
  auto [k0, k1] = state[0];
  // A u64[2] state is reversed: (counter low, key) is the 128-bit counter.
  auto [c0, c1] = state[1];
  auto [c2, c3] = state.size() >= 3 ? state[2] : state[0];
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  int64_t perBlock = wide ? 2 : 4;
  int64_t blocks = (count + perBlock - 1) / perBlock;
  // The 128-bit counter plus the block index (XLA's Uint128AddUint64).
  auto counterPlus = [&](Value delta) -> std::array<Value, 4> {
    auto [lo0, lo1] = add64(w, c0, c1, delta);
    // The low half wrapped when its high word carried into zero.
    Value wrapped = hlo::AndOp::create(
        w.b, w.loc, w.unsignedLess(lo0, delta),
        hlo::CompareOp::create(w.b, w.loc, hlo::ComparisonDirection::EQ, lo1,
                               w.constant(tensorType(lo1), 0),
                               hlo::ComparisonTypeAttr()));
    auto [hi0, hi1] = add64(w, c2, c3, w.carry(wrapped));
    return {lo0, lo1, hi0, hi1};
  };
  std::array<Value, 4> counter = counterPlus(iota(w, blocks));
  std::array<Value, 4> x = philox4x32(w, counter, k0, k1);
  Draw draw;
  draw.bits = shapeBits(w, interleave(w, x), shape, wide);
  std::array<Value, 4> next = counterPlus(w.scalar(blocks));
  draw.state = {state[0], {next[0], next[1]}};
  if (state.size() >= 3)
    draw.state.push_back({next[2], next[3]});
  return draw;
}

LogicalResult expand(hlo::RngBitGeneratorOp op) {
  RankedTensorType outType = op.getOutput().getType();
  unsigned width = outType.getElementTypeBitWidth();
  if (width != 32 && width != 64)
    return op.emitError() << "tpuc compiles 'hlo.rng_bit_generator' with 32- "
                             "and 64-bit results only, not "
                          << outType;
  OpBuilder b(op);
  Words w(b, op.getLoc());
  SmallVector<std::pair<Value, Value>> state =
      stateWords(w, op.getInitialState());
  bool wide = width == 64;
  Draw draw = op.getAlgorithm() == hlo::RngAlgorithm::THREE_FRY
                  ? threeFry(w, state, outType.getShape(), wide)
                  : philox(w, state, outType.getShape(), wide);
  Value bits = draw.bits;
  auto intType = cast<IntegerType>(outType.getElementType());
  if (wide) {
    // s32 pairs -> u32 pairs (or s32) -> the 64-bit elements.
    SmallVector<int64_t> pairShape(outType.getShape());
    pairShape.push_back(2);
    bits = hlo::BitcastConvertOp::create(
        b, w.loc,
        RankedTensorType::get(pairShape, intType.isUnsigned()
                                             ? b.getIntegerType(32, false)
                                             : b.getI32Type()),
        bits);
  }
  if (tensorType(bits) != outType)
    bits = hlo::BitcastConvertOp::create(b, w.loc, outType, bits);
  op.getOutputState().replaceAllUsesWith(joinState(w, draw.state));
  op.getOutput().replaceAllUsesWith(bits);
  op.erase();
  return success();
}

class ExpandRngBitGeneratorPass
    : public impl::ExpandRngBitGeneratorBase<ExpandRngBitGeneratorPass> {
public:
  void runOnOperation() override {
    if (failed(expandEach<hlo::RngBitGeneratorOp>(getOperation(), expand)))
      signalPassFailure();
  }
};
} // namespace
} // namespace tpuc
