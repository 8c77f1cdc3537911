//===- ModuleLoader.h - read a graph from .hlo text or .mlir ----*- C++ -*-===//
#ifndef TPUC_COMPILER_IMPORTER_MODULELOADER_H
#define TPUC_COMPILER_IMPORTER_MODULELOADER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

namespace tpuc {

/// Registers what a module read by tpuc may contain (hlo, func).
void registerInputDialects(mlir::DialectRegistry &registry);

/// The context a tpuc command works in: the input dialects registered, and
/// every diagnostic for the command's whole life printed as file:line:col
/// with the source line (files are read on demand).
class ToolContext {
public:
  ToolContext();
  mlir::MLIRContext &get() { return context; }

private:
  mlir::MLIRContext context;
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler;
};

/// Whether `path` names XLA HLO text (.hlo, .txt) rather than MLIR.
bool isHloText(llvm::StringRef path);

/// Fails with a diagnostic at the call when the module's call graph has a
/// cycle (XLA rejects recursive computations; the interpreter and codegen
/// would recurse forever).
mlir::LogicalResult verifyNoRecursion(mlir::ModuleOp module);

/// Reads `path` ("-" is stdin) into a verified, non-recursive module: XLA HLO text for
/// .hlo/.txt files, MLIR (the hlo dialect) otherwise. Errors are reported
/// as diagnostics with file:line:col; returns null on failure.
mlir::OwningOpRef<mlir::ModuleOp> loadModule(llvm::StringRef path,
                                             mlir::MLIRContext &context);

} // namespace tpuc

#endif // TPUC_COMPILER_IMPORTER_MODULELOADER_H
