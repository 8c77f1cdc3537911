//===- HostArray.cpp ------------------------------------------------------===//

#include "runtime/hostio/HostArray.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

#include <limits>

namespace tpuc::hostio {

namespace {
struct DTypeInfo {
  DType dtype;
  absl::string_view name;
  int64_t byteSize;
};

constexpr DTypeInfo kDTypes[] = {
    {DType::F32, "f32", 4}, {DType::BF16, "bf16", 2}, {DType::F16, "f16", 2},
    {DType::F64, "f64", 8}, {DType::S8, "s8", 1},     {DType::S16, "s16", 2},
    {DType::S32, "s32", 4}, {DType::S64, "s64", 8},   {DType::U8, "u8", 1},
    {DType::U16, "u16", 2}, {DType::U32, "u32", 4},   {DType::U64, "u64", 8},
    {DType::Pred, "pred", 1},
    {DType::F8E4M3FN, "f8e4m3fn", 1},
    {DType::F8E5M2, "f8e5m2", 1},
    {DType::F8E4M3, "f8e4m3", 1},
    {DType::F8E4M3FNUZ, "f8e4m3fnuz", 1},
    {DType::F8E5M2FNUZ, "f8e5m2fnuz", 1},
    {DType::F8E4M3B11FNUZ, "f8e4m3b11fnuz", 1},
    {DType::F8E3M4, "f8e3m4", 1},
    {DType::S4, "s4", 1},
    {DType::U4, "u4", 1},
};

using Special = F8Format::Special;
constexpr F8Format kE4M3FN{4, 3, 7, Special::NaNAllOnes};
constexpr F8Format kE5M2{5, 2, 15, Special::IEEE};
constexpr F8Format kE4M3{4, 3, 7, Special::IEEE};
constexpr F8Format kE4M3FNUZ{4, 3, 8, Special::NaNNegativeZero};
constexpr F8Format kE5M2FNUZ{5, 2, 16, Special::NaNNegativeZero};
constexpr F8Format kE4M3B11FNUZ{4, 3, 11, Special::NaNNegativeZero};
constexpr F8Format kE3M4{3, 4, 3, Special::IEEE};

const DTypeInfo &info(DType dtype) {
  return kDTypes[static_cast<int>(dtype)];
}
} // namespace

int64_t dtypeByteSize(DType dtype) { return info(dtype).byteSize; }

absl::string_view dtypeName(DType dtype) { return info(dtype).name; }

absl::StatusOr<DType> parseDType(absl::string_view name) {
  for (const DTypeInfo &entry : kDTypes)
    if (entry.name == name)
      return entry.dtype;
  return absl::InvalidArgumentError(
      absl::StrCat("unsupported element type '", name,
                   "' (expected one of f32 bf16 f16 f64 s8 s16 s32 s64 u8 u16 "
                   "u32 u64 pred f8e4m3fn f8e5m2 f8e4m3 f8e4m3fnuz f8e5m2fnuz "
                   "f8e4m3b11fnuz f8e3m4 s4 u4)"));
}

bool isFloatDType(DType dtype) {
  return dtype == DType::F32 || dtype == DType::BF16 || dtype == DType::F16 ||
         dtype == DType::F64 || f8Format(dtype);
}

const F8Format *f8Format(DType dtype) {
  switch (dtype) {
  case DType::F8E4M3FN: return &kE4M3FN;
  case DType::F8E5M2: return &kE5M2;
  case DType::F8E4M3: return &kE4M3;
  case DType::F8E4M3FNUZ: return &kE4M3FNUZ;
  case DType::F8E5M2FNUZ: return &kE5M2FNUZ;
  case DType::F8E4M3B11FNUZ: return &kE4M3B11FNUZ;
  case DType::F8E3M4: return &kE3M4;
  default: return nullptr;
  }
}

bool isSignedIntDType(DType dtype) {
  return dtype == DType::S4 || dtype == DType::S8 || dtype == DType::S16 ||
         dtype == DType::S32 || dtype == DType::S64;
}

bool isUnsignedIntDType(DType dtype) {
  return dtype == DType::U4 || dtype == DType::U8 || dtype == DType::U16 ||
         dtype == DType::U32 || dtype == DType::U64;
}

absl::StatusOr<int64_t> shapeElementCount(const std::vector<int64_t> &shape) {
  // Bounded so that count * 8 bytes still fits in int64_t.
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / 8;
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0)
      return absl::InvalidArgumentError(
          absl::StrCat("negative dimension ", dim, " in shape [",
                       absl::StrJoin(shape, ","), "]"));
    if (dim != 0 && count > kMax / dim)
      return absl::InvalidArgumentError(absl::StrCat(
          "shape [", absl::StrJoin(shape, ","), "] has too many elements"));
    count *= dim;
  }
  return count;
}

std::string shapeString(DType dtype, const std::vector<int64_t> &shape) {
  return absl::StrCat(dtypeName(dtype), "[", absl::StrJoin(shape, ","), "]");
}

absl::StatusOr<HostArray> HostArray::zeros(DType dtype,
                                           std::vector<int64_t> shape) {
  absl::StatusOr<int64_t> count = shapeElementCount(shape);
  if (!count.ok())
    return count.status();
  Bytes bytes(static_cast<size_t>(*count * dtypeByteSize(dtype)), 0);
  return HostArray(dtype, std::move(shape), *count, std::move(bytes));
}

absl::StatusOr<HostArray> HostArray::forOverwrite(DType dtype,
                                                  std::vector<int64_t> shape) {
  absl::StatusOr<int64_t> count = shapeElementCount(shape);
  if (!count.ok())
    return count.status();
  Bytes bytes(static_cast<size_t>(*count * dtypeByteSize(dtype)));
  return HostArray(dtype, std::move(shape), *count, std::move(bytes));
}

absl::StatusOr<HostArray> HostArray::fromBytes(DType dtype,
                                               std::vector<int64_t> shape,
                                               Bytes bytes) {
  absl::StatusOr<int64_t> count = shapeElementCount(shape);
  if (!count.ok())
    return count.status();
  int64_t expected = *count * dtypeByteSize(dtype);
  if (static_cast<int64_t>(bytes.size()) != expected)
    return absl::InvalidArgumentError(
        absl::StrCat(shapeString(dtype, shape), " needs ", expected,
                     " bytes but ", bytes.size(), " were given"));
  return HostArray(dtype, std::move(shape), *count, std::move(bytes));
}

} // namespace tpuc::hostio
