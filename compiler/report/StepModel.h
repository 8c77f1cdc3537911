//===- StepModel.h - analytic step time of one device -----------*- C++ -*-===//
//
// A roofline model of one device's step (docs/reports.md, "Step model"):
// compute time from the MXU FLOPs at the target's peak and the vector work
// at one vreg per cycle, HBM time from the fusion traffic model at the
// target's bandwidth, and ICI time from ring algorithms over the slice's
// links, one ring per torus dimension a collective's group spans. Collective traffic per op (bytes each device sends and receives)
// comes with it. Needs no code generation, so it works on programs with
// collectives.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_REPORT_STEPMODEL_H
#define TPUC_COMPILER_REPORT_STEPMODEL_H

#include "compiler/report/Reports.h"
#include "runtime/target/Targets.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tpuc::report {

/// One collective of the per-device program.
struct CollectiveTraffic {
  std::string name;   // HLO instruction ("all-reduce.3")
  std::string opcode; // "all-reduce"
  std::string shape;  // operand shape, "f32[64,128]"
  int64_t groupSize = 1;
  int64_t operandBytes = 0; // one device's operand (logical bytes)
  int64_t sentBytes = 0, receivedBytes = 0; // by one device
  double seconds = 0;  // one run
  int64_t runs = 1;    // runs per step (inside counted while loops)
};

struct StepModel {
  int64_t devices = 1;
  int64_t mxuFlops = 0;       // dot_general and convolution, 2 per MAC
  int64_t vectorElements = 0; // elements produced by the other ops
  int64_t hbmBytes = 0;       // fusion traffic model, fused program
  double computeSeconds = 0, hbmSeconds = 0, iciSeconds = 0;
  std::vector<CollectiveTraffic> collectives; // in program order
  /// Compute and HBM overlap (the DMA engines run beside the MXU and VPU);
  /// collectives do not (synchronous: every device waits at each).
  double stepSeconds() const {
    return std::max(computeSeconds, hbmSeconds) + iciSeconds;
  }
  int64_t sentBytes() const;
  int64_t receivedBytes() const;
};

/// Models the entry function of the fused `module` on one device of
/// `spec`; `slice` gives the ICI links (without one, a single-device
/// target, collectives count their bytes but take no time).
StepModel modelStep(mlir::ModuleOp module, const target::TargetSpec &spec,
                    const target::SliceSpec *slice);

void printStepReport(const StepModel &model, const ReportContext &context,
                     llvm::raw_ostream &os);
llvm::json::Value stepReportJson(const StepModel &model);

/// One row of the scaling table: the program split over `devices`.
struct ScalingRow {
  int64_t devices = 1;
  int64_t usedBytes = 0; // per device: program + arguments
  bool fits = true;
  StepModel step;
  std::string error; // why this count could not be measured
};

void printScalingTable(llvm::ArrayRef<ScalingRow> rows,
                       const ReportContext &context, llvm::raw_ostream &os);
llvm::json::Value scalingJson(llvm::ArrayRef<ScalingRow> rows);

} // namespace tpuc::report

#endif // TPUC_COMPILER_REPORT_STEPMODEL_H
