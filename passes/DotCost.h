//===- DotCost.h - a dot_general on the MXU or on the VPU -------*- C++ -*-===//
//
// The cost rule that decides whether a dot_general runs on the MXU or as a
// VPU multiply + reduce (docs/fusion.md, "Small and integer dots"), shared by
// tpuc-strength-reduce-dots (which rewrites the VPU ones) and
// tpuc-expand-integer-contractions (which leaves the integer dots the VPU
// computes more cheaply than its MXU pieces).
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_PASSES_DOTCOST_H
#define TPUC_PASSES_DOTCOST_H

#include "compiler/fusion/DotSizes.h"
#include "runtime/target/Targets.h"

#include <algorithm>

namespace tpuc {

/// The machine figures the cost rule reads from the module's target.
struct DotMachine {
  int64_t mxuDim;           // D of the D x D MXU
  double hbmBytesPerCycle;  // HBM bandwidth over the clock
  int64_t dmaLatencyCycles; // one DMA's fixed cost

  static DotMachine of(const target::TargetSpec &spec) {
    const exe::Target &m = spec.machine;
    return {static_cast<int64_t>(m.mxu_rows()),
            m.hbm_bytes_per_second() / m.clock_hz(),
            static_cast<int64_t>(m.dma_latency_cycles())};
  }
};

namespace dotcost {
constexpr int64_t kSublanes = 8, kLanes = 128;
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
} // namespace dotcost

/// Vregs of the product [B,M,K,N] (batch-major: N on the lanes, K on the
/// sublanes) and of [M,N,K,B] (batch-minor: B on the lanes).
inline int64_t batchMajorVregs(const DotSizes &s) {
  using namespace dotcost;
  return s.b * s.m * ceilDiv(s.k, kSublanes) * ceilDiv(s.n, kLanes);
}
inline int64_t batchMinorVregs(const DotSizes &s) {
  using namespace dotcost;
  return s.m * s.n * ceilDiv(s.k, kSublanes) * ceilDiv(s.b, kLanes);
}

/// Whether the VPU form is cheaper than `mxuPasses` MXU contractions of
/// these sizes (each one past the first a kernel of its own, waiting for an
/// input and an output DMA). The MXU kernel runs, per batch and per D x D weight tile,
/// one weight load (D cycles) and one pass of the M rows padded to 8. The
/// VPU form multiplies and adds each vreg of the product once, and today's
/// kernels store the two product-sized broadcasts and read them back (4
/// vregs of HBM traffic per product vreg: the reduce kernel does not stream
/// an outer-product broadcast), in three more kernels than the MXU form (the
/// broadcasts and a relayout), each waiting at least one input and one
/// output DMA.
inline bool vpuDotIsCheaper(const DotSizes &s, const DotMachine &t,
                            int64_t mxuPasses = 1) {
  using namespace dotcost;
  int64_t d = t.mxuDim;
  double mxu = double(mxuPasses) * double(s.b) * ceilDiv(s.k, d) *
                   ceilDiv(s.n, d) * (ceilDiv(s.m, kSublanes) * kSublanes + d) +
               double(mxuPasses - 1) * 2 * t.dmaLatencyCycles;
  double vregBytes = kSublanes * kLanes * 4;
  double vregs = std::min(batchMajorVregs(s), batchMinorVregs(s));
  double vpu = vregs * (2 + 4 * vregBytes / t.hbmBytesPerCycle) +
               3 * 2 * t.dmaLatencyCycles;
  return vpu < mxu;
}

} // namespace tpuc

#endif // TPUC_PASSES_DOTCOST_H
