//===- ElementwiseKernels.cpp - elementwise ops, convert, iota -------------===//
//
// Each kernel dispatches once on the element type (and the op) and then runs
// a plain loop over the elements, so f32 loops vectorise. Floats narrower
// than f32 are computed in f32 and rounded to nearest-even when stored.
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Kernels.h"
#include "compiler/interpreter/ScalarOps.h"

#include <cstring>

namespace tpuc::interpreter {
namespace {

template <UnaryOp Op, typename T>
typename T::Compute applyUnary(typename T::Compute a) {
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
    }
    return a;
  }
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
    constexpr double lo = static_cast<double>(std::numeric_limits<TC>::min());
    constexpr double hi = static_cast<double>(std::numeric_limits<TC>::max());
    double v = static_cast<double>(value);
    if (v <= lo)
      return std::numeric_limits<TC>::min();
    if (v >= hi) // hi may round up to 2^N, which is already out of range
      return std::numeric_limits<TC>::max();
    return static_cast<TC>(v);
  } else if constexpr (std::is_same_v<TC, float> &&
                       !std::is_same_v<FC, float>) {
    // To f32/bf16/f16 from f64 or an integer: via f32, as Eigen does.
    return To::store(static_cast<float>(value));
  } else {
    return To::store(static_cast<TC>(value));
  }
}

} // namespace

Tensor unary(UnaryOp op, const Tensor &x) {
  Tensor result(x.dtype(), x.shape());
  dispatch(x.dtype(), [&](auto traits) {
    using T = decltype(traits);
    using S = typename T::Storage;
    dispatchUnary(op, [&](auto opConstant) {
      const S *in = x.data<S>();
      S *out = result.data<S>();
      for (int64_t i = 0, e = x.numElements(); i < e; ++i)
        out[i] = T::store(applyUnary<decltype(opConstant)::value, T>(T::load(in[i])));
    });
  });
  return result;
}

Tensor isFinite(const Tensor &x) {
  Tensor result(DType::Pred, x.shape());
  dispatch(x.dtype(), [&](auto traits) {
    using T = decltype(traits);
    const auto *in = x.data<typename T::Storage>();
    uint8_t *out = result.data<uint8_t>();
    for (int64_t i = 0, e = x.numElements(); i < e; ++i) {
      if constexpr (T::isFloat)
        out[i] = std::isfinite(T::load(in[i]));
      else
        out[i] = 1;
    }
  });
  return result;
}

Tensor binary(BinaryOp op, const Tensor &a, const Tensor &b) {
  Tensor result(a.dtype(), a.shape());
  dispatch(a.dtype(), [&](auto traits) {
    using T = decltype(traits);
    using S = typename T::Storage;
    dispatchBinary(op, [&](auto opConstant) {
      const S *__restrict lhs = a.data<S>();
      const S *__restrict rhs = b.data<S>();
      S *__restrict out = result.data<S>();
      for (int64_t i = 0, e = a.numElements(); i < e; ++i)
        out[i] = T::store(applyBinary<decltype(opConstant)::value, T>(
            T::load(lhs[i]), T::load(rhs[i])));
    });
  });
  return result;
}

Tensor compare(CompareSpec spec, const Tensor &a, const Tensor &b) {
  Tensor result(DType::Pred, a.shape());
  dispatch(a.dtype(), [&](auto traits) {
    using T = decltype(traits);
    using S = typename T::Storage;
    const S *lhs = a.data<S>();
    const S *rhs = b.data<S>();
    uint8_t *out = result.data<uint8_t>();
    for (int64_t i = 0, e = a.numElements(); i < e; ++i)
      out[i] = applyCompare<T>(spec, T::load(lhs[i]), T::load(rhs[i]));
  });
  return result;
}

Tensor select(const Tensor &pred, const Tensor &onTrue,
              const Tensor &onFalse) {
  Tensor result(onTrue.dtype(), onTrue.shape());
  int64_t size = hostio::dtypeByteSize(onTrue.dtype());
  bool scalar = pred.rank() == 0 && onTrue.rank() != 0;
  const uint8_t *p = pred.data<uint8_t>();
  for (int64_t i = 0, e = onTrue.numElements(); i < e; ++i) {
    const Tensor &chosen = p[scalar ? 0 : i] ? onTrue : onFalse;
    std::memcpy(result.bytes() + i * size, chosen.bytes() + i * size, size);
  }
  return result;
}

Tensor clamp(const Tensor &min, const Tensor &x, const Tensor &max) {
  Tensor result(x.dtype(), x.shape());
  dispatch(x.dtype(), [&](auto traits) {
    using T = decltype(traits);
    using S = typename T::Storage;
    const S *lo = min.data<S>(), *in = x.data<S>(), *hi = max.data<S>();
    S *out = result.data<S>();
    int64_t loStep = min.rank() == 0 ? 0 : 1, hiStep = max.rank() == 0 ? 0 : 1;
    for (int64_t i = 0, e = x.numElements(); i < e; ++i) {
      auto v = applyBinary<BinaryOp::Maximum, T>(T::load(in[i]),
                                                 T::load(lo[i * loStep]));
      out[i] = T::store(
          applyBinary<BinaryOp::Minimum, T>(v, T::load(hi[i * hiStep])));
    }
  });
  return result;
}

Tensor convert(const Tensor &x, DType to) {
  Tensor result(to, x.shape());
  dispatch(x.dtype(), [&](auto fromTraits) {
    using From = decltype(fromTraits);
    dispatch(to, [&](auto toTraits) {
      using To = decltype(toTraits);
      const auto *in = x.data<typename From::Storage>();
      auto *out = result.data<typename To::Storage>();
      for (int64_t i = 0, e = x.numElements(); i < e; ++i)
        out[i] = convertElement<From, To>(in[i]);
    });
  });
  return result;
}

Tensor bitcastConvert(const Tensor &x, DType to,
                      llvm::ArrayRef<int64_t> shape) {
  Tensor result(to, shape);
  std::memcpy(result.bytes(), x.bytes(), x.byteSize());
  return result;
}

Tensor iota(DType dtype, llvm::ArrayRef<int64_t> shape, int64_t dimension) {
  Tensor result(dtype, shape);
  int64_t inner = rowMajorStrides(shape)[dimension];
  int64_t size = shape[dimension];
  dispatch(dtype, [&](auto traits) {
    using T = decltype(traits);
    auto *out = result.data<typename T::Storage>();
    for (int64_t i = 0, e = result.numElements(); i < e; ++i) {
      int64_t value = (i / inner) % size;
      if constexpr (T::kind == ElementKind::Pred)
        out[i] = value != 0;
      else if constexpr (T::isFloat)
        out[i] = T::store(static_cast<typename T::Compute>(value));
      else
        out[i] = static_cast<typename T::Storage>(value);
    }
  });
  return result;
}

} // namespace tpuc::interpreter
