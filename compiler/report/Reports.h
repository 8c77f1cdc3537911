//===- Reports.h - padding and memory reports -------------------*- C++ -*-===//
//
// Renders a MemoryPlan: the padding report, the memory report in XLA's
// format (and its out-of-memory headline), the same data as JSON, and the
// memory viewer page. docs/reports.md describes every field.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_REPORT_REPORTS_H
#define TPUC_COMPILER_REPORT_REPORTS_H

#include "compiler/analysis/BufferAssignment.h"
#include "compiler/fusion/FusionPlanner.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace tpuc::report {

/// Bytes as XLA prints them (binary units): "0B", "276.0K", "530.00M",
/// "19.46G".
std::string formatBytes(int64_t bytes);

/// The HBM of the executable compiled from the plan (`tpuc compile -o
/// x.tpx`): its segments as the serializer placed them, and the heap buffers
/// it could not keep at the plan's offsets (code generator scratch, values
/// whose buffer does not match their allocation).
struct ExecutableHbm {
  int64_t usedBytes = 0, argumentBytes = 0, constantBytes = 0, heapBytes = 0;
  int64_t plannedBuffers = 0, unplannedBuffers = 0;
  struct Buffer {
    std::string name;
    int64_t bytes = 0;
    int64_t firstStep = 0, lastStep = 0;
  };
  std::vector<Buffer> largestUnplanned; // by size, then name
};

struct ReportContext {
  std::string moduleName;
  std::string layoutMode; // "preserve" or "auto"
  size_t largest = 10;    // allocations listed by the memory report
  std::optional<ExecutableHbm> executable; // when an executable was built
  // Devices that run the program (the module's replica_count x
  // num_partitions); above 1 the reports are for one of them (all run the
  // same program on same-shaped shards) and say so.
  int64_t devices = 1;
  std::string slice; // the --target slice ("tpu-v3-8"), if one
};

/// replica_count x num_partitions of `module` (1 when absent).
int64_t moduleDeviceCount(mlir::ModuleOp module);

/// "per device, 1 of 8 on tpu-v3-8" ("" for one device).
std::string perDeviceText(const ReportContext &context);

void printPaddingReport(const analysis::MemoryPlan &plan,
                        const ReportContext &context, llvm::raw_ostream &os);

/// "Ran out of memory in memory space hbm. Used X of Y hbm. Exceeded hbm
/// capacity by Z." (no newline).
std::string outOfMemoryMessage(const analysis::MemoryPlan &plan,
                               const ReportContext &context = {});

void printMemoryReport(const analysis::MemoryPlan &plan,
                       const ReportContext &context, llvm::raw_ostream &os);

llvm::json::Value reportJson(const analysis::MemoryPlan &plan,
                             const ReportContext &context);

/// One self-contained HTML page: live HBM over the schedule and the largest
/// buffers at the peak.
void writeMemoryViewer(const analysis::MemoryPlan &plan,
                       const ReportContext &context, llvm::raw_ostream &os);

/// What fusion did to a program (docs/fusion.md, "The fusion report").
struct FusionSummary {
  struct Fusion {
    std::string name; // "fusion.0", in program order
    std::string kind; // loop, input, output
    std::vector<std::string> ops;          // HLO instruction names
    std::vector<std::string> frameworkOps; // op_name metadata, sorted
    int64_t readBytes = 0, writtenBytes = 0;
  };
  struct Intermediate {
    std::string name, opcode, shape, frameworkOp, reason;
    int64_t bytes = 0;
  };
  std::string precision; // f32 or mixed_bfloat16
  std::vector<Fusion> fusions;
  int64_t hbmBytesUnfused = 0, hbmBytesFused = 0;
  // The fused traffic with each array counted as laid out in HBM (padded
  // tiles): what the executable's DMAs would move if they followed the plan.
  int64_t hbmBytesFusedPadded = 0;
  int64_t peakBytesBefore = 0, peakBytesAfter = 0; // HLO temp heap
  int64_t usedBytesBefore = 0, usedBytesAfter = 0; // program + arguments
  std::vector<Intermediate> largestUnfused;        // largest first
};

/// Summarises fusion from the module before it (`unfused`, after the
/// passes that precede fusion), the fused module, their memory plans, the
/// options fusion ran with and the target's tiling rules (for the padded
/// traffic).
FusionSummary summarizeFusion(mlir::ModuleOp unfused, mlir::ModuleOp fused,
                              const analysis::MemoryPlan &before,
                              const analysis::MemoryPlan &after,
                              const fusion::FusionOptions &options,
                              const target::TilingRules &tiling,
                              size_t largest = 10);

void printFusionReport(const FusionSummary &summary,
                       const ReportContext &context, llvm::raw_ostream &os);

llvm::json::Value fusionReportJson(const FusionSummary &summary,
                                   const ReportContext &context);

} // namespace tpuc::report

#endif // TPUC_COMPILER_REPORT_REPORTS_H
