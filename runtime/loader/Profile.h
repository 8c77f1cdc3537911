// What one execution cost, as the timing model (docs/runtime.md) sees it,
// and its JSON / Chrome-trace renderings.
#ifndef TPUC_RUNTIME_LOADER_PROFILE_H
#define TPUC_RUNTIME_LOADER_PROFILE_H

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/loader/Isa.h"

namespace tpuc::runtime {

class Executable;

// Totals per hlo op ("" for instructions without debug info).
struct OpProfile {
  std::string hloOp;
  std::string opName;
  int64_t instructions = 0;
  uint64_t busyCycles = 0; // summed over units
  double flops = 0;
  uint64_t hbmBytes = 0;
};

// One instruction's occupancy of a unit, in cycles.
struct TraceEvent {
  Unit unit;
  int unitIndex; // MXU number; VPU path (0, 1: ALUs, 2: load, 3: store); 0 else
  int64_t pc;
  uint64_t start, end;
};

// A branch or loop trip count of a timing-only run that depended on values
// the run assumed (parameters not given, results of a previous step it did
// not compute): the modeled time holds for those values only.
struct DataDependentDecision {
  int64_t pc = 0;
  std::string kind; // "branch" (BRNZ) or "trip count" (LOOP_BEGIN)
  std::string hloOp, opName;
  std::vector<std::string> dependsOn; // parameter names, "previous step"
  int64_t executions = 0;
  int64_t taken = 0; // BRNZ: times it jumped; LOOP_BEGIN: trips in total
};

// One execution of a collective instruction on this device.
struct CollectiveProfile {
  int64_t pc = 0;
  std::string opcode, hloOp;
  int64_t groupSize = 1;
  uint64_t bytes = 0;     // the operand's (logical) bytes
  uint64_t iciBytes = 0;  // what this device sent
  uint64_t waitCycles = 0; // waiting for the group's last arrival
  uint64_t cycles = 0;    // the modeled transfer (ring model)
};

struct ExecutionProfile {
  uint64_t cycles = 0;
  double seconds = 0;
  double flops = 0;
  uint64_t hbmBytes = 0;
  // HBM the program occupies: arguments, constants and its heap (the end of
  // its last buffer), and what the compiler's memory plan said it would.
  uint64_t hbmUsedBytes = 0, hbmPlannedBytes = 0;
  double mxuUtilization = 0;          // flops / (peak MXU flops * cycles)
  double hbmBandwidthUtilization = 0; // hbmBytes / (bandwidth * seconds)
  int64_t instructionsExecuted = 0;
  std::vector<OpProfile> ops; // by busyCycles, descending, then name
  // Timing-only runs: the non-scalar instructions executed functionally
  // because control flow depends on them, the restarts that found them, and
  // the decisions that depended on assumed values (by pc).
  bool timingOnly = false;
  int64_t controlInstructions = 0;
  int64_t controlRestarts = 0;
  std::vector<DataDependentDecision> dataDependent;
  std::vector<TraceEvent> trace; // filled only when asked for
  // Multi-device executables: the device, bytes it sent over the ICI and
  // its collectives in execution order.
  int64_t device = 0;
  uint64_t iciBytes = 0;
  std::vector<CollectiveProfile> collectives;
};

// {"cycles": ..., "seconds": ..., ..., "ops": [{"hlo_op": ...}, ...]}
std::string profileToJson(const ExecutionProfile &profile);
// The data-dependent decisions of a timing-only run, one per line after a
// heading; "" when there are none.
std::string dataDependentWarning(const ExecutionProfile &profile);
// Human-readable summary with the per-op table.
std::string profileToText(const ExecutionProfile &profile);
// How much a Chrome trace shows. Kernels: one track with one event per
// kernel run (consecutive instructions of one hlo op), small enough for
// Perfetto on a whole model. Instructions: also one track per unit (scalar,
// dma, mxuN, vpu) with one event per instruction.
enum class TraceLevel { Kernels, Instructions };

// Chrome trace-event JSON (chrome://tracing, Perfetto), timestamps in
// microseconds at the target clock.
std::string traceToChromeJson(const ExecutionProfile &profile,
                              const Executable &executable,
                              TraceLevel level = TraceLevel::Instructions);

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_LOADER_PROFILE_H
