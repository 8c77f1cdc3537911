//===- HeapSimulator.cpp - best-fit heap over live ranges -----------------===//

#include "compiler/analysis/HeapSimulator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace tpuc::analysis {
namespace {

bool overlaps(const HeapInterval &a, const HeapInterval &b) {
  return a.start <= b.end && b.start <= a.end;
}

/// Places the intervals in `order`, each in the best-fitting gap.
HeapAssignment placeInOrder(llvm::ArrayRef<HeapInterval> intervals,
                            llvm::ArrayRef<size_t> order, int64_t alignment) {
  HeapAssignment result;
  result.offsets.assign(intervals.size(), -1);
  std::vector<size_t> placed;
  std::vector<std::pair<int64_t, int64_t>> busy; // [offset, end) in use
  for (auto [i, buffer] : llvm::enumerate(intervals)) {
    if (buffer.fixedOffset < 0)
      continue;
    result.offsets[i] = buffer.fixedOffset;
    result.heapSize =
        std::max(result.heapSize, buffer.fixedOffset +
                                      int64_t(llvm::alignTo(buffer.size,
                                                            alignment)));
    placed.push_back(i);
  }
  for (size_t i : order) {
    const HeapInterval &buffer = intervals[i];
    if (buffer.fixedOffset >= 0)
      continue;
    int64_t size = llvm::alignTo(buffer.size, alignment);
    busy.clear();
    for (size_t j : placed)
      if (overlaps(buffer, intervals[j]))
        busy.push_back({result.offsets[j],
                        result.offsets[j] +
                            int64_t(llvm::alignTo(intervals[j].size,
                                                  alignment))});
    llvm::sort(busy);
    int64_t cursor = 0;
    int64_t best = -1;
    int64_t bestGap = std::numeric_limits<int64_t>::max();
    for (auto [begin, end] : busy) {
      int64_t gap = begin - cursor;
      if (gap >= size && gap < bestGap) {
        best = cursor;
        bestGap = gap;
      }
      cursor = std::max(cursor, end);
    }
    result.offsets[i] = best >= 0 ? best : cursor;
    result.heapSize = std::max(result.heapSize, result.offsets[i] + size);
    placed.push_back(i);
  }
  return result;
}

} // namespace

HeapAssignment simulateHeap(llvm::ArrayRef<HeapInterval> intervals,
                            int64_t alignment) {
  alignment = std::max<int64_t>(alignment, 1);
  std::vector<size_t> bySize(intervals.size());
  std::iota(bySize.begin(), bySize.end(), 0);
  std::vector<size_t> byLiveRange = bySize;
  auto length = [&](size_t i) {
    return intervals[i].end - intervals[i].start;
  };
  // Ties fall back to the other key, then to input order: deterministic.
  llvm::stable_sort(bySize, [&](size_t a, size_t b) {
    if (intervals[a].size != intervals[b].size)
      return intervals[a].size > intervals[b].size;
    return length(a) > length(b);
  });
  llvm::stable_sort(byLiveRange, [&](size_t a, size_t b) {
    if (length(a) != length(b))
      return length(a) > length(b);
    return intervals[a].size > intervals[b].size;
  });
  HeapAssignment sized = placeInOrder(intervals, bySize, alignment);
  sized.ordering = "size";
  HeapAssignment ranged = placeInOrder(intervals, byLiveRange, alignment);
  ranged.ordering = "live-range";
  return ranged.heapSize < sized.heapSize ? ranged : sized;
}

int64_t livenessLowerBound(llvm::ArrayRef<HeapInterval> intervals) {
  std::vector<std::pair<int64_t, int64_t>> events; // (step, delta)
  for (const HeapInterval &b : intervals) {
    events.push_back({b.start, b.size});
    events.push_back({b.end + 1, -b.size});
  }
  // At equal steps, frees (negative) come first.
  llvm::sort(events);
  int64_t live = 0, peak = 0;
  for (auto [step, delta] : events) {
    live += delta;
    peak = std::max(peak, live);
  }
  return peak;
}

} // namespace tpuc::analysis
