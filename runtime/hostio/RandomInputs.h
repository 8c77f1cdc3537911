//===- RandomInputs.h - Reproducible random parameter values ----*- C++ -*-===//
//
// `tpuc interpret` and `tpuc-run` both fill parameters with this generator,
// so the same seed gives the same arrays in both. The definition is exact so
// that any other tool can reproduce it:
//
//   state = seed * 1000003 + paramIndex            (uint64, wrapping)
//   next():                                        (SplitMix64)
//     state += 0x9E3779B97F4A7C15
//     z = state
//     z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
//     z = (z ^ (z >> 27)) * 0x94D049BB133111EB
//     return z ^ (z >> 31)
//
// One next() per element, in C (row-major) order; with r = next():
//   f32 f64 bf16 f16 : x = (r >> 40) * 2^-23 - 1, uniform in [-1, 1) on a
//                      2^-23 grid (exact in f32); bf16/f16 round x to
//                      nearest-even, f64 holds x exactly.
//   s8 s16 s32 s64   : (r >> 60) - 8, uniform in [-8, 8)
//   u8 u16 u32 u64   : r >> 60, uniform in [0, 16)
//   pred             : r >> 63
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_RUNTIME_HOSTIO_RANDOMINPUTS_H
#define TPUC_RUNTIME_HOSTIO_RANDOMINPUTS_H

#include "runtime/hostio/HostArray.h"

#include "absl/status/statusor.h"

#include <cstdint>
#include <vector>

namespace tpuc::hostio {

class SplitMix64 {
public:
  explicit SplitMix64(uint64_t state) : state(state) {}
  uint64_t next() {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

private:
  uint64_t state;
};

/// The value of parameter `paramIndex` for `seed`, as defined above. Fails
/// only for an invalid shape.
absl::StatusOr<HostArray> randomInput(uint64_t seed, uint64_t paramIndex,
                                      DType dtype,
                                      std::vector<int64_t> shape);

} // namespace tpuc::hostio

#endif // TPUC_RUNTIME_HOSTIO_RANDOMINPUTS_H
