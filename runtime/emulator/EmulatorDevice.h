// The CPU emulator of a tpuc core: functional semantics of docs/isa.md plus
// the timing model of docs/runtime.md.
#ifndef TPUC_RUNTIME_EMULATOR_EMULATORDEVICE_H
#define TPUC_RUNTIME_EMULATOR_EMULATORDEVICE_H

#include <cstdlib>
#include <map>
#include <memory>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "runtime/emulator/Ici.h"
#include "runtime/emulator/Kernels.h"
#include "runtime/loader/Device.h"

namespace tpuc::runtime {

class EmulatorDevice : public Device {
public:
  explicit EmulatorDevice(exe::Target target,
                          KernelPath kernels = bestKernelPath());

  absl::Status allocate(uint64_t offset, uint64_t size) override;
  absl::Status copyToDevice(uint64_t offset,
                            absl::Span<const uint8_t> data) override;
  absl::Status copyFromDevice(uint64_t offset,
                              absl::Span<uint8_t> data) override;
  // Traps are FailedPrecondition errors naming the instruction (index,
  // opcode, hlo op) and the offending address or semaphore.
  absl::StatusOr<ExecutionProfile>
  execute(const Executable &executable,
          const ExecuteOptions &options) override;

  // Makes this device `device` of a slice whose collectives meet on
  // `fabric` (runtime/emulator/Ici.h). Without one the device is alone:
  // device 0 of a one-device grid.
  void attachIci(IciFabric *fabric, int64_t device) {
    ici_ = fabric;
    deviceId_ = device;
  }

private:
  friend class Machine;
  IciFabric *ici_ = nullptr;
  int64_t deviceId_ = 0;
  // The HBM region holding [addr, addr + len), or nullptr.
  uint8_t *hbmRange(uint64_t addr, uint64_t len);

  exe::Target target_;
  KernelPath kernels_;
  // Zeroed with calloc: the host commits pages only when they are touched.
  struct Region {
    struct Free {
      void operator()(uint8_t *p) const { std::free(p); }
    };
    std::unique_ptr<uint8_t, Free> data;
    uint64_t size;
  };
  // Allocated HBM regions by start offset; sparse so that a 16 GiB HBM costs
  // only what the program uses.
  std::map<uint64_t, Region> hbm_;
  // The storage of VMEM and of its written-byte map, kept between executes
  // (a step loop runs one executable many times). Each execute still starts
  // from zeroes; reusing the committed pages saves faulting in 2 x
  // vmem_bytes anew, most of a small program's host time.
  std::vector<uint8_t> vmemPool_, vmemInitPool_;
  // Timing-only runs: the control slice of the last executable run
  // (Provenance.h), kept so that later steps start with it, and the HBM
  // pages (by page number) whose last writes were not computed.
  const Executable *sliceOf_ = nullptr;
  std::vector<bool> slice_;
  absl::flat_hash_set<uint64_t> staleHbmPages_;
};

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_EMULATOR_EMULATORDEVICE_H
