//===- FloatConversion.h - Exact bf16/f16/f8 <-> f32 conversions -*- C++ -*-===//
//
// bf16 and f16 are stored as raw uint16_t bits, the f8 types as uint8_t. Narrowing rounds to nearest,
// ties to even (RNE), as XLA and the TPU do; overflow gives +-inf; a NaN stays
// a NaN of the same sign (made quiet, top payload bits kept). Widening is
// exact. The reference interpreter and the emulator must both use these so
// their results agree bit for bit.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_RUNTIME_HOSTIO_FLOATCONVERSION_H
#define TPUC_RUNTIME_HOSTIO_FLOATCONVERSION_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
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

/// An 8-bit float format (XLA's, ml_dtypes' and LLVM APFloat's f8 types):
/// a sign bit, `exponentBits`, `mantissaBits` and the exponent `bias`, and
/// what the format does with infinities, NaN and negative zero.
struct F8Format {
  enum class Special {
    IEEE,              // f8e5m2, f8e4m3, f8e3m4: +-inf, NaNs, -0 as IEEE 754
    NaNAllOnes,        // "fn": no inf; NaN is S.1111.111; overflow -> NaN
    NaNNegativeZero,   // "fnuz": no inf, no -0; NaN is 0x80; overflow -> NaN
  };
  int exponentBits;
  int mantissaBits;
  int bias;
  Special special;
};

/// The largest finite value of `f`.
inline double f8MaxFinite(const F8Format &f) {
  int topExponent = (1 << f.exponentBits) - 1 - f.bias;
  switch (f.special) {
  case F8Format::Special::IEEE: // the top exponent holds inf and NaN
    return std::ldexp(2.0 - std::ldexp(1.0, -f.mantissaBits), topExponent - 1);
  case F8Format::Special::NaNAllOnes: // S.1111.111 is NaN
    return std::ldexp(2.0 - std::ldexp(1.0, 1 - f.mantissaBits), topExponent);
  case F8Format::Special::NaNNegativeZero:
    break;
  }
  return std::ldexp(2.0 - std::ldexp(1.0, -f.mantissaBits), topExponent);
}

/// The f8 bits' value (exact). A NaN keeps its sign where the format has one.
inline float f8BitsToF32(uint8_t bits, const F8Format &f) {
  bool negative = (bits & 0x80u) != 0;
  int mantissa = bits & ((1 << f.mantissaBits) - 1);
  int exponent = (bits >> f.mantissaBits) & ((1 << f.exponentBits) - 1);
  int topExponent = (1 << f.exponentBits) - 1;
  float nan = std::numeric_limits<float>::quiet_NaN();
  switch (f.special) {
  case F8Format::Special::IEEE:
    if (exponent == topExponent) {
      float special = mantissa ? nan : std::numeric_limits<float>::infinity();
      return negative ? -special : special;
    }
    break;
  case F8Format::Special::NaNAllOnes:
    if (exponent == topExponent && mantissa == (1 << f.mantissaBits) - 1)
      return negative ? -nan : nan;
    break;
  case F8Format::Special::NaNNegativeZero:
    if (bits == 0x80u)
      return nan;
    break;
  }
  double magnitude =
      exponent == 0
          ? std::ldexp(mantissa, 1 - f.bias - f.mantissaBits)
          : std::ldexp(mantissa + (1 << f.mantissaBits),
                       exponent - f.bias - f.mantissaBits);
  return static_cast<float>(negative ? -magnitude : magnitude);
}

/// `value` rounded to the nearest `f` value, ties to even (XLA's convert,
/// ml_dtypes', APFloat's rmNearestTiesToEven): subnormals kept; overflow
/// (and inf) to inf in IEEE formats, to NaN in the others; fnuz formats
/// give +0 for -0 and for negative values that round to zero.
inline uint8_t f32ToF8Bits(float value, const F8Format &f) {
  using Special = F8Format::Special;
  uint8_t sign = std::signbit(value) ? 0x80u : 0;
  int topExponent = (1 << f.exponentBits) - 1;
  uint8_t nan = f.special == Special::NaNNegativeZero ? 0x80u
                : f.special == Special::NaNAllOnes
                    ? static_cast<uint8_t>(sign | 0x7Fu)
                    : static_cast<uint8_t>(sign | topExponent << f.mantissaBits |
                                           1 << (f.mantissaBits - 1));
  uint8_t zero = f.special == Special::NaNNegativeZero ? 0 : sign;
  if (std::isnan(value))
    return nan;
  uint8_t overflow =
      f.special == Special::IEEE
          ? static_cast<uint8_t>(sign | topExponent << f.mantissaBits)
          : nan;
  if (std::isinf(value))
    return overflow;
  double magnitude = std::fabs(static_cast<double>(value));
  if (magnitude == 0)
    return zero;
  // In units of the spacing at magnitude's exponent (at least the smallest
  // normal's: the subnormals' spacing), rounded to an integer, ties to even.
  int minExponent = 1 - f.bias;
  int exponent = std::max(std::ilogb(magnitude), minExponent);
  double scaled = std::ldexp(magnitude, f.mantissaBits - exponent);
  double units = std::floor(scaled);
  double rest = scaled - units;
  if (rest > 0.5 || (rest == 0.5 && std::fmod(units, 2.0) != 0))
    units += 1;
  double rounded = std::ldexp(units, exponent - f.mantissaBits);
  if (rounded > f8MaxFinite(f))
    return overflow;
  if (units == 0)
    return zero;
  int roundedExponent = std::ilogb(rounded);
  if (roundedExponent < minExponent) // subnormal: units < 2^mantissaBits
    return static_cast<uint8_t>(sign | static_cast<int>(units));
  int mantissa =
      static_cast<int>(std::ldexp(rounded, f.mantissaBits - roundedExponent)) -
      (1 << f.mantissaBits);
  return static_cast<uint8_t>(
      sign | (roundedExponent + f.bias) << f.mantissaBits | mantissa);
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
