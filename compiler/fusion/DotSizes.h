//===- DotSizes.h - a dot_general's group sizes, VPU dots -------*- C++ -*-===//
//
// The (batch, free, contracting) dimension groups of a dot_general and their
// sizes, and which batched dots the code generator computes on the VPU
// rather than the MXU: the fusion planner leaves those unfused, and
// tpuc-strength-reduce-dots, tpuc-decompose-dots and the Dot kernels
// (passes/) choose their forms by the same rule.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_FUSION_DOTSIZES_H
#define TPUC_COMPILER_FUSION_DOTSIZES_H

#include "dialects/hlo/HloOps.h"

namespace tpuc {

/// The dims of a rank-`rank` operand that are neither batch nor
/// contracting, in order.
inline llvm::SmallVector<int64_t>
dotFreeDims(int64_t rank, llvm::ArrayRef<int64_t> batch,
            llvm::ArrayRef<int64_t> contracting) {
  llvm::SmallVector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(batch, d) && !llvm::is_contained(contracting, d))
      free.push_back(d);
  return free;
}

/// The product of `shape`'s sizes at `dims`.
inline int64_t dimsProduct(llvm::ArrayRef<int64_t> shape,
                           llvm::ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims)
    p *= shape[d];
  return p;
}

/// The sizes of a dot_general's groups: batch, lhs free, contracting and
/// rhs free (each group's dims multiplied).
struct DotSizes {
  int64_t b, m, k, n;
};

inline DotSizes dotSizes(hlo::DotGeneralOp op) {
  hlo::DotDimensionNumbersAttr dn = op.getDotDimensionNumbers();
  llvm::ArrayRef<int64_t> ls = op.getLhs().getType().getShape(),
                          rs = op.getRhs().getType().getShape();
  return {dimsProduct(ls, dn.getLhsBatch()),
          dimsProduct(ls, dotFreeDims(ls.size(), dn.getLhsBatch(),
                                      dn.getLhsContracting())),
          dimsProduct(ls, dn.getLhsContracting()),
          dimsProduct(rs, dotFreeDims(rs.size(), dn.getRhsBatch(),
                                      dn.getRhsContracting()))};
}

/// The largest M, K or N of a dot the VPU kernel takes (its code is
/// unrolled over N and K, and its VMEM is (MK + KN + MN) vregs per slot).
constexpr int64_t kVpuDotMaxDim = 16;

/// Whether `op` is a batched dot of tiny matrices that the code generator
/// computes on the VPU with the batch on the lanes and sublanes, 1024
/// batch elements per vreg (docs/codegen.md, "Small batched dots on the
/// VPU"): f32 or bf16 operands and result, a batch, M, K and N at most
/// kVpuDotMaxDim, outside a fusion (the kernel has no epilogue), and fewer
/// VPU instructions than MXU cycles: per 1024 batch elements and output
/// vreg, K pairs of loads, a multiply and an add, against per batch element
/// and 128x128 weight tile one weight load (D = 128, the smallest MXU:
/// larger ones pad more) and one pass of the M rows padded to 8.
/// tpuc-strength-reduce-dots leaves such dots alone, tpuc-decompose-dots
/// only moves their batch to the front, and the Dot kernel takes them.
inline bool isVpuBatchedDot(hlo::DotGeneralOp op) {
  auto isFloat = [](mlir::Type t) { return t.isF32() || t.isBF16(); };
  if (op.getDotDimensionNumbers().getLhsBatch().empty() ||
      !isFloat(op.getLhs().getType().getElementType()) ||
      !isFloat(op.getRhs().getType().getElementType()) ||
      !isFloat(op.getType().getElementType()) ||
      llvm::isa<hlo::FusionOp>(op->getParentOp()))
    return false;
  DotSizes s = dotSizes(op);
  // (Empty dots have nothing to compute.)
  if (s.b < 1 || s.m < 1 || s.k < 1 || s.n < 1 || s.m > kVpuDotMaxDim ||
      s.k > kVpuDotMaxDim || s.n > kVpuDotMaxDim)
    return false;
  auto ceilDiv = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  int64_t vpu = ceilDiv(s.b, 1024) * s.m * s.n * (4 * s.k + 2);
  int64_t mxu =
      s.b * ceilDiv(s.k, 128) * ceilDiv(s.n, 128) * (ceilDiv(s.m, 8) * 8 + 128);
  return vpu < mxu;
}

} // namespace tpuc

#endif // TPUC_COMPILER_FUSION_DOTSIZES_H
