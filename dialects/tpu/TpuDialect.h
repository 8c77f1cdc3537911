//===- TpuDialect.h - the tpu dialect and its attributes --------*- C++ -*-===//
#ifndef TPUC_DIALECTS_TPU_TPUDIALECT_H
#define TPUC_DIALECTS_TPU_TPUDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include <optional>

#include "dialects/tpu/TpuEnums.h.inc"

#include "llvm/ADT/DenseMap.h"

#define GET_ATTRDEF_CLASSES
#include "dialects/tpu/TpuAttrs.h.inc"

#include "dialects/tpu/TpuDialect.h.inc"

namespace tpuc::tpu {

/// The memory space of a memref, if it is one of ours.
std::optional<MemorySpace> getMemorySpace(mlir::MemRefType type);

/// Bytes of one element in memory (bf16 2, f32 and i32 4).
int64_t getElementBytes(mlir::Type elementType);

/// Bytes of a row-major VMEM/SMEM buffer. (HBM arrays are sized by the
/// runtime's paddedByteSize, which knows the tiled layouts.)
int64_t getBufferBytes(mlir::MemRefType type);

/// Where the serializer places static VMEM/SMEM buffers: each starts at a
/// multiple of this. VMEM buffers start on a scoreboard page (4 KiB) so that
/// unrelated buffers never wait for each other.
int64_t getAllocAlignment(MemorySpace space);

/// The discardable attribute `tpu.overlay` on a VMEM tpu.alloc: such
/// buffers of a function share one scratch region after the other VMEM
/// buffers (typed views of it, e.g. the code generator's per-element-type
/// arenas). A unit attribute puts the buffer at the region's start, an
/// integer at that byte offset in it (tpuc-allocate-vmem's placement).
inline constexpr llvm::StringLiteral kOverlayAttrName = "tpu.overlay";
/// `tpu.step = k` (an integer >= 0): on a VMEM arena, the step (top-level
/// HLO op) whose kernels use it; on an op of a function body, the first op
/// of step k's kernels (tpuc-convert-hlo-to-tpu sets both).
inline constexpr llvm::StringLiteral kStepAttrName = "tpu.step";
/// On an HBM tpu.alloc: `array<i64: first, last>`, the steps (top-level
/// HLO ops) whose kernels use it. Buffers live in disjoint steps may share
/// memory (the serializer's heap).
inline constexpr llvm::StringLiteral kLiveAttrName = "tpu.live";
/// `tpu.host_type = <type>` on an entry argument or result held in s32
/// words on the device: the host array's element type, pred (0/1 words) or
/// s8/u8/s16/u16 (extended words), the executable's `host_dtype`.
inline constexpr llvm::StringLiteral kHostTypeAttrName = "tpu.host_type";
/// On an HBM tpu.alloc: the memory plan's heap offset of the value it holds.
inline constexpr llvm::StringLiteral kPlanOffsetAttrName = "tpu.plan_offset";
/// On the module: the HBM bytes the memory plan said the program uses.
inline constexpr llvm::StringLiteral kPlannedHbmAttrName = "tpu.planned_hbm_bytes";

/// Where the serializer places a function's static VMEM/SMEM buffers, in
/// program order, each aligned by getAllocAlignment; the overlay buffers
/// share one base after all the others, each at its `tpu.overlay` offset
/// from it. `offsets` maps each on-chip
/// tpu.alloc result to its address, `end` is the bytes used per space
/// (indexed by MemorySpace).
struct OnChipPlacement {
  llvm::DenseMap<mlir::Value, int64_t> offsets;
  int64_t end[4] = {0, 0, 0, 0};
};
OnChipPlacement placeOnChipBuffers(mlir::Operation *func);

/// The limits the verifiers check, from the enclosing module's tpu.target
/// (tpu-v3's values where it says nothing; VMEM/SMEM sizes only when given).
struct TargetLimits {
  int64_t mxuCount = 2;
  int64_t mxuSize = 128; // D of the D x D MXUs
  int64_t numSemaphores = 32;
  std::optional<int64_t> vmemBytes, smemBytes;
};
TargetLimits getTargetLimits(mlir::Operation *op);

} // namespace tpuc::tpu

#endif // TPUC_DIALECTS_TPU_TPUDIALECT_H
