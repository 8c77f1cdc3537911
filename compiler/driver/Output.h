//===- Output.h - writing tpuc's output files -------------------*- C++ -*-===//
#ifndef TPUC_COMPILER_DRIVER_OUTPUT_H
#define TPUC_COMPILER_DRIVER_OUTPUT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

namespace tpuc::driver {

/// Prints `module` to `path` ("-" is stdout). The file is complete or
/// absent: on any failure nothing is left behind. Returns the exit code.
int writeModule(mlir::ModuleOp module, llvm::StringRef path, bool debugInfo);

} // namespace tpuc::driver

#endif // TPUC_COMPILER_DRIVER_OUTPUT_H
