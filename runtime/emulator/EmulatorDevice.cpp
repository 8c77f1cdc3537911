#include "runtime/emulator/EmulatorDevice.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include <sys/mman.h>

#include "absl/container/flat_hash_map.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/emulator/DecodedProgram.h"
#include "runtime/hostio/FloatConversion.h"
#include "runtime/emulator/Provenance.h"
#include "runtime/loader/Isa.h"
#include "runtime/loader/Layout.h"

namespace tpuc::runtime {

using hostio::bf16BitsToF32;
using hostio::f32ToBf16Bits;
using hostio::floatBits;
using hostio::floatFromBits;

namespace {

constexpr uint64_t kPageBytes = 4096; // granularity of VMEM ready times
                                      // and of HBM provenance
constexpr int64_t kVmemGranuleBytes = 512; // of VMEM provenance: an f32 row
constexpr uint64_t kSmemWordBytes = 4;     // granularity of SMEM provenance
constexpr int64_t kMaxTraceEvents = 4 << 20;
// Cycle cost of VLD / VST (docs/isa.md, "Timing"); the other VPU costs are
// Isa.def's CYCLES.
constexpr uint64_t kVpuCycles = 1;

// The slots of a VLIW bundle, one bundle issued per cycle, as in the TPU's
// core sequencer (Norrie et al., Hot Chips 2020: two scalar slots, two
// vector ALU slots, vector load and store, matrix and misc slots).
enum Slot { kScalarSlot, kValuSlot, kLoadSlot, kStoreSlot, kMatrixSlot,
            kMiscSlot, kNumSlots };
constexpr uint8_t kSlotWidth[kNumSlots] = {2, 2, 1, 1, 1, 1};

using Vreg = std::array<uint32_t, kVregElements>;

std::string hex(uint64_t v) { return absl::StrFormat("0x%x", v); }

const char *spaceName(exe::MemorySpace space) {
  return space == exe::HBM ? "HBM" : space == exe::VMEM ? "VMEM" : "SMEM";
}

struct Range {
  exe::MemorySpace space = exe::MEMORY_SPACE_INVALID;
  uint64_t begin = 0, end = 0;
  bool written = false; // the DMA writes it (else only reads it)
  bool overlaps(exe::MemorySpace s, uint64_t b, uint64_t e) const {
    return space == s && b < end && begin < e;
  }
};

// A DMA issued but not yet retired by a SEM_WAIT.
struct InFlightDma {
  int64_t pc = 0;
  uint32_t sem = 0;
  uint64_t end = 0; // completion cycle
  std::vector<Range> touched; // chunk ranges read and written
  uint64_t serial = 0; // issue order
  std::vector<uint64_t> keys; // its InFlightRanges pages (set by add)
};

// Appends r, merging it into the last range when r extends it (the chunks
// of a gather into contiguous VMEM), so the ranges stay few.
void addRange(std::vector<Range> &ranges, const Range &r) {
  if (!ranges.empty()) {
    Range &x = ranges.back();
    if (x.space == r.space && x.written == r.written && x.end == r.begin) {
      x.end = r.end;
      return;
    }
  }
  ranges.push_back(r);
}

} // namespace

// The byte ranges of the DMAs in flight, bucketed by space and 4 KiB page
// and split into read and written ones, so checking an access looks only
// at the DMAs on its pages of the kind it conflicts with (a program with
// thousands of DMAs in flight, e.g. one per gathered row, checked every
// access against all of them). A page's list has one entry per DMA: the
// span of the DMA's ranges that touch the page with that kind, which stay
// in place while it is in flight (InFlightDma::touched is not changed after
// add(), and moving it keeps its storage).
class InFlightRanges {
public:
  struct Entry {
    uint64_t serial;
    const Range *first, *last; // [first, last] of the DMA's ranges
    int64_t pc;
    uint32_t sem;
    bool live;
  };
  struct Conflict {
    Range range;
    int64_t pc;
    uint32_t sem;
  };
  // Empties every page's list. The device keeps one object for all its
  // executes: a step loop's DMAs touch the same pages every step, whose
  // lists (and the map's slots) are then reused, not allocated anew.
  void clear() {
    for (auto &[key, list] : pages_) {
      list.entries.clear();
      list.dead = 0;
    }
    std::fill(onChipLive_.begin(), onChipLive_.end(), 0);
    live_ = 0;
  }
  void add(InFlightDma &d) {
    d.keys.reserve(8);
    // Consecutive ranges mostly fall on the page of the one before.
    uint64_t lastKey = ~uint64_t(0);
    List *last = nullptr;
    for (const Range &r : d.touched)
      forEachPage(r.begin, r.end, [&](uint64_t page) {
        uint64_t k = key(r.space, page, r.written);
        if (k != lastKey) {
          last = &pages_[k];
          lastKey = k;
        }
        List &list = *last;
        if (!list.entries.empty() && list.entries.back().serial == d.serial) {
          list.entries.back().last = &r;
          return;
        }
        list.entries.push_back({d.serial, &r, &r, d.pc, d.sem, true});
        d.keys.push_back(k);
        ++live_;
        if (r.space != exe::HBM) {
          if (k >= onChipLive_.size())
            onChipLive_.resize(k + 1, 0);
          ++onChipLive_[k];
        }
      });
  }
  void remove(const InFlightDma &d) {
    for (uint64_t k : d.keys) {
      auto pageIt = pages_.find(k);
      if (pageIt == pages_.end())
        continue;
      List &list = pageIt->second;
      // Entries are in issue order: the DMA's is found by serial.
      auto it = std::lower_bound(
          list.entries.begin(), list.entries.end(), d.serial,
          [](const Entry &e, uint64_t s) { return e.serial < s; });
      if (it == list.entries.end() || it->serial != d.serial || !it->live)
        continue;
      it->live = false;
      --live_;
      if (k < onChipLive_.size() && onChipLive_[k] > 0)
        --onChipLive_[k];
      ++list.dead;
      // The lists of pages with no DMA in flight stay (empty) for reuse.
      if (2 * list.dead >= list.entries.size())
        compact(list);
    }
  }
  /// The earliest-issued DMA in flight with a range in `space` overlapping
  /// [b, e) that it reads (`readers`) or writes (`writers`), and that range.
  std::optional<Conflict> conflict(exe::MemorySpace space, uint64_t b,
                                   uint64_t e, bool readers,
                                   bool writers) const {
    if (live_ == 0)
      return std::nullopt;
    std::optional<Conflict> best;
    uint64_t bestSerial = 0;
    forEachPage(b, e, [&](uint64_t page) {
      for (bool written : {false, true}) {
        if (!(written ? writers : readers))
          continue;
        uint64_t k = key(space, page, written);
        if (space != exe::HBM &&
            (k >= onChipLive_.size() || onChipLive_[k] == 0))
          continue;
        auto it = pages_.find(k);
        if (it == pages_.end())
          continue;
        for (const Entry &x : it->second.entries) {
          if (!x.live)
            continue;
          if (best && bestSerial < x.serial)
            break;
          const Range *hit = nullptr;
          for (const Range *r = x.first; !hit && r <= x.last; ++r)
            if (r->written == written && r->overlaps(space, b, e))
              hit = r;
          if (!hit)
            continue;
          if (!best || x.serial < bestSerial) {
            best = Conflict{*hit, x.pc, x.sem};
            bestSerial = x.serial;
          }
          break; // the list is in issue order
        }
      }
    });
    return best;
  }

private:
  /// Calls f(page) for each 4 KiB page that [b, e) touches.
  template <typename F> static void forEachPage(uint64_t b, uint64_t e, F f) {
    for (uint64_t page = b / kPageBytes; page * kPageBytes < e; ++page)
      f(page);
  }
  struct List {
    std::vector<Entry> entries;
    size_t dead = 0;
  };
  static void compact(List &list) {
    list.entries.erase(std::remove_if(list.entries.begin(), list.entries.end(),
                                      [](const Entry &e) { return !e.live; }),
                       list.entries.end());
    list.dead = 0;
  }
  static uint64_t key(exe::MemorySpace space, uint64_t page, bool written) {
    return (page << 3) | (static_cast<uint64_t>(space) << 1) |
           (written ? 1 : 0);
  }
  absl::flat_hash_map<uint64_t, List> pages_;
  int64_t live_ = 0; // entries of DMAs in flight
  // Live entries by key of the VMEM and SMEM pages (keys below 2^15 for a
  // 16 MiB VMEM): most VPU accesses touch pages with no DMA in flight and
  // skip the map lookup.
  std::vector<uint32_t> onChipLive_;
};

namespace {

template <typename T> bool compare(exe::CmpKind cmp, T a, T b) {
  switch (cmp) {
  case exe::EQ:
    return a == b;
  case exe::NE:
    return a != b;
  case exe::LT:
    return a < b;
  case exe::LE:
    return a <= b;
  case exe::GT:
    return a > b;
  default:
    return a >= b;
  }
}

// NaN in either gives that NaN, its payload kept (the first if both), as
// XLA's select-based max/min and the interpreter do.
float maxNan(float a, float b) { return std::isnan(a) || a > b ? a : b; }
float minNan(float a, float b) { return std::isnan(a) || a < b ? a : b; }

// f32 -> s32 as XLA does on TPU: truncate, saturate, NaN -> 0.
int32_t f32ToS32(float f) {
  if (std::isnan(f))
    return 0;
  if (f >= 2147483648.0f)
    return std::numeric_limits<int32_t>::max();
  if (f < -2147483648.0f)
    return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(f);
}

// f32 -> u32 as XLA does: truncate, saturate to [0, 2^32 - 1], NaN -> 0.
uint32_t f32ToU32(float f) {
  if (std::isnan(f) || f <= 0.0f)
    return 0;
  if (f >= 4294967296.0f)
    return std::numeric_limits<uint32_t>::max();
  return static_cast<uint32_t>(f);
}

// A set of 4 KiB page numbers: a flag per page and the list of those set.
class PageSet {
public:
  // `pages` pages, those of `initial` set.
  PageSet(size_t pages, const std::vector<uint32_t> &initial)
      : flags_(pages, 0) {
    for (uint32_t p : initial)
      add(p);
  }
  void add(uint32_t page) {
    if (!flags_[page]) {
      flags_[page] = 1;
      list_.push_back(page);
    }
  }
  // The pages of bytes [addr, addr + len).
  void addBytes(int64_t addr, int64_t len) {
    for (int64_t p = addr / kPageBytes; p * int64_t(kPageBytes) < addr + len;
         ++p)
      add(static_cast<uint32_t>(p));
  }
  // The pages set, sorted.
  std::vector<uint32_t> take() {
    std::sort(list_.begin(), list_.end());
    return std::move(list_);
  }

private:
  std::vector<uint8_t> flags_;
  std::vector<uint32_t> list_;
};

// `size` bytes of `pool`, whose bytes outside the 4 KiB pages `dirty`
// (sorted) are zero, or fresh zeroed memory if it has another size. With
// `clear` all are zero (the dirty pages are cleared); else the dirty pages
// keep what they hold. `dirty` is left listing the pages that may be
// nonzero. Reusing committed pages and clearing only those written is much
// cheaper than faulting in fresh ones (a small step writes a few hundred KiB
// of a 16 MiB VMEM, spread over it).
absl::Span<uint8_t> takeVmem(ZeroedMemory &pool, size_t size,
                             std::vector<uint32_t> &dirty, bool clear) {
  if (pool.size() != size || !pool.data()) {
    pool = ZeroedMemory(size);
    dirty.clear();
  } else if (clear) {
    // Runs of consecutive pages are one memset each.
    for (size_t i = 0; i < dirty.size();) {
      size_t j = i + 1;
      while (j < dirty.size() && dirty[j] == dirty[j - 1] + 1)
        ++j;
      size_t begin = dirty[i] * kPageBytes;
      size_t end = std::min<size_t>(size, (dirty[j - 1] + 1) * kPageBytes);
      if (begin < end)
        std::memset(pool.data() + begin, 0, end - begin);
      i = j;
    }
    dirty.clear();
  }
  return absl::MakeSpan(pool.data(), pool.data() ? size : 0);
}

} // namespace

// The state of one execution. Everything in here is per execute() call.
class Machine {
public:
  Machine(EmulatorDevice &device, const Executable &e,
          const ExecuteOptions &opts, const std::vector<bool> &slice)
      : dev_(device), exe_(e), t_(e.target()), opts_(opts),
        tracking_(!opts.functional), prov_(slice),
        vmem_(takeVmem(device.vmemPool_, t_.vmem_bytes(), device.vmemDirty_,
                       /*clear=*/!opts.functional)),
        vmemInit_(takeVmem(device.vmemInitPool_, t_.vmem_bytes(),
                           device.vmemInitDirty_, /*clear=*/true)),
        vmemFull_(t_.vmem_bytes() / kVmemGranuleBytes + 1, 0),
        smem_(t_.smem_bytes()), smemInit_(t_.smem_bytes()),
        vmemWritten_(t_.vmem_bytes() / kPageBytes + 1, 0),
        vmemRead_(vmemWritten_.size(), 0),
        vmemDirty_(vmemWritten_.size(), device.vmemDirty_),
        vmemInitDirty_(vmemWritten_.size(), {}),
        sems_(t_.num_semaphores(), 0), inFlight_(sems_.size()),
        inFlightRanges_(device.inFlightRanges()),
        mxuDim_(mxuDim(t_)),
        weights_(t_.mxu_count()), weightsLoaded_(t_.mxu_count(), false),
        mxus_(t_.mxu_count()),
        ops_(e.proto().debug_ops_size() + 1), v_(kNumVectorRegs),
        vpuAvx2_(device.kernels_ != KernelPath::Portable &&
                 isKernelPathSupported(KernelPath::Avx2)),
        code_(device.decoded_) {
    decodeProgram(e, code_);
    bytesPerCycle_ = t_.hbm_bytes_per_second() / t_.clock_hz();
    if (tracking_)
      initProvenance();
  }
  ~Machine() {
    dev_.vmemDirty_ = vmemDirty_.take();
    dev_.vmemInitDirty_ = vmemInitDirty_.take();
  }

  absl::StatusOr<ExecutionProfile> run();

  // Timing-only: the writers the control slice lacked (the run stopped at
  // the first instruction that needed them), and the undoing of the HBM
  // writes of the stopped run.
  const std::vector<int32_t> &missing() const { return prov_.missing(); }
  void rollbackHbm();

private:
  void initProvenance();
  // Provenance of HBM [addr, addr + len) read or written by a DMA chunk.
  void trackHbm(uint64_t addr, uint64_t len, bool write);
  // Provenance of VMEM or SMEM bytes.
  void trackOnChip(exe::MemorySpace space, int64_t addr, int64_t len,
                   bool write);
  // Register and MXU-weight provenance around an instruction.
  void trackBefore(const exe::Instruction &in);
  void trackAfter(const exe::Instruction &in);
  void recordDecision(const char *kind, bool taken, int64_t amount);
  // The profile's timing-only parts and the device's stale pages.
  void finishProvenance();
  // Whether this instruction's results are computed: always in a functional
  // run; in a timing-only run, for the control slice, once its inputs are
  // known to be computed.
  bool computes() const {
    return computing_ && (!tracking_ || prov_.missing().empty());
  }

  absl::Status trap(const std::string &message) const {
    return absl::FailedPreconditionError(absl::StrCat(
        "trap at ", exe_.describeInstruction(pc_), ": ", message));
  }
  // The trap of an opcode that Isa.def lists and this file does not
  // implement (IsaTest checks that none does).
  absl::Status unimplemented(const exe::Instruction &in) const {
    return trap(absl::StrCat(getOpcodeInfo(in.opcode())->name,
                             " has no emulator semantics"));
  }
  // The value of the current instruction's arg i: sreg + imm, wrapping.
  int64_t arg(int i) const {
    const DecodedInstruction::Operand &op = cur_->args[i];
    return static_cast<int64_t>(static_cast<uint64_t>(s_[op.reg]) +
                                static_cast<uint64_t>(op.imm));
  }

  absl::Status step(const DecodedInstruction &d);
  absl::Status scalarOp(const exe::Instruction &in);
  absl::Status dma(const exe::Instruction &in);
  // One DMA's chunks checked, booked and copied as a whole (a functional
  // run): false, with no side effects, if the per-chunk path must decide
  // (a check might fail, or the chunks' order matters), else *deps waits
  // for the chunks' VMEM pages and dmaReads_ / dmaWrites_ hold their ranges.
  bool dmaWhole(exe::MemorySpace srcSpace, int64_t src, int64_t srcStride,
                exe::MemorySpace dstSpace, int64_t dst, int64_t dstStride,
                int64_t chunkBytes, int64_t chunks, uint64_t *deps);
  // dmaWhole's checks of one side: its bytes at `lo`, the lowest address of
  // its chunks' hull [lo, hi), or nullptr.
  uint8_t *dmaSideClear(exe::MemorySpace space, int64_t base, int64_t stride,
                        int64_t chunkBytes, int64_t chunks, int64_t lo,
                        int64_t hi, bool write);
  absl::Status semWait(); // the current instruction, a SEM_WAIT
  absl::Status mxuOp(const exe::Instruction &in);
  // matmulBf16, its rows split over the host threads when there are enough.
  void matmul(const PackedRhs &rhs, const uint16_t *lhs, float *out,
              int64_t rows, bool accumulate);
  absl::Status vectorOp(const exe::Instruction &in);
  // VLD / VST, issued in the bundle of cycle `issued`.
  absl::Status vectorMemory(const exe::Instruction &in, uint64_t issued);
  absl::Status vectorCompute(const exe::Instruction &in);
  // vectorCompute's lane loops over whole vregs (computeLanes), compiled
  // for the baseline ISA and for AVX2 (4 KiB a register: the loops are
  // most of the VPU's host time).
  absl::Status computeLanes(const exe::Instruction &in);
  absl::Status computeLanesBaseline(const exe::Instruction &in);
  absl::Status computeLanesAvx2(const exe::Instruction &in);
  absl::Status collective(const exe::Instruction &in); // ICI (Ici.h)

  // Bounds, in-flight-DMA and (for reads) initialisation checks of a VMEM or
  // SMEM access; returns its bytes.
  // `track`: also record the access's provenance (timing-only runs).
  absl::StatusOr<uint8_t *> access(exe::MemorySpace space, int64_t addr,
                                   int64_t len, bool write, bool track = true);
  // The same checks with no trap: nullptr, and the trap's message in
  // `*error` if `error` is given, when the access would trap. A failed
  // check has no side effects.
  uint8_t *checkedAccess(exe::MemorySpace space, int64_t addr, int64_t len,
                         bool write, bool track, std::string *error);
  // Functional runs: the first byte of [addr, addr + len) no access has
  // written yet, or -1; and the marking of written bytes. VMEM keeps a flag
  // per granule written whole (the common case: one flag read instead of a
  // scan of 512 bytes) and the byte map for the others.
  int64_t firstUninitialised(exe::MemorySpace space, int64_t addr,
                             int64_t len) const;
  void markInitialised(exe::MemorySpace space, int64_t addr, int64_t len);
  // VMEM scoreboard (docs/isa.md, "Ordering"): when an access to
  // [addr, addr + len) may start. Writes also wait for earlier readers.
  // Only MXU and VPU accesses mark pages (markPages); DMAs wait for them,
  // and semaphores order DMAs.
  uint64_t pagesReady(int64_t addr, int64_t len, bool write) const;
  // The MXU or VPU access ends at `when`.
  void markPages(int64_t addr, int64_t len, uint64_t when, bool write);
  // Books [start, start + busy) on a unit and the instruction's costs.
  void record(Unit unit, int index, uint64_t start, uint64_t end,
              double flops = 0, uint64_t hbmBytes = 0);
  // The issue model (docs/isa.md, "Timing"): the instruction joins the
  // bundle being filled if its slot is free there and it reads no scalar
  // register an instruction of that bundle writes, else the next bundle;
  // returns the bundle's cycle.
  uint64_t issueIn(Slot slot);
  // Books `busy` cycles of the DMA engine at the first free span from
  // `ready` on (a DMA whose data is not ready does not hold back those
  // behind it); returns its start.
  uint64_t bookDma(uint64_t ready, uint64_t busy);
  // The bundle being filled is done: the next instruction starts a new one,
  // at `cycle` at the earliest.
  void endBundle(uint64_t cycle);
  // The vector registers an instruction reads (from vsrc(i)) and writes
  // (from dst), for the VPU's register scoreboard and provenance.
  int vregsRead(const exe::Instruction &in) const;
  int vregsWritten(const exe::Instruction &in) const;
  // A VPU instruction's earliest start on a unit free at `unitFree` (an
  // ALU, the load or the store path): issued, its registers ready (the
  // `written` ones from dst: vregsWritten), no earlier VPU instruction
  // still to start. vpuBook books it from `start` for `cycles` and returns
  // its end.
  uint64_t vpuEarliest(const exe::Instruction &in, int written,
                       uint64_t issued, uint64_t unitFree) const;
  uint64_t vpuBook(const exe::Instruction &in, int written, uint64_t start,
                   uint64_t cycles, uint64_t &unitFree);

  EmulatorDevice &dev_;
  const Executable &exe_;
  const exe::Target &t_;
  const ExecuteOptions &opts_;
  const bool tracking_; // timing-only: follow provenance (Provenance.h)
  bool computing_ = true;

  // Provenance state (timing-only runs).
  Provenance prov_;
  std::vector<Origin> vmemOrigin_, smemOrigin_, vregOrigin_, mxuOrigin_;
  absl::flat_hash_map<uint64_t, Origin> hbmOrigin_; // by page; else loaded
  uint64_t sregTaint_[kNumScalarRegs] = {};
  struct TaintedRange {
    uint64_t begin, end, taint;
  };
  std::vector<TaintedRange> assumedHbm_; // the assumed parameters' buffers
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> hbmUndo_;
  struct Decision {
    const char *kind;
    uint64_t taint = 0;
    int64_t executions = 0, taken = 0;
  };
  std::map<int64_t, Decision> decisions_;

  int64_t pc_ = 0;
  // The instruction executing (the one at pc_ when it started).
  const DecodedInstruction *cur_ = nullptr;
  int64_t s_[kNumScalarRegs] = {};
  absl::Span<uint8_t> vmem_, vmemInit_; // the device's pools
  std::vector<uint8_t> vmemFull_; // per granule: every byte was written
  std::vector<uint8_t> smem_, smemInit_;
  std::vector<uint64_t> vmemWritten_, vmemRead_; // per page, MXU/VPU, cycles
  // The pages of VMEM that may hold nonzero bytes (those this execute wrote
  // and those the device's pool still holds from earlier ones), and those
  // of the written-byte map this execute set.
  PageSet vmemDirty_, vmemInitDirty_;
  std::vector<int64_t> sems_;
  // The DMAs in flight by semaphore, each queue in issue order = completion
  // order, and how many there are in all.
  std::vector<std::deque<InFlightDma>> inFlight_;
  // Retired DMAs, whose range and key vectors the next DMAs reuse.
  std::vector<InFlightDma> spareFlights_;
  int64_t inFlightCount_ = 0;
  InFlightRanges &inFlightRanges_;   // their ranges, by page (the device's)
  std::vector<Range> dmaReads_, dmaWrites_; // dma()'s scratch
  uint64_t dmaSerial_ = 0;
  int64_t mxuDim_; // D: the MXUs are D x D
  std::vector<PackedRhs> weights_; // packed at MXU_LOAD_WEIGHTS
  std::vector<bool> weightsLoaded_;
  struct Loop {
    int64_t begin;
    int64_t trip;
    uint32_t counter;
  };
  std::vector<Loop> loops_;

  // Timing state, in cycles.
  double bytesPerCycle_;
  // issue_ is the cycle of the bundle being filled; slotsUsed_ its slots
  // taken; sregBundle_ the bundle that last wrote each scalar register.
  uint64_t issue_ = 0, finish_ = 0;
  // The DMA engine's booked busy intervals [start, end), sorted and
  // disjoint; those that end before the bundle being filled are dropped.
  std::vector<std::pair<uint64_t, uint64_t>> dmaBusy_;
  uint8_t slotsUsed_[kNumSlots] = {};
  uint64_t bundle_ = 1;
  uint64_t sregBundle_[kNumScalarRegs] = {};
  // The VPU (docs/isa.md, "Timing"): two ALUs, a load and a store path,
  // each free at; every vector register ready at; the latest start (VPU
  // instructions start in program order).
  uint64_t valuFree_[2] = {0, 0}, vldFree_ = 0, vstFree_ = 0, vpuStarted_ = 0;
  uint64_t vregReady_[kNumVectorRegs] = {};
  // One MXU's pipeline (docs/isa.md, "Timing"): a weight-load path into the
  // shadow one of two weight buffers, and the LHS stream into the array.
  struct MxuTiming {
    uint64_t loadFree = 0;      // the weight-load path is free
    uint64_t weightsReady = 0;  // the latest loaded weights are in place
    uint64_t bufferFree[2] = {0, 0}; // the last matmul on it has drained
    int current = 0;            // the buffer the latest load filled
    uint64_t streamFree = 0;    // the LHS input port is free
    // The previous matmul's result rows and when they were all written:
    // a matmul writing the same rows follows it in the result pipeline.
    int64_t lastDst = -1, lastDstBytes = 0;
    uint64_t lastDone = 0;
  };
  std::vector<MxuTiming> mxus_;
  std::vector<uint16_t> weightScratch_;

  ExecutionProfile profile_;
  std::vector<OpProfile> ops_; // by debug op index (0: none)
  std::vector<Vreg> v_;
  std::vector<uint16_t> lhsScratch_;
  std::vector<float> outScratch_;
  // computeLanesAvx2 runs (a SIMD kernel path on a CPU with AVX2).
  const bool vpuAvx2_;
  // The executable decoded (the device's storage, reused).
  std::vector<DecodedInstruction> &code_;
};

void Machine::record(Unit unit, int index, uint64_t start, uint64_t end,
                     double flops, uint64_t hbmBytes) {
  finish_ = std::max(finish_, end);
  OpProfile &op = ops_[cur_->debugOp];
  ++op.instructions;
  op.busyCycles += end - start;
  op.flops += flops;
  op.hbmBytes += hbmBytes;
  profile_.flops += flops;
  profile_.hbmBytes += hbmBytes;
  if (opts_.trace &&
      static_cast<int64_t>(profile_.trace.size()) < kMaxTraceEvents)
    profile_.trace.push_back({unit, index, pc_, start, end});
}

uint64_t Machine::issueIn(Slot slot) {
  bool fits = slotsUsed_[slot] < kSlotWidth[slot];
  for (int i = 0; fits && i < cur_->numArgs; ++i) {
    uint32_t reg = cur_->args[i].reg;
    fits = reg == 0 || sregBundle_[reg] != bundle_;
  }
  if (!fits)
    endBundle(0);
  ++slotsUsed_[slot];
  if (cur_->info->dst == RegFile::Scalar)
    sregBundle_[cur_->proto->dst()] = bundle_;
  return issue_;
}

uint64_t Machine::bookDma(uint64_t ready, uint64_t busy) {
  auto done = std::find_if(dmaBusy_.begin(), dmaBusy_.end(),
                           [&](const auto &b) { return b.second > issue_; });
  dmaBusy_.erase(dmaBusy_.begin(), done);
  if (busy == 0)
    return ready;
  uint64_t start = ready;
  size_t i = 0;
  for (; i < dmaBusy_.size(); ++i) {
    if (dmaBusy_[i].second <= start)
      continue;
    if (dmaBusy_[i].first >= start + busy)
      break;
    start = dmaBusy_[i].second;
  }
  uint64_t end = start + busy;
  // Merge with the neighbours it touches.
  bool left = i > 0 && dmaBusy_[i - 1].second == start;
  bool right = i < dmaBusy_.size() && dmaBusy_[i].first == end;
  if (left && right) {
    dmaBusy_[i - 1].second = dmaBusy_[i].second;
    dmaBusy_.erase(dmaBusy_.begin() + i);
  } else if (left) {
    dmaBusy_[i - 1].second = end;
  } else if (right) {
    dmaBusy_[i].first = start;
  } else {
    dmaBusy_.insert(dmaBusy_.begin() + i, {start, end});
  }
  return start;
}

void Machine::endBundle(uint64_t cycle) {
  bool empty = true;
  for (uint8_t &used : slotsUsed_) {
    empty = empty && used == 0;
    used = 0;
  }
  issue_ = std::max(empty ? issue_ : issue_ + 1, cycle);
  ++bundle_;
}

int Machine::vregsRead(const exe::Instruction &in) const {
  return in.opcode() == exe::VTRANSPOSE || in.opcode() == exe::VTRANSPOSE_ROWS
             ? kTransposeRegs
             : 1;
}

int Machine::vregsWritten(const exe::Instruction &in) const {
  if (cur_->info->dst != RegFile::Vector)
    return 0;
  int regs = in.opcode() == exe::VTRANSPOSE        ? kTransposeRegs
             : in.opcode() == exe::VTRANSPOSE_ROWS ? static_cast<int>(arg(0))
                                                   : 1;
  return std::clamp(regs, 0, kNumVectorRegs - static_cast<int>(in.dst()));
}

uint64_t Machine::vpuEarliest(const exe::Instruction &in, int written,
                              uint64_t issued, uint64_t unitFree) const {
  uint64_t start = std::max({issued, unitFree, vpuStarted_});
  int read = vregsRead(in);
  for (int i = 0; i < in.vsrc_size(); ++i)
    for (int r = 0; r < read && in.vsrc(i) + r < kNumVectorRegs; ++r)
      start = std::max(start, vregReady_[in.vsrc(i) + r]);
  for (int r = 0; r < written; ++r)
    start = std::max(start, vregReady_[in.dst() + r]);
  return start;
}

uint64_t Machine::vpuBook(const exe::Instruction &in, int written,
                          uint64_t start, uint64_t cycles,
                          uint64_t &unitFree) {
  uint64_t end = start + cycles;
  unitFree = end;
  vpuStarted_ = start;
  for (int r = 0; r < written; ++r)
    vregReady_[in.dst() + r] = end;
  return end;
}

absl::StatusOr<uint8_t *> Machine::access(exe::MemorySpace space,
                                          int64_t addr, int64_t len,
                                          bool write, bool track) {
  std::string error;
  if (uint8_t *p = checkedAccess(space, addr, len, write, track, &error))
    return p;
  return trap(error);
}

uint8_t *Machine::checkedAccess(exe::MemorySpace space, int64_t addr,
                                int64_t len, bool write, bool track,
                                std::string *error) {
  absl::Span<uint8_t> mem = space == exe::VMEM ? vmem_ : absl::MakeSpan(smem_);
  int64_t size = static_cast<int64_t>(mem.size());
  if (addr < 0 || len < 0 || addr > size || len > size - addr) {
    if (error)
      *error = absl::StrCat(spaceName(space), " ", write ? "write" : "read",
                            " of [", hex(addr), ", +", len,
                            ") out of bounds (", spaceName(space), " is ",
                            size, " bytes)");
    return nullptr;
  }
  if (std::optional<InFlightRanges::Conflict> d = inFlightRanges_.conflict(
          space, addr, addr + len, /*readers=*/write, /*writers=*/true)) {
    if (error)
      *error = absl::StrCat(
          spaceName(space), " [", hex(addr), ", +", len,
          ") is used by the DMA of instruction ", d->pc,
          " still in flight (missing SEM_WAIT on semaphore ", d->sem, ")");
    return nullptr;
  }
  if (opts_.functional && !write) {
    if (int64_t hole = firstUninitialised(space, addr, len); hole >= 0) {
      if (error)
        *error = absl::StrCat("read of uninitialised ", spaceName(space),
                              " at ", hex(hole));
      return nullptr;
    }
  }
  if (tracking_ && track)
    trackOnChip(space, addr, len, write);
  if (write && space == exe::VMEM)
    vmemDirty_.addBytes(addr, len);
  if (opts_.functional && write)
    markInitialised(space, addr, len);
  return mem.data() + addr;
}

int64_t Machine::firstUninitialised(exe::MemorySpace space, int64_t addr,
                                    int64_t len) const {
  auto holeIn = [](const uint8_t *map, int64_t begin, int64_t end) {
    const void *hole = std::memchr(map + begin, 0, end - begin);
    return hole ? static_cast<const uint8_t *>(hole) - map : int64_t(-1);
  };
  if (space != exe::VMEM)
    return holeIn(smemInit_.data(), addr, addr + len);
  for (int64_t g = addr / kVmemGranuleBytes, end = addr + len;
       g * kVmemGranuleBytes < end; ++g) {
    if (vmemFull_[g])
      continue;
    int64_t begin = std::max(addr, g * kVmemGranuleBytes);
    int64_t stop = std::min(end, (g + 1) * kVmemGranuleBytes);
    if (int64_t hole = holeIn(vmemInit_.data(), begin, stop); hole >= 0)
      return hole;
  }
  return -1;
}

void Machine::markInitialised(exe::MemorySpace space, int64_t addr,
                              int64_t len) {
  if (space != exe::VMEM) {
    std::memset(smemInit_.data() + addr, 1, len);
    return;
  }
  for (int64_t g = addr / kVmemGranuleBytes, end = addr + len;
       g * kVmemGranuleBytes < end; ++g) {
    if (vmemFull_[g])
      continue;
    int64_t begin = g * kVmemGranuleBytes, stop = begin + kVmemGranuleBytes;
    if (addr <= begin && end >= stop) {
      vmemFull_[g] = 1;
      continue;
    }
    begin = std::max(addr, begin);
    stop = std::min(end, stop);
    std::memset(vmemInit_.data() + begin, 1, stop - begin);
    vmemInitDirty_.add(static_cast<uint32_t>(begin / kPageBytes));
  }
}

uint64_t Machine::pagesReady(int64_t addr, int64_t len, bool write) const {
  uint64_t ready = 0;
  for (int64_t p = addr / kPageBytes; p <= (addr + len - 1) / int64_t(kPageBytes);
       ++p)
    ready = std::max({ready, vmemWritten_[p], write ? vmemRead_[p] : 0});
  return ready;
}

void Machine::markPages(int64_t addr, int64_t len, uint64_t when, bool write) {
  std::vector<uint64_t> &pages = write ? vmemWritten_ : vmemRead_;
  for (int64_t p = addr / kPageBytes; p <= (addr + len - 1) / int64_t(kPageBytes);
       ++p)
    pages[p] = std::max(pages[p], when);
}

absl::StatusOr<ExecutionProfile> Machine::run() {
  int64_t n = exe_.numInstructions();
  int64_t executed = 0;
  while (pc_ < n) {
    if (++executed > opts_.maxInstructions)
      return trap(absl::StrCat("instruction budget of ", opts_.maxInstructions,
                               " exceeded (runaway loop?)"));
    const DecodedInstruction &d = code_[pc_];
    if (d.opcode == exe::HALT)
      break;
    if (absl::Status s = step(d); !s.ok())
      return s;
  }
  if (inFlightCount_ > 0) {
    // The earliest-issued DMA still in flight.
    const InFlightDma *first = nullptr;
    for (const std::deque<InFlightDma> &queue : inFlight_)
      if (!queue.empty() && (!first || queue.front().serial < first->serial))
        first = &queue.front();
    pc_ = first->pc;
    return trap(absl::StrCat("program ended with this DMA in flight (no "
                             "SEM_WAIT on semaphore ",
                             first->sem, " retired it)"));
  }
  profile_.instructionsExecuted = executed;
  profile_.cycles = std::max(finish_, issue_);
  profile_.seconds = profile_.cycles / t_.clock_hz();
  profile_.hbmUsedBytes = exe_.hbmFootprint();
  profile_.hbmPlannedBytes = exe_.proto().hbm().planned_bytes();
  double peakFlopsPerCycle =
      2.0 * mxuDim_ * mxuDim_ * static_cast<double>(t_.mxu_count());
  if (profile_.cycles > 0) {
    profile_.mxuUtilization =
        profile_.flops / (peakFlopsPerCycle * profile_.cycles);
    profile_.hbmBandwidthUtilization =
        profile_.hbmBytes / (bytesPerCycle_ * profile_.cycles);
  }
  for (size_t i = 0; i < ops_.size(); ++i) {
    if (ops_[i].instructions == 0)
      continue;
    if (i > 0) {
      ops_[i].hloOp = exe_.proto().debug_ops(i - 1).hlo_op();
      ops_[i].opName = exe_.proto().debug_ops(i - 1).op_name();
    }
    profile_.ops.push_back(std::move(ops_[i]));
  }
  std::stable_sort(profile_.ops.begin(), profile_.ops.end(),
                   [](const OpProfile &a, const OpProfile &b) {
                     return a.busyCycles != b.busyCycles
                                ? a.busyCycles > b.busyCycles
                                : a.hloOp < b.hloOp;
                   });
  if (tracking_)
    finishProvenance();
  return std::move(profile_);
}

absl::Status Machine::step(const DecodedInstruction &d) {
  cur_ = &d;
  const exe::Instruction &in = *d.proto;
  Unit unit = d.info->unit;
  if (tracking_) {
    computing_ = prov_.inSlice(pc_);
    if (computing_ && unit != Unit::Scalar)
      ++profile_.controlInstructions;
    prov_.begin(pc_, computing_);
    trackBefore(in);
  }
  absl::Status status;
  switch (unit) {
  case Unit::Scalar:
    status = scalarOp(in);
    break;
  case Unit::Dma:
    status = dma(in);
    break;
  case Unit::Mxu:
    status = mxuOp(in);
    break;
  case Unit::Vpu:
    status = vectorOp(in);
    break;
  case Unit::Ici:
    status = collective(in);
    break;
  }
  if (!tracking_)
    return status;
  // A computed instruction read what the slice did not compute: its value is
  // unknown, so stop here (before anything uses it) and restart.
  if (!prov_.missing().empty())
    return absl::AbortedError("the control slice grew");
  if (status.ok())
    trackAfter(in);
  return status;
}

void Machine::initProvenance() {
  vmemOrigin_.resize(t_.vmem_bytes() / kVmemGranuleBytes + 1);
  smemOrigin_.resize(t_.smem_bytes() / kSmemWordBytes + 1);
  vregOrigin_.resize(kNumVectorRegs);
  mxuOrigin_.resize(t_.mxu_count());
  const exe::Executable &p = exe_.proto();
  for (int i = 0; i < p.parameters_size(); ++i) {
    if (i >= static_cast<int>(opts_.assumedParameters.size()) ||
        !opts_.assumedParameters[i])
      continue;
    const exe::Buffer &b = p.buffers(p.parameters(i).buffer());
    assumedHbm_.push_back({b.offset(), b.offset() + b.size(),
                           parameterTaint(i)});
  }
}

void Machine::trackHbm(uint64_t addr, uint64_t len, bool write) {
  for (uint64_t page = addr / kPageBytes;
       len > 0 && page <= (addr + len - 1) / kPageBytes; ++page) {
    auto it = hbmOrigin_.find(page);
    if (it == hbmOrigin_.end()) {
      // Never written in this run: what the host loaded, or what an earlier
      // step wrote without computing it.
      Origin loaded;
      uint64_t begin = page * kPageBytes, end = begin + kPageBytes;
      for (const TaintedRange &r : assumedHbm_)
        if (r.begin < end && begin < r.end)
          loaded.taint |= r.taint;
      if (dev_.staleHbmPages_.contains(page))
        loaded.taint |= kPreviousStepTaint;
      if (!write) {
        prov_.read(loaded);
        continue;
      }
      it = hbmOrigin_.emplace(page, std::move(loaded)).first;
    }
    if (!write) {
      prov_.read(it->second);
      continue;
    }
    bool whole = addr <= page * kPageBytes &&
                 addr + len >= (page + 1) * kPageBytes;
    prov_.write(it->second, whole);
  }
}

void Machine::trackOnChip(exe::MemorySpace space, int64_t addr, int64_t len,
                          bool write) {
  std::vector<Origin> &origins = space == exe::VMEM ? vmemOrigin_ : smemOrigin_;
  int64_t unit = space == exe::VMEM ? kVmemGranuleBytes : kSmemWordBytes;
  for (int64_t i = addr / unit; len > 0 && i <= (addr + len - 1) / unit; ++i) {
    if (write)
      prov_.write(origins[i], addr <= i * unit && addr + len >= (i + 1) * unit);
    else
      prov_.read(origins[i]);
  }
}

void Machine::trackBefore(const exe::Instruction &in) {
  for (int i = 0; i < cur_->numArgs; ++i)
    prov_.readTaint(sregTaint_[cur_->args[i].reg]);
  int regs = vregsRead(in);
  for (int i = 0; i < in.vsrc_size(); ++i)
    for (int r = 0; r < regs; ++r)
      prov_.read(vregOrigin_[in.vsrc(i) + r]);
  if (in.opcode() == exe::MXU_MATMUL)
    prov_.read(mxuOrigin_[in.mxu()]);
}

void Machine::trackAfter(const exe::Instruction &in) {
  switch (cur_->info->dst) {
  case RegFile::Scalar:
    // A loop counter counts trips: it does not carry the trip count's taint.
    sregTaint_[in.dst()] =
        in.opcode() == exe::LOOP_BEGIN ? 0 : prov_.taint();
    break;
  case RegFile::Vector: {
    for (int r = 0, regs = vregsWritten(in); r < regs; ++r)
      prov_.write(vregOrigin_[in.dst() + r], true);
    break;
  }
  case RegFile::None:
    if (in.opcode() == exe::MXU_LOAD_WEIGHTS)
      prov_.write(mxuOrigin_[in.mxu()], true);
    break;
  }
}

void Machine::recordDecision(const char *kind, bool taken, int64_t amount) {
  uint64_t taint = prov_.taint();
  if (!tracking_ || taint == 0)
    return;
  Decision &d = decisions_[pc_];
  d.kind = kind;
  d.taint |= taint;
  ++d.executions;
  d.taken += taken ? amount : 0;
}

void Machine::finishProvenance() {
  profile_.timingOnly = true;
  const exe::Executable &p = exe_.proto();
  for (const auto &[pc, d] : decisions_) {
    DataDependentDecision out;
    out.pc = pc;
    out.kind = d.kind;
    out.hloOp = std::string(exe_.hloOp(pc));
    if (uint32_t op = exe_.instruction(pc).debug_op())
      out.opName = p.debug_ops(op - 1).op_name();
    for (int i = 0; i <= kMaxTaintedParameter && i < p.parameters_size(); ++i)
      if (d.taint & parameterTaint(i))
        out.dependsOn.push_back(
            i < kMaxTaintedParameter
                ? absl::StrCat("parameter ", i, " '",
                               p.parameters(i).name(), "'")
                : absl::StrCat("parameters ", i, " and later"));
    if (d.taint & kPreviousStepTaint)
      out.dependsOn.push_back("a result of the previous step");
    out.executions = d.executions;
    out.taken = d.taken;
    profile_.dataDependent.push_back(std::move(out));
  }
  // What later steps find in HBM: the pages whose last writes this run did
  // not compute hold unknown values.
  for (const auto &[page, origin] : hbmOrigin_) {
    bool computed = true;
    for (int32_t w : origin.writers)
      computed &= prov_.inSlice(w);
    if (computed && !(origin.taint & kPreviousStepTaint))
      dev_.staleHbmPages_.erase(page);
    else
      dev_.staleHbmPages_.insert(page);
  }
}

void Machine::rollbackHbm() {
  for (auto it = hbmUndo_.rbegin(); it != hbmUndo_.rend(); ++it)
    std::memcpy(dev_.hbmRange(it->first, it->second.size()),
                it->second.data(), it->second.size());
  hbmUndo_.clear();
}

absl::Status Machine::scalarOp(const exe::Instruction &in) {
  uint64_t start = issueIn(kScalarSlot);
  record(Unit::Scalar, 0, start, start + 1);
  int64_t next = pc_ + 1;
  // Two's-complement wrap for + - *; the ISA defines no overflow traps.
  auto wrap = [](uint64_t v) { return static_cast<int64_t>(v); };
  int64_t result = 0;
  bool writes = cur_->info->dst == RegFile::Scalar;
  switch (in.opcode()) {
  case exe::NOP:
    break;
  case exe::SMOV:
    result = arg(0);
    break;
  case exe::SADD:
    result = wrap(uint64_t(arg(0)) + uint64_t(arg(1)));
    break;
  case exe::SSUB:
    result = wrap(uint64_t(arg(0)) - uint64_t(arg(1)));
    break;
  case exe::SMUL:
    result = wrap(uint64_t(arg(0)) * uint64_t(arg(1)));
    break;
  case exe::SDIV:
  case exe::SREM: {
    int64_t a = arg(0), b = arg(1);
    if (b == 0)
      return trap("scalar division by zero");
    if (a == std::numeric_limits<int64_t>::min() && b == -1)
      return trap("scalar division overflows");
    result = in.opcode() == exe::SDIV ? a / b : a % b;
    break;
  }
  case exe::SAND:
    result = arg(0) & arg(1);
    break;
  case exe::SOR:
    result = arg(0) | arg(1);
    break;
  case exe::SXOR:
    result = arg(0) ^ arg(1);
    break;
  case exe::SSHL:
  case exe::SSHR: {
    int64_t amount = arg(1);
    if (amount < 0 || amount > 63)
      return trap(absl::StrCat("shift amount ", amount, " not in [0, 63]"));
    result = in.opcode() == exe::SSHL ? wrap(uint64_t(arg(0)) << amount)
                                      : arg(0) >> amount;
    break;
  }
  case exe::SMIN:
    result = std::min(arg(0), arg(1));
    break;
  case exe::SMAX:
    result = std::max(arg(0), arg(1));
    break;
  case exe::SCMP:
    result = compare(in.cmp(), arg(0), arg(1));
    break;
  case exe::SLD:
  case exe::SST: {
    int64_t addr = arg(in.opcode() == exe::SLD ? 0 : 1);
    if (addr % 4 != 0)
      return trap(absl::StrCat("SMEM address ", hex(addr),
                               " is not 4-byte aligned"));
    bool store = in.opcode() == exe::SST;
    absl::StatusOr<uint8_t *> p = access(exe::SMEM, addr, 4, store);
    if (!p.ok())
      return p.status();
    int32_t word;
    if (store) {
      word = static_cast<int32_t>(arg(0));
      std::memcpy(*p, &word, 4);
    } else {
      std::memcpy(&word, *p, 4);
      result = word;
    }
    break;
  }
  case exe::BR:
    next = in.target();
    break;
  case exe::BRNZ:
    if (arg(0) != 0)
      next = in.target();
    recordDecision("branch", arg(0) != 0, 1);
    break;
  case exe::LOOP_BEGIN: {
    int64_t trip = arg(0);
    recordDecision("trip count", trip > 0, trip);
    if (trip < 0)
      return trap(absl::StrCat("negative trip count ", trip));
    if (trip == 0) {
      next = exe_.loopPartner(pc_) + 1;
      writes = false;
      break;
    }
    loops_.push_back({pc_, trip, in.dst()});
    break; // result = 0: the counter starts at 0
  }
  case exe::LOOP_END: {
    Loop &loop = loops_.back(); // validation guarantees a matching begin
    if (++s_[loop.counter] < loop.trip) {
      next = loop.begin + 1;
    } else {
      loops_.pop_back();
    }
    break;
  }
  case exe::SEM_WAIT:
    if (absl::Status s = semWait(); !s.ok())
      return s;
    break;
  case exe::SEM_SIGNAL: {
    int64_t sem = arg(0), count = arg(1);
    if (sem < 0 || sem >= static_cast<int64_t>(sems_.size()))
      return trap(absl::StrCat("semaphore ", sem, " not in [0, ",
                               sems_.size(), ")"));
    if (count < 1 || count > (1 << 30) || sems_[sem] > (1 << 30))
      return trap(absl::StrCat("SEM_SIGNAL of ", count, " on semaphore ", sem,
                               " (value ", sems_[sem],
                               ") is out of range"));
    sems_[sem] += count;
    break;
  }
  default:
    return unimplemented(in);
  }
  if (writes)
    s_[in.dst()] = result;
  // A jump ends the bundle: the next one is fetched from the target.
  if (next != pc_ + 1)
    endBundle(0);
  pc_ = next;
  return absl::OkStatus();
}

// A collective: everything before it is done; Ici.cpp meets the group,
// computes the result and models the time (docs/runtime.md, "ICI").
absl::Status Machine::collective(const exe::Instruction &in) {
  if (inFlightCount_ > 0)
    return trap("a collective needs every DMA retired first");
  IciRequest r;
  r.opcode = in.opcode();
  r.collective = &exe_.proto().collectives(static_cast<int>(in.args(0).imm()));
  r.pc = pc_;
  r.device = dev_.deviceId_;
  r.arrival = std::max(issueIn(kMiscSlot), finish_);
  r.functional = computes();
  r.clockHz = t_.clock_hz();
  for (int i : {1, 2}) {
    bool write = i == 2;
    const exe::Shape &shape =
        write ? r.collective->result() : r.collective->operand();
    int64_t bytes = *paddedByteSize(shape);
    uint64_t addr = static_cast<uint64_t>(arg(i));
    uint8_t *p = dev_.hbmRange(addr, bytes);
    if (in.opcode() == exe::DEVICE_ID && !write)
      continue;
    if (!p)
      return trap(absl::StrCat("collective ", write ? "result" : "operand",
                               " [", hex(addr), ", +", bytes,
                               ") is not in allocated HBM"));
    if (write)
      r.result = absl::MakeSpan(p, static_cast<size_t>(bytes));
    else
      r.operand = absl::MakeConstSpan(p, static_cast<size_t>(bytes));
    if (tracking_)
      trackHbm(addr, bytes, write);
  }
  absl::StatusOr<CollectiveProfile> done = runCollective(dev_.ici_, exe_, r);
  if (!done.ok())
    return trap(std::string(done.status().message()));
  uint64_t end =
      r.arrival + done->waitCycles + std::max<uint64_t>(done->cycles, 1);
  endBundle(end);
  record(Unit::Ici, 0, r.arrival, end);
  profile_.iciBytes += done->iciBytes;
  profile_.collectives.push_back(*std::move(done));
  ++pc_;
  return absl::OkStatus();
}

absl::Status Machine::semWait() {
  int64_t sem = arg(0), count = arg(1);
  if (sem < 0 || sem >= static_cast<int64_t>(sems_.size()))
    return trap(absl::StrCat("semaphore ", sem, " not in [0, ", sems_.size(),
                             ")"));
  if (count < 1)
    return trap(absl::StrCat("SEM_WAIT count ", count, " must be >= 1"));
  // Retire this semaphore's DMAs in completion order until the count is met;
  // if they cannot meet it, nothing ever will.
  uint64_t ready = issue_;
  std::deque<InFlightDma> &queue = inFlight_[sem];
  while (sems_[sem] < count && !queue.empty()) {
    ready = std::max(ready, queue.front().end);
    ++sems_[sem];
    inFlightRanges_.remove(queue.front());
    spareFlights_.push_back(std::move(queue.front()));
    queue.pop_front();
    --inFlightCount_;
  }
  if (sems_[sem] < count)
    return trap(absl::StrCat("deadlock: SEM_WAIT for ", count,
                             " on semaphore ", sem, " whose value is ",
                             sems_[sem], " with no DMA outstanding on it"));
  sems_[sem] -= count;
  endBundle(ready);
  return absl::OkStatus();
}

absl::Status Machine::dma(const exe::Instruction &in) {
  int64_t src = arg(0), dst = arg(1), chunkBytes = arg(2),
          chunks = arg(3), srcStride = arg(4), dstStride = arg(5),
          sem = arg(6);
  if (sem < 0 || sem >= static_cast<int64_t>(sems_.size()))
    return trap(absl::StrCat("semaphore ", sem, " not in [0, ", sems_.size(),
                             ")"));
  constexpr int64_t kMaxChunk = int64_t(1) << 40, kMaxChunks = int64_t(1) << 32;
  if (chunkBytes < 0 || chunkBytes > kMaxChunk || chunks < 0 ||
      chunks > kMaxChunks || std::abs(srcStride) > kMaxChunk ||
      std::abs(dstStride) > kMaxChunk)
    return trap(absl::StrCat("DMA of ", chunks, " chunks of ", chunkBytes,
                             " bytes with strides ", srcStride, "/",
                             dstStride, " is out of range"));
  exe::MemorySpace srcSpace = in.src_space(), dstSpace = in.dst_space();
  // The chunks' ranges, read and written ones apart so that each side's
  // merge (dmaReads_ and dmaWrites_, reused), then in flight.touched.
  InFlightDma flight;
  if (!spareFlights_.empty()) {
    flight = std::move(spareFlights_.back());
    spareFlights_.pop_back();
    flight.touched.clear();
    flight.keys.clear();
  }
  flight.pc = pc_;
  flight.sem = static_cast<uint32_t>(sem);
  dmaReads_.clear();
  dmaWrites_.clear();
  uint64_t deps = issueIn(kMiscSlot);
  uint64_t total = static_cast<uint64_t>(chunkBytes) * chunks;
  // One side of one chunk: its bytes, with the checks of its memory space.
  auto side = [&](exe::MemorySpace space, int64_t addr,
                  bool write) -> absl::StatusOr<uint8_t *> {
    if (space != exe::HBM) {
      // Bounds first: pagesReady indexes the page table unchecked.
      absl::StatusOr<uint8_t *> p = access(space, addr, chunkBytes, write);
      if (!p.ok())
        return p;
      if (space == exe::VMEM)
        deps = std::max(deps, pagesReady(addr, chunkBytes, write));
      addRange(write ? dmaWrites_ : dmaReads_,
               {space, uint64_t(addr), uint64_t(addr + chunkBytes), write});
      return p;
    }
    if (uint8_t *p = dev_.hbmRange(addr, chunkBytes)) {
      if (tracking_)
        trackHbm(addr, chunkBytes, write);
      // A functional run also checks HBM against the DMAs in flight: bytes
      // one writes may not be read by another before its wait, nor bytes
      // one reads written (a prefetch moved above a write of its source is
      // a race). Two writes of the same bytes are not checked: the MXU
      // kernels' write-backs on 256-wide MXUs overlap that way today.
      if (opts_.functional) {
        uint64_t begin = addr, end = addr + chunkBytes;
        if (std::optional<InFlightRanges::Conflict> d = inFlightRanges_.conflict(
                exe::HBM, begin, end, /*readers=*/write, /*writers=*/!write))
          return trap(absl::StrCat(
              "DMA ", write ? "writes" : "reads", " HBM [", hex(addr), ", +",
              chunkBytes, ") which the DMA of instruction ", d->pc,
              " still in flight ", d->range.written ? "writes" : "reads",
              " (missing SEM_WAIT on semaphore ", d->sem, ")"));
        addRange(write ? dmaWrites_ : dmaReads_,
                 {exe::HBM, begin, end, write});
      }
      return p;
    }
    return trap(absl::StrCat("DMA ", write ? "writes" : "reads", " HBM [",
                             hex(addr), ", +", chunkBytes,
                             ") outside every allocated buffer"));
  };
  bool whole = !tracking_ && chunks > 0 && chunkBytes > 0 &&
               dmaWhole(srcSpace, src, srcStride, dstSpace, dst, dstStride,
                        chunkBytes, chunks, &deps);
  for (int64_t c = 0; !whole && c < chunks && chunkBytes > 0; ++c) {
    absl::StatusOr<uint8_t *> srcPtr = side(srcSpace, src + c * srcStride, false);
    if (!srcPtr.ok())
      return srcPtr.status();
    absl::StatusOr<uint8_t *> dstPtr = side(dstSpace, dst + c * dstStride, true);
    if (!dstPtr.ok())
      return dstPtr.status();
    if (computes()) {
      if (tracking_ && dstSpace == exe::HBM) // undone if the run restarts
        hbmUndo_.emplace_back(dst + c * dstStride,
                              std::vector<uint8_t>(*dstPtr,
                                                   *dstPtr + chunkBytes));
      std::memmove(*dstPtr, *srcPtr, chunkBytes);
    }
  }
  flight.touched.reserve(dmaReads_.size() + dmaWrites_.size());
  flight.touched.assign(dmaReads_.begin(), dmaReads_.end());
  flight.touched.insert(flight.touched.end(), dmaWrites_.begin(),
                        dmaWrites_.end());
  uint64_t busy = static_cast<uint64_t>(std::ceil(total / bytesPerCycle_));
  uint64_t start = bookDma(deps, busy);
  flight.end = start + busy + t_.dma_latency_cycles();
  uint64_t hbmBytes =
      srcSpace == exe::HBM || dstSpace == exe::HBM ? total : 0;
  record(Unit::Dma, 0, start, flight.end, 0, hbmBytes);
  flight.serial = ++dmaSerial_;
  inFlightRanges_.add(flight);
  inFlight_[sem].push_back(std::move(flight));
  ++inFlightCount_;
  ++pc_;
  return absl::OkStatus();
}

namespace {

// The bounds [lo, hi) of `chunks` chunks of `chunkBytes` at base + c *
// stride, or false if they overflow.
bool chunkHull(int64_t base, int64_t stride, int64_t chunks,
               int64_t chunkBytes, int64_t *lo, int64_t *hi) {
  int64_t offset, last, end;
  if (__builtin_mul_overflow(chunks - 1, stride, &offset) ||
      __builtin_add_overflow(base, offset, &last) ||
      __builtin_add_overflow(std::max(base, last), chunkBytes, &end))
    return false;
  *lo = std::min(base, last);
  *hi = end;
  return true;
}

// Calls f(begin, end) for each maximal run of contiguous chunks (a stride
// of chunkBytes is one run), in chunk order.
template <typename F>
void forEachRun(int64_t base, int64_t stride, int64_t chunkBytes,
                int64_t chunks, F f) {
  if (stride == chunkBytes) {
    f(base, base + chunks * chunkBytes);
    return;
  }
  for (int64_t c = 0; c < chunks; ++c)
    f(base + c * stride, base + c * stride + chunkBytes);
}

// The chunk copies of a DMA whose sides do not overlap; small chunks (a
// gather's rows, a convolution's window pieces) are fixed-size copies the
// compiler inlines rather than memmove calls.
template <int64_t N>
void copyFixed(uint8_t *dst, const uint8_t *src, int64_t chunks,
               int64_t dstStride, int64_t srcStride) {
  for (int64_t c = 0; c < chunks; ++c)
    std::memcpy(dst + c * dstStride, src + c * srcStride, N);
}

void copyChunks(uint8_t *dst, const uint8_t *src, int64_t chunkBytes,
                int64_t chunks, int64_t dstStride, int64_t srcStride) {
  if (dstStride == chunkBytes && srcStride == chunkBytes)
    return (void)std::memcpy(dst, src, chunkBytes * chunks);
  using CopyFn = void (*)(uint8_t *, const uint8_t *, int64_t, int64_t,
                          int64_t);
  static constexpr std::pair<int64_t, CopyFn> kFixed[] = {
      {4, copyFixed<4>},   {8, copyFixed<8>},   {12, copyFixed<12>},
      {16, copyFixed<16>}, {32, copyFixed<32>}, {64, copyFixed<64>}};
  for (auto [bytes, copy] : kFixed)
    if (chunkBytes == bytes)
      return copy(dst, src, chunks, dstStride, srcStride);
  for (int64_t c = 0; c < chunks; ++c)
    std::memcpy(dst + c * dstStride, src + c * srcStride, chunkBytes);
}

} // namespace

uint8_t *Machine::dmaSideClear(exe::MemorySpace space, int64_t base,
                               int64_t stride, int64_t chunkBytes,
                               int64_t chunks, int64_t lo, int64_t hi,
                               bool write) {
  uint8_t *p;
  if (space == exe::HBM) {
    p = dev_.hbmRange(lo, hi - lo);
  } else {
    absl::Span<uint8_t> mem =
        space == exe::VMEM ? vmem_ : absl::MakeSpan(smem_);
    p = lo >= 0 && hi <= static_cast<int64_t>(mem.size()) ? mem.data() + lo
                                                           : nullptr;
  }
  if (!p)
    return nullptr;
  // The DMAs in flight it conflicts with (as `side` in dma() checks each
  // chunk): on the hull, unless the hull has many more pages than the
  // chunks (a strided read across a large table), then chunk by chunk.
  bool readers = write, writers = space != exe::HBM || !write;
  int64_t page = kPageBytes;
  int64_t hullPages = (hi - 1) / page - lo / page + 1;
  // A conflict on the hull may be between the chunks (a strided copy
  // beside another DMA's rows): then the chunks decide.
  if (hullPages > 2 * chunks + 2 ||
      inFlightRanges_.conflict(space, lo, hi, readers, writers)) {
    for (int64_t c = 0; c < chunks; ++c) {
      int64_t a = base + c * stride;
      if (inFlightRanges_.conflict(space, a, a + chunkBytes, readers, writers))
        return nullptr;
    }
  }
  if (!write && space != exe::HBM)
    for (int64_t c = 0; c < chunks; ++c)
      if (firstUninitialised(space, base + c * stride, chunkBytes) >= 0)
        return nullptr;
  return p;
}

bool Machine::dmaWhole(exe::MemorySpace srcSpace, int64_t src,
                       int64_t srcStride, exe::MemorySpace dstSpace,
                       int64_t dst, int64_t dstStride, int64_t chunkBytes,
                       int64_t chunks, uint64_t *deps) {
  int64_t srcLo, srcHi, dstLo, dstHi;
  if (!chunkHull(src, srcStride, chunks, chunkBytes, &srcLo, &srcHi) ||
      !chunkHull(dst, dstStride, chunks, chunkBytes, &dstLo, &dstHi))
    return false;
  // A chunk may read what an earlier one wrote: chunk order matters.
  if (srcSpace == dstSpace && srcLo < dstHi && dstLo < srcHi)
    return false;
  // The checks, with no side effects, then the bookings.
  uint8_t *srcMem = dmaSideClear(srcSpace, src, srcStride, chunkBytes, chunks,
                                 srcLo, srcHi, false);
  uint8_t *dstMem = srcMem ? dmaSideClear(dstSpace, dst, dstStride, chunkBytes,
                                          chunks, dstLo, dstHi, true)
                           : nullptr;
  if (!dstMem)
    return false;
  forEachRun(src, srcStride, chunkBytes, chunks, [&](int64_t b, int64_t e) {
    if (srcSpace == exe::VMEM)
      *deps = std::max(*deps, pagesReady(b, e - b, false));
    addRange(dmaReads_, {srcSpace, uint64_t(b), uint64_t(e), false});
  });
  forEachRun(dst, dstStride, chunkBytes, chunks, [&](int64_t b, int64_t e) {
    if (dstSpace == exe::VMEM) {
      *deps = std::max(*deps, pagesReady(b, e - b, true));
      vmemDirty_.addBytes(b, e - b);
    }
    if (dstSpace != exe::HBM)
      markInitialised(dstSpace, b, e - b);
    addRange(dmaWrites_, {dstSpace, uint64_t(b), uint64_t(e), true});
  });
  if (computes())
    copyChunks(dstMem + (dst - dstLo), srcMem + (src - srcLo), chunkBytes,
               chunks, dstStride, srcStride);
  return true;
}

// MXU operands are lane blocks (docs/isa.md, "MXU"): a matrix of D
// columns is D/128 blocks of 128 columns, one after the other, each row-major.
// These copy between that form and a row-major rows x D matrix.
template <typename T>
static void fromLaneBlocks(const uint8_t *src, T *dst, int64_t rows,
                           int64_t d) {
  for (int64_t j = 0; j < d / kLanes; ++j)
    for (int64_t r = 0; r < rows; ++r)
      std::memcpy(dst + r * d + j * kLanes,
                  src + ((j * rows + r) * kLanes) * sizeof(T),
                  kLanes * sizeof(T));
}
template <typename T>
static void toLaneBlocks(const T *src, uint8_t *dst, int64_t rows, int64_t d) {
  for (int64_t j = 0; j < d / kLanes; ++j)
    for (int64_t r = 0; r < rows; ++r)
      std::memcpy(dst + ((j * rows + r) * kLanes) * sizeof(T),
                  src + r * d + j * kLanes, kLanes * sizeof(T));
}

void Machine::matmul(const PackedRhs &rhs, const uint16_t *lhs, float *out,
                     int64_t rows, bool accumulate) {
  // Parts of at least this many rows (2 * 128 * 128 * 128 flops, tens of
  // microseconds): smaller ones cost more to hand over than they save.
  constexpr int64_t kMinRowsPerPart = 128;
  HostThreads *threads = dev_.hostThreads(opts_.hostThreads);
  int64_t parts = threads ? std::min<int64_t>(threads->threads(),
                                              rows / kMinRowsPerPart)
                          : 1;
  if (parts <= 1)
    return matmulBf16(rhs, lhs, out, rows, accumulate);
  // Each output row is computed alone (in k order, whatever the rows around
  // it): the split changes no bit.
  int64_t perPart = (rows + parts - 1) / parts;
  int64_t k = rhs.k(), n = rhs.n();
  threads->run(static_cast<int>(parts), [&](int part) {
    int64_t begin = part * perPart, end = std::min(rows, begin + perPart);
    if (begin < end)
      matmulBf16(rhs, lhs + begin * k, out + begin * n, end - begin,
                 accumulate);
  });
}

absl::Status Machine::mxuOp(const exe::Instruction &in) {
  uint32_t mxu = in.mxu();
  MxuTiming &m = mxus_[mxu];
  const int64_t d = mxuDim_;
  uint64_t start = issueIn(kMatrixSlot);
  if (in.opcode() == exe::MXU_LOAD_WEIGHTS) {
    int64_t addr = arg(0), bytes = d * d * 2;
    absl::StatusOr<uint8_t *> p = access(exe::VMEM, addr, bytes, false);
    if (!p.ok())
      return p.status();
    // The weights shift into the buffer the matmul before last used, while
    // the array keeps computing with the other one.
    int next = 1 - m.current;
    start = std::max({start, m.loadFree, m.bufferFree[next],
                      pagesReady(addr, bytes, false)});
    if (computes()) {
      // The kernels want a typed row-major array: one lane block (D = 128)
      // at an aligned address is one already.
      const uint16_t *rhs = reinterpret_cast<const uint16_t *>(*p);
      if (d != kLanes || addr % alignof(uint16_t) != 0) {
        weightScratch_.resize(d * d);
        fromLaneBlocks(*p, weightScratch_.data(), d, d);
        rhs = weightScratch_.data();
      }
      weights_[mxu].pack(dev_.kernels_, rhs, d, d);
    }
    weightsLoaded_[mxu] = true;
    uint64_t end = start + d; // one weight row per cycle
    m.loadFree = m.weightsReady = end;
    m.current = next;
    markPages(addr, bytes, end, false);
    record(Unit::Mxu, mxu, start, end);
    ++pc_;
    return absl::OkStatus();
  }
  int64_t lhs = arg(0), dst = arg(1), rows = arg(2);
  if (rows <= 0 || rows % kSublanes != 0 || rows > (int64_t(1) << 24))
    return trap(absl::StrCat("MXU_MATMUL rows ", rows,
                             " must be a positive multiple of 8"));
  if (!weightsLoaded_[mxu])
    return trap(absl::StrCat("MXU ", mxu, " has no weights loaded"));
  int64_t lhsBytes = rows * d * 2, dstBytes = rows * d * 4;
  absl::StatusOr<uint8_t *> lhsPtr = access(exe::VMEM, lhs, lhsBytes, false);
  if (!lhsPtr.ok())
    return lhsPtr.status();
  // Result rows pop out in order: rewriting the rows this MXU's previous
  // matmul wrote, with nothing else touching them since, needs no wait
  // beyond the stream order (the accumulation over K of one output tile).
  uint64_t dstReady = pagesReady(dst, dstBytes, true);
  if (dst == m.lastDst && dstBytes == m.lastDstBytes && dstReady <= m.lastDone)
    dstReady = 0;
  // LHS row r enters the array at start + r: it needs its page ready then
  // (a 128-wide array reads 256-byte rows; other widths read lane blocks,
  // so all of the LHS first).
  uint64_t lhsReady = 0;
  if (d == kLanes) {
    const int64_t rowBytes = d * 2;
    for (int64_t p = lhs / kPageBytes, last = (lhs + lhsBytes - 1) / kPageBytes;
         p <= last; ++p) {
      uint64_t firstRow = static_cast<uint64_t>(
          std::max<int64_t>(0, p * kPageBytes - lhs) / rowBytes);
      uint64_t ready = vmemWritten_[p];
      lhsReady = std::max(lhsReady, ready - std::min(ready, firstRow));
    }
  } else {
    lhsReady = pagesReady(lhs, lhsBytes, false);
  }
  start = std::max({start, m.streamFree, m.weightsReady, lhsReady, dstReady});
  if (in.accumulate()) {
    absl::StatusOr<uint8_t *> acc = access(exe::VMEM, dst, dstBytes, false);
    if (!acc.ok())
      return acc.status();
  }
  absl::StatusOr<uint8_t *> dstPtr = access(exe::VMEM, dst, dstBytes, true);
  if (!dstPtr.ok())
    return dstPtr.status();
  bool disjoint = lhs + lhsBytes <= dst || dst + dstBytes <= lhs;
  if (computes() && d == kLanes && disjoint && lhs % alignof(float) == 0 &&
      dst % alignof(float) == 0) {
    // One lane block each: the kernel works on VMEM in place.
    matmul(weights_[mxu], reinterpret_cast<const uint16_t *>(*lhsPtr),
           reinterpret_cast<float *>(*dstPtr), rows, in.accumulate());
  } else if (computes()) {
    // VMEM is unaligned bytes; the kernels want typed arrays.
    lhsScratch_.resize(rows * d);
    outScratch_.resize(rows * d);
    if (d == kLanes) {
      std::memcpy(lhsScratch_.data(), *lhsPtr, lhsBytes);
      if (in.accumulate())
        std::memcpy(outScratch_.data(), *dstPtr, dstBytes);
    } else {
      fromLaneBlocks(*lhsPtr, lhsScratch_.data(), rows, d);
      if (in.accumulate())
        fromLaneBlocks(*dstPtr, outScratch_.data(), rows, d);
    }
    matmul(weights_[mxu], lhsScratch_.data(), outScratch_.data(), rows,
           in.accumulate());
    if (d == kLanes)
      std::memcpy(*dstPtr, outScratch_.data(), dstBytes);
    else
      toLaneBlocks(outScratch_.data(), *dstPtr, rows, d);
  }
  // Weight-stationary systolic array (SCALE-Sim): one LHS row enters per
  // cycle; the last result row leaves after the skew fill (D rows) and
  // drain (D columns). The next matmul's rows may enter right behind.
  uint64_t streamEnd = start + rows;
  uint64_t done = streamEnd + 2 * d - 2;
  m.streamFree = streamEnd;
  m.bufferFree[m.current] = std::max(m.bufferFree[m.current], done);
  m.lastDst = dst;
  m.lastDstBytes = dstBytes;
  m.lastDone = done;
  markPages(lhs, lhsBytes, streamEnd, false);
  if (d == kLanes) {
    // Result row r is written at start + r + 2D - 1 (the last at done): each
    // page when its last row is out.
    const int64_t rowBytes = d * 4;
    for (int64_t p = dst / kPageBytes, last = (dst + dstBytes - 1) / kPageBytes;
         p <= last; ++p) {
      int64_t end = std::min((p + 1) * int64_t(kPageBytes), dst + dstBytes);
      uint64_t lastRow = static_cast<uint64_t>((end - 1 - dst) / rowBytes);
      vmemWritten_[p] =
          std::max(vmemWritten_[p], start + lastRow + 2 * d - 1);
    }
  } else {
    markPages(dst, dstBytes, done, true);
  }
  record(Unit::Mxu, mxu, start, streamEnd, 2.0 * rows * d * d);
  finish_ = std::max(finish_, done);
  ++pc_;
  return absl::OkStatus();
}

absl::Status Machine::vectorMemory(const exe::Instruction &in,
                                   uint64_t issued) {
  bool store = in.opcode() == exe::VST;
  int64_t elem = in.dtype() == exe::BF16 ? 2 : 4;
  int64_t rowBytes = kLanes * elem;
  int64_t addr = arg(0), stride = arg(1);
  if (stride == 0)
    stride = rowBytes;
  uint64_t &path = store ? vstFree_ : vldFree_;
  int written = store ? 0 : 1;
  uint64_t start = vpuEarliest(in, written, issued, path);
  Vreg &reg = v_[store ? in.vsrc(0) : in.dst()];
  // Contiguous rows are one access for provenance, so that a store of a
  // whole granule replaces its writers.
  bool contiguous = stride == rowBytes;
  int64_t blockBytes = kSublanes * rowBytes;
  if (tracking_ && contiguous && addr >= 0 &&
      addr <= static_cast<int64_t>(vmem_.size()) - blockBytes)
    trackOnChip(exe::VMEM, addr, blockBytes, store);
  // Contiguous rows are also one access for the checks and the scoreboard
  // (the same outcome as row by row); if that would trap, the rows are
  // checked one by one for the trap's exact message.
  uint8_t *rows[kSublanes];
  if (uint8_t *p = contiguous ? checkedAccess(exe::VMEM, addr, blockBytes,
                                              store, false, nullptr)
                              : nullptr) {
    for (int s = 0; s < kSublanes; ++s)
      rows[s] = p + s * rowBytes;
    start = std::max(start, pagesReady(addr, blockBytes, store));
  } else {
    for (int s = 0; s < kSublanes; ++s) {
      int64_t rowAddr = addr + s * stride;
      absl::StatusOr<uint8_t *> p =
          access(exe::VMEM, rowAddr, rowBytes, store, !contiguous);
      if (!p.ok())
        return p.status();
      rows[s] = *p;
      start = std::max(start, pagesReady(rowAddr, rowBytes, store));
    }
  }
  if (computes()) {
    // Contiguous rows move as one block.
    int count = contiguous ? 1 : kSublanes;
    int64_t lanes = contiguous ? kVregElements : kLanes;
    for (int s = 0; s < count; ++s) {
      uint32_t *lane = reg.data() + s * kLanes;
      if (elem == 4 && store)
        std::memcpy(rows[s], lane, lanes * 4);
      else if (elem == 4)
        std::memcpy(lane, rows[s], lanes * 4);
      else if (store)
        narrowToBf16(dev_.kernels_, lane, rows[s], lanes);
      else
        widenBf16(dev_.kernels_, rows[s], lane, lanes);
    }
  }
  uint64_t end = vpuBook(in, written, start, kVpuCycles, path);
  if (contiguous)
    markPages(addr, blockBytes, end, store);
  else
    for (int s = 0; s < kSublanes; ++s)
      markPages(addr + s * stride, rowBytes, end, store);
  record(Unit::Vpu, store ? 3 : 2, start, end);
  return absl::OkStatus();
}

namespace {

float unaryF32(exe::Opcode op, float x) {
  switch (op) {
  case exe::VNEG:
    return -x;
  case exe::VABS:
    return std::fabs(x);
  case exe::VEXP:
    return std::exp(x);
  case exe::VLOG:
    return std::log(x);
  case exe::VTANH:
    return std::tanh(x);
  case exe::VRSQRT:
    return 1.0f / std::sqrt(x);
  case exe::VSQRT:
    return std::sqrt(x);
  default: // VRCP
    return 1.0f / x;
  }
}

// s32 arithmetic with XLA's results for the cases C++ leaves undefined.
int32_t binaryS32(exe::Opcode op, int32_t a, int32_t b) {
  auto wrap = [](int64_t v) { return static_cast<int32_t>(uint32_t(v)); };
  switch (op) {
  case exe::VADD:
    return wrap(int64_t(a) + b);
  case exe::VSUB:
    return wrap(int64_t(a) - b);
  case exe::VMUL:
    return wrap(int64_t(a) * b);
  case exe::VDIV:
    if (b == 0)
      return -1;
    return b == -1 ? wrap(-int64_t(a)) : a / b;
  case exe::VMAX:
    return std::max(a, b);
  default: // VMIN
    return std::min(a, b);
  }
}

// The u32 forms (dtype U32) of the operations whose result depends on the
// sign: XLA's x / 0 = 2^32 - 1 and x % 0 = x.
uint32_t binaryU32(exe::Opcode op, uint32_t a, uint32_t b) {
  switch (op) {
  case exe::VDIV:
    return b == 0 ? std::numeric_limits<uint32_t>::max() : a / b;
  case exe::VREM:
    return b == 0 ? a : a % b;
  case exe::VMAX:
    return std::max(a, b);
  case exe::VMIN:
    return std::min(a, b);
  default: // VMULHI
    return static_cast<uint32_t>((uint64_t(a) * uint64_t(b)) >> 32);
  }
}

// s32 integer and bit operations (XLA's semantics: a shift by an amount
// that is negative or at least 32, read as unsigned, shifts every bit out;
// x % 0 = x, x % -1 = 0).
uint32_t bitsS32(exe::Opcode op, uint32_t a, uint32_t b) {
  int32_t sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
  switch (op) {
  case exe::VAND:
    return a & b;
  case exe::VOR:
    return a | b;
  case exe::VXOR:
    return a ^ b;
  case exe::VSHL:
    return b >= 32 ? 0 : a << b;
  case exe::VSHRL:
    return b >= 32 ? 0 : a >> b;
  case exe::VSHRA:
    return static_cast<uint32_t>(b >= 32 ? (sa < 0 ? -1 : 0) : sa >> b);
  case exe::VMULHI:
    return static_cast<uint32_t>((int64_t(sa) * int64_t(sb)) >> 32);
  case exe::VREM:
    return sb == 0 ? a : sb == -1 ? 0 : static_cast<uint32_t>(sa % sb);
  case exe::VPOPCNT:
    return static_cast<uint32_t>(__builtin_popcount(a));
  default: // VCLZ
    return a == 0 ? 32 : static_cast<uint32_t>(__builtin_clz(a));
  }
}

// f32 rounding to an integer value and remainder.
float roundF32(exe::Opcode op, float x) {
  switch (op) {
  case exe::VFLOOR:
    return std::floor(x);
  case exe::VCEIL:
    return std::ceil(x);
  case exe::VROUND_AFZ:
    return std::round(x);
  default: // VROUND_EVEN (the host's default rounding mode)
    return std::nearbyint(x);
  }
}

uint32_t convert(exe::DType from, exe::DType to, uint32_t bits) {
  float f = floatFromBits(bits);
  int32_t i = static_cast<int32_t>(bits);
  if (from == exe::S32)
    f = static_cast<float>(i); // round to nearest even
  if (from == exe::U32)
    f = static_cast<float>(bits);
  switch (to) {
  case exe::S32:
    return static_cast<uint32_t>(f32ToS32(f));
  case exe::U32:
    return f32ToU32(f);
  case exe::BF16:
    return floatBits(hostio::roundToBf16(f));
  default:
    return floatBits(f);
  }
}

// Lane loops over whole vregs, the operation chosen once per instruction:
// `dispatch<E, V...>(v, f)` calls f(std::integral_constant<E, v>) for the
// value v among V..., so each loop body is one operation the compiler can
// vectorize (the scalar definitions above, so the same bits).
// Inlined into both compilations of Machine::computeLanes, so each loop is
// vectorised for that one's ISA.
#define TPUC_LANE_LOOP inline __attribute__((always_inline))
#define TPUC_LANE_LOOP_LAMBDA __attribute__((always_inline))

template <typename E, E... Vs, typename F>
TPUC_LANE_LOOP bool dispatch(E value, F f) {
  return ((value == Vs ? (f(std::integral_constant<E, Vs>()), true) : false) ||
          ...);
}

template <typename F> TPUC_LANE_LOOP void map1(const Vreg &a, Vreg &out, F f) {
  for (int i = 0; i < kVregElements; ++i)
    out[i] = f(a[i]);
}

template <typename F>
TPUC_LANE_LOOP void map2(const Vreg &a, const Vreg &b, Vreg &out, F f) {
  for (int i = 0; i < kVregElements; ++i)
    out[i] = f(a[i], b[i]);
}

// f32 lanes through `f` (float -> float or float, float -> float).
template <typename F>
TPUC_LANE_LOOP void mapF32(const Vreg &a, Vreg &out, F f) {
  map1(a, out, [&](uint32_t x) { return floatBits(f(floatFromBits(x))); });
}
template <typename F>
TPUC_LANE_LOOP void mapF32(const Vreg &a, const Vreg &b, Vreg &out, F f) {
  map2(a, b, out, [&](uint32_t x, uint32_t y) {
    return floatBits(f(floatFromBits(x), floatFromBits(y)));
  });
}

// VREDUCE_LANES / VREDUCE_SUBLANES: each group (a sublane's 128 lanes, or a
// lane's 8 sublanes) folded in sequential order, so the result is defined
// bit for bit, and broadcast back to the group.
template <typename T, typename Combine>
TPUC_LANE_LOOP void reduceGroups(const Vreg &a, Vreg &out, bool lanes,
                                 Combine combine) {
  int groups = lanes ? kSublanes : kLanes, width = lanes ? kLanes : kSublanes;
  auto load = [](uint32_t bits) {
    T x;
    std::memcpy(&x, &bits, 4);
    return x;
  };
  for (int g = 0; g < groups; ++g) {
    auto at = [&](int j) { return lanes ? g * kLanes + j : j * kLanes + g; };
    T acc = load(a[at(0)]);
    for (int j = 1; j < width; ++j)
      acc = combine(acc, load(a[at(j)]));
    uint32_t r;
    std::memcpy(&r, &acc, 4);
    for (int j = 0; j < width; ++j)
      out[at(j)] = r;
  }
}

} // namespace

absl::Status Machine::vectorOp(const exe::Instruction &in) {
  exe::Opcode op = in.opcode();
  absl::Status status;
  if (op == exe::VLD || op == exe::VST) {
    status = vectorMemory(in, issueIn(op == exe::VLD ? kLoadSlot : kStoreSlot));
  } else {
    uint64_t issued = issueIn(kValuSlot);
    int alu = valuFree_[1] < valuFree_[0] ? 1 : 0;
    int written = vregsWritten(in);
    uint64_t start = vpuEarliest(in, written, issued, valuFree_[alu]);
    uint64_t end =
        vpuBook(in, written, start, cur_->info->cycles, valuFree_[alu]);
    record(Unit::Vpu, alu, start, end);
    status = vectorCompute(in);
  }
  if (!status.ok())
    return status;
  ++pc_;
  return absl::OkStatus();
}

absl::Status Machine::vectorCompute(const exe::Instruction &in) {
  exe::Opcode op = in.opcode();
  int64_t index = cur_->numArgs > 0 ? arg(0) : 0;
  if (op == exe::VBCAST_LANE && (index < 0 || index >= kLanes))
    return trap(absl::StrCat("lane ", index, " not in [0, 128)"));
  if (op == exe::VBCAST_SUBLANE && (index < 0 || index >= kSublanes))
    return trap(absl::StrCat("sublane ", index, " not in [0, 8)"));
  if (op == exe::VREDUCE_PRECISION && (index < 1 || arg(1) < 0))
    return trap(absl::StrCat("reduce-precision to ", index,
                             " exponent and ", arg(1),
                             " mantissa bits (needs >= 1 and >= 0)"));
  if (!computes())
    return absl::OkStatus();
  return vpuAvx2_ ? computeLanesAvx2(in) : computeLanesBaseline(in);
}

TPUC_LANE_LOOP absl::Status
Machine::computeLanes(const exe::Instruction &in) {
  exe::Opcode op = in.opcode();
  int64_t index = cur_->numArgs > 0 ? arg(0) : 0;
  bool isF32 = in.dtype() == exe::F32, isU32 = in.dtype() == exe::U32;
  const Vreg &a = v_[in.vsrc_size() > 0 ? in.vsrc(0) : 0];
  const Vreg &b = v_[in.vsrc_size() > 1 ? in.vsrc(1) : 0];
  // Lane-wise operations write the destination in place (lane i reads only
  // lane i of its sources, so a source may be the destination); the
  // cross-lane ones read a copy of their source.
  Vreg &out = v_[in.dst()];
  using exe::Opcode;
  switch (op) {
  case exe::VSPLAT:
    out.fill(static_cast<uint32_t>(index));
    break;
  case exe::VMOV:
    out = a;
    break;
  case exe::VADD:
  case exe::VSUB:
  case exe::VMUL:
  case exe::VDIV:
    if (isF32) {
      BinaryOp bop = op == exe::VADD   ? BinaryOp::Add
                     : op == exe::VSUB ? BinaryOp::Sub
                     : op == exe::VMUL ? BinaryOp::Mul
                                       : BinaryOp::Div;
      binaryF32(dev_.kernels_, bop, reinterpret_cast<const float *>(a.data()),
                reinterpret_cast<const float *>(b.data()),
                reinterpret_cast<float *>(out.data()), kVregElements);
      break;
    }
    [[fallthrough]];
  case exe::VMAX:
  case exe::VMIN:
    if (isF32 && op == exe::VMAX)
      mapF32(a, b, out, maxNan);
    else if (isF32)
      mapF32(a, b, out, minNan);
    else if (isU32)
      dispatch<Opcode, exe::VDIV, exe::VMAX, exe::VMIN>(op, [&](auto c) {
        map2(a, b, out, [](uint32_t x, uint32_t y) {
          return binaryU32(decltype(c)::value, x, y);
        });
      });
    else
      dispatch<Opcode, exe::VADD, exe::VSUB, exe::VMUL, exe::VDIV, exe::VMAX,
               exe::VMIN>(op, [&](auto c) {
        map2(a, b, out, [](uint32_t x, uint32_t y) {
          return static_cast<uint32_t>(binaryS32(decltype(c)::value,
                                                 static_cast<int32_t>(x),
                                                 static_cast<int32_t>(y)));
        });
      });
    break;
  case exe::VCMP:
    dispatch<exe::CmpKind, exe::EQ, exe::NE, exe::LT, exe::LE, exe::GT,
             exe::GE>(in.cmp(), [&](auto c) TPUC_LANE_LOOP_LAMBDA {
      constexpr exe::CmpKind kind = decltype(c)::value;
      if (isF32)
        map2(a, b, out, [](uint32_t x, uint32_t y) -> uint32_t {
          return compare(kind, floatFromBits(x), floatFromBits(y));
        });
      else if (isU32)
        map2(a, b, out, [](uint32_t x, uint32_t y) -> uint32_t {
          return compare(kind, x, y);
        });
      else
        map2(a, b, out, [](uint32_t x, uint32_t y) -> uint32_t {
          return compare(kind, static_cast<int32_t>(x),
                         static_cast<int32_t>(y));
        });
    });
    break;
  case exe::VSEL: {
    const Vreg &onFalse = v_[in.vsrc(2)];
    for (int i = 0; i < kVregElements; ++i) {
      uint32_t mask = 0u - static_cast<uint32_t>(a[i] != 0);
      out[i] = (b[i] & mask) | (onFalse[i] & ~mask);
    }
    break;
  }
  case exe::VNEG:
  case exe::VABS:
  case exe::VEXP:
  case exe::VLOG:
  case exe::VTANH:
  case exe::VRSQRT:
  case exe::VSQRT:
  case exe::VRCP:
    if (isF32)
      dispatch<Opcode, exe::VNEG, exe::VABS, exe::VEXP, exe::VLOG, exe::VTANH,
               exe::VRSQRT, exe::VSQRT, exe::VRCP>(op, [&](auto c) {
        mapF32(a, out, [](float x) { return unaryF32(decltype(c)::value, x); });
      });
    else if (op == exe::VNEG)
      map1(a, out, [](uint32_t x) { return 0u - x; });
    else
      map1(a, out, [](uint32_t x) {
        int64_t v = static_cast<int32_t>(x);
        return static_cast<uint32_t>(std::abs(v));
      });
    break;
  case exe::VCVT:
    dispatch<exe::DType, exe::F32, exe::BF16, exe::S32, exe::U32>(
        in.src_dtype(), [&](auto from) {
          dispatch<exe::DType, exe::F32, exe::BF16, exe::S32, exe::U32>(
              in.dtype(), [&](auto to) {
                map1(a, out, [](uint32_t x) {
                  return convert(decltype(from)::value, decltype(to)::value,
                                 x);
                });
              });
        });
    break;
  case exe::VREM:
    if (isF32) {
      mapF32(a, b, out, [](float x, float y) { return std::fmod(x, y); });
      break;
    }
    [[fallthrough]];
  case exe::VMULHI:
    if (isU32) {
      dispatch<Opcode, exe::VREM, exe::VMULHI>(op, [&](auto c) {
        map2(a, b, out, [](uint32_t x, uint32_t y) {
          return binaryU32(decltype(c)::value, x, y);
        });
      });
      break;
    }
    [[fallthrough]];
  case exe::VAND:
  case exe::VOR:
  case exe::VXOR:
  case exe::VSHL:
  case exe::VSHRL:
  case exe::VSHRA:
    dispatch<Opcode, exe::VREM, exe::VMULHI, exe::VAND, exe::VOR, exe::VXOR,
             exe::VSHL, exe::VSHRL, exe::VSHRA>(op, [&](auto c) {
      map2(a, b, out, [](uint32_t x, uint32_t y) {
        return bitsS32(decltype(c)::value, x, y);
      });
    });
    break;
  case exe::VPOPCNT:
  case exe::VCLZ:
    dispatch<Opcode, exe::VPOPCNT, exe::VCLZ>(op, [&](auto c) {
      map1(a, out,
           [](uint32_t x) { return bitsS32(decltype(c)::value, x, 0); });
    });
    break;
  case exe::VFLOOR:
  case exe::VCEIL:
  case exe::VROUND_AFZ:
  case exe::VROUND_EVEN:
    dispatch<Opcode, exe::VFLOOR, exe::VCEIL, exe::VROUND_AFZ,
             exe::VROUND_EVEN>(op, [&](auto c) {
      mapF32(a, out, [](float x) { return roundF32(decltype(c)::value, x); });
    });
    break;
  case exe::VREDUCE_PRECISION: {
    int exponent = static_cast<int>(std::min<int64_t>(index, 8));
    int mantissa = static_cast<int>(std::min<int64_t>(arg(1), 23));
    mapF32(a, out, [&](float x) {
      return hostio::reducePrecision<float, uint32_t, 8, 23>(x, exponent,
                                                             mantissa);
    });
    break;
  }
  case exe::VREDUCE_LANES:
  case exe::VREDUCE_SUBLANES: {
    const Vreg src = a;
    bool lanes = op == exe::VREDUCE_LANES;
    exe::ReduceKind kind = in.reduce();
    if (isF32 && kind == exe::REDUCE_SUM)
      reduceGroups<float>(src, out, lanes, [](float x, float y) { return x + y; });
    else if (isF32 && kind == exe::REDUCE_MAX)
      reduceGroups<float>(src, out, lanes, maxNan);
    else if (isF32)
      reduceGroups<float>(src, out, lanes, minNan);
    else if (isU32 && kind == exe::REDUCE_MAX)
      reduceGroups<uint32_t>(src, out, lanes, [](uint32_t x, uint32_t y) {
        return std::max(x, y);
      });
    else if (isU32 && kind == exe::REDUCE_MIN)
      reduceGroups<uint32_t>(src, out, lanes, [](uint32_t x, uint32_t y) {
        return std::min(x, y);
      });
    else if (kind == exe::REDUCE_SUM)
      reduceGroups<int32_t>(src, out, lanes, [](int32_t x, int32_t y) {
        return binaryS32(exe::VADD, x, y);
      });
    else if (kind == exe::REDUCE_MAX)
      reduceGroups<int32_t>(src, out, lanes,
                            [](int32_t x, int32_t y) { return std::max(x, y); });
    else
      reduceGroups<int32_t>(src, out, lanes,
                            [](int32_t x, int32_t y) { return std::min(x, y); });
    break;
  }
  case exe::VBCAST_LANE:
  case exe::VBCAST_SUBLANE: {
    const Vreg src = a;
    for (int sl = 0; sl < kSublanes; ++sl)
      for (int l = 0; l < kLanes; ++l)
        out[sl * kLanes + l] = op == exe::VBCAST_LANE
                                   ? src[sl * kLanes + index]
                                   : src[index * kLanes + l];
    break;
  }
  case exe::VLANE_ID:
  case exe::VSUBLANE_ID:
    for (int i = 0; i < kVregElements; ++i)
      out[i] = op == exe::VLANE_ID ? i % kLanes : i / kLanes;
    break;
  case exe::VTRANSPOSE: {
    // Rows 8r..8r+7 of the 128x128 block live in register base + r, so
    // the consecutive registers are one row-major 128x128 matrix. The
    // kernel transposes in place or between disjoint blocks; blocks that
    // overlap otherwise go through a copy.
    uint32_t vsrc = in.vsrc(0), dst = in.dst();
    if (vsrc != dst && vsrc < dst + kTransposeRegs &&
        dst < vsrc + kTransposeRegs) {
      std::memmove(v_[dst].data(), v_[vsrc].data(),
                   kTransposeRegs * sizeof(Vreg));
      vsrc = dst;
    }
    transpose32(dev_.kernels_, v_[vsrc].data(), v_[dst].data(), kLanes);
    return absl::OkStatus();
  }
  case exe::VTRANSPOSE_ROWS: {
    // Registers dst .. dst + a0 - 1 only (the loader checked a0 and both
    // blocks): rows 0 .. 8 a0 - 1 of the transpose, computed apart, so any
    // overlap of the blocks reads the source as it was.
    transpose32Rows(dev_.kernels_, v_[in.vsrc(0)].data(), v_[in.dst()].data(),
                    kLanes, index * kSublanes);
    return absl::OkStatus();
  }
  default:
    return unimplemented(in);
  }
  return absl::OkStatus();
}

// The same lane operations compiled twice: integer and IEEE operations
// (no FMA: "avx2" alone does not enable it) give the same bits on both.
absl::Status Machine::computeLanesBaseline(const exe::Instruction &in) {
  return computeLanes(in);
}

__attribute__((target("avx2"))) absl::Status
Machine::computeLanesAvx2(const exe::Instruction &in) {
  return computeLanes(in);
}

EmulatorDevice::EmulatorDevice(exe::Target target, KernelPath kernels)
    : target_(std::move(target)), kernels_(kernels) {}

EmulatorDevice::~EmulatorDevice() = default;

InFlightRanges &EmulatorDevice::inFlightRanges() {
  if (!inFlightRanges_)
    inFlightRanges_ = std::make_unique<InFlightRanges>();
  inFlightRanges_->clear();
  return *inFlightRanges_;
}

ZeroedMemory::ZeroedMemory(size_t size) {
  if (size == 0)
    return;
  void *p = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    return;
#ifdef MADV_HUGEPAGE
  if (size >= (size_t(2) << 20))
    madvise(p, size, MADV_HUGEPAGE); // a hint: no huge pages is fine
#endif
  data_ = static_cast<uint8_t *>(p);
  size_ = size;
}

ZeroedMemory &ZeroedMemory::operator=(ZeroedMemory &&other) noexcept {
  if (this != &other) {
    if (data_)
      munmap(data_, size_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

ZeroedMemory::~ZeroedMemory() {
  if (data_)
    munmap(data_, size_);
}

uint8_t *EmulatorDevice::hbmRange(uint64_t addr, uint64_t len) {
  const HbmRegion *region = &lastRegion_;
  if (addr < region->begin || addr - region->begin >= region->size) {
    auto it = hbm_.upper_bound(addr);
    if (it == hbm_.begin())
      return nullptr;
    --it;
    lastRegion_ = {it->first, it->second.size(), it->second.data()};
  }
  uint64_t offset = addr - region->begin, size = region->size;
  if (offset > size || len > size - offset)
    return nullptr;
  return region->data + offset;
}

absl::Status EmulatorDevice::allocate(uint64_t offset, uint64_t size) {
  uint64_t usable = target_.hbm_bytes() - target_.hbm_reserved_bytes();
  if (size == 0 || offset > usable || size > usable - offset)
    return absl::ResourceExhaustedError(absl::StrCat(
        "HBM allocation [", offset, ", +", size, ") exceeds the ", usable,
        " usable bytes of ", target_.name()));
  lastRegion_ = {};
  auto next = hbm_.lower_bound(offset);
  if (next != hbm_.end() && next->first == offset &&
      next->second.size() == size)
    hbm_.erase(next++); // re-allocation: fresh zeroed memory
  bool overlapsNext = next != hbm_.end() && next->first < offset + size;
  bool overlapsPrev = next != hbm_.begin() &&
                      std::prev(next)->first + std::prev(next)->second.size() >
                          offset;
  if (overlapsNext || overlapsPrev)
    return absl::InvalidArgumentError(absl::StrCat(
        "HBM allocation [", offset, ", +", size,
        ") overlaps an existing allocation"));
  ZeroedMemory data(size);
  if (!data.data())
    return absl::ResourceExhaustedError(absl::StrCat(
        "cannot back ", size, " bytes of emulated HBM on this host"));
  hbm_[offset] = std::move(data);
  return absl::OkStatus();
}

absl::Status EmulatorDevice::copyToDevice(uint64_t offset,
                                          absl::Span<const uint8_t> data) {
  uint8_t *p = hbmRange(offset, data.size());
  if (!p)
    return absl::OutOfRangeError(absl::StrCat(
        "copy to HBM [", offset, ", +", data.size(), ") is not allocated"));
  if (!data.empty()) // an empty array's data may be null
    std::memcpy(p, data.data(), data.size());
  return absl::OkStatus();
}

HostThreads *EmulatorDevice::hostThreads(int threads) {
  // Asked once per process: glibc's hardware_concurrency() reads
  // /sys/devices/system/cpu/online (open, read, close) on every call, and
  // this runs for every matmul (36 a CNN training step).
  static const int hostCpus =
      static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (threads <= 0)
    threads = hostCpus;
  if (threads == 1)
    return nullptr;
  if (!threads_ || threads_->threads() != threads)
    threads_ = std::make_unique<HostThreads>(threads);
  return threads_.get();
}

absl::Span<uint8_t> EmulatorDevice::hostView(uint64_t offset, uint64_t size) {
  uint8_t *p = hbmRange(offset, size);
  return p ? absl::MakeSpan(p, size) : absl::Span<uint8_t>();
}

absl::Status EmulatorDevice::copyFromDevice(uint64_t offset,
                                            absl::Span<uint8_t> data) {
  uint8_t *p = hbmRange(offset, data.size());
  if (!p)
    return absl::OutOfRangeError(absl::StrCat(
        "copy from HBM [", offset, ", +", data.size(), ") is not allocated"));
  if (!data.empty()) // an empty array's data may be null
    std::memcpy(data.data(), p, data.size());
  return absl::OkStatus();
}

absl::StatusOr<ExecutionProfile>
EmulatorDevice::execute(const Executable &executable,
                        const ExecuteOptions &options) {
  if (options.functional) {
    staleHbmPages_.clear(); // every value is computed
    Machine machine(*this, executable, options, slice_);
    return machine.run();
  }
  int64_t n = executable.numInstructions();
  if (sliceOf_ != &executable || static_cast<int64_t>(slice_.size()) != n) {
    // The scalar unit and the SMEM side of DMAs are always computed.
    sliceOf_ = &executable;
    slice_.assign(n, false);
    for (int64_t pc = 0; pc < n; ++pc) {
      const exe::Instruction &in = executable.instruction(pc);
      slice_[pc] = getOpcodeInfo(in.opcode())->unit == Unit::Scalar ||
                   (in.opcode() == exe::DMA && (in.src_space() == exe::SMEM ||
                                                in.dst_space() == exe::SMEM));
    }
  }
  for (int64_t restarts = 0;; ++restarts) {
    Machine machine(*this, executable, options, slice_);
    absl::StatusOr<ExecutionProfile> profile = machine.run();
    if (machine.missing().empty()) {
      if (profile.ok())
        profile->controlRestarts = restarts;
      return profile;
    }
    machine.rollbackHbm();
    for (int32_t pc : machine.missing())
      slice_[pc] = true;
  }
}

} // namespace tpuc::runtime
