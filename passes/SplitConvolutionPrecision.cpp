//===- SplitConvolutionPrecision.cpp - f32 convs as bf16 MXU passes -------===//
//
// tpuc-split-convolution-precision: an f32 convolution with precision HIGH
// or HIGHEST (from its precision_config, or the dot-precision option that
// `tpuc compile --dot-precision` sets) becomes the sum of 3 (bf16x3) or 6
// (bf16x6) DEFAULT-precision convolutions of bf16-exact operand parts, the
// way XLA runs them on the TPU's bf16 MXU. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/hlo/HloOps.h"
#include "passes/MxuPrecision.h"

#include "mlir/IR/Builders.h"

namespace tpuc {
#define GEN_PASS_DEF_SPLITCONVOLUTIONPRECISION
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// `x` as `count` f32 parts that are exact in bf16, largest first:
/// p0 = bf16(x), p1 = bf16(x - p0), p2 = bf16(x - p0 - p1).
SmallVector<Value> splitIntoBf16Parts(OpBuilder &b, Location loc, Value x,
                                      int64_t count) {
  auto type = cast<RankedTensorType>(x.getType());
  RankedTensorType bf16Type = type.clone(b.getBF16Type());
  SmallVector<Value> parts;
  Value rest = x;
  for (int64_t i = 0; i < count; ++i) {
    Value narrow = hlo::ConvertOp::create(b, loc, bf16Type, rest);
    Value part = hlo::ConvertOp::create(b, loc, type, narrow);
    parts.push_back(part);
    if (i + 1 < count)
      rest = hlo::SubtractOp::create(b, loc, rest, part);
  }
  return parts;
}

/// `x` when `v` is `convert(x)` from f32 to bf16, else null.
Value roundedFromF32(Value v) {
  auto convert = v.getDefiningOp<hlo::ConvertOp>();
  if (!convert || !convert.getType().getElementType().isBF16() ||
      !convert.getOperand().getType().getElementType().isF32())
    return Value();
  return convert.getOperand();
}

/// A DEFAULT-precision MXU contraction rounds f32 operands to bf16 itself
/// (VCVT, nearest even, as the converts do: the convolutions in the halo
/// and weight tiles they fill, the dot in its MXU staging), so an operand
/// converted from f32 to bf16 only for it (mixed_bfloat16, after the splits
/// above) is read as f32: the same products, without a converted copy that
/// the fusion lowering writes to HBM and the kernel reads back. Each
/// operand on its own: under mixed_bfloat16 the activation is usually bf16
/// already and the weight a converted f32 variable, which leaves a bf16 x
/// f32 contraction (the kernels take one element type per operand).
template <typename ContractionOp>
void readOperandsBeforeRounding(ContractionOp op) {
  bool changed = false;
  for (OpOperand &operand : op->getOpOperands()) {
    Value f32 = roundedFromF32(operand.get());
    if (!f32)
      continue;
    Operation *convert = operand.get().getDefiningOp();
    operand.set(f32);
    if (convert->use_empty())
      convert->erase();
    changed = true;
  }
  // bf16 operands made any precision_config one bf16 pass.
  if (changed)
    op.removePrecisionConfigAttr();
}

class SplitConvolutionPrecisionPass
    : public impl::SplitConvolutionPrecisionBase<
          SplitConvolutionPrecisionPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    SmallVector<hlo::ConvolutionOp> convs;
    getOperation()->walk([&](hlo::ConvolutionOp op) { convs.push_back(op); });
    for (hlo::ConvolutionOp op : convs) {
      if (!op.getLhs().getType().getElementType().isF32() ||
          !op.getRhs().getType().getElementType().isF32() ||
          !op.getType().getElementType().isF32())
        continue;
      int64_t split = bf16PiecesFor(op.getPrecisionConfig(), dotPrecision);
      if (split == 1)
        continue;
      OpBuilder b(op);
      Location loc = op.getLoc();
      SmallVector<Value> a = splitIntoBf16Parts(b, loc, op.getLhs(), split);
      SmallVector<Value> w = splitIntoBf16Parts(b, loc, op.getRhs(), split);
      // The products XLA's bf16x3/bf16x6 keep, smallest first, so the
      // small terms accumulate before the large one is added.
      SmallVector<std::pair<int, int>> terms =
          split == 2 ? SmallVector<std::pair<int, int>>{{1, 0}, {0, 1}, {0, 0}}
                      : SmallVector<std::pair<int, int>>{
                            {2, 0}, {1, 1}, {0, 2}, {1, 0}, {0, 1}, {0, 0}};
      Value sum;
      for (auto [i, j] : terms) {
        auto conv = cast<hlo::ConvolutionOp>(b.clone(*op));
        conv->setOperand(0, a[i]);
        conv->setOperand(1, w[j]);
        conv.removePrecisionConfigAttr();
        sum = sum ? hlo::AddOp::create(b, loc, sum, conv.getResult()).getResult()
                  : conv.getResult();
      }
      op.getResult().replaceAllUsesWith(sum);
      op.erase();
    }
    // Not depthwise: the VPU kernel computes in f32.
    getOperation()->walk([](hlo::ConvolutionOp op) {
      if (op.getFeatureGroupCount() == 1)
        readOperandsBeforeRounding(op);
    });
    // The dot kernel splits an f32 operand by --dot-precision: not under a
    // high or highest override, which would then split what the policy
    // made one bf16 pass.
    if (dotPrecision == DotPrecision::PerOp ||
        dotPrecision == DotPrecision::Default)
      getOperation()->walk(
          [](hlo::DotGeneralOp op) { readOperandsBeforeRounding(op); });
  }
};
} // namespace
} // namespace tpuc
