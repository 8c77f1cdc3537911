//===- Serializer.h - tpu dialect to executable -----------------*- C++ -*-===//
//
// Turns a tpu-dialect module into the runtime's executable (docs/tpu-dialect.md
// describes the allocation of buffers and registers, loops and the debug map).
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_SERIALIZER_SERIALIZER_H
#define TPUC_COMPILER_SERIALIZER_SERIALIZER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "runtime/schema/executable.pb.h"

#include <string>
#include <vector>

namespace tpuc::serializer {

/// Serializes the module's one function into an executable and checks it
/// with the runtime's validateExecutable. Errors are emitted as diagnostics
/// on the offending op. Deterministic: equal modules give equal protos.
mlir::FailureOr<exe::Executable> serializeModule(mlir::ModuleOp module);

/// The HLO instruction that computed an entry result (the ROOT tuple's
/// operand) and its op_name metadata; empty when unknown.
struct ResultSource {
  std::string hloOp, opName;
};

/// The sources of `entry`'s results: the `hlo.result_name` and
/// `hlo.result_op_name` result attributes recordResultSources left, else
/// the location of each returned value (the importer's NameLoc of the
/// instruction; for an op inlined from a call, the call's). tpuc compile
/// writes them into the executable's results (`Result.hlo_op`, `op_name`),
/// and tpuc-run and tpuc interpret name the results after them.
std::vector<ResultSource> entryResultSources(mlir::func::FuncOp entry);

/// Records `sources` as result attributes of `entry`, so that they survive
/// the passes that replace the returned values (and appear in dumps).
void recordResultSources(mlir::func::FuncOp entry,
                         llvm::ArrayRef<ResultSource> sources);

/// A readable listing of an executable: the target, the buffers, the
/// parameters and results, and one line per instruction with its debug op.
std::string printExecutable(const exe::Executable &executable);

} // namespace tpuc::serializer

#endif // TPUC_COMPILER_SERIALIZER_SERIALIZER_H
