//===- BufferAssignment.cpp - HBM buffers of an hlo program ---------------===//

#include "compiler/analysis/BufferAssignment.h"

#include "compiler/analysis/HeapSimulator.h"
#include "compiler/analysis/Immediates.h"
#include "dialects/hlo/HloOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;

namespace tpuc::analysis {

const char *allocationKindName(AllocationKind kind) {
  switch (kind) {
  case AllocationKind::Parameter:
    return "Parameter";
  case AllocationKind::Constant:
    return "Global";
  case AllocationKind::Temp:
    return "HLO temp";
  case AllocationKind::Output:
    return "Output";
  }
  return "";
}

SourceInfo sourceInfo(Location loc) {
  SourceInfo info;
  SmallVector<NameLoc, 2> names;
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location part : fused.getLocations())
      if (auto name = dyn_cast<NameLoc>(part))
        names.push_back(name);
    if (auto type = dyn_cast_or_null<StringAttr>(fused.getMetadata()))
      info.opType = type.str();
  } else if (auto name = dyn_cast<NameLoc>(loc)) {
    names.push_back(name);
  }
  if (!names.empty())
    info.instruction = names[0].getName().str();
  if (names.size() > 1)
    info.opName = names[1].getName().str();
  return info;
}

namespace {

/// Physical dims, major to minor.
SmallVector<int64_t> physicalDims(RankedTensorType type,
                                  const layout::TiledLayout &layout) {
  SmallVector<int64_t> dims;
  for (int64_t d : llvm::reverse(layout.minorToMajor))
    dims.push_back(type.getDimSize(d));
  return dims;
}

/// Whether `to` reads the bytes of `from` unchanged: same tiles, the same
/// two minor-most physical dims, and the major dims only split or merged.
bool isBitcast(RankedTensorType fromType, const layout::TiledLayout &from,
               RankedTensorType toType, const layout::TiledLayout &to) {
  if (from.tiles != to.tiles ||
      fromType.getElementTypeBitWidth() != toType.getElementTypeBitWidth() ||
      fromType.getNumElements() != toType.getNumElements())
    return false;
  SmallVector<int64_t> a = physicalDims(fromType, from);
  SmallVector<int64_t> b = physicalDims(toType, to);
  while (a.size() < 2)
    a.insert(a.begin(), 1);
  while (b.size() < 2)
    b.insert(b.begin(), 1);
  return a.back() == b.back() && a[a.size() - 2] == b[b.size() - 2];
}

/// Whether `transpose` moves no byte: the operand in its layout and the
/// result in its own are the same physical array (tpuc-normalize-layouts'
/// view of a permuted argument in row-major order).
bool isTransposeBitcast(hlo::TransposeOp transpose,
                        const layout::TiledLayout &from,
                        const layout::TiledLayout &to) {
  return from.tiles == to.tiles &&
         layout::isTransposeBitcast(transpose.getPermutation(),
                                    from.minorToMajor, to.minorToMajor);
}

class Planner {
public:
  Planner(func::FuncOp entry, const target::TargetSpec &target)
      : entry(entry), target(target) {}
  FailureOr<MemoryPlan> run();

private:
  struct ValueInfo {
    Value value;
    layout::TiledLayout layout;
    layout::ByteSizes sizes;
    int64_t def = 0, lastUse = 0;
  };
  struct SetInfo {
    int64_t start = 0, end = 0;
    bool param = false, constant = false, output = false;
  };

  LogicalResult track(Value value, int64_t step);
  void use(Value value, int64_t step);
  LogicalResult schedule(Block &block);
  int find(int v);
  void unite(int a, int b);
  void tryShare(Value from, Value to, bool allowParam);
  void shareViews();
  void shareNextState(hlo::WhileOp loop, unsigned i);
  void shareInputOutputAliases();

  func::FuncOp entry;
  const target::TargetSpec &target;
  llvm::DenseMap<Value, int> index;
  std::vector<ValueInfo> values;
  std::vector<int> parent;
  std::vector<SetInfo> sets;
  std::vector<Operation *> scheduled;
  int64_t step = 0;
};

LogicalResult Planner::track(Value value, int64_t at) {
  if (!isa<RankedTensorType>(value.getType()))
    return success(); // tuples are views of their elements
  if (isReadOnlyAsImmediate(value))
    return success(); // in registers, like the lowering reads it
  std::string error;
  FailureOr<layout::DeviceBytes> bytes =
      layout::deviceBytes(value, target.tiling, error);
  if (failed(bytes)) {
    if (error.empty())
      return failure();
    return emitError(value.getLoc())
           << "cannot size " << value.getType() << ": " << error;
  }
  index[value] = values.size();
  values.push_back({value, bytes->layout, bytes->sizes, at, at});
  parent.push_back(parent.size());
  return success();
}

void Planner::use(Value value, int64_t at) {
  auto it = index.find(value);
  if (it != index.end())
    values[it->second].lastUse = std::max(values[it->second].lastUse, at);
}

LogicalResult Planner::schedule(Block &block) {
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      for (Value operand : op.getOperands())
        use(operand, step);
      continue;
    }
    int64_t at = ++step;
    scheduled.push_back(&op);
    // Operands, including those a nested region reads from above.
    op.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        use(operand, at);
    });
    for (Value result : op.getResults())
      if (failed(track(result, at)))
        return failure();
    // The bodies of loops and conditionals run as their ops; other regions
    // (fusions, reducers, comparators) are part of their op.
    if (!isa<hlo::WhileOp, hlo::ConditionalOp>(op))
      continue;
    for (Region &region : op.getRegions()) {
      for (BlockArgument arg : region.getArguments())
        if (failed(track(arg, at)))
          return failure();
      for (Block &nested : region)
        if (failed(schedule(nested)))
          return failure();
    }
  }
  return success();
}

int Planner::find(int v) {
  while (parent[v] != v)
    v = parent[v] = parent[parent[v]];
  return v;
}

void Planner::unite(int a, int b) {
  a = find(a);
  b = find(b);
  if (a == b)
    return;
  if (b < a)
    std::swap(a, b);
  parent[b] = a;
  sets[a].start = std::min(sets[a].start, sets[b].start);
  sets[a].end = std::max(sets[a].end, sets[b].end);
  sets[a].param |= sets[b].param;
  sets[a].constant |= sets[b].constant;
  sets[a].output |= sets[b].output;
}

/// `to` reuses the memory of `from` when `from` (and everything sharing its
/// memory) is dead by the time `to` is written.
void Planner::tryShare(Value from, Value to, bool allowParam) {
  auto f = index.find(from), t = index.find(to);
  if (f == index.end() || t == index.end())
    return;
  int a = find(f->second), b = find(t->second);
  if (a == b || sets[a].constant || sets[b].constant || sets[b].param ||
      (sets[a].param && !allowParam) ||
      values[f->second].sizes.padded != values[t->second].sizes.padded)
    return;
  if (sets[a].end <= sets[b].start)
    unite(a, b);
}

void Planner::shareViews() {
  auto tracked = [&](Value v) { return index.count(v) != 0; };
  for (Operation *op : scheduled) {
    if (isa<hlo::ReshapeOp, hlo::BitcastConvertOp>(op)) {
      Value from = op->getOperand(0), to = op->getResult(0);
      if (!tracked(from) || !tracked(to))
        continue;
      const ValueInfo &a = values[index[from]], &b = values[index[to]];
      if (isBitcast(cast<RankedTensorType>(from.getType()), a.layout,
                    cast<RankedTensorType>(to.getType()), b.layout))
        unite(index[from], index[to]);
    } else if (auto transpose = dyn_cast<hlo::TransposeOp>(op)) {
      Value from = transpose.getOperand(), to = transpose.getResult();
      if (tracked(from) && tracked(to) &&
          isTransposeBitcast(transpose, values[index[from]].layout,
                             values[index[to]].layout))
        unite(index[from], index[to]);
    } else if (auto gte = dyn_cast<hlo::GetTupleElementOp>(op)) {
      auto tuple = gte.getOperand().getDefiningOp<hlo::TupleOp>();
      if (tuple && tracked(gte.getResult()) &&
          tracked(tuple.getOperand(gte.getIndex())))
        unite(index[tuple.getOperand(gte.getIndex())],
              index[gte.getResult()]);
    } else if (auto dus = dyn_cast<hlo::DynamicUpdateSliceOp>(op)) {
      tryShare(dus.getOperand(), dus.getResult(), /*allowParam=*/false);
    } else if (auto loop = dyn_cast<hlo::WhileOp>(op)) {
      // The loop state is one buffer per element: result, cond and body
      // arguments; the initial value moves in when it dies at the loop.
      for (auto [i, result] : llvm::enumerate(loop.getResults())) {
        if (!tracked(result))
          continue;
        for (Region *region : {&loop.getCond(), &loop.getBody()})
          unite(index[result], index[region->getArgument(i)]);
        tryShare(loop->getOperand(i), result, /*allowParam=*/false);
      }
      for (auto [i, result] : llvm::enumerate(loop.getResults()))
        if (tracked(result))
          shareNextState(loop, i);
    }
  }
}

/// The body's next value of state element `i` is written straight into the
/// state buffer (the lowering's `updateInPlace`, passes/HloToTpu/
/// ControlFlow.cpp) when nothing in the body reads the old state from the
/// first write of the next value's buffer on, but that write itself when it
/// is a dynamic_update_slice of the old state (a scan's in-place update).
void Planner::shareNextState(hlo::WhileOp loop, unsigned i) {
  Block &body = loop.getBody().front();
  Operation *yield = body.getTerminator();
  Value next = yield->getOperand(i), state = body.getArgument(i);
  auto n = index.find(next), s = index.find(state);
  if (n == index.end() || s == index.end() || next.getParentBlock() != &body ||
      isa<BlockArgument>(next) || llvm::count(yield->getOperands(), next) != 1 ||
      llvm::is_contained(yield->getOperands(), state))
    return;
  int a = find(s->second), b = find(n->second);
  if (a == b || sets[b].param || sets[b].constant || sets[b].output ||
      values[s->second].sizes.padded != values[n->second].sizes.padded)
    return;
  // The first step that writes the next value's buffer, and its op (step 0
  // holds only entry arguments, which are parameters and excluded above).
  int64_t firstWrite = sets[b].start;
  if (firstWrite < 1)
    return;
  Operation *writer = scheduled[firstWrite - 1];
  auto dus = dyn_cast<hlo::DynamicUpdateSliceOp>(writer);
  bool inPlace = dus && index.count(dus.getOperand()) &&
                 find(index[dus.getOperand()]) == a &&
                 llvm::none_of(dus->getOperands().drop_front(), [&](Value v) {
                   return index.count(v) && find(index[v]) == a;
                 });
  // The old state's readers in the body: its argument and the views of it
  // the body makes (the loop's result and the condition read it elsewhere).
  for (auto [k, v] : llvm::enumerate(values)) {
    if (find(k) != a || !body.getParent()->isAncestor(v.value.getParentRegion()))
      continue;
    if (v.lastUse > firstWrite || (v.lastUse == firstWrite && !inPlace))
      return;
  }
  unite(a, b);
}

void Planner::shareInputOutputAliases() {
  Operation *ret = entry.getBody().front().getTerminator();
  for (hlo::InputOutputAliasAttr alias :
       hlo::getInputOutputAliases(entry->getParentOfType<ModuleOp>()))
    if (alias.isWholeParameter())
      tryShare(entry.getArgument(alias.getParameterNumber()),
               ret->getOperand(alias.getResultNumber()),
               /*allowParam=*/true);
}

FailureOr<MemoryPlan> Planner::run() {
  Block &body = entry.getBody().front();
  for (BlockArgument arg : body.getArguments())
    if (failed(track(arg, 0)))
      return failure();
  if (failed(schedule(body)))
    return failure();
  int64_t exit = step + 1;
  for (const ValueInfo &v : values) {
    SetInfo set{v.def, std::max(v.def, v.lastUse)};
    set.param = isa<BlockArgument>(v.value) &&
                cast<BlockArgument>(v.value).getOwner() == &body;
    set.constant = v.value.getDefiningOp<hlo::ConstantOp>() != nullptr;
    sets.push_back(set);
  }
  for (Value result : body.getTerminator()->getOperands()) {
    auto it = index.find(result);
    if (it == index.end())
      continue;
    values[it->second].lastUse = exit;
    int root = find(it->second);
    sets[root].output = true;
    sets[root].end = exit;
  }
  shareViews();
  shareInputOutputAliases();

  MemoryPlan plan;
  plan.targetName = target.machine.name();
  if (auto remat = entry->getParentOfType<ModuleOp>()->getAttrOfType<DictionaryAttr>(
          "tpuc.remat")) {
    auto get = [&](StringRef key) {
      auto value = remat.getAs<IntegerAttr>(key);
      return value ? value.getInt() : 0;
    };
    plan.remat.values = get("values");
    plan.remat.bytes = get("bytes");
    plan.remat.trafficBytes = get("traffic_bytes");
    for (Operation *op : scheduled)
      if (op->hasAttr("tpuc.rematerialized"))
        plan.remat.names.push_back(sourceInfo(op->getLoc()).instruction);
  }
  plan.numSteps = step;
  plan.capacityBytes = target.machine.hbm_bytes();
  plan.reservedBytes = target.machine.hbm_reserved_bytes();
  plan.limitBytes = target::usableHbmBytes(target.machine);
  // One allocation per set, shown through its largest (then first) value.
  llvm::DenseMap<int, size_t> allocationOf;
  for (auto [i, v] : llvm::enumerate(values)) {
    int root = find(i);
    auto [it, inserted] = allocationOf.try_emplace(root, plan.allocations.size());
    if (inserted)
      plan.allocations.emplace_back();
    plan.allocationOf[v.value] = it->second;
    Allocation &a = plan.allocations[it->second];
    if (!inserted && v.sizes.padded <= a.paddedBytes)
      continue;
    const SetInfo &set = sets[root];
    a.value = v.value;
    a.name = sourceInfo(v.value.getLoc()).instruction;
    if (a.name.empty())
      a.name = "value." + std::to_string(i);
    a.layout = v.layout;
    a.shape = layout::xlaShape(cast<RankedTensorType>(v.value.getType()),
                               v.layout);
    a.unpaddedBytes = v.sizes.unpadded;
    a.paddedBytes = v.sizes.padded;
    a.kind = set.param      ? AllocationKind::Parameter
             : set.constant ? AllocationKind::Constant
             : set.output   ? AllocationKind::Output
                            : AllocationKind::Temp;
    // Arguments and constants live for the whole program.
    bool whole = set.param || set.constant;
    a.start = whole ? 0 : set.start;
    a.end = whole ? exit : set.end;
    a.sharesWithParameter = set.param && set.output;
  }

  std::vector<HeapInterval> intervals;
  std::vector<size_t> inHeap;
  int64_t align = std::max<int64_t>(target.hbmAlignment, 1);
  for (auto [i, a] : llvm::enumerate(plan.allocations)) {
    if (a.kind == AllocationKind::Temp || a.kind == AllocationKind::Output) {
      intervals.push_back({a.paddedBytes, a.start, a.end});
      inHeap.push_back(i);
    } else {
      int64_t &total = a.kind == AllocationKind::Parameter
                           ? plan.argumentBytes
                           : plan.globalBytes;
      a.offset = total;
      total += llvm::alignTo(a.paddedBytes, align);
    }
    if (a.kind == AllocationKind::Output ||
        (a.kind == AllocationKind::Parameter && a.sharesWithParameter)) {
      plan.outputBytes += a.paddedBytes;
      if (a.sharesWithParameter)
        plan.outputSharedBytes += a.paddedBytes;
    }
  }
  HeapAssignment heap = simulateHeap(intervals, align);
  for (auto [k, i] : llvm::enumerate(inHeap))
    plan.allocations[i].offset = heap.offsets[k];
  plan.heapBytes = heap.heapSize;
  plan.heapOrdering = heap.ordering;
  plan.lowerBoundBytes = livenessLowerBound(intervals);

  // Live heap bytes per step, for the peak and the memory viewer.
  std::vector<int64_t> padded(exit + 2, 0), unpadded(exit + 2, 0);
  for (size_t i : inHeap) {
    const Allocation &a = plan.allocations[i];
    padded[a.start] += a.paddedBytes;
    padded[a.end + 1] -= a.paddedBytes;
    unpadded[a.start] += a.unpaddedBytes;
    unpadded[a.end + 1] -= a.unpaddedBytes;
  }
  int64_t livePadded = 0, liveUnpadded = 0;
  for (int64_t s = 0; s <= exit; ++s) {
    livePadded += padded[s];
    liveUnpadded += unpadded[s];
    plan.livePadded.push_back(livePadded);
    plan.liveUnpadded.push_back(liveUnpadded);
    if (livePadded > plan.livePadded[plan.peakStep])
      plan.peakStep = s;
  }
  plan.unpaddedPeakBytes = plan.liveUnpadded[plan.peakStep];
  return plan;
}

} // namespace

FailureOr<MemoryPlan> planMemory(ModuleOp module,
                                 const target::TargetSpec &target) {
  func::FuncOp entry = hlo::entryFunction(module);
  if (!entry || entry.getBody().empty())
    return emitError(module.getLoc()) << "no entry function to plan";
  return Planner(entry, target).run();
}

} // namespace tpuc::analysis
