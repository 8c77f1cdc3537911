//===- Passes.h - tpuc's passes ---------------------------------*- C++ -*-===//
#ifndef TPUC_PASSES_PASSES_H
#define TPUC_PASSES_PASSES_H

#include "dialects/hlo/HloDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"

namespace tpuc {

/// `--dot-precision`: the MXU passes of every f32 dot_general and
/// convolution (bf16 x1, x3, x6), overriding each op's precision_config;
/// PerOp follows each op.
enum class DotPrecision { PerOp, Default, High, Highest };

/// The spellings of DotPrecision for cl::opt and pass options: the one
/// place the flag's values are parsed.
inline llvm::cl::ValuesClass dotPrecisionValues() {
  return llvm::cl::values(
      clEnumValN(DotPrecision::PerOp, "per-op",
                 "each op's precision_config (the default)"),
      clEnumValN(DotPrecision::Default, "default", "one bf16 pass"),
      clEnumValN(DotPrecision::High, "high", "bf16x3"),
      clEnumValN(DotPrecision::Highest, "highest", "bf16x6, f32-faithful"));
}

/// tpuc-assign-buffers' record on an hlo op: one `array<i64: allocation,
/// offset, bytes>` per result, the memory plan's buffer of the value
/// (offset -1: no heap offset; empty: not planned). tpuc-convert-hlo-to-tpu
/// places the buffers by it.
inline constexpr llvm::StringLiteral kHbmBuffersAttrName = "tpu.hbm_buffers";

/// tpuc-expand-x64's record on an entry argument or result it turned from
/// s64/u64 into planar 32-bit words (`[2, d...]`): the 64-bit element type,
/// which tpuc-convert-hlo-to-tpu gives the executable as its `host_dtype`
/// (the host array is the 64-bit one; docs/executable-format.md).
inline constexpr llvm::StringLiteral kX64HostTypeAttrName = "hlo.host_type";

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

/// The batch dimension of an entry parameter, as tpuc-resize-batch and
/// `tpuc fit --batch` name it.
struct BatchDimension {
  mlir::func::FuncOp entry;
  unsigned parameter = 0;
  int64_t dimension = 0;
  int64_t size = 0; // as written
  std::string name;  // the parameter's HLO instruction name, if it has one
};
/// The entry function's parameter `param` (an index, the parameter's HLO
/// instruction name or its op_name) and its dimension `dim`; errors are
/// diagnostics.
mlir::FailureOr<BatchDimension>
findBatchDimension(mlir::ModuleOp module, llvm::StringRef param, int64_t dim);
/// Re-specializes the entry function to batch `size` (tpuc-resize-batch).
mlir::LogicalResult resizeBatch(const BatchDimension &batch, int64_t size);

/// The graph simplifications every compile starts with, registered as the
/// `tpuc-simplify` pipeline: inline calls, move loop-invariant work out of
/// while loops (tpuc-hoist-while-invariants), forward known loop results
/// and remove 0/1-trip loops (tpuc-simplify-while-loops), then CSE and the
/// canonicalizer (XLA's algebraic simplifier and DCE, also inside nested
/// regions).
void buildSimplifyPipeline(mlir::OpPassManager &pm);

/// What `tpuc compile`'s flags choose among the passes. tpuc-opt's
/// `tpuc-compile-pipeline` takes the same as pipeline options.
struct CompilePipelineConfig {
  std::string target = "tpu-v3";
  /// --precision=mixed_bfloat16 (else f32, as written).
  bool mixedBfloat16 = false;
  /// --fusion=on.
  bool fusion = true;
  /// --layout=auto (else preserve the module's layouts).
  bool assignLayouts = true;
  /// --dot-precision.
  DotPrecision dotPrecision = DotPrecision::PerOp;
  /// --remat: recompute values until the plan fits in `memoryLimit` bytes
  /// (0: the target preset's usable HBM).
  bool remat = false;
  int64_t memoryLimit = 0;
  /// --data-parallel: split the step over this many devices
  /// (tpuc-data-parallel) before the rest of the pipeline; 0: do not.
  int64_t dataParallelDevices = 0;
  /// Partition a global sharded program (tpuc-sharding-propagation and
  /// tpuc-spmd-partition) before the rest of the pipeline.
  bool spmdPartition = false;
};

/// Whether `module` is a global program for tpuc-spmd-partition: more than
/// one partition, a split sharding somewhere, and no collective or
/// partition/replica id yet (those make it a per-device program).
bool isShardedGlobalProgram(mlir::ModuleOp module);

/// Inline calls, while-loop LICM and simplification, mixed precision (when
/// asked) and float normalization: the `hlo` stage of tpuc compile.
void buildFrontEndPipeline(mlir::OpPassManager &pm,
                           const CompilePipelineConfig &config);

/// The hlo -> hlo rewrites into the forms the kernels take (math
/// expansions, dot/reduction decompositions, convolution and window-op
/// rewrites, split convolution precision).
void buildExpansionPipeline(mlir::OpPassManager &pm,
                            const CompilePipelineConfig &config);

/// Fusion, layout assignment, (with remat) rematerialization and the
/// expansions: the `fused` stage of tpuc compile, the program the memory
/// plan describes and the code generator lowers.
void buildFusionPipeline(mlir::OpPassManager &pm,
                         const CompilePipelineConfig &config);

/// The expansions (again: a no-op after the fusion pipeline) and the
/// lowering to the tpu dialect: the `tpu` stage of tpuc compile.
void buildLoweringPipeline(mlir::OpPassManager &pm,
                           const CompilePipelineConfig &config);

/// The three above in order (`tpuc-compile-pipeline`).
void buildCompilePipeline(mlir::OpPassManager &pm,
                          const CompilePipelineConfig &config);

/// Registers every tpuc pass and the pipelines tpuc-simplify and
/// tpuc-compile-pipeline with the global registry (for
/// tpuc-opt).
void registerPasses();

} // namespace tpuc

#endif // TPUC_PASSES_PASSES_H
