//===- DecomposeReductions.cpp - reduce into the VPU kernels' forms ----===//
//
// tpuc-decompose-reductions: reductions in the VPU kernels' forms. See
// Passes.td for the contract.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/hlo/HloOps.h"

namespace tpuc {
#define GEN_PASS_DEF_DECOMPOSEREDUCTIONS
#include "passes/Passes.h.inc"

namespace {
class DecomposeReductionsPass : public impl::DecomposeReductionsBase<DecomposeReductionsPass> {
public:
  void runOnOperation() override {}
};
} // namespace
} // namespace tpuc
