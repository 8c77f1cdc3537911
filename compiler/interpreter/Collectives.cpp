//===- Collectives.cpp - devices and collectives of a multi-device run ----===//

#include "compiler/interpreter/Collectives.h"

#include "compiler/interpreter/Kernels.h"
#include "dialects/hlo/HloOps.h"
#include "dialects/hlo/Sharding.h"

#include "llvm/ADT/TypeSwitch.h"

#include <thread>

using namespace mlir;

namespace tpuc::interpreter {

Rendezvous::Rendezvous(int64_t numDevices)
    : count(numDevices), slots(numDevices), ops(numDevices, nullptr) {}

FailureOr<std::shared_ptr<const Rendezvous::Round>>
Rendezvous::exchange(Operation *op, int64_t device,
                     std::vector<Tensor> operands) {
  std::unique_lock<std::mutex> lock(mutex);
  auto stopped = [&]() -> LogicalResult {
    if (aborted)
      return failure(); // another device reported its error
    return op->emitOpError()
           << "is reached by device " << device << " but device "
           << finishedDevice
           << " finished without reaching it (the devices' programs "
              "diverged)";
  };
  if (aborted || finishedDevice >= 0)
    return stopped();
  slots[device] = std::move(operands);
  ops[device] = op;
  uint64_t mine = generation;
  if (++arrived == count) {
    mismatch = llvm::any_of(ops, [&](Operation *o) { return o != op; });
    published = std::make_shared<const Round>(std::move(slots));
    slots.assign(count, {});
    arrived = 0;
    ++generation;
    arrivedAll.notify_all();
  } else {
    arrivedAll.wait(lock, [&] {
      return generation != mine || aborted || finishedDevice >= 0;
    });
    if (generation == mine)
      return stopped();
  }
  if (mismatch)
    return op->emitOpError()
           << "devices reached different collectives at the same step (the "
              "devices' programs diverged)";
  return published;
}

void Rendezvous::finish(int64_t device, bool failed) {
  std::lock_guard<std::mutex> lock(mutex);
  if (failed)
    aborted = true;
  else if (finishedDevice < 0)
    finishedDevice = device;
  arrivedAll.notify_all();
}

LogicalResult verifyGroupShape(Operation *op, int64_t groupSize) {
  auto check = [&](StringRef verb, RankedTensorType whole,
                   RankedTensorType part, int64_t dim) -> LogicalResult {
    if (part.getDimSize(dim) * groupSize == whole.getDimSize(dim))
      return success();
    return op->emitOpError() << verb << " " << op->getOperand(0).getType()
                             << " along dimension " << dim << " over a group of "
                             << groupSize << " devices, but returns "
                             << op->getResult(0).getType();
  };
  if (auto gather = dyn_cast<hlo::AllGatherOp>(op))
    return check("gathers", gather.getType(), gather.getOperand().getType(),
                 gather.getAllGatherDim());
  if (auto scatter = dyn_cast<hlo::ReduceScatterOp>(op))
    return check("scatters", scatter.getOperand().getType(), scatter.getType(),
                 scatter.getScatterDimension());
  return success();
}

namespace {
/// XLA's CollectiveOpGroupMode.
enum class GroupMode { CrossReplica, CrossPartition, CrossReplicaAndPartition,
                       FlattenedId };

struct CollectiveInfo {
  DenseIntElementsAttr groups;
  GroupMode mode;
};

CollectiveInfo infoOf(Operation *op) {
  bool channel = op->hasAttr("channel_id");
  bool global = op->hasAttr("use_global_device_ids");
  // all-reduce, all-gather and reduce-scatter always carry the flag (false
  // when absent); the others never do.
  bool hasFlag = isa<hlo::AllReduceOp, hlo::AllGatherOp, hlo::ReduceScatterOp>(op);
  GroupMode mode = !channel  ? GroupMode::CrossReplica
                   : !hasFlag ? GroupMode::CrossPartition
                   : global   ? GroupMode::FlattenedId
                              : GroupMode::CrossReplicaAndPartition;
  auto groups = op->getAttrOfType<DenseIntElementsAttr>(
      isa<hlo::CollectivePermuteOp>(op) ? "source_target_pairs"
                                        : "replica_groups");
  return {groups, mode};
}
} // namespace

FailureOr<std::vector<int64_t>>
collectiveParticipants(Operation *op, const DeviceGrid &grid, int64_t device) {
  CollectiveInfo info = infoOf(op);
  int64_t P = grid.numPartitions, R = grid.replicaCount;
  int64_t replica = device / P, partition = device % P;
  int64_t myId = 0, idCount = 0;
  switch (info.mode) {
  case GroupMode::CrossReplica:
  case GroupMode::CrossReplicaAndPartition:
    myId = replica, idCount = R;
    break;
  case GroupMode::CrossPartition:
    myId = partition, idCount = P;
    break;
  case GroupMode::FlattenedId:
    myId = device, idCount = R * P;
    break;
  }
  std::vector<int64_t> ids;
  auto type = cast<ShapedType>(info.groups.getType());
  if (type.getNumElements() == 0) {
    for (int64_t id = 0; id < idCount; ++id)
      ids.push_back(id);
  } else {
    int64_t cols = type.getDimSize(1);
    SmallVector<int64_t> all(info.groups.getValues<int64_t>());
    for (int64_t id : all)
      if (id >= idCount)
        return op->emitOpError()
               << "replica_groups name id " << id << ", but the run has "
               << idCount << " such ids (replica_count=" << R
               << ", num_partitions=" << P << ")";
    for (int64_t row = 0; row * cols < static_cast<int64_t>(all.size()) &&
                          ids.empty();
         ++row) {
      ArrayRef<int64_t> group = ArrayRef<int64_t>(all).slice(row * cols, cols);
      if (llvm::is_contained(group, myId))
        for (int64_t id : group)
          if (id >= 0)
            ids.push_back(id);
    }
    if (ids.empty())
      return op->emitOpError() << "device " << device << " (replica "
                               << replica << ", partition " << partition
                               << ") is in none of its replica_groups";
  }
  std::vector<int64_t> devices;
  for (int64_t id : ids) {
    switch (info.mode) {
    case GroupMode::CrossReplica:
      devices.push_back(id * P + partition);
      break;
    case GroupMode::CrossPartition:
      devices.push_back(replica * P + id);
      break;
    case GroupMode::CrossReplicaAndPartition:
      for (int64_t p = 0; p < P; ++p)
        devices.push_back(id * P + p);
      break;
    case GroupMode::FlattenedId:
      devices.push_back(id);
      break;
    }
  }
  return devices;
}

FailureOr<int64_t> permuteSource(Operation *op, const DeviceGrid &grid,
                                 int64_t device) {
  CollectiveInfo info = infoOf(op);
  int64_t P = grid.numPartitions, R = grid.replicaCount;
  int64_t replica = device / P, partition = device % P;
  bool byPartition = info.mode == GroupMode::CrossPartition;
  int64_t myId = byPartition ? partition : replica;
  int64_t idCount = byPartition ? P : R;
  SmallVector<int64_t> pairs(info.groups.getValues<int64_t>());
  int64_t source = -1;
  for (size_t i = 0; i + 1 < pairs.size(); i += 2) {
    if (pairs[i] >= idCount || pairs[i + 1] >= idCount)
      return op->emitOpError()
             << "source_target_pairs name id "
             << std::max(pairs[i], pairs[i + 1]) << ", but the run has "
             << idCount << (byPartition ? " partitions" : " replicas");
    if (pairs[i + 1] == myId)
      source = pairs[i];
  }
  if (source < 0)
    return int64_t(-1);
  return byPartition ? replica * P + source : source * P + partition;
}

FailureOr<std::vector<llvm::SmallVector<Tensor>>>
interpretDevices(func::FuncOp func, const DeviceGrid &grid,
                 llvm::ArrayRef<std::vector<Tensor>> args,
                 const InterpreterOptions &options) {
  int64_t count = grid.numDevices();
  if (static_cast<int64_t>(args.size()) != count)
    return func.emitError() << "a run on " << count << " devices needs "
                            << count << " argument lists, got " << args.size();
  Rendezvous rendezvous(count);
  std::vector<FailureOr<llvm::SmallVector<Tensor>>> results(
      count, FailureOr<llvm::SmallVector<Tensor>>(failure()));
  // Devices share the hardware threads of dot and convolution.
  int hardware = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  int perDevice = options.numThreads > 0
                      ? options.numThreads
                      : std::max<int>(1, hardware / static_cast<int>(count));
  auto run = [&](int64_t device) {
    InterpreterOptions mine = options;
    mine.grid = grid;
    mine.device = device;
    mine.rendezvous = &rendezvous;
    mine.numThreads = perDevice;
    results[device] = interpret(func, args[device], mine);
    rendezvous.finish(device, failed(results[device]));
  };
  std::vector<std::thread> threads;
  for (int64_t device = 1; device < count; ++device)
    threads.emplace_back(run, device);
  run(0);
  for (std::thread &thread : threads)
    thread.join();
  std::vector<llvm::SmallVector<Tensor>> out;
  for (auto &result : results) {
    if (failed(result))
      return failure();
    out.push_back(std::move(*result));
  }
  return out;
}

/// The parsed sharding, for shardOf and gatherShards.
static std::optional<hlo::Sharding> parseFor(llvm::StringRef text,
                                             int64_t rank, std::string &error) {
  hlo::ShardingError problem;
  std::optional<hlo::Sharding> sharding = hlo::parseSharding(text, problem);
  if (!sharding) {
    error = "invalid sharding " + text.str() + ": " + problem.message;
    return std::nullopt;
  }
  if (sharding->kind == hlo::Sharding::Kind::Tuple) {
    error = "a tuple sharding " + text.str() + " on an array";
    return std::nullopt;
  }
  if (sharding->kind == hlo::Sharding::Kind::Tiled &&
      static_cast<int64_t>(sharding->numDataTileDims()) != rank) {
    error = "sharding " + text.str() + " tiles " +
            std::to_string(sharding->numDataTileDims()) +
            " dimensions, but the array has rank " + std::to_string(rank);
    return std::nullopt;
  }
  return sharding;
}

std::optional<Tensor> shardOf(const Tensor &global, llvm::StringRef text,
                              int64_t partition, std::string &error) {
  std::optional<hlo::Sharding> sharding = parseFor(text, global.rank(), error);
  if (!sharding)
    return std::nullopt;
  if (sharding->kind != hlo::Sharding::Kind::Tiled)
    return global;
  auto index = sharding->tileIndexOf(partition);
  if (!index) {
    error = "partition " + std::to_string(partition) +
            " is not in the tile assignment of " + text.str();
    return std::nullopt;
  }
  llvm::SmallVector<int64_t, 4> start, limit, strides(global.rank(), 1);
  for (int64_t d = 0; d < global.rank(); ++d) {
    int64_t tiles = sharding->tileDims[d];
    if (global.dim(d) % tiles != 0) {
      error = "dimension " + std::to_string(d) + " of " + global.typeString() +
              " does not split evenly into " + std::to_string(tiles) +
              " tiles of " + text.str();
      return std::nullopt;
    }
    int64_t size = global.dim(d) / tiles;
    start.push_back((*index)[d] * size);
    limit.push_back(((*index)[d] + 1) * size);
  }
  return slice(global, start, limit, strides);
}

std::optional<Tensor> gatherShards(llvm::ArrayRef<Tensor> parts,
                                   llvm::StringRef text, std::string &error) {
  if (parts.empty()) {
    error = "no parts to gather";
    return std::nullopt;
  }
  std::optional<hlo::Sharding> sharding =
      parseFor(text, parts[0].rank(), error);
  if (!sharding)
    return std::nullopt;
  if (sharding->kind == hlo::Sharding::Kind::Maximal)
    return parts[std::min<int64_t>(sharding->device, parts.size() - 1)];
  if (sharding->kind != hlo::Sharding::Kind::Tiled)
    return parts[0];
  llvm::SmallVector<int64_t, 4> shape;
  for (int64_t d = 0; d < parts[0].rank(); ++d)
    shape.push_back(parts[0].dim(d) * sharding->tileDims[d]);
  Tensor global(parts[0].dtype(), shape);
  for (int64_t partition = 0; partition < static_cast<int64_t>(parts.size());
       ++partition) {
    auto index = sharding->tileIndexOf(partition);
    if (!index)
      continue;
    // Replicated copies of a tile are equal; the last one written stays.
    llvm::SmallVector<int64_t, 4> starts;
    for (int64_t d = 0; d < parts[0].rank(); ++d)
      starts.push_back((*index)[d] * parts[0].dim(d));
    global = dynamicUpdateSlice(global, parts[partition], starts);
  }
  return global;
}

} // namespace tpuc::interpreter
