//===- Interpreter.h - the reference interpreter of the hlo dialect -*- C++ -*-===//
//
// Evaluates a func.func of the hlo dialect on concrete tensors with XLA's
// semantics (docs/interpreter.md states the numerics exactly). It is the
// project's numerics oracle: compiled programs are compared against it.
//
//   mlir::FailureOr<llvm::SmallVector<Tensor>> results =
//       interpret(func, {Tensor::fromHostArray(a), Tensor::fromHostArray(b)});
//
// Failures (arguments that do not match the signature, an op the interpreter
// cannot evaluate) are emitted as diagnostics at the function or op.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_INTERPRETER_INTERPRETER_H
#define TPUC_COMPILER_INTERPRETER_INTERPRETER_H

#include "compiler/interpreter/Tensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

namespace tpuc::interpreter {

struct InterpreterOptions {
  /// Threads for dot_general and convolution; 0 uses every hardware thread.
  /// Results do not depend on it.
  int numThreads = 0;
  /// Stop with an error after evaluating this many ops (counting every op
  /// of every region run, per loop trip and per element); 0 is no limit.
  /// An endless while then fails instead of hanging.
  uint64_t maxOps = 0;
};

/// The element type and shape of a parameter or result type, when it is a
/// tensor the interpreter can hold.
struct TensorSpec {
  DType dtype;
  llvm::SmallVector<int64_t, 4> shape;
  /// "f32[2,3]".
  std::string str() const;
};
std::optional<TensorSpec> tensorSpecOf(mlir::Type type);

/// Runs `func` on `args` (one per parameter, of its exact type and shape)
/// and returns its results. `func` may call other functions of its module.
mlir::FailureOr<llvm::SmallVector<Tensor>>
interpret(mlir::func::FuncOp func, llvm::ArrayRef<Tensor> args,
          const InterpreterOptions &options = {});

} // namespace tpuc::interpreter

#endif // TPUC_COMPILER_INTERPRETER_INTERPRETER_H
