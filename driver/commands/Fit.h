//===- Fit.h - measuring a step's fit on a target ---------------*- C++ -*-===//
//
// The core of `tpuc fit`, shared with `tpuc compile`'s out-of-memory advice:
// run the compile pipeline up to the HBM plan for one configuration on one
// target and measure it, and search the flags that would make it fit.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_DRIVER_COMMANDS_FIT_H
#define TPUC_DRIVER_COMMANDS_FIT_H

#include "passes/Passes.h"
#include "runtime/target/Targets.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>
#include <vector>

namespace tpuc::driver {

/// One configuration of the step on one target, measured.
struct Measurement {
  std::string flags; // "--precision=mixed_bfloat16" ("" = as given)
  int64_t usedBytes = 0, limitBytes = 0, reservedBytes = 0;
  int64_t peakHeapBytes = 0, paddingBytes = 0;
  bool fits = false;
  // Filled by the timing run.
  std::optional<double> stepSeconds;
  uint64_t cycles = 0;
  double mxuUtilization = 0;
  std::string timingError;
};

/// Runs the front end and fusion pipelines for `config` on a copy of
/// `module` (as imported), plans HBM and measures it; with `timing` and if
/// it fits, also generates code and models one step on the emulator.
/// `given` names the configuration the flags are relative to. Errors are
/// diagnostics on the module's context.
std::optional<Measurement> measureFit(mlir::ModuleOp module,
                                      const target::TargetSpec &spec,
                                      const CompilePipelineConfig &config,
                                      const CompilePipelineConfig &given,
                                      bool timing);

/// The configurations tpuc compile's flags can build that change HBM use,
/// measured: each flag that differs from `given` alone, then all together.
/// With `timing`, the first that fits is also timed.
std::optional<std::vector<Measurement>>
searchFixes(mlir::ModuleOp module, const target::TargetSpec &spec,
            const CompilePipelineConfig &given, bool timing);

/// `tpuc fit --batch`: the largest batch that fits one target.
struct BatchFit {
  int64_t maxBatch = 0;     // 0: not even batch 1 fits
  int64_t maxMultipleOf8 = 0;
  Measurement atMax, atMultipleOf8;
  /// Step times beyond kMaxTimedBatch are extrapolated linearly from the
  /// times at kMaxTimedBatch / 2 and kMaxTimedBatch (the emulator's
  /// timing-only run takes time proportional to the batch).
  bool extrapolated = false;
};
inline constexpr int64_t kMaxTimedBatch = 8192;

/// Re-specializes `module` (inlined, as imported) along dimension `dim` of
/// entry parameter `param` (tpuc-resize-batch) and searches the largest
/// batch whose HBM plan fits `spec` with `config`: doubling from 1, then
/// bisection, and the largest multiple of 8 at or below it. With `timing`,
/// models the step time at both. Errors (a bad parameter, a graph that
/// hard-codes the batch) are diagnostics.
std::optional<BatchFit> searchBatch(mlir::ModuleOp module,
                                    const target::TargetSpec &spec,
                                    const CompilePipelineConfig &config,
                                    llvm::StringRef param, int64_t dim,
                                    bool timing);

} // namespace tpuc::driver

#endif // TPUC_DRIVER_COMMANDS_FIT_H
