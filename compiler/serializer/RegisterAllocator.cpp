//===- RegisterAllocator.cpp - register files with spilling ---------------===//

#include "compiler/serializer/RegisterAllocator.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>
#include <limits>

using namespace tpuc::serializer;

RegisterAllocator::RegisterAllocator(std::vector<File> files,
                                     Callbacks callbacks)
    : files(std::move(files)), callbacks(std::move(callbacks)) {
  for (const File &file : this->files) {
    state.regs.emplace_back(file.first + file.count, nullptr);
    state.slotBusy.emplace_back();
  }
  maxSlots.assign(this->files.size(), 0);
}

RegisterAllocator::State::Live *RegisterAllocator::find(Key key) {
  for (State::Live &live : state.live)
    if (live.key == key)
      return &live;
  return nullptr;
}

const RegisterAllocator::State::Live *RegisterAllocator::find(Key key) const {
  return const_cast<RegisterAllocator *>(this)->find(key);
}

std::optional<unsigned> RegisterAllocator::regOf(Key key) const {
  const State::Live *live = find(key);
  if (!live || live->reg < 0)
    return std::nullopt;
  return live->reg;
}

std::optional<unsigned> RegisterAllocator::slotOf(Key key) const {
  const State::Live *live = find(key);
  if (!live || !live->slotValid)
    return std::nullopt;
  return live->slot;
}

void RegisterAllocator::unpin(Key key) {
  auto it = llvm::find(pinned, key);
  if (it != pinned.end())
    pinned.erase(it);
}

void RegisterAllocator::expire(int64_t pos) {
  llvm::erase_if(state.live, [&](const State::Live &live) {
    if (live.lastUse >= pos)
      return false;
    if (live.reg >= 0)
      state.regs[live.file][live.reg] = nullptr;
    if (live.slot >= 0)
      state.slotBusy[live.file][live.slot] = false;
    return true;
  });
}

int RegisterAllocator::freeRegister(int file) const {
  const File &f = files[file];
  for (unsigned r = f.first; r < f.first + f.count; ++r)
    if (!state.regs[file][r])
      return r;
  return -1;
}

bool RegisterAllocator::evictable(const State::Live &live,
                                  llvm::ArrayRef<Key> keep) const {
  return !llvm::is_contained(keep, live.key) &&
         !llvm::is_contained(pinned, live.key);
}

void RegisterAllocator::spillOut(State::Live &live) {
  assert(live.reg >= 0 && "spilling a value that is not in a register");
  if (!live.slotValid) {
    if (live.slot < 0) {
      std::vector<bool> &busy = state.slotBusy[live.file];
      auto it = llvm::find(busy, false);
      live.slot = it - busy.begin();
      if (it == busy.end())
        busy.push_back(true);
      else
        *it = true;
      maxSlots[live.file] =
          std::max<unsigned>(maxSlots[live.file], live.slot + 1);
    }
    callbacks.spill(live.file, live.reg, live.slot);
    ++spills;
    live.slotValid = true;
  }
  state.regs[live.file][live.reg] = nullptr;
  live.reg = -1;
}

std::optional<unsigned>
RegisterAllocator::takeRegister(int file, int64_t pos,
                                llvm::ArrayRef<Key> keep) {
  int r = freeRegister(file);
  if (r >= 0)
    return r;
  // Belady: the value read farthest from here; the first of equals, so
  // that the choice is deterministic.
  State::Live *victim = nullptr;
  int64_t farthest = -1;
  for (State::Live &live : state.live) {
    if (live.file != file || live.reg < 0 || !evictable(live, keep))
      continue;
    int64_t next = callbacks.nextUse(live.key, pos);
    if (next > farthest) {
      farthest = next;
      victim = &live;
    }
  }
  if (!victim)
    return std::nullopt;
  unsigned reg = victim->reg;
  spillOut(*victim);
  return reg;
}

void RegisterAllocator::assign(int file, Key key, unsigned reg,
                               int64_t lastUse) {
  assert(!state.regs[file][reg] && "assigning a busy register");
  state.regs[file][reg] = key;
  State::Live live;
  live.key = key;
  live.file = file;
  live.lastUse = lastUse;
  live.reg = reg;
  state.live.push_back(live);
}

std::optional<unsigned> RegisterAllocator::define(int file, Key key,
                                                  int64_t lastUse, int64_t pos,
                                                  llvm::ArrayRef<Key> keep) {
  std::optional<unsigned> reg = takeRegister(file, pos, keep);
  if (reg)
    assign(file, key, *reg, lastUse);
  return reg;
}

std::optional<unsigned> RegisterAllocator::use(Key key, int64_t pos,
                                               llvm::ArrayRef<Key> keep) {
  State::Live *live = find(key);
  assert(live && "using a value that is not live");
  if (live->reg >= 0)
    return live->reg;
  int file = live->file;
  std::optional<unsigned> reg = takeRegister(file, pos, keep);
  if (!reg)
    return std::nullopt;
  live = find(key); // takeRegister does not add or remove entries
  assert(live->slotValid && "reloading a value that was never spilled");
  callbacks.reload(file, *reg, live->slot);
  ++reloads;
  live->reg = *reg;
  state.regs[file][*reg] = key;
  return reg;
}

std::optional<unsigned>
RegisterAllocator::clearBlock(int file, unsigned count, int64_t pos,
                              llvm::ArrayRef<Key> keep) {
  const File &f = files[file];
  int best = -1;
  unsigned fewest = std::numeric_limits<unsigned>::max();
  for (unsigned start = f.first; start + count <= f.first + f.count; ++start) {
    unsigned held = 0;
    bool ok = true;
    for (unsigned r = start; r < start + count && ok; ++r) {
      if (Key key = state.regs[file][r]) {
        ++held;
        ok = evictable(*find(key), keep);
      }
    }
    if (ok && held < fewest) {
      fewest = held;
      best = start;
    }
  }
  if (best < 0)
    return std::nullopt;
  for (unsigned r = best; r < best + count; ++r)
    if (Key key = state.regs[file][r])
      spillOut(*find(key));
  return best;
}

void RegisterAllocator::reconcile(const State &target) {
  auto targetOf = [&](Key key) -> const State::Live * {
    for (const State::Live &live : target.live)
      if (live.key == key)
        return &live;
    return nullptr;
  };
  // Values away from their target register leave the one they are in (each
  // was spilled since, so its slot holds it); values the target does not
  // know (none should be live) are spilled out of the way.
  for (State::Live &live : state.live) {
    if (live.reg < 0)
      continue;
    const State::Live *want = targetOf(live.key);
    if (!want) {
      spillOut(live);
      continue;
    }
    if (want->reg == live.reg)
      continue;
    assert(live.slotValid && "a value moved without a valid slot");
    state.regs[live.file][live.reg] = nullptr;
    live.reg = -1;
  }
  // Then each goes back to its register.
  for (State::Live &live : state.live) {
    const State::Live *want = targetOf(live.key);
    if (!want || want->reg < 0 || live.reg == want->reg)
      continue;
    assert(live.slotValid && "reconciling a value without its slot");
    callbacks.reload(live.file, want->reg, live.slot);
    ++reloads;
    live.reg = want->reg;
    state.regs[live.file][live.reg] = live.key;
  }
  // The target's state, less the values that expired on this path.
  State next = target;
  llvm::erase_if(next.live, [&](const State::Live &live) {
    if (find(live.key))
      return false;
    if (live.reg >= 0)
      next.regs[live.file][live.reg] = nullptr;
    if (live.slot >= 0)
      next.slotBusy[live.file][live.slot] = false;
    return true;
  });
  state = std::move(next);
}
