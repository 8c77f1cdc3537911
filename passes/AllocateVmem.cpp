//===- AllocateVmem.cpp - place each step's VMEM region -------------------===//
//
// tpuc-allocate-vmem: see Passes.td for the contract. The code generator
// gives every step (top-level hlo op) its own VMEM arenas, one per element
// type, marked `tpu.overlay` and `tpu.step`, sized for the step's largest
// kernel and addressed from 0. This pass sizes each step's region and
// places it in the overlay region (`tpu.overlay = offset`): at 0, or, with
// `separate-neighbours`, right after the previous step's region when both
// fit in the target's VMEM, so that the next kernel's input DMAs may be
// issued while the previous kernel runs (tpuc-overlap-kernels).
//
//===----------------------------------------------------------------------===//

#include "passes/ModuleTarget.h"
#include "passes/Passes.h"

#include "dialects/tpu/TpuDialect.h"
#include "dialects/tpu/TpuOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

namespace tpuc {
#define GEN_PASS_DEF_ALLOCATEVMEM
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// The arenas of one step and the bytes its region needs.
struct StepRegion {
  SmallVector<tpu::AllocOp> arenas;
  int64_t bytes = 0;
};

class AllocateVmemPass : public impl::AllocateVmemBase<AllocateVmemPass> {
public:
  using AllocateVmemBase::AllocateVmemBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<target::TargetSpec> spec = moduleTarget(module, targetName);
    if (failed(spec))
      return signalPassFailure();
    WalkResult result = module.walk([&](func::FuncOp func) {
      return failed(place(func, spec->machine)) ? WalkResult::interrupt()
                                            : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

private:
  LogicalResult place(func::FuncOp func, const exe::Target &machine) {
    // Steps in program order (the arenas are made in it).
    llvm::MapVector<int64_t, StepRegion> steps;
    func.walk([&](tpu::AllocOp alloc) {
      auto step = alloc->getAttrOfType<IntegerAttr>(tpu::kStepAttrName);
      if (!step || !alloc->hasAttr(tpu::kOverlayAttrName))
        return;
      StepRegion &region = steps[step.getInt()];
      region.arenas.push_back(alloc);
      region.bytes =
          std::max(region.bytes, tpu::getBufferBytes(alloc.getType()));
    });
    if (steps.empty())
      return success();
    // The overlay region starts after the other VMEM buffers.
    tpu::OnChipPlacement before = tpu::placeOnChipBuffers(func);
    int64_t base = before.offsets.lookup(steps.front().second.arenas.front());
    if (auto offset = steps.front().second.arenas.front()->getAttrOfType<
                      IntegerAttr>(tpu::kOverlayAttrName))
      base -= offset.getInt();
    int64_t available = machine.vmem_bytes() - base;
    int64_t align = tpu::getAllocAlignment(tpu::MemorySpace::vmem);
    Builder builder(func.getContext());
    int64_t prevOffset = 0, prevBytes = 0;
    for (auto &[step, region] : steps) {
      int64_t bytes = llvm::alignTo(region.bytes, align);
      if (bytes > available)
        return region.arenas.front().emitError()
               << "the kernels of step " << step << " need " << bytes
               << " bytes of VMEM but " << machine.name() << " has "
               << available << " after the other VMEM buffers";
      int64_t offset = 0;
      if (separateNeighbours && prevOffset + prevBytes + bytes <= available)
        offset = prevOffset + prevBytes;
      for (tpu::AllocOp arena : region.arenas)
        arena->setAttr(tpu::kOverlayAttrName,
                       builder.getI64IntegerAttr(offset));
      prevOffset = offset;
      prevBytes = bytes;
    }
    return success();
  }
};

} // namespace
} // namespace tpuc
