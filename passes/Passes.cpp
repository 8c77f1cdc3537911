//===- Passes.cpp - registration of tpuc's passes -------------------------===//

#include "passes/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace tpuc {
namespace {
#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"
} // namespace

void buildSimplifyPipeline(mlir::OpPassManager &pm) {
  pm.addPass(mlir::createInlinerPass());
  pm.addPass(createHoistWhileInvariants());
  pm.addPass(createSimplifyWhileLoops());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createCanonicalizerPass());
}

void registerPasses() {
  registerTPUCPasses();
  mlir::PassPipelineRegistration<>(
      "tpuc-simplify",
      "Inline, while-loop LICM and simplification, CSE, canonicalize (the "
      "graph simplifications tpuc compile starts with)",
      buildSimplifyPipeline);
}

} // namespace tpuc
