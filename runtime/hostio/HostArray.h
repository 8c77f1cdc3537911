//===- HostArray.h - A dense array in host memory ---------------*- C++ -*-===//
//
// The host-side value of one parameter or result: an element type, a shape
// and the elements as little-endian bytes in C (row-major) order. bf16 and
// f16 elements are their raw 16-bit patterns, f8 ones their bytes, s4/u4
// ones a byte holding the value; pred elements are bytes 0 or 1.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_RUNTIME_HOSTIO_HOSTARRAY_H
#define TPUC_RUNTIME_HOSTIO_HOSTARRAY_H

#include "absl/status/statusor.h"
#include "runtime/hostio/FloatConversion.h"

#include <cstdint>
#include <memory>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

namespace tpuc::hostio {

enum class DType : uint8_t {
  F32,
  BF16,
  F16,
  F64,
  S8,
  S16,
  S32,
  S64,
  U8,
  U16,
  U32,
  U64,
  Pred,
  // 8-bit floats (runtime/hostio/FloatConversion.h), stored as their bits.
  F8E4M3FN,
  F8E5M2,
  F8E4M3,
  F8E4M3FNUZ,
  F8E5M2FNUZ,
  F8E4M3B11FNUZ,
  F8E3M4,
  // 4-bit integers (XLA's s4/u4, JAX's int4/uint4), one byte per element
  // holding the value sign- or zero-extended, as numpy's int8/uint8.
  S4,
  U4,
};

/// Bytes per element.
int64_t dtypeByteSize(DType dtype);
/// The XLA spelling: "f32", "bf16", "s32", "pred", ...
absl::string_view dtypeName(DType dtype);
/// Parses the XLA spelling; an error names the unknown type.
absl::StatusOr<DType> parseDType(absl::string_view name);
bool isFloatDType(DType dtype);
/// The format of an 8-bit float type; null for the other types.
const F8Format *f8Format(DType dtype);
bool isSignedIntDType(DType dtype);
bool isUnsignedIntDType(DType dtype);

/// Product of the dimensions; an error for a negative dimension or when the
/// byte size of such an array (at 8 bytes per element) would not fit in
/// int64_t.
absl::StatusOr<int64_t> shapeElementCount(const std::vector<int64_t> &shape);

/// "f32[2,3]" (XLA notation, no layout).
std::string shapeString(DType dtype, const std::vector<int64_t> &shape);

/// std::allocator whose value-less construct leaves the element as it is:
/// a vector's resize(n) does not write n zeros first.
template <typename T> struct DefaultInitAllocator : std::allocator<T> {
  template <typename U> struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  using std::allocator<T>::allocator;
  template <typename U> void construct(U *p) { ::new (static_cast<void *>(p)) U; }
  template <typename U, typename... Args> void construct(U *p, Args &&...args) {
    ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
  }
};

/// An array's bytes. Sized without a value they are not written (the
/// hundreds of MB of a model's weights are written once, by their producer).
using Bytes = std::vector<uint8_t, DefaultInitAllocator<uint8_t>>;

class HostArray {
public:
  /// A zero-filled array.
  static absl::StatusOr<HostArray> zeros(DType dtype,
                                         std::vector<int64_t> shape);
  /// An array whose bytes the caller writes, every one of them, before it
  /// reads any.
  static absl::StatusOr<HostArray> forOverwrite(DType dtype,
                                                std::vector<int64_t> shape);
  /// Takes `bytes` as the elements; their size must match the shape.
  static absl::StatusOr<HostArray> fromBytes(DType dtype,
                                             std::vector<int64_t> shape,
                                             Bytes bytes);

  DType dtype() const { return dtype_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t elementCount() const { return elementCount_; }
  int64_t byteSize() const { return static_cast<int64_t>(bytes_.size()); }
  const Bytes &bytes() const { return bytes_; }
  uint8_t *data() { return bytes_.data(); }
  const uint8_t *data() const { return bytes_.data(); }
  /// "bf16[4,128]".
  std::string typeString() const { return shapeString(dtype_, shape_); }

  friend bool operator==(const HostArray &a, const HostArray &b) {
    return a.dtype_ == b.dtype_ && a.shape_ == b.shape_ && a.bytes_ == b.bytes_;
  }
  friend bool operator!=(const HostArray &a, const HostArray &b) {
    return !(a == b);
  }

private:
  HostArray(DType dtype, std::vector<int64_t> shape, int64_t elementCount,
            Bytes bytes)
      : dtype_(dtype), shape_(std::move(shape)), elementCount_(elementCount),
        bytes_(std::move(bytes)) {}

  DType dtype_;
  std::vector<int64_t> shape_;
  int64_t elementCount_;
  Bytes bytes_;
};

} // namespace tpuc::hostio

#endif // TPUC_RUNTIME_HOSTIO_HOSTARRAY_H
