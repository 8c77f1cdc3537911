//===- FusedKernelSupport.cpp - what one fused kernel holds ---------------===//
//
// See FusedKernelSupport.h.
//
//===----------------------------------------------------------------------===//

#include "compiler/fusion/FusedKernelSupport.h"

#include "dialects/hlo/HloOps.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace tpuc::fusion {

bool fitsContractionEpilogue(Operation *op) {
  if (auto bcast = dyn_cast<hlo::BroadcastInDimOp>(op)) {
    auto operand = cast<RankedTensorType>(bcast.getOperand().getType());
    auto result = cast<RankedTensorType>(bcast.getType());
    // The source stays whole in VMEM (padded to T(1024) tiles at most).
    int64_t n = operand.getNumElements();
    if ((n + kVregElements - 1) / kVregElements * kVregElements * 4 >
        kResidentInputBytes)
      return false;
    for (auto [i, d] : llvm::enumerate(bcast.getBroadcastDimensions()))
      if (operand.getDimSize(i) != 1 && d != result.getRank() - 1)
        return false;
    return true;
  }
  if (isa<hlo::IotaOp>(op))
    return false;
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<hlo::SelectOp, hlo::ClampOp, hlo::ConstantOp>(op);
}

namespace {

llvm::SmallVector<int64_t> nonUnitDims(llvm::ArrayRef<int64_t> dims) {
  llvm::SmallVector<int64_t> kept;
  for (int64_t d : dims)
    if (d != 1)
      kept.push_back(d);
  return kept;
}

bool isSplatConstant(Operation *op) {
  auto cst = dyn_cast_or_null<hlo::ConstantOp>(op);
  auto dense = cst ? dyn_cast<DenseElementsAttr>(cst.getValue())
                   : DenseElementsAttr();
  return dense && dense.isSplat();
}

bool isFloatArray(Type type) {
  Type elem = cast<RankedTensorType>(type).getElementType();
  return elem.isF32() || elem.isBF16();
}

} // namespace

bool isRowInputReshape(Operation *op, ArrayRef<int64_t> rowShape) {
  auto reshape = dyn_cast<hlo::ReshapeOp>(op);
  if (!reshape)
    return false;
  auto from = cast<RankedTensorType>(reshape.getOperand().getType());
  auto to = cast<RankedTensorType>(reshape.getType());
  return to.getShape() == rowShape && from.hasStaticShape() &&
         from.getRank() >= 2 && to.getRank() >= 2 &&
         from.getShape().take_back(2) == rowShape.take_back(2) &&
         from.getNumElements() == to.getNumElements();
}

std::optional<RowKernelShape>
rowResidentKernel(ArrayRef<Operation *> ops,
                  function_ref<bool(Value)> readOutside) {
  llvm::DenseSet<Operation *> members(ops.begin(), ops.end());
  RankedTensorType rowType;
  for (Operation *op : ops)
    if (auto reduce = dyn_cast<hlo::ReduceOp>(op)) {
      rowType = cast<RankedTensorType>(reduce.getInputs()[0].getType());
      break;
    }
  if (!rowType || rowType.getRank() < 2 || !rowType.hasStaticShape() ||
      rowType.getShape().back() < 2)
    return std::nullopt;
  ArrayRef<int64_t> rowShape = rowType.getShape();
  int64_t rank = rowShape.size();
  llvm::SmallVector<int64_t> statDims = nonUnitDims(rowShape.drop_back());
  auto isRow = [&](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && t.getShape() == rowShape;
  };
  auto isStat = [&](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && t.hasStaticShape() && nonUnitDims(t.getShape()) == statDims;
  };
  auto inside = [&](Value v) { return members.contains(v.getDefiningOp()); };

  // Elementwise ops read operands of their own kind: streamed row-shaped
  // arrays (or computed ones), statistics computed here, rank-0 splats.
  auto operandsFit = [&](Operation *op, bool row) {
    return llvm::all_of(op->getOperands(), [&](Value v) {
      if (isSplatConstant(v.getDefiningOp()))
        return inside(v);
      if (row)
        return isRow(v) && (inside(v) || isFloatArray(v.getType()));
      return isStat(v) && inside(v);
    });
  };
  auto elementBytes = [](Value v) -> int64_t {
    return cast<RankedTensorType>(v.getType())
               .getElementType()
               .getIntOrFloatBitWidth() /
           8;
  };
  int64_t streamedBytes = 0; // per element, over the inputs and results
  bool anyResult = false;
  llvm::DenseSet<Value> inputs;
  for (Operation *op : ops) {
    if (isSplatConstant(op))
      continue;
    for (Value v : op->getResults())
      if (readOutside(v)) {
        if (!isRow(v) || !isFloatArray(v.getType()))
          return std::nullopt;
        anyResult = true;
        streamedBytes += elementBytes(v);
      }
    for (Value v : op->getOperands()) {
      if (inside(v) || !isRow(v) || !inputs.insert(v).second)
        continue;
      if (!isFloatArray(v.getType()))
        return std::nullopt;
      streamedBytes += elementBytes(v);
    }
    if (auto reduce = dyn_cast<hlo::ReduceOp>(op)) {
      Block &body = reduce.getBody().front();
      if (reduce.getInputs().size() != 1 ||
          !isRow(reduce.getInputs()[0]) ||
          !isFloatArray(reduce.getInputs()[0].getType()) ||
          reduce.getDimensions() != ArrayRef<int64_t>{rank - 1} ||
          !isSplatConstant(reduce.getInitValues()[0].getDefiningOp()) ||
          !inside(reduce.getInitValues()[0]) ||
          !llvm::hasSingleElement(body.without_terminator()) ||
          !isa<hlo::AddOp, hlo::MaximumOp, hlo::MinimumOp>(body.front()))
        return std::nullopt;
      continue;
    }
    if (auto bcast = dyn_cast<hlo::BroadcastInDimOp>(op)) {
      Value source = bcast.getOperand();
      if (!isRow(bcast) || !inside(source))
        return std::nullopt;
      if (isSplatConstant(source.getDefiningOp()))
        continue;
      // Per row: the source's non-unit dims land, in order, on the row
      // shape's outer dims, so its linear index is the row's.
      auto srcType = cast<RankedTensorType>(source.getType());
      if (!isStat(source))
        return std::nullopt;
      int64_t last = -1;
      for (auto [i, d] : llvm::enumerate(bcast.getBroadcastDimensions())) {
        if (srcType.getDimSize(i) == 1)
          continue;
        if (d <= last || d == rank - 1)
          return std::nullopt;
        last = d;
      }
      continue;
    }
    if (auto reshape = dyn_cast<hlo::ReshapeOp>(op)) {
      Value from = reshape.getOperand();
      if (!inside(from) && isRowInputReshape(reshape, rowShape)) {
        if (!isFloatArray(from.getType()))
          return std::nullopt;
        if (inputs.insert(from).second)
          streamedBytes += elementBytes(from);
        continue;
      }
      if (!isStat(reshape) || !isStat(from) || !inside(from))
        return std::nullopt;
      continue;
    }
    bool elementwise = op->hasTrait<OpTrait::Elementwise>() ||
                       isa<hlo::SelectOp, hlo::ClampOp>(op);
    if (!elementwise || op->getNumResults() != 1)
      return std::nullopt;
    bool row = isRow(op->getResult(0));
    if ((!row && !isStat(op->getResult(0))) || !operandsFit(op, row))
      return std::nullopt;
  }
  if (!anyResult)
    return std::nullopt;
  RowKernelShape shape;
  shape.colTiles = (rowShape.back() + 127) / 128;
  int64_t tileRowBytes =
      kRowKernelSlots * shape.colTiles * kVregElements * streamedBytes;
  if (shape.colTiles > kRowKernelMaxColTiles ||
      tileRowBytes > kLoopKernelVmemBytes)
    return std::nullopt;
  shape.maxBlockTileRows =
      std::max<int64_t>(1, std::min(kLoopKernelBlockTiles / shape.colTiles,
                                    kLoopKernelVmemBytes / tileRowBytes));
  shape.vmemBytes = shape.maxBlockTileRows * tileRowBytes;
  return shape;
}

} // namespace tpuc::fusion
