//===- Collectives.h - devices and collectives of a multi-device run -*- C++ -*-===//
//
// A multi-device interpretation runs one thread per device; collectives meet
// at a Rendezvous, where every device deposits its operands and receives
// everyone's. Which devices form a group follows XLA's CollectiveOpGroupMode
// (docs/spmd.md). Private to compiler/interpreter.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_INTERPRETER_COLLECTIVES_H
#define TPUC_COMPILER_INTERPRETER_COLLECTIVES_H

#include "compiler/interpreter/Interpreter.h"

#include "mlir/IR/Operation.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

namespace tpuc::interpreter {

/// Where every device meets at each collective. Devices must reach the same
/// collectives in the same order (as on XLA, where a mismatch hangs); here a
/// mismatch, or a device that finished or failed, is an error.
class Rendezvous {
public:
  explicit Rendezvous(int64_t numDevices);

  /// Everyone's operands, indexed by device.
  using Round = std::vector<std::vector<Tensor>>;
  /// Deposits `operands` of `op` for `device` and waits for every device.
  /// On failure: a diagnostic was emitted on `op`, unless another device
  /// failed first (then it fails silently).
  mlir::FailureOr<std::shared_ptr<const Round>>
  exchange(mlir::Operation *op, int64_t device, std::vector<Tensor> operands);
  /// `device` stopped: done (`failed` false) or after an error.
  void finish(int64_t device, bool failed);

  int64_t numDevices() const { return count; }

private:
  std::mutex mutex;
  std::condition_variable arrivedAll;
  int64_t count;
  int64_t arrived = 0;
  uint64_t generation = 0;
  std::vector<std::vector<Tensor>> slots;
  std::vector<mlir::Operation *> ops;
  std::shared_ptr<const Round> published;
  bool mismatch = false;
  bool aborted = false;
  int64_t finishedDevice = -1;
};

/// The devices of `op`'s group that `device` belongs to, in group order
/// (device = replica * numPartitions + partition). Emits on `op` when the
/// groups do not fit the grid.
mlir::FailureOr<std::vector<int64_t>>
collectiveParticipants(mlir::Operation *op, const DeviceGrid &grid,
                       int64_t device);

/// Checks that all_gather / reduce_scatter `op` returns its operand joined /
/// split along its dimension over a group of `groupSize` devices; emits on
/// `op` otherwise (a module written for more devices than the run has). Other
/// ops pass.
mlir::LogicalResult verifyGroupShape(mlir::Operation *op, int64_t groupSize);

/// The device whose operand `device` receives from collective_permute `op`,
/// or -1 when no pair targets it.
mlir::FailureOr<int64_t> permuteSource(mlir::Operation *op,
                                       const DeviceGrid &grid, int64_t device);

} // namespace tpuc::interpreter

#endif // TPUC_COMPILER_INTERPRETER_COLLECTIVES_H
