//===- Mxu.cpp - spreading MXU work over the target's MXUs ----------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md
// ("the MXUs"). The dot and convolution kernels describe their MXU work as
// weight tiles times LHS rows; this file decides which MXU runs what and
// emits the weight loads and matmuls.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Lowering.h"

using namespace mlir;

namespace tpuc::hlotpu {

MxuSplit KernelBuilder::splitForMxus(int64_t tiles, int64_t rows,
                                int64_t rowAlign) const {
  MxuSplit split;
  split.mxus = std::max<int64_t>(spec.machine.mxu_count(), 1);
  split.tiles = tiles;
  split.partRows = rows;
  // Per-MXU work: the busiest MXU runs ceil(tasks / mxus) tasks of
  // rows / parts rows. More parts only when that strictly shortens it.
  int64_t best = ceilDiv(tiles, split.mxus) * rows;
  for (int64_t parts = 2; parts <= split.mxus; ++parts) {
    if (rows % rowAlign != 0 || (rows / rowAlign) % parts != 0)
      continue;
    int64_t work = ceilDiv(tiles * parts, split.mxus) * (rows / parts);
    if (work < best) {
      best = work;
      split.parts = parts;
      split.partRows = rows / parts;
    }
  }
  return split;
}

void KernelBuilder::issueMxu(const MxuSplit &split, Value weights,
                        function_ref<Value(int64_t tile)> weightsAt,
                        ArrayRef<MxuStream> streams) {
  for (int64_t t = 0; t < split.tiles; ++t)
    for (int64_t q = 0; q < split.parts; ++q) {
      uint32_t mxu = split.mxuOf(t, q);
      tpu::MxuLoadWeightsOp::create(b, loc, weights, weightsAt(t), mxu);
      for (const MxuStream &s : streams)
        tpu::MxuMatmulOp::create(b, loc, s.lhs, s.lhsAt(q), s.dst,
                                 s.dstAt(t, q), mxu, split.partRows,
                                 s.accumulate);
    }
}

} // namespace tpuc::hlotpu
