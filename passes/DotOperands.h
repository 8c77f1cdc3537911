//===- DotOperands.h - a dot_general's operand groups ---------*- C++ -*-===//
//
// The (batch, free, contracting) dimension groups of a dot_general's
// operands and the relayout (transpose, then reshape) that brings an operand
// into a grouped form. Shared by tpuc-decompose-dots (the MXU kernel's
// [B,M,K] x [B,K,N]) and tpuc-strength-reduce-dots (multiply + reduce);
// the groups' sizes are compiler/fusion/DotSizes.h's.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_PASSES_DOTOPERANDS_H
#define TPUC_PASSES_DOTOPERANDS_H

#include "compiler/fusion/DotSizes.h"
#include "dialects/hlo/HloOps.h"

#include "mlir/IR/Builders.h"

namespace tpuc {

/// Whether the MXU kernel reads `type` as a transposed operand, as it is
/// stored (docs/codegen.md, "Transposed operands"): f32 or bf16 in whole
/// 128x128 blocks, i.e. the second-minor dim (an rhs [.., N, K]'s N) a
/// multiple of 128 and, for an lhs [.., K, M], the minor dim too (a ragged
/// one would need a padded copy the memory plan does not have). Shared by
/// tpuc-decompose-dots, which keeps such operands, and the kernel.
inline bool mxuReadsTransposed(mlir::RankedTensorType type, bool lhs) {
  mlir::Type elem = type.getElementType();
  int64_t rank = type.getRank();
  return (elem.isF32() || elem.isBF16()) && rank >= 2 &&
         type.getDimSize(rank - 2) % 128 == 0 &&
         (!lhs || type.getDimSize(rank - 1) % 128 == 0);
}

/// `v` transposed by `perm` (when it is not the identity), then reshaped to
/// `shape` (when that differs).
inline mlir::Value relayoutOperand(mlir::OpBuilder &b, mlir::Location loc,
                                   mlir::Value v, llvm::ArrayRef<int64_t> perm,
                                   llvm::ArrayRef<int64_t> shape) {
  bool identity = true;
  for (auto [i, d] : llvm::enumerate(perm))
    identity &= d == static_cast<int64_t>(i);
  if (!identity)
    v = hlo::TransposeOp::create(b, loc, v, b.getDenseI64ArrayAttr(perm));
  auto type = llvm::cast<mlir::RankedTensorType>(v.getType());
  if (type.getShape() != shape)
    v = hlo::ReshapeOp::create(b, loc, type.clone(shape), v);
  return v;
}

} // namespace tpuc

#endif // TPUC_PASSES_DOTOPERANDS_H
