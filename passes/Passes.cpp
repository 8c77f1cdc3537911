//===- Passes.cpp - registration of tpuc's passes -------------------------===//

#include "passes/Passes.h"

namespace tpuc {
namespace {
#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"
} // namespace

void registerPasses() { registerTPUCPasses(); }

} // namespace tpuc
