// The device interface the run helper drives. The emulator implements it; a
// real device would too.
#ifndef TPUC_RUNTIME_LOADER_DEVICE_H
#define TPUC_RUNTIME_LOADER_DEVICE_H

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/loader/Executable.h"
#include "runtime/loader/Profile.h"

namespace tpuc::runtime {

struct ExecuteOptions {
  // false: model time only (addresses and control flow still run; HBM/VMEM
  // data, MXU and VPU results are not computed). Sizes big programs.
  bool functional = true;
  bool trace = false;
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
  virtual absl::StatusOr<ExecutionProfile>
  execute(const Executable &executable, const ExecuteOptions &options) = 0;
};

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_LOADER_DEVICE_H
