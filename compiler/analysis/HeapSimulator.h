//===- HeapSimulator.h - offsets for buffers with live ranges ---*- C++ -*-===//
//
// Packs buffers with known live ranges into one heap, in the class of XLA's
// GlobalDecreasingSizeBestFitHeap: buffers are placed one by one, each in the
// smallest free gap (among buffers whose live ranges overlap it) that holds
// it, else on top. Two orderings are tried (by decreasing size and by
// decreasing live-range length) and the smaller heap is kept, as XLA's
// ChooseBestHeapAlgorithm does.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_ANALYSIS_HEAPSIMULATOR_H
#define TPUC_COMPILER_ANALYSIS_HEAPSIMULATOR_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace tpuc::analysis {

/// A buffer live over schedule steps [start, end], both inclusive: two
/// buffers interfere when their ranges share a step.
struct HeapInterval {
  int64_t size = 0;
  int64_t start = 0;
  int64_t end = 0;
  /// >= 0: the buffer is already placed there (an obstacle the others are
  /// placed around). Fixed buffers must not collide with each other.
  int64_t fixedOffset = -1;
};

struct HeapAssignment {
  std::vector<int64_t> offsets; // one per interval, in input order
  int64_t heapSize = 0;
  const char *ordering = ""; // "size" or "live-range"
};

/// Assigns offsets (multiples of `alignment`, sizes rounded up to it); fixed
/// intervals keep theirs.
HeapAssignment simulateHeap(llvm::ArrayRef<HeapInterval> intervals,
                            int64_t alignment);

/// The most bytes live at any one step (no heap can be smaller).
int64_t livenessLowerBound(llvm::ArrayRef<HeapInterval> intervals);

} // namespace tpuc::analysis

#endif // TPUC_COMPILER_ANALYSIS_HEAPSIMULATOR_H
