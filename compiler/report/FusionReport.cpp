//===- FusionReport.cpp - what fusion did to a program --------------------===//

#include "compiler/report/Reports.h"

#include "compiler/fusion/HbmTraffic.h"
#include "compiler/layout/TiledLayout.h"

#include "llvm/ADT/STLExtras.h"

#include <cstdio>
#include <map>
#include <set>

using namespace mlir;

namespace tpuc::report {
namespace {

std::string instructionName(Operation *op) {
  std::string name = analysis::sourceInfo(op->getLoc()).instruction;
  return name.empty() ? op->getName().stripDialect().str() : name;
}

std::string shapeText(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return "tuple";
  std::string text = layout::xlaTypeName(tensor.getElementType()) + "[";
  for (auto [i, d] : llvm::enumerate(tensor.getShape()))
    text += (i ? "," : "") + std::to_string(d);
  return text + "]";
}

std::string kindName(hlo::FusionKind kind) {
  return hlo::stringifyFusionKind(kind).str();
}

/// The results that stay in HBM under `plan`, with the reason.
std::vector<FusionSummary::Intermediate>
unfusedIntermediates(Block &block, const fusion::FusionPlan &plan) {
  llvm::DenseMap<Operation *, int> ownerOf;
  llvm::DenseMap<Operation *, llvm::SmallDenseSet<int, 2>> clonedIn;
  for (auto [g, group] : llvm::enumerate(plan.groups)) {
    for (Operation *op : group.ops)
      ownerOf[op] = g;
    for (Operation *op : group.clones)
      clonedIn[op].insert(g);
  }
  std::vector<FusionSummary::Intermediate> list;
  for (Operation &op : block.without_terminator()) {
    auto owner = ownerOf.find(&op);
    for (Value result : op.getResults()) {
      Operation *hbmReader = nullptr;
      for (Operation *user : result.getUsers()) {
        Operation *reader = block.findAncestorOpInBlock(*user);
        if (!reader || reader->hasTrait<OpTrait::IsTerminator>())
          continue;
        auto readerGroup = ownerOf.find(reader);
        bool internal =
            readerGroup != ownerOf.end() &&
            ((owner != ownerOf.end() && owner->second == readerGroup->second) ||
             clonedIn.lookup(&op).contains(readerGroup->second));
        if (!internal) {
          hbmReader = reader;
          break;
        }
      }
      if (!hbmReader)
        continue;
      FusionSummary::Intermediate item;
      item.name = instructionName(&op);
      item.opcode = op.getName().stripDialect().str();
      item.shape = shapeText(result.getType());
      item.bytes = fusion::logicalBytes(result.getType());
      item.frameworkOp = analysis::sourceInfo(op.getLoc()).opName;
      if (auto it = plan.reasons.find(&op); it != plan.reasons.end())
        item.reason = it->second;
      else if (!fusion::isFusible(&op))
        item.reason = op.getName().getStringRef().str() + " cannot be fused";
      else if (!fusion::isFusible(hbmReader))
        item.reason = "its consumer " +
                      hbmReader->getName().getStringRef().str() +
                      " cannot be fused";
      else
        item.reason = "no fusion with its consumers was legal";
      list.push_back(std::move(item));
    }
  }
  return list;
}

std::string savedPercent(int64_t before, int64_t after) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%+.1f%%",
                before ? 100.0 * (double(after) - before) / before : 0.0);
  return buf;
}

} // namespace

FusionSummary summarizeFusion(ModuleOp unfused, ModuleOp fused,
                              const analysis::MemoryPlan &before,
                              const analysis::MemoryPlan &after,
                              const fusion::FusionOptions &options,
                              const target::TilingRules &tiling,
                              size_t largest) {
  FusionSummary summary;
  func::FuncOp original = hlo::entryFunction(unfused);
  func::FuncOp entry = hlo::entryFunction(fused);
  if (original)
    summary.hbmBytesUnfused = fusion::functionTraffic(original).total();
  if (entry) {
    summary.hbmBytesFused = fusion::functionTraffic(entry).total();
    auto paddedBytes = [&](Value value) {
      std::string error;
      FailureOr<layout::DeviceBytes> bytes =
          layout::deviceBytes(value, tiling, error);
      return succeeded(bytes) ? bytes->sizes.padded
                              : fusion::logicalBytes(value.getType());
    };
    summary.hbmBytesFusedPadded =
        fusion::functionTraffic(entry, paddedBytes).total();
    entry.walk([&](hlo::FusionOp op) {
      FusionSummary::Fusion item;
      item.name = "fusion." + std::to_string(summary.fusions.size());
      item.kind = kindName(op.getKind());
      std::set<std::string> names;
      for (Operation &inner : op.getBody().front().without_terminator()) {
        item.ops.push_back(instructionName(&inner));
        std::string name = analysis::sourceInfo(inner.getLoc()).opName;
        if (!name.empty())
          names.insert(name);
      }
      item.frameworkOps.assign(names.begin(), names.end());
      fusion::HbmTraffic traffic = fusion::kernelTraffic(op);
      item.readBytes = traffic.readBytes;
      item.writtenBytes = traffic.writtenBytes;
      summary.fusions.push_back(std::move(item));
    });
  }
  summary.peakBytesBefore = before.heapBytes;
  summary.peakBytesAfter = after.heapBytes;
  summary.usedBytesBefore = before.usedBytes();
  summary.usedBytesAfter = after.usedBytes();
  if (original) {
    Block &block = original.getBody().front();
    fusion::FusionPlan plan = fusion::planFusion(block, options);
    summary.largestUnfused = unfusedIntermediates(block, plan);
    llvm::stable_sort(summary.largestUnfused,
                      [](const auto &x, const auto &y) {
                        return x.bytes > y.bytes;
                      });
    if (summary.largestUnfused.size() > largest)
      summary.largestUnfused.resize(largest);
  }
  return summary;
}

void printFusionReport(const FusionSummary &summary,
                       const ReportContext &context, llvm::raw_ostream &os) {
  os << "Fusion report for " << context.moduleName << " (precision "
     << summary.precision;
  if (std::string device = perDeviceText(context); !device.empty())
    os << "; " << device;
  os << "):\n";
  os << "  HBM traffic: " << formatBytes(summary.hbmBytesUnfused)
     << " unfused, " << formatBytes(summary.hbmBytesFused) << " fused ("
     << savedPercent(summary.hbmBytesUnfused, summary.hbmBytesFused)
     << "); hbm_bytes_unfused=" << summary.hbmBytesUnfused
     << " hbm_bytes_fused=" << summary.hbmBytesFused << "\n";
  os << "  HBM traffic as laid out (padded tiles): "
     << formatBytes(summary.hbmBytesFusedPadded)
     << " fused; hbm_bytes_fused_padded=" << summary.hbmBytesFusedPadded
     << "\n";
  os << "  Peak HLO temp: " << formatBytes(summary.peakBytesBefore)
     << " before fusion, " << formatBytes(summary.peakBytesAfter)
     << " after; total used: " << formatBytes(summary.usedBytesBefore)
     << " before, " << formatBytes(summary.usedBytesAfter) << " after\n";
  std::map<std::string, int> byKind;
  for (const auto &f : summary.fusions)
    ++byKind[f.kind];
  os << "  Fusions: " << summary.fusions.size();
  for (const char *kind : {"loop", "input", "output"})
    os << ", " << kind << " " << byKind[kind];
  os << "\n";
  for (const auto &f : summary.fusions) {
    os << "    " << f.name << " " << f.kind << ": reads "
       << formatBytes(f.readBytes) << ", writes "
       << formatBytes(f.writtenBytes) << "\n      ops:";
    for (const std::string &op : f.ops)
      os << " " << op;
    os << "\n";
    if (!f.frameworkOps.empty()) {
      os << "      framework ops:";
      for (const std::string &name : f.frameworkOps)
        os << " " << name;
      os << "\n";
    }
  }
  os << "  Largest intermediates left in HBM:\n";
  if (summary.largestUnfused.empty())
    os << "    (none)\n";
  for (auto [i, v] : llvm::enumerate(summary.largestUnfused)) {
    os << "    " << i + 1 << ". " << formatBytes(v.bytes) << " " << v.shape
       << " " << v.name << " (" << v.opcode << ")";
    if (!v.frameworkOp.empty())
      os << " op_name=\"" << v.frameworkOp << "\"";
    os << ": " << v.reason << "\n";
  }
}

llvm::json::Value fusionReportJson(const FusionSummary &summary,
                                   const ReportContext &context) {
  llvm::json::Array fusions, intermediates;
  for (const auto &f : summary.fusions)
    fusions.push_back(llvm::json::Object{
        {"name", f.name},
        {"kind", f.kind},
        {"ops", llvm::json::Array(f.ops)},
        {"framework_ops", llvm::json::Array(f.frameworkOps)},
        {"hbm_bytes_read", f.readBytes},
        {"hbm_bytes_written", f.writtenBytes}});
  for (const auto &v : summary.largestUnfused)
    intermediates.push_back(llvm::json::Object{{"name", v.name},
                                               {"opcode", v.opcode},
                                               {"shape", v.shape},
                                               {"bytes", v.bytes},
                                               {"framework_op", v.frameworkOp},
                                               {"reason", v.reason}});
  return llvm::json::Object{
      {"module", context.moduleName},
      {"precision", summary.precision},
      {"hbm_bytes_unfused", summary.hbmBytesUnfused},
      {"hbm_bytes_fused", summary.hbmBytesFused},
      {"hbm_bytes_fused_padded", summary.hbmBytesFusedPadded},
      {"peak_bytes_before", summary.peakBytesBefore},
      {"peak_bytes_after", summary.peakBytesAfter},
      {"used_bytes_before", summary.usedBytesBefore},
      {"used_bytes_after", summary.usedBytesAfter},
      {"fusions", std::move(fusions)},
      {"unfused_intermediates", std::move(intermediates)}};
}

} // namespace tpuc::report
