//===- HbmTraffic.h - HBM bytes a program reads and writes ------*- C++ -*-===//
//
// The traffic model of docs/fusion.md: every kernel (an unfused op or an
// hlo.fusion) reads each distinct operand once from HBM and writes each
// result once. Sizes are logical (elements times element bytes, pred as one
// byte), before padding. Constants, tuples, control flow and reshapes that
// are bitcasts move nothing; loop and branch bodies count once.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_FUSION_HBMTRAFFIC_H
#define TPUC_COMPILER_FUSION_HBMTRAFFIC_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tpuc::fusion {

/// Logical bytes of a tensor (or the sum over a tuple's elements).
int64_t logicalBytes(mlir::Type type);

/// Whether `op` is a reshape that keeps the two minor-most dimensions, so
/// that with default tiled layouts it only renames the buffer.
bool isBitcastReshape(mlir::Operation *op);

struct HbmTraffic {
  int64_t readBytes = 0;
  int64_t writtenBytes = 0;
  int64_t total() const { return readBytes + writtenBytes; }
  HbmTraffic &operator+=(const HbmTraffic &other) {
    readBytes += other.readBytes;
    writtenBytes += other.writtenBytes;
    return *this;
  }
};

/// The traffic of one kernel.
HbmTraffic kernelTraffic(mlir::Operation *op);

/// The traffic of every kernel in `func`, including while and conditional
/// bodies (once each).
HbmTraffic functionTraffic(mlir::func::FuncOp func);

} // namespace tpuc::fusion

#endif // TPUC_COMPILER_FUSION_HBMTRAFFIC_H
