//===- Output.h - writing tpuc's output files -------------------*- C++ -*-===//
#ifndef TPUC_DRIVER_COMMANDS_OUTPUT_H
#define TPUC_DRIVER_COMMANDS_OUTPUT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace tpuc::driver {

/// Writes a file through `write` to `path` ("-" is stdout). The file is
/// complete or absent: on any failure nothing is left behind. Errors go to
/// stderr as `tpuc: error: ...`. Returns the exit code (0 or 1).
int writeFile(llvm::StringRef path,
              llvm::function_ref<void(llvm::raw_ostream &)> write);

/// Prints `module` to `path` with writeFile.
int writeModule(mlir::ModuleOp module, llvm::StringRef path, bool debugInfo);

} // namespace tpuc::driver

#endif // TPUC_DRIVER_COMMANDS_OUTPUT_H
