//===- DataParallel.cpp - tpuc-data-parallel
//--------------------------------===//
//
// Splits the non-donated parameters of the public function along dimension 0
// over N devices and carries the split forward op by op (see Passes.td). A
// value is either replicated or split along one dimension; the rules below
// give each op's result split from its operands', slice replicated operands
// that meet split ones, and complete reductions over the split dimension
// with an all-reduce.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/SpmdBuilders.h"
#include "passes/SpmdSharding.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <limits>

namespace tpuc {
#define GEN_PASS_DEF_DATAPARALLEL
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;

class Partitioner {
public:
  Partitioner(func::FuncOp func, int64_t n)
      : func(func), n(n), collectives(func, n) {}

  LogicalResult run(const llvm::DenseSet<int64_t> &donated);

private:
  /// The split dimension of `value`, or -1 when it is replicated.
  int64_t splitDim(Value value) const {
    auto it = split.find(value);
    return it == split.end() ? -1 : it->second;
  }
  RankedTensorType divided(Type type, int64_t dim) const {
    auto tensor = cast<RankedTensorType>(type);
    SmallVector<int64_t> shape(tensor.getShape());
    shape[dim] /= n;
    return RankedTensorType::get(shape, tensor.getElementType());
  }
  /// Sets `value`'s type to its device part along `dim`.
  LogicalResult splitValue(Operation *op, Value value, int64_t dim) {
    auto tensor = dyn_cast<RankedTensorType>(value.getType());
    if (!tensor || dim >= tensor.getRank() || tensor.getDimSize(dim) % n)
      return op->emitOpError()
             << "tpuc-data-parallel: dimension " << dim << " of "
             << value.getType() << " does not split over " << n << " devices";
    value.setType(divided(tensor, dim));
    split[value] = dim;
    return success();
  }
  /// Operands of `op` that are replicated and full-sized where `dim` is
  /// split are replaced by their device part.
  void sliceReplicated(Operation *op, int64_t dim,
                       ArrayRef<unsigned> operandIndices);
  LogicalResult visit(Operation *op);
  LogicalResult visitReduce(hlo::ReduceOp op, int64_t dim);
  LogicalResult visitDot(hlo::DotGeneralOp op);

  func::FuncOp func;
  int64_t n;
  llvm::DenseMap<Value, int64_t> split;
  spmd::CollectiveBuilder collectives;
};

void Partitioner::sliceReplicated(Operation *op, int64_t dim,
                                  ArrayRef<unsigned> operandIndices) {
  OpBuilder builder(op);
  for (unsigned i : operandIndices) {
    Value operand = op->getOperand(i);
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (splitDim(operand) >= 0 || !type || type.getRank() <= dim)
      continue;
    // A broadcast along `dim` (a gradient's scale, a mask) is the same on
    // every row: broadcast straight to the device's rows instead of
    // materializing the full array and slicing it.
    auto broadcast = operand.getDefiningOp<hlo::BroadcastInDimOp>();
    if (broadcast) {
      auto dims = broadcast.getBroadcastDimensions();
      auto source = cast<RankedTensorType>(broadcast.getOperand().getType());
      auto it = llvm::find(dims, dim);
      if (it == dims.end() || source.getDimSize(it - dims.begin()) == 1) {
        Operation *local = builder.clone(*broadcast);
        local->getResult(0).setType(divided(type, dim));
        op->setOperand(i, local->getResult(0));
        continue;
      }
    }
    op->setOperand(i,
                   collectives.localBlock(builder, op->getLoc(), operand, dim));
  }
}

LogicalResult Partitioner::visitReduce(hlo::ReduceOp op, int64_t dim) {
  size_t inputs = op.getInputs().size();
  SmallVector<unsigned> indices;
  for (unsigned i = 0; i < inputs; ++i)
    indices.push_back(i);
  for (Value input : op.getInputs())
    if (splitDim(input) >= 0 && splitDim(input) != dim)
      return op.emitOpError("tpuc-data-parallel: inputs split along "
                            "different dimensions");
  sliceReplicated(op, dim, indices);
  if (!llvm::is_contained(op.getDimensions(), dim)) {
    int64_t before =
        llvm::count_if(op.getDimensions(), [&](int64_t d) { return d < dim; });
    for (Value result : op.getResults())
      if (failed(splitValue(op, result, dim - before)))
        return failure();
    return success();
  }
  // Each device reduces its part; an all-reduce combines the parts.
  if (inputs != 1 || !spmd::isIdentityInit(op.getBody(), op.getInitValues()[0]))
    return op.emitOpError(
        "tpuc-data-parallel: a reduction over the split dimension needs one "
        "input, a single add/maximum/minimum/multiply body and its identity "
        "as the init value");
  OpBuilder builder(op->getContext());
  builder.setInsertionPointAfter(op);
  Value result = op.getResult(0);
  Value total =
      collectives.allReduce(builder, op.getLoc(), result, &op.getBody());
  result.replaceAllUsesExcept(total, total.getDefiningOp());
  return success();
}

LogicalResult Partitioner::visitDot(hlo::DotGeneralOp op) {
  hlo::DotDimensionNumbersAttr dims = op.getDotDimensionNumbers();
  ArrayRef<int64_t> lhsBatch = dims.getLhsBatch(),
                    rhsBatch = dims.getRhsBatch(),
                    lhsContract = dims.getLhsContracting(),
                    rhsContract = dims.getRhsContracting();
  int64_t l = splitDim(op.getLhs()), r = splitDim(op.getRhs());
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
  auto indexIn = [](ArrayRef<int64_t> list, int64_t d) -> int64_t {
    auto it = llvm::find(list, d);
    return it == list.end() ? -1 : it - list.begin();
  };
  auto freeIndex = [&](int64_t rank, ArrayRef<int64_t> batch,
                       ArrayRef<int64_t> contract, int64_t d) {
    int64_t index = 0;
    for (int64_t i = 0; i < d; ++i)
      if (!llvm::is_contained(batch, i) && !llvm::is_contained(contract, i))
        ++index;
    return index;
  };
  int64_t lhsFree = lhsType.getRank() - int64_t(lhsBatch.size()) -
                    int64_t(lhsContract.size());
  auto unsupported = [&]() {
    return op.emitOpError("tpuc-data-parallel: both operands are split along "
                          "dimensions that do not match");
  };
  // Pair a split side with the matching dimension of the other side.
  auto pairWith = [&](bool lhsSplit, int64_t d) -> LogicalResult {
    ArrayRef<int64_t> myBatch = lhsSplit ? lhsBatch : rhsBatch;
    ArrayRef<int64_t> myContract = lhsSplit ? lhsContract : rhsContract;
    ArrayRef<int64_t> otherBatch = lhsSplit ? rhsBatch : lhsBatch;
    ArrayRef<int64_t> otherContract = lhsSplit ? rhsContract : lhsContract;
    int64_t otherSplit = lhsSplit ? r : l;
    unsigned otherIndex = lhsSplit ? 1 : 0;
    if (int64_t i = indexIn(myContract, d); i >= 0) {
      if (otherSplit >= 0 && otherSplit != otherContract[i])
        return unsupported();
      sliceReplicated(op, otherContract[i], {otherIndex});
      OpBuilder builder(op->getContext());
      builder.setInsertionPointAfter(op);
      Value total =
          collectives.allReduce(builder, op.getLoc(), op.getResult(), nullptr);
      op.getResult().replaceAllUsesExcept(total, total.getDefiningOp());
      return success();
    }
    if (int64_t i = indexIn(myBatch, d); i >= 0) {
      if (otherSplit >= 0 && otherSplit != otherBatch[i])
        return unsupported();
      sliceReplicated(op, otherBatch[i], {otherIndex});
      return splitValue(op, op.getResult(), i);
    }
    if (otherSplit >= 0)
      return unsupported();
    int64_t resultDim =
        lhsSplit ? int64_t(lhsBatch.size()) +
                       freeIndex(lhsType.getRank(), lhsBatch, lhsContract, d)
                 : int64_t(lhsBatch.size()) + lhsFree +
                       freeIndex(rhsType.getRank(), rhsBatch, rhsContract, d);
    return splitValue(op, op.getResult(), resultDim);
  };
  return l >= 0 ? pairWith(true, l) : pairWith(false, r);
}

LogicalResult Partitioner::visit(Operation *op) {
  int64_t dim = -1;
  for (Value operand : op->getOperands()) {
    int64_t d = splitDim(operand);
    if (d < 0)
      continue;
    if (dim >= 0 && d != dim && !isa<hlo::DotGeneralOp>(op))
      return op->emitOpError("tpuc-data-parallel: operands split along "
                             "different dimensions");
    dim = d;
  }
  if (isa<func::ReturnOp>(op))
    return success();
  if (dim < 0)
    return success(); // replicated in, replicated out
  if (op->hasTrait<OpTrait::Elementwise>() ||
      isa<hlo::SelectOp, hlo::ClampOp>(op)) {
    SmallVector<unsigned> indices;
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      if (cast<ShapedType>(op->getOperand(i).getType()).getRank() > 0)
        indices.push_back(i);
    sliceReplicated(op, dim, indices);
    for (Value result : op->getResults())
      if (failed(splitValue(op, result, dim)))
        return failure();
    return success();
  }
  if (auto broadcast = dyn_cast<hlo::BroadcastInDimOp>(op))
    return splitValue(op, broadcast.getResult(),
                      broadcast.getBroadcastDimensions()[dim]);
  if (auto transpose = dyn_cast<hlo::TransposeOp>(op)) {
    int64_t to = llvm::find(transpose.getPermutation(), dim) -
                 transpose.getPermutation().begin();
    return splitValue(op, transpose.getResult(), to);
  }
  if (auto reshape = dyn_cast<hlo::ReshapeOp>(op)) {
    // Row-major: a device's rows of the leading dimension stay one
    // contiguous block, which is a block of the result's leading dimension
    // when that divides by n.
    auto result = cast<RankedTensorType>(reshape.getResult().getType());
    if (dim != 0 || result.getRank() == 0 || result.getDimSize(0) % n)
      return op->emitOpError() << "tpuc-data-parallel: a reshape to " << result
                               << " does not keep the split leading dimension";
    return splitValue(op, reshape.getResult(), 0);
  }
  if (auto concat = dyn_cast<hlo::ConcatenateOp>(op);
      concat && concat.getDimension() != static_cast<uint64_t>(dim)) {
    // Joined along another dimension: each device joins its rows.
    SmallVector<unsigned> indices;
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      indices.push_back(i);
    sliceReplicated(op, dim, indices);
    return splitValue(op, concat.getResult(), dim);
  }
  if (auto gather = dyn_cast<hlo::GatherOp>(op)) {
    int64_t from = splitDim(gather.getOperand()),
            indices = splitDim(gather.getStartIndices());
    // Indices split along a batch dimension into a whole operand: each
    // device gathers its rows (an embedding lookup).
    if (from < 0)
      for (auto [i, out] : spmd::gatherDims(gather).batch)
        if (i == indices)
          return splitValue(op, gather.getResult(), out);
    // An operand split along a dimension the slices take whole, whole
    // indices: each device gathers from its rows.
    spmd::Tiling tiling = spmd::splitAlong(
        cast<RankedTensorType>(gather.getOperand().getType()), from, n);
    if (from >= 0 && indices < 0)
      for (auto [d, out] : spmd::gatherDims(gather, &tiling).passthrough)
        if (d == from) {
          SmallVector<int64_t> sizes(gather.getSliceSizes());
          sizes[d] /= n;
          gather.setSliceSizes(sizes);
          return splitValue(op, gather.getResult(), out);
        }
  }
  if (auto reduce = dyn_cast<hlo::ReduceOp>(op))
    return visitReduce(reduce, dim);
  if (auto dot = dyn_cast<hlo::DotGeneralOp>(op))
    return visitDot(dot);
  return op->emitOpError("tpuc-data-parallel: cannot partition this op with "
                         "an operand split along dimension ")
         << dim;
}

/// XLA's sharding of an array split `n` ways along `dim` (replicated: -1).
static std::string shardingText(Type type, int64_t dim, int64_t n) {
  if (dim < 0)
    return "{replicated}";
  std::string text = "{devices=[";
  int64_t rank = cast<ShapedType>(type).getRank();
  for (int64_t d = 0; d < rank; ++d)
    text += (d ? "," : "") + std::to_string(d == dim ? n : 1);
  return text + "]<=[" + std::to_string(n) + "]}";
}

LogicalResult Partitioner::run(const llvm::DenseSet<int64_t> &donated) {
  Block &block = func.getBody().front();
  for (BlockArgument arg : block.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    bool splits =
        !donated.contains(arg.getArgNumber()) && type && type.getRank() > 0;
    if (splits && failed(splitValue(func, arg, 0)))
      return failure();
    func.setArgAttr(
        arg.getArgNumber(), "hlo.sharding",
        StringAttr::get(func.getContext(),
                        shardingText(arg.getType(), splits ? 0 : -1, n)));
  }
  for (Operation &op : llvm::make_early_inc_range(block))
    if (failed(visit(&op)))
      return failure();
  Operation *ret = block.getTerminator();
  func.setFunctionType(FunctionType::get(
      func.getContext(), block.getArgumentTypes(), ret->getOperandTypes()));
  for (auto [i, value] : llvm::enumerate(ret->getOperands()))
    func.setResultAttr(
        i, "hlo.sharding",
        StringAttr::get(func.getContext(),
                        shardingText(value.getType(), splitDim(value), n)));
  return success();
}

struct DataParallelPass : public impl::DataParallelBase<DataParallelPass> {
  using DataParallelBase::DataParallelBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (numDevices < 1) {
      module.emitError("tpuc-data-parallel: num-devices must be positive");
      return signalPassFailure();
    }
    func::FuncOp entry;
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal())
        entry = func;
    if (!entry) {
      module.emitError("tpuc-data-parallel: no public function to partition");
      return signalPassFailure();
    }
    llvm::DenseSet<int64_t> donated;
    if (auto aliases =
            module->getAttrOfType<ArrayAttr>("hlo.input_output_alias"))
      for (Attribute alias : aliases)
        if (auto dict = dyn_cast<DictionaryAttr>(alias))
          if (auto param = dict.getAs<IntegerAttr>("parameter_number"))
            donated.insert(param.getInt());
    if (auto donors = module->getAttrOfType<ArrayAttr>("hlo.buffer_donor"))
      for (Attribute donor : donors)
        if (auto dict = dyn_cast<DictionaryAttr>(donor))
          if (auto param = dict.getAs<IntegerAttr>("parameter_number"))
            donated.insert(param.getInt());
    if (failed(Partitioner(entry, numDevices).run(donated)))
      return signalPassFailure();
    OpBuilder builder(module.getContext());
    module->setAttr("hlo.num_partitions",
                    builder.getI64IntegerAttr(numDevices));
    module->setAttr("hlo.replica_count", builder.getI64IntegerAttr(1));
  }
};

} // namespace
} // namespace tpuc
