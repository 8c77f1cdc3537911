//===- MxuPrecision.h - how many bf16 pieces an f32 MXU operand needs ------===//
//
// XLA on TPU runs f32 dot_general/convolution on the bf16 MXU: DEFAULT is
// one bf16 pass, HIGH (bf16x3) splits each operand into 2 bf16 pieces,
// HIGHEST (bf16x6) into 3. Shared by the dot kernel and
// tpuc-split-convolution-precision.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_PASSES_MXUPRECISION_H
#define TPUC_PASSES_MXUPRECISION_H

#include "dialects/hlo/HloOps.h"
#include "passes/Passes.h"

namespace tpuc {

/// 1, 2 or 3 bf16 pieces per f32 operand. `dotPrecision`
/// (`--dot-precision`) overrides the op's precision_config; PerOp takes the
/// higher of the two operands' entries.
inline int64_t bf16PiecesFor(std::optional<mlir::ArrayAttr> precisionConfig,
                             DotPrecision dotPrecision) {
  switch (dotPrecision) {
  case DotPrecision::Default:
    return 1;
  case DotPrecision::High:
    return 2;
  case DotPrecision::Highest:
    return 3;
  case DotPrecision::PerOp:
    break;
  }
  int64_t pieces = 1;
  if (precisionConfig)
    for (mlir::Attribute p : *precisionConfig)
      switch (mlir::cast<hlo::PrecisionAttr>(p).getValue()) {
      case hlo::Precision::DEFAULT:
        break;
      case hlo::Precision::HIGH:
        pieces = std::max<int64_t>(pieces, 2);
        break;
      case hlo::Precision::HIGHEST:
        pieces = 3;
        break;
      }
  return pieces;
}

} // namespace tpuc

#endif // TPUC_PASSES_MXUPRECISION_H
