// Runs a multi-device executable on the emulator: one EmulatorDevice and
// one thread per device, collectives through one IciFabric (Ici.h). The
// results do not depend on thread timing.
#ifndef TPUC_RUNTIME_EMULATOR_SLICE_H
#define TPUC_RUNTIME_EMULATOR_SLICE_H

#include <functional>
#include <vector>

#include "runtime/emulator/EmulatorDevice.h"
#include "runtime/loader/Run.h"

namespace tpuc::runtime {

struct SliceRunResult {
  std::vector<std::vector<hostio::HostArray>> results; // [device][result]
  std::vector<ExecutionProfile> profiles;               // [device]
};

// Called on device 0's thread after each step (the step log).
using SliceStepCallback = std::function<absl::Status(
    int64_t step, const ExecutionProfile &, Device &device0)>;

// The ICI links of the executable's slice (defaults when it has none).
IciLinks iciLinksOf(const Executable &e);

// `inputs[d]` are device d's parameters. Runs `steps` steps on every
// device at once; the first error (a trap names its device) is returned.
absl::StatusOr<SliceRunResult>
runSlice(const Executable &e,
         const std::vector<std::vector<hostio::HostArray>> &inputs,
         int64_t steps, const ExecuteOptions &options, KernelPath kernels,
         const SliceStepCallback &afterStep = {});

// One Chrome trace of every device: each device is a process (pid = its
// id, named "device d") with the tracks of traceToChromeJson.
std::string sliceTraceToChromeJson(const std::vector<ExecutionProfile> &p,
                                   const Executable &e, TraceLevel level);
// {"devices": N, "cycles": the slowest device's, "seconds", "ici_bytes":
// the sum, "per_device": [profileToJson of each]}.
std::string sliceProfileToJson(const std::vector<ExecutionProfile> &p);
std::string sliceProfileToText(const std::vector<ExecutionProfile> &p);

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_EMULATOR_SLICE_H
