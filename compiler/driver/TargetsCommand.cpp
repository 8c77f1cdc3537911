//===- TargetsCommand.cpp - `tpuc targets` ---------------------------------===//

#include "compiler/driver/Commands.h"
#include "compiler/report/Reports.h"
#include "runtime/target/Targets.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

namespace tpuc::driver {
namespace {

cl::SubCommand targetsSub("targets",
                          "List the target presets accepted by --target");

std::string tileText(int64_t rows, int64_t pack) {
  return "T(" + std::to_string(rows) + ",128)(" + std::to_string(pack) +
         ",1)";
}

int runTargets() {
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
  return 0;
}

} // namespace

Command targetsCommand{targetsSub, runTargets};

} // namespace tpuc::driver
