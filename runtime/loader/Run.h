// Runs an executable on a device with host arrays in and out: allocates the
// buffer table, writes constants and parameters in device layout, executes,
// and reads the results back in host (row-major) layout.
#ifndef TPUC_RUNTIME_LOADER_RUN_H
#define TPUC_RUNTIME_LOADER_RUN_H

#include <vector>

#include "absl/status/statusor.h"
#include "runtime/hostio/HostArray.h"
#include "runtime/loader/Device.h"
#include "runtime/loader/Layout.h"

namespace tpuc::runtime {

struct RunResult {
  std::vector<hostio::HostArray> results;
  ExecutionProfile profile;
};

// `inputs[i]` must have parameter i's dims; its element type must equal the
// parameter's, or be f32 for a bf16 parameter (rounded to nearest even).
absl::StatusOr<RunResult> runExecutable(Device &device,
                                        const Executable &executable,
                                        const std::vector<hostio::HostArray> &inputs,
                                        const ExecuteOptions &options = {});

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_LOADER_RUN_H
