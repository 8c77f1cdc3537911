//===- DataMovement.cpp - broadcast_in_dim and reshape ------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Lowering.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace tpuc::hlotpu {

//===----------------------------------------------------------------------===//
// broadcast_in_dim and reshape
//===----------------------------------------------------------------------===//

LogicalResult Lowering::lowerBroadcast(hlo::BroadcastInDimOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  auto inType = cast<RankedTensorType>(op.getOperand().getType());
  ArrayRef<int64_t> dims = op.getBroadcastDimensions();
  if (type.getElementType() != inType.getElementType())
    return unsupported(op, "that changes the element type");
  Value out = allocHbm(type, op.getLoc());
  hbm[op.getResult()] = out;
  if (splatValue(op.getOperand()))
    return lowerFill(op.getOperand(), out); // the broadcast of a splat
  if (type.getRank() != 2 || inType.getRank() != 1)
    return unsupported(op, "other than a row or column of a 2-D array");
  FailureOr<Value> in = memOf(op.getOperand());
  if (failed(in))
    return failure();
  Geometry g = geometryOf(type), gi = geometryOf(inType);
  Type elem = type.getElementType();
  int64_t eb = g.elemBytes;
  // The operand, whole, plus one tile so that strided loads near its end
  // read written bytes.
  VBuf src = vmem(elem, gi.bytes() + gi.tileBytes());
  vstore(splatF32(0.0), src, c(gi.bytes()));
  dma(*in, c(0), src.arena, c(src.offset), 1, gi.bytes(), 0, 0, 0);
  wait(0, 1);
  if (dims[0] == 1) {
    // Row: tile column c is sublane c%8 of vreg c/8, broadcast to every
    // sublane. One tile row is built, then copied to every tile row by one
    // DMA with a zero source stride.
    VBuf row = vmem(elem, g.colTiles * g.tileBytes());
    for (int64_t col = 0; col < g.colTiles; ++col) {
      Value v = vload(src, c((col / kSublanes) * gi.tileBytes()));
      Value r = tpu::VBroadcastSublaneOp::create(b, loc, v, c(col % kSublanes));
      vstore(r, row, c(col * g.tileBytes()));
    }
    dma(row.arena, c(row.offset), out, c(0), g.rowTiles, row.bytes, 0,
        row.bytes, 1);
    wait(1, 1);
    return success();
  }
  // Column: for tile row r, a load with a sublane stride of one element
  // puts element 8r+s in lane 0 of sublane s; broadcast lane 0. Each tile
  // row is then one DMA of that tile repeated across the columns.
  VBuf col = vmem(elem, g.rowTiles * g.tileBytes());
  loop(g.rowTiles, [&](Value r) {
    Value v = vload(src, mul(r, kSublanes * eb), eb);
    Value bc = tpu::VBroadcastLaneOp::create(b, loc, v, c(0));
    Value off = mul(r, g.tileBytes());
    vstore(bc, col, off);
    dma(col.arena, add(off, col.offset), out, mul(r, g.colTiles * g.tileBytes()),
        g.colTiles, g.tileBytes(), 0, g.tileBytes(), 1);
  });
  wait(1, g.rowTiles);
  return success();
}

/// The tiled arrangement of a shape: reshapes between shapes with the same
/// key move no bytes.
std::tuple<int64_t, int64_t, int64_t, int64_t> tiledKey(RankedTensorType t) {
  Geometry g = geometryOf(t);
  if (g.rank == 1)
    return {1, 1, g.cols, 0};
  if (g.outer == 1 || g.rows % kSublanes == 0)
    return {2, g.outer * g.rows, g.cols, 0};
  return {3, g.outer, g.rows, g.cols};
}

LogicalResult Lowering::lowerReshape(hlo::ReshapeOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  auto inType = cast<RankedTensorType>(op.getOperand().getType());
  if (tiledKey(type) != tiledKey(inType))
    return unsupported(op, "that changes the tiled layout (" +
                               std::to_string(inType.getRank()) + "-D to " +
                               std::to_string(type.getRank()) + "-D)");
  FailureOr<Value> in = memOf(op.getOperand());
  if (failed(in))
    return failure();
  Value out = allocHbm(type, op.getLoc());
  hbm[op.getResult()] = out;
  Geometry g = geometryOf(type);
  dma(*in, c(0), out, c(0), 1, g.bytes(), 0, 0, 0);
  wait(0, 1);
  return success();
}

LogicalResult Lowering::lowerTranspose(hlo::TransposeOp op) { return unsupported(op); }

LogicalResult Lowering::lowerSlice(hlo::SliceOp op) { return unsupported(op); }

LogicalResult Lowering::lowerPad(hlo::PadOp op) { return unsupported(op); }

LogicalResult Lowering::lowerConcatenate(hlo::ConcatenateOp op) { return unsupported(op); }

LogicalResult Lowering::lowerReverse(hlo::ReverseOp op) { return unsupported(op); }

} // namespace tpuc::hlotpu
