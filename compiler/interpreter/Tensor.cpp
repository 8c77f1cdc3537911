//===- Tensor.cpp - the interpreter's value type ---------------------------===//

#include "compiler/interpreter/Tensor.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace tpuc::interpreter {

std::optional<DType> dtypeOf(mlir::Type type) {
  if (type.isF32())
    return DType::F32;
  if (type.isBF16())
    return DType::BF16;
  if (type.isF16())
    return DType::F16;
  if (type.isF64())
    return DType::F64;
  if (llvm::isa<mlir::Float8E4M3FNType>(type))
    return DType::F8E4M3FN;
  if (llvm::isa<mlir::Float8E5M2Type>(type))
    return DType::F8E5M2;
  if (llvm::isa<mlir::Float8E4M3Type>(type))
    return DType::F8E4M3;
  if (llvm::isa<mlir::Float8E4M3FNUZType>(type))
    return DType::F8E4M3FNUZ;
  if (llvm::isa<mlir::Float8E5M2FNUZType>(type))
    return DType::F8E5M2FNUZ;
  if (llvm::isa<mlir::Float8E4M3B11FNUZType>(type))
    return DType::F8E4M3B11FNUZ;
  if (llvm::isa<mlir::Float8E3M4Type>(type))
    return DType::F8E3M4;
  auto integer = llvm::dyn_cast<mlir::IntegerType>(type);
  if (!integer)
    return std::nullopt;
  bool isUnsigned = integer.isUnsigned();
  switch (integer.getWidth()) {
  case 1: return integer.isSignless() ? std::optional(DType::Pred) : std::nullopt;
  case 4: return isUnsigned ? DType::U4 : DType::S4;
  case 8: return isUnsigned ? DType::U8 : DType::S8;
  case 16: return isUnsigned ? DType::U16 : DType::S16;
  case 32: return isUnsigned ? DType::U32 : DType::S32;
  case 64: return isUnsigned ? DType::U64 : DType::S64;
  default: return std::nullopt;
  }
}

namespace {
const llvm::fltSemantics &f8Semantics(DType dtype) {
  switch (dtype) {
  case DType::F8E5M2: return llvm::APFloat::Float8E5M2();
  case DType::F8E4M3: return llvm::APFloat::Float8E4M3();
  case DType::F8E4M3FNUZ: return llvm::APFloat::Float8E4M3FNUZ();
  case DType::F8E5M2FNUZ: return llvm::APFloat::Float8E5M2FNUZ();
  case DType::F8E4M3B11FNUZ: return llvm::APFloat::Float8E4M3B11FNUZ();
  case DType::F8E3M4: return llvm::APFloat::Float8E3M4();
  default: return llvm::APFloat::Float8E4M3FN();
  }
}
} // namespace

float f8ToFloat(DType dtype, uint8_t bits) {
  llvm::APFloat value(f8Semantics(dtype), llvm::APInt(8, bits));
  bool lost;
  // A NaN is the canonical quiet NaN of its sign, as ml_dtypes widens it
  // (APFloat would carry the f8 mantissa over as a payload); the fnuz
  // types' one NaN (0x80) has none.
  if (value.isNaN()) {
    bool signedNaN = value.isNegative() &&
                     llvm::APFloat::getZero(f8Semantics(dtype), true)
                         .isNegative();
    return std::copysign(std::numeric_limits<float>::quiet_NaN(),
                         signedNaN ? -1.0f : 1.0f);
  }
  value.convert(llvm::APFloat::IEEEsingle(),
                llvm::APFloat::rmNearestTiesToEven, &lost);
  return value.convertToFloat();
}

uint8_t floatToF8(DType dtype, float value) {
  // A NaN becomes the type's quiet NaN of its sign (no payload), as the
  // runtime and ml_dtypes narrow it.
  if (std::isnan(value))
    return static_cast<uint8_t>(
        llvm::APFloat::getQNaN(f8Semantics(dtype), std::signbit(value))
            .bitcastToAPInt()
            .getZExtValue());
  llvm::APFloat f8(value);
  bool lost;
  f8.convert(f8Semantics(dtype), llvm::APFloat::rmNearestTiesToEven, &lost);
  return static_cast<uint8_t>(f8.bitcastToAPInt().getZExtValue());
}

llvm::SmallVector<int64_t, 6> rowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 6> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

int64_t elementCount(llvm::ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  return count;
}

Tensor::Tensor(DType dtype, llvm::ArrayRef<int64_t> shape)
    : dtype_(dtype), shape_(shape.begin(), shape.end()),
      numElements_(elementCount(shape)),
      storage_(std::make_shared<std::vector<uint8_t>>(
          numElements_ * hostio::dtypeByteSize(dtype))) {}

Tensor Tensor::fromHostArray(const hostio::HostArray &array) {
  Tensor tensor(array.dtype(), array.shape());
  if (array.byteSize() > 0) // an empty array's data may be null
    std::memcpy(tensor.bytes(), array.data(), array.byteSize());
  return tensor;
}

hostio::HostArray Tensor::toHostArray() const {
  hostio::Bytes bytes(storage_->begin(), storage_->begin() + byteSize());
  // The shape and byte count agree by construction.
  return *hostio::HostArray::fromBytes(
      dtype_, std::vector<int64_t>(shape_.begin(), shape_.end()),
      std::move(bytes));
}

std::string Tensor::typeString() const {
  return hostio::shapeString(dtype_,
                             std::vector<int64_t>(shape_.begin(), shape_.end()));
}

Tensor Tensor::reshaped(llvm::ArrayRef<int64_t> shape) const {
  Tensor result = *this;
  result.shape_.assign(shape.begin(), shape.end());
  return result;
}

int64_t Tensor::intAt(int64_t index) const {
  return dispatch(dtype_, [&](auto traits) -> int64_t {
    using T = decltype(traits);
    if constexpr (T::isFloat)
      return static_cast<int64_t>(T::load(data<typename T::Storage>()[index]));
    else
      return static_cast<int64_t>(data<typename T::Storage>()[index]);
  });
}

double Tensor::doubleAt(int64_t index) const {
  return dispatch(dtype_, [&](auto traits) -> double {
    using T = decltype(traits);
    return static_cast<double>(T::load(data<typename T::Storage>()[index]));
  });
}

bool Tensor::identical(const Tensor &other) const {
  return dtype_ == other.dtype_ && shape_ == other.shape_ &&
         std::memcmp(bytes(), other.bytes(), byteSize()) == 0;
}

} // namespace tpuc::interpreter
