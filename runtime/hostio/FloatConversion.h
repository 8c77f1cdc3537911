//===- FloatConversion.h - Exact bf16/f16 <-> f32 conversions ---*- C++ -*-===//
//
// bf16 and f16 are stored as raw uint16_t bits. Narrowing rounds to nearest,
// ties to even (RNE), as XLA and the TPU do; overflow gives +-inf; a NaN stays
// a NaN of the same sign (made quiet, top payload bits kept). Widening is
// exact. The reference interpreter and the emulator must both use these so
// their results agree bit for bit.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_RUNTIME_HOSTIO_FLOATCONVERSION_H
#define TPUC_RUNTIME_HOSTIO_FLOATCONVERSION_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace tpuc::hostio {

inline uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

inline float floatFromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

inline uint16_t f32ToBf16Bits(float value) {
  uint32_t bits = floatBits(value);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x0040u);
  // Adding 0x7FFF plus the lowest kept bit rounds half to even; a carry out of
  // the mantissa correctly bumps the exponent (up to inf).
  uint32_t bias = 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + bias) >> 16);
}

inline float bf16BitsToF32(uint16_t bits) {
  return floatFromBits(static_cast<uint32_t>(bits) << 16);
}

/// Rounds an f32 to the nearest bf16 value, returned as an f32.
inline float roundToBf16(float value) {
  return bf16BitsToF32(f32ToBf16Bits(value));
}

inline uint16_t f32ToF16Bits(float value) {
  uint32_t bits = floatBits(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t abs = bits & 0x7FFFFFFFu;
  if (abs > 0x7F800000u) // NaN
    return sign | 0x7E00u | ((abs >> 13) & 0x3FFu);
  if (abs >= 0x47800000u) // >= 2^16 (or inf): beyond every rounding to 65504
    return sign | 0x7C00u;
  if (abs < 0x38800000u) { // below 2^-14: f16 subnormal or zero
    if (abs <= 0x33000000u) // <= 2^-25: rounds to zero (2^-25 ties to even)
      return sign;
    uint32_t exponent = abs >> 23;
    uint32_t mantissa = (abs & 0x7FFFFFu) | 0x800000u;
    uint32_t shift = 126 - exponent; // in 14..24: units of 2^-24
    uint32_t result = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t half = 1u << (shift - 1);
    if (rest > half || (rest == half && (result & 1u)))
      ++result;
    return sign | static_cast<uint16_t>(result);
  }
  // Normal: rebias the exponent (127 -> 15) and drop 13 mantissa bits with
  // RNE; a carry into the exponent is the correct result (up to inf).
  uint32_t rebased = abs - 0x38000000u;
  uint32_t result = rebased >> 13;
  uint32_t rest = rebased & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (result & 1u)))
    ++result;
  return sign | static_cast<uint16_t>(result);
}

inline float f16BitsToF32(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  uint32_t exponent = (bits >> 10) & 0x1Fu;
  uint32_t mantissa = bits & 0x3FFu;
  if (exponent == 0x1F)
    return floatFromBits(sign | 0x7F800000u | (mantissa << 13));
  if (exponent == 0) {
    float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  return floatFromBits(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

/// Rounds an f32 to the nearest f16 value, returned as an f32.
inline float roundToF16(float value) {
  return f16BitsToF32(f32ToF16Bits(value));
}

/// XLA's reduce-precision on the bits of an IEEE float with `kMantissa`
/// mantissa and `kExponent` exponent bits (ElementalIrEmitter's
/// EmitReducePrecisionIR): round the mantissa to nearest-even, then
/// overflow to infinity and flush values below the smallest normal to
/// zero. NaN stays NaN. Shared by the interpreter and the emulator.
template <typename F, typename Bits, int kExponent, int kMantissa>
F reducePrecision(F value, int exponentBits, int mantissaBits) {
  Bits bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if (mantissaBits < kMantissa) {
    int dropped = kMantissa - mantissaBits;
    Bits lastBit = Bits(1) << dropped;
    Bits bias = (lastBit >> 1) - 1 + ((bits & lastBit) >> dropped);
    bits = (bits + bias) & ~(lastBit - 1);
  }
  if (exponentBits < kExponent) {
    Bits signMask = Bits(1) << (kExponent + kMantissa);
    Bits exponentMask = ((Bits(1) << kExponent) - 1) << kMantissa;
    Bits exponentBias = (Bits(1) << (kExponent - 1)) - 1;
    Bits reducedBias = (Bits(1) << (exponentBits - 1)) - 1;
    Bits exponent = bits & exponentMask;
    if (exponent > (exponentBias + reducedBias) << kMantissa)
      bits = (bits & signMask) | exponentMask;
    else if (exponent <= (exponentBias - reducedBias) << kMantissa)
      bits &= signMask;
  }
  if (std::isnan(value))
    return value;
  F result;
  std::memcpy(&result, &bits, sizeof(result));
  return result;
}

} // namespace tpuc::hostio

#endif // TPUC_RUNTIME_HOSTIO_FLOATCONVERSION_H
