// paddedByteSize worked examples (XLA's tiling rules) and the host <->
// device conversions.
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "runtime/hostio/FloatConversion.h"
#include "runtime/loader/Layout.h"
#include "runtime/loader/ProgramBuilder.h"

namespace tpuc::runtime {
namespace {

int64_t padded(exe::DType dtype, std::vector<int64_t> dims,
               std::vector<std::vector<int64_t>> tiles) {
  return paddedByteSize(makeShape(dtype, dims, tiles)).value();
}

TEST(PaddedByteSize, WorkedExamples) {
  // f32[3,5]{1,0:T(8,128)}: one 8x128 tile of 4 bytes.
  EXPECT_EQ(padded(exe::F32, {3, 5}, {{8, 128}}), 8 * 128 * 4);
  // s32[29360128,10]{1,0:T(8,128)}: 29360128/8 row tiles of 4 KiB = 14 GiB,
  // against 1.09 GiB unpadded.
  EXPECT_EQ(padded(exe::S32, {29360128, 10}, {{8, 128}}), 14ll << 30);
  EXPECT_EQ(29360128ll * 10 * 4, 1174405120ll);
  // bf16 T(8,128)(2,1): the (2,1) sub-tiling pads nothing more.
  EXPECT_EQ(padded(exe::BF16, {3, 5}, {{8, 128}, {2, 1}}), 8 * 128 * 2);
  EXPECT_EQ(padded(exe::BF16, {9, 129}, {{8, 128}, {2, 1}}), 4 * 8 * 128 * 2);
  // Rank 1 T(256) and T(1024); a scalar is a [1] under T(256).
  EXPECT_EQ(padded(exe::F32, {1000}, {{256}}), 1024 * 4);
  EXPECT_EQ(padded(exe::F32, {1025}, {{1024}}), 2048 * 4);
  EXPECT_EQ(padded(exe::F32, {}, {{256}}), 256 * 4);
  // Leading dims are not padded.
  EXPECT_EQ(padded(exe::F32, {3, 16, 128}, {{8, 128}}), 3 * 16 * 128 * 4);
  // No tiles: dense.
  EXPECT_EQ(padded(exe::PRED, {3, 5}, {}), 15);
  // Zero-sized arrays take no space.
  EXPECT_EQ(padded(exe::F32, {0, 5}, {{8, 128}}), 0);
}

TEST(PaddedByteSize, EveryElementType) {
  struct Case {
    exe::DType dtype;
    int64_t bytes;
    const char *name;
  } cases[] = {{exe::F32, 4, "f32"},  {exe::BF16, 2, "bf16"},
               {exe::S32, 4, "s32"},  {exe::PRED, 1, "pred"},
               {exe::F16, 2, "f16"},  {exe::F64, 8, "f64"},
               {exe::S8, 1, "s8"},    {exe::S16, 2, "s16"},
               {exe::S64, 8, "s64"},  {exe::U8, 1, "u8"},
               {exe::U16, 2, "u16"},  {exe::U32, 4, "u32"},
               {exe::U64, 8, "u64"},  {exe::S4, 1, "s4"},
               {exe::U4, 1, "u4"}};
  for (const Case &c : cases) {
    EXPECT_EQ(elementBytes(c.dtype), c.bytes) << c.name;
    EXPECT_STREQ(dtypeName(c.dtype), c.name);
    EXPECT_EQ(toDeviceDType(toHostDType(c.dtype)).value(), c.dtype) << c.name;
    // A [3,5] array in one 8x128 tile.
    EXPECT_EQ(padded(c.dtype, {3, 5}, {{8, 128}}), 8 * 128 * c.bytes)
        << c.name;
  }
  EXPECT_EQ(elementBytes(exe::DTYPE_INVALID), 0);
  // 8-bit T(8,128)(4,1): 32 rows per tile after sub-tiling pad nothing
  // more for a multiple-of-32 row count.
  EXPECT_EQ(padded(exe::S8, {32, 256}, {{8, 128}, {4, 1}}), 32 * 256);
  // f64 rank 1 under T(256).
  EXPECT_EQ(padded(exe::F64, {3}, {{256}}), 256 * 8);
}

TEST(PaddedByteSize, MinorToMajorPicksTheTiledDims) {
  // f32[200,3]{0,1}: dim 0 (200) is minor, so 3 -> 8 and 200 -> 256.
  exe::Shape s = makeShape(exe::F32, {200, 3}, {{8, 128}});
  s.mutable_layout()->clear_minor_to_major();
  s.mutable_layout()->add_minor_to_major(0);
  s.mutable_layout()->add_minor_to_major(1);
  EXPECT_EQ(paddedByteSize(s).value(), 8 * 256 * 4);
  EXPECT_EQ(tiledDims(s).value(), (std::vector<int64_t>{1, 2, 8, 128}));
}

TEST(PaddedByteSize, TiledDims) {
  EXPECT_EQ(tiledDims(makeShape(exe::F32, {3, 5}, {{8, 128}})).value(),
            (std::vector<int64_t>{1, 1, 8, 128}));
  EXPECT_EQ(
      tiledDims(makeShape(exe::BF16, {16, 256}, {{8, 128}, {2, 1}})).value(),
      (std::vector<int64_t>{2, 2, 4, 128, 2, 1}));
}

TEST(PaddedByteSize, RejectsBadShapes) {
  exe::Shape s = makeShape(exe::F32, {3, -1}, {{8, 128}});
  EXPECT_EQ(paddedByteSize(s).status().message(), "dim -1 not in [0, 2^48]");
  s = makeShape(exe::F32, {3, 5}, {{8, 0}});
  EXPECT_EQ(paddedByteSize(s).status().message(),
            "tile dim 0 not in [1, 2^20]");
  s = makeShape(exe::F32, {3, 5}, {});
  s.mutable_layout()->set_minor_to_major(0, 0);
  EXPECT_EQ(paddedByteSize(s).status().message(),
            "minor_to_major is not a permutation of the dims");
  s = makeShape(exe::DTYPE_INVALID, {3}, {});
  EXPECT_EQ(paddedByteSize(s).status().message(), "invalid dtype 0");
  s = makeShape(exe::F32, {1ll << 40, 1ll << 40}, {});
  EXPECT_EQ(paddedByteSize(s).status().message(),
            "padded size overflows 64 bits");
}

TEST(HostToDevice, F32TiledOffsetsAndPadding) {
  exe::Shape s = makeShape(exe::F32, {2, 3}, {{8, 128}});
  std::vector<float> host = {1, 2, 3, 4, 5, 6};
  std::vector<uint8_t> device(4096, 0xff);
  ASSERT_TRUE(hostToDevice(s, exe::F32,
                           {reinterpret_cast<uint8_t *>(host.data()), 24},
                           absl::MakeSpan(device))
                  .ok());
  auto at = [&](int64_t element) {
    float f;
    std::memcpy(&f, device.data() + 4 * element, 4);
    return f;
  };
  EXPECT_EQ(at(0), 1);
  EXPECT_EQ(at(2), 3);
  EXPECT_EQ(at(128 + 2), 6); // (1,2): row 1 of the tile
  EXPECT_EQ(at(3), 0);       // padding is zeroed
  EXPECT_EQ(at(1023), 0);
  std::vector<float> back(6);
  ASSERT_TRUE(deviceToHost(s, exe::F32, device,
                           {reinterpret_cast<uint8_t *>(back.data()), 24})
                  .ok());
  EXPECT_EQ(back, host);
}

TEST(HostToDevice, WholeTilesWriteEveryDeviceByte) {
  // Without padding the device bytes are not zeroed first: each must be
  // written by its element, also where a narrow host type fills s32 words.
  exe::Shape f = makeShape(exe::F32, {8, 128}, {{8, 128}});
  std::vector<float> host(8 * 128);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = static_cast<float>(i) - 512.0f;
  std::vector<uint8_t> device(4096, 0xab);
  ASSERT_TRUE(hostToDevice(f, exe::F32,
                           {reinterpret_cast<uint8_t *>(host.data()), 4096},
                           absl::MakeSpan(device))
                  .ok());
  EXPECT_EQ(std::memcmp(device.data(), host.data(), 4096), 0);
  exe::Shape w = makeShape(exe::S32, {8, 128}, {{8, 128}});
  std::vector<int8_t> narrow(8 * 128);
  for (size_t i = 0; i < narrow.size(); ++i)
    narrow[i] = static_cast<int8_t>(i % 7 - 3);
  std::fill(device.begin(), device.end(), 0xab);
  ASSERT_TRUE(hostToDevice(w, exe::S8,
                           {reinterpret_cast<uint8_t *>(narrow.data()), 1024},
                           absl::MakeSpan(device))
                  .ok());
  for (size_t i = 0; i < narrow.size(); ++i) {
    int32_t word;
    std::memcpy(&word, device.data() + 4 * i, 4);
    ASSERT_EQ(word, narrow[i]) << "element " << i;
  }
}

TEST(HostToDevice, Bf16SubTilesInterleaveRowPairs) {
  // T(8,128)(2,1): (r, c) of a tile lands at ((r/2)*128 + c)*2 + r%2.
  exe::Shape s = makeShape(exe::BF16, {3, 2}, {{8, 128}, {2, 1}});
  std::vector<uint16_t> host = {10, 11, 20, 21, 30, 31};
  std::vector<uint8_t> device(2048);
  ASSERT_TRUE(hostToDevice(s, exe::BF16,
                           {reinterpret_cast<uint8_t *>(host.data()), 12},
                           absl::MakeSpan(device))
                  .ok());
  auto at = [&](int64_t element) {
    uint16_t v;
    std::memcpy(&v, device.data() + 2 * element, 2);
    return v;
  };
  EXPECT_EQ(at(0), 10);  // (0,0)
  EXPECT_EQ(at(1), 20);  // (1,0)
  EXPECT_EQ(at(2), 11);  // (0,1)
  EXPECT_EQ(at(3), 21);  // (1,1)
  EXPECT_EQ(at(256), 30); // (2,0)
  EXPECT_EQ(at(258), 31); // (2,1)
}

TEST(HostToDevice, F32ToBf16RoundsToNearestEven) {
  exe::Shape s = makeShape(exe::BF16, {3}, {});
  // 1 + 2^-8 is a tie: to even (1.0); 1 + 3*2^-8 rounds up to 1 + 2^-6.
  std::vector<float> host = {1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, -2.5f};
  std::vector<uint8_t> device(6);
  ASSERT_TRUE(hostToDevice(s, exe::F32,
                           {reinterpret_cast<uint8_t *>(host.data()), 12},
                           absl::MakeSpan(device))
                  .ok());
  std::vector<float> back(3);
  ASSERT_TRUE(deviceToHost(s, exe::F32, device,
                           {reinterpret_cast<uint8_t *>(back.data()), 12})
                  .ok());
  EXPECT_EQ(back, (std::vector<float>{1.0f, 1.0f + 0x1p-6f, -2.5f}));
}

// Distinct values survive host -> device -> host for assorted layouts, and
// land in distinct device slots (the rest is zero padding).
TEST(HostToDevice, RoundTripsAssortedLayouts) {
  std::vector<exe::Shape> shapes = {
      makeShape(exe::S32, {3, 17, 130}, {{8, 128}}),
      makeShape(exe::S32, {300}, {{256}}),
      makeShape(exe::S32, {}, {{256}}),
      makeShape(exe::S32, {5, 9, 3}, {{2, 4}, {2, 1}}),
      makeShape(exe::S32, {2, 3, 4}, {}),
  };
  exe::Shape perm = makeShape(exe::S32, {6, 10, 20}, {{8, 128}});
  perm.mutable_layout()->clear_minor_to_major();
  for (int64_t d : {1, 2, 0})
    perm.mutable_layout()->add_minor_to_major(d);
  shapes.push_back(perm);
  for (const exe::Shape &s : shapes) {
    int64_t n = elementCount(s);
    std::vector<int32_t> host(n), back(n);
    for (int64_t i = 0; i < n; ++i)
      host[i] = static_cast<int32_t>(i + 1);
    std::vector<uint8_t> device(paddedByteSize(s).value());
    auto bytes = [](std::vector<int32_t> &v) {
      return absl::MakeSpan(reinterpret_cast<uint8_t *>(v.data()), v.size() * 4);
    };
    ASSERT_TRUE(hostToDevice(s, exe::S32, bytes(host), absl::MakeSpan(device)).ok());
    ASSERT_TRUE(deviceToHost(s, exe::S32, device, bytes(back)).ok());
    EXPECT_EQ(back, host) << s.DebugString();
    int64_t nonZero = 0;
    for (size_t i = 0; i < device.size(); i += 4)
      nonZero += device[i] || device[i + 1];
    EXPECT_EQ(nonZero, n) << s.DebugString();
  }
}

/// Converts `values` (host type `host`, C++ type T) into a [1,4] s32 device
/// array and back: every word holds the value extended, the padding 0, and
/// the host array comes back unchanged.
template <typename T>
void expectWordRoundTrip(exe::DType host, std::vector<T> values) {
  exe::Shape s = makeShape(exe::S32, {1, 4}, {{8, 128}});
  std::vector<uint8_t> device(4096, 0xff);
  auto bytes = [](std::vector<T> &v) {
    return absl::MakeSpan(reinterpret_cast<uint8_t *>(v.data()),
                          v.size() * sizeof(T));
  };
  ASSERT_TRUE(hostToDevice(s, host, bytes(values), absl::MakeSpan(device)).ok())
      << dtypeName(host);
  for (int64_t e = 0; e < 5; ++e) {
    int32_t w;
    std::memcpy(&w, device.data() + 4 * e, 4);
    EXPECT_EQ(w, e < 4 ? int32_t(values[e]) : 0) << dtypeName(host) << " " << e;
  }
  std::vector<T> back(values.size());
  ASSERT_TRUE(deviceToHost(s, host, device, bytes(back)).ok());
  EXPECT_EQ(back, values) << dtypeName(host);
}

TEST(HostToDevice, NarrowIntegersInS32Words) {
  // s4/u4 (a byte per element on the host), s8/u8/s16/u16 host arrays over
  // s32 words: extended in, low bits out.
  expectWordRoundTrip<int8_t>(exe::S8, {-128, -1, 0, 127});
  expectWordRoundTrip<uint8_t>(exe::U8, {0, 1, 128, 255});
  expectWordRoundTrip<int16_t>(exe::S16, {-32768, -2, 300, 32767});
  expectWordRoundTrip<uint16_t>(exe::U16, {0, 40000, 65535, 7});
  expectWordRoundTrip<int8_t>(exe::S4, {-8, -1, 0, 7});
  expectWordRoundTrip<uint8_t>(exe::U4, {0, 8, 9, 15});
  // Only over s32 words.
  std::vector<uint8_t> device(4096), u8 = {0, 1, 128, 255};
  exe::Shape f = makeShape(exe::F32, {1, 4}, {{8, 128}});
  EXPECT_EQ(hostToDevice(f, exe::S8, u8, absl::MakeSpan(device)).message(),
            "cannot convert host s8 to device f32");
}

TEST(HostToDevice, F16InF32Words) {
  // f16 host arrays over f32 words: widened exactly in, narrowed out (exact
  // for the f16 values the kernels hold). 0x0001 is 2^-24 (the smallest
  // subnormal), 0x7bff 65504, 0x8000 -0, 0x7c00 inf, 0x7e00 NaN.
  exe::Shape s = makeShape(exe::F32, {1, 8}, {{8, 128}});
  std::vector<uint16_t> f16 = {0x0001, 0x03ff, 0x0400, 0x3c00,
                               0x7bff, 0x8000, 0x7c00, 0x7e00};
  std::vector<uint8_t> device(4096, 0xff);
  ASSERT_TRUE(hostToDevice(s, exe::F16,
                           {reinterpret_cast<uint8_t *>(f16.data()), 16},
                           absl::MakeSpan(device))
                  .ok());
  auto word = [&](int64_t element) {
    uint32_t w;
    std::memcpy(&w, device.data() + 4 * element, 4);
    return w;
  };
  EXPECT_EQ(word(0), 0x33800000u); // 2^-24
  EXPECT_EQ(word(1), hostio::floatBits(1023 * 0x1p-24f));
  EXPECT_EQ(word(2), 0x38800000u); // 2^-14
  EXPECT_EQ(word(3), 0x3f800000u); // 1
  EXPECT_EQ(word(4), hostio::floatBits(65504.0f));
  EXPECT_EQ(word(5), 0x80000000u); // -0
  EXPECT_EQ(word(6), 0x7f800000u); // inf
  EXPECT_EQ(word(7), 0x7fc00000u); // NaN
  EXPECT_EQ(word(8), 0u);          // padding
  std::vector<uint16_t> back(8);
  ASSERT_TRUE(deviceToHost(s, exe::F16, device,
                           {reinterpret_cast<uint8_t *>(back.data()), 16})
                  .ok());
  EXPECT_EQ(back, f16);
  // Only over f32 words.
  exe::Shape i = makeShape(exe::S32, {1, 8}, {{8, 128}});
  EXPECT_EQ(hostToDevice(i, exe::F16,
                         {reinterpret_cast<uint8_t *>(f16.data()), 16},
                         absl::MakeSpan(device))
                .message(),
            "cannot convert host f16 to device s32");
}

TEST(HostToDevice, X64InPlanarWords) {
  // An s64[3, 2] host array over its s32 words [2, 3, 2] in (8,128) tiles:
  // the low words of the 6 elements in the first word array's tile rows,
  // the high words in the second's; u64 over u32 likewise; back unchanged.
  std::vector<int64_t> values = {0, -1, INT64_MIN, INT64_MAX,
                                 0x123456789abcdef0, -4294967296};
  exe::Shape s = makeShape(exe::S32, {2, 3, 2}, {{8, 128}});
  ASSERT_EQ(paddedByteSize(s).value(), 8192);
  std::vector<uint8_t> device(8192, 0xff);
  auto bytes = [](auto &v) {
    return absl::MakeSpan(reinterpret_cast<uint8_t *>(v.data()),
                          v.size() * sizeof(v[0]));
  };
  ASSERT_TRUE(hostToDevice(s, exe::S64, bytes(values), absl::MakeSpan(device))
                  .ok());
  auto word = [&](int64_t w, int64_t row, int64_t col) {
    uint32_t x;
    std::memcpy(&x, device.data() + w * 4096 + (row * 128 + col) * 4, 4);
    return x;
  };
  for (int64_t i = 0; i < 6; ++i) {
    uint64_t v = static_cast<uint64_t>(values[i]);
    EXPECT_EQ(word(0, i / 2, i % 2), static_cast<uint32_t>(v)) << i;
    EXPECT_EQ(word(1, i / 2, i % 2), static_cast<uint32_t>(v >> 32)) << i;
  }
  EXPECT_EQ(word(0, 0, 2), 0u); // padding
  EXPECT_EQ(word(1, 3, 0), 0u);
  std::vector<int64_t> back(6);
  ASSERT_TRUE(deviceToHost(s, exe::S64, device, bytes(back)).ok());
  EXPECT_EQ(back, values);
  std::vector<uint64_t> u = {0, 1, ~0ull, 0xffffffff00000001ull, 7, 1ull << 63};
  exe::Shape su = makeShape(exe::U32, {2, 3, 2}, {{8, 128}});
  ASSERT_TRUE(hostToDevice(su, exe::U64, bytes(u), absl::MakeSpan(device)).ok());
  EXPECT_EQ(word(1, 1, 1), 0xffffffffu);
  EXPECT_EQ(word(0, 1, 1), 1u);
  std::vector<uint64_t> uback(6);
  ASSERT_TRUE(deviceToHost(su, exe::U64, device, bytes(uback)).ok());
  EXPECT_EQ(uback, u);
  // Only over the words [2, ...] of the same signedness.
  EXPECT_EQ(hostToDevice(su, exe::S64, bytes(values), absl::MakeSpan(device))
                .message(),
            "cannot convert host s64 to device u32");
  // An S64 device array (not tpuc's; another producer's) is copied as is.
  exe::Shape wide = makeShape(exe::S64, {6}, {{1024}});
  std::vector<uint8_t> wideDevice(8192, 0xff);
  ASSERT_TRUE(
      hostToDevice(wide, exe::S64, bytes(values), absl::MakeSpan(wideDevice))
          .ok());
  EXPECT_EQ(std::memcmp(wideDevice.data(), values.data(), 48), 0);
  exe::Shape notWords = makeShape(exe::S32, {3, 4}, {{8, 128}});
  EXPECT_EQ(hostToDevice(notWords, exe::S64, bytes(values),
                         absl::MakeSpan(device).subspan(0, 4096))
                .message(),
            "host s64 needs a device array of its 32-bit words [2, ...]");
}

TEST(HostToDevice, RejectsWrongSizesAndTypes) {
  exe::Shape s = makeShape(exe::F32, {2, 3}, {{8, 128}});
  std::vector<uint8_t> host(24), device(4096);
  EXPECT_EQ(hostToDevice(s, exe::F32, absl::MakeSpan(host).subspan(1),
                         absl::MakeSpan(device))
                .message(),
            "host array has 23 bytes, expected 24");
  EXPECT_EQ(hostToDevice(s, exe::F32, host,
                         absl::MakeSpan(device).subspan(8))
                .message(),
            "device array has 4088 bytes, expected 4096");
  EXPECT_EQ(hostToDevice(s, exe::S32, host, absl::MakeSpan(device)).message(),
            "cannot convert host s32 to device f32");
}

} // namespace
} // namespace tpuc::runtime
