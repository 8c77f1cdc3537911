// The register allocator's decisions (spill victims, reloads, slots, the
// reconciliation at a loop's back edge), on opaque keys and a recorded log
// of the spill code it asks for.
#include "compiler/serializer/RegisterAllocator.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <string>
#include <vector>

namespace {

using tpuc::serializer::RegisterAllocator;
using Key = RegisterAllocator::Key;

class RegisterAllocatorTest : public ::testing::Test {
protected:
  // One file of `count` registers, r1..r<count> (r0 is not allocatable, as
  // the scalar file's s0), and the next uses the test sets.
  RegisterAllocator make(unsigned count) {
    RegisterAllocator::Callbacks callbacks;
    callbacks.nextUse = [this](Key key, int64_t pos) {
      for (int64_t use : uses[key])
        if (use >= pos)
          return use;
      return std::numeric_limits<int64_t>::max();
    };
    callbacks.spill = [this](int file, unsigned reg, unsigned slot) {
      log.push_back("spill r" + std::to_string(reg) + " -> " +
                    std::to_string(slot));
    };
    callbacks.reload = [this](int file, unsigned reg, unsigned slot) {
      log.push_back("reload r" + std::to_string(reg) + " <- " +
                    std::to_string(slot));
    };
    return RegisterAllocator({{1, count}}, callbacks);
  }
  Key key(int i) { return &values[i]; }

  int values[16] = {};
  std::map<Key, std::vector<int64_t>> uses;
  std::vector<std::string> log;
};

TEST_F(RegisterAllocatorTest, NoSpillWhileRegistersAreFree) {
  RegisterAllocator ra = make(2);
  EXPECT_EQ(ra.define(0, key(0), 5, 0, {}), 1u);
  EXPECT_EQ(ra.define(0, key(1), 5, 1, {}), 2u);
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(ra.slotsUsed(0), 0u);
}

TEST_F(RegisterAllocatorTest, SpillsTheValueReadFarthestAway) {
  RegisterAllocator ra = make(2);
  uses[key(0)] = {9};
  uses[key(1)] = {4};
  ra.define(0, key(0), 9, 0, {});
  ra.define(0, key(1), 4, 1, {});
  // No register is free: key 0 (next read at 9) goes, not key 1 (at 4).
  EXPECT_EQ(ra.define(0, key(2), 3, 2, {}), 1u);
  EXPECT_EQ(log, std::vector<std::string>{"spill r1 -> 0"});
  EXPECT_FALSE(ra.regOf(key(0)));
  EXPECT_EQ(ra.slotOf(key(0)), 0u);
  // Reading it back needs a register: key 1 is read at 4, key 2 never
  // again, so key 2's goes.
  ra.expire(4); // key 2 (last use 3) is dead: its register is free
  EXPECT_EQ(ra.use(key(0), 4, {key(1)}), 1u);
  EXPECT_EQ(log.back(), "reload r1 <- 0");
  EXPECT_EQ(ra.spillCount(), 1u);
  EXPECT_EQ(ra.reloadCount(), 1u);
}

TEST_F(RegisterAllocatorTest, KeptAndPinnedValuesStay) {
  RegisterAllocator ra = make(2);
  uses[key(0)] = {100};
  uses[key(1)] = {50};
  ra.define(0, key(0), 100, 0, {});
  ra.define(0, key(1), 50, 1, {});
  ra.pin(key(0));
  // key 0 is farthest but pinned; key 1 is an operand of the op.
  EXPECT_FALSE(ra.define(0, key(2), 3, 2, {key(1)}));
  EXPECT_TRUE(log.empty());
  ra.unpin(key(0));
  EXPECT_EQ(ra.define(0, key(2), 3, 2, {key(1)}), 1u);
}

TEST_F(RegisterAllocatorTest, StoresOnceAndReusesSlotsOfDeadValues) {
  RegisterAllocator ra = make(1);
  uses[key(0)] = {10, 20};
  ra.define(0, key(0), 20, 0, {});
  ra.define(0, key(1), 2, 1, {}); // spills key 0 to slot 0
  ra.expire(10);
  ra.use(key(0), 10, {});
  // Spilled again: its slot still holds it, no second store.
  ra.define(0, key(2), 12, 11, {});
  EXPECT_EQ(log, (std::vector<std::string>{"spill r1 -> 0", "reload r1 <- 0"}));
  // key 0 dies at 20: a value spilled after it takes slot 0 again.
  ra.expire(21);
  ra.define(0, key(3), 40, 21, {});
  uses[key(3)] = {40};
  ra.define(0, key(4), 22, 22, {});
  EXPECT_EQ(log.back(), "spill r1 -> 0");
  EXPECT_EQ(ra.slotsUsed(0), 1u);
}

TEST_F(RegisterAllocatorTest, ReconcileRestoresTheLoopTop) {
  RegisterAllocator ra = make(2);
  uses[key(0)] = {5, 30};
  uses[key(1)] = {6, 30};
  ra.define(0, key(0), 30, 0, {}); // r1
  ra.define(0, key(1), 30, 1, {}); // r2
  RegisterAllocator::State top = ra.save();
  // In the body: a value pushes key 1 out, then key 1 comes back while key
  // 0 is kept, so key 0 goes too and key 1 lands in key 0's register.
  ra.define(0, key(2), 3, 2, {key(0)}); // spills key 1 (r2)
  ra.expire(4);
  ra.define(0, key(3), 7, 4, {}); // r2: key 2 is dead
  ra.use(key(1), 6, {key(3)});    // spills key 0 (r1), reloads key 1
  ASSERT_EQ(ra.regOf(key(1)), 1u);
  ra.expire(20);
  log.clear();
  // The back edge: both go back where the top had them.
  ra.reconcile(top);
  EXPECT_EQ(ra.regOf(key(0)), 1u);
  EXPECT_EQ(ra.regOf(key(1)), 2u);
  EXPECT_EQ(log,
            (std::vector<std::string>{"reload r1 <- 1", "reload r2 <- 0"}));
  // After it the state is the top's: nothing known to be in a slot.
  EXPECT_FALSE(ra.slotOf(key(0)));
  EXPECT_FALSE(ra.slotOf(key(1)));
}

TEST_F(RegisterAllocatorTest, ReconcileDropsWhatTheTopHadSpilled) {
  RegisterAllocator ra = make(1);
  uses[key(0)] = {50};
  ra.define(0, key(0), 50, 0, {});
  ra.define(0, key(1), 2, 1, {}); // spills key 0
  ra.expire(3);
  RegisterAllocator::State top = ra.save();
  ra.use(key(0), 10, {}); // reloaded in the body
  log.clear();
  ra.reconcile(top);
  // At the top key 0 was in its slot: nothing to emit, the register is free.
  EXPECT_TRUE(log.empty());
  EXPECT_FALSE(ra.regOf(key(0)));
  EXPECT_EQ(ra.slotOf(key(0)), 0u);
  EXPECT_EQ(ra.define(0, key(2), 60, 11, {key(0)}), 1u);
}

TEST_F(RegisterAllocatorTest, ClearBlockPrefersTheEmptiestBlock) {
  RegisterAllocator ra = make(6); // r1..r6
  for (int i = 0; i < 4; ++i) {
    uses[key(i)] = {100 + i};
    ra.define(0, key(i), 100 + i, i, {}); // r1..r4
  }
  // Blocks of 3: r1-r3 holds 3 values, r4-r6 one: key 3 is spilled.
  EXPECT_EQ(ra.clearBlock(0, 3, 10, {}), 4u);
  EXPECT_EQ(log, std::vector<std::string>{"spill r4 -> 0"});
  // A kept value in every block: none can be cleared.
  EXPECT_FALSE(ra.clearBlock(0, 6, 10, {key(0)}));
}

} // namespace
