//===- Passes.h - tpuc's passes ---------------------------------*- C++ -*-===//
#ifndef TPUC_PASSES_PASSES_H
#define TPUC_PASSES_PASSES_H

#include "dialects/hlo/HloDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace tpuc {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

/// The graph simplifications every compile starts with, registered as the
/// `tpuc-simplify` pipeline: inline calls, move loop-invariant work out of
/// while loops (tpuc-hoist-while-invariants), forward known loop results
/// and remove 0/1-trip loops (tpuc-simplify-while-loops), then CSE and the
/// canonicalizer (XLA's algebraic simplifier and DCE, also inside nested
/// regions).
void buildSimplifyPipeline(mlir::OpPassManager &pm);

/// Registers every tpuc pass and pipeline with the global registry (for
/// tpuc-opt).
void registerPasses();

} // namespace tpuc

#endif // TPUC_PASSES_PASSES_H
