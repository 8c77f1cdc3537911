//===- FitBatch.cpp - `tpuc fit --batch`: the largest batch that fits -----===//
//
// Re-specializes the step to a batch size with tpuc-resize-batch and
// measures its HBM plan (the same as `tpuc compile --target=T` makes) at
// each candidate: doubling from 1 until it no longer fits, then bisection.
// docs/fit.md ("Batch size search") describes the output.
//
//===----------------------------------------------------------------------===//

#include "driver/commands/Fit.h"

#include "passes/Passes.h"

namespace tpuc::driver {
namespace {

/// The batch beyond which the search stops (2^40 rows: no target fits it).
constexpr int64_t kMaxBatch = int64_t(1) << 40;

/// The module at batch `size`, measured (timed with `timing`).
std::optional<Measurement> measureAt(mlir::ModuleOp module,
                                     const target::TargetSpec &spec,
                                     const CompilePipelineConfig &config,
                                     llvm::StringRef param, int64_t dim,
                                     int64_t size, bool timing) {
  mlir::OwningOpRef<mlir::ModuleOp> copy = module.clone();
  mlir::FailureOr<BatchDimension> batch = findBatchDimension(*copy, param, dim);
  if (mlir::failed(batch) || mlir::failed(resizeBatch(*batch, size)))
    return std::nullopt;
  return measureFit(*copy, spec, config, config, timing);
}

} // namespace

std::optional<BatchFit> searchBatch(mlir::ModuleOp module,
                                    const target::TargetSpec &spec,
                                    const CompilePipelineConfig &config,
                                    llvm::StringRef param, int64_t dim,
                                    bool timing) {
  auto fits = [&](int64_t size) -> std::optional<bool> {
    std::optional<Measurement> m =
        measureAt(module, spec, config, param, dim, size, false);
    if (!m)
      return std::nullopt;
    return m->fits;
  };
  BatchFit result;
  // Doubling: lo fits, hi does not (0 and kMaxBatch are sentinels).
  int64_t lo = 0, hi = 1;
  while (hi < kMaxBatch) {
    std::optional<bool> f = fits(hi);
    if (!f)
      return std::nullopt;
    if (!*f)
      break;
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    std::optional<bool> f = fits(mid);
    if (!f)
      return std::nullopt;
    (*f ? lo : hi) = mid;
  }
  result.maxBatch = lo;
  if (lo == 0)
    return result;
  // The largest multiple of 8 that fits (the plan is not strictly monotone
  // in the batch: tiles pad it).
  for (int64_t m = lo / 8 * 8; m > 0; m -= 8) {
    std::optional<bool> f = fits(m);
    if (!f)
      return std::nullopt;
    if (*f) {
      result.maxMultipleOf8 = m;
      break;
    }
  }
  // Memory at both, and the step time: timed up to kMaxTimedBatch, beyond
  // it extrapolated from the times at kMaxTimedBatch / 2 and kMaxTimedBatch.
  std::optional<Measurement> half, full;
  auto measure = [&](int64_t size, Measurement &out) -> bool {
    bool timed = timing && size <= kMaxTimedBatch;
    std::optional<Measurement> m =
        measureAt(module, spec, config, param, dim, size, timed);
    if (!m)
      return false;
    out = std::move(*m);
    if (!timing || timed || !out.fits)
      return true;
    if (!half) {
      half =
          measureAt(module, spec, config, param, dim, kMaxTimedBatch / 2, true);
      full = measureAt(module, spec, config, param, dim, kMaxTimedBatch, true);
      if (!half || !full)
        return false;
    }
    if (half->stepSeconds && full->stepSeconds) {
      double perRow = (*full->stepSeconds - *half->stepSeconds) /
                      (kMaxTimedBatch - kMaxTimedBatch / 2);
      out.stepSeconds =
          *full->stepSeconds + perRow * double(size - kMaxTimedBatch);
      out.mxuUtilization = full->mxuUtilization;
      result.extrapolated = true;
    } else {
      out.timingError =
          !full->timingError.empty() ? full->timingError : half->timingError;
    }
    return true;
  };
  if (!measure(result.maxBatch, result.atMax))
    return std::nullopt;
  if (result.maxMultipleOf8 == result.maxBatch)
    result.atMultipleOf8 = result.atMax;
  else if (result.maxMultipleOf8 > 0 &&
           !measure(result.maxMultipleOf8, result.atMultipleOf8))
    return std::nullopt;
  return result;
}

} // namespace tpuc::driver
