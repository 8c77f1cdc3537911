// The heap simulator on small hand-computed cases, and its invariants on
// generated ones.
#include "compiler/analysis/HeapSimulator.h"

#include <gtest/gtest.h>

#include <random>

using namespace tpuc::analysis;

namespace {

TEST(HeapSimulatorTest, DisjointRangesShareMemory) {
  // A and B never live together; C overlaps both.
  std::vector<HeapInterval> buffers = {{100, 0, 1}, {100, 2, 3}, {50, 1, 2}};
  HeapAssignment heap = simulateHeap(buffers, 1);
  EXPECT_EQ(heap.offsets, (std::vector<int64_t>{0, 0, 100}));
  EXPECT_EQ(heap.heapSize, 150);
  EXPECT_EQ(livenessLowerBound(buffers), 150);
}

TEST(HeapSimulatorTest, TouchingRangesInterfere) {
  // Live ranges are inclusive: an op reads its operand while it writes.
  std::vector<HeapInterval> buffers = {{64, 0, 2}, {64, 2, 4}};
  EXPECT_EQ(simulateHeap(buffers, 1).heapSize, 128);
  EXPECT_EQ(livenessLowerBound(buffers), 128);
}

TEST(HeapSimulatorTest, BestFitPicksTheSmallestHole) {
  // By size: the two short buffers leave holes of 60 (at 100) and 48 (at
  // 210) between long-lived ones; the late 40-byte buffer takes the 48.
  std::vector<HeapInterval> buffers = {{100, 0, 9}, {60, 0, 2}, {50, 0, 9},
                                       {48, 0, 2},  {47, 0, 9}, {40, 3, 9}};
  HeapAssignment heap = simulateHeap(buffers, 1);
  EXPECT_EQ(heap.offsets, (std::vector<int64_t>{0, 100, 160, 210, 258, 210}));
  EXPECT_EQ(heap.heapSize, 305);
  EXPECT_STREQ(heap.ordering, "size");
  EXPECT_EQ(livenessLowerBound(buffers), 305);
}

TEST(HeapSimulatorTest, Alignment) {
  std::vector<HeapInterval> buffers = {{100, 0, 1}, {100, 0, 1}};
  HeapAssignment heap = simulateHeap(buffers, 64);
  EXPECT_EQ(heap.heapSize, 256);
  EXPECT_EQ(heap.offsets[0] % 64, 0);
  EXPECT_EQ(heap.offsets[1] % 64, 0);
  EXPECT_EQ(livenessLowerBound(buffers), 200);
}

TEST(HeapSimulatorTest, KeepsTheBetterOrdering) {
  // Decreasing size places the two 40s at the bottom, so the long-lived 30
  // cannot reuse the space; ordering by live range first packs to 100.
  std::vector<HeapInterval> buffers = {
      {40, 0, 1}, {40, 4, 5}, {30, 0, 5}, {30, 2, 3}, {30, 2, 3}};
  HeapAssignment heap = simulateHeap(buffers, 1);
  EXPECT_EQ(livenessLowerBound(buffers), 90);
  EXPECT_LE(heap.heapSize, 100);
}

TEST(HeapSimulatorTest, EmptyAndInvariants) {
  EXPECT_EQ(simulateHeap({}, 512).heapSize, 0);
  EXPECT_EQ(livenessLowerBound({}), 0);
  std::mt19937 rng(42);
  for (int round = 0; round < 50; ++round) {
    std::vector<HeapInterval> buffers;
    for (int i = 0; i < 60; ++i) {
      int64_t start = rng() % 100;
      buffers.push_back(
          {int64_t(1 + rng() % 5000), start, start + int64_t(rng() % 30)});
    }
    HeapAssignment heap = simulateHeap(buffers, 256);
    int64_t total = 0;
    for (size_t i = 0; i < buffers.size(); ++i) {
      total += (buffers[i].size + 255) / 256 * 256;
      EXPECT_EQ(heap.offsets[i] % 256, 0);
      for (size_t j = 0; j < i; ++j) {
        bool together = buffers[i].start <= buffers[j].end &&
                        buffers[j].start <= buffers[i].end;
        bool apart = heap.offsets[i] + buffers[i].size <= heap.offsets[j] ||
                     heap.offsets[j] + buffers[j].size <= heap.offsets[i];
        EXPECT_TRUE(!together || apart) << i << " overlaps " << j;
      }
    }
    EXPECT_GE(heap.heapSize, livenessLowerBound(buffers));
    EXPECT_LE(heap.heapSize, total);
  }
}

// Fixed buffers keep their offsets; the others are placed around them, in
// the gaps their live ranges leave.
TEST(HeapSimulatorTest, FixedBuffersAreObstacles) {
  std::vector<HeapInterval> buffers = {
      {1024, 0, 10, /*fixedOffset=*/1024}, // [1024, 2048) during 0..10
      {1024, 0, 10},                       // fits below it
      {512, 11, 20},                       // after: reuses offset 0
      {4096, 5, 6},                        // above the fixed one
  };
  HeapAssignment heap = simulateHeap(buffers, 512);
  EXPECT_EQ(heap.offsets[0], 1024);
  EXPECT_EQ(heap.offsets[1], 0);
  EXPECT_EQ(heap.offsets[2], 0);
  EXPECT_EQ(heap.offsets[3], 2048);
  EXPECT_EQ(heap.heapSize, 2048 + 4096);
}

} // namespace
