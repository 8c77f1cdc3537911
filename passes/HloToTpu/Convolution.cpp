//===- Convolution.cpp - convolution on the MXU -------------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Lowering.h"

using namespace mlir;

namespace tpuc::hlotpu {

LogicalResult Lowering::lowerConvolution(hlo::ConvolutionOp op) { return unsupported(op); }

} // namespace tpuc::hlotpu
