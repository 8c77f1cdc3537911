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

// Indexed by this process's devices (all of them in a one-process run).
struct SliceRunResult {
  std::vector<std::vector<hostio::HostArray>> results; // [device][result]
  std::vector<ExecutionProfile> profiles;               // [device]
};

// This process's part of a run spread over several (MpiFabric.h): devices
// [firstDevice, firstDevice + inputs.size()); the other devices' arrivals at
// collectives come through `transport`. The default: every device here.
struct SlicePart {
  int64_t firstDevice = 0;
  IciTransport *transport = nullptr;
};

// Called on device 0's thread after each step (the step log); not called
// in the processes that do not run device 0.
using SliceStepCallback = std::function<absl::Status(
    int64_t step, const ExecutionProfile &, Device &device0)>;

// The ICI links of the executable's slice (defaults when it has none).
IciLinks iciLinksOf(const Executable &e);

// `inputs[d]` are device (part.firstDevice + d)'s parameters. Runs `steps`
// steps on these devices at once; the first error (a trap names its device)
// is returned.
absl::StatusOr<SliceRunResult>
runSlice(const Executable &e,
         const std::vector<std::vector<hostio::HostArray>> &inputs,
         int64_t steps, const ExecuteOptions &options, KernelPath kernels,
         const SliceStepCallback &afterStep = {}, SlicePart part = {});

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
