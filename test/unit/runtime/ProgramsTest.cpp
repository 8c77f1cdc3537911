// Hand-written programs run end to end on the emulator and checked against
// plain C++ references.
#include <cmath>
#include <random>

#include "SamplePrograms.h"
#include "TestUtil.h"
#include "gtest/gtest.h"
#include "runtime/hostio/FloatConversion.h"

namespace tpuc::runtime {
namespace {

using namespace test;

TEST(Programs, Scale) {
  std::vector<float> x(8 * 128);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = 0.5f * i - 7;
  absl::StatusOr<RunResult> r = runProgram(scaleProgram(), {makeF32({8, 128}, x)});
  ASSERT_TRUE(r.ok()) << r.status();
  std::vector<float> y = values<float>(r->results[0]);
  for (size_t i = 0; i < x.size(); ++i)
    EXPECT_EQ(y[i], 2 * x[i] + 1);
  ASSERT_EQ(r->profile.ops.size(), 3u);
}

// Runs tiledMatmulProgram on random data and returns the profile after
// checking C against a reference with bf16-rounded inputs, exact products
// and sums in double. The emulator sums in f32 in k order; for k terms of
// magnitude <= 1 the difference stays far below k * k * 2^-24.
ExecutionProfile checkMatmul(int64_t m, int64_t n, int64_t k,
                             ExecuteOptions options = {}) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> a(m * k), bm(k * n);
  for (float &x : a)
    x = dist(rng);
  for (float &x : bm)
    x = dist(rng);
  ProgramBuilder b = tiledMatmulProgram(tpuV3Target(), m, n, k);
  absl::StatusOr<RunResult> r =
      runProgram(b, {makeF32({m, k}, a), makeF32({k, n}, bm)}, options);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok())
    return {};
  std::vector<float> c = values<float>(r->results[0]);
  double maxErr = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double want = 0;
      for (int64_t kk = 0; kk < k; ++kk)
        want += double(hostio::roundToBf16(a[i * k + kk])) *
                hostio::roundToBf16(bm[kk * n + j]);
      maxErr = std::max(maxErr, std::abs(want - c[i * n + j]));
    }
  EXPECT_LT(maxErr, 1e-4) << m << "x" << n << "x" << k;
  return r->profile;
}

TEST(Programs, TiledMatmulShapes) {
  // n = 384: C slots are reused (j = 2 waits for the write-back of j = 0).
  ExecutionProfile p = checkMatmul(64, 384, 256);
  EXPECT_EQ(p.flops, 2.0 * 64 * 384 * 256);
  checkMatmul(16, 128, 128);
}

TEST(Programs, TiledMatmulDoubleBuffered) {
  ExecuteOptions options;
  options.trace = true;
  ExecutionProfile p = checkMatmul(256, 256, 256, options);
  EXPECT_EQ(p.flops, 2.0 * 256 * 256 * 256);
  // A read twice (once per j), B once, C written once.
  EXPECT_EQ(p.hbmBytes, 2u * 256 * 256 * 2 + 256 * 256 * 2 + 256 * 256 * 4);
  ASSERT_EQ(p.ops.size(), 1u);
  EXPECT_EQ(p.ops[0].hloOp, "dot.1");
  // Double buffering: the DMA of step 1 starts before the first matmul ends.
  // The MXU events of a step are the weight loads of both MXUs, then their
  // matmuls (recorded as their LHS streams).
  uint64_t firstMatmulEnd = 0, secondLoadStart = 0;
  int dmas = 0, mxuEvents = 0;
  for (const TraceEvent &ev : p.trace) {
    if (ev.unit == Unit::Mxu && ++mxuEvents == 3)
      firstMatmulEnd = ev.end;
    if (ev.unit == Unit::Dma && ++dmas == 3)
      secondLoadStart = ev.start;
  }
  EXPECT_LT(secondLoadStart, firstMatmulEnd);
}

// Row softmax of f32[16,256] (T(8,128): 2x2 tiles of one vreg each) on the
// VPU.
TEST(Programs, RowSoftmax) {
  std::vector<float> x(16 * 256);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = 4 * std::sin(0.05f * i) + 0.001f * i;
  ProgramBuilder b = rowSoftmaxProgram();
  absl::StatusOr<RunResult> r = runProgram(b, {makeF32({16, 256}, x)});
  ASSERT_TRUE(r.ok()) << r.status();
  std::vector<float> y = values<float>(r->results[0]);
  // Reference in double; f32 exp/sum/divide stay within 1e-6 absolute of
  // values in [0, 1].
  double maxErr = 0;
  for (int row = 0; row < 16; ++row) {
    double mx = -INFINITY, sum = 0;
    for (int c = 0; c < 256; ++c)
      mx = std::max(mx, double(x[row * 256 + c]));
    for (int c = 0; c < 256; ++c)
      sum += std::exp(x[row * 256 + c] - mx);
    for (int c = 0; c < 256; ++c)
      maxErr = std::max(maxErr, std::abs(std::exp(x[row * 256 + c] - mx) / sum -
                                         y[row * 256 + c]));
  }
  EXPECT_LT(maxErr, 1e-6);
  EXPECT_EQ(r->profile.ops[0].hloOp, "softmax.1");
}

} // namespace
} // namespace tpuc::runtime
