// tpuc-bench-runtime: the emulator's host kernels against this machine's
// measured FMA peak, and the modeled time of a 4096^3 bf16 matmul against
// the target's roofline.
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <random>

#include "benchmark/benchmark.h"
#include "runtime/emulator/EmulatorDevice.h"
#include "runtime/hostio/FloatConversion.h"
#include "runtime/loader/Layout.h"
#include "runtime/loader/ProgramBuilder.h"
#include "runtime/loader/Run.h"
#include "test/unit/runtime/SamplePrograms.h"

namespace tpuc::runtime {
namespace {

// Register-only peak loops: 12 independent accumulators hide the latency
// on two ports. Each returns its flops per iteration.
__attribute__((target("avx2,fma"))) float fmaLoopAvx2(int64_t iterations) {
  __m256 acc[12];
  for (int i = 0; i < 12; ++i)
    acc[i] = _mm256_set1_ps(float(i));
  __m256 a = _mm256_set1_ps(0.999f), b = _mm256_set1_ps(0.001f);
  for (int64_t it = 0; it < iterations; ++it)
    for (int i = 0; i < 12; ++i)
      acc[i] = _mm256_fmadd_ps(acc[i], a, b);
  __m256 sum = acc[0];
  for (int i = 1; i < 12; ++i)
    sum = _mm256_add_ps(sum, acc[i]);
  return _mm256_cvtss_f32(sum);
}

__attribute__((target("avx512f"))) float fmaLoopAvx512(int64_t iterations) {
  __m512 acc[12];
  for (int i = 0; i < 12; ++i)
    acc[i] = _mm512_set1_ps(float(i));
  __m512 a = _mm512_set1_ps(0.999f), b = _mm512_set1_ps(0.001f);
  for (int64_t it = 0; it < iterations; ++it)
    for (int i = 0; i < 12; ++i)
      acc[i] = _mm512_fmadd_ps(acc[i], a, b);
  __m512 sum = acc[0];
  for (int i = 1; i < 12; ++i)
    sum = _mm512_add_ps(sum, acc[i]);
  return _mm512_cvtss_f32(sum);
}

// VDPBF16PS: 16 lanes x 2 bf16 products x 2 flops per instruction.
__attribute__((target("avx512f,avx512bf16"))) float
dpbf16Loop(int64_t iterations) {
  __m512 acc[12];
  for (int i = 0; i < 12; ++i)
    acc[i] = _mm512_set1_ps(float(i));
  __m512bh a = (__m512bh)_mm512_set1_epi32(0x3F803F80); // (1, 1)
  __m512bh b = (__m512bh)_mm512_set1_epi32(0x3A833A83); // (0.001, 0.001)
  for (int64_t it = 0; it < iterations; ++it)
    for (int i = 0; i < 12; ++i)
      acc[i] = _mm512_dpbf16_ps(acc[i], a, b);
  __m512 sum = acc[0];
  for (int i = 1; i < 12; ++i)
    sum = _mm512_add_ps(sum, acc[i]);
  return _mm512_cvtss_f32(sum);
}

// The peak of each SIMD path's inner instruction: FMA for the f32 paths,
// VDPBF16PS for avx512-bf16.
void BM_Peak(benchmark::State &state) {
  KernelPath path = static_cast<KernelPath>(state.range(0));
  if (!isKernelPathSupported(path)) {
    state.SkipWithError("path not supported here");
    return;
  }
  // volatile: the trip count must not be known to the optimiser.
  volatile int64_t iterations = 1 << 20;
  double flopsPerIteration = 12 * 2 *
                             (path == KernelPath::Avx2     ? 8
                              : path == KernelPath::Avx512 ? 16
                                                           : 32);
  for (auto _ : state)
    benchmark::DoNotOptimize(path == KernelPath::Avx2 ? fmaLoopAvx2(iterations)
                             : path == KernelPath::Avx512
                                 ? fmaLoopAvx512(iterations)
                                 : dpbf16Loop(iterations));
  state.SetLabel(path == KernelPath::Avx512Bf16 ? "avx512-bf16 vdpbf16ps"
                                                : kernelPathName(path));
  state.counters["FLOPS"] = benchmark::Counter(
      double(1 << 20) * flopsPerIteration * state.iterations(),
      benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Peak)
    ->Arg(int(KernelPath::Avx2))
    ->Arg(int(KernelPath::Avx512))
    ->Arg(int(KernelPath::Avx512Bf16));

std::vector<uint16_t> randomBf16(int64_t count, std::mt19937 &rng) {
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<uint16_t> bits(count);
  for (auto &x : bits)
    x = hostio::f32ToBf16Bits(dist(rng));
  return bits;
}

// matmulBf16(m x k x n) per kernel path, with the rhs packed once (as the
// emulator does per MXU_LOAD_WEIGHTS); args: path, m, k, n.
void BM_MatmulBf16(benchmark::State &state) {
  KernelPath path = static_cast<KernelPath>(state.range(0));
  if (!isKernelPathSupported(path)) {
    state.SkipWithError("path not supported here");
    return;
  }
  int64_t m = state.range(1), k = state.range(2), n = state.range(3);
  std::mt19937 rng(1);
  std::vector<uint16_t> lhs = randomBf16(m * k, rng);
  std::vector<uint16_t> rhs = randomBf16(k * n, rng);
  PackedRhs packed(path, rhs.data(), k, n);
  std::vector<float> out(m * n);
  for (auto _ : state) {
    matmulBf16(packed, lhs.data(), out.data(), m, true);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetLabel(kernelPathName(path));
  state.counters["FLOPS"] = benchmark::Counter(
      2.0 * m * k * n * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MatmulBf16)
    ->ArgsProduct({{int(KernelPath::Portable), int(KernelPath::Avx2),
                    int(KernelPath::Avx512), int(KernelPath::Avx512Bf16)},
                   {8, 256},
                   {128},
                   {128}})
    ->ArgsProduct({{int(KernelPath::Portable), int(KernelPath::Avx2),
                    int(KernelPath::Avx512), int(KernelPath::Avx512Bf16)},
                   {512},
                   {512},
                   {512}});

// The VPU's binaryF32 on one vreg (1024 f32), as VADD runs it; args: path.
void BM_BinaryF32(benchmark::State &state) {
  KernelPath path = static_cast<KernelPath>(state.range(0));
  if (!isKernelPathSupported(path)) {
    state.SkipWithError("path not supported here");
    return;
  }
  std::vector<float> a(1024, 1.5f), b(1024, 0.25f), out(1024);
  for (auto _ : state) {
    binaryF32(path, BinaryOp::Add, a.data(), b.data(), out.data(), 1024);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetLabel(kernelPathName(path));
  state.counters["FLOPS"] = benchmark::Counter(1024.0 * state.iterations(),
                                               benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BinaryF32)
    ->Arg(int(KernelPath::Portable))
    ->Arg(int(KernelPath::Avx2));

// Loading and reading back an f32[2048,1000] array in (8,128) tiles (the
// classifier weights of resnet50: 8 MB, 1000 lanes padded to 1024), next to
// a plain memcpy of the same padded bytes: the loader's conversions against
// this host's copy bandwidth. Args: 0 memcpy, 1 hostToDevice f32, 2
// deviceToHost f32, 3 hostToDevice f32 -> bf16 (rounded element by element).
void BM_LayoutConversion(benchmark::State &state) {
  const exe::Shape f32 = makeShape(exe::F32, {2048, 1000}, {{8, 128}});
  const exe::Shape bf16 = makeShape(exe::BF16, {2048, 1000}, {{8, 128}});
  const bool toBf16 = state.range(0) == 3;
  const exe::Shape &shape = toBf16 ? bf16 : f32;
  std::vector<uint8_t> host(2048 * 1000 * 4), device(*paddedByteSize(shape));
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = static_cast<uint8_t>(i * 7);
  for (auto _ : state) {
    switch (state.range(0)) {
    case 0:
      std::memcpy(device.data(), host.data(), host.size());
      break;
    case 1:
    case 3:
      benchmark::DoNotOptimize(
          hostToDevice(shape, exe::F32, host, absl::MakeSpan(device)));
      break;
    default:
      benchmark::DoNotOptimize(
          deviceToHost(shape, exe::F32, device, absl::MakeSpan(host)));
    }
    benchmark::ClobberMemory();
  }
  state.SetLabel(state.range(0) == 0   ? "memcpy"
                 : state.range(0) == 1 ? "hostToDevice f32"
                 : state.range(0) == 2 ? "deviceToHost f32"
                                       : "hostToDevice f32->bf16");
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(host.size()));
}
BENCHMARK(BM_LayoutConversion)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

// The 4096^3 bf16 matmul program, timing only, on tpu-v3. Reports the
// modeled time next to the roofline max(flops / MXU peak, bytes / HBM BW)
// with bytes the compulsory traffic (A, B read once, C written once).
void BM_Modeled4096Matmul(benchmark::State &state) {
  const int64_t n = 4096;
  exe::Target target = tpuV3Target();
  absl::StatusOr<Executable> e =
      test::tiledMatmulProgram(target, n, n, n).build();
  if (!e.ok()) {
    state.SkipWithError(std::string(e.status().message()).c_str());
    return;
  }
  ExecuteOptions options;
  options.functional = false;
  ExecutionProfile profile;
  for (auto _ : state) {
    EmulatorDevice device(target);
    std::vector<hostio::HostArray> inputs;
    for (const exe::Parameter &p : e->proto().parameters())
      inputs.push_back(hostio::HostArray::zeros(
                           toHostDType(p.shape().dtype()),
                           {p.shape().dims().begin(), p.shape().dims().end()})
                           .value());
    absl::StatusOr<RunResult> r = runExecutable(device, *e, inputs, options);
    if (!r.ok()) {
      state.SkipWithError(std::string(r.status().message()).c_str());
      return;
    }
    profile = r->profile;
  }
  double flops = 2.0 * n * n * n;
  double peak = 2.0 * 128 * 128 * target.mxu_count() * target.clock_hz();
  double bytes = n * n * 2.0 * 2 + n * n * 4.0;
  double roofline =
      std::max(flops / peak, bytes / target.hbm_bytes_per_second());
  state.counters["modeled_ms"] = profile.seconds * 1e3;
  state.counters["roofline_ms"] = roofline * 1e3;
  state.counters["mxu_util"] = profile.mxuUtilization;
  state.counters["hbm_bw_util"] = profile.hbmBandwidthUtilization;
  state.counters["hbm_GB"] = profile.hbmBytes / 1e9;
  state.counters["instructions"] = profile.instructionsExecuted;
}
BENCHMARK(BM_Modeled4096Matmul)->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace
} // namespace tpuc::runtime

BENCHMARK_MAIN();
