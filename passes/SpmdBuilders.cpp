//===- SpmdBuilders.cpp - collectives the partitioning passes build -------===//

#include "passes/SpmdBuilders.h"

#include "passes/SpmdSharding.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/IRMapping.h"

#include <cmath>

using namespace mlir;

namespace tpuc::spmd {

DenseIntElementsAttr
CollectiveBuilder::allPartitions(OpBuilder &builder) const {
  SmallVector<int64_t> ids;
  for (int64_t d = 0; d < partitions; ++d)
    ids.push_back(d);
  return DenseIntElementsAttr::get(
      RankedTensorType::get({1, partitions}, builder.getI64Type()), ids);
}

Value CollectiveBuilder::allReduce(OpBuilder &builder, Location loc,
                                   Value value, Region *body) {
  OperationState state(loc, "hlo.all_reduce");
  state.addOperands(value);
  state.addTypes(value.getType());
  state.addAttribute("replica_groups", allPartitions(builder));
  state.addAttribute("channel_id", builder.getI64IntegerAttr(nextChannel++));
  state.addAttribute("use_global_device_ids", builder.getUnitAttr());
  Region *region = state.addRegion();
  if (body) {
    IRMapping mapping;
    body->cloneInto(region, mapping);
  } else {
    auto scalar = RankedTensorType::get(
        {}, cast<ShapedType>(value.getType()).getElementType());
    Block *entry = new Block();
    region->push_back(entry);
    entry->addArguments({scalar, scalar}, {loc, loc});
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(entry);
    Value sum = hlo::AddOp::create(builder, loc, entry->getArgument(0),
                                   entry->getArgument(1));
    hlo::ReturnOp::create(builder, loc, sum);
  }
  return builder.create(state)->getResult(0);
}

Value CollectiveBuilder::allGather(OpBuilder &builder, Location loc,
                                   Value value, int64_t dim) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] *= partitions;
  OperationState state(loc, "hlo.all_gather");
  state.addOperands(value);
  state.addTypes(RankedTensorType::get(shape, type.getElementType()));
  state.addAttribute("all_gather_dim", builder.getI64IntegerAttr(dim));
  state.addAttribute("replica_groups", allPartitions(builder));
  state.addAttribute("channel_id", builder.getI64IntegerAttr(nextChannel++));
  state.addAttribute("use_global_device_ids", builder.getUnitAttr());
  return builder.create(state)->getResult(0);
}

Value CollectiveBuilder::moveSplit(OpBuilder &builder, Location loc,
                                   Value value, int64_t from, int64_t to) {
  auto type = cast<RankedTensorType>(value.getType());
  Type element = type.getElementType();
  auto build = [&](llvm::StringRef name, Value operand, ArrayRef<int64_t> shape,
                   llvm::ArrayRef<NamedAttribute> attrs) {
    OperationState state(loc, name);
    state.addOperands(operand);
    state.addTypes(RankedTensorType::get(shape, element));
    state.addAttributes(attrs);
    return builder.create(state)->getResult(0);
  };
  // `to` becomes (P, size / P); the all-to-all exchanges the P blocks of
  // that new dimension, so position j then holds partition j's rows of
  // `from`.
  SmallVector<int64_t> shape(type.getShape());
  shape[to] /= partitions;
  shape.insert(shape.begin() + to, partitions);
  Value blocks = build("hlo.reshape", value, shape, {});
  Value exchanged =
      build("hlo.all_to_all", blocks, shape,
            {builder.getNamedAttr("dimension", builder.getI64IntegerAttr(to)),
             builder.getNamedAttr("replica_groups", allPartitions(builder)),
             builder.getNamedAttr("channel_id",
                                  builder.getI64IntegerAttr(nextChannel++))});
  // Move that dimension just before `from` and merge the two.
  int64_t source = from < to ? from : from + 1;
  SmallVector<int64_t> permutation, moved;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (d == to)
      continue;
    if (d == source)
      permutation.push_back(to);
    permutation.push_back(d);
  }
  for (int64_t d : permutation)
    moved.push_back(shape[d]);
  Value transposed =
      build("hlo.transpose", exchanged, moved,
            {builder.getNamedAttr("permutation",
                                  builder.getDenseI64ArrayAttr(permutation))});
  SmallVector<int64_t> result(type.getShape());
  result[from] *= partitions;
  result[to] /= partitions;
  return build("hlo.reshape", transposed, result, {});
}

Value CollectiveBuilder::shift(OpBuilder &builder, Location loc, Value value,
                               int64_t step) {
  SmallVector<int64_t> pairs;
  for (int64_t source = 0; source < partitions; ++source)
    if (source + step >= 0 && source + step < partitions)
      pairs.append({source, source + step});
  OperationState state(loc, "hlo.collective_permute");
  state.addOperands(value);
  state.addTypes(value.getType());
  state.addAttribute("source_target_pairs",
                     DenseIntElementsAttr::get(
                         RankedTensorType::get({int64_t(pairs.size() / 2), 2},
                                               builder.getI64Type()),
                         pairs));
  state.addAttribute("channel_id", builder.getI64IntegerAttr(nextChannel++));
  return builder.create(state)->getResult(0);
}

Value CollectiveBuilder::partitionId(OpBuilder &builder, Location loc) {
  Region *region = builder.getInsertionBlock()->getParent();
  Value &partitionOffset = partitionOffsets[region];
  if (!partitionOffset) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&region->front());
    Value id = hlo::PartitionIdOp::create(
        builder, loc,
        RankedTensorType::get({}, builder.getIntegerType(32, false)));
    partitionOffset = hlo::ConvertOp::create(
        builder, loc, RankedTensorType::get({}, builder.getI32Type()), id);
  }
  return partitionOffset;
}

Value CollectiveBuilder::localBlock(OpBuilder &builder, Location loc,
                                    Value full, int64_t dim) {
  auto type = cast<RankedTensorType>(full.getType());
  auto i32 = RankedTensorType::get({}, builder.getI32Type());
  Value partitionOffset = partitionId(builder, loc);
  auto constant = [&](int64_t v) -> Value {
    return hlo::ConstantOp::create(
        builder, loc,
        DenseElementsAttr::get(i32, builder.getI32IntegerAttr(v).getValue()));
  };
  SmallVector<int64_t> sizes(type.getShape());
  sizes[dim] /= partitions;
  Value zero = constant(0);
  SmallVector<Value> starts(type.getRank(), zero);
  starts[dim] = hlo::MultiplyOp::create(builder, loc, partitionOffset,
                                        constant(sizes[dim]));
  OperationState state(loc, "hlo.dynamic_slice");
  state.addOperands(full);
  state.addOperands(starts);
  state.addTypes(RankedTensorType::get(sizes, type.getElementType()));
  state.addAttribute("slice_sizes", builder.getDenseI64ArrayAttr(sizes));
  return builder.create(state)->getResult(0);
}

bool isIdentityInit(Region &body, Value init) {
  Block &block = body.front();
  if (block.getOperations().size() != 2)
    return false;
  Operation &op = block.front();
  auto constant = init.getDefiningOp<hlo::ConstantOp>();
  auto elements =
      constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
  if (!elements || !elements.isSplat() ||
      !isa<FloatType>(elements.getElementType()))
    return false;
  double value = elements.getSplatValue<APFloat>().convertToDouble();
  if (isa<hlo::AddOp>(op))
    return value == 0;
  if (isa<hlo::MaximumOp>(op))
    return std::isinf(value) && value < 0;
  if (isa<hlo::MinimumOp>(op))
    return std::isinf(value) && value > 0;
  if (isa<hlo::MultiplyOp>(op))
    return value == 1;
  return false;
}

bool reduceWindowHaloFits(hlo::ReduceWindowOp op, int64_t dim, int64_t block) {
  if (op.getInputs().size() != 1 ||
      !isIdentityInit(op.getBody(), op.getInitValues()[0]))
    return false;
  auto window = op.getWindowDimensions();
  int64_t low, high;
  return haloFits(op.getWindowStrides(), op.getBaseDilations(),
                  op.getWindowDilations(), op.getPadding(), dim, window.size(),
                  window[dim], block, low, high);
}

} // namespace tpuc::spmd
