//===- ExpandMath.cpp - transcendental ops into VPU arithmetic ----------===//
//
// tpuc-expand-math: rewrites the math functions the VPU has no instruction
// for (sine ... power, map) into the elementwise ops the loop kernels
// lower: add, multiply, divide, exp, log, sqrt, compare, select, convert.
// See Passes.td for the contract and docs/math-functions.md for the
// algorithms and their measured accuracy.
//
// The approximations are the classic single-precision ones (Cephes, ARM
// optimized-routines, fdlibm): range reduction by compares, selects and
// f32 <-> s32 converts (the VPU has neither bitwise ops nor floor), then
// minimax polynomials. bf16 computes in f32 and rounds once at the end,
// as XLA does. Every expansion is one loop kernel: an op outside a fusion
// is first wrapped in an hlo.fusion of its own, so its dozens of
// intermediates stay in vregs.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/bit.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>
#include <optional>

namespace tpuc {
#define GEN_PASS_DEF_EXPANDMATH
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;
using hlo::ComparisonDirection;

/// Builds elementwise hlo ops on arrays of one shape: f32 values, s32
/// values and preds. Constants are splats (immediates in the kernel).
class MathBuilder {
public:
  MathBuilder(OpBuilder &b, Location loc, ArrayRef<int64_t> shape)
      : b(b), loc(loc), f32(RankedTensorType::get(shape, b.getF32Type())),
        s32(RankedTensorType::get(shape, b.getI32Type())),
        pred(RankedTensorType::get(shape, b.getI1Type())) {}

  Value f(double v) {
    return hlo::ConstantOp::create(
        b, loc, DenseElementsAttr::get(f32, b.getF32FloatAttr(v).getValue()));
  }
  Value i(int32_t v) {
    return hlo::ConstantOp::create(
        b, loc, DenseElementsAttr::get(s32, b.getI32IntegerAttr(v).getValue()));
  }
  Value nan() { return f(std::numeric_limits<double>::quiet_NaN()); }
  Value inf() { return f(std::numeric_limits<double>::infinity()); }

  template <typename Op> Value unary(Value x) {
    return Op::create(b, loc, x.getType(), x);
  }
  template <typename Op> Value binary(Value x, Value y) {
    return Op::create(b, loc, x.getType(), x, y);
  }
  Value add(Value x, Value y) { return binary<hlo::AddOp>(x, y); }
  Value sub(Value x, Value y) { return binary<hlo::SubtractOp>(x, y); }
  Value mul(Value x, Value y) { return binary<hlo::MultiplyOp>(x, y); }
  Value div(Value x, Value y) { return binary<hlo::DivideOp>(x, y); }
  Value rem(Value x, Value y) { return binary<hlo::RemainderOp>(x, y); }
  Value neg(Value x) { return unary<hlo::NegOp>(x); }
  Value abs(Value x) { return unary<hlo::AbsOp>(x); }
  Value exp(Value x) { return unary<hlo::ExpOp>(x); }
  Value log(Value x) { return unary<hlo::LogOp>(x); }
  Value sqrt(Value x) { return unary<hlo::SqrtOp>(x); }

  Value cmp(ComparisonDirection d, Value x, Value y) {
    return hlo::CompareOp::create(b, loc, pred, d, x, y,
                                  hlo::ComparisonTypeAttr());
  }
  Value lt(Value x, Value y) { return cmp(ComparisonDirection::LT, x, y); }
  Value le(Value x, Value y) { return cmp(ComparisonDirection::LE, x, y); }
  Value gt(Value x, Value y) { return cmp(ComparisonDirection::GT, x, y); }
  Value ge(Value x, Value y) { return cmp(ComparisonDirection::GE, x, y); }
  Value eq(Value x, Value y) { return cmp(ComparisonDirection::EQ, x, y); }
  Value ne(Value x, Value y) { return cmp(ComparisonDirection::NE, x, y); }
  Value select(Value p, Value t, Value e) {
    return hlo::SelectOp::create(b, loc, t.getType(), p, t, e);
  }
  // pred logic: the VPU computes and/or of preds as min/max of 0/1.
  Value both(Value p, Value q) { return binary<hlo::AndOp>(p, q); }
  Value either(Value p, Value q) { return binary<hlo::OrOp>(p, q); }
  Value negation(Value p) { return unary<hlo::NotOp>(p); }

  Value toS32(Value x) { return hlo::ConvertOp::create(b, loc, s32, x); }
  Value toF32(Value x) { return hlo::ConvertOp::create(b, loc, f32, x); }

  /// c[0] + x * (c[1] + x * (c[2] + ...)) by Horner's rule.
  Value poly(Value x, ArrayRef<double> c) {
    Value r = f(c.back());
    for (double coefficient : llvm::reverse(c.drop_back()))
      r = add(mul(r, x), f(coefficient));
    return r;
  }

  /// Rounds to the nearest integer, halves away from zero, for |x| < 2^31
  /// (convert truncates toward zero). As s32.
  Value roundToS32(Value x) {
    return toS32(add(x, select(lt(x, f(0)), f(-0.5), f(0.5))));
  }

  /// Whether x's sign bit is set (x < 0, or x is -0: 1/-0 = -inf). False
  /// for NaN.
  Value signBit(Value x) {
    return either(lt(x, f(0)),
                  both(eq(x, f(0)), lt(div(f(1), x), f(0))));
  }

  /// r with the sign of x for r >= 0 (and +-0 kept as x), the tail of the
  /// odd functions.
  Value oddResult(Value x, Value r) {
    return select(eq(x, f(0)), x, select(lt(x, f(0)), neg(r), r));
  }

  // Exact float arithmetic without fma (Knuth, Dekker): results as
  // unevaluated sums hi + lo.
  /// x + y exactly.
  std::pair<Value, Value> twoSum(Value x, Value y) {
    Value s = add(x, y);
    Value yv = sub(s, x);
    Value xv = sub(s, yv);
    return {s, add(sub(x, xv), sub(y, yv))};
  }
  /// x + y exactly when |x| >= |y|.
  std::pair<Value, Value> fastTwoSum(Value x, Value y) {
    Value s = add(x, y);
    return {s, sub(y, sub(s, x))};
  }
  /// x as two 12-bit halves (Veltkamp), for |x| < 2^115.
  std::pair<Value, Value> split(Value x) {
    Value c = mul(f(4097), x);
    Value hi = sub(c, sub(c, x));
    return {hi, sub(x, hi)};
  }
  /// x * y exactly.
  std::pair<Value, Value> twoProduct(Value x, Value y) {
    Value p = mul(x, y);
    auto [xh, xl] = split(x);
    auto [yh, yl] = split(y);
    Value e = add(add(sub(mul(xh, yh), p), mul(xh, yl)), mul(xl, yh));
    return {p, add(e, mul(xl, yl))};
  }

  /// 2^p exactly for s32 |p| <= 127, by its binary digits.
  Value exp2Exact(Value p) {
    Value q = unary<hlo::AbsOp>(p);
    Value r = f(1);
    for (int bit = 0; bit < 7; ++bit) {
      // r first: the kernel emits operands depth-first, so each digit is
      // consumed as it is made (a select chain would keep all 7 live).
      r = mul(r, select(eq(rem(q, i(2)), i(1)),
                        f(std::ldexp(1.0, 1 << bit)), f(1)));
      q = div(q, i(2));
    }
    return select(lt(p, i(0)), div(f(1), r), r);
  }

  OpBuilder &b;
  Location loc;
  RankedTensorType f32, s32, pred;
};

//===----------------------------------------------------------------------===//
// The functions, on f32
//===----------------------------------------------------------------------===//

/// Cody-Waite reduction by pi/2: x = k pi/2 + r, |r| <= pi/4 (returns r
/// and k mod 4). pi/2 is four floats (96 bits) and the products k * part
/// are exact (Dekker), so r keeps its bits near multiples of pi/2 for
/// every k an s32 holds. Above 2^24, the float k the products use is
/// rounded; a second step removes the few multiples of pi/2 left (|k2| <=
/// 64, so 17-bit parts of pi/2 make its products exact without Dekker).
std::pair<Value, Value> reducePiOver2(MathBuilder &m, Value x) {
  Value kf = m.toF32(m.roundToS32(m.mul(x, m.f(2.0 / M_PI))));
  auto [h1, l1] = m.twoProduct(kf, m.f(1.5707963705062866));
  auto [h2, l2] = m.twoProduct(kf, m.f(-4.371138828673793e-08));
  Value small = m.add(m.mul(kf, m.f(-1.7151245100058819e-15)),
                      m.mul(kf, m.f(1.056299898220315e-23)));
  // x - h1 is exact (Sterbenz); the rest is summed exactly: r1 + e1.
  auto [r0, e0] = m.twoSum(m.sub(x, h1), m.neg(l1));
  auto [r1, e1] = m.twoSum(r0, m.neg(h2));
  e1 = m.sub(m.sub(m.add(e0, e1), l2), small);

  Value k2f = m.toF32(m.roundToS32(m.mul(r1, m.f(2.0 / M_PI))));
  Value a = m.sub(r1, m.mul(k2f, m.f(1.5707855224609375)));
  auto [r2, e2] = m.twoSum(a, m.neg(m.mul(k2f, m.f(1.0804273188114166e-05))));
  e2 = m.sub(m.sub(m.add(e2, e1), m.mul(k2f, m.f(6.07710062827671e-11))),
             m.mul(k2f, m.f(-1.2177051777973966e-18)));
  Value k = m.add(m.rem(m.toS32(kf), m.i(4)), m.toS32(k2f));
  return {m.add(r2, e2), m.rem(k, m.i(4))};
}

/// sin(r) and cos(r) for |r| <= pi/4: Cephes' sinf/cosf minimax
/// polynomials.
std::pair<Value, Value> sinCosKernel(MathBuilder &m, Value r) {
  Value z = m.mul(r, r);
  Value s = m.add(
      r, m.mul(m.mul(r, z),
               m.poly(z, {-1.6666654611e-1, 8.3321608736e-3, -1.9515295891e-4})));
  Value c = m.add(
      m.sub(m.f(1), m.mul(m.f(0.5), z)),
      m.mul(m.mul(z, z), m.poly(z, {4.166664568298827e-2, -1.388731625493765e-3,
                                    2.443315711809948e-5})));
  return {s, c};
}

/// sin (quadrantShift 0) or cos (1): the kernel of the quadrant
/// (k + shift) mod 4; inf gives NaN.
Value sinOrCosOf(MathBuilder &m, Value x, Value k, Value s, Value c,
                 int quadrantShift) {
  // q = (k + shift) mod 4 in [0, 4) (s32 remainder keeps the sign).
  Value q = m.rem(m.add(m.add(k, m.i(quadrantShift)), m.i(4)), m.i(4));
  Value odd = m.eq(m.rem(q, m.i(2)), m.i(1));
  Value v = m.select(odd, c, s);
  v = m.select(m.ge(q, m.i(2)), m.neg(v), v);
  // Beyond 2^31 pi/2 the s32 k saturates and r is not reduced: keep the
  // result in [-1, 1] (selects keep NaN).
  v = m.select(m.gt(v, m.f(1)), m.f(1), m.select(m.lt(v, m.f(-1)), m.f(-1), v));
  return m.select(m.eq(m.abs(x), m.inf()), m.nan(), v);
}

Value sinOrCos(MathBuilder &m, Value x, int quadrantShift) {
  auto [r, k] = reducePiOver2(m, x);
  auto [s, c] = sinCosKernel(m, r);
  return sinOrCosOf(m, x, k, s, c, quadrantShift);
}

Value tan(MathBuilder &m, Value x) {
  auto [r, k] = reducePiOver2(m, x);
  auto [s, c] = sinCosKernel(m, r);
  Value odd = m.ne(m.rem(k, m.i(2)), m.i(0));
  Value v = m.select(odd, m.neg(m.div(c, s)), m.div(s, c));
  return m.select(m.eq(m.abs(x), m.inf()), m.nan(), v);
}

/// atan(a) for a >= 0 (Cephes' atanf): reduce to |t| <= tan(pi/8) by
/// atan(a) = pi/4 + atan((a-1)/(a+1)) and pi/2 + atan(-1/a).
Value atanNonNegative(MathBuilder &m, Value a) {
  Value big = m.gt(a, m.f(2.414213562373095));
  Value mid = m.gt(a, m.f(0.4142135623730950));
  Value t = m.select(big, m.div(m.f(-1), a),
                     m.select(mid, m.div(m.sub(a, m.f(1)), m.add(a, m.f(1))), a));
  Value base = m.select(big, m.f(M_PI_2), m.select(mid, m.f(M_PI_4), m.f(0)));
  Value z = m.mul(t, t);
  Value p = m.poly(z, {-3.33329491539e-1, 1.99777106478e-1, -1.38776856032e-1,
                       8.05374449538e-2});
  return m.add(base, m.add(t, m.mul(m.mul(t, z), p)));
}

Value atan(MathBuilder &m, Value x) {
  return m.oddResult(x, atanNonNegative(m, m.abs(x)));
}

/// atan2 with libm's special cases: the angle of min/max in [0, pi/4],
/// mirrored into the octant of (x, y); +-0 and +-inf pairs by rule.
Value atan2(MathBuilder &m, Value y, Value x) {
  Value ay = m.abs(y), ax = m.abs(x);
  Value hi = m.select(m.gt(ay, ax), ay, ax);
  Value lo = m.select(m.gt(ay, ax), ax, ay);
  Value t = m.div(lo, hi);
  // 0/0 and inf/inf: the angle is 0 and pi/4 (times the octant rules).
  t = m.select(m.eq(hi, m.f(0)), m.f(0), t);
  t = m.select(m.both(m.eq(ay, m.inf()), m.eq(ax, m.inf())), m.f(1), t);
  Value a = atanNonNegative(m, t);
  a = m.select(m.gt(ay, ax), m.sub(m.f(M_PI_2), a), a);
  a = m.select(m.signBit(x), m.sub(m.f(M_PI), a), a);
  a = m.select(m.signBit(y), m.neg(a), a);
  // NaN in either operand is NaN (the selects above may have dropped it).
  Value anyNan = m.either(m.ne(x, x), m.ne(y, y));
  return m.select(anyNan, m.nan(), a);
}

/// asin(w) for |w| <= 0.5: Cephes' asinf polynomial.
Value asinKernel(MathBuilder &m, Value w) {
  Value z = m.mul(w, w);
  Value p = m.poly(z, {1.6666752422e-1, 7.4953002686e-2, 4.5470025998e-2,
                       2.4181311049e-2, 4.2163199048e-2});
  return m.add(w, m.mul(m.mul(w, z), p));
}

/// asin (Cephes' asinf): the polynomial on [0, 0.5] and asin(a) = pi/2 -
/// 2 asin(sqrt((1-a)/2)) above; NaN beyond 1 (sqrt of a negative).
Value asin(MathBuilder &m, Value x) {
  Value a = m.abs(x);
  Value upper = m.gt(a, m.f(0.5));
  Value r = asinKernel(
      m, m.select(upper, m.sqrt(m.mul(m.f(0.5), m.sub(m.f(1), a))), a));
  r = m.select(upper, m.sub(m.f(M_PI_2), m.add(r, r)), r);
  return m.oddResult(x, r);
}

/// acos (Cephes' acosf): pi/2 - asin(x) on [-0.5, 0.5], 2 asin(sqrt((1-x)/2))
/// above and pi - 2 asin(sqrt((1+x)/2)) below: one polynomial.
Value acos(MathBuilder &m, Value x) {
  Value upper = m.gt(x, m.f(0.5)), lower = m.lt(x, m.f(-0.5));
  Value w = m.sqrt(m.mul(m.f(0.5),
                         m.select(lower, m.add(m.f(1), x), m.sub(m.f(1), x))));
  Value s = asinKernel(m, m.select(m.either(upper, lower), w, x));
  Value twice = m.add(s, s);
  return m.select(upper, twice,
                  m.select(lower, m.sub(m.f(M_PI), twice),
                           m.sub(m.f(M_PI_2), s)));
}

/// expm1: x + x^2/2! + ... + x^10/10! on |x| < 0.5 (relative error below
/// 1e-9 there), e^x - 1 elsewhere.
Value expm1(MathBuilder &m, Value x) {
  SmallVector<double> c;
  double factorial = 2;
  for (int n = 2; n <= 10; ++n, factorial *= n)
    c.push_back(1 / factorial);
  Value small = m.add(x, m.mul(m.mul(x, x), m.poly(x, c)));
  Value large = m.sub(m.exp(x), m.f(1));
  return m.select(m.lt(m.abs(x), m.f(0.5)), small, large);
}

/// log1p as fdlibm corrects it: u = 1 + x rounds, and log(1 + x) =
/// log(u) + (x - (u - 1)) / u recovers the bits of x that u lost.
Value log1p(MathBuilder &m, Value x) {
  Value u = m.add(m.f(1), x);
  Value correction = m.div(m.sub(x, m.sub(u, m.f(1))), u);
  // Beyond 2^23, u - 1 == x; at u == 0 and for inf the correction is
  // 0/0 or inf - inf.
  Value needed = m.both(m.lt(m.abs(x), m.f(8388608.0)), m.gt(u, m.f(0)));
  Value r = m.add(m.log(u), m.select(needed, correction, m.f(0)));
  return m.select(m.eq(x, m.f(0)), x, r); // log1p(-0) = -0
}

/// sinh and cosh from e^|x| (Cephes' sinhf polynomial below 1 for sinh);
/// beyond 88 as (e^(|x|/2) / 2) e^(|x|/2), which does not overflow early.
Value sinhOrCosh(MathBuilder &m, Value x, bool isSinh) {
  Value a = m.abs(x);
  Value e = m.exp(a);
  Value half = m.mul(m.f(0.5), e), halfInverse = m.div(m.f(0.5), e);
  Value r = isSinh ? m.sub(half, halfInverse) : m.add(half, halfInverse);
  Value h = m.exp(m.mul(m.f(0.5), a));
  r = m.select(m.gt(a, m.f(88)), m.mul(m.mul(m.f(0.5), h), h), r);
  if (!isSinh)
    return r;
  Value z = m.mul(x, x);
  Value small = m.add(
      x, m.mul(m.mul(x, z),
               m.poly(z, {1.66667160211e-1, 8.33028376239e-3, 2.03721912945e-4})));
  return m.select(m.lt(a, m.f(1)), small, m.oddResult(x, r));
}

/// asinh(a) = log1p(a + a^2 / (1 + sqrt(1 + a^2))), log(a) + ln 2 beyond
/// 2^12 (where sqrt(1 + a^2) rounds to a).
Value asinh(MathBuilder &m, Value x) {
  Value a = m.abs(x);
  Value a2 = m.mul(a, a);
  Value mid = log1p(m, m.add(a, m.div(a2, m.add(m.f(1), m.sqrt(m.add(m.f(1), a2))))));
  Value large = m.add(m.log(a), m.f(M_LN2));
  return m.oddResult(x, m.select(m.gt(a, m.f(4096)), large, mid));
}

/// acosh(x) = log1p(t + sqrt(t (t + 2))) with t = x - 1 (exact),
/// log(x) + ln 2 beyond 2^12; NaN below 1.
Value acosh(MathBuilder &m, Value x) {
  Value t = m.sub(x, m.f(1));
  Value mid = log1p(m, m.add(t, m.sqrt(m.mul(t, m.add(t, m.f(2))))));
  Value large = m.add(m.log(x), m.f(M_LN2));
  // Below -1, t + sqrt(t (t + 2)) can round to -1 (log1p: -inf).
  return m.select(m.lt(x, m.f(1)), m.nan(),
                  m.select(m.gt(x, m.f(4096)), large, mid));
}

/// atanh(x) = log1p(2a / (1 - a)) / 2 with the sign of x.
Value atanh(MathBuilder &m, Value x) {
  Value a = m.abs(x);
  Value r = m.mul(m.f(0.5), log1p(m, m.div(m.add(a, a), m.sub(m.f(1), a))));
  return m.oddResult(x, r);
}

/// erf (ARM optimized-routines' erff minimax coefficients): x + x P(x^2)
/// below 0.875, 1 - e^-(a + a Q(a)) up to 4, 1 above.
Value erf(MathBuilder &m, Value x) {
  Value a = m.abs(x);
  Value z = m.mul(x, x);
  Value small = m.add(
      x, m.mul(x, m.poly(z, {0x1.06eba6p-03, -0x1.8126e0p-02, 0x1.ce1a46p-04,
                             -0x1.b68bd2p-06, 0x1.473f48p-08, -0x1.3a1a82p-11})));
  Value q = m.poly(a, {0x1.079d0cp-3, 0x1.450aa0p-1, 0x1.b55cb0p-4,
                       -0x1.8d6300p-6, 0x1.fd1336p-9, -0x1.91d2ccp-12,
                       0x1.222900p-16});
  Value large = m.sub(m.f(1), m.exp(m.neg(m.add(a, m.mul(a, q)))));
  large = m.select(m.ge(a, m.f(4)), m.f(1), large);
  return m.select(m.lt(a, m.f(0.875)), small, m.oddResult(x, large));
}

/// cbrt: e^(log|x| / 3) and one Newton step r - (r^3 - a) / (3 r^2); the
/// sign of x; +-0 and +-inf as they are.
Value cbrt(MathBuilder &m, Value x) {
  Value a = m.abs(x);
  Value r = m.exp(m.mul(m.log(a), m.f(1.0 / 3.0)));
  r = m.mul(m.add(m.add(r, r), m.div(a, m.mul(r, r))), m.f(1.0 / 3.0));
  Value exact = m.either(m.eq(a, m.f(0)), m.eq(a, m.inf()));
  return m.select(exact, x, m.oddResult(x, r));
}

/// log(a) as hi + lo with about 40 bits, for finite a > 0: a = 2^e m with
/// m in [sqrt(1/2), sqrt(2)] (e from the f32 log, 2^-e exact), log m =
/// 2 atanh(s) with s = (m-1)/(m+1) carried in two floats, and e ln 2 with
/// ln 2 in two parts (e * hi exact).
std::pair<Value, Value> logExtended(MathBuilder &m, Value a) {
  Value e = m.roundToS32(m.mul(m.log(a), m.f(1 / M_LN2)));
  // 2^-e in two steps: 2^149 is not a float.
  Value p1 = m.div(m.neg(e), m.i(2));
  Value odd = m.sub(m.neg(e), m.add(p1, p1)); // -1, 0 or 1
  Value half = m.exp2Exact(p1);
  Value scale = m.select(m.eq(odd, m.i(1)), m.f(2),
                         m.select(m.eq(odd, m.i(-1)), m.f(0.5), m.f(1)));
  Value mant = m.mul(m.mul(m.mul(a, half), half), scale);
  // s = num / den in two floats: num exact, den = denHi + denLo.
  Value num = m.sub(mant, m.f(1));
  auto [denHi, denLo] = m.twoSum(mant, m.f(1));
  Value sHi = m.div(num, denHi);
  auto [ph, pl] = m.twoProduct(sHi, denHi);
  Value residual = m.sub(m.sub(m.sub(num, ph), pl), m.mul(sHi, denLo));
  Value sLo = m.div(residual, denHi);
  // log m = 2s + s^3 (2/3 + 2/5 s^2 + ... + 2/13 s^10).
  Value z = m.mul(sHi, sHi);
  Value tail = m.mul(m.mul(sHi, z),
                     m.poly(z, {2.0 / 3, 2.0 / 5, 2.0 / 7, 2.0 / 9, 2.0 / 11,
                                2.0 / 13}));
  Value logMHi = m.add(sHi, sHi);
  Value logMLo = m.add(m.add(sLo, sLo), tail);
  Value ef = m.toF32(e);
  auto [hi, err] = m.twoSum(m.mul(ef, m.f(0.693145751953125)), logMHi);
  Value lo = m.add(m.add(err, logMLo), m.mul(ef, m.f(1.428606765330187e-06)));
  return m.fastTwoSum(hi, lo);
}

/// pow with libm's rules: |x|^y = e^(y log|x|); a negative base takes an
/// integer y's parity and gives NaN for finite non-integer y; x^0 = 1^y =
/// (-1)^(+-inf) = 1; zero and infinite bases follow from the signed
/// infinities of log and exp.
Value power(MathBuilder &m, Value x, Value y) {
  Value a = m.abs(x);
  // y log|x| in two floats, so that e^(y log|x|) keeps its last bits for
  // large results; e^(t + lo) = e^t (1 + lo).
  auto [logHi, logLo] = logExtended(m, a);
  auto [tHi, tLo] = m.twoProduct(y, logHi);
  tLo = m.add(tLo, m.mul(y, logLo));
  Value accurate = m.mul(m.exp(tHi), m.add(m.f(1), tLo));
  // Zero and infinite bases, results beyond the float range (where lo may
  // exceed 1) and y so large that the split overflows: the plain
  // formula's infinities and zeros are right.
  Value plain = m.exp(m.mul(y, m.log(a)));
  Value usePlain = m.either(m.either(m.ne(accurate, accurate),
                                     m.gt(m.abs(tHi), m.f(104))),
                            m.either(m.eq(a, m.f(0)), m.eq(a, m.inf())));
  Value r = m.select(usePlain, plain, accurate);
  Value ay = m.abs(y);
  // Floats from 2^24 up are even integers; below, y is an integer if it
  // survives the round trip through s32.
  Value large = m.ge(ay, m.f(16777216.0));
  Value yi = m.toS32(m.select(large, m.f(0), y));
  Value isInteger = m.either(large, m.eq(m.toF32(yi), y));
  Value isOdd = m.both(m.both(isInteger, m.negation(large)),
                       m.ne(m.rem(yi, m.i(2)), m.i(0)));
  r = m.select(m.both(m.signBit(x), isOdd), m.neg(r), r);
  Value negativeFinite = m.both(m.lt(x, m.f(0)), m.gt(x, m.neg(m.inf())));
  r = m.select(m.both(negativeFinite, m.negation(isInteger)), m.nan(), r);
  Value one = m.either(m.eq(y, m.f(0)), m.eq(x, m.f(1)));
  one = m.either(one, m.both(m.eq(x, m.f(-1)), m.eq(ay, m.inf())));
  return m.select(one, m.f(1), r);
}

/// pow with a constant exponent that needs no log: XLA's algebraic
/// simplifier's x^0 = 1, x^1 = x, x^2 = x * x, x^-1 = 1 / x, and x^0.5 as
/// sqrt with libm's +0 for -0 and +inf for -inf. Empty for other
/// exponents.
Value powerByConstant(MathBuilder &m, Value x, double y) {
  if (y == 0)
    return m.f(1);
  if (y == 1)
    return m.mul(x, m.f(1)); // exact, -0 and NaN included
  if (y == 2)
    return m.mul(x, x);
  if (y == -1)
    return m.div(m.f(1), x);
  if (y == 0.5)
    return m.select(m.eq(x, m.neg(m.inf())), m.inf(),
                    m.add(m.sqrt(x), m.f(0)));
  return Value();
}

/// s32 power by squaring over the 31 bits of y (32 when y holds u32 bits,
/// `isUnsigned`; or the bits of a constant y); a signed y < 0 gives 0 (1 for
/// x = 1), as XLA's integer pow. Products wrap.
Value integerPower(MathBuilder &m, Value x, Value y,
                   std::optional<int64_t> constant, bool isUnsigned) {
  if (constant && *constant < 0)
    return m.select(m.eq(x, m.i(1)), m.i(1), m.i(0));
  // An s32 exponent's sign is handled below; a u32's 32 bits all count.
  int bits = constant ? llvm::bit_width(static_cast<uint64_t>(*constant))
                      : isUnsigned ? 32
                                   : 31;
  if (bits == 0)
    return m.i(1);
  Value result = m.i(1), base = x, e = y;
  for (int bit = 0; bit < bits; ++bit) {
    // result * (bit ? base : 1): the kernel emits operands depth-first, so
    // this consumes each bit as it is made (a select chain on result would
    // keep all 31 bits of e live: more than the 32 vregs).
    Value set = m.eq(m.binary<hlo::AndOp>(e, m.i(1)), m.i(1));
    result = m.mul(result, m.select(set, base, m.i(1)));
    if (bit < bits - 1) {
      base = m.mul(base, base);
      e = m.binary<hlo::ShiftRightLogicalOp>(e, m.i(1));
    }
  }
  if (constant || isUnsigned)
    return result;
  Value negative = m.lt(y, m.i(0));
  return m.select(negative, m.select(m.eq(x, m.i(1)), m.i(1), m.i(0)), result);
}

//===----------------------------------------------------------------------===//
// The rewrite
//===----------------------------------------------------------------------===//

bool isSplatConstant(Value v) {
  auto cst = v.getDefiningOp<hlo::ConstantOp>();
  auto dense = cst ? dyn_cast<DenseElementsAttr>(cst.getValue()) : nullptr;
  return dense && dense.isSplat();
}

bool isExpanded(Operation *op) {
  return isa<hlo::SineOp, hlo::CosineOp, hlo::TanOp, hlo::AtanOp, hlo::Atan2Op,
             hlo::AsinOp, hlo::AcosOp, hlo::SinhOp, hlo::CoshOp, hlo::AsinhOp,
             hlo::AcoshOp, hlo::AtanhOp, hlo::ErfOp, hlo::CbrtOp, hlo::Expm1Op,
             hlo::Log1pOp, hlo::PowerOp, hlo::MapOp>(op);
}

/// Whether the expansion of `op` is for its element type: f32 and bf16
/// (and s32 and u32 for power); other types keep the op (and its codegen
/// error).
bool hasExpandedType(Operation *op) {
  Type elem = cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
  if (isa<hlo::MapOp>(op))
    return true;
  if (isa<hlo::PowerOp>(op) && elem.isInteger(32))
    return true;
  return elem.isF32() || elem.isBF16();
}

/// The f32 expansion of the unary or binary function `op` on `args`.
Value expandFloat(MathBuilder &m, Operation *op, ArrayRef<Value> args) {
  Value x = args[0];
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](hlo::SineOp) { return sinOrCos(m, x, 0); })
      .Case([&](hlo::CosineOp) { return sinOrCos(m, x, 1); })
      .Case([&](hlo::TanOp) { return tan(m, x); })
      .Case([&](hlo::AtanOp) { return atan(m, x); })
      .Case([&](hlo::Atan2Op) { return atan2(m, x, args[1]); })
      .Case([&](hlo::AsinOp) { return asin(m, x); })
      .Case([&](hlo::AcosOp) { return acos(m, x); })
      .Case([&](hlo::SinhOp) { return sinhOrCosh(m, x, true); })
      .Case([&](hlo::CoshOp) { return sinhOrCosh(m, x, false); })
      .Case([&](hlo::AsinhOp) { return asinh(m, x); })
      .Case([&](hlo::AcoshOp) { return acosh(m, x); })
      .Case([&](hlo::AtanhOp) { return atanh(m, x); })
      .Case([&](hlo::ErfOp) { return erf(m, x); })
      .Case([&](hlo::CbrtOp) { return cbrt(m, x); })
      .Case([&](hlo::Expm1Op) { return expm1(m, x); })
      .Case([&](hlo::Log1pOp) { return log1p(m, x); })
      .Case([&](hlo::PowerOp) { return power(m, x, args[1]); })
      .Default([](Operation *) { return Value(); });
}

/// sine and cosine of one value in one fusion (rotary embeddings compute
/// both) share one reduction and one pair of polynomials.
void expandSineAndCosine(Operation *sine, Operation *cosine) {
  Operation *first = sine->isBeforeInBlock(cosine) ? sine : cosine;
  OpBuilder b(first);
  auto type = cast<RankedTensorType>(sine->getResult(0).getType());
  MathBuilder m(b, first->getLoc(), type.getShape());
  Value x = sine->getOperand(0);
  if (!type.getElementType().isF32())
    x = m.toF32(x);
  auto [r, k] = reducePiOver2(m, x);
  auto [s, c] = sinCosKernel(m, r);
  SmallVector<std::pair<Operation *, Value>, 2> results;
  for (auto [op, shift] : {std::pair(sine, 0), std::pair(cosine, 1)}) {
    Value result = sinOrCosOf(m, x, k, s, c, shift);
    if (!type.getElementType().isF32())
      result = hlo::ConvertOp::create(b, op->getLoc(), type, result);
    result.getDefiningOp()->setDiscardableAttrs(
        op->getDiscardableAttrDictionary());
    results.push_back({op, result});
  }
  for (auto [op, result] : results) {
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }
}

/// Replaces the function `op` (not a map) by its expansion before it.
void expandFunction(Operation *op) {
  OpBuilder b(op);
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  MathBuilder m(b, op->getLoc(), type.getShape());
  Value result;
  std::optional<double> exponent;
  if (auto cst = isa<hlo::PowerOp>(op)
                     ? op->getOperand(1).getDefiningOp<hlo::ConstantOp>()
                     : nullptr)
    if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
        dense && dense.isSplat())
      exponent = isa<FloatType>(dense.getElementType())
                     ? dense.getSplatValue<APFloat>().convertToDouble()
                 : dense.getElementType().isUnsignedInteger()
                     ? static_cast<double>(
                           dense.getSplatValue<APInt>().getZExtValue())
                     : dense.getSplatValue<APInt>().getSExtValue();
  if (isa<hlo::PowerOp>(op) && type.getElementType().isInteger(32)) {
    std::optional<int64_t> constant;
    if (exponent)
      constant = static_cast<int64_t>(*exponent);
    // u32 in s32 words: the product wraps alike, the exponent's bits are
    // read unsigned.
    bool isUnsigned = type.getElementType().isUnsignedInteger();
    auto s32 = RankedTensorType::get(type.getShape(), b.getI32Type());
    auto asS32 = [&](Value v) -> Value {
      return isUnsigned ? hlo::BitcastConvertOp::create(b, op->getLoc(), s32, v)
                        : v;
    };
    result = integerPower(m, asS32(op->getOperand(0)),
                          asS32(op->getOperand(1)), constant, isUnsigned);
    if (isUnsigned)
      result = hlo::BitcastConvertOp::create(b, op->getLoc(), type, result);
  } else {
    SmallVector<Value> args;
    for (Value operand : op->getOperands())
      args.push_back(type.getElementType().isF32() ? operand : m.toF32(operand));
    if (exponent)
      result = powerByConstant(m, args[0], *exponent);
    if (!result)
      result = expandFloat(m, op, args);
    if (!type.getElementType().isF32())
      result = hlo::ConvertOp::create(b, op->getLoc(), type, result);
  }
  if (Operation *def = result.getDefiningOp())
    def->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
}

/// Inlines the scalar computation of `map` on whole arrays: each op of the
/// body, with rank-0 types widened to the map's shape. Returns the ops to
/// expand in turn (the body's math functions).
FailureOr<SmallVector<Operation *>> inlineMap(hlo::MapOp map) {
  auto shape = cast<RankedTensorType>(map.getResult().getType()).getShape();
  Block &body = map.getComputation().front();
  OpBuilder b(map);
  IRMapping mapping;
  for (auto [arg, input] : llvm::zip(body.getArguments(), map.getInputs()))
    mapping.map(arg, input);
  // Rank-0 values from outside the computation (the canonicalizer hoists
  // its constants) spread over the shape.
  auto widened = [&](Value operand) -> Value {
    if (mapping.contains(operand))
      return mapping.lookup(operand);
    auto wide = RankedTensorType::get(
        shape, cast<RankedTensorType>(operand.getType()).getElementType());
    DenseElementsAttr dense;
    if (auto cst = operand.getDefiningOp<hlo::ConstantOp>())
      dense = dyn_cast<DenseElementsAttr>(cst.getValue());
    Value spread =
        dense ? hlo::ConstantOp::create(b, operand.getLoc(),
                                        dense.resizeSplat(wide))
                    .getResult()
              : hlo::BroadcastInDimOp::create(b, operand.getLoc(), wide,
                                              operand,
                                              b.getDenseI64ArrayAttr({}))
                    .getResult();
    mapping.map(operand, spread);
    return spread;
  };
  SmallVector<Operation *> created;
  // Each op of `block` on whole arrays; a fusion (XLA's fused computations
  // called from a map) by its region's ops in its place.
  std::function<LogicalResult(Block &)> inlineBlock =
      [&](Block &block) -> LogicalResult {
    for (Operation &inner : block.without_terminator()) {
      if (auto fusion = dyn_cast<hlo::FusionOp>(inner)) {
        Block &fused = fusion.getRegion().front();
        for (auto [arg, operand] :
             llvm::zip(fused.getArguments(), fusion.getOperands()))
          mapping.map(arg, widened(operand));
        if (failed(inlineBlock(fused)))
          return failure();
        for (auto [result, returned] : llvm::zip(
                 fusion.getResults(), fused.getTerminator()->getOperands()))
          mapping.map(result, widened(returned));
        continue;
      }
      if (inner.getNumRegions() != 0 || inner.getNumResults() != 1 ||
          !(inner.hasTrait<OpTrait::Elementwise>() ||
            isa<hlo::ConstantOp, hlo::SelectOp, hlo::ClampOp>(inner)))
        return inner.emitError("tpuc cannot inline '")
               << inner.getName() << "' of a map computation yet";
      for (Value operand : inner.getOperands())
        widened(operand);
      auto scalar = cast<RankedTensorType>(inner.getResult(0).getType());
      auto wide = RankedTensorType::get(shape, scalar.getElementType());
      Operation *clone;
      if (auto cst = dyn_cast<hlo::ConstantOp>(inner)) {
        auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
        if (!dense)
          return inner.emitError("tpuc cannot inline this constant yet");
        clone =
            hlo::ConstantOp::create(b, inner.getLoc(), dense.resizeSplat(wide));
      } else {
        clone = b.clone(inner, mapping);
        clone->getResult(0).setType(wide);
      }
      mapping.map(inner.getResult(0), clone->getResult(0));
      created.push_back(clone);
    }
    return success();
  };
  if (failed(inlineBlock(body)))
    return failure();
  Value result = widened(body.getTerminator()->getOperand(0));
  map.getResult().replaceAllUsesWith(result);
  map.erase();
  SmallVector<Operation *> expand;
  for (Operation *op : created)
    if (isExpanded(op) && hasExpandedType(op))
      expand.push_back(op);
  return expand;
}

/// Moves `op` into a loop fusion of its own (an op already in a fusion
/// stays) and returns it, so that its expansion is one kernel. Splat
/// constant operands move in with it (immediates, not arrays to read).
Operation *intoFusion(Operation *op) {
  if (isa<hlo::FusionOp>(op->getParentOp()))
    return op;
  OpBuilder b(op);
  // The operands, and what a map's computation reads from outside.
  llvm::SetVector<Value> used(op->operand_begin(), op->operand_end());
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, used);
  SmallVector<Value> inputs;
  for (Value v : used)
    if (!isSplatConstant(v))
      inputs.push_back(v);
  auto fusion = hlo::FusionOp::create(b, op->getLoc(), op->getResultTypes(),
                                      inputs, hlo::FusionKind::loop);
  fusion->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  Block *body = b.createBlock(&fusion.getBody());
  IRMapping mapping;
  for (Value input : inputs)
    mapping.map(input, body->addArgument(input.getType(), input.getLoc()));
  for (Value v : used)
    if (!mapping.contains(v))
      mapping.map(v, b.clone(*v.getDefiningOp())->getResult(0));
  Operation *inner = b.clone(*op, mapping);
  hlo::ReturnOp::create(b, op->getLoc(), inner->getResults());
  op->replaceAllUsesWith(fusion.getResults());
  op->erase();
  return inner;
}

/// Whether code in `op`'s block runs as ordinary kernels (not as the
/// computation of a reduce, sort, scatter, ... which their own kernels
/// interpret).
bool inKernelCode(Operation *op) {
  return isa<func::FuncOp, hlo::FusionOp, hlo::WhileOp, hlo::ConditionalOp>(
      op->getParentOp());
}

class ExpandMathPass : public impl::ExpandMathBase<ExpandMathPass> {
public:
  void runOnOperation() override {
    // Post-order: a map nested in another's computation comes first and
    // is inlined there (its ops are then the outer map's).
    SmallVector<hlo::MapOp> maps;
    SmallVector<Operation *> functions;
    getOperation()->walk([&](Operation *op) {
      if (auto map = dyn_cast<hlo::MapOp>(op)) {
        if (inKernelCode(op) || isa<hlo::MapOp>(op->getParentOp()))
          maps.push_back(map);
      } else if (isExpanded(op) && hasExpandedType(op) && inKernelCode(op)) {
        functions.push_back(op);
      }
    });
    for (hlo::MapOp map : maps) {
      bool nested = isa<hlo::MapOp>(map->getParentOp());
      if (!nested)
        map = cast<hlo::MapOp>(intoFusion(map));
      FailureOr<SmallVector<Operation *>> inner = inlineMap(map);
      if (failed(inner))
        return signalPassFailure();
      if (!nested)
        for (Operation *op : *inner)
          expandFunction(op);
    }
    // A sine and a cosine of one value in one fusion: one reduction.
    llvm::DenseMap<std::pair<Value, Block *>, Operation *> sines;
    for (Operation *op : functions)
      if (isa<hlo::SineOp>(op) && isa<hlo::FusionOp>(op->getParentOp()))
        sines.try_emplace({op->getOperand(0), op->getBlock()}, op);
    llvm::DenseSet<Operation *> paired;
    for (Operation *op : functions) {
      if (!isa<hlo::CosineOp>(op))
        continue;
      auto it = sines.find({op->getOperand(0), op->getBlock()});
      if (it != sines.end() && !paired.contains(it->second)) {
        paired.insert(it->second);
        paired.insert(op);
        expandSineAndCosine(it->second, op);
      }
    }
    for (Operation *op : functions)
      if (!paired.contains(op))
        expandFunction(intoFusion(op));
  }
};

} // namespace
} // namespace tpuc
