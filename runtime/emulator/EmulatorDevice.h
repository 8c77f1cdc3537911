// The CPU emulator of a tpuc core: functional semantics of docs/isa.md plus
// the timing model of docs/runtime.md.
#ifndef TPUC_RUNTIME_EMULATOR_EMULATORDEVICE_H
#define TPUC_RUNTIME_EMULATOR_EMULATORDEVICE_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "runtime/emulator/DecodedProgram.h"
#include "runtime/emulator/HostThreads.h"
#include "runtime/emulator/Ici.h"
#include "runtime/emulator/Kernels.h"
#include "runtime/loader/Device.h"

namespace tpuc::runtime {

// Zero-filled host memory from mmap: the host commits its pages when they
// are first touched, as transparent huge pages where it offers them (one
// fault per 2 MiB instead of per 4 KiB). Move-only.
class ZeroedMemory {
public:
  ZeroedMemory() = default;
  // Empty (data() == nullptr) if the host cannot back `size` bytes.
  explicit ZeroedMemory(size_t size);
  ZeroedMemory(ZeroedMemory &&other) noexcept { *this = std::move(other); }
  ZeroedMemory &operator=(ZeroedMemory &&other) noexcept;
  ZeroedMemory(const ZeroedMemory &) = delete;
  ZeroedMemory &operator=(const ZeroedMemory &) = delete;
  ~ZeroedMemory();
  uint8_t *data() const { return data_; }
  size_t size() const { return size_; }

private:
  uint8_t *data_ = nullptr;
  size_t size_ = 0;
};

class InFlightRanges; // EmulatorDevice.cpp

class EmulatorDevice : public Device {
public:
  explicit EmulatorDevice(exe::Target target,
                          KernelPath kernels = bestKernelPath());
  ~EmulatorDevice() override;

  absl::Status allocate(uint64_t offset, uint64_t size) override;
  absl::Status copyToDevice(uint64_t offset,
                            absl::Span<const uint8_t> data) override;
  absl::Status copyFromDevice(uint64_t offset,
                              absl::Span<uint8_t> data) override;
  absl::Span<uint8_t> hostView(uint64_t offset, uint64_t size) override;
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
  // `threads` host threads in all (0: every hardware thread), made on first
  // use and kept; nullptr for one.
  HostThreads *hostThreads(int threads);
  // The index of the DMAs in flight, emptied for a new execute; kept
  // between executes so that its storage is reused.
  InFlightRanges &inFlightRanges();

  exe::Target target_;
  KernelPath kernels_;
  // Allocated HBM regions by start offset; sparse so that a 16 GiB HBM costs
  // only what the program uses.
  std::map<uint64_t, ZeroedMemory> hbm_;
  // The region hbmRange found last (a DMA's chunks mostly fall in one).
  struct HbmRegion {
    uint64_t begin = 0, size = 0;
    uint8_t *data = nullptr;
  };
  HbmRegion lastRegion_;
  // The storage of VMEM and of its written-byte map, kept between executes
  // (a step loop runs one executable many times); pages an execute never
  // touches are never committed. The pages that may hold nonzero bytes are
  // listed (sorted page numbers): `vmemInitDirty_` is cleared before each
  // execute, so each starts with nothing written; `vmemDirty_` before each
  // timing-only one, which starts from zeroes. A functional execute reads
  // only bytes it wrote (any other read traps), so it skips that clear and
  // the list grows by the pages it writes.
  ZeroedMemory vmemPool_, vmemInitPool_;
  std::unique_ptr<HostThreads> threads_;
  std::unique_ptr<InFlightRanges> inFlightRanges_;
  // The instructions of the executable running, decoded per execute
  // (DecodedProgram.h); kept so that its storage is reused.
  std::vector<DecodedInstruction> decoded_;
  std::vector<uint32_t> vmemDirty_, vmemInitDirty_;
  // Timing-only runs: the control slice of the last executable run
  // (Provenance.h), kept so that later steps start with it, and the HBM
  // pages (by page number) whose last writes were not computed.
  const Executable *sliceOf_ = nullptr;
  std::vector<bool> slice_;
  absl::flat_hash_set<uint64_t> staleHbmPages_;
};

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_EMULATOR_EMULATORDEVICE_H
