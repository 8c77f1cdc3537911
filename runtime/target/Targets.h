// Target presets: the machine parameters of each TPU generation tpuc knows,
// as data (exe::Target plus the layout rules XLA applies on that target).
// docs/targets.md gives the sources and assumptions behind every figure.
#ifndef TPUC_RUNTIME_TARGET_TARGETS_H
#define TPUC_RUNTIME_TARGET_TARGETS_H

#include <algorithm>
#include <cstdint>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/schema/executable.pb.h"

namespace tpuc::target {

// XLA's default tiling choices on a target (see compiler/layout).
struct TilingRules {
  // Rows of the (rows,128) tile for 16-bit and 8-bit types: 8 and 8 on v2-v4
  // (T(8,128)(2,1), T(8,128)(4,1)); 8 and 32 on v5e, v5p and v6e; 16 and 32
  // on TPU7x, where XLA uses the large 16-bit second-minor tile by default.
  int64_t rows16Bit = 8;
  int64_t rows8Bit = 8;
  // Tile of rank-1 arrays shorter than 1024 elements and of scalars.
  int64_t smallVectorTile = 256;
  // Newer XLA shrinks the second-minor tile to 1, 2 or 4 rows when the
  // second-minor dim is that small (T(1,128), T(4,128)).
  bool shrinkSublaneTile = false;
};

struct TargetSpec {
  exe::Target machine;
  TilingRules tiling;
  // Every HBM allocation starts at a multiple of this.
  int64_t hbmAlignment = 512;
  // hlo ops (mnemonics: "exponential", "divide") the vector unit cannot
  // compute in bf16; float normalization computes them in f32 instead.
  std::vector<std::string> f32OnlyOps;
  std::string description;
  // Published peak bf16 FLOP/s of one device; the clock is derived from it
  // when the MXU count times the clock disagrees (docs/targets.md).
  double peakFlops = 0;
};

// The presets, in generation order.
const std::vector<TargetSpec> &targetPresets();

// A slice: ICI-connected chips as Cloud TPU names them ("tpu-v3-8" is
// Cloud's v3-8). Devices are counted as XLA counts them (v2/v3: each core;
// v4/v5p: each megacore chip; v5e/v6e: each chip). Figures and sources:
// docs/targets.md.
struct SliceSpec {
  std::string name;
  // The preset of one device of the slice.
  std::string device;
  int64_t chips = 1;
  int64_t devices = 1;
  // Chips along each ICI dimension ("2x2", "2x2x4").
  std::vector<int64_t> topology;
  // Whether each dimension's ends are linked (a torus) or not (a mesh).
  bool wraparound = false;
  // One direction of one ICI link, and the latency of one hop.
  double iciBytesPerSecondPerLink = 0;
  double iciHopLatencySeconds = 0;
  std::string description;
};

// The slice presets, in generation order.
const std::vector<SliceSpec> &slicePresets();

// The slice called `name`, or nullptr.
const SliceSpec *findSlice(absl::string_view name);

// The preset `tpu-v3` used when --target is not given.
inline constexpr char kDefaultTarget[] = "tpu-v3";

// The preset called `name` (for a slice name, the preset of one of its
// devices, so a single-device compile for a slice compiles for its chip);
// an unknown name is an error listing the valid names.
absl::StatusOr<TargetSpec> lookupTarget(absl::string_view name);

// Parses "16GiB", "530MiB", "1.5G" (binary: K, M, G, T with or without
// "iB"), "16GB" (decimal: KB, MB, GB, TB) or plain bytes ("4096", "4096B").
absl::StatusOr<uint64_t> parseByteSize(absl::string_view text);

// HBM bytes a program may use: the limit XLA prints ("Used X of <limit>
// hbm") when the target gives one, else capacity less the reservation.
inline uint64_t usableHbmBytes(const exe::Target &t) {
  if (t.hbm_limit_bytes() != 0)
    return std::min(t.hbm_limit_bytes(), t.hbm_bytes());
  return t.hbm_bytes() > t.hbm_reserved_bytes()
             ? t.hbm_bytes() - t.hbm_reserved_bytes()
             : 0;
}

// TensorCores that make up one device (2 on a v4 or v5p megacore, else 1).
inline uint32_t coresPerDevice(const exe::Target &t) {
  return t.cores_per_device() ? t.cores_per_device() : 1;
}

} // namespace tpuc::target

#endif // TPUC_RUNTIME_TARGET_TARGETS_H
