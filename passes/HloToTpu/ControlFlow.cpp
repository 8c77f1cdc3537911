//===- ControlFlow.cpp - tuples, calls, while, conditional --------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Lowering.h"

using namespace mlir;

namespace tpuc::hlotpu {

LogicalResult Lowering::lowerControlFlow(Operation *op) { return unsupported(op); }

} // namespace tpuc::hlotpu
