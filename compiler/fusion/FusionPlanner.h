//===- FusionPlanner.h - which ops fuse into one kernel ---------*- C++ -*-===//
//
// The decisions of tpuc-fuse, separate from the rewrite so that the fusion
// report can explain them: loop fusion of elementwise chains, input fusion
// into reductions, output fusion of epilogues into dot_general and
// convolution, and multi-output (producer/consumer and sibling) fusion.
// docs/fusion.md states the rules and the cost model.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_FUSION_FUSIONPLANNER_H
#define TPUC_COMPILER_FUSION_FUSIONPLANNER_H

#include "dialects/hlo/HloOps.h"

#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace tpuc::fusion {

struct FusionOptions {
  // VMEM a fused kernel may use for its blocks (docs/fusion.md).
  int64_t vmemBudgetBytes = 16 << 20;
  // Producer/consumer and sibling multi-output fusion.
  bool multiOutput = true;
};

struct FusionGroup {
  hlo::FusionKind kind = hlo::FusionKind::loop;
  // Ops moved into the kernel, in block order.
  llvm::SmallVector<mlir::Operation *> ops;
  // Cheap producers recomputed in the kernel (their originals stay while
  // other kernels read them), in block order.
  llvm::SmallVector<mlir::Operation *> clones;
};

struct FusionPlan {
  // Groups of two or more ops, in block order of their first op.
  std::vector<FusionGroup> groups;
  // Why a producer's result stays in HBM, for producers fusion considered
  // and rejected (the first reason found, consumers visited last first).
  llvm::DenseMap<mlir::Operation *, std::string> reasons;
};

/// Plans the fusion of the ops of `block` (not of nested blocks).
/// Deterministic: depends only on the block's contents and the options.
FusionPlan planFusion(mlir::Block &block, const FusionOptions &options);

/// Whether `op` can be part of a fusion at all.
bool isFusible(mlir::Operation *op);

/// Whether fusion must never recompute `op`: reductions, contractions,
/// ops that cannot fuse, and transcendentals on more than one vreg.
bool isExpensive(mlir::Operation *op);

} // namespace tpuc::fusion

#endif // TPUC_COMPILER_FUSION_FUSIONPLANNER_H
