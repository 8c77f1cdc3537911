//===- FloatNormalization.cpp - f32 for ops the target lacks in bf16 ------===//

#include "passes/Passes.h"
#include "passes/ModuleTarget.h"

#include "passes/ElementTypeChange.h"
#include "runtime/target/Targets.h"

#include "llvm/ADT/StringSet.h"

namespace tpuc {
#define GEN_PASS_DEF_FLOATNORMALIZATION
#include "passes/Passes.h.inc"
} // namespace tpuc

using namespace mlir;

namespace tpuc {
namespace {

class FloatNormalizationPass
    : public impl::FloatNormalizationBase<FloatNormalizationPass> {
public:
  using FloatNormalizationBase::FloatNormalizationBase;
  void runOnOperation() override;
};

void FloatNormalizationPass::runOnOperation() {
  FailureOr<target::TargetSpec> spec =
      moduleTarget(getOperation(), targetName);
  if (failed(spec))
    return signalPassFailure();
  llvm::StringSet<> f32Only;
  for (const std::string &name : spec->f32OnlyOps)
    f32Only.insert(name);

  Builder builder(&getContext());
  Type bf16 = builder.getBF16Type(), f32 = builder.getF32Type();
  SmallVector<Operation *> unsupported;
  getOperation().walk([&](Operation *op) {
    if (!isa<hlo::HloDialect>(op->getDialect()) ||
        !f32Only.contains(op->getName().stripDialect()))
      return;
    auto isBf16 = [&](Type type) { return hasElementType(type, bf16); };
    if (llvm::any_of(op->getOperandTypes(), isBf16) ||
        llvm::any_of(op->getResultTypes(), isBf16))
      unsupported.push_back(op);
  });
  SmallVector<Operation *> converts;
  for (Operation *op : unsupported)
    computeIn(op, bf16, f32, /*results=*/true, converts);
  foldConverts(converts);
}

} // namespace
} // namespace tpuc
