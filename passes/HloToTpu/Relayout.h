//===- Relayout.h - element-exact copies between array layouts ---------===//
//
// The data-movement kernels (DataMovement.cpp, Gather.cpp) are all one
// primitive: copy a box of elements from one buffer view to another, where
// each box axis walks one dimension of each side with a step. The views
// describe how an array's elements are addressed (the tiled HBM layout, or
// a row-major linear buffer such as a rank-1 array or SMEM), and the copy
// becomes strided DMAs of the contiguous runs. docs/codegen.md describes it.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_PASSES_HLOTOTPU_RELAYOUT_H
#define TPUC_PASSES_HLOTOTPU_RELAYOUT_H

#include "passes/HloToTpu/Lowering.h"

namespace tpuc::hlotpu {

/// The byte offset of index `x` along one dimension: `x * lo` when `period`
/// is 0, else `(x / period) * hi + (x % period) * lo` (a tiled dimension).
struct DimAddress {
  int64_t period = 0, hi = 0, lo = 0;
};

/// How a buffer holds an array: the element size and one DimAddress per
/// dimension (the address of an element is `base` plus the sum over its
/// dimensions).
struct View {
  Value mem;
  int64_t base = 0;
  int64_t elemBytes = 4;
  SmallVector<int64_t> shape;
  SmallVector<DimAddress> dims;
};

/// The HBM layout of `Lowering::hbmType(type)` for the buffer `mem`.
View tiledView(Value mem, RankedTensorType type);
/// A row-major buffer of `shape` (rank-1 HBM arrays, SMEM): dimension
/// `order[0]` is the most major (default: the identity order).
View linearView(Value mem, ArrayRef<int64_t> shape, int64_t elemBytes,
                ArrayRef<int64_t> order = {});

/// One axis of a copied box: `extent` steps that move the source index of
/// dimension `srcDim` by `srcStep` and the destination index of `dstDim` by
/// `dstStep` (a dimension of -1 does not move: a broadcast source).
struct Axis {
  int64_t extent;
  int srcDim;
  int64_t srcStep;
  int dstDim;
  int64_t dstStep;
};

/// Axes walking every dimension of `shape` on both sides, in order.
SmallVector<Axis> identityAxes(ArrayRef<int64_t> shape);

/// Copies the box `axes` (outer to inner; the last axis is the one whose
/// runs become DMA chunks) from `src` at the start indices `srcStart` to
/// `dst` at `dstStart`: one index Value per dimension of each view (dynamic
/// ones are allowed; an empty list means all zeros). Emits DMAs on `sem`
/// without waiting and returns how many it issued (a static count; loops
/// are counted).
int64_t copyBox(Lowering &l, const View &src, ArrayRef<Value> srcStart,
                const View &dst, ArrayRef<Value> dstStart,
                ArrayRef<Axis> axes, int sem);

/// copyBox on semaphore 3, waited.
void copyBoxAndWait(Lowering &l, const View &src, ArrayRef<Value> srcStart,
                    const View &dst, ArrayRef<Value> dstStart,
                    ArrayRef<Axis> axes);

/// For a kernel with one array operand: the view of `operand` in HBM and of
/// a new HBM buffer for `op`'s (first) result, which the lowering records.
FailureOr<std::pair<View, View>> resultViews(Lowering &l, Operation *op,
                                             Value operand);

/// The byte address of the element at `coords` in `v`.
Value addressOf(Lowering &l, const View &v, ArrayRef<Value> coords);

/// Fills the HBM array `out` of `outType` with the rank-0 tensor `scalar`
/// (a splat constant or an array in HBM).
LogicalResult fillFromScalar(Lowering &l, Value scalar, Value out,
                             RankedTensorType outType);

/// Copies the whole array `in` to `out` (same type): one DMA, waited.
void copyWhole(Lowering &l, Value in, Value out, RankedTensorType type);

/// The SMEM buffer the data-dependent kernels share (s32 words), grown to at
/// least `bytes`.
Value smemArena(Lowering &l, int64_t bytes);

/// Loads the rank-0 integer tensors `indices` into scalar registers (DMA to
/// SMEM, wait, SLD), as index values.
FailureOr<SmallVector<Value>> loadScalars(Lowering &l, ValueRange indices);

/// `min(max(x, 0), hi)`: XLA's clamp of a start index.
Value clampIndex(Lowering &l, Value x, int64_t hi);

} // namespace tpuc::hlotpu

#endif // TPUC_PASSES_HLOTOTPU_RELAYOUT_H
