//===- DecomposeDots.cpp - dot_general into [B,M,K] x [B,K,N] --------------===//
//
// tpuc-decompose-dots: XLA's DotDecomposer for the MXU kernel. See
// Passes.td for the contract.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/hlo/HloOps.h"

namespace tpuc {
#define GEN_PASS_DEF_DECOMPOSEDOTS
#include "passes/Passes.h.inc"

namespace {
class DecomposeDotsPass : public impl::DecomposeDotsBase<DecomposeDotsPass> {
public:
  void runOnOperation() override {}
};
} // namespace
} // namespace tpuc
