#include "runtime/target/Targets.h"

#include <cctype>
#include <cmath>

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
  double clockHz;
  uint32_t mxuCount;
  uint64_t vmemBytes;
  uint64_t hbmBytes;
  uint64_t hbmReserved;
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

// One TensorCore (v2, v3) or one megacore device (v4) or chip (v5e): what
// XLA presents as one device. Sources: docs/targets.md.
const Preset kPresets[] = {
    {"tpu-v2", "TPU v2 core: 8 GiB HBM, 1 MXU", 700e6, 1, 16 * kMiB,
     8 * kGiB, 530 * kMiB, 300e9, TilingRules{}, kF32OnlyV2},
    {"tpu-v3", "TPU v3 core: 16 GiB HBM, 2 MXUs", 940e6, 2, 16 * kMiB,
     16 * kGiB, 530 * kMiB, 450e9, TilingRules{}, kF32OnlyV2},
    {"tpu-v4", "TPU v4 megacore: 32 GiB HBM, 8 MXUs", 1050e6, 8, 32 * kMiB,
     32 * kGiB, 530 * kMiB, 1200e9, TilingRules{}, kF32OnlyV4},
    {"tpu-v5e", "TPU v5e chip: 16 GiB HBM, 4 MXUs", 1500e6, 4, 128 * kMiB,
     16 * kGiB, 530 * kMiB, 819e9,
     TilingRules{/*rows16Bit=*/16, /*rows8Bit=*/32, /*smallVectorTile=*/128,
                 /*shrinkSublaneTile=*/true},
     kF32OnlyV5e},
};

TargetSpec makeSpec(const Preset &p) {
  TargetSpec spec;
  exe::Target &t = spec.machine;
  t.set_name(p.name);
  t.set_clock_hz(p.clockHz);
  t.set_mxu_count(p.mxuCount);
  t.set_mxu_rows(128);
  t.set_mxu_cols(128);
  t.set_vmem_bytes(p.vmemBytes);
  t.set_smem_bytes(16 * kKiB);
  t.set_hbm_bytes(p.hbmBytes);
  t.set_hbm_reserved_bytes(p.hbmReserved);
  t.set_hbm_bytes_per_second(p.hbmBytesPerSecond);
  t.set_dma_latency_cycles(500);
  t.set_num_semaphores(32);
  spec.tiling = p.tiling;
  spec.description = p.description;
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

absl::StatusOr<TargetSpec> lookupTarget(absl::string_view name) {
  std::vector<std::string> names;
  for (const TargetSpec &spec : targetPresets()) {
    if (spec.machine.name() == name)
      return spec;
    names.push_back(spec.machine.name());
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown target '", name,
                   "'; valid targets: ", absl::StrJoin(names, ", ")));
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
