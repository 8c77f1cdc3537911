//===- ElementwiseKernels.cpp - elementwise ops, convert, iota -------------===//
//
// Each kernel dispatches once on the element type (and the op) and then runs
// a plain loop over the elements, so f32 loops vectorise. Floats narrower
// than f32 are computed in f32 and rounded to nearest-even when stored.
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Kernels.h"
#include "compiler/interpreter/ScalarOps.h"
#include "compiler/interpreter/ScalarProgram.h"
#include "runtime/hostio/FloatConversion.h"

#include <cstring>

namespace tpuc::interpreter {

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

Tensor reducePrecision(const Tensor &x, int exponentBits, int mantissaBits) {
  Tensor result(x.dtype(), x.shape());
  dispatch(x.dtype(), [&](auto traits) {
    using T = decltype(traits);
    if constexpr (T::isFloat) {
      using C = typename T::Compute;
      const auto *in = x.data<typename T::Storage>();
      auto *out = result.data<typename T::Storage>();
      for (int64_t i = 0, e = x.numElements(); i < e; ++i) {
        C v = T::load(in[i]);
        if constexpr (std::is_same_v<C, double>)
          v = hostio::reducePrecision<double, uint64_t, 11, 52>(v, exponentBits,
                                                              mantissaBits);
        else
          v = hostio::reducePrecision<float, uint32_t, 8, 23>(v, exponentBits,
                                                            mantissaBits);
        out[i] = T::store(v);
      }
    }
  });
  return result;
}

mlir::FailureOr<Tensor> map(llvm::ArrayRef<Tensor> inputs, DType resultType,
                            const Combiner &computation) {
  Tensor result(resultType, inputs[0].shape());
  if (computation.program) {
    llvm::SmallVector<uint64_t, 32> slots;
    computation.program->initSlots(slots);
    unsigned out = computation.program->resultSlots()[0];
    for (int64_t i = 0, e = result.numElements(); i < e; ++i) {
      for (auto [slot, input] : llvm::enumerate(inputs))
        slots[slot] = elementBits(input, i);
      computation.program->run(slots.data());
      storeElementBits(result, i, slots[out]);
    }
    return result;
  }
  llvm::SmallVector<Tensor, 4> args(inputs.size());
  for (int64_t i = 0, e = result.numElements(); i < e; ++i) {
    for (auto [arg, input] : llvm::zip(args, inputs))
      arg = scalarAt(input, i);
    auto value = computation.region(args);
    if (mlir::failed(value))
      return mlir::failure();
    storeScalar(result, i, (*value)[0]);
  }
  return result;
}

Tensor bitcastConvert(const Tensor &x, DType to,
                      llvm::ArrayRef<int64_t> shape) {
  Tensor result(to, shape);
  std::memcpy(result.bytes(), x.bytes(), x.byteSize());
  // s4 <-> u4: the same 4 bits, held sign- or zero-extended in the byte.
  if (to == DType::S4 || to == DType::U4)
    dispatch(to, [&](auto traits) {
      using T = decltype(traits);
      if constexpr (T::isInt)
        for (int64_t i = 0, e = result.numElements(); i < e; ++i)
          result.data<typename T::Storage>()[i] =
              T::store(result.data<typename T::Storage>()[i]);
    });
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
      else // rounded (floats) or wrapped (integers) to the type
        out[i] = T::store(static_cast<typename T::Compute>(value));
    }
  });
  return result;
}

} // namespace tpuc::interpreter
