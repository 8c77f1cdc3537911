//===- StepModel.cpp - analytic step time of one device -------------------===//

#include "compiler/report/StepModel.h"

#include "compiler/analysis/BufferAssignment.h"
#include "compiler/fusion/HbmTraffic.h"
#include "compiler/interpreter/Collectives.h"
#include "compiler/layout/TiledLayout.h"
#include "dialects/hlo/HloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

using namespace mlir;

namespace tpuc::report {

int64_t StepModel::sentBytes() const {
  int64_t total = 0;
  for (const CollectiveTraffic &c : collectives)
    total += fusion::saturatingMultiply(c.sentBytes, c.runs);
  return total;
}

int64_t StepModel::receivedBytes() const {
  int64_t total = 0;
  for (const CollectiveTraffic &c : collectives)
    total += fusion::saturatingMultiply(c.receivedBytes, c.runs);
  return total;
}

namespace {

int64_t elements(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() ? tensor.getNumElements() : 0;
}

/// "f32[64,128]".
std::string shapeText(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return "tuple";
  std::string text = layout::xlaTypeName(tensor.getElementType()) + "[";
  llvm::raw_string_ostream os(text);
  llvm::interleave(tensor.getShape(), os, ",");
  os << "]";
  return text;
}

/// Members of one replica group: the first row's ids other than the -1
/// padding; XLA's empty list `{}` is every device.
int64_t groupSize(DenseIntElementsAttr groups, int64_t devices) {
  auto type = cast<ShapedType>(groups.getType());
  if (type.getRank() != 2 || type.getNumElements() == 0)
    return devices;
  int64_t size = 0;
  auto values = groups.getValues<int64_t>();
  for (int64_t i = 0, e = type.getDimSize(1); i < e; ++i)
    size += values[i] >= 0;
  return std::max<int64_t>(size, 1);
}

/// Where the devices of a slice sit: the cores of a chip (the first
/// coordinate, when a chip has several devices), then the chip's place on
/// each ICI dimension (chip c: the first dimension varies fastest).
struct Torus {
  std::vector<int64_t> sizes;
  std::vector<bool> wraps;

  explicit Torus(const target::SliceSpec &slice) {
    int64_t perChip = slice.chips > 0 ? slice.devices / slice.chips : 1;
    if (perChip > 1) {
      sizes.push_back(perChip);
      wraps.push_back(false);
    }
    for (int64_t size : slice.topology) {
      sizes.push_back(size);
      wraps.push_back(slice.wraparound);
    }
  }
  std::vector<int64_t> coordinates(int64_t device) const {
    std::vector<int64_t> at;
    for (int64_t size : sizes) {
      at.push_back(device % size);
      device /= size;
    }
    return at;
  }
  /// Links between positions `a` and `b` of dimension `k`.
  int64_t distance(size_t k, int64_t a, int64_t b) const {
    int64_t d = std::abs(a - b);
    return wraps[k] ? std::min(d, sizes[k] - d) : d;
  }
};

/// One ring of a collective: `members` devices on one torus dimension,
/// `hops` links apart at most (the ring's longest step).
struct Ring {
  int64_t members;
  int64_t hops;
};

/// The rings a group runs on: one per torus dimension the group spans when
/// it is a full grid of the torus (its members differ along dimensions
/// whose values they take in every combination), ordered from the fastest
/// dimension; otherwise one ring of every member, one hop apart.
std::vector<Ring> ringsOf(const Torus &torus, ArrayRef<int64_t> group) {
  std::vector<Ring> single = {{int64_t(group.size()), 1}};
  std::vector<std::vector<int64_t>> values(torus.sizes.size());
  for (int64_t device : group) {
    std::vector<int64_t> at = torus.coordinates(device);
    for (size_t k = 0; k < at.size(); ++k)
      if (!llvm::is_contained(values[k], at[k]))
        values[k].push_back(at[k]);
  }
  std::vector<Ring> rings;
  int64_t product = 1;
  for (size_t k = 0; k < values.size(); ++k) {
    auto &v = values[k];
    if (v.size() < 2)
      continue;
    llvm::sort(v);
    int64_t hops = 0;
    for (size_t i = 0; i + 1 < v.size(); ++i)
      hops = std::max(hops, torus.distance(k, v[i], v[i + 1]));
    // A torus closes the ring with its wraparound link; a mesh dimension
    // folds it (out through every other member, back through the others),
    // so its longest step spans two gaps.
    if (v.size() > 2 && torus.wraps[k])
      hops = std::max(hops, torus.distance(k, v.back(), v.front()));
    else if (v.size() > 2)
      hops *= 2;
    rings.push_back({int64_t(v.size()), std::max<int64_t>(hops, 1)});
    product *= v.size();
  }
  if (product != static_cast<int64_t>(group.size()) || rings.empty())
    return single;
  return rings;
}

/// The devices of `op`'s group of device 0 on the slice's torus, or none
/// when the program's devices are not the slice's.
std::vector<int64_t> firstGroup(Operation *op, int64_t devices,
                                const target::SliceSpec *slice) {
  if (!slice || isa<hlo::CollectivePermuteOp>(op))
    return {};
  ModuleOp module = op->getParentOfType<ModuleOp>();
  interpreter::DeviceGrid grid;
  if (auto r = module->getAttrOfType<IntegerAttr>("hlo.replica_count"))
    grid.replicaCount = r.getInt();
  if (auto p = module->getAttrOfType<IntegerAttr>("hlo.num_partitions"))
    grid.numPartitions = p.getInt();
  if (grid.numDevices() < 2 || grid.numDevices() != devices ||
      devices > slice->devices) {
    // The module does not say how its ids map to devices (the count comes
    // from its groups): the first group's ids are the devices.
    auto groups = op->getAttrOfType<DenseIntElementsAttr>("replica_groups");
    std::vector<int64_t> first;
    auto type = groups ? cast<ShapedType>(groups.getType()) : ShapedType();
    if (!groups || type.getRank() != 2 || type.getNumElements() == 0) {
      for (int64_t d = 0; d < devices; ++d)
        first.push_back(d);
      return first;
    }
    auto values = groups.getValues<int64_t>();
    for (int64_t i = 0, e = type.getDimSize(1); i < e; ++i)
      if (values[i] >= 0)
        first.push_back(values[i]);
    return first;
  }
  // Groups that do not fit the grid were reported by the verifier; here
  // they only mean no placement.
  ScopedDiagnosticHandler quiet(op->getContext(),
                                [](Diagnostic &) { return success(); });
  FailureOr<std::vector<int64_t>> group =
      interpreter::collectiveParticipants(op, grid, 0);
  return succeeded(group) ? *group : std::vector<int64_t>();
}

/// The ring model of one collective (docs/reports.md, "Step model"): the
/// group runs on the rings of the torus dimensions it spans, one phase per
/// ring; each ring's links carry data both ways (two counter-rotating
/// rings, each with half the data), so a step moving `b` bytes per device
/// over `h` links takes `h * latency + b / (2 * link bandwidth)`.
void modelCollective(Operation *op, int64_t devices,
                     const target::SliceSpec *slice, CollectiveTraffic &c) {
  int64_t bytes = 0;
  for (Value operand : op->getOperands())
    bytes += fusion::logicalBytes(operand.getType());
  c.operandBytes = bytes;
  c.shape = op->getNumOperands() == 1
                ? shapeText(op->getOperand(0).getType())
                : std::to_string(op->getNumOperands()) + " operands";
  int64_t n = 1;
  double steps = 0, stepBytes = 0;
  if (auto allReduce = dyn_cast<hlo::AllReduceOp>(op)) {
    // Reduce-scatter then all-gather: 2(n-1) steps of B/n.
    n = groupSize(allReduce.getReplicaGroups(), devices);
    steps = 2.0 * (n - 1);
    stepBytes = double(bytes) / n;
  } else if (auto gather = dyn_cast<hlo::AllGatherOp>(op)) {
    // n-1 steps, each forwarding one device's block (the operand).
    n = groupSize(gather.getReplicaGroups(), devices);
    steps = n - 1;
    stepBytes = bytes;
  } else if (auto scatter = dyn_cast<hlo::ReduceScatterOp>(op)) {
    n = groupSize(scatter.getReplicaGroups(), devices);
    steps = n - 1;
    stepBytes = double(bytes) / n;
  } else if (auto toAll = dyn_cast<hlo::AllToAllOp>(op)) {
    // Each device keeps one block of n and sends the others.
    n = groupSize(toAll.getReplicaGroups(), devices);
    steps = n - 1;
    stepBytes = double(bytes) / n;
  } else if (auto permute = dyn_cast<hlo::CollectivePermuteOp>(op)) {
    // One step (a neighbour's shard or halo): the whole operand once.
    n = permute.getSourceTargetPairs().getNumElements() / 2;
    steps = n > 0 ? 1 : 0;
    stepBytes = bytes;
  } else if (auto broadcast = dyn_cast<hlo::CollectiveBroadcastOp>(op)) {
    // Pipelined along the ring: the operand once, n-1 hop latencies.
    n = groupSize(broadcast.getReplicaGroups(), devices);
    steps = n - 1;
    stepBytes = n > 1 ? double(bytes) / (n - 1) : 0;
  }
  c.groupSize = n; // for collective-permute: the pairs
  c.sentBytes = c.receivedBytes = static_cast<int64_t>(steps * stepBytes);
  if (!slice || steps <= 0)
    return;
  double latency = slice->iciHopLatencySeconds,
         bandwidth = 2 * slice->iciBytesPerSecondPerLink;
  // A program on fewer devices than the slice has runs on its first ones.
  Torus torus(*slice);
  if (auto permute = dyn_cast<hlo::CollectivePermuteOp>(op)) {
    // The step takes as long as the farthest pair's hops.
    int64_t hops = 1;
    auto pairs = permute.getSourceTargetPairs().getValues<int64_t>();
    for (int64_t i = 0; i + 1 < int64_t(pairs.size()); i += 2) {
      std::vector<int64_t> a = torus.coordinates(pairs[i]),
                           b = torus.coordinates(pairs[i + 1]);
      int64_t h = 0;
      for (size_t k = 0; k < a.size(); ++k)
        h += torus.distance(k, a[k], b[k]);
      hops = std::max(hops, h);
    }
    c.seconds = hops * latency + stepBytes / bandwidth;
    return;
  }
  std::vector<int64_t> group = firstGroup(op, devices, slice);
  std::vector<Ring> rings = {{n, 1}};
  if (static_cast<int64_t>(group.size()) == n &&
      llvm::all_of(group, [&](int64_t d) { return d < slice->devices; }))
    rings = ringsOf(torus, group);
  if (rings.size() == 1 || isa<hlo::CollectiveBroadcastOp>(op)) {
    c.seconds = steps * (rings[0].hops * latency + stepBytes / bandwidth);
    return;
  }
  // One phase per ring. Reductions shrink the data by each ring's size
  // (reduce-scatter phases, then all-gather phases back for an
  // all-reduce); an all-gather grows each phase's blocks; an all-to-all
  // sends (m-1)/m of the operand in each phase.
  double seconds = 0, data = bytes;
  auto phase = [&](const Ring &ring, double perStep) {
    seconds += (ring.members - 1) * (ring.hops * latency + perStep / bandwidth);
  };
  if (isa<hlo::AllReduceOp, hlo::ReduceScatterOp>(op)) {
    for (const Ring &ring : rings) {
      phase(ring, data / ring.members);
      data /= ring.members;
    }
    if (isa<hlo::AllReduceOp>(op))
      seconds *= 2;
  } else if (isa<hlo::AllGatherOp>(op)) {
    for (const Ring &ring : rings) {
      phase(ring, data);
      data *= ring.members;
    }
  } else {
    for (const Ring &ring : rings)
      phase(ring, data / ring.members);
  }
  c.seconds = seconds;
}

bool isCollective(Operation *op) {
  return isa<hlo::AllReduceOp, hlo::AllGatherOp, hlo::ReduceScatterOp,
             hlo::AllToAllOp, hlo::CollectivePermuteOp,
             hlo::CollectiveBroadcastOp>(op);
}

/// Ops that move or name data but compute nothing on the VPU.
bool isFree(Operation *op) {
  return isa<hlo::ConstantOp, hlo::TupleOp, hlo::GetTupleElementOp,
             hlo::ReturnOp, hlo::PartitionIdOp, hlo::ReplicaIdOp, hlo::FusionOp,
             hlo::WhileOp, hlo::ConditionalOp, hlo::CallOp, func::ReturnOp>(
             op) ||
         fusion::isBitcastReshape(op);
}

std::string seconds(double s) {
  char buf[32];
  if (s >= 1)
    std::snprintf(buf, sizeof(buf), "%.3f s", s);
  else if (s >= 1e-3)
    std::snprintf(buf, sizeof(buf), "%.3f ms", s * 1e3);
  else
    std::snprintf(buf, sizeof(buf), "%.3f us", s * 1e6);
  return buf;
}

std::string share(double part, double whole) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%.1f%%", whole > 0 ? 100 * part / whole : 0);
  return buf;
}

} // namespace

StepModel modelStep(ModuleOp module, const target::TargetSpec &spec,
                    const target::SliceSpec *slice) {
  StepModel model;
  model.devices = moduleDeviceCount(module);
  func::FuncOp entry;
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal()) {
      entry = func;
      break;
    }
  if (!entry)
    return model;
  entry.walk([&](Operation *op) {
    // Scalar bodies of reductions, sorts, scatters: counted with their op.
    Operation *parent = op->getParentOp();
    if (!isa<func::FuncOp, hlo::FusionOp, hlo::WhileOp, hlo::ConditionalOp>(
            parent))
      return;
    if (isCollective(op)) {
      CollectiveTraffic c;
      c.name = analysis::sourceInfo(op->getLoc()).instruction;
      c.opcode = op->getName().stripDialect().str();
      std::replace(c.opcode.begin(), c.opcode.end(), '_', '-');
      if (c.name.empty())
        c.name = c.opcode;
      modelCollective(op, model.devices, slice, c);
      c.runs = fusion::runsPerStep(op);
      model.collectives.push_back(std::move(c));
      return;
    }
    if (auto dot = dyn_cast<hlo::DotGeneralOp>(op)) {
      int64_t contracted = 1;
      auto lhs = cast<RankedTensorType>(dot.getLhs().getType());
      for (int64_t d : dot.getDotDimensionNumbers().getLhsContracting())
        contracted *= lhs.getDimSize(d);
      model.mxuFlops += fusion::saturatingMultiply(
          fusion::runsPerStep(op), 2 * elements(dot.getType()) * contracted);
      return;
    }
    if (auto conv = dyn_cast<hlo::ConvolutionOp>(op)) {
      auto kernel = cast<RankedTensorType>(conv.getRhs().getType());
      int64_t outputFeatures = kernel.getDimSize(
          conv.getDimensionNumbers().getKernelOutputFeature());
      model.mxuFlops += fusion::saturatingMultiply(
          fusion::runsPerStep(op),
          2 * elements(conv.getType()) *
              (elements(kernel) / std::max<int64_t>(outputFeatures, 1)));
      return;
    }
    if (isFree(op))
      return;
    int64_t work = 0;
    for (Type type : op->getResultTypes())
      work = std::max(work, elements(type));
    for (Type type : op->getOperandTypes())
      work = std::max(work, elements(type));
    model.vectorElements +=
        fusion::saturatingMultiply(fusion::runsPerStep(op), work);
  });
  model.hbmBytes = fusion::functionTraffic(entry).total();
  const exe::Target &t = spec.machine;
  double vectorPerSecond =
      1024.0 * t.clock_hz() * target::coresPerDevice(t); // a vreg a cycle
  model.computeSeconds =
      (spec.peakFlops > 0 ? model.mxuFlops / spec.peakFlops : 0) +
      (vectorPerSecond > 0 ? model.vectorElements / vectorPerSecond : 0);
  model.hbmSeconds = t.hbm_bytes_per_second() > 0
                         ? model.hbmBytes / double(t.hbm_bytes_per_second())
                         : 0;
  for (const CollectiveTraffic &c : model.collectives)
    model.iciSeconds += c.runs * c.seconds;
  return model;
}

void printStepReport(const StepModel &model, const ReportContext &context,
                     llvm::raw_ostream &os) {
  std::string device = perDeviceText(context);
  os << "Step model for " << context.moduleName
     << (device.empty() ? "" : " (" + device + ")") << ":\n";
  double step = model.stepSeconds();
  os << "  step " << seconds(step) << " = max(compute "
     << seconds(model.computeSeconds) << ", HBM " << seconds(model.hbmSeconds)
     << ") + ICI " << seconds(model.iciSeconds) << " (ICI "
     << share(model.iciSeconds, step) << ")\n";
  os << "  compute: " << model.mxuFlops << " MXU FLOPs, "
     << model.vectorElements
     << " vector elements; HBM: " << formatBytes(model.hbmBytes) << " ("
     << model.hbmBytes << " B)\n";
  os << "  collectives: " << model.collectives.size() << ", each device sends "
     << formatBytes(model.sentBytes()) << " (" << model.sentBytes()
     << " B) and receives " << formatBytes(model.receivedBytes()) << " ("
     << model.receivedBytes() << " B)\n";
  if (model.collectives.empty())
    return;
  os << llvm::format("  %-4s %-20s %-18s %-18s %-6s %-10s %-10s %s\n", "#",
                     "Collective", "Opcode", "Operand", "Group", "Sent",
                     "Received", "Time");
  for (auto [i, c] : llvm::enumerate(model.collectives)) {
    // A collective in a counted loop: one run's figures, and the runs.
    std::string time = seconds(c.seconds);
    if (c.runs > 1)
      time += " x " + std::to_string(c.runs) + " runs";
    os << llvm::format(
        "  %-4zu %-20s %-18s %-18s %-6lld %-10s %-10s %s\n", i + 1,
        c.name.c_str(), c.opcode.c_str(), c.shape.c_str(),
        static_cast<long long>(c.groupSize), formatBytes(c.sentBytes).c_str(),
        formatBytes(c.receivedBytes).c_str(), time.c_str());
  }
}

llvm::json::Value stepReportJson(const StepModel &model) {
  llvm::json::Array collectives;
  for (const CollectiveTraffic &c : model.collectives)
    collectives.push_back(llvm::json::Object{
        {"name", c.name},
        {"opcode", c.opcode},
        {"shape", c.shape},
        {"group_size", c.groupSize},
        {"operand_bytes", c.operandBytes},
        {"sent_bytes", c.sentBytes},
        {"received_bytes", c.receivedBytes},
        {"seconds", c.seconds},
        {"runs", c.runs},
    });
  return llvm::json::Object{
      {"devices", model.devices},
      {"step_seconds", model.stepSeconds()},
      {"compute_seconds", model.computeSeconds},
      {"hbm_seconds", model.hbmSeconds},
      {"ici_seconds", model.iciSeconds},
      {"mxu_flops", model.mxuFlops},
      {"vector_elements", model.vectorElements},
      {"hbm_bytes", model.hbmBytes},
      {"ici_sent_bytes", model.sentBytes()},
      {"ici_received_bytes", model.receivedBytes()},
      {"collectives", std::move(collectives)},
  };
}

void printScalingTable(llvm::ArrayRef<ScalingRow> rows,
                       const ReportContext &context, llvm::raw_ostream &os) {
  os << "Scaling of " << context.moduleName
     << (context.slice.empty() ? "" : " on " + context.slice)
     << " (data parallel, per device):\n";
  os << llvm::format("  %-8s %-10s %-5s %-12s %-12s %-12s %-12s %s\n",
                     "Devices", "HBM used", "Fits", "Step", "Compute", "HBM",
                     "ICI", "ICI share");
  for (const ScalingRow &row : rows) {
    if (!row.error.empty()) {
      os << llvm::format("  %-8lld ", static_cast<long long>(row.devices))
         << "not measured: " << row.error << "\n";
      continue;
    }
    const StepModel &m = row.step;
    os << llvm::format(
        "  %-8lld %-10s %-5s %-12s %-12s %-12s %-12s %s\n",
        static_cast<long long>(row.devices), formatBytes(row.usedBytes).c_str(),
        row.fits ? "yes" : "no", seconds(m.stepSeconds()).c_str(),
        seconds(m.computeSeconds).c_str(), seconds(m.hbmSeconds).c_str(),
        seconds(m.iciSeconds).c_str(),
        share(m.iciSeconds, m.stepSeconds()).c_str());
  }
}

llvm::json::Value scalingJson(llvm::ArrayRef<ScalingRow> rows) {
  llvm::json::Array array;
  for (const ScalingRow &row : rows) {
    llvm::json::Object object{{"devices", row.devices}};
    if (!row.error.empty()) {
      object["error"] = row.error;
    } else {
      object["used_bytes"] = row.usedBytes;
      object["fits"] = row.fits;
      object["step"] = stepReportJson(row.step);
    }
    array.push_back(std::move(object));
  }
  return array;
}

} // namespace tpuc::report
