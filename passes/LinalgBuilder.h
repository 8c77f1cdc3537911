//===- LinalgBuilder.h - batched matrix helpers for the expanders -*- C++
//-*-===//
//
// The few batched-matrix building blocks XLA's CholeskyExpander and
// TriangularSolveExpander take from xla/hlo/builder/lib (matrix.h,
// slicing.h, loops.h), as hlo ops: every array is [..., rows, cols] with
// leading batch dimensions, slices and updates address the two minor
// dimensions, and dots are batched over the leading ones at HIGHEST
// precision (as the expanders ask). Shared by tpuc-expand-cholesky and
// tpuc-expand-triangular-solve.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_PASSES_LINALGBUILDER_H
#define TPUC_PASSES_LINALGBUILDER_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <functional>

namespace tpuc {

/// The ranked tensor type of `x`.
inline mlir::RankedTensorType tensorType(mlir::Value x) {
  return llvm::cast<mlir::RankedTensorType>(x.getType());
}

class LinalgBuilder {
public:
  LinalgBuilder(mlir::OpBuilder &builder, mlir::Location loc)
      : b(builder), loc(loc) {}

  mlir::OpBuilder &builder() { return b; }

  /// A rank-0 s32 constant.
  mlir::Value index(int64_t v);
  /// `type` filled with `v` (a float or integer element type; i1 reads v != 0).
  mlir::Value splat(mlir::RankedTensorType type, double v);
  /// A constant [rows, cols] matrix of `elem` given by f(row, col).
  mlir::Value matrix(mlir::Type elem, int64_t rows, int64_t cols,
                     const std::function<double(int64_t, int64_t)> &f);
  /// `m` ([rows, cols]) broadcast to the batch dimensions of `shape`.
  mlir::Value broadcastMatrix(mlir::Value m, llvm::ArrayRef<int64_t> shape);

  /// x[..., r0:r1, c0:c1].
  mlir::Value sliceMinor(mlir::Value x, int64_t r0, int64_t c0, int64_t r1,
                         int64_t c1);
  /// x with `update` written at [..., r, c].
  mlir::Value updateSliceMinor(mlir::Value x, mlir::Value update, int64_t r,
                               int64_t c);
  /// x[..., i:i+rows, j:j+cols] at run-time rank-0 s32 indices.
  mlir::Value dynamicSliceMinor(mlir::Value x, mlir::Value i, mlir::Value j,
                                int64_t rows, int64_t cols);
  /// x with its two minor dimensions swapped.
  mlir::Value transposeMinor(mlir::Value x);
  /// `x` ([..., 1, 1] or [..., n] with `dims`) broadcast to `type`.
  mlir::Value broadcastTo(mlir::Value x, mlir::RankedTensorType type,
                          llvm::ArrayRef<int64_t> dims);

  /// op(x) @ op(y) batched over the leading dimensions, op a transpose of
  /// the two minor dimensions when asked (XLA's BatchDot), HIGHEST precision.
  mlir::Value batchDot(mlir::Value x, bool transposeX, mlir::Value y,
                       bool transposeY);

  /// s32 iota over `x`'s shape along dimension `dim`.
  mlir::Value iotaLike(mlir::Value x, int64_t dim);
  /// XLA's TriangleMask: the pred (row + diagonal >= col) over x's shape.
  mlir::Value triangleMask(mlir::Value x, int64_t diagonal);
  /// XLA's Triangle: x's lower (or upper) triangle, zeros elsewhere.
  mlir::Value triangle(mlir::Value x, bool lower);
  /// x[..., i, i] as [..., n] (XLA's GetMatrixDiagonal of a square x).
  mlir::Value diagonal(mlir::Value x);
  /// x != x.
  mlir::Value isNan(mlir::Value x);

  /// XLA's ForEachIndex: an hlo.while running `body(i, state)` for i in
  /// [0, n) (s32), returning the final state.
  using LoopBody = std::function<llvm::SmallVector<mlir::Value>(
      mlir::Value i, llvm::ArrayRef<mlir::Value> state)>;
  llvm::SmallVector<mlir::Value> forEachIndex(int64_t begin, int64_t end,
                                              llvm::ArrayRef<mlir::Value> init,
                                              const LoopBody &body);

private:
  mlir::OpBuilder &b;
  mlir::Location loc;
};

} // namespace tpuc

#endif // TPUC_PASSES_LINALGBUILDER_H
