// The emulated ICI of a slice: where the devices' threads meet at each
// collective, the collectives' data semantics (docs/spmd.md) on host
// (row-major) arrays, and their timing model (ring algorithms over the
// slice's links, docs/runtime.md "ICI").
#ifndef TPUC_RUNTIME_EMULATOR_ICI_H
#define TPUC_RUNTIME_EMULATOR_ICI_H

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/loader/Executable.h"
#include "runtime/loader/Profile.h"
#include "runtime/schema/executable.pb.h"

namespace tpuc::runtime {

// One direction of one link and one hop's latency (the slice preset's).
struct IciLinks {
  double bytesPerSecondPerLink = 0;
  double hopLatencySeconds = 0;
};

// The modeled cost of one collective on one device.
struct IciCost {
  uint64_t cycles = 0;   // from the last member's arrival to completion
  uint64_t bytesSent = 0; // what this device puts on its links
};

// The ring model: a group of n devices is a bidirectional ring (half the
// data each way), each step one hop. bytes = the operand's (logical) size.
IciCost collectiveCost(exe::Opcode opcode, int64_t groupSize, int64_t bytes,
                       bool sends, const IciLinks &links, double clockHz);

class IciFabric {
public:
  IciFabric(int64_t devices, IciLinks links)
      : count_(devices), links_(links), slots_(devices) {}

  int64_t numDevices() const { return count_; }
  const IciLinks &links() const { return links_; }

  // One device's arrival at a collective: the instruction, its operand
  // (row-major host bytes) and the cycle it arrived.
  struct Arrival {
    int64_t pc = -1;
    std::vector<uint8_t> operand;
    uint64_t cycle = 0;
  };
  using Round = std::vector<Arrival>;
  // Deposits `arrival` for `device` and waits for every device. Devices at
  // different instructions, or one that finished or failed, make every
  // device fail (on hardware they would hang).
  absl::StatusOr<std::shared_ptr<const Round>> exchange(int64_t device,
                                                        Arrival arrival);
  // `device` stopped (done or failed): devices waiting for it fail.
  void finish(int64_t device);

private:
  std::mutex mutex_;
  std::condition_variable arrivedAll_;
  int64_t count_;
  IciLinks links_;
  int64_t arrived_ = 0;
  uint64_t generation_ = 0;
  std::vector<Arrival> slots_;
  std::shared_ptr<const Round> published_;
  bool aborted_ = false;
  std::string why_;
};

// Device `device`'s result of collective `c` (opcode `opcode`) from every
// device's operands (`round`, indexed by device; row-major host bytes of
// c.operand()'s dtype and dims). Reductions are left folds in group order,
// rounded to the element type after each step.
absl::StatusOr<std::vector<uint8_t>>
collectiveResult(exe::Opcode opcode, const exe::Collective &c, int64_t device,
                 const IciFabric::Round &round);

// The group of `device` in `c` (its members in group order); for
// COLLECTIVE_PERMUTE the devices of the pairs.
std::vector<int64_t> groupOf(const exe::Collective &c, int64_t device);

// One collective instruction on one device, as the emulator issues it.
struct IciRequest {
  exe::Opcode opcode = exe::OPCODE_INVALID;
  const exe::Collective *collective = nullptr;
  int64_t pc = 0, device = 0;
  absl::Span<const uint8_t> operand; // device layout (unused by DEVICE_ID)
  absl::Span<uint8_t> result;        // device layout
  uint64_t arrival = 0;              // the cycle the device is ready
  bool functional = true;            // false: time it, compute nothing
  double clockHz = 1e9;
};

// Runs `r` of executable `e` on `fabric` (nullptr: a one-device grid, every
// group is the device alone): meets the group, writes the result and models
// the time. Functional runs exchange data; timing-only runs meet nobody and
// take every member to arrive with this device. Errors are trap messages.
absl::StatusOr<CollectiveProfile> runCollective(IciFabric *fabric,
                                                const Executable &e,
                                                const IciRequest &r);

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_EMULATOR_ICI_H
