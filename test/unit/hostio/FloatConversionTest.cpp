//===- FloatConversionTest.cpp - bf16/f16 rounding ------------------------===//

#include "runtime/hostio/FloatConversion.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace tpuc::hostio;

namespace {

TEST(Bf16, RoundsToNearestEven) {
  EXPECT_EQ(f32ToBf16Bits(1.0f), 0x3F80);
  EXPECT_EQ(f32ToBf16Bits(-2.0f), 0xC000);
  EXPECT_EQ(f32ToBf16Bits(floatFromBits(0x3F808000)), 0x3F80); // tie -> even
  EXPECT_EQ(f32ToBf16Bits(floatFromBits(0x3F818000)), 0x3F82); // tie -> even
  EXPECT_EQ(f32ToBf16Bits(floatFromBits(0x3F808001)), 0x3F81); // above tie
  EXPECT_EQ(f32ToBf16Bits(floatFromBits(0x3F807FFF)), 0x3F80); // below tie
  EXPECT_EQ(f32ToBf16Bits(-0.0f), 0x8000);
  // Rounding up out of the largest finite bf16 gives inf.
  EXPECT_EQ(f32ToBf16Bits(std::numeric_limits<float>::max()), 0x7F80);
  EXPECT_EQ(f32ToBf16Bits(-std::numeric_limits<float>::infinity()), 0xFF80);
  // Subnormals round like any other value.
  EXPECT_EQ(f32ToBf16Bits(floatFromBits(0x00008000)), 0x0000);
  EXPECT_EQ(f32ToBf16Bits(floatFromBits(0x00018000)), 0x0002);
}

TEST(Bf16, NanStaysQuietNanWithSign) {
  // A signalling NaN whose payload lives only in the dropped bits must not
  // turn into inf.
  EXPECT_EQ(f32ToBf16Bits(floatFromBits(0x7F800001)), 0x7FC0);
  EXPECT_EQ(f32ToBf16Bits(floatFromBits(0xFF800001)), 0xFFC0);
  EXPECT_EQ(f32ToBf16Bits(floatFromBits(0x7FC00000)), 0x7FC0);
  EXPECT_TRUE(std::isnan(bf16BitsToF32(0x7FC1)));
}

TEST(Bf16, EveryValueRoundTrips) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    float wide = bf16BitsToF32(static_cast<uint16_t>(bits));
    if (std::isnan(wide))
      continue;
    ASSERT_EQ(f32ToBf16Bits(wide), bits) << std::hex << bits;
  }
}

TEST(F16, RoundsToNearestEven) {
  EXPECT_EQ(f32ToF16Bits(1.0f), 0x3C00);
  EXPECT_EQ(f32ToF16Bits(-2.0f), 0xC000);
  EXPECT_EQ(f32ToF16Bits(65504.0f), 0x7BFF);
  EXPECT_EQ(f32ToF16Bits(65519.0f), 0x7BFF); // just below the midpoint
  EXPECT_EQ(f32ToF16Bits(65520.0f), 0x7C00); // midpoint ties away to inf
  EXPECT_EQ(f32ToF16Bits(1e10f), 0x7C00);
  EXPECT_EQ(f32ToF16Bits(std::ldexp(1.0f, -14)), 0x0400); // smallest normal
  EXPECT_EQ(f32ToF16Bits(std::ldexp(1.0f, -24)), 0x0001); // smallest subnormal
  EXPECT_EQ(f32ToF16Bits(std::ldexp(1.0f, -25)), 0x0000); // tie -> even (0)
  EXPECT_EQ(f32ToF16Bits(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(f32ToF16Bits(std::ldexp(3.0f, -25)), 0x0002); // 1.5 units -> 2
  EXPECT_EQ(f32ToF16Bits(std::ldexp(5.0f, -25)), 0x0002); // 2.5 units -> 2
  EXPECT_EQ(f32ToF16Bits(-std::ldexp(1.0f, -30)), 0x8000);
  EXPECT_EQ(f32ToF16Bits(std::numeric_limits<float>::infinity()), 0x7C00);
  EXPECT_EQ(f32ToF16Bits(floatFromBits(0x7F800001)), 0x7E00);
  EXPECT_EQ(f32ToF16Bits(floatFromBits(0xFFC00000)), 0xFE00);
  EXPECT_FLOAT_EQ(f16BitsToF32(0x0001), std::ldexp(1.0f, -24));
  EXPECT_FLOAT_EQ(f16BitsToF32(0x8400), -std::ldexp(1.0f, -14));
  EXPECT_FLOAT_EQ(f16BitsToF32(0x3555), 0.333251953125f);
}

TEST(F16, EveryValueRoundTrips) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    float wide = f16BitsToF32(static_cast<uint16_t>(bits));
    if (std::isnan(wide))
      continue;
    ASSERT_EQ(f32ToF16Bits(wide), bits) << std::hex << bits;
  }
}

#ifdef __FLT16_MAX__
// The compiler's own _Float16 conversion is IEEE RNE: compare on a spread of
// f32 bit patterns covering every exponent.
TEST(F16, MatchesCompilerConversion) {
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 4093) {
    float value = floatFromBits(static_cast<uint32_t>(bits));
    if (std::isnan(value))
      continue;
    _Float16 reference = static_cast<_Float16>(value);
    uint16_t expected;
    std::memcpy(&expected, &reference, sizeof(expected));
    ASSERT_EQ(f32ToF16Bits(value), expected) << std::hex << bits;
  }
}
#endif

} // namespace
