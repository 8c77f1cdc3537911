//===- RandomInputs.cpp ---------------------------------------------------===//

#include "runtime/hostio/RandomInputs.h"

#include "runtime/hostio/FloatConversion.h"

#include <cstring>

namespace tpuc::hostio {

namespace {
template <typename T> void store(uint8_t *data, int64_t index, T value) {
  std::memcpy(data + index * static_cast<int64_t>(sizeof(T)), &value,
              sizeof(T));
}
} // namespace

absl::StatusOr<HostArray> randomInput(uint64_t seed, uint64_t paramIndex,
                                      DType dtype,
                                      std::vector<int64_t> shape) {
  absl::StatusOr<HostArray> array =
      HostArray::forOverwrite(dtype, std::move(shape));
  if (!array.ok())
    return array.status();
  SplitMix64 rng(seed * 1000003ull + paramIndex);
  uint8_t *data = array->data();
  for (int64_t i = 0, e = array->elementCount(); i < e; ++i) {
    uint64_t r = rng.next();
    float unit = static_cast<float>(r >> 40) * 0x1p-23f - 1.0f;
    int64_t small = static_cast<int64_t>(r >> 60) - 8;
    uint64_t smallUnsigned = r >> 60;
    switch (dtype) {
    case DType::F32:
      store(data, i, unit);
      break;
    case DType::F64:
      store(data, i, static_cast<double>(unit));
      break;
    case DType::BF16:
      store(data, i, f32ToBf16Bits(unit));
      break;
    case DType::F16:
      store(data, i, f32ToF16Bits(unit));
      break;
    case DType::S4: // small is in [-8, 7], smallUnsigned in [0, 15]
    case DType::S8:
      store(data, i, static_cast<int8_t>(small));
      break;
    case DType::S16:
      store(data, i, static_cast<int16_t>(small));
      break;
    case DType::S32:
      store(data, i, static_cast<int32_t>(small));
      break;
    case DType::S64:
      store(data, i, small);
      break;
    case DType::U4:
    case DType::U8:
      store(data, i, static_cast<uint8_t>(smallUnsigned));
      break;
    case DType::U16:
      store(data, i, static_cast<uint16_t>(smallUnsigned));
      break;
    case DType::U32:
      store(data, i, static_cast<uint32_t>(smallUnsigned));
      break;
    case DType::U64:
      store(data, i, smallUnsigned);
      break;
    case DType::Pred:
      store(data, i, static_cast<uint8_t>(r >> 63));
      break;
    case DType::F8E4M3FN:
    case DType::F8E5M2:
    case DType::F8E4M3:
    case DType::F8E4M3FNUZ:
    case DType::F8E5M2FNUZ:
    case DType::F8E4M3B11FNUZ:
    case DType::F8E3M4: // in [-1, 1), rounded to the f8 type
      store(data, i, f32ToF8Bits(unit, *f8Format(dtype)));
      break;
    }
  }
  return array;
}

} // namespace tpuc::hostio
