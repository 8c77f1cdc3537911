//===- ReduceWindow.cpp - reduce_window on the VPU ----------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Lowering.h"

using namespace mlir;

namespace tpuc::hlotpu {

LogicalResult Lowering::lowerReduceWindow(hlo::ReduceWindowOp op) { return unsupported(op); }

} // namespace tpuc::hlotpu
