//===- FusedKernelSupport.cpp - what one fused kernel holds ---------------===//
//
// See FusedKernelSupport.h.
//
//===----------------------------------------------------------------------===//

#include "compiler/fusion/FusedKernelSupport.h"

#include "dialects/hlo/HloOps.h"

using namespace mlir;

namespace tpuc::fusion {

bool fitsContractionEpilogue(Operation *op) {
  if (auto bcast = dyn_cast<hlo::BroadcastInDimOp>(op)) {
    auto operand = cast<RankedTensorType>(bcast.getOperand().getType());
    auto result = cast<RankedTensorType>(bcast.getType());
    // The source stays whole in VMEM (padded to T(1024) tiles at most).
    int64_t n = operand.getNumElements();
    if ((n + kVregElements - 1) / kVregElements * kVregElements * 4 >
        kResidentInputBytes)
      return false;
    for (auto [i, d] : llvm::enumerate(bcast.getBroadcastDimensions()))
      if (operand.getDimSize(i) != 1 && d != result.getRank() - 1)
        return false;
    return true;
  }
  if (isa<hlo::IotaOp>(op))
    return false;
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<hlo::SelectOp, hlo::ClampOp, hlo::ConstantOp>(op);
}

} // namespace tpuc::fusion
