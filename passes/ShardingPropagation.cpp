//===- ShardingPropagation.cpp - tpuc-sharding-propagation
//------------------===//
//
// GSPMD's sharding propagation on the tiled shardings of SpmdSharding.h
// (any device mesh, partial replication): from the annotated parameters and ops
// of the public function, forward through the ops whose result split follows
// from an operand's, and backward from annotated values to the unannotated
// elementwise ops, broadcasts, transposes and reshapes that produce them,
// refining a tiling where another adds splits to it, until nothing
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

using spmd::Axis;
using spmd::Tiling;

int64_t rankOf(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  return tensor ? tensor.getRank() : 0;
}

class Propagation {
public:
  Propagation(func::FuncOp func, int64_t partitions)
      : func(func), partitions(partitions) {}

  LogicalResult run();

private:
  Tiling tilingOf(Value value) const {
    auto it = split.find(value);
    return it == split.end() ? Tiling::replicated(rankOf(value), partitions)
                             : it->second;
  }
  bool isSplit(Value value) const { return split.count(value); }
  /// Records `tiling` for `value` (not annotated) when it splits something,
  /// is a valid tile assignment, divides evenly, and is new or refines the
  /// value's tiling (keeps its splits and adds some: GSPMD's merge, so a
  /// bias broadcast along the model axis also takes the batch split it
  /// meets).
  bool assign(Value value, const std::optional<Tiling> &tiling) {
    auto tensor = dyn_cast<RankedTensorType>(value.getType());
    if (!tiling || !tensor || !tiling->isSplit() || annotated.contains(value) ||
        tiling->rank() != tensor.getRank() || !tiling->divides(tensor) ||
        !tiling->valid())
      return false;
    if (auto it = split.find(value); it != split.end()) {
      const Tiling &now = it->second;
      if (tiling->splitDims().size() <= now.splitDims().size() ||
          llvm::any_of(now.splitDims(), [&](int64_t d) {
            return tiling->axis(d) != now.axis(d);
          }))
        return false;
    }
    split[value] = *tiling;
    return true;
  }
  /// The result tiling `op` gets from its operands', if any.
  std::optional<Tiling> forward(Operation *op) const;
  /// Operand tilings that give `op`'s result `tiling` (none: no
  /// requirement).
  SmallVector<std::optional<Tiling>> backward(Operation *op,
                                              const Tiling &tiling) const;

  /// Tuples (a while loop's state): the tiling of each element.
  bool assignLeaves(Value value, SmallVector<Tiling> tilings) {
    if (llvm::none_of(tilings, [](const Tiling &t) { return t.isSplit(); }) ||
        leaves.count(value))
      return false;
    leaves[value] = std::move(tilings);
    return true;
  }
  /// The tilings of a tuple's elements or a tensor's tiling, as carried by
  /// a while loop from `from` into `to`.
  bool carry(Value from, Value to) {
    if (auto it = leaves.find(from); it != leaves.end())
      return assignLeaves(to, it->second);
    return isSplit(from) && assign(to, tilingOf(from));
  }
  /// Tuple, get_tuple_element and while: tilings through the loop state.
  bool forwardState(Operation *op);

  func::FuncOp func;
  int64_t partitions;
  llvm::DenseMap<Value, Tiling> split;
  llvm::DenseMap<Value, SmallVector<Tiling>> leaves;
  llvm::DenseSet<Value> annotated;
};

bool isElementwise(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<hlo::SelectOp, hlo::ClampOp>(op);
}

std::optional<Tiling> Propagation::forward(Operation *op) const {
  if (op->getNumResults() != 1)
    return std::nullopt;
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result)
    return std::nullopt;
  Tiling out = Tiling::replicated(result.getRank(), partitions);
  if (isElementwise(op)) {
    for (Value operand : op->getOperands())
      if (rankOf(operand) == result.getRank() && isSplit(operand))
        return tilingOf(operand);
    return std::nullopt;
  }
  if (auto dot = dyn_cast<hlo::DotGeneralOp>(op)) {
    // Batch and free dimensions of either side; a contracted split gives
    // nothing (its partial result is completed by an all-reduce). Where
    // both sides' splits do not form a tiling together, the lhs's win.
    auto dims = dot.getDotDimensionNumbers();
    Tiling lhs = tilingOf(dot.getLhs()), rhs = tilingOf(dot.getRhs());
    int64_t batch = dims.getLhsBatch().size(), index = batch;
    for (int64_t i = 0; i < batch; ++i)
      out.set(i, lhs.axis(dims.getLhsBatch()[i]).split()
                     ? lhs.axis(dims.getLhsBatch()[i])
                     : rhs.axis(dims.getRhsBatch()[i]));
    for (int64_t d = 0; d < lhs.rank(); ++d)
      if (!llvm::is_contained(dims.getLhsBatch(), d) &&
          !llvm::is_contained(dims.getLhsContracting(), d))
        out.set(index++, lhs.axis(d));
    Tiling lhsOnly = out;
    for (int64_t d = 0; d < rhs.rank(); ++d)
      if (!llvm::is_contained(dims.getRhsBatch(), d) &&
          !llvm::is_contained(dims.getRhsContracting(), d))
        out.set(index++, rhs.axis(d));
    if (out.valid())
      return out;
    return lhsOnly;
  }
  if (auto conv = dyn_cast<hlo::ConvolutionOp>(op)) {
    auto dims = conv.getDimensionNumbers();
    if (conv.getFeatureGroupCount() != 1 || conv.getBatchGroupCount() != 1)
      return std::nullopt;
    Tiling input = tilingOf(conv.getLhs());
    SmallVector<int64_t> inputSplits = input.splitDims();
    // One spatial split with halos.
    if (inputSplits.size() == 1 && inputSplits[0] != dims.getInputBatch()) {
      int64_t d = inputSplits[0];
      auto type = cast<RankedTensorType>(conv.getLhs().getType());
      int64_t s = spmd::haloSpatialIndex(
          conv, d, type.getDimSize(d) / input.axis(d).tiles);
      if (s < 0)
        return std::nullopt;
      out.set(dims.getOutputSpatial()[s], input.axis(d));
      return out;
    }
    out.set(dims.getOutputBatch(), input.axis(dims.getInputBatch()));
    out.set(dims.getOutputFeature(),
            tilingOf(conv.getRhs()).axis(dims.getKernelOutputFeature()));
    if (out.valid())
      return out;
    return std::nullopt;
  }
  if (auto gather = dyn_cast<hlo::GatherOp>(op)) {
    // Passthrough operand dimensions and the indices' batch dimensions; the
    // operand's win where the two do not form a tiling together.
    spmd::IndexedDims dims = spmd::gatherDims(gather);
    Tiling operand = tilingOf(gather.getOperand()),
           indices = tilingOf(gather.getStartIndices());
    for (auto [d, o] : dims.passthrough)
      out.set(o, operand.axis(d));
    Tiling operandOnly = out;
    for (auto [i, o] : dims.batch)
      out.set(o, indices.axis(i));
    return out.valid() ? out : operandOnly;
  }
  if (auto scatter = dyn_cast<hlo::ScatterOp>(op)) {
    // The input's splits of passthrough dimensions stay.
    if (scatter.getInputs().size() != 1)
      return std::nullopt;
    spmd::IndexedDims dims = spmd::scatterDims(scatter);
    Tiling input = tilingOf(scatter.getInputs()[0]);
    for (auto [d, u] : dims.passthrough)
      out.set(d, input.axis(d));
    return out;
  }
  if (op->getNumOperands() == 0 || !isSplit(op->getOperand(0)))
    return std::nullopt;
  Tiling in = tilingOf(op->getOperand(0));
  if (auto broadcast = dyn_cast<hlo::BroadcastInDimOp>(op)) {
    for (auto [i, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
      out.set(d, in.axis(i));
    return out;
  }
  if (auto transpose = dyn_cast<hlo::TransposeOp>(op)) {
    for (auto [i, d] : llvm::enumerate(transpose.getPermutation()))
      out.set(i, in.axis(d));
    return out;
  }
  if (auto reshape = dyn_cast<hlo::ReshapeOp>(op)) {
    auto source = cast<RankedTensorType>(reshape.getOperand().getType());
    for (int64_t from : in.splitDims())
      for (int64_t to = 0; to < result.getRank(); ++to)
        if (spmd::reshapeKeepsSplit(source, from, result, to,
                                    in.axis(from).tiles)) {
          out.set(to, in.axis(from));
          break;
        }
    return out;
  }
  if (auto reduce = dyn_cast<hlo::ReduceOp>(op)) {
    int64_t index = 0;
    for (int64_t d = 0; d < in.rank(); ++d)
      if (!llvm::is_contained(reduce.getDimensions(), d))
        out.set(index++, in.axis(d));
    return out;
  }
  if (auto window = dyn_cast<hlo::ReduceWindowOp>(op)) {
    SmallVector<int64_t> splits = in.splitDims();
    auto input = cast<RankedTensorType>(window.getInputs()[0].getType());
    if (splits.size() != 1 ||
        !spmd::reduceWindowHaloFits(window, splits[0],
                                    input.getDimSize(splits[0]) /
                                        in.axis(splits[0]).tiles))
      return std::nullopt;
    return in;
  }
  return std::nullopt;
}

bool Propagation::forwardState(Operation *op) {
  if (auto tuple = dyn_cast<hlo::TupleOp>(op)) {
    SmallVector<Tiling> tilings;
    for (Value operand : tuple->getOperands())
      tilings.push_back(tilingOf(operand));
    return assignLeaves(tuple->getResult(0), tilings);
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

SmallVector<std::optional<Tiling>>
Propagation::backward(Operation *op, const Tiling &tiling) const {
  SmallVector<std::optional<Tiling>> tilings(op->getNumOperands());
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  if (isElementwise(op)) {
    for (auto [i, operand] : llvm::enumerate(op->getOperands()))
      if (rankOf(operand) == result.getRank())
        tilings[i] = tiling;
  } else if (auto broadcast = dyn_cast<hlo::BroadcastInDimOp>(op)) {
    // A broadcast computes its tile from the operand's matching tile (or
    // the whole operand along new dimensions).
    auto source = cast<RankedTensorType>(broadcast.getOperand().getType());
    Tiling in = Tiling::replicated(source.getRank(), partitions);
    for (auto [i, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
      if (source.getDimSize(i) != 1)
        in.set(i, tiling.axis(d));
    tilings[0] = in;
  } else if (auto transpose = dyn_cast<hlo::TransposeOp>(op)) {
    Tiling in = Tiling::replicated(tiling.rank(), partitions);
    for (auto [i, d] : llvm::enumerate(transpose.getPermutation()))
      in.set(d, tiling.axis(i));
    tilings[0] = in;
  } else if (auto reshape = dyn_cast<hlo::ReshapeOp>(op)) {
    auto source = cast<RankedTensorType>(reshape.getOperand().getType());
    Tiling in = Tiling::replicated(source.getRank(), partitions);
    for (int64_t to : tiling.splitDims())
      for (int64_t from = 0; from < source.getRank(); ++from)
        if (spmd::reshapeKeepsSplit(source, from, result, to,
                                    tiling.axis(to).tiles))
          in.set(from, tiling.axis(to));
    tilings[0] = in;
  }
  return tilings;
}

LogicalResult Propagation::run() {
  // The function's block, then the regions of its while loops (a loop's
  // state carries its operands' tilings).
  SmallVector<Block *> blocks = {&func.getBody().front()};
  func.walk<WalkOrder::PreOrder>([&](hlo::WhileOp loop) {
    blocks.push_back(&loop.getCond().front());
    blocks.push_back(&loop.getBody().front());
  });
  auto seed = [&](Operation *owner, Value value,
                  StringAttr text) -> LogicalResult {
    if (!isa<RankedTensorType>(value.getType()))
      return success(); // tuple shardings: the elements' tilings propagate
    std::string why;
    FailureOr<Tiling> tiling =
        spmd::parseTiling(text.getValue(), value.getType(), partitions, why);
    if (failed(tiling))
      return owner->emitOpError()
             << "tpuc-sharding-propagation: cannot partition by sharding "
             << text.getValue() << ": " << why;
    annotated.insert(value);
    if (tiling->isSplit())
      split[value] = *tiling;
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
        if (op.getNumResults() != 1 || !isSplit(op.getResult(0)))
          continue;
        for (auto [operand, tiling] : llvm::zip(
                 op.getOperands(), backward(&op, tilingOf(op.getResult(0)))))
          if (operand.getDefiningOp() && !annotated.contains(operand))
            changed |= assign(operand, tiling);
      }
    }
  }
  for (Block *block : blocks)
    for (Operation &op : *block)
      if (op.getNumResults() == 1 && !op.hasAttr("hlo.sharding") &&
          isSplit(op.getResult(0)))
        op.setAttr(
            "hlo.sharding",
            StringAttr::get(op.getContext(), tilingOf(op.getResult(0)).str()));
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
