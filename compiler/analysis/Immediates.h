//===- Immediates.h - values the kernels read as immediates --------------===//
//
// The one rule, shared by the lowering (passes/HloToTpu) and the memory
// plan (BufferAssignment), for values that live in registers instead of
// HBM: a splat constant read only as the filter of depthwise convolutions
// is a register immediate of their kernels, so neither the executable nor
// the plan has a buffer for it.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_ANALYSIS_IMMEDIATES_H
#define TPUC_COMPILER_ANALYSIS_IMMEDIATES_H

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

#include <optional>

namespace tpuc::analysis {

/// A splat f32/bf16 constant's value, if `v` is one.
inline std::optional<double> splatValue(mlir::Value v) {
  auto cst = v.getDefiningOp<hlo::ConstantOp>();
  if (!cst)
    return std::nullopt;
  auto dense = mlir::dyn_cast<mlir::DenseFPElementsAttr>(cst.getValue());
  if (!dense || !dense.isSplat())
    return std::nullopt;
  return dense.getSplatValue<mlir::APFloat>().convertToDouble();
}

/// The depthwise convolutions the VPU kernels lower (Convolution.cpp).
enum class DepthwiseForm { None, Nchw, Nhwc };

/// Which depthwise kernel lowers `op`: NCHW (`bf01_oi01->bf01`,
/// feature_group_count = C, kernel [C, 1, kh, kw]) or NHWC
/// (`b01f_01io->b01f`, kernel [kh, kw, 1, C]); None for any other.
inline DepthwiseForm depthwiseForm(hlo::ConvolutionOp op) {
  auto lhs = mlir::dyn_cast<mlir::RankedTensorType>(op.getLhs().getType());
  auto rhs = mlir::dyn_cast<mlir::RankedTensorType>(op.getRhs().getType());
  int64_t groups = op.getFeatureGroupCount();
  if (groups <= 1 || !lhs || !rhs || lhs.getRank() != 4 || rhs.getRank() != 4)
    return DepthwiseForm::None;
  hlo::ConvDimensionNumbersAttr dn = op.getDimensionNumbers();
  llvm::ArrayRef<int64_t> is = dn.getInputSpatial(), ks = dn.getKernelSpatial(),
                          os = dn.getOutputSpatial();
  if (is.size() != 2 || ks.size() != 2 || os.size() != 2)
    return DepthwiseForm::None;
  bool nchw = dn.getInputBatch() == 0 && dn.getInputFeature() == 1 &&
              is[0] == 2 && is[1] == 3 && dn.getKernelOutputFeature() == 0 &&
              dn.getKernelInputFeature() == 1 && ks[0] == 2 && ks[1] == 3 &&
              dn.getOutputBatch() == 0 && dn.getOutputFeature() == 1 &&
              os[0] == 2 && os[1] == 3;
  if (nchw && groups == lhs.getDimSize(1) && rhs.getDimSize(0) == groups)
    return DepthwiseForm::Nchw;
  bool nhwc = dn.getInputBatch() == 0 && is[0] == 1 && is[1] == 2 &&
              dn.getInputFeature() == 3 && ks[0] == 0 && ks[1] == 1 &&
              dn.getKernelInputFeature() == 2 &&
              dn.getKernelOutputFeature() == 3 && dn.getOutputBatch() == 0 &&
              os[0] == 1 && os[1] == 2 && dn.getOutputFeature() == 3;
  if (nhwc && groups == lhs.getDimSize(3) && rhs.getDimSize(2) == 1 &&
      rhs.getDimSize(3) == groups)
    return DepthwiseForm::Nhwc;
  return DepthwiseForm::None;
}

/// The splat filter `op`'s kernel takes as an immediate (a depthwise
/// kernel with a splat filter), if it takes one.
inline std::optional<double> filterImmediate(hlo::ConvolutionOp op) {
  if (depthwiseForm(op) == DepthwiseForm::None)
    return std::nullopt;
  return splatValue(op.getRhs());
}

/// Whether every read of `v` is as an immediate (filterImmediate): no
/// kernel reads it from HBM, so it has no buffer.
inline bool isReadOnlyAsImmediate(mlir::Value v) {
  return !v.use_empty() &&
         llvm::all_of(v.getUsers(), [&](mlir::Operation *user) {
           auto conv = mlir::dyn_cast<hlo::ConvolutionOp>(user);
           return conv && conv.getLhs() != v && conv.getRhs() == v &&
                  filterImmediate(conv).has_value();
         });
}

} // namespace tpuc::analysis

#endif // TPUC_COMPILER_ANALYSIS_IMMEDIATES_H
