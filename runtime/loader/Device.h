// The device interface the run helper drives. The emulator implements it; a
// real device would too.
#ifndef TPUC_RUNTIME_LOADER_DEVICE_H
#define TPUC_RUNTIME_LOADER_DEVICE_H

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/loader/Executable.h"
#include "runtime/loader/Profile.h"

namespace tpuc::runtime {

struct ExecuteOptions {
  // false: model time only. The scalar unit, SMEM and every instruction
  // whose results reach control flow are still computed, so the cycles equal
  // a functional run's; the other VPU, MXU and DMA data is not
  // (docs/runtime.md, "Timing-only runs"). Sizes big programs.
  bool functional = true;
  // Timing-only: parameter i's value is not known (the host loaded zeros);
  // decisions that depend on it are reported as data-dependent.
  std::vector<bool> assumedParameters;
  bool trace = false;
  // Host threads of a functional run: large MXU matmuls are split by rows
  // over them (the results do not depend on it). 0: every hardware thread.
  int hostThreads = 0;
  // Executed-instruction budget; exceeding it traps (runaway loops).
  int64_t maxInstructions = int64_t(1) << 33;
};

class Device {
public:
  virtual ~Device() = default;
  // Makes HBM [offset, offset + size) usable and zero; the executable's buffer
  // table says where. Fails beyond the target's usable HBM.
  virtual absl::Status allocate(uint64_t offset, uint64_t size) = 0;
  virtual absl::Status copyToDevice(uint64_t offset,
                                    absl::Span<const uint8_t> data) = 0;
  virtual absl::Status copyFromDevice(uint64_t offset,
                                      absl::Span<uint8_t> data) = 0;
  // Device memory [offset, offset + size) as host memory the caller may
  // write directly (one copy less for large inputs), or an empty span if
  // the device has none (the default) or the range is not allocated.
  virtual absl::Span<uint8_t> hostView(uint64_t offset, uint64_t size) {
    (void)offset;
    (void)size;
    return {};
  }
  virtual absl::StatusOr<ExecutionProfile>
  execute(const Executable &executable, const ExecuteOptions &options) = 0;
};

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_LOADER_DEVICE_H
