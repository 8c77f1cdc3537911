//===- Collective.cpp - collectives and device ids over the ICI ----------===//
//
// Each hlo collective becomes one tpu collective op per operand, from the
// operand's HBM buffer to a new one; the groups are resolved here to global
// device ids (XLA's CollectiveOpGroupMode, the interpreter's
// collectiveParticipants), so the executable needs no group modes.
// replica_id / partition_id write the id with tpu.device_id. The device
// grid is checked against the target slice and recorded, with the entry's
// shardings as tiles, for the serializer (docs/spmd.md, "Code generation").
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Collectives.h"
#include "dialects/hlo/Sharding.h"
#include "passes/HloToTpu/Lowering.h"
#include "passes/HloToTpu/Relayout.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace tpuc::hlotpu {

namespace {

int64_t moduleCount(ModuleOp module, StringRef name) {
  auto attr = module->getAttrOfType<IntegerAttr>(name);
  return attr ? attr.getInt() : 1;
}

/// The combiner of a single-op reduction region: "add", "mul", "min",
/// "max", "and" or "or"; empty otherwise.
std::string reducerOf(Region &region) {
  Block &block = region.front();
  if (block.getNumArguments() != 2 || !llvm::hasSingleElement(
                                          block.without_terminator()))
    return "";
  Operation &op = block.front();
  Operation *ret = block.getTerminator();
  if (op.getNumOperands() != 2 || ret->getNumOperands() != 1 ||
      ret->getOperand(0) != op.getResult(0))
    return "";
  Value a = block.getArgument(0), b = block.getArgument(1);
  if (!((op.getOperand(0) == a && op.getOperand(1) == b) ||
        (op.getOperand(0) == b && op.getOperand(1) == a)))
    return "";
  return llvm::TypeSwitch<Operation *, std::string>(&op)
      .Case([](hlo::AddOp) { return "add"; })
      .Case([](hlo::MultiplyOp) { return "mul"; })
      .Case([](hlo::MinimumOp) { return "min"; })
      .Case([](hlo::MaximumOp) { return "max"; })
      .Case([](hlo::AndOp) { return "and"; })
      .Case([](hlo::OrOp) { return "or"; })
      .Default([](Operation *) { return ""; });
}

} // namespace

interpreter::DeviceGrid Lowering::deviceGrid() {
  interpreter::DeviceGrid grid;
  grid.replicaCount = moduleCount(module, "hlo.replica_count");
  grid.numPartitions = moduleCount(module, "hlo.num_partitions");
  return grid;
}

LogicalResult Lowering::lowerCollective(Operation *op) {
  beginKernel(op);
  interpreter::DeviceGrid grid = deviceGrid();
  int64_t devices = grid.numDevices();
  // Every device's group, in global ids; each group once.
  auto resolveGroups = [&]() -> FailureOr<DenseIntElementsAttr> {
    std::vector<std::vector<int64_t>> groups;
    std::vector<bool> placed(devices, false);
    size_t width = 0;
    for (int64_t d = 0; d < devices; ++d) {
      if (placed[d])
        continue;
      FailureOr<std::vector<int64_t>> group =
          interpreter::collectiveParticipants(op, grid, d);
      if (failed(group))
        return failure();
      for (int64_t m : *group)
        placed[m] = true;
      width = std::max(width, group->size());
      groups.push_back(std::move(*group));
    }
    std::vector<int64_t> flat;
    for (std::vector<int64_t> &g : groups) {
      g.resize(width, -1);
      llvm::append_range(flat, g);
    }
    auto type = RankedTensorType::get(
        {static_cast<int64_t>(groups.size()), static_cast<int64_t>(width)},
        b.getI64Type());
    return DenseIntElementsAttr::get(type, ArrayRef<int64_t>(flat));
  };
  auto checkType = [&](Value v) -> LogicalResult {
    Type elem = cast<RankedTensorType>(v.getType()).getElementType();
    if (!isLowerableElementType(elem) && !elem.isUnsignedInteger(32)) {
      std::string name;
      llvm::raw_string_ostream os(name);
      os << elem;
      return unsupported(op, "on element type " + name);
    }
    return success();
  };
  auto operandAndResult = [&](Value operand,
                              Value result) -> FailureOr<std::pair<Value, Value>> {
    if (failed(checkType(operand)))
      return failure();
    FailureOr<Value> src = memOf(operand);
    if (failed(src))
      return failure();
    // A reshape's view of its operand's buffer (bf16[1] -> bf16[]) keeps the
    // operand's memref type; the collective takes a copy in its own.
    auto operandType = cast<RankedTensorType>(operand.getType());
    if (cast<MemRefType>(src->getType()).getShape() !=
        hbmType(operandType).getShape()) {
      Value copy = allocHbm(operandType, loc);
      copyWhole(*this, *src, copy, operandType);
      src = copy;
    }
    Value dst = allocHbm(cast<RankedTensorType>(result.getType()), loc);
    hbm[result] = dst;
    return std::make_pair(*src, dst);
  };

  if (auto permute = dyn_cast<hlo::CollectivePermuteOp>(op)) {
    std::vector<int64_t> pairs;
    for (int64_t d = 0; d < devices; ++d) {
      FailureOr<int64_t> source = interpreter::permuteSource(op, grid, d);
      if (failed(source))
        return failure();
      if (*source >= 0)
        llvm::append_range(pairs, std::vector<int64_t>{*source, d});
    }
    auto type = RankedTensorType::get(
        {static_cast<int64_t>(pairs.size() / 2), 2}, b.getI64Type());
    auto io = operandAndResult(permute.getOperand(), permute.getResult());
    if (failed(io))
      return failure();
    tpu::CollectivePermuteOp::create(
        b, loc, io->first, io->second,
        DenseIntElementsAttr::get(type, ArrayRef<int64_t>(pairs)));
    return endKernel();
  }

  FailureOr<DenseIntElementsAttr> groups = resolveGroups();
  if (failed(groups))
    return failure();
  // The result shape the groups give (as the interpreter checks it); a
  // module written for more devices than the run has fails here, at the op.
  if (failed(interpreter::verifyGroupShape(op,
                                           groups->getType().getDimSize(1))))
    return failure();
  auto reduceOf = [&](Region &region) -> FailureOr<std::string> {
    std::string kind = reducerOf(region);
    if (kind.empty())
      return unsupported(op, "with a reduction other than one add, multiply, "
                             "minimum, maximum, and or or of its arguments");
    return kind;
  };
  LogicalResult lowered =
      llvm::TypeSwitch<Operation *, LogicalResult>(op)
          .Case([&](hlo::AllReduceOp o) -> LogicalResult {
            FailureOr<std::string> kind = reduceOf(o.getComputation());
            if (failed(kind))
              return failure();
            for (auto [operand, result] :
                 llvm::zip(o.getOperands(), o.getResults())) {
              auto io = operandAndResult(operand, result);
              if (failed(io))
                return failure();
              tpu::AllReduceOp::create(b, loc, io->first, io->second, *groups,
                                       *kind);
            }
            return success();
          })
          .Case([&](hlo::ReduceScatterOp o) -> LogicalResult {
            FailureOr<std::string> kind = reduceOf(o.getComputation());
            if (failed(kind))
              return failure();
            auto io = operandAndResult(o.getOperand(), o.getResult());
            if (failed(io))
              return failure();
            tpu::ReduceScatterOp::create(b, loc, io->first, io->second,
                                         *groups, o.getScatterDimension(),
                                         *kind);
            return success();
          })
          .Case([&](hlo::AllGatherOp o) -> LogicalResult {
            auto io = operandAndResult(o.getOperand(), o.getResult());
            if (failed(io))
              return failure();
            tpu::AllGatherOp::create(b, loc, io->first, io->second, *groups,
                                     o.getAllGatherDim());
            return success();
          })
          .Case([&](hlo::AllToAllOp o) -> LogicalResult {
            auto io = operandAndResult(o.getOperand(), o.getResult());
            if (failed(io))
              return failure();
            tpu::AllToAllOp::create(b, loc, io->first, io->second, *groups,
                                    o.getDimension());
            return success();
          })
          .Case([&](hlo::CollectiveBroadcastOp o) -> LogicalResult {
            auto io = operandAndResult(o.getOperand(), o.getResult());
            if (failed(io))
              return failure();
            tpu::CollectiveBroadcastOp::create(b, loc, io->first, io->second,
                                               *groups);
            return success();
          })
          .Default([&](Operation *) { return unsupported(op); });
  if (failed(lowered))
    return failure();
  return endKernel();
}

LogicalResult Lowering::lowerDeviceId(Operation *op) {
  beginKernel(op);
  Value result = op->getResult(0);
  auto type = cast<RankedTensorType>(result.getType());
  Value dst = allocHbm(type, loc);
  hbm[result] = dst;
  tpu::DeviceIdOp::create(b, loc, dst,
                          isa<hlo::ReplicaIdOp>(op) ? "replica" : "partition");
  return endKernel();
}

LogicalResult Lowering::recordDeviceGrid() {
  interpreter::DeviceGrid grid = deviceGrid();
  int64_t devices = grid.numDevices();
  auto slice = module->getAttrOfType<StringAttr>("tpu.slice");
  const target::SliceSpec *spec =
      slice ? target::findSlice(slice.getValue().str()) : nullptr;
  if (devices > 1 && !spec)
    return oldFunc.emitError()
           << "the program runs on " << devices << " devices (replica_count="
           << grid.replicaCount << " x num_partitions=" << grid.numPartitions
           << ") but target " << this->spec.machine.name()
           << " is one device; compile for a slice with " << devices
           << " devices (tpuc targets lists them)";
  if (spec && devices > 1 && spec->devices != devices)
    return oldFunc.emitError()
           << "the program runs on " << devices << " devices (replica_count="
           << grid.replicaCount << " x num_partitions=" << grid.numPartitions
           << ") but slice " << spec->name << " has " << spec->devices
           << " devices";
  if (devices > 1) {
    module->setAttr("tpu.replica_count",
                    b.getI64IntegerAttr(grid.replicaCount));
    module->setAttr("tpu.num_partitions",
                    b.getI64IntegerAttr(grid.numPartitions));
  }
  // The entry's shardings as tiles: tpu.tiles (per dimension) and
  // tpu.tile_of_partition, or tpu.maximal_device.
  auto record = [&](StringAttr text, int64_t rank,
                    llvm::function_ref<void(StringRef, Attribute)> set)
      -> LogicalResult {
    if (!text || devices == 1)
      return success();
    hlo::ShardingError error;
    std::optional<hlo::Sharding> sharding =
        hlo::parseSharding(text.getValue(), error);
    if (!sharding)
      return oldFunc.emitError() << "invalid sharding " << text << ": "
                                 << error.message;
    if (sharding->kind == hlo::Sharding::Kind::Maximal) {
      set("tpu.maximal_device", b.getI64IntegerAttr(sharding->device));
      return success();
    }
    if (sharding->kind != hlo::Sharding::Kind::Tiled)
      return success();
    if (static_cast<int64_t>(sharding->numDataTileDims()) != rank)
      return oldFunc.emitError() << "sharding " << text << " does not fit "
                                 << "an array of rank " << rank;
    SmallVector<int64_t> tiles(sharding->tileDims.begin(),
                               sharding->tileDims.begin() + rank);
    SmallVector<int64_t> tileOf;
    for (int64_t p = 0; p < grid.numPartitions; ++p) {
      std::optional<std::vector<int64_t>> index = sharding->tileIndexOf(p);
      if (!index)
        return oldFunc.emitError() << "partition " << p << " is not in the "
                                   << "tile assignment of " << text;
      int64_t linear = 0;
      for (int64_t d = 0; d < rank; ++d)
        linear = linear * tiles[d] + (*index)[d];
      tileOf.push_back(linear);
    }
    set("tpu.tiles", b.getDenseI64ArrayAttr(tiles));
    set("tpu.tile_of_partition", b.getDenseI64ArrayAttr(tileOf));
    return success();
  };
  // u32 entry arrays are stored as i32; the executable keeps their type.
  auto u32 = b.getStringAttr("u32");
  for (unsigned i = 0; i < oldFunc.getNumArguments(); ++i)
    if (getElementTypeOrSelf(oldFunc.getArgument(i).getType())
            .isUnsignedInteger(32))
      newFunc.setArgAttr(i, "tpu.dtype", u32);
  for (unsigned i = 0; i < oldFunc.getNumResults(); ++i)
    if (getElementTypeOrSelf(oldFunc.getResultTypes()[i]).isUnsignedInteger(32))
      newFunc.setResultAttr(i, "tpu.dtype", u32);
  auto rankOf = [](Type t) { return cast<RankedTensorType>(t).getRank(); };
  for (unsigned i = 0; i < oldFunc.getNumArguments(); ++i)
    if (failed(record(oldFunc.getArgAttrOfType<StringAttr>(i, "hlo.sharding"),
                      rankOf(oldFunc.getArgument(i).getType()),
                      [&](StringRef name, Attribute a) {
                        newFunc.setArgAttr(i, name, a);
                      })))
      return failure();
  for (unsigned i = 0; i < oldFunc.getNumResults(); ++i)
    if (failed(record(
            oldFunc.getResultAttrOfType<StringAttr>(i, "hlo.sharding"),
            rankOf(oldFunc.getResultTypes()[i]),
            [&](StringRef name, Attribute a) {
              newFunc.setResultAttr(i, name, a);
            })))
      return failure();
  return success();
}

void populateCollectivePatterns(RewritePatternSet &patterns, Lowering &l) {
  l.addKernels<hlo::AllReduceOp, hlo::AllGatherOp, hlo::ReduceScatterOp,
               hlo::AllToAllOp, hlo::CollectivePermuteOp,
               hlo::CollectiveBroadcastOp>(patterns,
                                           &Lowering::lowerCollective);
  l.addKernels<hlo::ReplicaIdOp, hlo::PartitionIdOp>(patterns,
                                                     &Lowering::lowerDeviceId);
}

} // namespace tpuc::hlotpu
