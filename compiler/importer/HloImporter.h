//===- HloImporter.h - XLA HLO text AST -> hlo dialect ----------*- C++ -*-===//
#ifndef TPUC_COMPILER_IMPORTER_HLOIMPORTER_H
#define TPUC_COMPILER_IMPORTER_HLOIMPORTER_H

#include "compiler/hlo_text/HloAst.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

namespace tpuc {

/// Converts a parsed HLO module into the hlo dialect:
/// - ENTRY becomes a public func.func whose arguments are its parameters and
///   whose results are the leaves of its ROOT (a tuple ROOT is flattened);
///   computations used by `call` become private func.funcs; all others
///   (to_apply, condition, body, comparators, branches, fused computations)
///   become regions of the op that uses them.
/// - Every op's location names the HLO instruction at `fileName`:line:col
///   and, when metadata says so, the framework op (op_name at
///   source_file:source_line).
/// - Non-default layouts are kept as `hlo.layout` attributes in XLA notation;
///   module attributes keep the entry computation layout, input_output_alias,
///   buffer_donor and frontend_attributes.
/// Unsupported opcodes and types are errors at their file:line:col.
mlir::OwningOpRef<mlir::ModuleOp>
importHloModule(const hlo_text::Module &module, llvm::StringRef fileName,
                mlir::MLIRContext &context);

} // namespace tpuc

#endif // TPUC_COMPILER_IMPORTER_HLOIMPORTER_H
