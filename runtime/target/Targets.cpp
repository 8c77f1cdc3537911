#include "runtime/target/Targets.h"

#include <cctype>
#include <cmath>
#include <initializer_list>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace tpuc::target {
namespace {

constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;

struct Preset {
  const char *name;
  const char *description;
  uint32_t coresPerDevice;
  uint32_t mxusPerCore;
  uint32_t mxuDim;
  // Published peak bf16 FLOP/s of one device, and the published clock; 0
  // derives the clock from the peak (where MXU count x clock and the peak
  // disagree or no clock is published).
  double peakFlops;
  double clockHz;
  uint64_t vmemPerCore;
  uint64_t smemPerCore;
  uint64_t hbmBytes;
  uint64_t hbmLimit;    // as XLA prints it: "Used X of <limit> hbm"
  uint64_t hbmReserved; // as XLA prints it: "reserved <n>"
  double hbmBytesPerSecond;
  TilingRules tiling;
  // Space-separated hlo mnemonics computed in f32 only (docs/fusion.md).
  const char *f32OnlyOps;
};

// No bf16 VPU arithmetic on v2/v3: transcendentals, divide and square roots
// go through f32. v4 adds bf16 divide and square roots; v5e bf16
// transcendentals (assumptions, see docs/fusion.md).
constexpr char kF32OnlyV2[] =
    "exponential exponential_minus_one log log_plus_one logistic tanh sine "
    "cosine atan2 power remainder divide sqrt rsqrt";
constexpr char kF32OnlyV4[] =
    "exponential exponential_minus_one log log_plus_one logistic tanh sine "
    "cosine atan2 power remainder";
constexpr char kF32OnlyV5e[] = "atan2 power remainder";

// XLA's tiles: T(8,128)(2,1) for 16-bit types on every generation before
// TPU7x; 8-bit types take the large T(32,128)(4,1) from v5 on; newer rules for
// rank-1 and small second-minor dims (docs/targets.md).
constexpr TilingRules kTilesV2{/*rows16Bit=*/8, /*rows8Bit=*/8,
                               /*smallVectorTile=*/256,
                               /*shrinkSublaneTile=*/false};
constexpr TilingRules kTilesV5{/*rows16Bit=*/8, /*rows8Bit=*/32,
                               /*smallVectorTile=*/128,
                               /*shrinkSublaneTile=*/true};
constexpr TilingRules kTiles7x{/*rows16Bit=*/16, /*rows8Bit=*/32,
                               /*smallVectorTile=*/128,
                               /*shrinkSublaneTile=*/true};

// What XLA presents as one device. Every number and its source:
// docs/targets.md.
const Preset kPresets[] = {
    {"tpu-v2", "TPU v2 core: 8 GiB HBM, 1 MXU", 1, 1, 128, 0, 700e6,
     16 * kMiB, 16 * kKiB, 8 * kGiB, 8 * kGiB - 530 * kMiB, 530 * kMiB, 358e9,
     kTilesV2, kF32OnlyV2},
    {"tpu-v3", "TPU v3 core: 16 GiB HBM, 2 MXUs", 1, 2, 128, 0, 940e6,
     16 * kMiB, 16 * kKiB, 16 * kGiB, 16 * kGiB - 530 * kMiB, 530 * kMiB,
     450e9, kTilesV2, kF32OnlyV2},
    {"tpu-v4", "TPU v4 megacore: 2 cores of 4 MXUs, 32 GiB HBM", 2, 4, 128, 0,
     1050e6, 16 * kMiB, kMiB, 32 * kGiB, 32 * kGiB - 1280 * kMiB, 1280 * kMiB,
     1200e9, kTilesV2, kF32OnlyV4},
    {"tpu-v5e", "TPU v5e chip: 4 MXUs, 16 GiB HBM", 1, 4, 128, 0, 1500e6,
     128 * kMiB, kMiB, 16 * kGiB, 16 * kGiB - 256 * kMiB, 256 * kMiB, 819e9,
     kTilesV5, kF32OnlyV5e},
    {"tpu-v5p", "TPU v5p megacore: 2 cores of 4 MXUs, 96 GiB HBM", 2, 4, 128,
     459e12, 0, 64 * kMiB, kMiB, 96 * kGiB, 96 * kGiB - 266 * kMiB,
     266 * kMiB, 2765e9, kTilesV5, kF32OnlyV5e},
    {"tpu-v6e", "TPU v6e (Trillium) chip: 2 MXUs of 256x256, 32 GiB HBM", 1,
     2, 256, 918e12, 0, 128 * kMiB, kMiB, 32 * kGiB, 33550237696ull,
     260 * kMiB, 1638e9, kTilesV5, kF32OnlyV5e},
    {"tpu7x", "TPU7x (Ironwood) core: 4 MXUs of 256x256, 96 GiB HBM", 1, 4,
     256, 2307e12 / 2, 0, 64 * kMiB, kMiB, 96 * kGiB,
     96 * kGiB - 1280 * kMiB, 1280 * kMiB, 7380e9 / 2, kTiles7x, kF32OnlyV5e},
};

// Slices as Cloud TPU names them. Per-link ICI bandwidth is one direction
// of one link; the per-hop latency is an assumption (docs/targets.md).
struct SlicePreset {
  const char *name;
  const char *device;
  int64_t chips;
  int64_t devices;
  std::initializer_list<int64_t> topology;
  bool wraparound;
  double linkBytesPerSecond;
  double hopLatency;
  const char *description;
};

const SlicePreset kSlices[] = {
    {"tpu-v2-8", "tpu-v2", 4, 8, {2, 2}, false, 62e9, 1e-6,
     "Cloud TPU v2-8: 4 chips (2x2), 8 cores, each a device"},
    {"tpu-v3-8", "tpu-v3", 4, 8, {2, 2}, false, 82e9, 1e-6,
     "Cloud TPU v3-8: 4 chips (2x2), 8 cores, each a device"},
    {"tpu-v3-32", "tpu-v3", 16, 32, {4, 4}, false, 82e9, 1e-6,
     "Cloud TPU v3-32: 16 chips (4x4), 32 cores, each a device"},
    {"tpu-v4-8", "tpu-v4", 4, 4, {2, 2, 1}, false, 50e9, 1e-6,
     "Cloud TPU v4-8: 4 megacore chips (2x2x1 mesh)"},
    {"tpu-v4-32", "tpu-v4", 16, 16, {2, 2, 4}, false, 50e9, 1e-6,
     "Cloud TPU v4-32: 16 megacore chips (2x2x4 mesh)"},
    {"tpu-v5e-8", "tpu-v5e", 8, 8, {2, 4}, false, 50e9, 1e-6,
     "Cloud TPU v5litepod-8: 8 chips (2x4)"},
    {"tpu-v5p-8", "tpu-v5p", 4, 4, {2, 2, 1}, false, 100e9, 1e-6,
     "Cloud TPU v5p-8: 4 megacore chips (2x2x1)"},
};

TargetSpec makeSpec(const Preset &p) {
  TargetSpec spec;
  exe::Target &t = spec.machine;
  uint32_t mxus = p.mxusPerCore * p.coresPerDevice;
  double macsPerCycle = double(mxus) * p.mxuDim * p.mxuDim;
  t.set_name(p.name);
  t.set_clock_hz(p.clockHz != 0 ? p.clockHz : p.peakFlops / (2 * macsPerCycle));
  t.set_mxu_count(mxus);
  t.set_mxu_rows(p.mxuDim);
  t.set_mxu_cols(p.mxuDim);
  t.set_vmem_bytes(p.vmemPerCore);
  t.set_smem_bytes(p.smemPerCore);
  t.set_hbm_bytes(p.hbmBytes);
  t.set_hbm_reserved_bytes(p.hbmReserved);
  t.set_hbm_limit_bytes(p.hbmLimit);
  t.set_hbm_bytes_per_second(p.hbmBytesPerSecond);
  t.set_dma_latency_cycles(500);
  t.set_num_semaphores(32);
  t.set_cores_per_device(p.coresPerDevice);
  spec.tiling = p.tiling;
  spec.description = p.description;
  spec.peakFlops =
      p.peakFlops != 0 ? p.peakFlops : 2 * macsPerCycle * t.clock_hz();
  for (absl::string_view op :
       absl::StrSplit(p.f32OnlyOps, ' ', absl::SkipEmpty()))
    spec.f32OnlyOps.emplace_back(op);
  return spec;
}

} // namespace

const std::vector<TargetSpec> &targetPresets() {
  static const std::vector<TargetSpec> presets = [] {
    std::vector<TargetSpec> all;
    for (const Preset &p : kPresets)
      all.push_back(makeSpec(p));
    return all;
  }();
  return presets;
}

const std::vector<SliceSpec> &slicePresets() {
  static const std::vector<SliceSpec> slices = [] {
    std::vector<SliceSpec> all;
    for (const SlicePreset &p : kSlices) {
      SliceSpec slice;
      slice.name = p.name;
      slice.device = p.device;
      slice.chips = p.chips;
      slice.devices = p.devices;
      slice.topology.assign(p.topology.begin(), p.topology.end());
      slice.wraparound = p.wraparound;
      slice.iciBytesPerSecondPerLink = p.linkBytesPerSecond;
      slice.iciHopLatencySeconds = p.hopLatency;
      slice.description = p.description;
      all.push_back(std::move(slice));
    }
    return all;
  }();
  return slices;
}

const SliceSpec *findSlice(absl::string_view name) {
  for (const SliceSpec &slice : slicePresets())
    if (slice.name == name)
      return &slice;
  return nullptr;
}

absl::StatusOr<TargetSpec> lookupTarget(absl::string_view name) {
  if (const SliceSpec *slice = findSlice(name))
    return lookupTarget(slice->device);
  std::vector<std::string> names, slices;
  for (const TargetSpec &spec : targetPresets()) {
    if (spec.machine.name() == name)
      return spec;
    names.push_back(spec.machine.name());
  }
  for (const SliceSpec &slice : slicePresets())
    slices.push_back(slice.name);
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown target '", name, "'; valid targets: ", absl::StrJoin(names, ", "),
      "; slices: ", absl::StrJoin(slices, ", ")));
}

absl::StatusOr<uint64_t> parseByteSize(absl::string_view text) {
  auto invalid = [&] {
    return absl::InvalidArgumentError(absl::StrCat(
        "invalid byte size '", text,
        "'; expected a number with an optional unit: B, K/KiB, M/MiB, "
        "G/GiB, T/TiB (binary) or KB, MB, GB, TB (decimal), e.g. 16GiB, "
        "530MiB, 1.5G, 4096"));
  };
  size_t split = 0;
  while (split < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[split])) ||
          text[split] == '.'))
    ++split;
  absl::string_view number = text.substr(0, split);
  std::string unit = absl::AsciiStrToUpper(std::string(text.substr(split)));
  double value;
  if (number.empty() || number.front() == '.' ||
      !absl::SimpleAtod(number, &value))
    return invalid();
  struct Unit {
    const char *name;
    double scale;
  };
  static const Unit units[] = {
      {"", 1},           {"B", 1},          {"K", 0x1p10},
      {"KIB", 0x1p10},   {"M", 0x1p20},     {"MIB", 0x1p20},
      {"G", 0x1p30},     {"GIB", 0x1p30},   {"T", 0x1p40},
      {"TIB", 0x1p40},   {"KB", 1e3},       {"MB", 1e6},
      {"GB", 1e9},       {"TB", 1e12}};
  for (const Unit &u : units) {
    if (unit != u.name)
      continue;
    double bytes = std::floor(value * u.scale);
    if (!(bytes < 0x1p63))
      return invalid();
    return static_cast<uint64_t>(bytes);
  }
  return invalid();
}

} // namespace tpuc::target
