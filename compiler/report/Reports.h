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

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tpuc::report {

/// Bytes as XLA prints them (binary units): "0B", "276.0K", "530.00M",
/// "19.46G".
std::string formatBytes(int64_t bytes);

struct ReportContext {
  std::string moduleName;
  std::string layoutMode; // "preserve" or "auto"
  size_t largest = 10;    // allocations listed by the memory report
};

void printPaddingReport(const analysis::MemoryPlan &plan,
                        const ReportContext &context, llvm::raw_ostream &os);

/// "Ran out of memory in memory space hbm. Used X of Y hbm. Exceeded hbm
/// capacity by Z." (no newline).
std::string outOfMemoryMessage(const analysis::MemoryPlan &plan);

void printMemoryReport(const analysis::MemoryPlan &plan,
                       const ReportContext &context, llvm::raw_ostream &os);

llvm::json::Value reportJson(const analysis::MemoryPlan &plan,
                             const ReportContext &context);

/// One self-contained HTML page: live HBM over the schedule and the largest
/// buffers at the peak.
void writeMemoryViewer(const analysis::MemoryPlan &plan,
                       const ReportContext &context, llvm::raw_ostream &os);

} // namespace tpuc::report

#endif // TPUC_COMPILER_REPORT_REPORTS_H
