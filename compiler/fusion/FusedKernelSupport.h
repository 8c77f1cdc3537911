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

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>

namespace mlir {
class Operation;
class Value;
} // namespace mlir

namespace tpuc::fusion {

/// One vreg: 8 sublanes x 128 lanes, the tile of the (8,128) layouts.
inline constexpr int64_t kVregElements = 8 * 128;

/// A loop kernel streams every array through VMEM in blocks of at most this
/// many (8,128) tiles (256 KiB of f32)...
inline constexpr int64_t kLoopKernelBlockTiles = 64;
inline constexpr int64_t kBlockElements = kLoopKernelBlockTiles * kVregElements;

/// ...and all its blocks together (inputs and outputs, every slot) take at
/// most this much VMEM, so a kernel with many arrays uses smaller blocks.
inline constexpr int64_t kLoopKernelVmemBytes = 4 << 20;

/// A loop kernel streams its blocks through this many VMEM slots per array
/// (each block's DMAs issued two blocks ahead of its compute).
inline constexpr int64_t kLoopKernelSlots = 3;

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

/// A row-resident normalization kernel (layer norm, softmax, RMS norm):
/// reductions over the minor dim of one `[..., R, C]` shape whose results,
/// through elementwise ops on the per-row statistics, are broadcast back
/// along the rows into elementwise ops of that shape. The kernel streams
/// blocks of whole tile rows (8 rows, all C columns) through VMEM once,
/// computes each tile row's statistics on vregs and writes the results
/// once (passes/HloToTpu/FusedKernel.cpp, RowKernel).
struct RowKernelShape {
  int64_t colTiles = 0;
  /// At most this many tile rows per block (the kRowKernelSlots slots of
  /// every streamed array within kLoopKernelVmemBytes, kLoopKernelBlockTiles
  /// per array).
  int64_t maxBlockTileRows = 0;
  /// The VMEM of blocks of maxBlockTileRows (every slot).
  int64_t vmemBytes = 0;
};

/// Tile rows longer than this are not unrolled by the row kernel: wider
/// rows keep the kernels of a reduce and a loop fusion.
inline constexpr int64_t kRowKernelMaxColTiles = 32;
/// Row-resident kernels stream their blocks through this many VMEM slots
/// (each block's DMAs issued two blocks ahead of its compute).
inline constexpr int64_t kRowKernelSlots = 3;

/// Whether `op` is a reshape into the row shape `rowShape` that moves no
/// byte in the tiled layout (the same two minor dims, major dims merged,
/// split or unit dims dropped): the row kernel streams its operand, an
/// array from outside the kernel, as the input (a batched dot's `[B,R,C]`
/// result read as the `[1,B,R,C]` rows of a softmax).
bool isRowInputReshape(mlir::Operation *op, llvm::ArrayRef<int64_t> rowShape);

/// Whether the ops `ops` (a fusion's body, or the planner's candidate
/// group) form one row-resident kernel, and its block limit: every reduce
/// is a single-input add/max/min over the minor dim of the row shape with a
/// splat init; every other op is a splat constant, an elementwise op of the
/// row shape or of the statistics' shape (the rows' count of elements, the
/// same non-unit dims), a unit-dim reshape of a statistic, or a per-row
/// broadcast of a statistic to the row shape; the values `readOutside`
/// accepts (results) and the inputs are f32 or bf16 arrays of the row shape
/// (or read as one through an isRowInputReshape),
/// at least one result. The planner fuses only such groups into one, and
/// the code generator emits such a fusion as one kernel (FusionPlanner.cpp,
/// passes/HloToTpu/FusedKernel.cpp share it).
std::optional<RowKernelShape>
rowResidentKernel(llvm::ArrayRef<mlir::Operation *> ops,
                  llvm::function_ref<bool(mlir::Value)> readOutside);

} // namespace tpuc::fusion

#endif // TPUC_COMPILER_FUSION_FUSEDKERNELSUPPORT_H
