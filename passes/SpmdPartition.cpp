//===- SpmdPartition.cpp - tpuc-spmd-partition
//------------------------------===//
//
// Rewrites the public function, whose values carry the tiled shardings of
// SpmdSharding.h (after tpuc-sharding-propagation; any device mesh, partial
// replication), into the program of one partition: split values become
// their tile, each op runs on tiles where its rule allows (elementwise,
// broadcast, transpose, reshape, reduce, dot_general, convolution, while),
// contracted splits become a partial result and an all-reduce across the
// partitions holding its terms, and where an operand's tiling is not the one
// the op needs it is resharded: all-gather within the groups along a split,
// dynamic-slice at the tile's offset to split, all-to-all to move a split.
// Ops without a rule run on replicated operands (always correct); their
// result is then sliced to its annotated sharding.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/SpmdBuilders.h"
#include "passes/SpmdSharding.h"

#include "compiler/fusion/DotSizes.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>

namespace tpuc {
#define GEN_PASS_DEF_SPMDPARTITION
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;

/// How an op runs on tiles: the tiling each operand needs (none: it stays
/// as it is, a tuple element or loop state keeps its tiling), the tiling of
/// the result it computes, and whether that result is partial (each group
/// of `groups` holds the terms of an all-reduce with `combiner`, or an add
/// when null).
struct Plan {
  SmallVector<std::optional<spmd::Tiling>> operands;
  std::optional<spmd::Tiling> result;
  bool partial = false;
  Region *combiner = nullptr;
  spmd::Groups groups;
  /// The windowed op's dimension that needs halos (a convolution: the
  /// index of the spatial dimension), or -1.
  int64_t halo = -1;
  /// A scatter whose updates are split: it scatters into zeros, and the
  /// input is added to the all-reduced sum.
  bool zeroInit = false;
};

int64_t rankOf(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  return tensor ? tensor.getRank() : 0;
}

class SpmdPartitioner {
public:
  SpmdPartitioner(func::FuncOp func, int64_t partitions)
      : func(func), partitions(partitions), collectives(func, partitions) {}

  LogicalResult run();

private:
  spmd::Tiling current(Value value) const {
    auto it = split.find(value);
    return it == split.end()
               ? spmd::Tiling::replicated(rankOf(value), partitions)
               : it->second;
  }
  /// The type `value` has in the global program (operands visited earlier
  /// already have their tile's type).
  RankedTensorType globalType(Value value) const {
    auto type = cast<RankedTensorType>(value.getType());
    spmd::Tiling tiling = current(value);
    SmallVector<int64_t> shape(type.getShape());
    for (int64_t d = 0; d < tiling.rank(); ++d)
      shape[d] *= tiling.axis(d).tiles;
    return RankedTensorType::get(shape, type.getElementType());
  }
  spmd::Tiling replicated(Value value) const {
    return spmd::Tiling::replicated(rankOf(value), partitions);
  }
  void record(Value value, const spmd::Tiling &tiling) {
    if (tiling.isSplit())
      split[value] = tiling;
    else
      split.erase(value);
  }
  /// The sharding annotated on `op`'s one result, replicated when none.
  FailureOr<spmd::Tiling> target(Operation *op);
  Plan plan(Operation *op, const spmd::Tiling &target);
  /// `value` resharded to `tiling`, built at the builder.
  Value reshard(OpBuilder &builder, Location loc, Value value,
                const spmd::Tiling &tiling);
  /// `tuple` with its elements resharded to `tilings`.
  Value reshardTuple(OpBuilder &builder, Location loc, Value tuple,
                     ArrayRef<spmd::Tiling> tilings);
  /// The tilings of a tuple's elements.
  SmallVector<spmd::Tiling> leavesOf(Value tuple) const {
    if (auto it = leaves.find(tuple); it != leaves.end())
      return it->second;
    SmallVector<spmd::Tiling> all;
    if (auto type = dyn_cast<TupleType>(tuple.getType()))
      for (Type element : type.getTypes()) {
        auto tensor = dyn_cast<RankedTensorType>(element);
        all.push_back(spmd::Tiling::replicated(tensor ? tensor.getRank() : 0,
                                               partitions));
      }
    return all;
  }
  /// Replicated tilings for the elements of `tuple`.
  SmallVector<spmd::Tiling> replicatedLeaves(Value tuple) const {
    SmallVector<spmd::Tiling> all = leavesOf(tuple);
    for (spmd::Tiling &leaf : all)
      leaf = spmd::Tiling::replicated(leaf.rank(), partitions);
    return all;
  }
  /// Records `to` as carrying `from`'s tiling (tensor) or element tilings.
  void carry(Value from, Value to) {
    if (auto it = leaves.find(from); it != leaves.end())
      leaves[to] = SmallVector<spmd::Tiling>(it->second);
    else
      record(to, current(from));
  }
  /// Gives a windowed op's split input (operand 0) the rows its window
  /// reaches in the neighbours' tiles (collective-permute within the groups
  /// along `axis`) instead of the padding of its dimension `dim` (entry
  /// `index` of `count` in its `padding`); at the ends, `edge`
  /// (reduce-window's init) or zeros (convolution) stand for the padding.
  void exchangeHalo(Operation *op, int64_t dim, const spmd::Axis &axis,
                    int64_t index, int64_t count, Value edge);
  LogicalResult visitBlock(Block &block);
  LogicalResult visitWhile(hlo::WhileOp loop);
  LogicalResult visit(Operation *op);

  func::FuncOp func;
  int64_t partitions;
  llvm::DenseMap<Value, spmd::Tiling> split; // values now split
  std::map<std::pair<void *, std::string>, Value> resharded;
  llvm::DenseMap<Value, SmallVector<spmd::Tiling>> leaves; // tuples' elements
  spmd::CollectiveBuilder collectives;
};

bool isElementwise(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<hlo::SelectOp, hlo::ClampOp>(op);
}

FailureOr<spmd::Tiling> SpmdPartitioner::target(Operation *op) {
  auto text = op->getAttrOfType<StringAttr>("hlo.sharding");
  if (!text || op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return op->getNumResults() == 1 ? replicated(op->getResult(0))
                                    : spmd::Tiling::replicated(0, partitions);
  std::string why;
  FailureOr<spmd::Tiling> tiling = spmd::parseTiling(
      text.getValue(), op->getResult(0).getType(), partitions, why);
  if (failed(tiling))
    return op->emitOpError() << "tpuc-spmd-partition: cannot partition by "
                                "sharding "
                             << text.getValue() << ": " << why;
  return tiling;
}

/// `tiling` with the splits of `extra` (dimension -> axis) added, when the
/// result is still a valid tiling.
std::optional<spmd::Tiling>
withSplits(spmd::Tiling tiling,
           ArrayRef<std::pair<int64_t, spmd::Axis>> extra) {
  for (const auto &[d, axis] : extra)
    tiling.set(d, axis);
  if (!tiling.valid())
    return std::nullopt;
  return tiling;
}

/// `t` with the axes `offered` (result dimension, axis) added where `t`
/// leaves the dimension whole and the result stays a valid tiling: the op
/// computes on the tiles its operands already have, and only its (smaller)
/// result is resharded to `t` afterwards.
spmd::Tiling refined(spmd::Tiling t,
                     ArrayRef<std::pair<int64_t, spmd::Axis>> offered) {
  for (const auto &[d, axis] : offered) {
    if (t.axis(d).split() || !axis.split())
      continue;
    spmd::Tiling more = t;
    more.set(d, axis);
    if (more.valid())
      t = std::move(more);
  }
  return t;
}

Plan SpmdPartitioner::plan(Operation *op, const spmd::Tiling &annotated) {
  const spmd::Tiling &t = annotated;
  Plan p;
  for (Value operand : op->getOperands())
    p.operands.push_back(replicated(operand));
  if (isa<hlo::TupleOp>(op)) {
    p.operands.assign(op->getNumOperands(), std::nullopt);
    return p;
  }
  if (auto element = dyn_cast<hlo::GetTupleElementOp>(op)) {
    p.operands = {std::nullopt};
    p.result = leavesOf(element->getOperand(0))[element.getIndex()];
    return p;
  }
  auto resultType = op->getNumResults() == 1
                        ? dyn_cast<RankedTensorType>(op->getResult(0).getType())
                        : nullptr;
  if (!resultType)
    return p;
  p.result = replicated(op->getResult(0));
  if (isElementwise(op)) {
    for (auto [i, operand] : llvm::enumerate(op->getOperands()))
      if (rankOf(operand) == resultType.getRank())
        p.operands[i] = t;
    p.result = t;
    return p;
  }
  if (isa<hlo::IotaOp>(op)) {
    // Each tile counts from its offset along the iota dimension.
    p.result = t;
    return p;
  }
  if (auto constant = dyn_cast<hlo::ConstantOp>(op)) {
    // A splat is the same splat on every tile.
    if (auto splat = dyn_cast<SplatElementsAttr>(constant.getValue()))
      p.result = t;
    return p;
  }
  if (auto broadcast = dyn_cast<hlo::BroadcastInDimOp>(op)) {
    // A dimension the operand does not have (or has as size 1) is the same
    // on every tile: broadcast the replicated operand to the tile.
    RankedTensorType operand = globalType(broadcast.getOperand());
    for (auto [i, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
      if (operand.getDimSize(i) != 1)
        p.operands[0]->set(i, t.axis(d));
    p.result = t;
    return p;
  }
  if (auto transpose = dyn_cast<hlo::TransposeOp>(op)) {
    for (auto [i, d] : llvm::enumerate(transpose.getPermutation()))
      p.operands[0]->set(d, t.axis(i));
    p.result = t;
    return p;
  }
  if (auto reshape = dyn_cast<hlo::ReshapeOp>(op)) {
    // The result's splits whose dimension maps to an operand's; the others
    // are cut from the result afterwards.
    RankedTensorType source = globalType(reshape.getOperand());
    for (int64_t to : t.splitDims())
      for (int64_t from = 0; from < source.getRank(); ++from)
        if (spmd::reshapeKeepsSplit(source, from, resultType, to,
                                    t.axis(to).tiles)) {
          p.operands[0]->set(from, t.axis(to));
          p.result->set(to, t.axis(to));
        }
    return p;
  }
  if (auto reduce = dyn_cast<hlo::ReduceOp>(op)) {
    if (reduce.getInputs().size() != 1)
      return p;
    ArrayRef<int64_t> reduced = reduce.getDimensions();
    SmallVector<int64_t> kept;
    for (int64_t d = 0; d < rankOf(reduce.getInputs()[0]); ++d)
      if (!llvm::is_contained(reduced, d))
        kept.push_back(d);
    spmd::Tiling in = current(reduce.getInputs()[0]);
    SmallVector<std::pair<int64_t, spmd::Axis>> offered;
    for (auto [i, d] : llvm::enumerate(kept))
      offered.push_back({int64_t(i), in.axis(d)});
    spmd::Tiling r = refined(t, offered);
    for (auto [i, d] : llvm::enumerate(kept))
      p.operands[0]->set(d, r.axis(i));
    p.result = r;
    // Reduced dimensions the input is split along stay split: each tile is
    // reduced, and the groups across those splits complete the result.
    SmallVector<std::pair<int64_t, spmd::Axis>> extra;
    SmallVector<spmd::Axis> across;
    for (int64_t d : reduced)
      if (in.axis(d).split()) {
        extra.push_back({d, in.axis(d)});
        across.push_back(in.axis(d));
      }
    if (extra.empty() ||
        !spmd::isIdentityInit(reduce.getBody(), reduce.getInitValues()[0]))
      return p;
    std::optional<spmd::Tiling> input = withSplits(*p.operands[0], extra);
    spmd::Groups groups = spmd::groupsAcross(partitions, r.allAxes(), across);
    if (input && !groups.empty()) {
      p.operands[0] = input;
      p.partial = true;
      p.combiner = &reduce.getBody();
      p.groups = std::move(groups);
    }
    return p;
  }
  if (auto dot = dyn_cast<hlo::DotGeneralOp>(op)) {
    auto dims = dot.getDotDimensionNumbers();
    auto lhs = cast<RankedTensorType>(dot.getLhs().getType());
    auto rhs = cast<RankedTensorType>(dot.getRhs().getType());
    SmallVector<int64_t> lhsFree = dotFreeDims(
        lhs.getRank(), dims.getLhsBatch(), dims.getLhsContracting());
    SmallVector<int64_t> rhsFree = dotFreeDims(
        rhs.getRank(), dims.getRhsBatch(), dims.getRhsContracting());
    int64_t batch = dims.getLhsBatch().size();
    spmd::Tiling lhsNow = current(dot.getLhs()), rhsNow = current(dot.getRhs());
    // Result dimensions: batch, lhs free, rhs free; the operands' splits of
    // them refine the annotation.
    SmallVector<std::pair<int64_t, spmd::Axis>> offered;
    for (int64_t i = 0; i < batch; ++i)
      offered.push_back({i, lhsNow.axis(dims.getLhsBatch()[i])});
    for (auto [i, d] : llvm::enumerate(lhsFree))
      offered.push_back({batch + int64_t(i), lhsNow.axis(d)});
    for (auto [i, d] : llvm::enumerate(rhsFree))
      offered.push_back({batch + int64_t(lhsFree.size() + i), rhsNow.axis(d)});
    const spmd::Tiling t = refined(annotated, offered);
    for (int64_t i = 0; i < batch; ++i) {
      p.operands[0]->set(dims.getLhsBatch()[i], t.axis(i));
      p.operands[1]->set(dims.getRhsBatch()[i], t.axis(i));
    }
    for (auto [i, d] : llvm::enumerate(lhsFree))
      p.operands[0]->set(d, t.axis(batch + i));
    for (auto [i, d] : llvm::enumerate(rhsFree))
      p.operands[1]->set(d, t.axis(batch + lhsFree.size() + i));
    p.result = t;
    // Contracting dimensions either side is split along stay split on
    // both: partial products, summed across those splits.
    SmallVector<std::pair<int64_t, spmd::Axis>> lhsExtra, rhsExtra;
    SmallVector<spmd::Axis> across;
    auto lhsContract = dims.getLhsContracting(),
         rhsContract = dims.getRhsContracting();
    for (size_t i = 0; i < lhsContract.size(); ++i) {
      const spmd::Axis &axis = lhsNow.axis(lhsContract[i]).split()
                                   ? lhsNow.axis(lhsContract[i])
                                   : rhsNow.axis(rhsContract[i]);
      if (!axis.split())
        continue;
      lhsExtra.push_back({lhsContract[i], axis});
      rhsExtra.push_back({rhsContract[i], axis});
      across.push_back(axis);
    }
    if (across.empty())
      return p;
    std::optional<spmd::Tiling> lhsTiling =
        withSplits(*p.operands[0], lhsExtra);
    std::optional<spmd::Tiling> rhsTiling =
        withSplits(*p.operands[1], rhsExtra);
    spmd::Groups groups = spmd::groupsAcross(partitions, t.allAxes(), across);
    if (lhsTiling && rhsTiling && !groups.empty()) {
      p.operands = {lhsTiling, rhsTiling};
      p.partial = true;
      p.groups = std::move(groups);
    }
    return p;
  }
  if (auto gather = dyn_cast<hlo::GatherOp>(op)) {
    // Passthrough operand dimensions and the indices' batch dimensions
    // split as the result does; each partition gathers its tile.
    spmd::Tiling operand = current(gather.getOperand());
    spmd::IndexedDims dims = spmd::gatherDims(gather, &operand);
    for (auto [d, o] : dims.passthrough) {
      p.operands[0]->set(d, t.axis(o));
      p.result->set(o, t.axis(o));
    }
    for (auto [i, o] : dims.batch) {
      p.operands[1]->set(i, t.axis(o));
      p.result->set(o, t.axis(o));
    }
    return p;
  }
  if (auto scatter = dyn_cast<hlo::ScatterOp>(op)) {
    if (scatter.getInputs().size() != 1)
      return p;
    spmd::Tiling updates = current(scatter.getUpdates()[0]),
                 indices = current(scatter.getScatterIndices()),
                 input = current(scatter.getInputs()[0]);
    spmd::IndexedDims dims = spmd::scatterDims(scatter, &input, &updates);
    // The input split along passthrough dimensions only: each partition
    // scatters the matching window of the updates into its tile.
    bool passthrough = llvm::all_of(t.splitDims(), [&](int64_t d) {
      return llvm::any_of(dims.passthrough,
                          [&](auto pair) { return pair.first == d; });
    });
    if (t.isSplit() && passthrough) {
      p.operands[0] = t;
      for (auto [d, u] : dims.passthrough)
        p.operands[2]->set(u, t.axis(d));
      p.result = t;
      return p;
    }
    // Updates (or indices) split along their scatter dimensions, combined
    // by add: each partition scatters its updates into zeros, an all-reduce
    // sums them, and the input is added (XLA's partial scatter).
    SmallVector<spmd::Axis> across;
    for (auto [i, u] : dims.batch) {
      const spmd::Axis &axis =
          updates.axis(u).split() ? updates.axis(u) : indices.axis(i);
      if (!axis.split())
        continue;
      p.operands[1]->set(i, axis);
      p.operands[2]->set(u, axis);
      across.push_back(axis);
    }
    spmd::Groups groups =
        spmd::groupsAcross(partitions, p.result->allAxes(), across);
    if (across.empty() || groups.empty() || !p.operands[1]->valid() ||
        !p.operands[2]->valid() ||
        !spmd::isAddCombiner(scatter.getUpdateComputation())) {
      p.operands = {replicated(op->getOperand(0)),
                    replicated(op->getOperand(1)),
                    replicated(op->getOperand(2))};
      return p;
    }
    p.partial = true;
    p.zeroInit = true;
    p.groups = std::move(groups);
    return p;
  }
  // Windowed ops split along one dimension.
  SmallVector<int64_t> splits = t.splitDims();
  if (auto window = dyn_cast<hlo::ReduceWindowOp>(op)) {
    if (splits.size() != 1 || window.getInputs().size() != 1)
      return p;
    int64_t d = splits[0];
    Value input = window.getInputs()[0];
    int64_t rows = cast<RankedTensorType>(input.getType()).getDimSize(d);
    if (current(input).axis(d) != t.axis(d))
      rows /= t.axis(d).tiles;
    if (spmd::reduceWindowHaloFits(window, d, rows)) {
      p.operands[0] = t;
      p.result = t;
      p.halo = d;
    }
    return p;
  }
  if (auto conv = dyn_cast<hlo::ConvolutionOp>(op)) {
    auto dims = conv.getDimensionNumbers();
    bool plain =
        conv.getFeatureGroupCount() == 1 && conv.getBatchGroupCount() == 1;
    if (!plain)
      return p;
    bool batchOrFeature = llvm::all_of(splits, [&](int64_t d) {
      return d == dims.getOutputBatch() || d == dims.getOutputFeature();
    });
    if (batchOrFeature) {
      p.operands[0]->set(dims.getInputBatch(), t.axis(dims.getOutputBatch()));
      p.operands[1]->set(dims.getKernelOutputFeature(),
                         t.axis(dims.getOutputFeature()));
      p.result = t;
      return p;
    }
    auto spatial = llvm::find(dims.getOutputSpatial(), splits[0]);
    if (splits.size() != 1 || spatial == dims.getOutputSpatial().end())
      return p;
    int64_t s = spatial - dims.getOutputSpatial().begin();
    int64_t input = dims.getInputSpatial()[s];
    const spmd::Axis &axis = t.axis(splits[0]);
    // The lhs may already be this partition's tile.
    int64_t rows =
        cast<RankedTensorType>(conv.getLhs().getType()).getDimSize(input);
    if (current(conv.getLhs()).axis(input) != axis)
      rows /= axis.tiles;
    if (spmd::haloSpatialIndex(conv, input, rows) == s) {
      p.operands[0]->set(input, axis);
      p.result = t;
      p.halo = s;
    }
    return p;
  }
  return p;
}

Value SpmdPartitioner::reshard(OpBuilder &builder, Location loc, Value value,
                               const spmd::Tiling &tiling) {
  spmd::Tiling from = current(value);
  if (from == tiling || !isa<RankedTensorType>(value.getType()))
    return value;
  // Each reshard is built once, where the value is first needed that way;
  // it dominates every later use in the block.
  std::pair<void *, std::string> key = {value.getAsOpaquePointer(),
                                        tiling.str()};
  if (auto it = resharded.find(key); it != resharded.end())
    return it->second;
  Value now = value;
  // A split that moves from one dimension to another with the same tiles
  // and partitions (each dimension's split the same on both sides
  // otherwise): an all-to-all within the groups along it.
  SmallVector<int64_t> differ;
  for (int64_t d = 0; d < from.rank(); ++d)
    if (from.axis(d) != tiling.axis(d))
      differ.push_back(d);
  if (differ.size() == 2) {
    int64_t a = differ[0], b = differ[1];
    if (!from.axis(a).split())
      std::swap(a, b);
    // Split along a, moving to b.
    if (from.axis(a).split() && !from.axis(b).split() &&
        !tiling.axis(a).split() && tiling.axis(b) == from.axis(a)) {
      spmd::Groups groups = spmd::groupsAcross(
          partitions, from.without(a).allAxes(), {from.axis(a)});
      if (!groups.empty()) {
        Value moved = collectives.moveSplit(builder, loc, value, a, b, groups);
        record(moved, tiling);
        resharded[key] = moved;
        return moved;
      }
    }
  }
  // Otherwise: all-gather every split that differs, then cut the tiles
  // that are missing.
  spmd::Tiling gathered = from;
  for (int64_t d : differ) {
    if (!gathered.axis(d).split())
      continue;
    spmd::Tiling rest = gathered.without(d);
    std::pair<void *, std::string> partKey = {value.getAsOpaquePointer(),
                                              rest.str()};
    if (auto it = resharded.find(partKey); it != resharded.end()) {
      now = it->second;
    } else {
      spmd::Groups groups =
          spmd::groupsAcross(partitions, rest.allAxes(), {gathered.axis(d)});
      now = collectives.allGather(builder, loc, now, d, groups);
      record(now, rest);
      resharded[partKey] = now;
    }
    gathered = rest;
  }
  if (gathered != tiling) {
    // The dimensions still to cut: a tile of the gathered value.
    spmd::Tiling cut = spmd::Tiling::replicated(tiling.rank(), partitions);
    for (int64_t d : differ)
      cut.set(d, tiling.axis(d));
    now = collectives.localTile(builder, loc, now, cut);
    record(now, tiling);
  }
  resharded[key] = now;
  return now;
}

Value SpmdPartitioner::reshardTuple(OpBuilder &builder, Location loc,
                                    Value tuple,
                                    ArrayRef<spmd::Tiling> tilings) {
  SmallVector<spmd::Tiling> now = leavesOf(tuple);
  if (ArrayRef<spmd::Tiling>(now) == tilings)
    return tuple;
  auto type = cast<TupleType>(tuple.getType());
  SmallVector<Value> elements;
  for (auto [i, elementType] : llvm::enumerate(type.getTypes())) {
    OperationState state(loc, "hlo.get_tuple_element");
    state.addOperands(tuple);
    state.addTypes(elementType);
    state.addAttribute("index", builder.getI64IntegerAttr(i));
    Value element = builder.create(state)->getResult(0);
    record(element, now[i]);
    elements.push_back(reshard(builder, loc, element, tilings[i]));
  }
  OperationState state(loc, "hlo.tuple");
  state.addOperands(elements);
  state.addTypes(
      TupleType::get(builder.getContext(), ValueRange(elements).getTypes()));
  Value result = builder.create(state)->getResult(0);
  leaves[result] = SmallVector<spmd::Tiling>(tilings);
  return result;
}

void SpmdPartitioner::exchangeHalo(Operation *op, int64_t d,
                                   const spmd::Axis &axis, int64_t index,
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
  // The neighbours along the split: the groups across its tiles.
  spmd::Tiling tiling = current(local);
  spmd::Groups groups =
      spmd::groupsAcross(partitions, tiling.without(d).allAxes(), {axis});
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
  // The first tile's low halo and the last one's high halo come from no
  // partition: a collective-permute gives zeros there, which is a
  // convolution's padding; a reduce-window's is its init value.
  auto atEnd = [&](Value halo, int64_t tile) -> Value {
    if (!edge)
      return halo;
    auto haloType = cast<RankedTensorType>(halo.getType());
    auto i32 = RankedTensorType::get({}, builder.getI32Type());
    Value which = hlo::ConstantOp::create(
        builder, loc,
        DenseElementsAttr::get(i32,
                               builder.getI32IntegerAttr(tile).getValue()));
    Value isEnd =
        hlo::CompareOp::create(builder, loc, hlo::ComparisonDirection::EQ,
                               collectives.tileIndex(builder, loc, axis), which,
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
    parts.push_back(atEnd(
        collectives.shift(builder, loc, rows(block - low, block), 1, groups),
        0));
  parts.push_back(local);
  if (high > 0)
    parts.push_back(
        atEnd(collectives.shift(builder, loc, rows(0, high), -1, groups),
              axis.tiles - 1));
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
  // The state keeps the tilings of the loop's operands: the regions' block
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
  FailureOr<spmd::Tiling> t = target(op);
  if (failed(t))
    return failure();
  Plan p = plan(op, *t);
  OpBuilder builder(op);
  for (unsigned i = 0; i < op->getNumOperands(); ++i) {
    Value operand = op->getOperand(i);
    if (!p.operands[i])
      continue;
    // A tuple with split elements meets an op without a rule for it.
    Value local = isa<TupleType>(operand.getType())
                      ? reshardTuple(builder, op->getLoc(), operand,
                                     replicatedLeaves(operand))
                      : reshard(builder, op->getLoc(), operand, *p.operands[i]);
    if (local != operand)
      op->setOperand(i, local);
  }
  if (auto gather = dyn_cast<hlo::GatherOp>(op)) {
    // Split passthrough dimensions gather slices of the tile's size.
    SmallVector<int64_t> sizes(gather.getSliceSizes());
    for (int64_t d = 0; d < p.operands[0]->rank(); ++d)
      sizes[d] /= p.operands[0]->axis(d).tiles;
    gather.setSliceSizes(sizes);
  }
  Value scatterInput;
  if (p.zeroInit) {
    scatterInput = op->getOperand(0);
    auto type = cast<RankedTensorType>(scatterInput.getType());
    auto scalar = RankedTensorType::get({}, type.getElementType());
    Value zero = hlo::ConstantOp::create(
        builder, op->getLoc(),
        DenseElementsAttr::get(scalar,
                               builder.getZeroAttr(type.getElementType())));
    op->setOperand(
        0, hlo::BroadcastInDimOp::create(builder, op->getLoc(), type, zero,
                                         builder.getDenseI64ArrayAttr({})));
  }
  if (auto conv = dyn_cast<hlo::ConvolutionOp>(op); conv && p.halo >= 0) {
    auto dims = conv.getDimensionNumbers();
    int64_t input = dims.getInputSpatial()[p.halo];
    exchangeHalo(op, input, p.result->axis(dims.getOutputSpatial()[p.halo]),
                 p.halo, dims.getInputSpatial().size(), Value());
  }
  if (auto window = dyn_cast<hlo::ReduceWindowOp>(op); window && p.halo >= 0)
    exchangeHalo(op, p.halo, p.result->axis(p.halo), p.halo,
                 window.getWindowDimensions().size(),
                 window.getInitValues()[0]);
  if (isa<hlo::TupleOp>(op)) {
    op->removeAttr("hlo.sharding");
    SmallVector<spmd::Tiling> tilings;
    for (Value operand : op->getOperands())
      tilings.push_back(current(operand));
    op->getResult(0).setType(
        TupleType::get(op->getContext(), op->getOperandTypes()));
    leaves[op->getResult(0)] = tilings;
    return success();
  }
  op->removeAttr("hlo.sharding");
  if (!p.result)
    return success();
  Value result = op->getResult(0);
  if (auto element = dyn_cast<hlo::GetTupleElementOp>(op))
    // The element's type is the (partitioned) tuple's.
    result.setType(cast<TupleType>(element->getOperand(0).getType())
                       .getType(element.getIndex()));
  else
    result.setType(p.result->local(cast<RankedTensorType>(result.getType())));
  if (auto constant = dyn_cast<hlo::ConstantOp>(op))
    constant.setValueAttr(
        SplatElementsAttr::get(cast<ShapedType>(result.getType()),
                               cast<SplatElementsAttr>(constant.getValue())
                                   .getSplatValue<Attribute>()));
  record(result, *p.result);
  if (auto iota = dyn_cast<hlo::IotaOp>(op);
      iota && p.result->axis(iota.getIotaDimension()).split()) {
    // The tile's iota plus its first index: tile index x tile size.
    auto type = cast<RankedTensorType>(result.getType());
    int64_t d = iota.getIotaDimension();
    builder.setInsertionPointAfter(op);
    Location loc = op->getLoc();
    auto i32 = RankedTensorType::get({}, builder.getI32Type());
    Value size = hlo::ConstantOp::create(
        builder, loc,
        DenseElementsAttr::get(
            i32, builder.getI32IntegerAttr(type.getDimSize(d)).getValue()));
    Value first = hlo::MultiplyOp::create(
        builder, loc, collectives.tileIndex(builder, loc, p.result->axis(d)),
        size);
    Value start = hlo::ConvertOp::create(
        builder, loc, RankedTensorType::get({}, type.getElementType()), first);
    Value offsets = hlo::BroadcastInDimOp::create(
        builder, loc, type, start, builder.getDenseI64ArrayAttr({}));
    Value counted = hlo::AddOp::create(builder, loc, result, offsets);
    result.replaceAllUsesExcept(counted, counted.getDefiningOp());
    record(counted, *p.result);
    return success(); // an iota's tile is its annotated tiling
  }
  if (!p.partial && *p.result == *t)
    return success();
  // Complete the result (all-reduce) and move it to its annotated tiling;
  // the ops after `op` use the end of that chain.
  Operation *next = op->getNextNode();
  builder.setInsertionPointAfter(op);
  Value last = result;
  if (p.partial) {
    last = collectives.allReduce(builder, op->getLoc(), last, p.combiner,
                                 p.groups);
    if (scatterInput)
      last = hlo::AddOp::create(builder, op->getLoc(), scatterInput, last);
    record(last, *p.result);
  }
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
    if (!text || !isa<RankedTensorType>(arg.getType()))
      continue;
    std::string why;
    FailureOr<spmd::Tiling> tiling =
        spmd::parseTiling(text.getValue(), arg.getType(), partitions, why);
    if (failed(tiling))
      return func.emitOpError()
             << "tpuc-spmd-partition: cannot partition parameter "
             << arg.getArgNumber() << " by sharding " << text.getValue() << ": "
             << why;
    arg.setType(tiling->local(cast<RankedTensorType>(arg.getType())));
    record(arg, *tiling);
  }
  SmallVector<Type> globalResults(func.getResultTypes());
  Operation *ret = body.getTerminator();
  if (failed(visitBlock(body)))
    return failure();
  OpBuilder builder(ret);
  for (unsigned i = 0; i < ret->getNumOperands(); ++i) {
    Value value = ret->getOperand(i);
    spmd::Tiling wanted = replicated(value);
    if (auto text = func.getResultAttrOfType<StringAttr>(i, "hlo.sharding")) {
      std::string why;
      FailureOr<spmd::Tiling> tiling =
          spmd::parseTiling(text.getValue(), globalResults[i], partitions, why);
      if (failed(tiling))
        return func.emitOpError()
               << "tpuc-spmd-partition: cannot partition result " << i
               << " by sharding " << text.getValue() << ": " << why;
      wanted = *tiling;
    }
    ret->setOperand(i, reshard(builder, ret->getLoc(), value, wanted));
    func.setResultAttr(i, "hlo.sharding",
                       StringAttr::get(func.getContext(), wanted.str()));
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
