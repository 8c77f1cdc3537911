//===- Gather.cpp - dynamic slices, gather and scatter ------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Lowering.h"

using namespace mlir;

namespace tpuc::hlotpu {

LogicalResult Lowering::lowerDynamicSlice(hlo::DynamicSliceOp op) { return unsupported(op); }

LogicalResult Lowering::lowerDynamicUpdateSlice(hlo::DynamicUpdateSliceOp op) { return unsupported(op); }

LogicalResult Lowering::lowerGather(hlo::GatherOp op) { return unsupported(op); }

LogicalResult Lowering::lowerScatter(hlo::ScatterOp op) { return unsupported(op); }

} // namespace tpuc::hlotpu
