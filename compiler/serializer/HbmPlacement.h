//===- HbmPlacement.h - the executable's HBM heap ---------------*- C++ -*-===//
//
// Places the program's HBM buffers (temporaries and results) in one heap:
// first at the offsets of the memory plan the lowering recorded on them
// (tpu.plan_offset) where no two planned buffers collide, then everything
// else around them with the heap simulator, by the steps each buffer is
// used in (tpu.live). docs/executable-format.md, "HBM".
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_SERIALIZER_HBMPLACEMENT_H
#define TPUC_COMPILER_SERIALIZER_HBMPLACEMENT_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace tpuc::serializer {

struct HeapBuffer {
  uint64_t size = 0;
  int64_t first = 0, last = 0; // steps, inclusive
  int64_t planOffset = -1;     // the memory plan's offset, -1: none
};

struct HeapPlacement {
  std::vector<uint64_t> offsets; // heap-relative, one per buffer
  std::vector<bool> atPlanOffset; // one per buffer
  uint64_t heapBytes = 0;
};

HeapPlacement placeHbmHeap(llvm::ArrayRef<HeapBuffer> buffers,
                           uint64_t alignment);

} // namespace tpuc::serializer

#endif // TPUC_COMPILER_SERIALIZER_HBMPLACEMENT_H
