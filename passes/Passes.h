//===- Passes.h - tpuc's passes ---------------------------------*- C++ -*-===//
#ifndef TPUC_PASSES_PASSES_H
#define TPUC_PASSES_PASSES_H

#include "dialects/hlo/HloDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tpuc {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

/// Registers every tpuc pass with the global registry (for tpuc-opt).
void registerPasses();

} // namespace tpuc

#endif // TPUC_PASSES_PASSES_H
