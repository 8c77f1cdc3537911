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
/// An operand that stays as it is (a tuple element or loop state keeps its
/// split).
constexpr int64_t kKeep = -2;

struct Plan {
  SmallVector<int64_t> operands;
  int64_t result = -1;
  bool partial = false;
  Region *combiner = nullptr;
  /// The windowed op's dimension that needs halos (a convolution: the
  /// index of the spatial dimension), or -1.
  int64_t halo = -1;
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
  /// `tuple` with its elements resharded to `dims`.
  Value reshardTuple(OpBuilder &builder, Location loc, Value tuple,
                     ArrayRef<int64_t> dims);
  /// The splits of a tuple's elements (-1: replicated).
  SmallVector<int64_t> leavesOf(Value tuple) const {
    if (auto it = leaves.find(tuple); it != leaves.end())
      return it->second;
    auto type = dyn_cast<TupleType>(tuple.getType());
    return SmallVector<int64_t>(type ? type.size() : 0, -1);
  }
  /// Records `to` as carrying `from`'s split (tensor) or element splits.
  void carry(Value from, Value to) {
    if (auto it = leaves.find(from); it != leaves.end())
      leaves[to] = SmallVector<int64_t>(it->second);
    else if (current(from) >= 0)
      split[to] = current(from);
  }
  /// Gives a windowed op's split input (operand 0) the rows its window
  /// reaches in the neighbours' blocks (collective-permute) instead of the
  /// padding of its dimension `dim` (entry `index` of `count` in its
  /// `padding`); at the ends, `edge` (reduce-window's init) or zeros
  /// (convolution) stand for the padding.
  void exchangeHalo(Operation *op, int64_t dim, int64_t index, int64_t count,
                    Value edge);
  LogicalResult visitBlock(Block &block);
  LogicalResult visitWhile(hlo::WhileOp loop);
  LogicalResult visit(Operation *op);

  func::FuncOp func;
  int64_t partitions;
  llvm::DenseMap<Value, int64_t> split; // values now split, by dimension
  llvm::DenseMap<std::pair<Value, int64_t>, Value> resharded;
  llvm::DenseMap<Value, SmallVector<int64_t>> leaves; // tuples' elements
  spmd::CollectiveBuilder collectives;
};

bool isElementwise(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<hlo::SelectOp, hlo::ClampOp>(op);
}

FailureOr<int64_t> SpmdPartitioner::target(Operation *op) {
  auto text = op->getAttrOfType<StringAttr>("hlo.sharding");
  if (!text || op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
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
  if (isa<hlo::TupleOp>(op)) {
    p.operands.assign(op->getNumOperands(), kKeep);
    return p;
  }
  if (auto element = dyn_cast<hlo::GetTupleElementOp>(op)) {
    p.operands = {kKeep};
    p.result = leavesOf(element->getOperand(0))[element.getIndex()];
    return p;
  }
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
  if (auto window = dyn_cast<hlo::ReduceWindowOp>(op)) {
    if (t < 0 || window.getInputs().size() != 1)
      return p;
    Value input = window.getInputs()[0];
    int64_t rows = cast<RankedTensorType>(input.getType()).getDimSize(t);
    if (current(input) != t)
      rows /= partitions;
    if (spmd::reduceWindowHaloFits(window, t, rows)) {
      p.operands[0] = t;
      p.result = t;
      p.halo = t;
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
    } else if (auto spatial = llvm::find(dims.getOutputSpatial(), t);
               t >= 0 && spatial != dims.getOutputSpatial().end()) {
      int64_t s = spatial - dims.getOutputSpatial().begin();
      int64_t input = dims.getInputSpatial()[s];
      // The lhs may already be this partition's block.
      int64_t rows =
          cast<RankedTensorType>(conv.getLhs().getType()).getDimSize(input);
      if (current(conv.getLhs()) != input)
        rows /= partitions;
      if (spmd::haloSpatialIndex(conv, input, rows) == s) {
        p.operands[0] = input;
        p.result = t;
        p.halo = s;
      }
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
  if (from >= 0 && dim >= 0) {
    Value moved = collectives.moveSplit(builder, loc, value, from, dim);
    split[moved] = dim;
    resharded[{value, dim}] = moved;
    return moved;
  }
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

Value SpmdPartitioner::reshardTuple(OpBuilder &builder, Location loc,
                                    Value tuple, ArrayRef<int64_t> dims) {
  SmallVector<int64_t> now = leavesOf(tuple);
  if (ArrayRef<int64_t>(now) == dims)
    return tuple;
  auto type = cast<TupleType>(tuple.getType());
  SmallVector<Value> elements;
  for (auto [i, elementType] : llvm::enumerate(type.getTypes())) {
    OperationState state(loc, "hlo.get_tuple_element");
    state.addOperands(tuple);
    state.addTypes(elementType);
    state.addAttribute("index", builder.getI64IntegerAttr(i));
    Value element = builder.create(state)->getResult(0);
    if (now[i] >= 0)
      split[element] = now[i];
    elements.push_back(reshard(builder, loc, element, dims[i]));
  }
  OperationState state(loc, "hlo.tuple");
  state.addOperands(elements);
  state.addTypes(
      TupleType::get(builder.getContext(), ValueRange(elements).getTypes()));
  Value result = builder.create(state)->getResult(0);
  leaves[result] = SmallVector<int64_t>(dims);
  return result;
}

void SpmdPartitioner::exchangeHalo(Operation *op, int64_t d, int64_t index,
                                   int64_t count, Value edge) {
  SmallVector<int64_t> padding(2 * count, 0);
  if (auto given = op->getAttrOfType<DenseI64ArrayAttr>("padding");
      given && !given.empty())
    padding.assign(given.asArrayRef().begin(), given.asArrayRef().end());
  int64_t low = padding[2 * index], high = padding[2 * index + 1];
  Value local = op->getOperand(0);
  auto type = cast<RankedTensorType>(local.getType());
  int64_t block = type.getDimSize(d);
  OpBuilder builder(op);
  Location loc = op->getLoc();
  // Rows [begin, end) of the local block along d.
  auto rows = [&](int64_t begin, int64_t end) -> Value {
    SmallVector<int64_t> starts(type.getRank(), 0), limits(type.getShape()),
        strides(type.getRank(), 1), shape(type.getShape());
    starts[d] = begin;
    limits[d] = end;
    shape[d] = end - begin;
    OperationState state(loc, "hlo.slice");
    state.addOperands(local);
    state.addTypes(RankedTensorType::get(shape, type.getElementType()));
    state.addAttribute("start_indices", builder.getDenseI64ArrayAttr(starts));
    state.addAttribute("limit_indices", builder.getDenseI64ArrayAttr(limits));
    state.addAttribute("strides", builder.getDenseI64ArrayAttr(strides));
    return builder.create(state)->getResult(0);
  };
  // The first partition's low halo and the last one's high halo come from
  // no partition: a collective-permute gives zeros there, which is a
  // convolution's padding; a reduce-window's is its init value.
  auto atEnd = [&](Value halo, int64_t partition) -> Value {
    if (!edge)
      return halo;
    auto haloType = cast<RankedTensorType>(halo.getType());
    auto i32 = RankedTensorType::get({}, builder.getI32Type());
    Value which = hlo::ConstantOp::create(
        builder, loc,
        DenseElementsAttr::get(
            i32, builder.getI32IntegerAttr(partition).getValue()));
    Value isEnd =
        hlo::CompareOp::create(builder, loc, hlo::ComparisonDirection::EQ,
                               collectives.partitionId(builder, loc), which,
                               hlo::ComparisonTypeAttr());
    Value mask = hlo::BroadcastInDimOp::create(
        builder, loc,
        RankedTensorType::get(haloType.getShape(), builder.getI1Type()), isEnd,
        builder.getDenseI64ArrayAttr({}));
    Value fill = hlo::BroadcastInDimOp::create(
        builder, loc, haloType, edge, builder.getDenseI64ArrayAttr({}));
    return hlo::SelectOp::create(builder, loc, mask, fill, halo);
  };
  SmallVector<Value> parts;
  if (low > 0)
    parts.push_back(
        atEnd(collectives.shift(builder, loc, rows(block - low, block), 1), 0));
  parts.push_back(local);
  if (high > 0)
    parts.push_back(atEnd(collectives.shift(builder, loc, rows(0, high), -1),
                          partitions - 1));
  if (parts.size() > 1) {
    SmallVector<int64_t> shape(type.getShape());
    shape[d] = block + low + high;
    OperationState state(loc, "hlo.concatenate");
    state.addOperands(parts);
    state.addTypes(RankedTensorType::get(shape, type.getElementType()));
    state.addAttribute("dimension", builder.getI64IntegerAttr(d));
    op->setOperand(0, builder.create(state)->getResult(0));
  }
  padding[2 * index] = padding[2 * index + 1] = 0;
  op->setAttr("padding", builder.getDenseI64ArrayAttr(padding));
}

LogicalResult SpmdPartitioner::visitBlock(Block &block) {
  Operation *terminator = block.getTerminator();
  for (Operation &op : llvm::make_early_inc_range(block))
    if (&op != terminator && failed(visit(&op)))
      return failure();
  return success();
}

LogicalResult SpmdPartitioner::visitWhile(hlo::WhileOp loop) {
  // The state keeps the splits of the loop's operands: the regions' block
  // arguments and the results carry them, and the body's next state is
  // resharded to them.
  loop->removeAttr("hlo.sharding");
  for (Region *region : {&loop.getCond(), &loop.getBody()}) {
    Block &block = region->front();
    for (auto [operand, arg] :
         llvm::zip(loop->getOperands(), block.getArguments())) {
      arg.setType(operand.getType());
      carry(operand, arg);
    }
    if (failed(visitBlock(block)))
      return failure();
  }
  Operation *next = loop.getBody().front().getTerminator();
  OpBuilder builder(next);
  for (auto [i, operand] : llvm::enumerate(loop->getOperands())) {
    Value state = next->getOperand(i);
    next->setOperand(
        i, isa<TupleType>(state.getType())
               ? reshardTuple(builder, next->getLoc(), state, leavesOf(operand))
               : reshard(builder, next->getLoc(), state, current(operand)));
    loop->getResult(i).setType(operand.getType());
    carry(operand, loop->getResult(i));
  }
  return success();
}

LogicalResult SpmdPartitioner::visit(Operation *op) {
  if (auto loop = dyn_cast<hlo::WhileOp>(op))
    return visitWhile(loop);
  FailureOr<int64_t> t = target(op);
  if (failed(t))
    return failure();
  Plan p = plan(op, *t);
  OpBuilder builder(op);
  for (unsigned i = 0; i < op->getNumOperands(); ++i) {
    Value operand = op->getOperand(i);
    if (p.operands[i] == kKeep)
      continue;
    // A tuple with split elements meets an op without a rule for it.
    Value local =
        isa<TupleType>(operand.getType())
            ? reshardTuple(builder, op->getLoc(), operand,
                           SmallVector<int64_t>(
                               cast<TupleType>(operand.getType()).size(), -1))
            : reshard(builder, op->getLoc(), operand, p.operands[i]);
    if (local != operand)
      op->setOperand(i, local);
  }
  if (auto conv = dyn_cast<hlo::ConvolutionOp>(op); conv && p.halo >= 0) {
    auto dims = conv.getDimensionNumbers();
    exchangeHalo(op, dims.getInputSpatial()[p.halo], p.halo,
                 dims.getInputSpatial().size(), Value());
  }
  if (auto window = dyn_cast<hlo::ReduceWindowOp>(op); window && p.halo >= 0)
    exchangeHalo(op, p.halo, p.halo, window.getWindowDimensions().size(),
                 window.getInitValues()[0]);
  if (isa<hlo::TupleOp>(op)) {
    op->removeAttr("hlo.sharding");
    SmallVector<int64_t> dims;
    for (Value operand : op->getOperands())
      dims.push_back(current(operand));
    op->getResult(0).setType(
        TupleType::get(op->getContext(), op->getOperandTypes()));
    leaves[op->getResult(0)] = dims;
    return success();
  }
  if (auto element = dyn_cast<hlo::GetTupleElementOp>(op)) {
    // The element's type is the (partitioned) tuple's.
    element->getResult(0).setType(
        cast<TupleType>(element->getOperand(0).getType())
            .getType(element.getIndex()));
    if (p.result >= 0)
      split[element->getResult(0)] = p.result;
  }
  op->removeAttr("hlo.sharding");
  if (p.result >= 0 && !isa<hlo::GetTupleElementOp>(op)) {
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
  if (failed(visitBlock(body)))
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
