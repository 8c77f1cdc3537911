// Where the data of a timing-only run comes from, so that it can follow the
// program's control flow exactly while skipping most arithmetic
// (docs/runtime.md, "Timing-only runs").
//
// A timing-only run computes only the instructions of its *control slice*:
// the scalar unit, DMAs to and from SMEM, and every instruction whose result
// (transitively) reaches a scalar load. The slice is discovered as the run
// goes: every tracked location (a VMEM page, an HBM page, an SMEM word, a
// vector register, an MXU's weights) remembers the instructions that wrote it
// since it was last overwritten whole. When a computed instruction reads a
// location one of whose writers is not in the slice, that writer joins the
// slice and the run restarts; a run that finishes without a restart computed
// every value that decided control flow from computed values.
//
// Locations also carry a taint: the parameters (bits 0..61, 62 for any
// later one) whose assumed values they depend on, and bit 63 for values a
// previous step wrote but did not compute. A branch or trip count with a
// taint is a data-dependent decision and is reported.
#ifndef TPUC_RUNTIME_EMULATOR_PROVENANCE_H
#define TPUC_RUNTIME_EMULATOR_PROVENANCE_H

#include <cstdint>
#include <vector>

#include "absl/container/inlined_vector.h"

namespace tpuc::runtime {

inline constexpr uint64_t kPreviousStepTaint = uint64_t(1) << 63;
inline constexpr int kMaxTaintedParameter = 62;

// Taint bit of parameter `index`.
inline uint64_t parameterTaint(int index) {
  return uint64_t(1) << (index < kMaxTaintedParameter ? index
                                                      : kMaxTaintedParameter);
}

// One tracked location: who wrote it since its last whole overwrite, and what
// assumed values it depends on. No writers: loaded by the host.
struct Origin {
  absl::InlinedVector<int32_t, 2> writers;
  uint64_t taint = 0;
};

// The bookkeeping of one instruction's reads and writes.
class Provenance {
public:
  // `slice[pc]`: pc is computed in this run.
  explicit Provenance(const std::vector<bool> &slice) : slice_(slice) {}

  bool inSlice(int64_t pc) const { return slice_[pc]; }

  // Starts instruction `pc`; `computing` says whether its results are.
  void begin(int64_t pc, bool computing) {
    pc_ = static_cast<int32_t>(pc);
    computing_ = computing;
    taint_ = 0;
  }
  // Adds taint from a scalar register operand.
  void readTaint(uint64_t taint) { taint_ |= taint; }
  // A computed instruction reading `o` needs o's writers computed too.
  void read(const Origin &o) {
    taint_ |= o.taint;
    if (!computing_)
      return;
    for (int32_t w : o.writers)
      if (!slice_[w])
        missing_.push_back(w);
  }
  // `whole`: the instruction overwrites every byte of the location.
  void write(Origin &o, bool whole) {
    if (whole) {
      o.writers.assign(1, pc_);
      o.taint = taint_;
      return;
    }
    bool known = false;
    for (int32_t w : o.writers)
      known |= w == pc_;
    if (!known)
      o.writers.push_back(pc_);
    o.taint |= taint_;
  }
  // The taint of what the current instruction computed.
  uint64_t taint() const { return taint_; }

  // Writers the slice lacks (the run must restart with them).
  const std::vector<int32_t> &missing() const { return missing_; }

private:
  const std::vector<bool> &slice_;
  int32_t pc_ = 0;
  bool computing_ = false;
  uint64_t taint_ = 0;
  std::vector<int32_t> missing_;
};

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_EMULATOR_PROVENANCE_H
