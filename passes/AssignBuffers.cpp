//===- AssignBuffers.cpp - the memory plan's HBM buffers on the hlo values -===//
//
// tpuc-assign-buffers: the HBM side of the lowering's placement. It computes
// the module's memory plan (compiler/analysis: schedule, liveness, aliasing,
// the heap simulator; the memory report's plan) and records on each op the
// buffer of each result: `tpu.hbm_buffers`, one `array<i64: allocation,
// offset, bytes>` per result (offset -1: the plan has no heap offset for
// it, e.g. a parameter or a constant; an empty array: a value the plan does
// not size), and on the module the plan's total, `tpu.planned_hbm_bytes`.
// tpuc-convert-hlo-to-tpu places the buffer holding each value at its
// planned offset when the kernel's memref fits the planned bytes. See
// Passes.td and docs/codegen.md ("HBM").
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/ModuleTarget.h"

#include "compiler/analysis/BufferAssignment.h"
#include "dialects/tpu/TpuDialect.h"

#include "mlir/IR/Diagnostics.h"

namespace tpuc {
#define GEN_PASS_DEF_ASSIGNBUFFERS
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

class AssignBuffersPass : public impl::AssignBuffersBase<AssignBuffersPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<target::TargetSpec> spec = moduleTarget(module, targetName);
    if (failed(spec))
      return signalPassFailure();
    // A module the planner cannot plan (the memory report says why) is
    // still lowered: its buffers are placed without a plan.
    FailureOr<analysis::MemoryPlan> plan;
    {
      ScopedDiagnosticHandler quiet(&getContext(),
                                    [](Diagnostic &) { return success(); });
      plan = analysis::planMemory(module, *spec);
    }
    if (failed(plan))
      return;
    Builder b(&getContext());
    // The ops of the functions' bodies: what the lowering places (values
    // in regions live in their op's buffers).
    module.walk([&](Operation *op) {
      if (!isa_and_nonnull<func::FuncOp>(op->getParentOp()))
        return;
      SmallVector<Attribute> buffers;
      bool planned = false;
      for (Value result : op->getResults()) {
        auto it = plan->allocationOf.find(result);
        if (it == plan->allocationOf.end()) {
          buffers.push_back(b.getDenseI64ArrayAttr({}));
          continue;
        }
        const analysis::Allocation &a = plan->allocations[it->second];
        bool heap = a.kind == analysis::AllocationKind::Temp ||
                    a.kind == analysis::AllocationKind::Output;
        buffers.push_back(b.getDenseI64ArrayAttr(
            {static_cast<int64_t>(it->second),
             heap && a.offset >= 0 ? a.offset : -1, a.paddedBytes}));
        planned = true;
      }
      if (planned)
        op->setAttr(kHbmBuffersAttrName, b.getArrayAttr(buffers));
    });
    module->setAttr(tpu::kPlannedHbmAttrName,
                    b.getI64IntegerAttr(plan->usedBytes()));
  }
};

} // namespace
} // namespace tpuc
