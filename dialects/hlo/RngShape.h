//===- RngShape.h - how rng_bit_generator lays out Threefry draws -*- C++ -*-===//
//
// One rule shared by the interpreter (RandomKernels.cpp) and the compiler's
// expansion (passes/ExpandRngBitGenerator.cpp), so that both place the
// words of a Threefry draw alike.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_DIALECTS_HLO_RNGSHAPE_H
#define TPUC_DIALECTS_HLO_RNGSHAPE_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace tpuc::hlo {

/// XLA's SplitShapeIntoHalves (xla/hlo/builder/lib/prng.cc): the dimension
/// along which 32-bit Threefry bits of `shape` take the two words of each
/// draw, and rng's normal numbers the two of each Box-Muller pair (the
/// first even dimension, else the first largest), or -1 for a scalar.
inline int64_t threeFrySplitDimension(llvm::ArrayRef<int64_t> shape) {
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] % 2 == 0)
      return d;
  int64_t split = -1;
  for (size_t d = 0; d < shape.size(); ++d)
    if (split < 0 || shape[d] > shape[split])
      split = d;
  return split;
}

/// The program's generator state (rng_get_and_update_state, rng) at the
/// start of every execution: XLA's CPU and GPU initial value, the 128-bit
/// 0x7012395 (xla/service/cpu/runtime/rng_state_lib.cc).
inline constexpr uint64_t kRngInitialStateLow = 0x7012395ull;

/// The 128-bit state (low, high) advanced by `delta`.
inline void advanceRngState(uint64_t &low, uint64_t &high, uint64_t delta) {
  uint64_t sum = low + delta;
  high += sum < low;
  low = sum;
}

} // namespace tpuc::hlo

#endif // TPUC_DIALECTS_HLO_RNGSHAPE_H
