//===- HbmTraffic.h - HBM bytes a program reads and writes ------*- C++ -*-===//
//
// The traffic model of docs/fusion.md: every kernel (an unfused op or an
// hlo.fusion) reads each distinct operand once from HBM and writes each
// result once. Sizes are logical (elements times element bytes, pred as one
// byte), before padding; a slice, dynamic slice or gather reads only the
// elements it returns. Constants, tuples, control flow and reshapes that are
// bitcasts move nothing; a counted loop's body counts once per trip (an
// uncounted one once), a conditional counts its largest branch.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_FUSION_HBMTRAFFIC_H
#define TPUC_COMPILER_FUSION_HBMTRAFFIC_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <limits>

namespace tpuc::fusion {

/// Logical bytes of a tensor (or the sum over a tuple's elements).
int64_t logicalBytes(mlir::Type type);

/// Whether `op` is a reshape that keeps the two minor-most dimensions, so
/// that with default tiled layouts it only renames the buffer.
bool isBitcastReshape(mlir::Operation *op);

/// `x * y` for counts >= 0, saturating at INT64_MAX.
inline int64_t saturatingMultiply(int64_t x, int64_t y) {
  return y > 0 && x > std::numeric_limits<int64_t>::max() / y
             ? std::numeric_limits<int64_t>::max()
             : x * y;
}

/// Byte counts saturate at INT64_MAX (a loop of 2^62 trips).
struct HbmTraffic {
  int64_t readBytes = 0;
  int64_t writtenBytes = 0;
  int64_t total() const { return add(readBytes, writtenBytes); }
  HbmTraffic &operator+=(const HbmTraffic &other) {
    readBytes = add(readBytes, other.readBytes);
    writtenBytes = add(writtenBytes, other.writtenBytes);
    return *this;
  }
  static int64_t add(int64_t x, int64_t y) {
    return x > std::numeric_limits<int64_t>::max() - y
               ? std::numeric_limits<int64_t>::max()
               : x + y;
  }
};

/// `traffic` times `count`, saturating at INT64_MAX.
HbmTraffic scaled(HbmTraffic traffic, int64_t count);

/// How many times `op` runs in one step: the product of the trip counts of
/// the counted whiles around it (a condition runs once more than its
/// body; a loop whose trip count is not known counts as one trip).
int64_t runsPerStep(mlir::Operation *op);

/// The bytes a kernel moves of a value: logicalBytes of its type by
/// default; the fusion report also counts them as laid out in HBM (padded
/// tiles, what the executable's DMAs move).
using ValueBytes = llvm::function_ref<int64_t(mlir::Value)>;

/// The traffic of one kernel.
HbmTraffic kernelTraffic(mlir::Operation *op);
HbmTraffic kernelTraffic(mlir::Operation *op, ValueBytes bytesOf);

/// The traffic of one step of `func`: every kernel, a counted while's body
/// once per trip (once when the trip count is unknown), a conditional's
/// largest branch.
HbmTraffic functionTraffic(mlir::func::FuncOp func);
HbmTraffic functionTraffic(mlir::func::FuncOp func, ValueBytes bytesOf);

} // namespace tpuc::fusion

#endif // TPUC_COMPILER_FUSION_HBMTRAFFIC_H
