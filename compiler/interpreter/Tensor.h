//===- Tensor.h - the interpreter's value type ------------------*- C++ -*-===//
//
// A Tensor is an element type, a static shape and its elements in row-major
// order, stored exactly as a hostio::HostArray stores them (bf16/f16 as raw
// 16-bit patterns, pred as bytes 0/1), so converting between the two is a
// copy. Storage is shared between copies of a Tensor: reshape and tuple
// plumbing are free, and kernels only ever write into tensors they created.
//
// Element traits (F32Traits, Bf16Traits, ...) say how an element is stored
// and in which type XLA computes with it: f32/bf16/f16/f8 in float, f64 in
// double, integers in their own type, pred in bool. `dispatch` calls a
// generic lambda with the traits of a runtime element type, so kernels are
// written once and instantiated per type, with no per-element dispatch.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_INTERPRETER_TENSOR_H
#define TPUC_COMPILER_INTERPRETER_TENSOR_H

#include "runtime/hostio/FloatConversion.h"
#include "runtime/hostio/HostArray.h"

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace tpuc::interpreter {

using hostio::DType;

/// The interpreter's element type for an MLIR element type (i1 is pred, iN
/// is sN, uiN is uN), or nothing for types the hlo dialect does not allow.
std::optional<DType> dtypeOf(mlir::Type elementType);

/// Strides (in elements) of a row-major array of `shape`.
llvm::SmallVector<int64_t, 6> rowMajorStrides(llvm::ArrayRef<int64_t> shape);
/// Product of the dimensions.
int64_t elementCount(llvm::ArrayRef<int64_t> shape);

class Tensor {
public:
  Tensor() = default;
  /// A zero-filled tensor.
  Tensor(DType dtype, llvm::ArrayRef<int64_t> shape);

  static Tensor fromHostArray(const hostio::HostArray &array);
  hostio::HostArray toHostArray() const;

  DType dtype() const { return dtype_; }
  llvm::ArrayRef<int64_t> shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t dim(int64_t i) const { return shape_[i]; }
  int64_t numElements() const { return numElements_; }
  int64_t byteSize() const { return numElements_ * hostio::dtypeByteSize(dtype_); }
  /// "f32[2,3]".
  std::string typeString() const;

  template <typename T> T *data() {
    return reinterpret_cast<T *>(storage_->data());
  }
  template <typename T> const T *data() const {
    return reinterpret_cast<const T *>(storage_->data());
  }
  uint8_t *bytes() { return storage_->data(); }
  const uint8_t *bytes() const { return storage_->data(); }

  /// The same elements with another shape of equal element count (shares
  /// the storage).
  Tensor reshaped(llvm::ArrayRef<int64_t> shape) const;

  /// Element `index` (row-major) of an integer or pred tensor, sign- or
  /// zero-extended as its type says.
  int64_t intAt(int64_t index) const;
  /// Element `index` of any tensor as a double (exact for all but s64/u64
  /// beyond 2^53).
  double doubleAt(int64_t index) const;

  /// Whether every element is bitwise equal (and type and shape).
  bool identical(const Tensor &other) const;

private:
  DType dtype_ = DType::F32;
  llvm::SmallVector<int64_t, 4> shape_;
  int64_t numElements_ = 0;
  std::shared_ptr<std::vector<uint8_t>> storage_;
};

//===----------------------------------------------------------------------===//
// Element traits
//===----------------------------------------------------------------------===//

enum class ElementKind { Float, Signed, Unsigned, Pred };

template <typename StorageT, typename ComputeT, ElementKind K, DType D>
struct ElementTraitsBase {
  using Storage = StorageT;
  using Compute = ComputeT;
  static constexpr ElementKind kind = K;
  static constexpr DType dtype = D;
  static constexpr bool isFloat = K == ElementKind::Float;
  static constexpr bool isInt = K == ElementKind::Signed || K == ElementKind::Unsigned;
  /// The integer types' width in bits (4 for s4/u4, held in a byte).
  static constexpr unsigned kBits = 8 * sizeof(StorageT);
  static Compute load(Storage s) { return static_cast<Compute>(s); }
  static Storage store(Compute c) { return static_cast<Storage>(c); }
};

struct F32Traits : ElementTraitsBase<float, float, ElementKind::Float, DType::F32> {};
struct F64Traits : ElementTraitsBase<double, double, ElementKind::Float, DType::F64> {};
struct Bf16Traits : ElementTraitsBase<uint16_t, float, ElementKind::Float, DType::BF16> {
  static float load(uint16_t s) { return hostio::bf16BitsToF32(s); }
  static uint16_t store(float c) { return hostio::f32ToBf16Bits(c); }
};
struct F16Traits : ElementTraitsBase<uint16_t, float, ElementKind::Float, DType::F16> {
  static float load(uint16_t s) { return hostio::f16BitsToF32(s); }
  static uint16_t store(float c) { return hostio::f32ToF16Bits(c); }
};
/// The value of the f8 bits `bits` of type `dtype`, and `value` rounded to
/// that type (to nearest even), as LLVM's APFloat defines the formats.
float f8ToFloat(DType dtype, uint8_t bits);
uint8_t floatToF8(DType dtype, float value);
/// f8 types: computed in float and rounded to the type after every op, as
/// XLA's evaluator does (ml_dtypes' float8 C++ types, whose operators
/// compute in float and convert back; docs/integers.md).
template <DType D>
struct F8Traits : ElementTraitsBase<uint8_t, float, ElementKind::Float, D> {
  static float load(uint8_t s) { return f8ToFloat(D, s); }
  static uint8_t store(float c) { return floatToF8(D, c); }
};
template <typename I, DType D>
struct IntTraits
    : ElementTraitsBase<I, I,
                        std::is_signed_v<I> ? ElementKind::Signed
                                            : ElementKind::Unsigned,
                        D> {
  static constexpr I kMin = std::numeric_limits<I>::min();
  static constexpr I kMax = std::numeric_limits<I>::max();
};
/// s4/u4: a byte holding the value sign- or zero-extended; computed in
/// int8_t/uint8_t and wrapped to 4 bits on every store, as XLA's evaluator
/// computes with ml_dtypes' int4 types.
template <typename I, DType D> struct Int4Traits : IntTraits<I, D> {
  static constexpr unsigned kBits = 4;
  static constexpr I kMin = std::is_signed_v<I> ? -8 : 0;
  static constexpr I kMax = std::is_signed_v<I> ? 7 : 15;
  static I store(I c) {
    if constexpr (std::is_signed_v<I>)
      return static_cast<I>(static_cast<int8_t>(static_cast<uint8_t>(c) << 4) >> 4);
    else
      return static_cast<I>(c & 0xF);
  }
};
struct PredTraits : ElementTraitsBase<uint8_t, bool, ElementKind::Pred, DType::Pred> {
  static bool load(uint8_t s) { return s != 0; }
  static uint8_t store(bool c) { return c ? 1 : 0; }
};

/// Calls `f(Traits{})` for the traits of `dtype`.
template <typename F> decltype(auto) dispatch(DType dtype, F &&f) {
  switch (dtype) {
  case DType::F32: return f(F32Traits{});
  case DType::BF16: return f(Bf16Traits{});
  case DType::F16: return f(F16Traits{});
  case DType::F64: return f(F64Traits{});
  case DType::S4: return f(Int4Traits<int8_t, DType::S4>{});
  case DType::U4: return f(Int4Traits<uint8_t, DType::U4>{});
  case DType::S8: return f(IntTraits<int8_t, DType::S8>{});
  case DType::S16: return f(IntTraits<int16_t, DType::S16>{});
  case DType::S32: return f(IntTraits<int32_t, DType::S32>{});
  case DType::S64: return f(IntTraits<int64_t, DType::S64>{});
  case DType::U8: return f(IntTraits<uint8_t, DType::U8>{});
  case DType::U16: return f(IntTraits<uint16_t, DType::U16>{});
  case DType::U32: return f(IntTraits<uint32_t, DType::U32>{});
  case DType::U64: return f(IntTraits<uint64_t, DType::U64>{});
  case DType::F8E4M3FN: return f(F8Traits<DType::F8E4M3FN>{});
  case DType::F8E5M2: return f(F8Traits<DType::F8E5M2>{});
  case DType::F8E4M3: return f(F8Traits<DType::F8E4M3>{});
  case DType::F8E4M3FNUZ: return f(F8Traits<DType::F8E4M3FNUZ>{});
  case DType::F8E5M2FNUZ: return f(F8Traits<DType::F8E5M2FNUZ>{});
  case DType::F8E4M3B11FNUZ: return f(F8Traits<DType::F8E4M3B11FNUZ>{});
  case DType::F8E3M4: return f(F8Traits<DType::F8E3M4>{});
  case DType::Pred: break;
  }
  return f(PredTraits{});
}

/// Rounds a computed value to what its storage type can hold (RNE for
/// bf16/f16, identity otherwise).
template <typename T> typename T::Compute roundTo(typename T::Compute value) {
  return T::load(T::store(value));
}

/// A row-major multi-index that steps through a shape (the last dimension
/// fastest); `next()` returns the lowest dimension that changed, or -1 after
/// the last element.
class IndexCounter {
public:
  explicit IndexCounter(llvm::ArrayRef<int64_t> shape)
      : shape(shape.begin(), shape.end()), index(shape.size(), 0) {}
  llvm::ArrayRef<int64_t> get() const { return index; }
  int64_t operator[](size_t i) const { return index[i]; }
  int64_t next() {
    for (int64_t d = static_cast<int64_t>(index.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        return d;
      index[d] = 0;
    }
    return -1;
  }

private:
  llvm::SmallVector<int64_t, 6> shape;
  llvm::SmallVector<int64_t, 6> index;
};

} // namespace tpuc::interpreter

#endif // TPUC_COMPILER_INTERPRETER_TENSOR_H
