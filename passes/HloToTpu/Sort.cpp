//===- Sort.cpp - sort and topk -----------------------------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Lowering.h"

using namespace mlir;

namespace tpuc::hlotpu {

LogicalResult Lowering::lowerSort(hlo::SortOp op) { return unsupported(op); }

LogicalResult Lowering::lowerTopK(hlo::TopKOp op) { return unsupported(op); }

} // namespace tpuc::hlotpu
