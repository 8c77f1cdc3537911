//===- ScalarOps.h - XLA's scalar semantics, per element type ---*- C++ -*-===//
//
// The arithmetic of one element, shared by the elementwise kernels and the
// fast paths of reduce, reduce_window, scatter and sort (which recognise a
// region that is a single binary op or compare and skip interpreting it).
// Values are in the traits' compute type; callers round when storing.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_INTERPRETER_SCALAROPS_H
#define TPUC_COMPILER_INTERPRETER_SCALAROPS_H

#include "compiler/interpreter/Kernels.h"

#include "llvm/ADT/bit.h"

#include <cmath>
#include <limits>

namespace tpuc::interpreter {

/// Integer power by squaring with wrapping multiplication. XLA: a negative
/// exponent gives 1 for a base of 1 and 0 otherwise.
template <typename C> C integerPower(C base, C exponent) {
  if constexpr (std::is_signed_v<C>)
    if (exponent < 0)
      return base == 1 ? 1 : 0;
  using W = std::conditional_t<(sizeof(C) < 4), uint32_t, std::make_unsigned_t<C>>;
  W result = 1, b = static_cast<std::make_unsigned_t<C>>(base);
  auto e = static_cast<std::make_unsigned_t<C>>(exponent);
  while (e) {
    if (e & 1)
      result = static_cast<std::make_unsigned_t<C>>(result * b);
    b = static_cast<std::make_unsigned_t<C>>(b * b);
    e >>= 1;
  }
  return static_cast<C>(result);
}

/// The low T::kBits bits of integer `a` as an unsigned value (its bits for
/// s4/u4, held sign- or zero-extended in a byte).
template <typename T>
std::make_unsigned_t<typename T::Compute> unsignedBits(typename T::Compute a) {
  using U = std::make_unsigned_t<typename T::Compute>;
  constexpr U kMask =
      static_cast<U>(static_cast<U>(~U(0)) >> (8 * sizeof(U) - T::kBits));
  return static_cast<U>(static_cast<U>(a) & kMask);
}
/// The low T::kBits bits of integer `a` read as a signed value.
template <typename T>
std::make_signed_t<typename T::Compute> signedBits(typename T::Compute a) {
  using U = std::make_unsigned_t<typename T::Compute>;
  using S = std::make_signed_t<typename T::Compute>;
  constexpr unsigned kUnused = 8 * sizeof(U) - T::kBits;
  return static_cast<S>(static_cast<S>(static_cast<U>(static_cast<U>(a) << kUnused)) >>
                        kUnused);
}

template <BinaryOp Op, typename T>
inline typename T::Compute applyBinaryUnwrapped(typename T::Compute a,
                                                typename T::Compute b) {
  using C = typename T::Compute;
  if constexpr (T::kind == ElementKind::Pred) {
    if constexpr (Op == BinaryOp::Add || Op == BinaryOp::Or ||
                  Op == BinaryOp::Maximum)
      return a || b;
    else if constexpr (Op == BinaryOp::Xor || Op == BinaryOp::Subtract)
      return a != b;
    else
      return a && b; // multiply, and, minimum (others do not type-check)
  } else if constexpr (T::isFloat) {
    if constexpr (Op == BinaryOp::Add)
      return a + b;
    else if constexpr (Op == BinaryOp::Subtract)
      return a - b;
    else if constexpr (Op == BinaryOp::Multiply)
      return a * b;
    else if constexpr (Op == BinaryOp::Divide)
      return a / b;
    else if constexpr (Op == BinaryOp::Remainder)
      return std::fmod(a, b);
    else if constexpr (Op == BinaryOp::Maximum)
      return (std::isnan(a) || a > b) ? a : b; // NaN in either gives NaN
    else if constexpr (Op == BinaryOp::Minimum)
      return (std::isnan(a) || a < b) ? a : b;
    else if constexpr (Op == BinaryOp::Power)
      return std::pow(a, b);
    else if constexpr (Op == BinaryOp::Atan2)
      return std::atan2(a, b);
    else
      return a; // bitwise ops do not type-check on floats
  } else {
    using U = std::make_unsigned_t<C>;
    // Wider than int for 8/16-bit types so the product cannot overflow int.
    using W = std::conditional_t<(sizeof(C) < 4), uint32_t, U>;
    if constexpr (Op == BinaryOp::Add)
      return static_cast<C>(static_cast<W>(static_cast<U>(a)) + static_cast<U>(b));
    else if constexpr (Op == BinaryOp::Subtract)
      return static_cast<C>(static_cast<W>(static_cast<U>(a)) - static_cast<U>(b));
    else if constexpr (Op == BinaryOp::Multiply)
      return static_cast<C>(static_cast<W>(static_cast<U>(a)) *
                            static_cast<W>(static_cast<U>(b)));
    else if constexpr (Op == BinaryOp::Divide) {
      if (b == 0)
        return static_cast<C>(-1); // XLA: all bits set
      if constexpr (std::is_signed_v<C>)
        if (a == T::kMin && b == -1)
          return a;
      return static_cast<C>(a / b);
    } else if constexpr (Op == BinaryOp::Remainder) {
      if (b == 0)
        return a;
      if constexpr (std::is_signed_v<C>)
        if (b == -1)
          return 0;
      return static_cast<C>(a % b);
    } else if constexpr (Op == BinaryOp::Maximum)
      return a > b ? a : b;
    else if constexpr (Op == BinaryOp::Minimum)
      return a < b ? a : b;
    else if constexpr (Op == BinaryOp::Power)
      return integerPower<C>(a, b);
    else if constexpr (Op == BinaryOp::And)
      return static_cast<C>(a & b);
    else if constexpr (Op == BinaryOp::Or)
      return static_cast<C>(a | b);
    else if constexpr (Op == BinaryOp::Xor)
      return static_cast<C>(a ^ b);
    else if constexpr (Op == BinaryOp::ShiftLeft ||
                       Op == BinaryOp::ShiftRightLogical ||
                       Op == BinaryOp::ShiftRightArithmetic) {
      // The shift is unsigned; at least the bit width shifts every bit out.
      U shift = unsignedBits<T>(b);
      if (shift >= T::kBits) {
        // The sign bit fills an arithmetic shift of unsigned types too
        // (XLA's SaturateShiftIfNecessary compares the bits signed).
        if constexpr (Op == BinaryOp::ShiftRightArithmetic)
          return signedBits<T>(a) < 0 ? C(-1) : C(0);
        return 0;
      }
      if constexpr (Op == BinaryOp::ShiftLeft)
        return static_cast<C>(static_cast<W>(static_cast<U>(a)) << shift);
      else if constexpr (Op == BinaryOp::ShiftRightLogical)
        return static_cast<C>(unsignedBits<T>(a) >> shift);
      else
        return static_cast<C>(signedBits<T>(a) >> shift);
    } else if constexpr (Op == BinaryOp::Mulhi) {
      // The high half of the double-width product.
      constexpr unsigned kBits = T::kBits;
      if constexpr (kBits == 64) {
        using Wide = std::conditional_t<std::is_signed_v<C>, __int128,
                                        unsigned __int128>;
        return static_cast<C>((static_cast<Wide>(a) * static_cast<Wide>(b)) >>
                              kBits);
      } else {
        using Wide = std::conditional_t<std::is_signed_v<C>, int64_t, uint64_t>;
        return static_cast<C>((static_cast<Wide>(a) * static_cast<Wide>(b)) >>
                              kBits);
      }
    } else
      return a; // atan2 does not type-check on integers
  }
}

/// XLA's binary op on two elements of traits T; integer results wrap to the
/// type's width (s4/u4: 4 bits).
template <BinaryOp Op, typename T>
inline typename T::Compute applyBinary(typename T::Compute a,
                                       typename T::Compute b) {
  if constexpr (T::isInt)
    return T::store(applyBinaryUnwrapped<Op, T>(a, b));
  else
    return applyBinaryUnwrapped<Op, T>(a, b);
}

/// Calls `f(std::integral_constant<BinaryOp, op>{})`.
template <typename F> decltype(auto) dispatchBinary(BinaryOp op, F &&f) {
#define TPUC_BINARY_CASE(NAME)                                                 \
  case BinaryOp::NAME:                                                         \
    return f(std::integral_constant<BinaryOp, BinaryOp::NAME>{});
  switch (op) {
    TPUC_BINARY_CASE(Add)
    TPUC_BINARY_CASE(Subtract)
    TPUC_BINARY_CASE(Multiply)
    TPUC_BINARY_CASE(Divide)
    TPUC_BINARY_CASE(Remainder)
    TPUC_BINARY_CASE(Maximum)
    TPUC_BINARY_CASE(Minimum)
    TPUC_BINARY_CASE(Power)
    TPUC_BINARY_CASE(Atan2)
    TPUC_BINARY_CASE(And)
    TPUC_BINARY_CASE(Or)
    TPUC_BINARY_CASE(Xor)
    TPUC_BINARY_CASE(ShiftLeft)
    TPUC_BINARY_CASE(ShiftRightArithmetic)
    TPUC_BINARY_CASE(ShiftRightLogical)
    TPUC_BINARY_CASE(Mulhi)
  }
#undef TPUC_BINARY_CASE
  return f(std::integral_constant<BinaryOp, BinaryOp::Xor>{});
}

/// A key whose signed integer order is XLA's TOTALORDER on floats:
/// -NaN < -Inf < ... < -0 < +0 < ... < Inf < NaN.
inline int64_t totalOrderKey(double value) {
  int64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits < 0 ? (bits ^ std::numeric_limits<int64_t>::max()) : bits;
}
inline int64_t totalOrderKey(float value) {
  int32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits < 0 ? (bits ^ std::numeric_limits<int32_t>::max()) : bits;
}

template <typename V> inline bool compareValues(CompareSpec spec, V a, V b) {
  switch (spec.direction) {
  case hlo::ComparisonDirection::EQ: return a == b;
  case hlo::ComparisonDirection::NE: return a != b;
  case hlo::ComparisonDirection::GE: return a >= b;
  case hlo::ComparisonDirection::GT: return a > b;
  case hlo::ComparisonDirection::LE: return a <= b;
  case hlo::ComparisonDirection::LT: return a < b;
  }
  return false;
}

/// XLA's compare of two elements: FLOAT is IEEE (NaN unordered, NE true),
/// TOTALORDER orders floats by totalOrderKey, SIGNED/UNSIGNED reinterpret
/// integers.
template <typename T>
inline bool applyCompare(CompareSpec spec, typename T::Compute a,
                         typename T::Compute b) {
  if constexpr (T::isFloat) {
    if (spec.totalOrder)
      return compareValues(spec, totalOrderKey(a), totalOrderKey(b));
    return compareValues(spec, a, b);
  } else if constexpr (T::isInt) {
    if (spec.forceUnsigned)
      return compareValues(spec, unsignedBits<T>(a), unsignedBits<T>(b));
    if (spec.forceSigned)
      return compareValues(spec, signedBits<T>(a), signedBits<T>(b));
    return compareValues(spec, a, b);
  } else {
    return compareValues(spec, static_cast<int>(a), static_cast<int>(b));
  }
}

template <UnaryOp Op, typename T>
typename T::Compute applyUnaryUnwrapped(typename T::Compute a) {
  using C = typename T::Compute;
  if constexpr (T::kind == ElementKind::Pred) {
    return Op == UnaryOp::Not ? !a : a;
  } else if constexpr (T::isInt) {
    using U = std::make_unsigned_t<C>;
    using W = std::conditional_t<(sizeof(C) < 4), uint32_t, U>;
    C negated = static_cast<C>(W(0) - static_cast<W>(static_cast<U>(a)));
    if constexpr (Op == UnaryOp::Abs)
      return a < 0 ? negated : a; // abs(INT_MIN) wraps to INT_MIN
    else if constexpr (Op == UnaryOp::Negate)
      return negated;
    else if constexpr (Op == UnaryOp::Not)
      return static_cast<C>(~a);
    else if constexpr (Op == UnaryOp::Sign)
      return static_cast<C>((a > 0) - (a < 0));
    else if constexpr (Op == UnaryOp::Popcnt)
      return static_cast<C>(llvm::popcount(unsignedBits<T>(a)));
    else if constexpr (Op == UnaryOp::Clz)
      return static_cast<C>(llvm::countl_zero(unsignedBits<T>(a)) -
                            (8 * sizeof(U) - T::kBits));
    else
      return a; // float-only ops do not type-check on integers
  } else {
    switch (Op) {
    case UnaryOp::Abs: return std::fabs(a);
    case UnaryOp::Ceil: return std::ceil(a);
    case UnaryOp::Cosine: return std::cos(a);
    case UnaryOp::Exp: return std::exp(a);
    case UnaryOp::Expm1: return std::expm1(a);
    case UnaryOp::Floor: return std::floor(a);
    case UnaryOp::Log: return std::log(a);
    case UnaryOp::Log1p: return std::log1p(a);
    case UnaryOp::Logistic: return C(1) / (C(1) + std::exp(-a));
    case UnaryOp::Negate: return -a;
    case UnaryOp::Not: return a;
    case UnaryOp::RoundNearestEven: return std::nearbyint(a);
    case UnaryOp::Rsqrt: return C(1) / std::sqrt(a);
    case UnaryOp::Sign:
      // NaN stays NaN and +-0 stay themselves.
      return a > 0 ? C(1) : a < 0 ? C(-1) : a;
    case UnaryOp::Sine: return std::sin(a);
    case UnaryOp::Sqrt: return std::sqrt(a);
    case UnaryOp::Tanh: return std::tanh(a);
    case UnaryOp::Tan: return std::tan(a);
    case UnaryOp::Cbrt: return std::cbrt(a);
    case UnaryOp::Erf: return std::erf(a);
    case UnaryOp::RoundNearestAfz: return std::round(a);
    case UnaryOp::Acos: return std::acos(a);
    case UnaryOp::Acosh: return std::acosh(a);
    case UnaryOp::Asin: return std::asin(a);
    case UnaryOp::Asinh: return std::asinh(a);
    case UnaryOp::Atan: return std::atan(a);
    case UnaryOp::Atanh: return std::atanh(a);
    case UnaryOp::Cosh: return std::cosh(a);
    case UnaryOp::Sinh: return std::sinh(a);
    case UnaryOp::Popcnt:
    case UnaryOp::Clz:
      return a; // integer-only ops do not type-check on floats
    }
    return a;
  }
}

/// XLA's unary op on an element of traits T; integer results wrap to the
/// type's width.
template <UnaryOp Op, typename T>
typename T::Compute applyUnary(typename T::Compute a) {
  if constexpr (T::isInt)
    return T::store(applyUnaryUnwrapped<Op, T>(a));
  else
    return applyUnaryUnwrapped<Op, T>(a);
}

template <typename F> decltype(auto) dispatchUnary(UnaryOp op, F &&f) {
#define TPUC_UNARY_CASE(NAME)                                                  \
  case UnaryOp::NAME:                                                          \
    return f(std::integral_constant<UnaryOp, UnaryOp::NAME>{});
  switch (op) {
    TPUC_UNARY_CASE(Abs)
    TPUC_UNARY_CASE(Ceil)
    TPUC_UNARY_CASE(Cosine)
    TPUC_UNARY_CASE(Exp)
    TPUC_UNARY_CASE(Expm1)
    TPUC_UNARY_CASE(Floor)
    TPUC_UNARY_CASE(Log)
    TPUC_UNARY_CASE(Log1p)
    TPUC_UNARY_CASE(Logistic)
    TPUC_UNARY_CASE(Negate)
    TPUC_UNARY_CASE(Not)
    TPUC_UNARY_CASE(RoundNearestEven)
    TPUC_UNARY_CASE(Rsqrt)
    TPUC_UNARY_CASE(Sign)
    TPUC_UNARY_CASE(Sine)
    TPUC_UNARY_CASE(Sqrt)
    TPUC_UNARY_CASE(Tanh)
    TPUC_UNARY_CASE(Tan)
    TPUC_UNARY_CASE(Cbrt)
    TPUC_UNARY_CASE(Erf)
    TPUC_UNARY_CASE(RoundNearestAfz)
    TPUC_UNARY_CASE(Acos)
    TPUC_UNARY_CASE(Acosh)
    TPUC_UNARY_CASE(Asin)
    TPUC_UNARY_CASE(Asinh)
    TPUC_UNARY_CASE(Atan)
    TPUC_UNARY_CASE(Atanh)
    TPUC_UNARY_CASE(Cosh)
    TPUC_UNARY_CASE(Sinh)
    TPUC_UNARY_CASE(Popcnt)
    TPUC_UNARY_CASE(Clz)
  }
#undef TPUC_UNARY_CASE
  return f(std::integral_constant<UnaryOp, UnaryOp::Abs>{});
}

/// Converts one element from traits From to traits To with XLA's rules.
template <typename From, typename To>
typename To::Storage convertElement(typename From::Storage s) {
  using FC = typename From::Compute;
  using TC = typename To::Compute;
  FC value = From::load(s);
  if constexpr (To::kind == ElementKind::Pred) {
    return To::store(value != FC(0));
  } else if constexpr (From::isFloat && To::isInt) {
    // Truncate toward zero, saturating; NaN becomes 0.
    if (std::isnan(value))
      return 0;
    constexpr double lo = static_cast<double>(To::kMin);
    constexpr double hi = static_cast<double>(To::kMax);
    double v = static_cast<double>(value);
    if (v <= lo)
      return To::kMin;
    if (v >= hi) // hi may round up to 2^N, which is already out of range
      return To::kMax;
    return static_cast<TC>(v);
  } else if constexpr (std::is_same_v<TC, float> &&
                       !std::is_same_v<FC, float>) {
    // To f32/bf16/f16 from f64 or an integer: via f32, as Eigen does.
    return To::store(static_cast<float>(value));
  } else {
    return To::store(static_cast<TC>(value));
  }
}

} // namespace tpuc::interpreter

#endif // TPUC_COMPILER_INTERPRETER_SCALAROPS_H
