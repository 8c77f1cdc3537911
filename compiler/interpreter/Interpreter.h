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

class Rendezvous;

/// A replica_count x num_partitions system (XLA's device assignment):
/// device d is replica d / numPartitions, partition d % numPartitions.
struct DeviceGrid {
  int64_t replicaCount = 1;
  int64_t numPartitions = 1;
  int64_t numDevices() const { return replicaCount * numPartitions; }
};

struct InterpreterOptions {
  /// Threads for dot_general and convolution; 0 uses every hardware thread.
  /// Results do not depend on it.
  int numThreads = 0;
  /// Stop with an error after evaluating this many ops (counting every op
  /// of every region run, per loop trip and per element); 0 is no limit.
  /// An endless while then fails instead of hanging.
  uint64_t maxOps = 0;
  /// The system and the device this run is (set by interpretDevices; a
  /// plain interpret() is device 0 of a 1 x 1 grid, where a collective over
  /// a group of one is its identity).
  DeviceGrid grid;
  int64_t device = 0;
  Rendezvous *rendezvous = nullptr;
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

/// Runs `func` on every device of `grid` at once (one thread each), device
/// d on `args[d]`; collectives exchange values between the devices with
/// XLA's semantics (docs/spmd.md). Returns each device's results. Results
/// do not depend on thread timing.
mlir::FailureOr<std::vector<llvm::SmallVector<Tensor>>>
interpretDevices(mlir::func::FuncOp func, const DeviceGrid &grid,
                 llvm::ArrayRef<std::vector<Tensor>> args,
                 const InterpreterOptions &options = {});

/// The part of the global array `global` that partition `partition` holds
/// under `sharding` (XLA's sharding text, as in `hlo.sharding`): the whole
/// array when replicated, manual or maximal, its tile when tiled (every
/// dimension must divide evenly). Nullopt with `error` set otherwise.
std::optional<Tensor> shardOf(const Tensor &global, llvm::StringRef sharding,
                              int64_t partition, std::string &error);

/// The global array assembled from each partition's part under `sharding`
/// (the inverse of shardOf; a replicated array is partition 0's, a maximal
/// one its device's).
std::optional<Tensor> gatherShards(llvm::ArrayRef<Tensor> parts,
                                   llvm::StringRef sharding,
                                   std::string &error);

} // namespace tpuc::interpreter

#endif // TPUC_COMPILER_INTERPRETER_INTERPRETER_H
