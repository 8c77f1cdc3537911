//===- ScheduleBundles.cpp - straight-line vector code, interleaved -------===//
//
// tpuc-schedule-bundles: list scheduling of the kernels' straight-line
// vector code for the machine's VLIW bundles. See Passes.td for the
// contract.
//
//===----------------------------------------------------------------------===//

#include "passes/InductionVar.h"
#include "passes/Passes.h"

#include "dialects/tpu/TpuDialect.h"
#include "dialects/tpu/TpuOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

namespace tpuc {
#define GEN_PASS_DEF_SCHEDULEBUNDLES
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

// The bundle's slots the schedule fills (docs/isa.md, "Timing"); scalar
// arithmetic mostly folds into operands (register + immediate) and is not
// counted.
enum SlotKind { kNoSlot, kValu, kLoad, kStore };
constexpr int kSlotWidth[] = {0, 2, 1, 1};
// The vector registers (docs/isa.md) and those the schedule leaves to the
// allocator beyond the segment's live-in values (its reloads); it keeps at
// least kMinLiveVregs of its own values live before it falls back to
// program order.
constexpr int kVectorRegs = 32, kSpareVregs = 4, kMinLiveVregs = 8;
// How far past the earliest unplaced op the schedule looks, and the most
// ops it reorders as one segment (compile time).
constexpr int kWindow = 256;
constexpr size_t kMaxSegmentOps = 2048;

/// The VMEM bytes one vload/vstore touches (offsets are bytes, as the
/// ISA's addresses), in `region`: the overlay region every step's arenas
/// view, one other alloc, or null (unknown). [begin, end) is relative to
/// `symbol` (null: absolute); [lo, hi) bounds the bytes whatever the
/// symbol's value (`bounded`).
struct Access {
  Operation *region = nullptr;
  Value symbol;
  int64_t begin = 0, end = 0;
  bool bounded = false;
  int64_t lo = 0, hi = 0;
  bool write = false;
};

bool mayAlias(const Access &a, const Access &b) {
  if (!a.region || !b.region)
    return true;
  if (a.region != b.region)
    return false;
  if (a.symbol == b.symbol)
    return a.begin < b.end && b.begin < a.end;
  if (a.bounded && b.bounded)
    return a.lo < b.hi && b.lo < a.hi;
  return true;
}

/// [lo, hi] of an index value when its ops give one: constants, a tpu.loop's
/// induction variable, sums, differences, products, and remainders and
/// quotients by positive constants.
struct Interval {
  int64_t lo, hi;
};

std::optional<Interval> rangeOf(Value v, int depth = 0) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return Interval{*c, *c};
  if (depth > 8)
    return std::nullopt;
  if (isa<BlockArgument>(v)) {
    std::optional<int64_t> trips = inductionVarTrips(v);
    return trips ? std::optional<Interval>(Interval{0, *trips - 1})
                 : std::nullopt;
  }
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumOperands() != 2 ||
      !isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::RemSIOp,
           arith::DivSIOp>(def))
    return std::nullopt;
  std::optional<Interval> a = rangeOf(def->getOperand(0), depth + 1);
  std::optional<Interval> b = rangeOf(def->getOperand(1), depth + 1);
  if (!a || !b)
    return std::nullopt;
  using Wide = __int128;
  Wide lo, hi;
  if (isa<arith::AddIOp>(def)) {
    lo = Wide(a->lo) + b->lo;
    hi = Wide(a->hi) + b->hi;
  } else if (isa<arith::SubIOp>(def)) {
    lo = Wide(a->lo) - b->hi;
    hi = Wide(a->hi) - b->lo;
  } else if (isa<arith::MulIOp>(def)) {
    Wide corners[] = {Wide(a->lo) * b->lo, Wide(a->lo) * b->hi,
                      Wide(a->hi) * b->lo, Wide(a->hi) * b->hi};
    lo = *std::min_element(std::begin(corners), std::end(corners));
    hi = *std::max_element(std::begin(corners), std::end(corners));
  } else if (b->lo != b->hi || b->lo <= 0) {
    return std::nullopt;
  } else if (isa<arith::RemSIOp>(def)) {
    int64_t k = b->lo;
    lo = a->lo >= 0 ? 0 : -(k - 1);
    hi = a->hi <= 0 ? 0 : std::min<int64_t>(std::max<int64_t>(a->hi, 0), k - 1);
  } else {
    lo = a->lo / b->lo;
    hi = a->hi / b->lo;
  }
  constexpr Wide kLimit = Wide(1) << 60;
  if (lo < -kLimit || hi > kLimit)
    return std::nullopt;
  return Interval{static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
}

/// `value` as symbol + constant (arith.addi chains of constants).
std::pair<Value, int64_t> splitOffset(Value value) {
  int64_t constant = 0;
  while (true) {
    if (std::optional<int64_t> c = getConstantIntValue(value))
      return {Value(), constant + *c};
    auto add = value.getDefiningOp<arith::AddIOp>();
    if (!add)
      return {value, constant};
    if (std::optional<int64_t> rhs = getConstantIntValue(add.getRhs())) {
      constant += *rhs;
      value = add.getLhs();
    } else if (std::optional<int64_t> lhs =
                   getConstantIntValue(add.getLhs())) {
      constant += *lhs;
      value = add.getRhs();
    } else {
      return {value, constant};
    }
  }
}

std::optional<Access> accessOf(Operation *op) {
  Value base, offset;
  int64_t stride = 0;
  bool write = false;
  if (auto load = dyn_cast<tpu::VLoadOp>(op)) {
    base = load.getBase();
    offset = load.getOffset();
    stride = load.getSublaneStride();
  } else if (auto store = dyn_cast<tpu::VStoreOp>(op)) {
    base = store.getBase();
    offset = store.getOffset();
    stride = store.getSublaneStride();
    write = true;
  } else {
    return std::nullopt;
  }
  auto type = cast<MemRefType>(base.getType());
  Access a;
  a.write = write;
  int64_t elem = type.getElementTypeBitWidth() / 8;
  int64_t regionOffset = 0;
  if (auto alloc = base.getDefiningOp<tpu::AllocOp>()) {
    a.region = alloc;
    if (auto overlay =
            alloc->getAttrOfType<IntegerAttr>(tpu::kOverlayAttrName)) {
      regionOffset = overlay.getInt();
      a.region = alloc->getParentOp();
    }
  }
  if (stride < 0) {
    a.region = nullptr;
    return a;
  }
  auto [symbol, constant] = splitOffset(offset);
  int64_t extent = stride > 0 ? 7 * stride + 128 * elem : 8 * 128 * elem;
  a.symbol = symbol;
  a.begin = regionOffset + constant;
  a.end = a.begin + extent;
  if (std::optional<Interval> range = rangeOf(offset)) {
    a.bounded = true;
    a.lo = regionOffset + range->lo;
    a.hi = regionOffset + range->hi + extent;
  }
  return a;
}

SlotKind slotOf(Operation *op) {
  if (isa<tpu::VLoadOp>(op))
    return kLoad;
  if (isa<tpu::VStoreOp>(op))
    return kStore;
  if (isa<tpu::TpuDialect>(op->getDialect()))
    return kValu;
  return kNoSlot;
}

/// Ops the schedule may move: pure ops, VMEM loads and stores. Everything
/// else (DMAs, waits, MXU ops, loops, collectives) ends a segment.
bool isMovable(Operation *op) {
  if (op->getNumRegions() != 0 || op->hasTrait<OpTrait::IsTerminator>())
    return false;
  if (isa<tpu::VLoadOp, tpu::VStoreOp>(op))
    return true;
  // Multi-register blocks (transposes) are left where the code generator
  // put them: the allocator needs their consecutive registers free.
  if (isa<tpu::VTransposeOp>(op))
    return false;
  return isPure(op);
}

bool isVreg(Value v) { return isa<VectorType>(v.getType()); }

/// Schedules ops [0, n) of one segment; returns the new order.
SmallVector<Operation *> scheduleSegment(ArrayRef<Operation *> ops) {
  int n = static_cast<int>(ops.size());
  llvm::DenseMap<Operation *, int> index;
  for (int i = 0; i < n; ++i)
    index[ops[i]] = i;
  // Predecessors: operands defined in the segment, and earlier accesses
  // that may alias (a store with anything, loads with stores).
  std::vector<SmallVector<int, 4>> preds(n);
  std::vector<std::optional<Access>> access(n);
  SmallVector<int> accesses;
  for (int i = 0; i < n; ++i) {
    for (Value operand : ops[i]->getOperands())
      if (Operation *def = operand.getDefiningOp())
        if (auto it = index.find(def); it != index.end())
          preds[i].push_back(it->second);
    access[i] = accessOf(ops[i]);
    if (!access[i])
      continue;
    for (int j : accesses)
      if ((access[i]->write || access[j]->write) &&
          mayAlias(*access[i], *access[j]))
        preds[i].push_back(j);
    accesses.push_back(i);
  }
  // A vector value's remaining uses in the segment (-1: used beyond it,
  // live to the end).
  std::vector<int> usesLeft(n, 0);
  for (int i = 0; i < n; ++i)
    for (Value result : ops[i]->getResults()) {
      if (!isVreg(result))
        continue;
      for (Operation *user : result.getUsers()) {
        Operation *inSegment = ops[i]->getBlock()->findAncestorOpInBlock(*user);
        if (!inSegment || !index.count(inSegment)) {
          usesLeft[i] = -1;
          break;
        }
        ++usesLeft[i];
      }
    }
  // The vector values the segment reads from before it: they hold their
  // registers throughout.
  llvm::SmallPtrSet<void *, 16> liveIn;
  for (Operation *op : ops)
    for (Value operand : op->getOperands())
      if (isVreg(operand) && !index.count(operand.getDefiningOp()))
        liveIn.insert(operand.getAsOpaquePointer());
  int maxLive = std::max<int>(kMinLiveVregs, kVectorRegs - kSpareVregs -
                                                 static_cast<int>(liveIn.size()));
  // Cycle by cycle: fill the bundle with ready ops in program order (an op
  // is ready once its predecessors are placed in an earlier bundle, or in
  // this one if they take no slot).
  std::vector<int64_t> placedAt(n, -1);
  SmallVector<Operation *> order;
  int live = 0, first = 0;
  for (int64_t cycle = 0; first < n; ++cycle) {
    int used[4] = {0, 0, 0, 0};
    for (int i = first, stop = std::min(n, first + kWindow); i < stop; ++i) {
      if (placedAt[i] >= 0)
        continue;
      SlotKind slot = slotOf(ops[i]);
      if (slot != kNoSlot && used[slot] == kSlotWidth[slot])
        continue;
      bool ready = true;
      for (int p : preds[i])
        ready = ready && placedAt[p] >= 0 &&
                (placedAt[p] < cycle || slotOf(ops[p]) == kNoSlot);
      if (!ready)
        continue;
      bool defines = llvm::any_of(ops[i]->getResults(), isVreg);
      if (defines && live >= maxLive && i != first)
        continue;
      placedAt[i] = cycle;
      order.push_back(ops[i]);
      if (slot != kNoSlot)
        ++used[slot];
      if (defines)
        ++live;
      for (Value operand : ops[i]->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (auto it = index.find(def);
              it != index.end() && isVreg(operand) &&
              usesLeft[it->second] > 0 && --usesLeft[it->second] == 0)
            --live;
      if (defines && usesLeft[i] == 0)
        --live;
      while (first < n && placedAt[first] >= 0)
        ++first;
    }
  }
  return order;
}

void scheduleBlock(Block &block) {
  SmallVector<Operation *> segment;
  auto flush = [&](Operation *before) {
    if (segment.size() > 2)
      for (Operation *op : scheduleSegment(segment))
        op->moveBefore(before);
    segment.clear();
  };
  for (Operation &op : llvm::make_early_inc_range(block)) {
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        scheduleBlock(inner);
    if (isMovable(&op)) {
      // Long runs are scheduled in pieces: the memory order check is
      // quadratic in a segment's accesses.
      if (segment.size() == kMaxSegmentOps)
        flush(&op);
      segment.push_back(&op);
      continue;
    }
    flush(&op);
  }
  // A block without terminator ends with its last op: keep its tail.
  if (!segment.empty()) {
    Operation *last = segment.back();
    Operation *anchor = last->getNextNode();
    if (anchor)
      flush(anchor);
    else
      segment.clear();
  }
}

class ScheduleBundlesPass
    : public impl::ScheduleBundlesBase<ScheduleBundlesPass> {
public:
  void runOnOperation() override {
    for (Region &region : getOperation()->getRegions())
      for (Block &block : region)
        scheduleBlock(block);
  }
};

} // namespace
} // namespace tpuc
