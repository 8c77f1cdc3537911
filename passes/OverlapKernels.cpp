//===- OverlapKernels.cpp - issue a kernel's input DMAs early -------------===//
//
// tpuc-overlap-kernels: see Passes.td for the contract. Each kernel of the
// code generator waits for its DMAs before the next one starts, so a chain
// of small kernels pays the DMA latency twice per kernel. This pass moves
// the leading HBM -> VMEM DMAs of each step's kernels (those issued before
// its first compute, whose completion a wait of that leading run consumes)
// up into the previous step, right after that step's own leading DMAs, when
// nothing in between can tell the difference:
//
//  * VMEM: no op passed touches a byte of the DMA's destination (steps have
//    their own VMEM regions, tpuc-allocate-vmem places neighbours apart);
//  * HBM: no DMA passed writes a buffer the DMA reads: the same memref, or
//    two buffers whose memory-plan ranges (`tpu.plan_offset`) overlap; the
//    source's `tpu.live` is extended to the previous step, so the
//    serializer's heap keeps it apart from everything that step writes;
//  * semaphores: the moved DMA signals one of two semaphores reserved for
//    prefetches (the target's last two, alternating by step), its old wait
//    counts one less, and a wait for all of the step's prefetches goes
//    before the first wait that consumed one of them;
//  * no collective (which needs every DMA retired) or other HBM access is
//    passed; loops, whiles and conditionals of the previous step are passed
//    only when every op inside them passes the checks above.
//
//===----------------------------------------------------------------------===//

#include "passes/ModuleTarget.h"
#include "passes/Passes.h"

#include "dialects/tpu/TpuDialect.h"
#include "dialects/tpu/TpuOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <deque>
#include <optional>

namespace tpuc {
#define GEN_PASS_DEF_OVERLAPKERNELS
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// A byte range [begin, end).
struct Bytes {
  int64_t begin = 0, end = 0;
  bool overlaps(const Bytes &o) const { return begin < o.end && o.begin < end; }
};

/// One step's top-level ops, in order.
struct Step {
  int64_t number = 0;
  SmallVector<Operation *> ops;
};

std::optional<int64_t> constantIndex(Value v) {
  if (auto cst = v.getDefiningOp<arith::ConstantIndexOp>())
    return cst.value();
  return std::nullopt;
}

bool inSpace(Value memref, tpu::MemorySpace space) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  return type && tpu::getMemorySpace(type) == space;
}

/// An upper bound of an HBM array's bytes: 4-byte elements, the two minor
/// dims padded to 128 (rank 1 to 1024, rank 0 one 1024-element tile),
/// whatever its tiled layout (an overestimate only makes more buffers
/// overlap).
int64_t hbmBytesBound(MemRefType type) {
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.size() <= 1)
    return (shape.empty() ? 1024 : llvm::alignTo(shape[0], 1024)) * 4;
  int64_t elems = 1;
  for (auto [i, d] : llvm::enumerate(shape))
    elems *= i + 2 >= shape.size() ? llvm::alignTo(d, 128) : d;
  return elems * 4;
}

class OverlapKernelsPass
    : public impl::OverlapKernelsBase<OverlapKernelsPass> {
public:
  using OverlapKernelsBase::OverlapKernelsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<target::TargetSpec> spec = moduleTarget(module, targetName);
    if (failed(spec))
      return signalPassFailure();
    int64_t sems = spec->machine.num_semaphores();
    if (sems < 3)
      return;
    prefetchSems[0] = static_cast<int>(sems - 2);
    prefetchSems[1] = static_cast<int>(sems - 1);
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        runOnFunction(func);
  }

private:
  int prefetchSems[2] = {30, 31};
  /// Absolute VMEM ranges of the function's VMEM buffers.
  llvm::DenseMap<Value, Bytes> vmemOf;

  static std::optional<int> semaphoreOf(Operation *op) {
    if (auto dma = dyn_cast<tpu::DmaOp>(op))
      return static_cast<int>(dma.getSem());
    if (auto wait = dyn_cast<tpu::SemWaitOp>(op))
      return static_cast<int>(wait.getSem());
    if (auto signal = dyn_cast<tpu::SemSignalOp>(op))
      return static_cast<int>(signal.getSem());
    return std::nullopt;
  }

  bool usesPrefetchSemaphore(Operation *op) {
    std::optional<int> sem = semaphoreOf(op);
    return sem && (*sem == prefetchSems[0] || *sem == prefetchSems[1]);
  }

  /// The VMEM bytes a DMA reads or writes in `memref` at `offset`: exact
  /// for constant offsets, else the whole buffer.
  Bytes dmaRange(Value memref, Value offset, int64_t chunks,
                 int64_t chunkBytes, int64_t stride) {
    Bytes whole = vmemOf.lookup(memref);
    std::optional<int64_t> off = constantIndex(offset);
    if (!off || chunks <= 0)
      return whole;
    int64_t span = (chunks - 1) * stride;
    return {whole.begin + *off + std::min<int64_t>(0, span),
            whole.begin + *off + std::max<int64_t>(0, span) + chunkBytes};
  }

  /// Whether the HBM buffers `a` and `b` may share bytes while both are
  /// live: the same memref, or planned at overlapping heap ranges.
  static bool mayAlias(Value a, Value b) {
    if (a == b)
      return true;
    auto allocA = a.getDefiningOp<tpu::AllocOp>();
    auto allocB = b.getDefiningOp<tpu::AllocOp>();
    if (!allocA || !allocB)
      return false; // parameters and constants have buffers of their own
    auto offA = allocA->getAttrOfType<IntegerAttr>(tpu::kPlanOffsetAttrName);
    auto offB = allocB->getAttrOfType<IntegerAttr>(tpu::kPlanOffsetAttrName);
    if (!offA || !offB)
      return false; // placed by the heap apart from every live buffer
    Bytes ra{offA.getInt(), offA.getInt() + hbmBytesBound(allocA.getType())};
    Bytes rb{offB.getInt(), offB.getInt() + hbmBytesBound(allocB.getType())};
    return ra.overlaps(rb);
  }

  /// Whether `op` (and everything nested in it) may run while `dma`, moved
  /// above it, is in flight.
  bool commutes(Operation *op, tpu::DmaOp dma, const Bytes &dst) {
    WalkResult result = op->walk([&](Operation *inner) {
      if (usesPrefetchSemaphore(inner))
        return WalkResult::interrupt();
      if (auto other = dyn_cast<tpu::DmaOp>(inner)) {
        if (inSpace(other.getDst(), tpu::MemorySpace::hbm) &&
            mayAlias(other.getDst(), dma.getSrc()))
          return WalkResult::interrupt();
        if (inSpace(other.getSrc(), tpu::MemorySpace::vmem) &&
            dmaRange(other.getSrc(), other.getSrcOffset(), other.getChunks(),
                     other.getChunkBytes(), other.getSrcStride())
                .overlaps(dst))
          return WalkResult::interrupt();
        if (inSpace(other.getDst(), tpu::MemorySpace::vmem) &&
            dmaRange(other.getDst(), other.getDstOffset(), other.getChunks(),
                     other.getChunkBytes(), other.getDstStride())
                .overlaps(dst))
          return WalkResult::interrupt();
        return WalkResult::advance();
      }
      for (Value operand : inner->getOperands()) {
        // Collectives and anything else reaching HBM outside a DMA.
        if (inSpace(operand, tpu::MemorySpace::hbm))
          return WalkResult::interrupt();
        if (inSpace(operand, tpu::MemorySpace::vmem) &&
            vmemOf.lookup(operand).overlaps(dst))
          return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return !result.wasInterrupted();
  }

  void runOnFunction(func::FuncOp func) {
    Block &body = func.getBody().front();
    // Nothing else may use the prefetch semaphores.
    if (func.walk([&](Operation *op) {
              return usesPrefetchSemaphore(op) ? WalkResult::interrupt()
                                               : WalkResult::advance();
            })
            .wasInterrupted())
      return;
    tpu::OnChipPlacement placement = tpu::placeOnChipBuffers(func);
    vmemOf.clear();
    func.walk([&](tpu::AllocOp alloc) {
      if (!inSpace(alloc.getResult(), tpu::MemorySpace::vmem))
        return;
      int64_t at = placement.offsets.lookup(alloc.getResult());
      vmemOf[alloc.getResult()] = {at,
                                   at + tpu::getBufferBytes(alloc.getType())};
    });
    SmallVector<Step> steps;
    for (Operation &op : body) {
      if (isa<tpu::AllocOp>(op)) // arenas carry their step too
        continue;
      if (auto step = op.getAttrOfType<IntegerAttr>(tpu::kStepAttrName))
        steps.push_back({step.getInt(), {}});
      if (!steps.empty() && !op.hasTrait<OpTrait::IsTerminator>())
        steps.back().ops.push_back(&op);
    }
    for (size_t i = 1; i < steps.size(); ++i)
      overlap(steps[i - 1], steps[i],
              i + 1 < steps.size() ? steps[i + 1].ops.front()
                                   : body.getTerminator(),
              prefetchSems[i % 2]);
  }

  /// Moves `cur`'s leading input DMAs into `prev`, signalling `sem`.
  /// `end` is the first op after `cur` (the next step's or the return).
  void overlap(Step &prev, Step &cur, Operation *end, int sem) {
    // Where they go: after prev's leading DMAs.
    auto isLeading = [](Operation *op) {
      return isa<tpu::DmaOp, arith::ConstantOp>(op);
    };
    Operation *insertAt = nullptr;
    for (Operation *op : prev.ops)
      if (!isLeading(op)) {
        insertAt = op;
        break;
      }
    if (!insertAt)
      return;

    // cur's leading run: DMAs, waits and ops without memory effects
    // (constants, register splats); which wait consumes each DMA (issue
    // order per semaphore).
    SmallVector<Operation *> prefix;
    llvm::DenseMap<Operation *, tpu::SemWaitOp> consumer;
    llvm::DenseMap<int64_t, std::deque<Operation *>> issued;
    for (Operation *op : cur.ops) {
      if (auto dma = dyn_cast<tpu::DmaOp>(op)) {
        issued[dma.getSem()].push_back(op);
      } else if (auto wait = dyn_cast<tpu::SemWaitOp>(op)) {
        std::deque<Operation *> &queue = issued[wait.getSem()];
        if (static_cast<int64_t>(queue.size()) < wait.getCount())
          break; // consumes DMAs issued before this step: leave it
        for (int64_t n = 0; n < wait.getCount(); ++n) {
          consumer[queue.front()] = wait;
          queue.pop_front();
        }
      } else if (!isa<arith::ConstantOp>(op) &&
                 !(op->getNumRegions() == 0 && isMemoryEffectFree(op))) {
        break; // the step's first access of memory other than by DMA
      }
      prefix.push_back(op);
    }

    // The candidates, in order; each passes prev's ops from insertAt on
    // and cur's ops before it that stay.
    OpBuilder builder(insertAt);
    llvm::MapVector<Operation *, int64_t> waitsLess; // consumer -> moved
    llvm::DenseSet<Operation *> hoisted;
    for (Operation *op : prefix) {
      auto dma = dyn_cast<tpu::DmaOp>(op);
      if (!dma || !consumer.count(op) ||
          !inSpace(dma.getSrc(), tpu::MemorySpace::hbm) ||
          !inSpace(dma.getDst(), tpu::MemorySpace::vmem))
        continue;
      std::optional<int64_t> srcOff = constantIndex(dma.getSrcOffset());
      std::optional<int64_t> dstOff = constantIndex(dma.getDstOffset());
      if (!srcOff || !dstOff)
        continue;
      Bytes dst = dmaRange(dma.getDst(), dma.getDstOffset(), dma.getChunks(),
                           dma.getChunkBytes(), dma.getDstStride());
      bool safe = true;
      // Every op of prev: its leading DMAs are still in flight where the
      // DMA goes (one writing HBM the DMA reads is a race).
      for (size_t k = 0; safe && k < prev.ops.size(); ++k)
        safe = commutes(prev.ops[k], dma, dst);
      for (Operation *before : prefix) {
        if (!safe || before == op)
          break;
        if (!hoisted.contains(before))
          safe = commutes(before, dma, dst);
      }
      if (!safe)
        continue;
      // Move it, with constants of its own, and extend its source's life.
      dma.getSrcOffsetMutable().assign(
          arith::ConstantIndexOp::create(builder, dma.getLoc(), *srcOff));
      dma.getDstOffsetMutable().assign(
          arith::ConstantIndexOp::create(builder, dma.getLoc(), *dstOff));
      dma->moveBefore(insertAt);
      dma.setSem(static_cast<uint32_t>(sem));
      dma->removeAttr(tpu::kStepAttrName);
      if (auto alloc = dma.getSrc().getDefiningOp<tpu::AllocOp>())
        if (auto live =
                alloc->getAttrOfType<DenseI64ArrayAttr>(tpu::kLiveAttrName))
          if (live[0] > prev.number)
            alloc->setAttr(tpu::kLiveAttrName,
                           builder.getDenseI64ArrayAttr(
                               {prev.number, live[1]}));
      hoisted.insert(op);
      ++waitsLess[consumer[op].getOperation()];
    }
    if (hoisted.empty())
      return;

    // The waits: one for every prefetch before the first wait that
    // consumed one, and one less per prefetch in each consumer.
    Operation *firstConsumer = nullptr;
    for (Operation *op : prefix)
      if (waitsLess.count(op)) {
        firstConsumer = op;
        break;
      }
    builder.setInsertionPoint(firstConsumer);
    tpu::SemWaitOp::create(builder, firstConsumer->getLoc(), sem,
                           static_cast<int64_t>(hoisted.size()));
    for (auto [op, less] : waitsLess) {
      auto wait = cast<tpu::SemWaitOp>(op);
      if (wait.getCount() == less)
        wait->erase();
      else
        wait.setCount(wait.getCount() - less);
    }
    // cur's ops now start after prev's last one; the first carries the
    // step mark.
    cur.ops.clear();
    for (Operation *op = prev.ops.back()->getNextNode(); op && op != end;
         op = op->getNextNode())
      cur.ops.push_back(op);
    if (!cur.ops.empty())
      cur.ops.front()->setAttr(
          tpu::kStepAttrName, builder.getI64IntegerAttr(cur.number));
  }
};

} // namespace
} // namespace tpuc
