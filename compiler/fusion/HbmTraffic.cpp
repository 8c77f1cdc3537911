//===- HbmTraffic.cpp - HBM bytes a program reads and writes --------------===//

#include "compiler/fusion/HbmTraffic.h"

#include "dialects/hlo/HloOps.h"
#include "dialects/hlo/WhileLoopState.h"

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

HbmTraffic scaled(HbmTraffic traffic, int64_t count) {
  return {saturatingMultiply(traffic.readBytes, count),
          saturatingMultiply(traffic.writtenBytes, count)};
}

/// The bytes a kernel reads through `user` of `input`, an array of `whole`
/// bytes: a slice, a dynamic slice or a gather reads only the elements of
/// its result (XLA's cost analysis counts them so; logical bytes in every
/// model, as its DMAs take the rows it reads, not whole tiles); any other
/// use reads the whole array.
static int64_t bytesReadBy(Operation *user, Value input, int64_t whole) {
  if (isa<hlo::SliceOp, hlo::DynamicSliceOp, hlo::GatherOp>(user) &&
      user->getOperand(0) == input)
    return logicalBytes(cast<RankedTensorType>(user->getResult(0).getType())
                            .clone(getElementTypeOrSelf(input.getType())));
  return whole;
}

/// The bytes `op` reads of its operand `input`; for a fusion, what the
/// fused computation reads of the block argument (at most the whole array).
static int64_t operandBytes(Operation *op, Value input, ValueBytes bytesOf) {
  int64_t whole = bytesOf(input);
  auto fusion = dyn_cast<hlo::FusionOp>(op);
  if (!fusion)
    return bytesReadBy(op, input, whole);
  int64_t read = 0;
  for (OpOperand &use : op->getOpOperands()) {
    if (use.get() != input)
      continue;
    Value arg = fusion.getBody().getArgument(use.getOperandNumber());
    for (Operation *user : arg.getUsers())
      read += bytesReadBy(user, arg, whole);
  }
  return std::min(whole, read);
}

static int64_t logicalBytesOf(Value value) {
  return logicalBytes(value.getType());
}

HbmTraffic kernelTraffic(Operation *op) {
  return kernelTraffic(op, logicalBytesOf);
}

HbmTraffic kernelTraffic(Operation *op, ValueBytes bytesOf) {
  HbmTraffic traffic;
  if (isa<hlo::ConstantOp, hlo::TupleOp, hlo::GetTupleElementOp,
          hlo::WhileOp, hlo::ConditionalOp, hlo::CallOp>(op) ||
      op->hasTrait<OpTrait::IsTerminator>() || isBitcastReshape(op))
    return traffic;
  llvm::SetVector<Value> inputs(op->operand_begin(), op->operand_end());
  for (Value input : inputs)
    traffic.readBytes += operandBytes(op, input, bytesOf);
  for (Value result : op->getResults())
    traffic.writtenBytes += bytesOf(result);
  return traffic;
}

/// How many times one run of `loop` runs its body, and its condition.
static std::pair<int64_t, int64_t> tripsOf(hlo::WhileOp loop) {
  std::optional<WhileLoopState::CountedLoop> counted =
      WhileLoopState(loop).countedLoop();
  int64_t trips = counted ? counted->tripCount : 1;
  return {trips, trips + 1};
}

int64_t runsPerStep(Operation *op) {
  int64_t runs = 1;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    auto loop = dyn_cast<hlo::WhileOp>(parent);
    if (!loop)
      continue;
    auto [body, cond] = tripsOf(loop);
    int64_t trips =
        loop.getCond().isAncestor(op->getParentRegion()) ? cond : body;
    runs = saturatingMultiply(runs, trips);
  }
  return runs;
}

/// The traffic of the kernels in `region`, each loop body times its trip
/// count when the loop is counted (once otherwise), a conditional's
/// largest branch.
static HbmTraffic regionTraffic(Region &region, ValueBytes bytesOf) {
  HbmTraffic traffic;
  for (Block &block : region)
    for (Operation &op : block) {
      traffic += kernelTraffic(&op, bytesOf);
      if (auto loop = dyn_cast<hlo::WhileOp>(op)) {
        auto [body, cond] = tripsOf(loop);
        traffic += scaled(regionTraffic(loop.getCond(), bytesOf), cond);
        traffic += scaled(regionTraffic(loop.getBody(), bytesOf), body);
      } else if (isa<hlo::ConditionalOp>(op)) {
        HbmTraffic largest;
        for (Region &branch : op.getRegions()) {
          HbmTraffic taken = regionTraffic(branch, bytesOf);
          if (taken.total() > largest.total())
            largest = taken;
        }
        traffic += largest;
      }
    }
  return traffic;
}

HbmTraffic functionTraffic(func::FuncOp func) {
  return functionTraffic(func, logicalBytesOf);
}

HbmTraffic functionTraffic(func::FuncOp func, ValueBytes bytesOf) {
  return regionTraffic(func.getBody(), bytesOf);
}

} // namespace tpuc::fusion
