//===- HbmPlacement.cpp - the executable's HBM heap -----------------------===//

#include "compiler/serializer/HbmPlacement.h"

#include "compiler/analysis/HeapSimulator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>

namespace tpuc::serializer {

HeapPlacement placeHbmHeap(llvm::ArrayRef<HeapBuffer> buffers,
                           uint64_t alignment) {
  std::vector<analysis::HeapInterval> intervals;
  for (const HeapBuffer &b : buffers)
    intervals.push_back({int64_t(b.size), b.first, b.last,
                         b.planOffset >= 0 && b.planOffset % alignment == 0
                             ? b.planOffset
                             : -1});
  // Keep a planned buffer at its offset unless it collides (in memory and
  // steps) with a planned buffer of a lower offset: the plan placed values,
  // the lowering may hold a value longer than the plan thought (or hold two
  // values in one buffer), so the plan is checked, not trusted.
  std::vector<size_t> fixed;
  for (auto [i, interval] : llvm::enumerate(intervals))
    if (interval.fixedOffset >= 0)
      fixed.push_back(i);
  llvm::stable_sort(fixed, [&](size_t a, size_t b) {
    return intervals[a].fixedOffset < intervals[b].fixedOffset;
  });
  auto end = [&](size_t i) {
    return intervals[i].fixedOffset +
           int64_t(llvm::alignTo(intervals[i].size, alignment));
  };
  std::vector<size_t> open;
  for (size_t i : fixed) {
    llvm::erase_if(open, [&](size_t j) {
      return end(j) <= intervals[i].fixedOffset;
    });
    bool collides = llvm::any_of(open, [&](size_t j) {
      return intervals[i].start <= intervals[j].end &&
             intervals[j].start <= intervals[i].end;
    });
    if (collides)
      intervals[i].fixedOffset = -1;
    else
      open.push_back(i);
  }
  analysis::HeapAssignment heap =
      analysis::simulateHeap(intervals, int64_t(alignment));
  HeapPlacement placement;
  placement.heapBytes = heap.heapSize;
  for (auto [i, interval] : llvm::enumerate(intervals)) {
    placement.offsets.push_back(heap.offsets[i]);
    placement.atPlanOffset.push_back(interval.fixedOffset >= 0);
  }
  return placement;
}

} // namespace tpuc::serializer
