//===- BufferAssignment.h - HBM buffers of an hlo program -------*- C++ -*-===//
//
// Schedules the entry function sequentially (program order; the bodies of
// while and conditional as their ops, other regions inside their op), gives
// every value a live range, merges values that share memory (layout-
// preserving reshapes and bitcasts, get_tuple_element, in-place
// dynamic_update_slice and while loops, input_output_alias) and places the
// temporaries and outputs in one HBM heap with the heap simulator.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_ANALYSIS_BUFFERASSIGNMENT_H
#define TPUC_COMPILER_ANALYSIS_BUFFERASSIGNMENT_H

#include "compiler/layout/TiledLayout.h"
#include "runtime/target/Targets.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace tpuc::analysis {

enum class AllocationKind { Parameter, Constant, Temp, Output };

/// XLA's name for the kind: "Parameter", "Global", "HLO temp", "Output".
const char *allocationKindName(AllocationKind kind);

/// One allocation: a set of values sharing memory.
struct Allocation {
  mlir::Value value; // the member shown in reports (the largest, earliest)
  std::string name;  // HLO instruction name, e.g. "iota.2"
  layout::TiledLayout layout;
  std::string shape; // XLA notation with layout
  int64_t unpaddedBytes = 0;
  int64_t paddedBytes = 0;
  int64_t start = 0; // schedule steps, inclusive
  int64_t end = 0;
  AllocationKind kind = AllocationKind::Temp;
  int64_t offset = -1; // in the heap (temps, outputs) or among arguments
  bool sharesWithParameter = false;
};

/// What tpuc-rematerialize recomputed (the module's `tpuc.remat` and the
/// ops marked `tpuc.rematerialized`).
struct RematSummary {
  int64_t values = 0;
  int64_t bytes = 0;        // padded bytes no longer live at the peaks
  int64_t trafficBytes = 0; // HBM bytes the recomputations read and write
  std::vector<std::string> names; // the recomputed instructions
};

struct MemoryPlan {
  std::string targetName;
  RematSummary remat;
  std::vector<Allocation> allocations; // in order of definition
  /// Every value the plan sized -> its allocation (values that share memory
  /// map to the same one). The code generator places buffers by it.
  llvm::DenseMap<mlir::Value, size_t> allocationOf;
  int64_t numSteps = 0;      // steps 1..numSteps are ops; 0 and
                             // numSteps + 1 the entry and the exit
  int64_t heapBytes = 0;     // HLO temp: the simulated heap
  int64_t lowerBoundBytes = 0;   // max live heap bytes at one step
  int64_t unpaddedPeakBytes = 0; // unpadded heap bytes live at that step
  int64_t peakStep = 0;
  int64_t argumentBytes = 0;
  int64_t globalBytes = 0; // constants
  int64_t outputBytes = 0;
  int64_t outputSharedBytes = 0; // outputs aliasing arguments
  int64_t capacityBytes = 0;
  int64_t reservedBytes = 0;
  int64_t limitBytes = 0; // usable HBM as XLA prints it (target::usableHbmBytes)
  const char *heapOrdering = "";
  // Live heap bytes per step (0..numSteps + 1), padded and unpadded.
  std::vector<int64_t> livePadded, liveUnpadded;

  int64_t programBytes() const { return globalBytes + heapBytes; }
  int64_t usedBytes() const { return programBytes() + argumentBytes; }
  int64_t usableBytes() const { return limitBytes; }
  bool fits() const { return usedBytes() <= usableBytes(); }
};

/// What a location says about the op (see the importer's instructionLoc):
/// the HLO instruction and the framework op's type and name.
struct SourceInfo {
  std::string instruction; // "iota.2"
  std::string opType;      // "OneHot"
  std::string opName;      // "model/loss/one_hot"
};
SourceInfo sourceInfo(mlir::Location loc);

/// Plans HBM for the entry function (the public func.func, else "main")
/// of `module`. Fails with a diagnostic on values it cannot size.
mlir::FailureOr<MemoryPlan> planMemory(mlir::ModuleOp module,
                                       const target::TargetSpec &target);

} // namespace tpuc::analysis

#endif // TPUC_COMPILER_ANALYSIS_BUFFERASSIGNMENT_H
