//===- FusedKernelSupport.h - what one fused kernel holds -------*- C++ -*-===//
//
// The one description of a fused kernel's shape that the fusion planner
// (FusionPlanner.cpp) and the code generator (passes/HloToTpu/FusedKernel.cpp,
// Elementwise.cpp) share, so that the planner sizes its VMEM estimate with
// the blocks codegen streams and codegen never needs more than the planner
// allowed. docs/fusion.md and docs/codegen.md describe the kernel.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_FUSION_FUSEDKERNELSUPPORT_H
#define TPUC_COMPILER_FUSION_FUSEDKERNELSUPPORT_H

#include <cstdint>

namespace mlir {
class Operation;
} // namespace mlir

namespace tpuc::fusion {

/// One vreg: 8 sublanes x 128 lanes, the tile of the (8,128) layouts.
inline constexpr int64_t kVregElements = 8 * 128;

/// A loop kernel streams every array through VMEM in blocks of at most this
/// many (8,128) tiles (256 KiB of f32)...
inline constexpr int64_t kLoopKernelBlockTiles = 64;
inline constexpr int64_t kBlockElements = kLoopKernelBlockTiles * kVregElements;

/// ...and all its blocks together (inputs and outputs) take at most this
/// much VMEM, so a kernel with many arrays uses smaller blocks.
inline constexpr int64_t kLoopKernelVmemBytes = 4 << 20;

/// Inputs that a loop kernel keeps whole in VMEM (broadcast sources: a
/// bias, a per-row statistic) take at most this much.
inline constexpr int64_t kResidentInputBytes = 4 << 20;

/// Whether `op`, an op of a contraction's output shape in an output fusion,
/// runs in the contraction's kernel on its result tiles in VMEM (the
/// epilogue, passes/HloToTpu/Epilogue.cpp): an elementwise op, a splat
/// constant, or a broadcast_in_dim whose source is one element or follows
/// the result's minor dim only (a `[C]` bias or scale, `[1,...,1,C]`),
/// at most kResidentInputBytes. Row-wise broadcasts and iotas are not: the
/// planner does not fuse them into an epilogue, so the kernel never has to
/// split one (FusionPlanner.cpp uses the same predicate).
bool fitsContractionEpilogue(mlir::Operation *op);

} // namespace tpuc::fusion

#endif // TPUC_COMPILER_FUSION_FUSEDKERNELSUPPORT_H
