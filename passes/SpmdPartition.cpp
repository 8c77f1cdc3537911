//===- SpmdPartition.cpp - tpuc-spmd-partition
//------------------------------===//
//
// Rewrites the public function, whose values carry the one-dimensional
// shardings of SpmdSharding.h (after tpuc-sharding-propagation), into the
// program of one partition: split values become their block, each op runs
// on blocks where its rule allows (elementwise, broadcast, transpose,
// reshape, reduce, dot_general, convolution, while), contracted splits
// become a partial result and an all-reduce, and where an operand's split
// is not the one the op needs it is resharded: all-gather to replicate,
// dynamic-slice at the partition's offset to split, both to move a split.
// Ops without a rule run on replicated operands (always correct); their
// result is then sliced to its annotated sharding.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/SpmdBuilders.h"
#include "passes/SpmdSharding.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace tpuc {
#define GEN_PASS_DEF_SPMDPARTITION
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;

/// How an op runs on blocks: the split each operand needs, the split of the
/// result it computes, and whether that result is partial (each partition
/// holds a term of an all-reduce with `combiner`, or an add when null).
struct Plan {
  SmallVector<int64_t> operands;
  int64_t result = -1;
  bool partial = false;
  Region *combiner = nullptr;
};

class SpmdPartitioner {
public:
  SpmdPartitioner(func::FuncOp func, int64_t partitions)
      : func(func), partitions(partitions), collectives(func, partitions) {}

  LogicalResult run();

private:
  int64_t current(Value value) const {
    auto it = split.find(value);
    return it == split.end() ? -1 : it->second;
  }
  RankedTensorType block(RankedTensorType type, int64_t dim) const {
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] /= partitions;
    return RankedTensorType::get(shape, type.getElementType());
  }
  /// The sharding annotated on `op`'s one result, -1 when none.
  FailureOr<int64_t> target(Operation *op);
  Plan plan(Operation *op, int64_t target);
  /// `value` (split as `current`) resharded to `dim`, built before `at`.
  Value reshard(OpBuilder &builder, Location loc, Value value, int64_t dim);
  LogicalResult visit(Operation *op);
  func::FuncOp func;
  int64_t partitions;
  llvm::DenseMap<Value, int64_t> split; // values now split, by dimension
  llvm::DenseMap<std::pair<Value, int64_t>, Value> resharded;
  spmd::CollectiveBuilder collectives;
};

bool isElementwise(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<hlo::SelectOp, hlo::ClampOp>(op);
}

FailureOr<int64_t> SpmdPartitioner::target(Operation *op) {
  auto text = op->getAttrOfType<StringAttr>("hlo.sharding");
  if (!text || op->getNumResults() != 1)
    return -1;
  std::string why;
  FailureOr<int64_t> dim = spmd::splitDimension(
      text.getValue(), op->getResult(0).getType(), partitions, why);
  if (failed(dim))
    return op->emitOpError() << "tpuc-spmd-partition: cannot partition by "
                                "sharding "
                             << text.getValue() << ": " << why;
  return dim;
}

Plan SpmdPartitioner::plan(Operation *op, int64_t t) {
  Plan p;
  p.operands.assign(op->getNumOperands(), -1);
  auto resultType = op->getNumResults() == 1
                        ? dyn_cast<RankedTensorType>(op->getResult(0).getType())
                        : nullptr;
  if (!resultType)
    return p;
  if (isElementwise(op)) {
    for (auto [i, operand] : llvm::enumerate(op->getOperands()))
      if (cast<ShapedType>(operand.getType()).getRank() == resultType.getRank())
        p.operands[i] = t;
    p.result = t;
    return p;
  }
  if (auto broadcast = dyn_cast<hlo::BroadcastInDimOp>(op)) {
    // A dimension the operand does not have (or has as size 1) is the same
    // on every block: broadcast the replicated operand to the block.
    auto operand = cast<RankedTensorType>(broadcast.getOperand().getType());
    auto dims = broadcast.getBroadcastDimensions();
    if (auto it = llvm::find(dims, t);
        t >= 0 && it != dims.end() &&
        operand.getDimSize(it - dims.begin()) != 1)
      p.operands[0] = it - dims.begin();
    p.result = t;
    return p;
  }
  if (auto transpose = dyn_cast<hlo::TransposeOp>(op)) {
    if (t >= 0)
      p.operands[0] = transpose.getPermutation()[t];
    p.result = t;
    return p;
  }
  if (auto reshape = dyn_cast<hlo::ReshapeOp>(op)) {
    auto source = cast<RankedTensorType>(reshape.getOperand().getType());
    if (t < 0)
      return p;
    for (int64_t from = 0; from < source.getRank(); ++from)
      if (spmd::reshapeKeepsSplit(source, from, resultType, t, partitions)) {
        p.operands[0] = from;
        p.result = t;
      }
    return p;
  }
  if (auto reduce = dyn_cast<hlo::ReduceOp>(op)) {
    if (reduce.getInputs().size() != 1)
      return p;
    ArrayRef<int64_t> reduced = reduce.getDimensions();
    if (t >= 0) {
      // The t-th dimension that is not reduced.
      int64_t kept = -1;
      for (int64_t d = 0, seen = 0; kept < 0; ++d)
        if (!llvm::is_contained(reduced, d) && seen++ == t)
          kept = d;
      p.operands[0] = kept;
      p.result = t;
      return p;
    }
    int64_t in = current(reduce.getInputs()[0]);
    if (in >= 0 && llvm::is_contained(reduced, in) &&
        spmd::isIdentityInit(reduce.getBody(), reduce.getInitValues()[0])) {
      p.operands[0] = in;
      p.partial = true;
      p.combiner = &reduce.getBody();
    }
    return p;
  }
  if (auto dot = dyn_cast<hlo::DotGeneralOp>(op)) {
    auto dims = dot.getDotDimensionNumbers();
    auto lhs = cast<RankedTensorType>(dot.getLhs().getType());
    auto rhs = cast<RankedTensorType>(dot.getRhs().getType());
    auto freeDims = [](int64_t rank, ArrayRef<int64_t> batch,
                       ArrayRef<int64_t> contract) {
      SmallVector<int64_t> free;
      for (int64_t d = 0; d < rank; ++d)
        if (!llvm::is_contained(batch, d) && !llvm::is_contained(contract, d))
          free.push_back(d);
      return free;
    };
    SmallVector<int64_t> lhsFree =
        freeDims(lhs.getRank(), dims.getLhsBatch(), dims.getLhsContracting());
    SmallVector<int64_t> rhsFree =
        freeDims(rhs.getRank(), dims.getRhsBatch(), dims.getRhsContracting());
    int64_t batch = dims.getLhsBatch().size();
    if (t >= 0) {
      if (t < batch) {
        p.operands = {dims.getLhsBatch()[t], dims.getRhsBatch()[t]};
      } else if (t < batch + int64_t(lhsFree.size())) {
        p.operands[0] = lhsFree[t - batch];
      } else {
        p.operands[1] = rhsFree[t - batch - lhsFree.size()];
      }
      p.result = t;
      return p;
    }
    // A split contracting dimension: partial products, summed.
    auto lhsContract = dims.getLhsContracting(),
         rhsContract = dims.getRhsContracting();
    for (size_t i = 0; i < lhsContract.size(); ++i)
      if (current(dot.getLhs()) == lhsContract[i] ||
          current(dot.getRhs()) == rhsContract[i]) {
        p.operands = {lhsContract[i], rhsContract[i]};
        p.partial = true;
        return p;
      }
    return p;
  }
  if (auto conv = dyn_cast<hlo::ConvolutionOp>(op)) {
    auto dims = conv.getDimensionNumbers();
    bool plain =
        conv.getFeatureGroupCount() == 1 && conv.getBatchGroupCount() == 1;
    if (t >= 0 && t == dims.getOutputBatch() && plain) {
      p.operands[0] = dims.getInputBatch();
      p.result = t;
    } else if (t >= 0 && t == dims.getOutputFeature() && plain) {
      p.operands[1] = dims.getKernelOutputFeature();
      p.result = t;
    }
    return p;
  }
  return p;
}

Value SpmdPartitioner::reshard(OpBuilder &builder, Location loc, Value value,
                               int64_t dim) {
  int64_t from = current(value);
  if (from == dim || !isa<RankedTensorType>(value.getType()))
    return value;
  // Each reshard is built once, where the value is first needed that way;
  // it dominates every later use in the block.
  if (auto it = resharded.find({value, dim}); it != resharded.end())
    return it->second;
  // Moving a split gathers first (an all-to-all would move 1/P of it).
  Value full = value;
  if (from >= 0) {
    auto it = resharded.find({value, -1});
    full = it != resharded.end()
               ? it->second
               : collectives.allGather(builder, loc, value, from);
    resharded[{value, -1}] = full;
  }
  if (dim < 0)
    return full;
  Value part = collectives.localBlock(builder, loc, full, dim);
  split[part] = dim;
  resharded[{value, dim}] = part;
  return part;
}

LogicalResult SpmdPartitioner::visit(Operation *op) {
  FailureOr<int64_t> t = target(op);
  if (failed(t))
    return failure();
  Plan p = plan(op, *t);
  OpBuilder builder(op);
  for (unsigned i = 0; i < op->getNumOperands(); ++i) {
    Value operand = op->getOperand(i);
    Value local = reshard(builder, op->getLoc(), operand, p.operands[i]);
    if (local != operand)
      op->setOperand(i, local);
  }
  op->removeAttr("hlo.sharding");
  if (p.result >= 0) {
    Value result = op->getResult(0);
    result.setType(block(cast<RankedTensorType>(result.getType()), p.result));
    split[result] = p.result;
  }
  if (!p.partial && p.result == *t)
    return success();
  // Complete the result (all-reduce) and move it to its annotated split;
  // the ops after `op` use the end of that chain.
  Operation *next = op->getNextNode();
  builder.setInsertionPointAfter(op);
  Value result = op->getResult(0);
  Value last = result;
  if (p.partial)
    last = collectives.allReduce(builder, op->getLoc(), last, p.combiner);
  last = reshard(builder, op->getLoc(), last, *t);
  llvm::SmallPtrSet<Operation *, 8> chain;
  for (Operation *o = op->getNextNode(); o != next; o = o->getNextNode())
    chain.insert(o);
  result.replaceUsesWithIf(
      last, [&](OpOperand &use) { return !chain.contains(use.getOwner()); });
  return success();
}

LogicalResult SpmdPartitioner::run() {
  Block &body = func.getBody().front();
  for (BlockArgument arg : body.getArguments()) {
    auto text =
        func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "hlo.sharding");
    if (!text)
      continue;
    std::string why;
    FailureOr<int64_t> dim =
        spmd::splitDimension(text.getValue(), arg.getType(), partitions, why);
    if (failed(dim))
      return func.emitOpError()
             << "tpuc-spmd-partition: cannot partition parameter "
             << arg.getArgNumber() << " by sharding " << text.getValue() << ": "
             << why;
    if (*dim >= 0) {
      arg.setType(block(cast<RankedTensorType>(arg.getType()), *dim));
      split[arg] = *dim;
    }
  }
  SmallVector<Type> globalResults(func.getResultTypes());
  Operation *ret = body.getTerminator();
  for (Operation &op : llvm::make_early_inc_range(body))
    if (&op != ret && failed(visit(&op)))
      return failure();
  OpBuilder builder(ret);
  for (unsigned i = 0; i < ret->getNumOperands(); ++i) {
    Value value = ret->getOperand(i);
    int64_t dim = -1;
    if (auto text = func.getResultAttrOfType<StringAttr>(i, "hlo.sharding")) {
      std::string why;
      FailureOr<int64_t> wanted = spmd::splitDimension(
          text.getValue(), globalResults[i], partitions, why);
      if (failed(wanted))
        return func.emitOpError()
               << "tpuc-spmd-partition: cannot partition result " << i
               << " by sharding " << text.getValue() << ": " << why;
      dim = *wanted;
    }
    ret->setOperand(i, reshard(builder, ret->getLoc(), value, dim));
    func.setResultAttr(
        i, "hlo.sharding",
        StringAttr::get(
            func.getContext(),
            spmd::shardingText(ret->getOperand(i).getType(), dim, partitions)));
  }
  func.setFunctionType(FunctionType::get(
      func.getContext(), body.getArgumentTypes(), ret->getOperandTypes()));
  return success();
}

} // namespace

bool isShardedGlobalProgram(ModuleOp module) {
  if (spmd::numPartitions(module) < 2)
    return false;
  bool split = false, perDevice = false;
  auto isSplit = [](Attribute attr) {
    auto text = dyn_cast_or_null<StringAttr>(attr);
    return text && text.getValue().contains("devices=");
  };
  module.walk([&](Operation *op) {
    if (isa<hlo::AllReduceOp, hlo::AllGatherOp, hlo::ReduceScatterOp,
            hlo::AllToAllOp, hlo::CollectivePermuteOp,
            hlo::CollectiveBroadcastOp, hlo::PartitionIdOp, hlo::ReplicaIdOp>(
            op))
      perDevice = true;
    split |= isSplit(op->getAttr("hlo.sharding"));
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        split |= isSplit(func.getArgAttr(i, "hlo.sharding"));
      for (unsigned i = 0; i < func.getNumResults(); ++i)
        split |= isSplit(func.getResultAttr(i, "hlo.sharding"));
    }
  });
  return split && !perDevice;
}

namespace {

struct SpmdPartitionPass : public impl::SpmdPartitionBase<SpmdPartitionPass> {
  using SpmdPartitionBase::SpmdPartitionBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t partitions =
        numPartitions > 0 ? numPartitions : spmd::numPartitions(module);
    if (partitions < 2)
      return;
    if (auto replicas = module->getAttrOfType<IntegerAttr>("hlo.replica_count");
        replicas && replicas.getInt() > 1) {
      module.emitError("tpuc-spmd-partition: replica_count > 1 with "
                       "num_partitions > 1 is not supported");
      return signalPassFailure();
    }
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal() &&
          failed(SpmdPartitioner(func, partitions).run()))
        return signalPassFailure();
    module->setAttr("hlo.num_partitions",
                    IntegerAttr::get(IntegerType::get(module.getContext(), 64),
                                     partitions));
  }
};

} // namespace
} // namespace tpuc
