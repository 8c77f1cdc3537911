//===- ModuleTarget.h - The target a module is compiled for ----------------===//
//
// One target per module: the driver sets it once, as the module attribute
// `tpuc.target` (the preset's name plus the command line's overrides), and
// every target-dependent pass reads it from there. The passes' own `target=`
// option is only the fallback for a module without the attribute (a pass run
// on its own in tpuc-opt). docs/targets.md.
//
//===----------------------------------------------------------------------===//
#ifndef TPUC_PASSES_MODULETARGET_H
#define TPUC_PASSES_MODULETARGET_H

#include "runtime/target/Targets.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace tpuc {

/// The module attribute holding the target: a dictionary with the preset's
/// `name` and any of the integer fields `hbm_bytes`, `hbm_reserved_bytes`,
/// `hbm_limit_bytes`, `vmem_bytes` that override it.
inline constexpr char kModuleTargetAttrName[] = "tpuc.target";

/// Records `spec` (a preset, possibly with overridden HBM and VMEM figures)
/// on `module`.
void setModuleTarget(mlir::ModuleOp module, const target::TargetSpec &spec);

/// The target of `module`: its `tpuc.target` attribute if it has one, else
/// the preset `fallbackName`. Emits an error on `module` and fails for an
/// unknown name or a malformed attribute.
mlir::FailureOr<target::TargetSpec> moduleTarget(mlir::ModuleOp module,
                                                 llvm::StringRef fallbackName);

} // namespace tpuc

#endif // TPUC_PASSES_MODULETARGET_H
