//===- HbmTraffic.cpp - HBM bytes a program reads and writes --------------===//

#include "compiler/fusion/HbmTraffic.h"

#include "dialects/hlo/HloOps.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tpuc::fusion {

int64_t logicalBytes(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    int64_t total = 0;
    for (Type element : tuple.getTypes())
      total += logicalBytes(element);
    return total;
  }
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return 0;
  int64_t bits = tensor.getElementType().getIntOrFloatBitWidth();
  return tensor.getNumElements() * std::max<int64_t>(1, bits / 8);
}

bool isBitcastReshape(Operation *op) {
  auto reshape = dyn_cast<hlo::ReshapeOp>(op);
  if (!reshape)
    return false;
  auto minor2 = [](RankedTensorType type) {
    ArrayRef<int64_t> shape = type.getShape();
    int64_t rank = shape.size();
    return std::pair<int64_t, int64_t>(rank >= 2 ? shape[rank - 2] : 1,
                                       rank >= 1 ? shape[rank - 1] : 1);
  };
  return minor2(reshape.getOperand().getType()) ==
         minor2(reshape.getType());
}

HbmTraffic kernelTraffic(Operation *op) {
  HbmTraffic traffic;
  if (isa<hlo::ConstantOp, hlo::TupleOp, hlo::GetTupleElementOp,
          hlo::WhileOp, hlo::ConditionalOp, hlo::CallOp>(op) ||
      op->hasTrait<OpTrait::IsTerminator>() || isBitcastReshape(op))
    return traffic;
  llvm::SetVector<Value> inputs(op->operand_begin(), op->operand_end());
  for (Value input : inputs)
    traffic.readBytes += logicalBytes(input.getType());
  for (Type result : op->getResultTypes())
    traffic.writtenBytes += logicalBytes(result);
  return traffic;
}

HbmTraffic functionTraffic(func::FuncOp func) {
  HbmTraffic traffic;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func.getOperation())
      return WalkResult::advance();
    traffic += kernelTraffic(op);
    // Kernels inside loops and branches run as kernels of their own; other
    // regions (fused computations, reducers) are part of their op.
    return isa<hlo::WhileOp, hlo::ConditionalOp>(op) ? WalkResult::advance()
                                                     : WalkResult::skip();
  });
  return traffic;
}

} // namespace tpuc::fusion
