//===- TargetsCommand.cpp - `tpuc targets` ---------------------------------===//

#include "driver/commands/Commands.h"
#include "compiler/report/Reports.h"
#include "runtime/target/Targets.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

namespace tpuc::driver {
namespace {

cl::SubCommand targetsSub("targets",
                          "List the target presets accepted by --target");
cl::opt<bool> json("json",
                   cl::desc("Print the presets and slices as JSON"),
                   cl::sub(targetsSub), cl::cat(toolCategory()));

std::string joinDims(const std::vector<int64_t> &dims) {
  std::string text;
  for (int64_t dim : dims)
    text += (text.empty() ? "" : "x") + std::to_string(dim);
  return text;
}

int printJson() {
  llvm::raw_ostream &os = llvm::outs();
  os << "{\n  \"default\": \"" << target::kDefaultTarget
     << "\",\n  \"targets\": [";
  bool first = true;
  for (const target::TargetSpec &spec : target::targetPresets()) {
    const exe::Target &t = spec.machine;
    os << (first ? "\n" : ",\n") << "    {\"name\": \"" << t.name()
       << "\", \"hbm_bytes\": " << t.hbm_bytes()
       << ", \"hbm_limit_bytes\": " << target::usableHbmBytes(t)
       << ", \"hbm_bytes_per_second\": "
       << llvm::format("%.0f", t.hbm_bytes_per_second())
       << ", \"cores_per_device\": " << target::coresPerDevice(t)
       << ", \"mxu_count\": " << t.mxu_count()
       << ", \"mxu_dim\": " << t.mxu_rows()
       << ", \"vmem_bytes\": " << t.vmem_bytes()
       << ", \"clock_hz\": " << llvm::format("%.0f", t.clock_hz())
       << ", \"peak_bf16_flops\": " << llvm::format("%.0f", spec.peakFlops)
       << "}";
    first = false;
  }
  os << "\n  ],\n  \"slices\": [";
  first = true;
  for (const target::SliceSpec &slice : target::slicePresets()) {
    os << (first ? "\n" : ",\n") << "    {\"name\": \"" << slice.name
       << "\", \"device\": \"" << slice.device
       << "\", \"chips\": " << slice.chips
       << ", \"devices\": " << slice.devices << ", \"topology\": [";
    for (size_t i = 0; i < slice.topology.size(); ++i)
      os << (i ? ", " : "") << slice.topology[i];
    os << "], \"wraparound\": " << (slice.wraparound ? "true" : "false")
       << ", \"ici_bytes_per_second_per_link\": "
       << llvm::format("%.0f", slice.iciBytesPerSecondPerLink)
       << ", \"ici_hop_latency_seconds\": "
       << llvm::format("%g", slice.iciHopLatencySeconds) << "}";
    first = false;
  }
  os << "\n  ]\n}\n";
  return 0;
}

std::string tileText(int64_t rows, int64_t pack) {
  return "T(" + std::to_string(rows) + ",128)(" + std::to_string(pack) +
         ",1)";
}

int runTargets() {
  if (json)
    return printJson();
  llvm::raw_ostream &os = llvm::outs();
  os << llvm::format("%-8s %-7s %-8s %-7s %-5s %-5s %-8s %-6s %-11s %-7s "
                     "%-6s %-14s %-14s %s\n",
                     "target", "HBM", "reserved", "limit", "GB/s", "cores",
                     "VMEM", "SMEM", "MXUs", "clock", "TF/s",
                     "16-bit tile", "8-bit tile", "rank-1 <1024");
  for (const target::TargetSpec &spec : target::targetPresets()) {
    const exe::Target &t = spec.machine;
    uint32_t cores = target::coresPerDevice(t);
    // "2x4x128": cores x MXUs per core x systolic array size.
    std::string mxus = (cores > 1 ? std::to_string(cores) + "x" : "") +
                       std::to_string(t.mxu_count() / cores) + "x" +
                       std::to_string(t.mxu_rows());
    std::string clock =
        std::to_string(static_cast<int>(t.clock_hz() / 1e6 + 0.5)) + "MHz";
    std::string rank1 = "T(" + std::to_string(spec.tiling.smallVectorTile) +
                        ")" + (spec.tiling.shrinkSublaneTile ? "+" : "");
    os << llvm::format(
        "%-8s %-7s %-8s %-7s %-5.0f %-5u %-8s %-6s %-11s %-7s %-6.1f %-14s "
        "%-14s %s\n",
        t.name().c_str(), report::formatBytes(t.hbm_bytes()).c_str(),
        report::formatBytes(t.hbm_reserved_bytes()).c_str(),
        report::formatBytes(target::usableHbmBytes(t)).c_str(),
        t.hbm_bytes_per_second() / 1e9, cores,
        report::formatBytes(t.vmem_bytes()).c_str(),
        report::formatBytes(t.smem_bytes()).c_str(), mxus.c_str(),
        clock.c_str(), spec.peakFlops / 1e12,
        tileText(spec.tiling.rows16Bit, 2).c_str(),
        tileText(spec.tiling.rows8Bit, 4).c_str(), rank1.c_str());
  }
  os << "default: " << target::kDefaultTarget
     << ". One target is one device as XLA presents it; limit is the HBM a "
        "program may use (XLA's \"Used X of <limit> hbm\"); VMEM and SMEM "
        "are per core; TF/s is the bf16 peak. Rank-1 arrays of 1024 or more "
        "elements use T(1024); '+' marks T(1,128)..T(4,128) for second-minor "
        "dims of 1-4 (32-bit). Vector registers are 8x128x32-bit on every "
        "target. Sources: docs/targets.md\n";
  os << "\n"
     << llvm::format("%-10s %-8s %-6s %-8s %-9s %-6s %-10s %s\n", "slice",
                     "device", "chips", "devices", "topology", "links",
                     "GB/s/link", "hop latency");
  for (const target::SliceSpec &slice : target::slicePresets())
    os << llvm::format("%-10s %-8s %-6lld %-8lld %-9s %-6s %-10.0f %.1fus\n",
                       slice.name.c_str(), slice.device.c_str(),
                       static_cast<long long>(slice.chips),
                       static_cast<long long>(slice.devices),
                       joinDims(slice.topology).c_str(),
                       slice.wraparound ? "torus" : "mesh",
                       slice.iciBytesPerSecondPerLink / 1e9,
                       slice.iciHopLatencySeconds * 1e6);
  os << "A slice is ICI-connected chips as Cloud TPU names them; devices as "
        "XLA counts them (v2/v3: 2 per chip, v4/v5p: 1 megacore per chip, "
        "v5e: 1 per chip). --target=SLICE compiles for one of its devices. "
        "GB/s/link: one direction of one ICI link.\n";
  return 0;
}

} // namespace

Command targetsCommand{targetsSub, runTargets};

} // namespace tpuc::driver
