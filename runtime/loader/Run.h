// Runs an executable on a device with host arrays in and out: allocates the
// buffer table, writes constants and parameters in device layout, executes,
// and reads the results back in host (row-major) layout. runSteps repeats
// the execution with the updated parameters: a training loop.
#ifndef TPUC_RUNTIME_LOADER_RUN_H
#define TPUC_RUNTIME_LOADER_RUN_H

#include <cstdint>
#include <functional>
#include <string>
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

// The parts of runExecutable. loadInputs allocates the buffer table and
// writes the constants and `inputs` (checked as above) in device layout;
// readResult reads result `index` back in host layout.
absl::Status loadInputs(Device &device, const Executable &executable,
                        const std::vector<hostio::HostArray> &inputs);
absl::StatusOr<hostio::HostArray>
readResult(Device &device, const Executable &executable, int index);

// Called after step `step` (1-based) with its profile; it may read results
// with readResult. An error stops the loop and is returned.
using StepCallback =
    std::function<absl::Status(int64_t step, const ExecutionProfile &)>;

// Loads `inputs` once and executes `steps` (>= 1) times. A result that
// aliases a parameter (`Executable.aliases`) names that parameter's buffer,
// so step k + 1 reads what step k wrote: the updated parameters stay on the
// device and nothing is copied between steps. The other parameters and the
// constants are read-only for a program and stay as loaded. Without aliases
// every step computes the same thing. Returns the last step's results and
// profile.
absl::StatusOr<RunResult> runSteps(Device &device, const Executable &executable,
                                   const std::vector<hostio::HostArray> &inputs,
                                   int64_t steps, const ExecuteOptions &options,
                                   const StepCallback &afterStep = {});

// The log of a step loop, shared by `tpuc interpret --steps` and `tpuc-run
// --steps`. With `printEvery` K, steps 1, K, 2K, ... and the last print.
// K = 0 chooses ceil(steps / 10), about ten lines.
int64_t stepPrintInterval(int64_t steps, int64_t printEvery);
bool isPrintedStep(int64_t step, int64_t steps, int64_t interval);
// "step 10/100: result4=2.302585": every single-element result (a loss, an
// accuracy), element type aware. `results` holds (result index, array).
std::string formatStepLine(
    int64_t step, int64_t steps,
    const std::vector<std::pair<int, const hostio::HostArray *>> &results);
// The same with result i printed as `names[i]` ("step 10/100: loss=2.30").
std::string formatStepLine(
    int64_t step, int64_t steps,
    const std::vector<std::pair<int, const hostio::HostArray *>> &results,
    const std::vector<std::string> &names);

// The names tools give the executable's results: the HLO instruction that
// computed each (`Result.hlo_op`, else the result's own name), made
// file-safe (characters other than letters, digits, '.', '-' and '_' become
// '_'), or "result<i>" when it has none, the name is taken by another
// result, or it is "." or "..".
// `tpuc interpret` names its results the same way from the hlo module.
std::vector<std::string> resultNames(const Executable &executable);
// The same from each result's HLO instruction name ("" when unknown).
std::vector<std::string> resultNames(const std::vector<std::string> &hloOps);

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_LOADER_RUN_H
