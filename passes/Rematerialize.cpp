//===- Rematerialize.cpp - recompute instead of keeping live ---------------===//
//
// XLA's HloRematerialization, single level: while the HBM plan needs more
// than the limit, recompute the value live across the peak that frees the
// most padded bytes per byte of HBM traffic, right before its first use
// after the peak. Passes.td describes the rules.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/ModuleTarget.h"

#include "passes/ModuleTarget.h"

#include "compiler/analysis/BufferAssignment.h"
#include "compiler/fusion/HbmTraffic.h"
#include "compiler/layout/TiledLayout.h"
#include "dialects/hlo/HloOps.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

namespace tpuc {
#define GEN_PASS_DEF_REMATERIALIZE
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;

/// The steps an op of the entry block spans in planMemory's schedule: one
/// per op in program order, a while or conditional also those of its
/// bodies.
struct StepRange {
  int64_t first = 0, last = 0;
};

void numberSteps(Block &block, int64_t &step,
                 llvm::DenseMap<Operation *, StepRange> &steps) {
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    StepRange &range = steps[&op];
    range.first = ++step;
    if (isa<hlo::WhileOp, hlo::ConditionalOp>(op))
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          numberSteps(nested, step, steps);
    steps[&op].last = step;
  }
}

struct Candidate {
  Operation *def = nullptr;
  Operation *firstUseAfterPeak = nullptr;
  int64_t bytes = 0;   // padded bytes freed at the peak
  int64_t traffic = 0; // HBM bytes the recomputation reads and writes
  double score() const { return double(bytes) / double(traffic + 1); }
};

class Rematerializer {
public:
  Rematerializer(ModuleOp module, const target::TargetSpec &spec)
      : module(module), spec(spec) {}

  /// Rematerializes until the plan uses at most `limit` bytes or nothing is
  /// left to try.
  LogicalResult run(int64_t limit);

private:
  std::optional<Candidate> best(const analysis::MemoryPlan &plan);
  void apply(const Candidate &c);

  ModuleOp module;
  const target::TargetSpec &spec;
  llvm::DenseSet<Operation *> tried; // originals and clones
  int64_t values = 0, bytes = 0, traffic = 0;
};

std::optional<Candidate>
Rematerializer::best(const analysis::MemoryPlan &plan) {
  func::FuncOp entry = hlo::entryFunction(module);
  Block &body = entry.getBody().front();
  llvm::DenseMap<Operation *, StepRange> stepOf;
  int64_t numSteps = 0;
  numberSteps(body, numSteps, stepOf);
  int64_t peak = plan.peakStep;
  // The steps the op of the entry block that reads `user` spans (the
  // terminator: after every op).
  auto useRange = [&](Operation *user) {
    Operation *top = body.findAncestorOpInBlock(*user);
    if (!top || top->hasTrait<OpTrait::IsTerminator>())
      return StepRange{numSteps + 1, numSteps + 1};
    return stepOf.lookup(top);
  };
  auto lastUse = [&](Value v) {
    int64_t last = -1;
    for (Operation *user : v.getUsers())
      last = std::max(last, useRange(user).last);
    return last;
  };
  std::optional<Candidate> chosen;
  for (Operation &def : body.without_terminator()) {
    if (tried.contains(&def) || def.getNumResults() != 1 ||
        isa<hlo::ConstantOp, hlo::WhileOp, hlo::ConditionalOp>(def) ||
        !isMemoryEffectFree(&def))
      continue;
    Value v = def.getResult(0);
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || stepOf.lookup(&def).last >= peak)
      continue;
    // Every use lies before or after the peak, and one lies after it; the
    // results of the program stay as they are.
    Operation *first = nullptr;
    int64_t firstStep = 0;
    bool ok = true;
    for (Operation *user : v.getUsers()) {
      StepRange at = useRange(user);
      Operation *top = body.findAncestorOpInBlock(*user);
      if (at.first > numSteps || (at.first <= peak && peak <= at.last)) {
        ok = false;
        break;
      }
      if (at.first > peak && (!first || at.first < firstStep)) {
        first = top;
        firstStep = at.first;
      }
    }
    if (!ok || !first)
      continue;
    // The operands must be live at the new def anyway.
    bool available = llvm::all_of(def.getOperands(), [&](Value operand) {
      if (auto arg = dyn_cast<BlockArgument>(operand))
        return arg.getOwner() == &body;
      if (operand.getDefiningOp<hlo::ConstantOp>())
        return true;
      return lastUse(operand) >= firstStep;
    });
    if (!available)
      continue;
    std::string error;
    FailureOr<layout::DeviceBytes> bytes =
        layout::deviceBytes(v, spec.tiling, error);
    if (failed(bytes))
      continue;
    Candidate c{&def, first, bytes->sizes.padded,
                fusion::kernelTraffic(&def).total()};
    if (!chosen || c.score() > chosen->score())
      chosen = c;
  }
  return chosen;
}

void Rematerializer::apply(const Candidate &c) {
  Block *body = c.def->getBlock();
  OpBuilder builder(c.firstUseAfterPeak);
  Operation *clone = builder.clone(*c.def);
  clone->setAttr("tpuc.rematerialized", builder.getUnitAttr());
  Value from = c.def->getResult(0), to = clone->getResult(0);
  // Uses at or after the remat point read the clone.
  from.replaceUsesWithIf(to, [&](OpOperand &use) {
    Operation *top = body->findAncestorOpInBlock(*use.getOwner());
    return top && (top == c.firstUseAfterPeak ||
                   c.firstUseAfterPeak->isBeforeInBlock(top));
  });
  tried.insert(c.def);
  tried.insert(clone);
  ++values;
  bytes += c.bytes;
  traffic += c.traffic;
}

LogicalResult Rematerializer::run(int64_t limit) {
  while (true) {
    FailureOr<analysis::MemoryPlan> plan = analysis::planMemory(module, spec);
    if (failed(plan))
      return failure();
    if (limit <= 0)
      limit = plan->usableBytes();
    if (plan->usedBytes() <= limit)
      break;
    std::optional<Candidate> c = best(*plan);
    if (!c)
      break;
    apply(*c);
  }
  if (values) {
    Builder b(module.getContext());
    module->setAttr("tpuc.remat",
                    b.getDictionaryAttr({
                        b.getNamedAttr("values", b.getI64IntegerAttr(values)),
                        b.getNamedAttr("bytes", b.getI64IntegerAttr(bytes)),
                        b.getNamedAttr("traffic_bytes",
                                       b.getI64IntegerAttr(traffic)),
                    }));
  }
  return success();
}

struct RematerializePass
    : public impl::RematerializeBase<RematerializePass> {
  using RematerializeBase::RematerializeBase;

  void runOnOperation() override {
    FailureOr<target::TargetSpec> spec =
        moduleTarget(getOperation(), targetName);
    if (failed(spec))
      return signalPassFailure();
    Rematerializer remat(getOperation(), *spec);
    if (failed(remat.run(memoryLimit)))
      signalPassFailure();
  }
};

} // namespace
} // namespace tpuc
