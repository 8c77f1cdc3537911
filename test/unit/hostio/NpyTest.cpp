//===- NpyTest.cpp - HostArray, .npy I/O and random inputs ----------------===//

#include "runtime/hostio/FloatConversion.h"
#include "runtime/hostio/HostArray.h"
#include "runtime/hostio/Npy.h"
#include "runtime/hostio/RandomInputs.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace tpuc::hostio;

namespace {

std::string tempPath(const std::string &name) {
  return testing::TempDir() + "/tpuc_hostio_" + std::to_string(getpid()) +
         "_" + name;
}

/// Runs `script` with Debian's python3 + numpy; nullopt when unavailable.
std::optional<std::string> runNumpy(const std::string &script) {
  if (access("/usr/bin/python3", X_OK) != 0 ||
      std::system("/usr/bin/python3 -c 'import numpy' 2>/dev/null") != 0)
    return std::nullopt;
  std::string scriptPath = tempPath("script.py");
  std::ofstream(scriptPath) << "import numpy as np\n" << script;
  FILE *pipe = popen(("/usr/bin/python3 " + scriptPath).c_str(), "r");
  if (!pipe)
    return std::nullopt;
  std::string output;
  char buffer[256];
  while (size_t n = fread(buffer, 1, sizeof(buffer), pipe))
    output.append(buffer, n);
  int status = pclose(pipe);
  std::remove(scriptPath.c_str());
  EXPECT_EQ(status, 0) << output;
  return output;
}

template <typename T>
HostArray makeArray(DType dtype, std::vector<int64_t> shape,
                    std::vector<T> values) {
  Bytes bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return *HostArray::fromBytes(dtype, std::move(shape), std::move(bytes));
}

/// A .npy file with the given header dict text and data bytes (format 1.0).
std::string npyBytes(const std::string &dict, const std::string &data,
                     int major = 1) {
  std::string out("\x93NUMPY", 6);
  out.push_back(static_cast<char>(major));
  out.push_back(0);
  uint32_t length = static_cast<uint32_t>(dict.size());
  for (int i = 0; i < (major == 1 ? 2 : 4); ++i)
    out.push_back(static_cast<char>((length >> (8 * i)) & 0xFF));
  return out + dict + data;
}

std::string errorOf(const std::string &bytes) {
  absl::StatusOr<HostArray> array = parseNpy(bytes, "in.npy");
  EXPECT_FALSE(array.ok());
  return array.ok() ? "" : std::string(array.status().message());
}

TEST(HostArray, DTypeNamesFollowXla) {
  EXPECT_EQ(dtypeName(DType::BF16), "bf16");
  EXPECT_EQ(dtypeName(DType::Pred), "pred");
  EXPECT_EQ(dtypeByteSize(DType::S64), 8);
  for (absl::string_view name : {"f32", "bf16", "f16", "f64", "s8", "s16",
                                "s32", "s64", "u8", "u16", "u32", "u64",
                                "pred", "f8e4m3fn", "f8e5m2", "f8e4m3",
                                "f8e4m3fnuz", "f8e5m2fnuz", "f8e4m3b11fnuz",
                                "f8e3m4"}) {
    absl::StatusOr<DType> dtype = parseDType(name);
    ASSERT_TRUE(dtype.ok()) << name;
    EXPECT_EQ(dtypeName(*dtype), name);
  }
  EXPECT_EQ(parseDType("c64").status().message(),
            "unsupported element type 'c64' (expected one of f32 bf16 f16 f64 "
            "s8 s16 s32 s64 u8 u16 u32 u64 pred f8e4m3fn f8e5m2 f8e4m3 "
            "f8e4m3fnuz f8e5m2fnuz f8e4m3b11fnuz f8e3m4 s4 u4)");
  EXPECT_EQ(dtypeByteSize(DType::F8E4M3FN), 1);
  EXPECT_EQ(*parseDType("s4"), DType::S4);
  EXPECT_EQ(dtypeName(DType::U4), "u4");
  EXPECT_EQ(dtypeByteSize(DType::S4), 1); // a byte per element on the host
  EXPECT_FALSE(parseDType("f8e8m0fnu").ok()); // MX scales: not supported
}

TEST(HostArray, SizesAndErrors) {
  absl::StatusOr<HostArray> array = HostArray::zeros(DType::BF16, {2, 3});
  ASSERT_TRUE(array.ok());
  EXPECT_EQ(array->elementCount(), 6);
  EXPECT_EQ(array->byteSize(), 12);
  EXPECT_EQ(array->typeString(), "bf16[2,3]");
  absl::StatusOr<HostArray> scalar = HostArray::zeros(DType::F32, {});
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ(scalar->elementCount(), 1);
  EXPECT_EQ(array->bytes(), Bytes(12, 0)); // zeros() writes its zeros
  absl::StatusOr<HostArray> blank = HostArray::forOverwrite(DType::S16, {5, 3});
  ASSERT_TRUE(blank.ok());
  EXPECT_EQ(blank->byteSize(), 30);
  EXPECT_EQ(blank->typeString(), "s16[5,3]");
  EXPECT_EQ(HostArray::forOverwrite(DType::F32, {-1}).status().message(),
            "negative dimension -1 in shape [-1]");
  EXPECT_EQ(HostArray::fromBytes(DType::F32, {2}, {1, 2, 3}).status().message(),
            "f32[2] needs 8 bytes but 3 were given");
  EXPECT_EQ(shapeElementCount({-1, 2}).status().message(),
            "negative dimension -1 in shape [-1,2]");
  EXPECT_EQ(shapeElementCount({1ll << 40, 1ll << 30}).status().message(),
            "shape [1099511627776,1073741824] has too many elements");
}

TEST(Npy, SerializesExactlyLikeNumpy) {
  HostArray array = makeArray<float>(DType::F32, {2}, {1.0f, -2.0f});
  std::string bytes = serializeNpy(array);
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': "
                     "(2,), }";
  dict.append((64 - (10 + dict.size() + 1) % 64) % 64, ' ');
  dict.push_back('\n');
  std::string data("\x00\x00\x80\x3f\x00\x00\x00\xc0", 8);
  EXPECT_EQ(bytes, npyBytes(dict, data));
  EXPECT_EQ(bytes.size() % 64, 8u); // data starts 64-byte aligned
}

TEST(Npy, RoundTripsEveryDType) {
  for (DType dtype :
       {DType::F32, DType::BF16, DType::F16, DType::F64, DType::S8, DType::S16,
        DType::S32, DType::S64, DType::U8, DType::U16, DType::U32, DType::U64,
        DType::Pred}) {
    absl::StatusOr<HostArray> array = randomInput(1, 0, dtype, {3, 1, 4});
    ASSERT_TRUE(array.ok());
    absl::StatusOr<HostArray> back = parseNpy(serializeNpy(*array), "x.npy");
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, *array) << dtypeName(dtype);
  }
  absl::StatusOr<HostArray> scalar = randomInput(1, 0, DType::S32, {});
  absl::StatusOr<HostArray> back = parseNpy(serializeNpy(*scalar), "x.npy");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, *scalar);
  EXPECT_NE(serializeNpy(*scalar).find("'shape': ()"), std::string::npos);
}

// f8 arrays are written as 1-byte voids ('|V1', what ml_dtypes' float8
// arrays save as) and read back as their bytes (u8), which readNpyFileAs
// takes as the bits of the f8 type a parameter expects.
TEST(Npy, F8ArraysRoundTripAsOneByteVoids) {
  for (DType dtype : {DType::F8E4M3FN, DType::F8E5M2, DType::F8E4M3,
                      DType::F8E4M3FNUZ, DType::F8E5M2FNUZ,
                      DType::F8E4M3B11FNUZ, DType::F8E3M4}) {
    absl::StatusOr<HostArray> array = randomInput(3, 1, dtype, {2, 5});
    ASSERT_TRUE(array.ok());
    std::string bytes = serializeNpy(*array);
    EXPECT_NE(bytes.find("'descr': '|V1'"), std::string::npos);
    absl::StatusOr<HostArray> raw = parseNpy(bytes, "x.npy");
    ASSERT_TRUE(raw.ok()) << raw.status();
    EXPECT_EQ(raw->dtype(), DType::U8);
    std::string path = tempPath("f8.npy");
    ASSERT_TRUE(writeNpyFile(path, *array).ok());
    absl::StatusOr<HostArray> back = readNpyFileAs(path, dtype);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, *array) << dtypeName(dtype);
    // A parameter of another type gets the bytes as they are (u8), which
    // its caller then reports as a type mismatch.
    absl::StatusOr<HostArray> other = readNpyFileAs(path, DType::F32);
    ASSERT_TRUE(other.ok());
    EXPECT_EQ(other->dtype(), DType::U8);
    std::remove(path.c_str());
  }
  // Random f8 inputs are values in [-1, 1) rounded to the type.
  absl::StatusOr<HostArray> r = randomInput(3, 1, DType::F8E4M3FN, {64});
  ASSERT_TRUE(r.ok());
  for (int64_t i = 0; i < 64; ++i) {
    float v = f8BitsToF32(r->data()[i], *f8Format(DType::F8E4M3FN));
    EXPECT_TRUE(v >= -1 && v <= 1) << v;
  }
}

// numpy has no 4-bit integers: s4/u4 arrays are written as int8/uint8 and
// read back for an s4/u4 parameter with a range check naming the file and
// the first row-major index outside [-8, 7] / [0, 15].
TEST(Npy, Int4ArraysAreRangeCheckedBytes) {
  for (DType dtype : {DType::S4, DType::U4}) {
    absl::StatusOr<HostArray> array = randomInput(5, 2, dtype, {3, 7});
    ASSERT_TRUE(array.ok());
    for (uint8_t byte : array->bytes())
      if (dtype == DType::S4)
        EXPECT_TRUE(static_cast<int8_t>(byte) >= -8 &&
                    static_cast<int8_t>(byte) <= 7);
      else
        EXPECT_LE(byte, 15);
    std::string bytes = serializeNpy(*array);
    EXPECT_NE(bytes.find(dtype == DType::S4 ? "'descr': '|i1'"
                                            : "'descr': '|u1'"),
              std::string::npos);
    std::string path = tempPath("int4.npy");
    ASSERT_TRUE(writeNpyFile(path, *array).ok());
    absl::StatusOr<HostArray> back = readNpyFileAs(path, dtype);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, *array) << dtypeName(dtype);
    std::remove(path.c_str());
  }
  std::string path = tempPath("bad.npy");
  ASSERT_TRUE(writeNpyFile(path, makeArray<int8_t>(DType::S8, {2, 2},
                                                   {-8, 7, 0, -9}))
                  .ok());
  absl::StatusOr<HostArray> bad = readNpyFileAs(path, DType::S4);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            path + ": element 3 is -9, outside s4's [-8, 7]");
  ASSERT_TRUE(
      writeNpyFile(path, makeArray<uint8_t>(DType::U8, {3}, {15, 16, 0})).ok());
  bad = readNpyFileAs(path, DType::U4);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            path + ": element 1 is 16, outside u4's [0, 15]");
  bad = readNpyFileAs(path, DType::S4);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            path + ": s4 parameters are read from int8 (|i1) arrays; this "
                   "one is u8[3]");
  std::remove(path.c_str());
}

TEST(Npy, Bf16AsFloat32IsExact) {
  HostArray array = makeArray<uint16_t>(
      DType::BF16, {3}, {f32ToBf16Bits(1.5f), f32ToBf16Bits(-0.25f), 0x7F80});
  NpyWriteOptions options;
  options.bf16 = Bf16Encoding::Float32;
  absl::StatusOr<HostArray> back =
      parseNpy(serializeNpy(array, options), "x.npy");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->dtype(), DType::F32);
  EXPECT_EQ(*back, makeArray<float>(DType::F32, {3},
                                    {1.5f, -0.25f, floatFromBits(0x7F800000)}));
}

TEST(Npy, ReadsVersion2And3AndLegacyHeaders) {
  std::string data("\x01\x00\x02\x00", 4);
  for (int major : {2, 3}) {
    absl::StatusOr<HostArray> array = parseNpy(
        npyBytes("{\"descr\": \"<i2\", \"shape\": (2L,), "
                 "\"fortran_order\": False}\n",
                 data, major),
        "v.npy");
    ASSERT_TRUE(array.ok()) << array.status();
    EXPECT_EQ(*array, makeArray<int16_t>(DType::S16, {2}, {1, 2}));
  }
  absl::StatusOr<HostArray> bf16 = parseNpy(
      npyBytes("{'descr': '|V2', 'fortran_order': False, 'shape': (2,)}",
               data),
      "b.npy");
  ASSERT_TRUE(bf16.ok());
  EXPECT_EQ(bf16->dtype(), DType::BF16);
  absl::StatusOr<HostArray> pred = parseNpy(
      npyBytes("{'descr': '|b1', 'fortran_order': False, 'shape': (2,)}",
               std::string("\x00\x07", 2)),
      "p.npy");
  ASSERT_TRUE(pred.ok());
  EXPECT_EQ(pred->bytes(), (Bytes{0, 1}));
}

TEST(Npy, MalformedFilesGiveClearErrors) {
  const std::string ok4 = "{'descr': '<f4', 'fortran_order': False, ";
  EXPECT_EQ(errorOf("GIF89a..."),
            "in.npy: not a .npy file (bad magic; expected \\x93NUMPY)");
  EXPECT_EQ(errorOf(std::string("\x93NUMPY\x01", 7)),
            "in.npy: file is truncated before the format version");
  EXPECT_EQ(errorOf(std::string("\x93NUMPY\x01\x00\x05", 9)),
            "in.npy: file is truncated before the header length");
  EXPECT_EQ(errorOf(std::string("\x93NUMPY\x04\x00\x00\x00\x00\x00", 12)),
            "in.npy: unsupported .npy format version 4.0");
  EXPECT_EQ(errorOf(npyBytes("{'descr'", "").substr(0, 14)),
            "in.npy: header is truncated (header length 8 but only 4 bytes "
            "follow)");
  EXPECT_EQ(errorOf(npyBytes("{'descr': '<f4', 'shape': (1,)}", "abcd")),
            "in.npy: bad .npy header: header has no 'fortran_order' key");
  EXPECT_EQ(errorOf(npyBytes(ok4 + "'shape': (1, -2)}", "")),
            "in.npy: bad .npy header: 'shape' must be a tuple of "
            "non-negative integers");
  EXPECT_EQ(errorOf(npyBytes(ok4 + "'shape': [1]}", "")),
            "in.npy: bad .npy header: 'shape' must be a tuple");
  EXPECT_EQ(errorOf(npyBytes(ok4 + "'shape': (99999999999999999999,)}", "")),
            "in.npy: bad .npy header: a dimension in 'shape' overflows int64");
  EXPECT_EQ(errorOf(npyBytes(ok4 + "'shape': (4294967296, 4294967296)}", "")),
            "in.npy: shape [4294967296,4294967296] has too many elements");
  EXPECT_EQ(errorOf(npyBytes(ok4 + "'shape': (2, 3)}", "12345678")),
            "in.npy: data size mismatch: f32[2,3] needs 24 bytes but the file "
            "has 8");
  EXPECT_EQ(errorOf(npyBytes(ok4 + "'shape': (2,), 'x': 1}", "")),
            "in.npy: bad .npy header: unexpected key 'x'");
  EXPECT_EQ(errorOf(npyBytes("{'descr': '<c8', 'fortran_order': False, "
                             "'shape': ()}",
                             "")),
            "in.npy: unsupported descr '<c8' (supported: <f4 <f8 <f2 |i1 <i2 "
            "<i4 <i8 |u1 <u2 <u4 <u8 |b1, <V2 for bf16 and |V1 for the f8 "
            "types)");
  EXPECT_EQ(errorOf(npyBytes("{'descr': '>f4', 'fortran_order': False, "
                             "'shape': ()}",
                             "")),
            "in.npy: big-endian descr '>f4' is not supported");
  EXPECT_EQ(errorOf(npyBytes("{'descr': [('a', '<f4')], 'fortran_order': "
                             "False, 'shape': ()}",
                             "")),
            "in.npy: bad .npy header: structured dtypes (a list descr) are "
            "not supported");
  EXPECT_EQ(errorOf(npyBytes("{'descr': '<f4', 'fortran_order': True, "
                             "'shape': (1,)}",
                             "abcd")),
            "in.npy: fortran_order=True arrays are not supported (save a "
            "C-order array, e.g. np.ascontiguousarray)");
  EXPECT_EQ(errorOf(npyBytes(ok4 + "'shape': (1,)} junk", "abcd")),
            "in.npy: bad .npy header: unexpected text after the header dict");
  EXPECT_EQ(errorOf(npyBytes("{'descr: '<f4'}", "")),
            "in.npy: bad .npy header: expected ':' after key 'descr: '");
}

TEST(Npy, FilesAreWrittenAtomically) {
  std::string path = tempPath("atomic.npy");
  HostArray array = makeArray<int32_t>(DType::S32, {2}, {7, -7});
  ASSERT_TRUE(writeNpyFile(path, array).ok());
  absl::StatusOr<HostArray> back = readNpyFile(path);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, array);
  std::remove(path.c_str());

  absl::Status status =
      writeNpyFile(testing::TempDir() + "/no/such/dir/x.npy", array);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("cannot create a temporary file"),
            std::string::npos);
  EXPECT_EQ(readNpyFile(tempPath("missing.npy")).status().code(),
            absl::StatusCode::kNotFound);
}

TEST(Npy, InteroperatesWithNumpy) {
  std::string ours = tempPath("ours.npy");
  std::string theirs = tempPath("theirs.npy");
  HostArray array = makeArray<float>(DType::F32, {2, 2}, {1, 2, 3, 4.5f});
  ASSERT_TRUE(writeNpyFile(ours, array).ok());
  HostArray bf16 = makeArray<uint16_t>(DType::BF16, {2},
                                       {f32ToBf16Bits(1.0f), 0xC040});
  std::string oursBf16 = tempPath("ours_bf16.npy");
  ASSERT_TRUE(writeNpyFile(oursBf16, bf16).ok());
  std::optional<std::string> output = runNumpy(
      "a = np.load('" + ours + "')\n"
      "print(a.dtype, a.shape, a.tolist())\n"
      "b = np.load('" + oursBf16 + "')\n"
      "print(b.dtype, b.view('<u2').tolist())\n"
      "np.save('" + theirs + "', np.arange(6, dtype=np.int64).reshape(3, 2))\n");
  if (!output)
    GTEST_SKIP() << "/usr/bin/python3 with numpy is not available";
  EXPECT_EQ(*output, "float32 (2, 2) [[1.0, 2.0], [3.0, 4.5]]\n"
                     "|V2 [16256, 49216]\n");
  absl::StatusOr<HostArray> back = readNpyFile(theirs);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, makeArray<int64_t>(DType::S64, {3, 2}, {0, 1, 2, 3, 4, 5}));
  for (const std::string &path : {ours, theirs, oursBf16})
    std::remove(path.c_str());
}

TEST(RandomInputs, MatchesTheDocumentedDefinition) {
  // Expected values computed independently (Python) from the definition in
  // RandomInputs.h: seed 7, parameter 2 (floats) and 3 (ints).
  absl::StatusOr<HostArray> f32 = randomInput(7, 2, DType::F32, {2, 2});
  ASSERT_TRUE(f32.ok());
  std::vector<float> expected;
  for (int64_t top : {13015891, 12739397, 8677361, 4192038})
    expected.push_back(static_cast<float>(top) * 0x1p-23f - 1.0f);
  EXPECT_EQ(*f32, makeArray<float>(DType::F32, {2, 2}, expected));
  EXPECT_FLOAT_EQ(expected[0], 0.5516151189804077f);

  absl::StatusOr<HostArray> bf16 = randomInput(7, 2, DType::BF16, {4});
  std::vector<uint16_t> rounded;
  for (float value : expected)
    rounded.push_back(f32ToBf16Bits(value));
  EXPECT_EQ(*bf16, makeArray<uint16_t>(DType::BF16, {4}, rounded));

  EXPECT_EQ(*randomInput(7, 3, DType::S32, {4}),
            makeArray<int32_t>(DType::S32, {4}, {3, -7, -8, 7}));
  EXPECT_EQ(*randomInput(7, 3, DType::Pred, {4}),
            makeArray<uint8_t>(DType::Pred, {4}, {1, 0, 0, 1}));
  EXPECT_EQ(*randomInput(7, 3, DType::U8, {4}),
            makeArray<uint8_t>(DType::U8, {4}, {11, 1, 0, 15}));
}

TEST(RandomInputs, DeterministicAndInRange) {
  absl::StatusOr<HostArray> a = randomInput(42, 5, DType::F32, {1000});
  absl::StatusOr<HostArray> b = randomInput(42, 5, DType::F32, {1000});
  absl::StatusOr<HostArray> c = randomInput(42, 6, DType::F32, {1000});
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, *c);
  const float *values = reinterpret_cast<const float *>(a->data());
  for (int i = 0; i < 1000; ++i) {
    EXPECT_GE(values[i], -1.0f);
    EXPECT_LT(values[i], 1.0f);
  }
  absl::StatusOr<HostArray> ints = randomInput(42, 5, DType::S8, {1000});
  for (uint8_t byte : ints->bytes()) {
    EXPECT_GE(static_cast<int8_t>(byte), -8);
    EXPECT_LT(static_cast<int8_t>(byte), 8);
  }
  EXPECT_FALSE(randomInput(1, 1, DType::F32, {-3}).ok());
}

} // namespace
