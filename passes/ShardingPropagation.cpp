//===- ShardingPropagation.cpp - tpuc-sharding-propagation
//------------------===//
//
// GSPMD's sharding propagation on the one-dimensional shardings of
// SpmdSharding.h: from the annotated parameters and ops of the public
// function, forward through the ops whose result split follows from an
// operand's, and backward from annotated values to the unannotated
// elementwise ops, transposes and reshapes that produce them, until nothing
// changes. Every op of the function's body that ends up split gets
// `hlo.sharding`; unannotated values stay replicated.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/SpmdBuilders.h"
#include "passes/SpmdSharding.h"

#include "dialects/hlo/HloOps.h"

#include "llvm/ADT/DenseMap.h"

namespace tpuc {
#define GEN_PASS_DEF_SHARDINGPROPAGATION
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;

class Propagation {
public:
  Propagation(func::FuncOp func, int64_t partitions)
      : func(func), partitions(partitions) {}

  LogicalResult run();

private:
  int64_t dimOf(Value value) const {
    auto it = split.find(value);
    return it == split.end() ? -1 : it->second;
  }
  /// Records `dim` for `value` when it is new and divides evenly.
  bool assign(Value value, int64_t dim) {
    auto tensor = dyn_cast<RankedTensorType>(value.getType());
    if (dim < 0 || !tensor || split.count(value) || dim >= tensor.getRank() ||
        tensor.getDimSize(dim) % partitions)
      return false;
    split[value] = dim;
    return true;
  }
  /// The result split `op` gets from its operands', or -1.
  int64_t forward(Operation *op) const;
  /// Operand splits that give `op`'s result split `dim` (-1: none).
  SmallVector<int64_t> backward(Operation *op, int64_t dim) const;

  /// Tuples (a while loop's state): the split of each element.
  bool assignLeaves(Value value, SmallVector<int64_t> dims) {
    if (llvm::all_of(dims, [](int64_t d) { return d < 0; }) ||
        leaves.count(value))
      return false;
    leaves[value] = std::move(dims);
    return true;
  }
  /// The splits of a tuple's elements or a tensor's split, as carried by
  /// a while loop from `from` into `to`.
  bool carry(Value from, Value to) {
    if (auto it = leaves.find(from); it != leaves.end())
      return assignLeaves(to, it->second);
    return assign(to, dimOf(from));
  }
  /// Tuple, get_tuple_element and while: splits through the loop state.
  bool forwardState(Operation *op);

  func::FuncOp func;
  int64_t partitions;
  llvm::DenseMap<Value, int64_t> split;
  llvm::DenseMap<Value, SmallVector<int64_t>> leaves;
  llvm::DenseSet<Value> annotated;
};

bool isElementwise(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<hlo::SelectOp, hlo::ClampOp>(op);
}

int64_t Propagation::forward(Operation *op) const {
  if (op->getNumResults() != 1)
    return -1;
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result)
    return -1;
  if (isElementwise(op)) {
    for (Value operand : op->getOperands())
      if (cast<ShapedType>(operand.getType()).getRank() == result.getRank() &&
          dimOf(operand) >= 0)
        return dimOf(operand);
    return -1;
  }
  if (op->getNumOperands() == 0 || dimOf(op->getOperand(0)) < 0) {
    if (auto dot = dyn_cast<hlo::DotGeneralOp>(op)) {
      // Only the rhs is split: its batch or free dimension.
      int64_t d = dimOf(dot.getRhs());
      auto dims = dot.getDotDimensionNumbers();
      auto lhs = cast<RankedTensorType>(dot.getLhs().getType());
      if (d < 0 || llvm::is_contained(dims.getRhsContracting(), d))
        return -1;
      if (auto it = llvm::find(dims.getRhsBatch(), d);
          it != dims.getRhsBatch().end())
        return it - dims.getRhsBatch().begin();
      int64_t index = lhs.getRank() - int64_t(dims.getLhsContracting().size());
      for (int64_t i = 0; i < d; ++i)
        if (!llvm::is_contained(dims.getRhsBatch(), i) &&
            !llvm::is_contained(dims.getRhsContracting(), i))
          ++index;
      return index;
    }
    if (auto conv = dyn_cast<hlo::ConvolutionOp>(op)) {
      auto dims = conv.getDimensionNumbers();
      if (conv.getFeatureGroupCount() == 1 && conv.getBatchGroupCount() == 1 &&
          dimOf(conv.getRhs()) == dims.getKernelOutputFeature())
        return dims.getOutputFeature();
    }
    return -1;
  }
  int64_t d = dimOf(op->getOperand(0));
  if (auto broadcast = dyn_cast<hlo::BroadcastInDimOp>(op))
    return broadcast.getBroadcastDimensions()[d];
  if (auto transpose = dyn_cast<hlo::TransposeOp>(op))
    return llvm::find(transpose.getPermutation(), d) -
           transpose.getPermutation().begin();
  if (auto reshape = dyn_cast<hlo::ReshapeOp>(op)) {
    auto source = cast<RankedTensorType>(reshape.getOperand().getType());
    for (int64_t to = 0; to < result.getRank(); ++to)
      if (spmd::reshapeKeepsSplit(source, d, result, to, partitions))
        return to;
    return -1;
  }
  if (auto reduce = dyn_cast<hlo::ReduceOp>(op)) {
    if (llvm::is_contained(reduce.getDimensions(), d))
      return -1;
    return d - llvm::count_if(reduce.getDimensions(),
                              [&](int64_t r) { return r < d; });
  }
  if (auto dot = dyn_cast<hlo::DotGeneralOp>(op)) {
    auto dims = dot.getDotDimensionNumbers();
    if (llvm::is_contained(dims.getLhsContracting(), d)) {
      // A contracted split gives a replicated result, unless the rhs is
      // split along a free dimension (then its split wins below).
      return -1;
    }
    if (auto it = llvm::find(dims.getLhsBatch(), d);
        it != dims.getLhsBatch().end())
      return it - dims.getLhsBatch().begin();
    int64_t index = dims.getLhsBatch().size();
    for (int64_t i = 0; i < d; ++i)
      if (!llvm::is_contained(dims.getLhsBatch(), i) &&
          !llvm::is_contained(dims.getLhsContracting(), i))
        ++index;
    return index;
  }
  if (auto window = dyn_cast<hlo::ReduceWindowOp>(op)) {
    auto input = cast<RankedTensorType>(window.getInputs()[0].getType());
    return spmd::reduceWindowHaloFits(window, d,
                                      input.getDimSize(d) / partitions)
               ? d
               : -1;
  }
  if (auto conv = dyn_cast<hlo::ConvolutionOp>(op)) {
    auto dims = conv.getDimensionNumbers();
    if (d == dims.getInputBatch() && conv.getBatchGroupCount() == 1)
      return dims.getOutputBatch();
    auto input = cast<RankedTensorType>(conv.getLhs().getType());
    if (int64_t s =
            spmd::haloSpatialIndex(conv, d, input.getDimSize(d) / partitions);
        s >= 0)
      return dims.getOutputSpatial()[s];
    return -1;
  }
  return -1;
}

bool Propagation::forwardState(Operation *op) {
  if (auto tuple = dyn_cast<hlo::TupleOp>(op)) {
    SmallVector<int64_t> dims;
    for (Value operand : tuple->getOperands())
      dims.push_back(dimOf(operand));
    return assignLeaves(tuple->getResult(0), dims);
  }
  if (auto element = dyn_cast<hlo::GetTupleElementOp>(op)) {
    auto it = leaves.find(element->getOperand(0));
    if (it == leaves.end() || annotated.contains(element->getResult(0)))
      return false;
    return assign(element->getResult(0), it->second[element.getIndex()]);
  }
  auto loop = cast<hlo::WhileOp>(op);
  bool changed = false;
  for (auto [i, operand] : llvm::enumerate(loop->getOperands())) {
    changed |= carry(operand, loop.getCond().getArgument(i));
    changed |= carry(operand, loop.getBody().getArgument(i));
    changed |= carry(operand, loop->getResult(i));
  }
  return changed;
}

SmallVector<int64_t> Propagation::backward(Operation *op, int64_t dim) const {
  SmallVector<int64_t> dims(op->getNumOperands(), -1);
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  if (isElementwise(op)) {
    for (auto [i, operand] : llvm::enumerate(op->getOperands()))
      if (cast<ShapedType>(operand.getType()).getRank() == result.getRank())
        dims[i] = dim;
  } else if (auto transpose = dyn_cast<hlo::TransposeOp>(op)) {
    dims[0] = transpose.getPermutation()[dim];
  } else if (auto reshape = dyn_cast<hlo::ReshapeOp>(op)) {
    auto source = cast<RankedTensorType>(reshape.getOperand().getType());
    for (int64_t from = 0; from < source.getRank(); ++from)
      if (spmd::reshapeKeepsSplit(source, from, result, dim, partitions))
        dims[0] = from;
  }
  return dims;
}

LogicalResult Propagation::run() {
  // The function's block, then the regions of its while loops (a loop's
  // state carries its operands' splits).
  SmallVector<Block *> blocks = {&func.getBody().front()};
  func.walk<WalkOrder::PreOrder>([&](hlo::WhileOp loop) {
    blocks.push_back(&loop.getCond().front());
    blocks.push_back(&loop.getBody().front());
  });
  auto seed = [&](Operation *owner, Value value,
                  StringAttr text) -> LogicalResult {
    if (!isa<RankedTensorType>(value.getType()))
      return success(); // tuple shardings: the elements' splits propagate
    std::string why;
    FailureOr<int64_t> dim =
        spmd::splitDimension(text.getValue(), value.getType(), partitions, why);
    if (failed(dim))
      return owner->emitOpError()
             << "tpuc-sharding-propagation: cannot partition by sharding "
             << text.getValue() << ": " << why;
    annotated.insert(value);
    if (*dim >= 0)
      split[value] = *dim;
    return success();
  };
  for (BlockArgument arg : func.getArguments())
    if (auto text = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                      "hlo.sharding"))
      if (failed(seed(func, arg, text)))
        return failure();
  for (Block *block : blocks)
    for (Operation &op : *block)
      if (auto text = op.getAttrOfType<StringAttr>("hlo.sharding");
          text && op.getNumResults() == 1)
        if (failed(seed(&op, op.getResult(0), text)))
          return failure();

  for (bool changed = true; changed;) {
    changed = false;
    for (Block *block : blocks) {
      for (Operation &op : *block) {
        if (isa<hlo::TupleOp, hlo::GetTupleElementOp, hlo::WhileOp>(op))
          changed |= forwardState(&op);
        else if (op.getNumResults() == 1 &&
                 !annotated.contains(op.getResult(0)))
          changed |= assign(op.getResult(0), forward(&op));
      }
      for (Operation &op : llvm::reverse(*block)) {
        if (op.getNumResults() != 1 || dimOf(op.getResult(0)) < 0)
          continue;
        for (auto [operand, dim] :
             llvm::zip(op.getOperands(), backward(&op, dimOf(op.getResult(0)))))
          if (operand.getDefiningOp() && !annotated.contains(operand))
            changed |= assign(operand, dim);
      }
    }
  }
  for (Block *block : blocks)
    for (Operation &op : *block)
      if (op.getNumResults() == 1 && !op.hasAttr("hlo.sharding") &&
          dimOf(op.getResult(0)) >= 0)
        op.setAttr("hlo.sharding",
                   StringAttr::get(op.getContext(),
                                   spmd::shardingText(op.getResult(0).getType(),
                                                      dimOf(op.getResult(0)),
                                                      partitions)));
  return success();
}

struct ShardingPropagationPass
    : public impl::ShardingPropagationBase<ShardingPropagationPass> {
  using ShardingPropagationBase::ShardingPropagationBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t partitions =
        numPartitions > 0 ? numPartitions : spmd::numPartitions(module);
    if (partitions < 2)
      return; // one partition: every sharding is the whole array
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal() &&
          failed(Propagation(func, partitions).run()))
        return signalPassFailure();
  }
};

} // namespace
} // namespace tpuc
