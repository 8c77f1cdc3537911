//===- Reports.cpp - padding and memory reports ---------------------------===//

#include "compiler/report/Reports.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <cinttypes>
#include <cstdio>

using namespace mlir;
using tpuc::analysis::Allocation;
using tpuc::analysis::AllocationKind;
using tpuc::analysis::MemoryPlan;

namespace tpuc::report {

std::string formatBytes(int64_t bytes) {
  // tsl::strings::HumanReadableNumBytes: integer steps of 1024 while at
  // least 1M remain, then one decimal for K and two otherwise.
  const char *sign = bytes < 0 ? "-" : "";
  uint64_t n = bytes < 0 ? 0 - static_cast<uint64_t>(bytes) : bytes;
  char buf[32];
  if (n < 1024) {
    std::snprintf(buf, sizeof(buf), "%s%" PRIu64 "B", sign, n);
    return buf;
  }
  const char *unit = "KMGTPE";
  while (n >= 1024 * 1024) {
    n /= 1024;
    ++unit;
  }
  std::snprintf(buf, sizeof(buf), *unit == 'K' ? "%s%.1f%c" : "%s%.2f%c",
                sign, n / 1024.0, *unit);
  return buf;
}

int64_t moduleDeviceCount(mlir::ModuleOp module) {
  int64_t devices = 1;
  for (llvm::StringRef name : {"hlo.replica_count", "hlo.num_partitions"})
    if (auto count = module->getAttrOfType<IntegerAttr>(name))
      devices *= std::max<int64_t>(count.getInt(), 1);
  return devices;
}

std::string perDeviceText(const ReportContext &context) {
  if (context.devices <= 1)
    return "";
  std::string text = "per device, 1 of " + std::to_string(context.devices);
  if (!context.slice.empty())
    text += " on " + context.slice;
  return text;
}

namespace {

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f%%", 100.0 * fraction);
  return buf;
}

std::string expansion(const Allocation &a) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1fx",
                a.unpaddedBytes ? double(a.paddedBytes) / a.unpaddedBytes
                                : 1.0);
  return buf;
}

/// op_type="OneHot" op_name="model/loss/one_hot", as in XLA's metadata.
std::string operatorText(const Allocation &a) {
  analysis::SourceInfo info = analysis::sourceInfo(a.value.getLoc());
  std::string out;
  if (!info.opType.empty())
    out += "op_type=\"" + info.opType + "\"";
  if (!info.opName.empty())
    out += (out.empty() ? "" : " ") + ("op_name=\"" + info.opName + "\"");
  return out;
}

/// XLA's label: "%iota.2 = s32[...]{...} iota(), metadata={...}".
std::string xlaLabel(const Allocation &a) {
  std::string label = "%" + a.name + " = " + a.shape + " ";
  if (Operation *op = a.value.getDefiningOp()) {
    std::string opcode = op->getName().stripDialect().str();
    std::replace(opcode.begin(), opcode.end(), '_', '-');
    label += opcode + "(";
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      label += i ? ", %" : "%";
      label += analysis::sourceInfo(operand.getLoc()).instruction;
    }
    label += ")";
  } else {
    label += "parameter()";
  }
  if (std::string meta = operatorText(a); !meta.empty())
    label += ", metadata={" + meta + "}";
  constexpr size_t kMaxLabel = 256;
  if (label.size() > kMaxLabel)
    label = label.substr(0, kMaxLabel) + "...";
  return label;
}

/// Program allocations (not arguments), largest first; ties by start, name.
std::vector<const Allocation *> programAllocations(const MemoryPlan &plan) {
  std::vector<const Allocation *> list;
  for (const Allocation &a : plan.allocations)
    if (a.kind != AllocationKind::Parameter)
      list.push_back(&a);
  llvm::stable_sort(list, [](const Allocation *x, const Allocation *y) {
    if (x->paddedBytes != y->paddedBytes)
      return x->paddedBytes > y->paddedBytes;
    if (x->start != y->start)
      return x->start < y->start;
    return x->name < y->name;
  });
  return list;
}

/// Bytes of `a` if stored with `minor` and `secondMinor` as the two
/// minor-most dims (the rest major to minor in order) and default tiles.
struct Alternative {
  layout::TiledLayout layout;
  int64_t padded = 0;
};
std::optional<Alternative> bestAlternative(const Allocation &a,
                                           const target::TilingRules &rules) {
  auto type = cast<RankedTensorType>(a.value.getType());
  int64_t rank = type.getRank();
  std::optional<Alternative> best;
  for (int64_t minor = 0; minor < rank; ++minor) {
    for (int64_t second = 0; second < rank; ++second) {
      if (second == minor)
        continue;
      layout::TiledLayout candidate;
      candidate.minorToMajor = {minor, second};
      for (int64_t d = rank - 1; d >= 0; --d)
        if (d != minor && d != second)
          candidate.minorToMajor.push_back(d);
      candidate = layout::withDefaultTiles(type, candidate, rules);
      std::string error;
      FailureOr<layout::ByteSizes> sizes =
          layout::byteSizes(type, candidate, error);
      if (succeeded(sizes) && (!best || sizes->padded < best->padded))
        best = Alternative{candidate, sizes->padded};
    }
  }
  return best;
}

/// Who can give an allocation the better layout: the program (entry
/// parameters and results keep the module's entry_computation_layout),
/// `--layout=auto` when the compile preserved layouts, or nobody without a
/// change of the program (layout assignment kept it for an op that takes
/// only this layout).
const char *betterLayoutHint(const Allocation &a, llvm::StringRef layoutMode) {
  if (a.kind == AllocationKind::Parameter)
    return "an entry parameter keeps the layout of the module's "
           "entry_computation_layout: pass it in this layout";
  if (a.kind == AllocationKind::Output)
    return "an entry result keeps the layout of the module's "
           "entry_computation_layout: ask for it in this layout";
  if (layoutMode == "preserve")
    return "tpuc compile --layout=auto assigns such layouts";
  return "layout assignment kept this one: an op producing or reading it "
         "takes only this layout";
}

void printAdvice(const Allocation &a, const target::TilingRules &rules,
                 llvm::StringRef layoutMode, llvm::raw_ostream &os) {
  auto type = cast<RankedTensorType>(a.value.getType());
  const layout::TiledLayout &l = a.layout;
  if (l.tiles.empty() || l.minorToMajor.empty())
    return;
  const layout::Tile &tile = l.tiles.front();
  // The first tile pads the minor-most physical dims, one tile dim each.
  for (size_t k = 0; k < tile.size() && k < l.minorToMajor.size(); ++k) {
    int64_t dim = l.minorToMajor[k];
    int64_t size = type.getDimSize(dim);
    int64_t t = tile[tile.size() - 1 - k];
    int64_t padded = (size + t - 1) / t * t;
    if (padded == size)
      continue;
    os << "     dim " << dim << " (" << size << ") is the "
       << (k == 0 ? "minor (lane)" : "second-minor (sublane)")
       << " dim, padded to " << padded << ": ";
    if (k == 0 && dim == 0 && type.getRank() >= 2)
      os << "make the batch a multiple of " << t << " (e.g. "
         << padded << ")\n";
    else if (k == 0)
      os << "make it a multiple of " << t << " or move a larger dim minor\n";
    else
      os << "make it (the features) a multiple of " << t << " (e.g. "
         << padded << ")\n";
  }
  if (type.getRank() < 2)
    return;
  std::optional<Alternative> alt = bestAlternative(a, rules);
  if (alt && alt->padded < a.paddedBytes && alt->layout != a.layout)
    os << "     layout " << layout::printLayout(alt->layout) << " needs "
       << formatBytes(alt->padded) << " instead of "
       << formatBytes(a.paddedBytes) << " (saves "
       << formatBytes(a.paddedBytes - alt->padded) << "); "
       << betterLayoutHint(a, layoutMode) << "\n";
}

} // namespace

void printPaddingReport(const MemoryPlan &plan, const ReportContext &context,
                        llvm::raw_ostream &os) {
  std::vector<const Allocation *> list;
  int64_t unpadded = 0, padded = 0;
  for (const Allocation &a : plan.allocations) {
    list.push_back(&a);
    unpadded += a.unpaddedBytes;
    padded += a.paddedBytes;
  }
  auto extra = [](const Allocation *a) {
    return a->paddedBytes - a->unpaddedBytes;
  };
  llvm::stable_sort(list, [&](const Allocation *x, const Allocation *y) {
    if (extra(x) != extra(y))
      return extra(x) > extra(y);
    return x->name < y->name;
  });
  os << "Padding report for " << context.moduleName << " on "
     << plan.targetName << " (layout=" << context.layoutMode;
  if (std::string device = perDeviceText(context); !device.empty())
    os << "; " << device;
  os << "):\n";
  os << "  " << list.size() << " buffers: unpadded " << formatBytes(unpadded)
     << ", padded " << formatBytes(padded) << ", padding "
     << formatBytes(padded - unpadded) << " ("
     << percent(padded ? double(unpadded) / padded : 1.0)
     << " utilization)\n";
  os << llvm::format("  %-4s %-9s %-9s %-9s %-6s %-11s %s\n", "#", "Padded",
                     "Unpadded", "Extra", "Expan", "Type", "Buffer / Shape / "
                     "Operator");
  for (auto [i, a] : llvm::enumerate(list)) {
    os << llvm::format("  %-4zu %-9s %-9s %-9s %-6s %-11s ", i + 1,
                       formatBytes(a->paddedBytes).c_str(),
                       formatBytes(a->unpaddedBytes).c_str(),
                       formatBytes(extra(a)).c_str(), expansion(*a).c_str(),
                       analysis::allocationKindName(a->kind))
       << a->name << " " << a->shape;
    if (std::string op = operatorText(*a); !op.empty())
      os << " " << op;
    os << "\n";
  }
  // Advice for the big offenders: 5% of all padding or more, top 5.
  int64_t totalExtra = padded - unpadded;
  size_t shown = 0;
  for (const Allocation *a : list) {
    if (shown == 5 || extra(a) == 0 || extra(a) * 20 < totalExtra)
      break;
    if (shown++ == 0)
      os << "Advice:\n";
    os << "  " << shown << ". " << a->name << " " << a->shape << ": "
       << formatBytes(extra(a)) << " of padding (" << expansion(*a)
       << " expansion)";
    if (std::string op = operatorText(*a); !op.empty())
      os << ", " << op;
    os << "\n";
    auto target = target::lookupTarget(plan.targetName);
    printAdvice(*a, target.ok() ? target->tiling : target::TilingRules{},
                context.layoutMode, os);
  }
}

std::string outOfMemoryMessage(const MemoryPlan &plan,
                               const ReportContext &context) {
  std::string device = perDeviceText(context);
  return "Ran out of memory in memory space hbm. Used " +
         formatBytes(plan.usedBytes()) + " of " +
         formatBytes(plan.usableBytes()) + " hbm" +
         (device.empty() ? "" : " (" + device + ")") +
         ". Exceeded hbm capacity by " +
         formatBytes(plan.usedBytes() - plan.usableBytes()) + ".";
}

void printMemoryReport(const MemoryPlan &plan, const ReportContext &context,
                       llvm::raw_ostream &os) {
  if (std::string device = perDeviceText(context); !device.empty())
    os << "Memory report, " << device
       << " (every device runs this program on same-shaped shards):\n";
  os << "Total hbm usage >= "
     << formatBytes(plan.reservedBytes + plan.usedBytes()) << ":\n"
     << "    reserved " << formatBytes(plan.reservedBytes) << "\n"
     << "    program " << formatBytes(plan.programBytes()) << "\n"
     << "    arguments " << formatBytes(plan.argumentBytes) << "\n"
     << "Output size " << formatBytes(plan.outputBytes) << "; shares "
     << formatBytes(plan.outputSharedBytes) << " with arguments.\n"
     << "Program hbm requirement " << formatBytes(plan.programBytes())
     << ":\n"
     << "    global " << formatBytes(plan.globalBytes) << "\n"
     << "    scoped 0B\n";
  int64_t fragmentation = plan.heapBytes - plan.lowerBoundBytes;
  os << "    HLO temp " << formatBytes(plan.heapBytes) << " ("
     << percent(plan.lowerBoundBytes
                    ? double(plan.unpaddedPeakBytes) / plan.lowerBoundBytes
                    : 1.0)
     << " utilization: Unpadded (" << formatBytes(plan.unpaddedPeakBytes)
     << ") Padded (" << formatBytes(plan.lowerBoundBytes) << "), "
     << percent(plan.lowerBoundBytes
                    ? double(fragmentation) / plan.lowerBoundBytes
                    : 0.0)
     << " fragmentation (" << formatBytes(fragmentation) << "))\n";
  if (plan.remat.values)
    os << "    rematerialized " << plan.remat.values << " values ("
       << llvm::join(plan.remat.names, ", ") << "): "
       << formatBytes(plan.remat.bytes) << " less live at the peaks, +"
       << formatBytes(plan.remat.trafficBytes) << " of HBM traffic\n";
  os << "Largest program allocations in hbm:\n";
  std::vector<const Allocation *> list = programAllocations(plan);
  for (auto [i, a] : llvm::enumerate(list)) {
    if (i == context.largest)
      break;
    os << "  " << i + 1 << ". Size: " << formatBytes(a->paddedBytes) << "\n";
    if (std::string op = operatorText(*a); !op.empty())
      os << "     Operator: " << op << "\n";
    os << "     Shape: " << a->shape << "\n"
       << "     Unpadded size: " << formatBytes(a->unpaddedBytes) << "\n";
    if (a->paddedBytes > a->unpaddedBytes)
      os << "     Extra memory due to padding: "
         << formatBytes(a->paddedBytes - a->unpaddedBytes) << " ("
         << expansion(*a) << " expansion)\n";
    os << "     XLA label: " << xlaLabel(*a) << "\n"
       << "     Allocation type: " << analysis::allocationKindName(a->kind)
       << "\n"
       << "     ==========================\n";
  }
  if (const std::optional<ExecutableHbm> &exe = context.executable) {
    int64_t scratch = exe->usedBytes - plan.usedBytes();
    os << "Executable hbm usage " << formatBytes(exe->usedBytes) << " ("
       << (scratch >= 0 ? "+" : "-") << formatBytes(std::abs(scratch))
       << " against the plan): arguments " << formatBytes(exe->argumentBytes)
       << ", global " << formatBytes(exe->constantBytes) << ", heap "
       << formatBytes(exe->heapBytes) << "; " << exe->plannedBuffers
       << " buffers at the plan's offsets, " << exe->unplannedBuffers
       << " placed around them\n";
    for (auto [i, b] : llvm::enumerate(exe->largestUnplanned)) {
      if (i == context.largest)
        break;
      if (i == 0)
        os << "Largest executable buffers outside the plan (code generator "
              "scratch):\n";
      os << "  " << i + 1 << ". " << formatBytes(b.bytes) << " " << b.name
         << " (steps " << b.firstStep << ".." << b.lastStep << ")\n";
    }
  }
}

llvm::json::Value reportJson(const MemoryPlan &plan,
                             const ReportContext &context) {
  llvm::json::Array buffers;
  int64_t unpadded = 0, padded = 0;
  for (const Allocation &a : plan.allocations) {
    analysis::SourceInfo info = analysis::sourceInfo(a.value.getLoc());
    unpadded += a.unpaddedBytes;
    padded += a.paddedBytes;
    buffers.push_back(llvm::json::Object{
        {"name", a.name},
        {"op_name", info.opName},
        {"op_type", info.opType},
        {"shape", a.shape},
        {"unpadded_bytes", a.unpaddedBytes},
        {"padded_bytes", a.paddedBytes},
        {"offset", a.offset},
        {"live_range", llvm::json::Array{a.start, a.end}},
        {"allocation_type", analysis::allocationKindName(a.kind)},
    });
  }
  llvm::json::Object json{
      {"module", context.moduleName},
      {"target", plan.targetName},
      {"layout", context.layoutMode},
      {"devices", llvm::json::Object{{"count", context.devices},
                                      {"per_device", context.devices > 1},
                                      {"slice", context.slice}}},
      {"totals",
       llvm::json::Object{
           {"peak_bytes", plan.heapBytes},
           {"unpadded_peak_bytes", plan.unpaddedPeakBytes},
           {"lower_bound_bytes", plan.lowerBoundBytes},
           {"fragmentation_bytes", plan.heapBytes - plan.lowerBoundBytes},
           {"heap_ordering", plan.heapOrdering},
           {"peak_step", plan.peakStep},
           {"num_steps", plan.numSteps},
           {"argument_bytes", plan.argumentBytes},
           {"global_bytes", plan.globalBytes},
           {"output_bytes", plan.outputBytes},
           {"output_shared_bytes", plan.outputSharedBytes},
           {"program_bytes", plan.programBytes()},
           {"used_bytes", plan.usedBytes()},
           {"capacity_bytes", plan.capacityBytes},
           {"reserved_bytes", plan.reservedBytes},
           {"limit_bytes", plan.usableBytes()},
           {"fits", plan.fits()},
           {"total_unpadded_bytes", unpadded},
           {"total_padded_bytes", padded},
       }},
      {"buffers", std::move(buffers)},
  };
  if (plan.remat.values)
    json["rematerialized"] = llvm::json::Object{
        {"values", plan.remat.values},
        {"bytes", plan.remat.bytes},
        {"traffic_bytes", plan.remat.trafficBytes},
        {"names", llvm::json::Array(plan.remat.names)},
    };
  if (const std::optional<ExecutableHbm> &exe = context.executable) {
    llvm::json::Array scratch;
    for (const ExecutableHbm::Buffer &b : exe->largestUnplanned)
      scratch.push_back(llvm::json::Object{
          {"name", b.name},
          {"bytes", b.bytes},
          {"live_range", llvm::json::Array{b.firstStep, b.lastStep}}});
    json["executable"] = llvm::json::Object{
        {"used_bytes", exe->usedBytes},
        {"argument_bytes", exe->argumentBytes},
        {"global_bytes", exe->constantBytes},
        {"heap_bytes", exe->heapBytes},
        {"planned_buffers", exe->plannedBuffers},
        {"unplanned_buffers", exe->unplannedBuffers},
        {"unplanned", std::move(scratch)},
    };
  }
  return json;
}

} // namespace tpuc::report
