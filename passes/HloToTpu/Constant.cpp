//===- Constant.cpp - constants and iota --------------------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Lowering.h"

using namespace mlir;

namespace tpuc::hlotpu {

LogicalResult Lowering::lowerConstant(hlo::ConstantOp op) { return unsupported(op, "(a constant that is not a splat)"); }

LogicalResult Lowering::lowerIota(hlo::IotaOp op) { return unsupported(op); }

} // namespace tpuc::hlotpu
