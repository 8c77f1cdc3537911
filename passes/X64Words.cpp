//===- X64Words.cpp - 64-bit integer arithmetic on 32-bit words -----------===//

#include "passes/X64Words.h"

#include "passes/LinalgBuilder.h"

namespace tpuc {
using namespace mlir;
using hlo::ComparisonDirection;

namespace {
constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
} // namespace

//===----------------------------------------------------------------------===//
// 32-bit words
//===----------------------------------------------------------------------===//

Value X64Builder::splat(ArrayRef<int64_t> shape, int32_t v) {
  auto type = RankedTensorType::get(shape, b.getI32Type());
  return hlo::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getI32IntegerAttr(v).getValue()));
}

Value X64Builder::splatLike(Value x, int32_t v) {
  return splat(tensorType(x).getShape(), v);
}

Value X64Builder::compare(ComparisonDirection dir, Value x, Value y,
                          bool isUnsigned) {
  hlo::ComparisonTypeAttr type;
  if (isUnsigned)
    type = hlo::ComparisonTypeAttr::get(b.getContext(),
                                        hlo::ComparisonType::UNSIGNED);
  return hlo::CompareOp::create(b, loc, dir, x, y, type);
}

Value X64Builder::compare(ComparisonDirection dir, Value x, int32_t y,
                          bool isUnsigned) {
  return compare(dir, x, splatLike(x, y), isUnsigned);
}

Value X64Builder::bit(Value pred) {
  return hlo::ConvertOp::create(
      b, loc,
      RankedTensorType::get(tensorType(pred).getShape(), b.getI32Type()), pred);
}

Value X64Builder::add(Value x, Value y) {
  return hlo::AddOp::create(b, loc, x, y);
}
Value X64Builder::sub(Value x, Value y) {
  return hlo::SubtractOp::create(b, loc, x, y);
}
Value X64Builder::sub(int32_t x, Value y) { return sub(splatLike(y, x), y); }
Value X64Builder::orOf(Value x, Value y) {
  return hlo::OrOp::create(b, loc, x, y);
}
Value X64Builder::andOf(Value x, Value y) {
  return hlo::AndOp::create(b, loc, x, y);
}
Value X64Builder::andOf(Value x, int32_t y) {
  return andOf(x, splatLike(x, y));
}
Value X64Builder::xorOf(Value x, int32_t y) {
  return hlo::XorOp::create(b, loc, x, splatLike(x, y));
}
Value X64Builder::shl(Value x, Value n) {
  return hlo::ShiftLeftOp::create(b, loc, x, n);
}
Value X64Builder::shrl(Value x, Value n) {
  return hlo::ShiftRightLogicalOp::create(b, loc, x, n);
}
Value X64Builder::select(Value pred, Value x, Value y) {
  return hlo::SelectOp::create(b, loc, pred, x, y);
}
Value X64Builder::select(Value pred, int32_t x, Value y) {
  return select(pred, splatLike(y, x), y);
}

Value X64Builder::mulhiUnsigned(Value x, Value y) {
  Value zero = splatLike(x, 0);
  Value high = hlo::MulhiOp::create(b, loc, x, y);
  high = add(high, select(compare(ComparisonDirection::LT, x, 0), y, zero));
  return add(high, select(compare(ComparisonDirection::LT, y, 0), x, zero));
}

Value X64Builder::toI32(Value x) {
  RankedTensorType type = tensorType(x);
  auto i32 = RankedTensorType::get(type.getShape(), b.getI32Type());
  if (type == i32)
    return x;
  if (type.getElementType().isUnsignedInteger(32))
    return hlo::BitcastConvertOp::create(b, loc, i32, x);
  return hlo::ConvertOp::create(b, loc, i32, x);
}

//===----------------------------------------------------------------------===//
// 64-bit forms
//===----------------------------------------------------------------------===//

WordPair X64Builder::constant(ArrayRef<int64_t> shape, uint64_t v) {
  return {splat(shape, static_cast<int32_t>(static_cast<uint32_t>(v))),
          splat(shape, static_cast<int32_t>(static_cast<uint32_t>(v >> 32)))};
}

WordPair X64Builder::add(WordPair x, WordPair y) {
  Value lo = add(x.lo, y.lo);
  Value carry = bit(compare(ComparisonDirection::LT, lo, x.lo, true));
  return {lo, add(add(x.hi, y.hi), carry)};
}

WordPair X64Builder::subtract(WordPair x, WordPair y) {
  Value borrow = bit(compare(ComparisonDirection::LT, x.lo, y.lo, true));
  return {sub(x.lo, y.lo), sub(sub(x.hi, y.hi), borrow)};
}

WordPair X64Builder::negate(WordPair x) {
  return subtract(constant(tensorType(x.lo).getShape(), 0), x);
}

WordPair X64Builder::multiply(WordPair x, WordPair y) {
  // (xh 2^32 + xl)(yh 2^32 + yl) mod 2^64: the wide xl*yl plus the low
  // words of the cross products in the high word.
  Value hi = mulhiUnsigned(x.lo, y.lo);
  hi = add(hi, hlo::MultiplyOp::create(b, loc, x.lo, y.hi));
  hi = add(hi, hlo::MultiplyOp::create(b, loc, x.hi, y.lo));
  return {hlo::MultiplyOp::create(b, loc, x.lo, y.lo), hi};
}

Value X64Builder::compare(ComparisonDirection dir, WordPair x, WordPair y,
                          bool isUnsigned) {
  using D = ComparisonDirection;
  switch (dir) {
  case D::EQ:
    return andOf(compare(D::EQ, x.lo, y.lo), compare(D::EQ, x.hi, y.hi));
  case D::NE:
    return orOf(compare(D::NE, x.lo, y.lo), compare(D::NE, x.hi, y.hi));
  case D::GT:
    return compare(D::LT, y, x, isUnsigned);
  case D::GE:
    return compare(D::LE, y, x, isUnsigned);
  case D::LT:
  case D::LE:
    // The high words decide unless equal; then the low words, unsigned.
    return orOf(
        compare(D::LT, x.hi, y.hi, isUnsigned),
        andOf(compare(D::EQ, x.hi, y.hi), compare(dir, x.lo, y.lo, true)));
  }
  return {};
}

WordPair X64Builder::select(Value pred, WordPair x, WordPair y) {
  return {select(pred, x.lo, y.lo), select(pred, x.hi, y.hi)};
}

Value X64Builder::nonzero(WordPair x) {
  return orOf(compare(ComparisonDirection::NE, x.lo, 0),
              compare(ComparisonDirection::NE, x.hi, 0));
}

WordPair X64Builder::minOrMax(WordPair x, WordPair y, bool isMax,
                              bool isUnsigned) {
  Value less = compare(ComparisonDirection::LT, x, y, isUnsigned);
  return isMax ? select(less, y, x) : select(less, x, y);
}

WordPair X64Builder::abs(WordPair x) {
  return select(compare(ComparisonDirection::LT, x.hi, 0), negate(x), x);
}

Value X64Builder::shiftAmount(WordPair n, int32_t big) {
  Value tooBig = orOf(compare(ComparisonDirection::NE, n.hi, 0),
                      compare(ComparisonDirection::GT, n.lo, 63, true));
  return select(tooBig, big, n.lo);
}

// The 32-bit shifts give 0 for an amount of 32 or more and for a negative
// one, so each word is an or of the three places its bits can come from
// (at n = 32 two of them are the same word).
WordPair X64Builder::shiftLeftBy(WordPair x, Value n) {
  Value hi = orOf(orOf(shl(x.hi, n), shrl(x.lo, sub(32, n))),
                  shl(x.lo, sub(n, splatLike(n, 32))));
  return {shl(x.lo, n), hi};
}

WordPair X64Builder::shiftLeft(WordPair x, WordPair amount) {
  return shiftLeftBy(x, shiftAmount(amount, 64));
}

WordPair X64Builder::shiftRightLogical(WordPair x, WordPair amount) {
  Value n = shiftAmount(amount, 64);
  Value lo = orOf(orOf(shrl(x.lo, n), shl(x.hi, sub(32, n))),
                  shrl(x.hi, sub(n, splatLike(n, 32))));
  return {lo, shrl(x.hi, n)};
}

WordPair X64Builder::shiftRightArithmetic(WordPair x, WordPair amount) {
  // An amount of 64 or more shifts as 63 does (every bit the sign).
  Value n = shiftAmount(amount, 63);
  Value hi = hlo::ShiftRightArithmeticOp::create(b, loc, x.hi, n);
  Value below = orOf(shrl(x.lo, n), shl(x.hi, sub(32, n)));
  Value above = hlo::ShiftRightArithmeticOp::create(b, loc, x.hi,
                                                    sub(n, splatLike(n, 32)));
  return {select(compare(ComparisonDirection::LT, n, 32), below, above), hi};
}

WordPair X64Builder::shiftLeftOne(WordPair x, Value in) {
  Value one = splatLike(x.lo, 1), top = splatLike(x.lo, 31);
  return {orOf(shl(x.lo, one), in), orOf(shl(x.hi, one), shrl(x.lo, top))};
}

SmallVector<Value>
X64Builder::loop(int32_t trips, ArrayRef<Value> init,
                 llvm::function_ref<SmallVector<Value>(ValueRange)> step) {
  using D = ComparisonDirection;
  // State: the trip count, then `init`.
  SmallVector<Value> state = {splat({}, 0)};
  state.append(init.begin(), init.end());
  SmallVector<Type> types(ValueRange(state).getTypes());
  SmallVector<Location> locs(state.size(), loc);
  auto loop = hlo::WhileOp::create(b, loc, types, state);
  OpBuilder::InsertionGuard guard(b);
  Block *cond = b.createBlock(&loop.getCond(), {}, types, locs);
  hlo::ReturnOp::create(b, loc,
                        compare(D::LT, cond->getArgument(0), splat({}, trips)));
  Block *body = b.createBlock(&loop.getBody(), {}, types, locs);
  SmallVector<Value> next = step(body->getArguments().drop_front());
  next.insert(next.begin(), add(body->getArgument(0), splat({}, 1)));
  hlo::ReturnOp::create(b, loc, next);
  return SmallVector<Value>(loop.getResults().drop_front());
}

std::pair<WordPair, WordPair> X64Builder::divideUnsigned(WordPair n,
                                                         WordPair d) {
  using D = ComparisonDirection;
  ArrayRef<int64_t> shape = tensorType(n.lo).getShape();
  WordPair zero = constant(shape, 0);
  // State: n, d, q, r (n shifts its bits out into r, top first).
  SmallVector<Value> out =
      loop(64, {n.lo, n.hi, d.lo, d.hi, zero.lo, zero.hi, zero.lo, zero.hi},
           [&](ValueRange arg) -> SmallVector<Value> {
             WordPair bn{arg[0], arg[1]}, bd{arg[2], arg[3]}, q{arg[4], arg[5]},
                 r{arg[6], arg[7]};
             Value top = splatLike(bn.hi, 31);
             // r = 2r + n's top bit; r < d before, so 2r + 1 - d < d: one
             // subtract, taken when the shifted r (with the bit it shifted
             // out) reaches d.
             Value carry = shrl(r.hi, top);
             r = shiftLeftOne(r, shrl(bn.hi, top));
             bn = shiftLeftOne(bn, splatLike(bn.hi, 0));
             Value take = orOf(compare(D::NE, carry, 0),
                               compare(D::GE, r, bd, /*isUnsigned=*/true));
             r = select(take, subtract(r, bd), r);
             q = shiftLeftOne(q, bit(take));
             return {bn.lo, bn.hi, bd.lo, bd.hi, q.lo, q.hi, r.lo, r.hi};
           });
  return {{out[4], out[5]}, {out[6], out[7]}};
}

WordPair X64Builder::power(WordPair base, WordPair exponent, bool isUnsigned) {
  using D = ComparisonDirection;
  ArrayRef<int64_t> shape = tensorType(base.lo).getShape();
  WordPair one = constant(shape, 1);
  // Square and multiply, one exponent bit per trip (low bit first), with
  // wrapping products; the exponent as unsigned.
  SmallVector<Value> out =
      loop(64, {one.lo, one.hi, base.lo, base.hi, exponent.lo, exponent.hi},
           [&](ValueRange arg) -> SmallVector<Value> {
             WordPair r{arg[0], arg[1]}, x{arg[2], arg[3]}, e{arg[4], arg[5]};
             Value odd = compare(D::NE, andOf(e.lo, 1), 0);
             r = select(odd, multiply(r, x), r);
             x = multiply(x, x);
             Value c1 = splatLike(e.lo, 1), c31 = splatLike(e.lo, 31);
             e = {orOf(shrl(e.lo, c1), shl(e.hi, c31)), shrl(e.hi, c1)};
             return {r.lo, r.hi, x.lo, x.hi, e.lo, e.hi};
           });
  WordPair r{out[0], out[1]};
  if (isUnsigned)
    return r;
  // XLA (and the interpreter): a negative exponent gives 1 for a base of 1
  // and 0 for any other (-1 included).
  Value baseOne = andOf(compare(D::EQ, base.lo, 1), compare(D::EQ, base.hi, 0));
  WordPair small = select(baseOne, one, constant(shape, 0));
  return select(compare(D::LT, exponent.hi, 0), small, r);
}

WordPair X64Builder::divide(WordPair n, WordPair d, bool isUnsigned,
                            bool remainder) {
  using D = ComparisonDirection;
  if (isUnsigned) {
    auto [q, r] = divideUnsigned(n, d);
    return remainder ? r : q;
  }
  // On magnitudes (INT64_MIN's is 2^63 unsigned), then the signs: the
  // quotient's from both (x / 0 = -1 regardless), the remainder's from n.
  Value nNeg = compare(D::LT, n.hi, 0), dNeg = compare(D::LT, d.hi, 0);
  auto [q, r] = divideUnsigned(abs(n), abs(d));
  if (remainder)
    return select(nNeg, negate(r), r);
  Value dZero = andOf(compare(D::EQ, d.lo, 0), compare(D::EQ, d.hi, 0));
  q = select(hlo::XorOp::create(b, loc, nNeg, dNeg), negate(q), q);
  return select(dZero, constant(tensorType(n.lo).getShape(), ~uint64_t(0)), q);
}

WordPair X64Builder::extend(Value x, bool isSigned) {
  if (!isSigned)
    return {x, splatLike(x, 0)};
  return {x, hlo::ShiftRightArithmeticOp::create(b, loc, x, splatLike(x, 31))};
}

Value X64Builder::wordFromF32(Value f) {
  // The VPU's f32 -> s32 convert saturates at 2^31: the upper half of the
  // range converts f - 2^31 (exact: Sterbenz) and sets the sign bit.
  RankedTensorType type = tensorType(f);
  auto i32 = RankedTensorType::get(type.getShape(), b.getI32Type());
  LinalgBuilder lb(b, loc);
  Value twoTo31 = lb.splat(type, 2147483648.0);
  Value upper = compare(ComparisonDirection::GE, f, twoTo31);
  Value high =
      xorOf(hlo::ConvertOp::create(b, loc, i32, sub(f, twoTo31)), kMin);
  return select(upper, high, hlo::ConvertOp::create(b, loc, i32, f));
}

WordPair X64Builder::fromF32(Value x, bool isUnsigned) {
  RankedTensorType type = tensorType(x);
  ArrayRef<int64_t> shape = type.getShape();
  LinalgBuilder lb(b, loc);
  // |x| truncated, split into words exactly (an f32 integer below 2^64
  // has at most 24 significant bits, so t - hi * 2^32 is exact).
  Value a = hlo::AbsOp::create(b, loc, x);
  Value t = hlo::FloorOp::create(b, loc, a);
  Value hiF = hlo::FloorOp::create(
      b, loc, hlo::MultiplyOp::create(b, loc, t, lb.splat(type, 0x1p-32)));
  Value loF =
      sub(t, hlo::MultiplyOp::create(b, loc, hiF, lb.splat(type, 0x1p32)));
  WordPair m{wordFromF32(loF), wordFromF32(hiF)};
  Value negative = compare(ComparisonDirection::LT, x, lb.splat(type, 0.0));
  if (isUnsigned) {
    Value over = compare(ComparisonDirection::GE, a, lb.splat(type, 0x1p64));
    WordPair r = select(over, constant(shape, ~uint64_t(0)), m);
    return select(negative, constant(shape, 0), r);
  }
  Value over = compare(ComparisonDirection::GE, a, lb.splat(type, 0x1p63));
  WordPair positive =
      select(over, constant(shape, uint64_t(kMax) << 32 | ~0u), m);
  WordPair negated =
      select(over, constant(shape, uint64_t(1) << 63), negate(m));
  return select(negative, negated, positive);
}

Value X64Builder::toF32(WordPair x, bool isUnsigned) {
  using D = ComparisonDirection;
  WordPair m = isUnsigned ? x : abs(x);
  // Normalize so the leading one is bit 63, then round the top 24 bits to
  // nearest even on the bits below (guard, then sticky).
  Value hiZero = compare(D::EQ, m.hi, 0);
  Value lz =
      select(hiZero, add(hlo::ClzOp::create(b, loc, m.lo), splatLike(m.lo, 32)),
             hlo::ClzOp::create(b, loc, m.hi));
  WordPair norm = shiftLeftBy(m, lz);
  Value mant = shrl(norm.hi, splatLike(lz, 8));
  Value guard = andOf(shrl(norm.hi, splatLike(lz, 7)), 1);
  Value sticky = bit(orOf(compare(D::NE, andOf(norm.hi, 0x7f), 0),
                          compare(D::NE, norm.lo, 0)));
  Value up = andOf(guard, orOf(sticky, andOf(mant, 1)));
  // Exponent field 127 + 63 - lz, less one for the mantissa's leading one
  // (a carry out of the rounding bumps the exponent, as it should).
  Value bits = add(shl(sub(189, lz), splatLike(lz, 23)), add(mant, up));
  bits = select(compare(D::EQ, lz, 64), 0, bits);
  if (!isUnsigned)
    bits = orOf(bits, andOf(x.hi, kMin));
  return hlo::BitcastConvertOp::create(
      b, loc,
      RankedTensorType::get(tensorType(bits).getShape(), b.getF32Type()), bits);
}

Value X64Builder::saturateToI32(WordPair x, bool isUnsigned) {
  using D = ComparisonDirection;
  if (isUnsigned) {
    Value fits = andOf(compare(D::EQ, x.hi, 0), compare(D::GE, x.lo, 0));
    return select(fits, x.lo, splatLike(x.lo, kMax));
  }
  Value fits = compare(
      D::EQ, x.hi,
      hlo::ShiftRightArithmeticOp::create(b, loc, x.lo, splatLike(x.lo, 31)));
  Value saturated = select(compare(D::LT, x.hi, 0), splatLike(x.lo, kMin),
                           splatLike(x.lo, kMax));
  return select(fits, x.lo, saturated);
}

} // namespace tpuc
