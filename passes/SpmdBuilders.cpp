//===- SpmdBuilders.cpp - collectives the partitioning passes build -------===//

#include "passes/SpmdBuilders.h"

#include "passes/SpmdSharding.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/IRMapping.h"

#include <cmath>

using namespace mlir;

namespace tpuc::spmd {

DenseIntElementsAttr CollectiveBuilder::groupsAttr(OpBuilder &builder,
                                                   const Groups &groups) const {
  SmallVector<int64_t> ids;
  if (groups.empty())
    for (int64_t d = 0; d < partitions; ++d)
      ids.push_back(d);
  for (const auto &group : groups)
    ids.append(group.begin(), group.end());
  int64_t rows = groups.empty() ? 1 : groups.size();
  return DenseIntElementsAttr::get(
      RankedTensorType::get({rows, groupSize(groups)}, builder.getI64Type()),
      ids);
}

Value CollectiveBuilder::allReduce(OpBuilder &builder, Location loc,
                                   Value value, Region *body,
                                   const Groups &groups) {
  OperationState state(loc, "hlo.all_reduce");
  state.addOperands(value);
  state.addTypes(value.getType());
  state.addAttribute("replica_groups", groupsAttr(builder, groups));
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
                                   Value value, int64_t dim,
                                   const Groups &groups) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] *= groupSize(groups);
  OperationState state(loc, "hlo.all_gather");
  state.addOperands(value);
  state.addTypes(RankedTensorType::get(shape, type.getElementType()));
  state.addAttribute("all_gather_dim", builder.getI64IntegerAttr(dim));
  state.addAttribute("replica_groups", groupsAttr(builder, groups));
  state.addAttribute("channel_id", builder.getI64IntegerAttr(nextChannel++));
  state.addAttribute("use_global_device_ids", builder.getUnitAttr());
  return builder.create(state)->getResult(0);
}

Value CollectiveBuilder::moveSplit(OpBuilder &builder, Location loc,
                                   Value value, int64_t from, int64_t to,
                                   const Groups &groups) {
  auto type = cast<RankedTensorType>(value.getType());
  Type element = type.getElementType();
  int64_t n = groupSize(groups);
  auto build = [&](llvm::StringRef name, Value operand, ArrayRef<int64_t> shape,
                   llvm::ArrayRef<NamedAttribute> attrs) {
    OperationState state(loc, name);
    state.addOperands(operand);
    state.addTypes(RankedTensorType::get(shape, element));
    state.addAttributes(attrs);
    return builder.create(state)->getResult(0);
  };
  // `to` becomes (n, size / n); the all-to-all exchanges the n blocks of
  // that new dimension, so position j then holds group member j's rows of
  // `from`.
  SmallVector<int64_t> shape(type.getShape());
  shape[to] /= n;
  shape.insert(shape.begin() + to, n);
  Value blocks = build("hlo.reshape", value, shape, {});
  Value exchanged = build(
      "hlo.all_to_all", blocks, shape,
      {builder.getNamedAttr("dimension", builder.getI64IntegerAttr(to)),
       builder.getNamedAttr("replica_groups", groupsAttr(builder, groups)),
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
  result[from] *= n;
  result[to] /= n;
  return build("hlo.reshape", transposed, result, {});
}

Value CollectiveBuilder::shift(OpBuilder &builder, Location loc, Value value,
                               int64_t step, const Groups &groups) {
  SmallVector<int64_t> pairs;
  auto link = [&](ArrayRef<int64_t> group) {
    int64_t n = group.size();
    for (int64_t i = 0; i < n; ++i)
      if (i + step >= 0 && i + step < n)
        pairs.append({group[i], group[i + step]});
  };
  if (groups.empty()) {
    SmallVector<int64_t> all;
    for (int64_t p = 0; p < partitions; ++p)
      all.push_back(p);
    link(all);
  }
  for (const auto &group : groups)
    link(group);
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

Value CollectiveBuilder::tileIndex(OpBuilder &builder, Location loc,
                                   const Axis &axis) {
  auto i32 = RankedTensorType::get({}, builder.getI32Type());
  auto constant = [&](int64_t v) -> Value {
    return hlo::ConstantOp::create(
        builder, loc,
        DenseElementsAttr::get(i32, builder.getI32IntegerAttr(v).getValue()));
  };
  Value id = partitionId(builder, loc);
  if (!axis.split())
    return constant(0);
  // The stride: the first partition on tile 1.
  int64_t stride = llvm::find(axis.index, 1) - axis.index.begin();
  bool arithmetic = stride < partitions;
  for (int64_t p = 0; p < partitions && arithmetic; ++p)
    arithmetic = axis.index[p] == (p / stride) % axis.tiles;
  if (arithmetic) {
    Value index = id;
    if (stride > 1)
      index = hlo::DivideOp::create(builder, loc, index, constant(stride));
    if (stride * axis.tiles < partitions)
      index =
          hlo::RemainderOp::create(builder, loc, index, constant(axis.tiles));
    return index;
  }
  SmallVector<int32_t> table(axis.index.begin(), axis.index.end());
  auto tableType = RankedTensorType::get({partitions}, builder.getI32Type());
  Value values = hlo::ConstantOp::create(
      builder, loc, DenseElementsAttr::get(tableType, ArrayRef(table)));
  OperationState state(loc, "hlo.dynamic_slice");
  state.addOperands({values, id});
  state.addTypes(RankedTensorType::get({1}, builder.getI32Type()));
  state.addAttribute("slice_sizes", builder.getDenseI64ArrayAttr({1}));
  Value entry = builder.create(state)->getResult(0);
  return hlo::ReshapeOp::create(builder, loc, i32, entry);
}

Value CollectiveBuilder::localTile(OpBuilder &builder, Location loc, Value full,
                                   const Tiling &tiling) {
  auto type = cast<RankedTensorType>(full.getType());
  auto i32 = RankedTensorType::get({}, builder.getI32Type());
  Value zero = hlo::ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(i32, builder.getI32IntegerAttr(0).getValue()));
  SmallVector<int64_t> sizes(tiling.local(type).getShape());
  SmallVector<Value> starts(type.getRank(), zero);
  for (int64_t d : tiling.splitDims()) {
    Value size = hlo::ConstantOp::create(
        builder, loc,
        DenseElementsAttr::get(i32,
                               builder.getI32IntegerAttr(sizes[d]).getValue()));
    starts[d] = hlo::MultiplyOp::create(
        builder, loc, tileIndex(builder, loc, tiling.axis(d)), size);
  }
  OperationState state(loc, "hlo.dynamic_slice");
  state.addOperands(full);
  state.addOperands(starts);
  state.addTypes(tiling.local(type));
  state.addAttribute("slice_sizes", builder.getDenseI64ArrayAttr(sizes));
  return builder.create(state)->getResult(0);
}

Value CollectiveBuilder::localBlock(OpBuilder &builder, Location loc,
                                    Value full, int64_t dim) {
  return localTile(
      builder, loc, full,
      splitAlong(cast<RankedTensorType>(full.getType()), dim, partitions));
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

bool isAddCombiner(Region &body) {
  Block &block = body.front();
  if (block.getNumArguments() != 2 || block.getOperations().size() != 2)
    return false;
  auto add = dyn_cast<hlo::AddOp>(block.front());
  auto ret = dyn_cast<hlo::ReturnOp>(block.back());
  if (!add || !ret || ret->getNumOperands() != 1 ||
      ret->getOperand(0) != add.getResult())
    return false;
  Value a = block.getArgument(0), b = block.getArgument(1);
  return (add.getLhs() == a && add.getRhs() == b) ||
         (add.getLhs() == b && add.getRhs() == a);
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
