//===- Codegen.h - hlo module to executable ---------------------*- C++ -*-===//
//
// The back end of `tpuc compile`: inline and canonicalize the hlo module,
// lower it to the tpu dialect (tpuc-convert-hlo-to-tpu) and serialize it
// into a validated executable. docs/codegen.md describes the lowering.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_DRIVER_CODEGEN_CODEGEN_H
#define TPUC_DRIVER_CODEGEN_CODEGEN_H

#include "passes/Passes.h"
#include "runtime/schema/executable.pb.h"
#include "runtime/target/Targets.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"

#include <functional>

namespace tpuc::codegen {

struct CodegenOptions {
  /// Run the graph simplifications (buildSimplifyPipeline: inliner,
  /// while-loop LICM and simplification, CSE, canonicalizer) before
  /// lowering. Off when the caller's pipeline already did.
  bool simplify = true;
  /// --dot-precision: the MXU passes of every f32 dot_general/convolution,
  /// overriding precision_config.
  DotPrecision dotPrecision = DotPrecision::PerOp;
  /// Called with the module after each stage: "hlo" (simplified) and
  /// "tpu" (lowered), for --emit and --dump-dir.
  std::function<void(llvm::StringRef stage, mlir::ModuleOp module)>
      afterStage;
  /// Called on every PassManager code generation creates, before it runs
  /// (`tpuc compile --dump-dir` adds its per-pass IR dumps here).
  std::function<void(mlir::PassManager &pm)> instrument;
};

/// Adds the passes that take an hlo module to the tpu dialect:
/// [tpuc-simplify,] the decompositions and tpuc-convert-hlo-to-tpu for
/// `target`.
void buildHloToTpuPipeline(mlir::OpPassManager &pm,
                           const target::TargetSpec &target,
                           const CodegenOptions &options = {});

/// Lowers `module` (hlo dialect) in place to the tpu dialect. Errors are
/// diagnostics on the module's context.
mlir::LogicalResult lowerToTpu(mlir::ModuleOp module,
                               const target::TargetSpec &target,
                               const CodegenOptions &options = {});

/// lowerToTpu, then the serializer (which validates the result with the
/// runtime's validateExecutable). `module` is lowered in place.
/// Deterministic: equal modules and options give equal executables.
mlir::FailureOr<exe::Executable>
compileToExecutable(mlir::ModuleOp module, const target::TargetSpec &target,
                    const CodegenOptions &options = {});

} // namespace tpuc::codegen

#endif // TPUC_DRIVER_CODEGEN_CODEGEN_H
