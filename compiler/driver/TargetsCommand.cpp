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

int runTargets() {
  llvm::raw_ostream &os = llvm::outs();
  os << llvm::format("%-9s %-8s %-9s %-8s %-10s %-8s %-6s %-9s %-13s %s\n",
                     "target", "HBM", "reserved", "usable", "HBM GB/s",
                     "VMEM", "MXUs", "clock", "16-bit tile", "description");
  for (const target::TargetSpec &spec : target::targetPresets()) {
    const exe::Target &t = spec.machine;
    std::string mxus = std::to_string(t.mxu_count()) + "x" +
                       std::to_string(t.mxu_rows());
    std::string tile =
        "T(" + std::to_string(spec.tiling.rows16Bit) + ",128)(2,1)";
    os << llvm::format(
        "%-9s %-8s %-9s %-8s %-10.0f %-8s %-6s %-9s %-13s %s\n",
        t.name().c_str(), report::formatBytes(t.hbm_bytes()).c_str(),
        report::formatBytes(t.hbm_reserved_bytes()).c_str(),
        report::formatBytes(target::usableHbmBytes(t)).c_str(),
        t.hbm_bytes_per_second() / 1e9,
        report::formatBytes(t.vmem_bytes()).c_str(), mxus.c_str(),
        (std::to_string(static_cast<int>(t.clock_hz() / 1e6)) + "MHz")
            .c_str(),
        tile.c_str(), spec.description.c_str());
  }
  os << "default: " << target::kDefaultTarget
     << "; vector registers are 8x128x32-bit on every target\n";
  return 0;
}

} // namespace

Command targetsCommand{targetsSub, runTargets};

} // namespace tpuc::driver
