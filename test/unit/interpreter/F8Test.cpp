//===- F8Test.cpp - the 8-bit float formats, two implementations ----------===//
//
// The f8 conversions exist twice: the interpreter's (LLVM's APFloat) and
// the runtime's (runtime/hostio/FloatConversion.h, which may not link
// LLVM; the loader converts entry arrays with it). Both are checked on edge
// values whose bits are derived here by hand from the format definitions,
// and against each other on every f8 bit pattern and on a sweep of f32
// values.
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Tensor.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <vector>

using namespace tpuc::interpreter;
using tpuc::hostio::f32ToF8Bits;
using tpuc::hostio::f8BitsToF32;
using tpuc::hostio::f8Format;
using tpuc::hostio::floatBits;
using tpuc::hostio::floatFromBits;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

struct Case {
  float value;
  uint8_t bits;
};

struct Format {
  DType dtype;
  std::vector<Case> cases;
};

float p2(int e) { return std::ldexp(1.0f, e); }

// value -> bits, from the definitions: sign, exponent bits E, mantissa bits
// M, bias; "fn" no inf (NaN S.1111.111, overflow -> NaN); "fnuz" no inf, no
// -0, NaN 0x80; the others IEEE (inf S.1..1.0..0, quiet NaN S.1..1.10..0).
const std::vector<Format> &formats() {
  static const std::vector<Format> kFormats = {
      {DType::F8E4M3FN, // E4 M3 bias 7, max 1.75 * 2^8 = 448
       {{0.0f, 0x00}, {-0.0f, 0x80}, {1.0f, 0x38}, {-2.0f, 0xC0},
        {1.0625f, 0x38},  // 1 + 1/16: tie -> even (1.0)
        {1.1875f, 0x3A},  // 1 + 3/16: tie -> even (1.25)
        {p2(-9), 0x01},   // smallest subnormal
        {p2(-10), 0x00},  // half of it: tie -> even (0)
        {1.5f * p2(-10), 0x01},
        {7 * p2(-9), 0x07}, // largest subnormal
        {p2(-6), 0x08},     // smallest normal
        {448.0f, 0x7E}, {-448.0f, 0xFE},
        {464.0f, 0x7E}, // tie between 448 and 480 -> even (448)
        {465.0f, 0x7F}, // rounds to 480, past the max: NaN
        {1e6f, 0x7F}, {-1e6f, 0xFF}, {kInf, 0x7F}, {-kInf, 0xFF},
        {kNaN, 0x7F}}},
      {DType::F8E5M2, // E5 M2 bias 15, max 1.75 * 2^15 = 57344
       {{0.0f, 0x00}, {-0.0f, 0x80}, {1.0f, 0x3C}, {-1.0f, 0xBC},
        {1.125f, 0x3C}, // tie -> even
        {1.375f, 0x3E}, // tie -> even (1.5)
        {p2(-16), 0x01}, {p2(-17), 0x00}, {3 * p2(-17), 0x02},
        {3 * p2(-16), 0x03}, {p2(-14), 0x04},
        {57344.0f, 0x7B}, {61439.0f, 0x7B},
        {61440.0f, 0x7C}, // tie -> even: 65536, inf
        {kInf, 0x7C}, {-kInf, 0xFC}, {kNaN, 0x7E}}},
      {DType::F8E4M3, // E4 M3 bias 7 IEEE, max 1.875 * 2^7 = 240
       {{0.0f, 0x00}, {-0.0f, 0x80}, {1.0f, 0x38}, {p2(-9), 0x01},
        {p2(-6), 0x08}, {240.0f, 0x77}, {247.0f, 0x77},
        {248.0f, 0x78}, // tie -> even: 256, inf
        {kInf, 0x78}, {-kInf, 0xF8}, {kNaN, 0x7C}}},
      {DType::F8E4M3FNUZ, // E4 M3 bias 8, max 1.875 * 2^7 = 240
       {{0.0f, 0x00}, {-0.0f, 0x00}, {1.0f, 0x40}, {-1.0f, 0xC0},
        {p2(-10), 0x01}, {-p2(-10), 0x81},
        {-p2(-11), 0x00}, // tie -> 0, and no -0
        {p2(-7), 0x08}, {240.0f, 0x7F}, {-240.0f, 0xFF},
        {248.0f, 0x80}, // tie -> 256: NaN
        {kInf, 0x80}, {-kInf, 0x80}, {kNaN, 0x80}}},
      {DType::F8E5M2FNUZ, // E5 M2 bias 16, max 1.75 * 2^15 = 57344
       {{0.0f, 0x00}, {-0.0f, 0x00}, {1.0f, 0x40}, {p2(-17), 0x01},
        {-p2(-18), 0x00}, {p2(-15), 0x04}, {57344.0f, 0x7F},
        {61440.0f, 0x80}, {kInf, 0x80}, {kNaN, 0x80}}},
      {DType::F8E4M3B11FNUZ, // E4 M3 bias 11, max 1.875 * 2^4 = 30
       {{0.0f, 0x00}, {-0.0f, 0x00}, {1.0f, 0x58}, {p2(-13), 0x01},
        {p2(-10), 0x08}, {30.0f, 0x7F}, {-30.0f, 0xFF},
        {31.0f, 0x80}, // tie -> 32: NaN
        {kInf, 0x80}, {kNaN, 0x80}}},
      {DType::F8E3M4, // E3 M4 bias 3 IEEE, max 1.9375 * 2^3 = 15.5
       {{0.0f, 0x00}, {-0.0f, 0x80}, {1.0f, 0x30}, {p2(-6), 0x01},
        {p2(-2), 0x10}, {15.5f, 0x6F},
        {15.75f, 0x70}, // tie -> 16: inf
        {kInf, 0x70}, {-kInf, 0xF0}, {kNaN, 0x78}}},
  };
  return kFormats;
}

TEST(F8, EdgeValuesFromTheFormatDefinitions) {
  for (const Format &f : formats())
    for (const Case &c : f.cases) {
      SCOPED_TRACE(std::string(tpuc::hostio::dtypeName(f.dtype)) + " " +
                   std::to_string(c.value));
      EXPECT_EQ(f32ToF8Bits(c.value, *f8Format(f.dtype)), c.bits);
      EXPECT_EQ(floatToF8(f.dtype, c.value), c.bits);
      // Exactly representable values decode to themselves.
      float back = f8BitsToF32(c.bits, *f8Format(f.dtype));
      if (!std::isnan(back) && !std::isinf(back) && c.value != 0 &&
          f32ToF8Bits(back, *f8Format(f.dtype)) == c.bits &&
          back == c.value)
        EXPECT_EQ(f8ToFloat(f.dtype, c.bits), c.value);
    }
}

TEST(F8, MaxFiniteFromTheFormatDefinitions) {
  EXPECT_EQ(tpuc::hostio::f8MaxFinite(*f8Format(DType::F8E4M3FN)), 448);
  EXPECT_EQ(tpuc::hostio::f8MaxFinite(*f8Format(DType::F8E5M2)), 57344);
  EXPECT_EQ(tpuc::hostio::f8MaxFinite(*f8Format(DType::F8E4M3)), 240);
  EXPECT_EQ(tpuc::hostio::f8MaxFinite(*f8Format(DType::F8E4M3FNUZ)), 240);
  EXPECT_EQ(tpuc::hostio::f8MaxFinite(*f8Format(DType::F8E5M2FNUZ)), 57344);
  EXPECT_EQ(tpuc::hostio::f8MaxFinite(*f8Format(DType::F8E4M3B11FNUZ)), 30);
  EXPECT_EQ(tpuc::hostio::f8MaxFinite(*f8Format(DType::F8E3M4)), 15.5);
}

bool sameBits(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || floatBits(a) == floatBits(b);
}

TEST(F8, RuntimeMatchesAPFloatOnEveryBitPattern) {
  for (const Format &f : formats())
    for (int bits = 0; bits < 256; ++bits) {
      float runtime = f8BitsToF32(static_cast<uint8_t>(bits), *f8Format(f.dtype));
      float apfloat = f8ToFloat(f.dtype, static_cast<uint8_t>(bits));
      ASSERT_TRUE(sameBits(runtime, apfloat))
          << tpuc::hostio::dtypeName(f.dtype) << " " << bits << ": "
          << runtime << " vs " << apfloat;
      // Every value (every NaN too) converts back to its own bits, but a
      // NaN's to the canonical NaN of its sign.
      if (!std::isnan(runtime)) {
        ASSERT_EQ(f32ToF8Bits(runtime, *f8Format(f.dtype)), bits);
      }
    }
}

TEST(F8, RuntimeMatchesAPFloatOnF32Values) {
  std::vector<float> values;
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 65521)
    values.push_back(floatFromBits(static_cast<uint32_t>(bits)));
  for (const Format &f : formats())
    for (int bits = 0; bits < 256; ++bits) {
      // Around every f8 value and every midpoint between neighbours.
      float v = f8ToFloat(f.dtype, static_cast<uint8_t>(bits));
      float next = f8ToFloat(f.dtype, static_cast<uint8_t>(bits + 1));
      for (float x : {v, (v + next) / 2})
        if (std::isfinite(x))
          for (float y : {x, std::nextafter(x, kInf), std::nextafter(x, -kInf)})
            values.push_back(y);
    }
  for (const Format &f : formats())
    for (float v : values)
      ASSERT_EQ(f32ToF8Bits(v, *f8Format(f.dtype)), floatToF8(f.dtype, v))
          << tpuc::hostio::dtypeName(f.dtype) << " " << v << " (0x" << std::hex
          << floatBits(v) << ")";
}

} // namespace
