//===- MixedPrecision.cpp - Keras' mixed_bfloat16 policy ------------------===//

#include "passes/Passes.h"

#include "passes/ElementTypeChange.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tpuc {
#define GEN_PASS_DEF_MIXEDPRECISION
#include "passes/Passes.h.inc"
} // namespace tpuc

using namespace mlir;

namespace tpuc {
namespace {

/// Ops that compute (or move) activations: bf16 under the policy.
bool isActivationOp(Operation *op) {
  if (isa<hlo::ConvertOp>(op) || op->getNumRegions() != 0)
    return false;
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<hlo::SelectOp, hlo::ClampOp, hlo::BroadcastInDimOp,
             hlo::ReshapeOp, hlo::TransposeOp, hlo::SliceOp,
             hlo::ConcatenateOp, hlo::PadOp, hlo::ReverseOp>(op);
}

/// A max or min pooling: a reduce_window of one array whose body is the
/// maximum or minimum of its two arguments. Exact in bf16 (it selects), so
/// under the policy it runs on bf16 like the activations around it.
bool isSelectingPool(Operation *op) {
  auto pool = dyn_cast<hlo::ReduceWindowOp>(op);
  if (!pool || pool.getInputs().size() != 1)
    return false;
  Block &body = pool.getBody().front();
  if (body.getNumArguments() != 2 || !llvm::hasSingleElement(
                                         body.without_terminator()))
    return false;
  Operation &combine = body.front();
  return isa<hlo::MaximumOp, hlo::MinimumOp>(combine) &&
         combine.getNumOperands() == 2 &&
         llvm::all_of(combine.getOperands(),
                      [&](Value v) { return v.getParentBlock() == &body &&
                                            isa<BlockArgument>(v); }) &&
         body.getTerminator()->getOperand(0) == combine.getResult(0);
}

/// The activation ops that compute values returned through
/// `hlo.input_output_alias` of the entry function: variable updates.
llvm::DenseSet<Operation *> variableUpdates(ModuleOp module) {
  llvm::DenseSet<Operation *> pinned;
  SmallVector<Operation *> worklist;
  for (const hlo::AliasProducer &update : hlo::aliasProducers(module))
    worklist.push_back(update.producer);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!isActivationOp(op) && !isa<hlo::ConvertOp>(op))
      continue;
    if (!pinned.insert(op).second)
      continue;
    for (Value operand : op->getOperands())
      if (Operation *producer = operand.getDefiningOp())
        worklist.push_back(producer);
  }
  return pinned;
}

class MixedPrecisionPass
    : public impl::MixedPrecisionBase<MixedPrecisionPass> {
public:
  using MixedPrecisionBase::MixedPrecisionBase;
  void runOnOperation() override;

private:
  void rewriteBlock(Block &block, const llvm::DenseSet<Operation *> &pinned,
                    SmallVectorImpl<Operation *> &converts);
};

void MixedPrecisionPass::rewriteBlock(
    Block &block, const llvm::DenseSet<Operation *> &pinned,
    SmallVectorImpl<Operation *> &converts) {
  Builder builder(&getContext());
  Type bf16 = builder.getBF16Type(), f32 = builder.getF32Type();
  auto isF32 = [&](Type type) { return hasElementType(type, f32); };
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  for (Operation *op : ops) {
    if (isa<hlo::WhileOp, hlo::ConditionalOp>(op)) {
      for (Region &region : op->getRegions())
        for (Block &nested : region)
          rewriteBlock(nested, pinned, converts);
      continue;
    }
    // The MXU: bf16 x bf16 products accumulated in f32.
    if (isa<hlo::DotGeneralOp, hlo::ConvolutionOp>(op)) {
      if (llvm::all_of(op->getOperandTypes(), isF32))
        computeIn(op, f32, bf16, /*results=*/false, converts);
      continue;
    }
    if (isSelectingPool(op) && llvm::any_of(op->getOperandTypes(), isF32)) {
      computeIn(op, f32, bf16, /*results=*/true, converts);
      Block &body = op->getRegion(0).front();
      for (BlockArgument arg : body.getArguments())
        arg.setType(cast<RankedTensorType>(arg.getType()).clone(bf16));
      Value combined = body.front().getResult(0);
      combined.setType(cast<RankedTensorType>(combined.getType()).clone(bf16));
      continue;
    }
    if (isActivationOp(op) && !pinned.contains(op) &&
        llvm::any_of(op->getOperandTypes(), isF32))
      computeIn(op, f32, bf16, /*results=*/true, converts);
  }
}

void MixedPrecisionPass::runOnOperation() {
  if (policy == "float32")
    return;
  if (policy != "mixed_bfloat16") {
    getOperation().emitError()
        << "unknown precision policy '" << policy
        << "'; expected mixed_bfloat16 or float32";
    return signalPassFailure();
  }
  llvm::DenseSet<Operation *> pinned = variableUpdates(getOperation());
  SmallVector<Operation *> converts;
  for (auto func : getOperation().getOps<func::FuncOp>())
    if (!func.isDeclaration())
      rewriteBlock(func.getBody().front(), pinned, converts);
  foldConverts(converts);
}

} // namespace
} // namespace tpuc
