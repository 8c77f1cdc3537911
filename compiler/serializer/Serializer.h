//===- Serializer.h - tpu dialect to executable -----------------*- C++ -*-===//
//
// Turns a tpu-dialect module into the runtime's executable (docs/tpu-dialect.md
// describes the allocation of buffers and registers, loops and the debug map).
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_SERIALIZER_SERIALIZER_H
#define TPUC_COMPILER_SERIALIZER_SERIALIZER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "runtime/schema/executable.pb.h"

#include <string>

namespace tpuc::serializer {

/// Serializes the module's one function into an executable and checks it
/// with the runtime's validateExecutable. Errors are emitted as diagnostics
/// on the offending op. Deterministic: equal modules give equal protos.
mlir::FailureOr<exe::Executable> serializeModule(mlir::ModuleOp module);

/// A readable listing of an executable: the target, the buffers, the
/// parameters and results, and one line per instruction with its debug op.
std::string printExecutable(const exe::Executable &executable);

} // namespace tpuc::serializer

#endif // TPUC_COMPILER_SERIALIZER_SERIALIZER_H
