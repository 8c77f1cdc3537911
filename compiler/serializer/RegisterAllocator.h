//===- RegisterAllocator.h - register files with spilling -------*- C++ -*-===//
//
// The serializer's register allocation: one walk over a structured program
// in program order (linear scan over live intervals), with spilling. When a
// file runs out of registers, the value whose next use is farthest (Belady)
// goes to a spill slot and comes back by a reload before its next use.
// Control flow keeps one invariant: every path that reaches a point leaves
// the values in the same places, so a loop's back edge and an if's join
// `reconcile` to the state saved at the loop's top / the if's branch.
// Independent of MLIR (values are opaque keys) so that it can be unit tested;
// docs/tpu-dialect.md, "Registers", describes the policy.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_SERIALIZER_REGISTERALLOCATOR_H
#define TPUC_COMPILER_SERIALIZER_REGISTERALLOCATOR_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace tpuc::serializer {

class RegisterAllocator {
public:
  using Key = const void *;

  /// A register file: registers [first, first + count) are allocatable.
  struct File {
    unsigned first = 0, count = 0;
  };

  struct Callbacks {
    /// The position of the next read of `key` at or after `pos` (a read in
    /// a later iteration of an enclosing loop counts at that loop's end);
    /// INT64_MAX when there is none.
    std::function<int64_t(Key key, int64_t pos)> nextUse;
    /// Emit a store of register `reg` of `file` to spill slot `slot`, and
    /// the load back.
    std::function<void(int file, unsigned reg, unsigned slot)> spill, reload;
  };

  /// Where every live value is, and which spill slots hold which: what
  /// save() returns and reconcile() restores.
  struct State {
    struct Live {
      Key key = nullptr;
      int file = 0;
      int64_t lastUse = 0;
      int reg = -1;           // -1: not in a register (spilled)
      int slot = -1;          // -1: no slot yet
      bool slotValid = false; // the slot holds the value on this path
    };
    std::vector<Live> live;                  // in definition order
    std::vector<std::vector<Key>> regs;      // file -> register -> value
    std::vector<std::vector<bool>> slotBusy; // file -> slot -> taken
  };

  RegisterAllocator(std::vector<File> files, Callbacks callbacks);

  /// Frees the registers and slots of values whose last use is before `pos`.
  void expire(int64_t pos);

  /// A register of `file` for `key`, defined at `pos` and live to
  /// `lastUse`. Spills the value of the file read farthest away when none
  /// is free, never a pinned value or one in `keep`; nullopt when every
  /// register holds one of those.
  std::optional<unsigned> define(int file, Key key, int64_t lastUse,
                                 int64_t pos, llvm::ArrayRef<Key> keep);

  /// Makes sure the live `key` is in a register (reloading it if it was
  /// spilled) and returns it; nullopt as for define.
  std::optional<unsigned> use(Key key, int64_t pos, llvm::ArrayRef<Key> keep);

  /// Empties `count` consecutive registers of `file` (spilling what they
  /// hold, preferring the block that holds the fewest values, the lowest of
  /// equals) and returns the first; nullopt if every block holds a pinned
  /// value or one in `keep`. The caller then assign()s them.
  std::optional<unsigned> clearBlock(int file, unsigned count, int64_t pos,
                                     llvm::ArrayRef<Key> keep);
  /// Records `key` (defined at `pos`, live to `lastUse`) in the free `reg`.
  void assign(int file, Key key, unsigned reg, int64_t lastUse);

  /// A pinned value is never spilled (a loop counter LOOP_END reads).
  void pin(Key key) { pinned.push_back(key); }
  void unpin(Key key);

  /// The register of `key`, if it is in one.
  std::optional<unsigned> regOf(Key key) const;
  /// The spill slot holding `key`, if it was spilled on this path.
  std::optional<unsigned> slotOf(Key key) const;

  State save() const { return state; }
  /// Makes the live values sit where `target` (a state saved earlier on
  /// this path) had them: values that moved are reloaded into their
  /// registers there, values `target` had spilled leave their registers.
  /// Then the state is `target`'s, less what has expired since.
  void reconcile(const State &target);
  /// Takes `target` as the state without emitting anything (a path that
  /// starts from it: an if's other branch, a while's exit).
  void restore(const State &target) { state = target; }

  /// The most spill slots `file` used at once: the spill area's size.
  unsigned slotsUsed(int file) const { return maxSlots[file]; }
  unsigned spillCount() const { return spills; }
  unsigned reloadCount() const { return reloads; }

private:
  State::Live *find(Key key);
  const State::Live *find(Key key) const;
  int freeRegister(int file) const;
  bool evictable(const State::Live &live, llvm::ArrayRef<Key> keep) const;
  /// Empties a register of `file`: the free one, else the victim's.
  std::optional<unsigned> takeRegister(int file, int64_t pos,
                                       llvm::ArrayRef<Key> keep);
  void spillOut(State::Live &live);

  std::vector<File> files;
  Callbacks callbacks;
  State state;
  std::vector<Key> pinned;
  std::vector<unsigned> maxSlots;
  unsigned spills = 0, reloads = 0;
};

} // namespace tpuc::serializer

#endif // TPUC_COMPILER_SERIALIZER_REGISTERALLOCATOR_H
