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
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/emulator/Torus.h"
#include "runtime/loader/Executable.h"
#include "runtime/loader/Profile.h"
#include "runtime/schema/executable.pb.h"

namespace tpuc::runtime {

// One direction of one link and one hop's latency, and the chips'
// topology (the slice preset's).
struct IciLinks {
  double bytesPerSecondPerLink = 0;
  double hopLatencySeconds = 0;
  Torus torus;
};

// The modeled cost of one collective on one device.
struct IciCost {
  uint64_t cycles = 0;   // from the last member's arrival to completion
  uint64_t bytesSent = 0; // what this device puts on its links
};

// Where one device's collective runs on the slice's torus (Torus.h).
struct IciPlacement {
  // Hop latencies of one ring step: the longest transfer between
  // consecutive members of the device's group (one for the cores of a
  // chip); a broadcast: of the whole chain; a permute: of the device's own
  // transfers.
  int64_t hops = 1;
  // The most of the collective's transfers (every group's at once) that
  // cross one direction of one link: they share its bandwidth.
  int64_t linkLoad = 1;
};
IciPlacement placeCollective(exe::Opcode opcode, const exe::Collective &c,
                             int64_t device, const Torus &torus);

// The ring model: a group of n devices is a bidirectional ring in group
// order (half the data each way); each step takes `place.hops` hop
// latencies and its bytes at 1 / place.linkLoad of the links' bandwidth.
// bytes = the operand's (logical) size.
IciCost collectiveCost(exe::Opcode opcode, int64_t groupSize, int64_t bytes,
                       bool sends, const IciLinks &links, double clockHz,
                       const IciPlacement &place = {});

// One device's arrival at a collective: the instruction, its operand
// (row-major host bytes; empty in a timing-only run) and the cycle it
// arrived. pc == kStopped: the device finished or failed.
struct IciArrival {
  static constexpr int64_t kStopped = -1;
  int64_t pc = kStopped;
  std::vector<uint8_t> operand;
  uint64_t cycle = 0;
};

// Carries the arrivals of one process's devices to the other processes of a
// run spread over several (MpiFabric.h) and brings back every device's.
class IciTransport {
public:
  virtual ~IciTransport() = default;
  // `local`: the arrivals of this process's block of devices, in device
  // order. Returns every device's arrival, indexed by device. Every process
  // calls it once per round.
  virtual absl::StatusOr<std::vector<IciArrival>>
  allGather(std::vector<IciArrival> local) = 0;
};

// Where the devices' threads meet. A round ends when every device has
// arrived at a collective or stopped; devices at different instructions, or
// one that stopped while others wait, make every device fail (on hardware
// they would hang). A round where every device stopped is the normal end.
class IciFabric {
public:
  using Arrival = IciArrival;
  using Round = std::vector<Arrival>;

  // Every device in this process.
  IciFabric(int64_t devices, IciLinks links)
      : IciFabric(devices, links, 0, devices, nullptr) {}
  // Devices [first, first + local) of `devices` run in this process; the
  // others' arrivals come through `transport` (not owned).
  IciFabric(int64_t devices, IciLinks links, int64_t first, int64_t local,
            IciTransport *transport)
      : count_(devices), first_(first), local_(local), links_(links),
        transport_(transport), slots_(local) {}

  int64_t numDevices() const { return count_; }
  int64_t firstDevice() const { return first_; }
  int64_t numLocalDevices() const { return local_; }
  const IciLinks &links() const { return links_; }

  // Deposits `arrival` for `device` (one of this process's) and waits for
  // every device; returns every device's arrival, indexed by device.
  absl::StatusOr<std::shared_ptr<const Round>> exchange(int64_t device,
                                                        Arrival arrival);
  // `device` stopped (done or failed); does not wait.
  void finish(int64_t device);

private:
  // Called, with the lock held, by the last of this process's devices to
  // arrive or stop: gathers the round, checks it, wakes the waiting.
  void completeRound();

  std::mutex mutex_;
  std::condition_variable arrivedAll_;
  int64_t count_, first_, local_;
  IciLinks links_;
  IciTransport *transport_;
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
// the time. Functional runs exchange data; timing-only runs exchange only
// the arrival cycles, so they model the waiting too. Errors are trap
// messages.
absl::StatusOr<CollectiveProfile> runCollective(IciFabric *fabric,
                                                const Executable &e,
                                                const IciRequest &r);

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_EMULATOR_ICI_H
