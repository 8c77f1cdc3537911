//===- Reduce.cpp - reduce on the VPU -----------------------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Lowering.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace tpuc::hlotpu {

//===----------------------------------------------------------------------===//
// reduce: over the minor dim (lanes) or the leading dim (sublanes)
//===----------------------------------------------------------------------===//

LogicalResult Lowering::lowerReduce(hlo::ReduceOp op) {
  if (op.getInputs().size() != 1)
    return unsupported(op, "with several inputs");
  auto inType = cast<RankedTensorType>(op.getInputs()[0].getType());
  auto type = cast<RankedTensorType>(op.getResult(0).getType());
  ArrayRef<int64_t> dims = op.getDimensions();
  if (inType.getRank() != 2 || dims.size() != 1)
    return unsupported(op, "other than over one dimension of a 2-D array");
  std::optional<double> init = splatValue(op.getInitValues()[0]);
  if (!init)
    return unsupported(op, "whose init value is not a constant");
  // The body must be one add/maximum/minimum of its two arguments.
  Block &body = op.getBody().front();
  Operation *combiner = body.getTerminator()->getOperand(0).getDefiningOp();
  if (!combiner || &body.front() != combiner ||
      combiner->getNumOperands() != 2 ||
      !llvm::all_of(combiner->getOperands(),
                    [](Value v) { return isa<BlockArgument>(v); }))
    return unsupported(op, "with a body other than one add/maximum/minimum");
  tpu::ReduceKind kind;
  double identity;
  std::function<Value(Value, Value)> combine;
  if (isa<hlo::AddOp>(combiner)) {
    kind = tpu::ReduceKind::sum;
    identity = 0.0;
    combine = [&](Value x, Value y) { return tpu::VAddOp::create(b, loc, x, y); };
  } else if (isa<hlo::MaximumOp>(combiner)) {
    kind = tpu::ReduceKind::max;
    identity = -std::numeric_limits<double>::infinity();
    combine = [&](Value x, Value y) { return tpu::VMaxOp::create(b, loc, x, y); };
  } else if (isa<hlo::MinimumOp>(combiner)) {
    kind = tpu::ReduceKind::min;
    identity = std::numeric_limits<double>::infinity();
    combine = [&](Value x, Value y) { return tpu::VMinOp::create(b, loc, x, y); };
  } else {
    return unsupported(op, "with a " + combiner->getName().getStringRef() +
                               " body");
  }

  FailureOr<Value> in = memOf(op.getInputs()[0]);
  if (failed(in))
    return failure();
  Value out = allocHbm(type, op.getLoc());
  hbm[op.getResult(0)] = out;
  Geometry g = geometryOf(inType);
  Type outElem = type.getElementType();
  int64_t ob = elementBytes(outElem);
  int64_t outTile = kSublanes * kLanes * ob;
  int64_t rowBytes = g.colTiles * g.tileBytes();
  // Blocks of whole tile rows, at most 512 KiB.
  int64_t blockRows =
      largestDivisorAtMost(g.rowTiles, std::max<int64_t>(1, (512 << 10) / rowBytes));
  VBuf inBuf = vmem(inType.getElementType(), blockRows * rowBytes);
  Value laneIds, sublaneIds;
  auto lanes = [&] {
    if (!laneIds)
      laneIds = tpu::VLaneIdOp::create(b, loc, i32Reg());
    return laneIds;
  };
  (void)sublaneIds;

  if (dims[0] == 1) {
    // Over lanes: per tile row, combine its tiles, reduce the lanes; sublane
    // s then holds row 8r+s in every lane. A strided DMA gathers lane 0 of
    // every sublane into the rank-1 result (element m at 512*m bytes in the
    // staging buffer).
    VBuf staging = vmem(outElem, blockRows * outTile);
    int64_t ragged = g.cols % kLanes;
    loop(g.rowTiles / blockRows, [&](Value blk) {
      dma(*in, mul(blk, inBuf.bytes), inBuf.arena, c(inBuf.offset), 1,
          inBuf.bytes, 0, 0, 0);
      wait(0, 1);
      loop(blockRows, [&](Value r) {
        Value base = mul(r, rowBytes);
        Value acc;
        for (int64_t col = 0; col < g.colTiles; ++col) {
          Value x = vload(inBuf, add(base, col * g.tileBytes()));
          if (ragged && col == g.colTiles - 1)
            x = maskBelow(x, tpu::VLaneIdOp::create(b, loc, i32Reg()),
                          c(ragged), identity);
          acc = acc ? combine(acc, x) : x;
        }
        Value red = tpu::VReduceLanesOp::create(b, loc, kind, acc);
        red = combine(red, splatF32(*init));
        vstore(red, staging, mul(r, outTile));
      });
      dma(staging.arena, c(staging.offset), out,
          mul(blk, blockRows * kSublanes * ob), blockRows * kSublanes, ob,
          kLanes * ob, ob, 1);
      wait(1, 1);
    });
    (void)lanes;
    return success();
  }

  // Over the leading dim: per tile column an accumulator tile in VMEM,
  // combined with every tile row (rows past the end masked), then the
  // sublanes reduced; one DMA gathers sublane 0 of every column tile.
  VBuf acc = vmem(b.getF32Type(), g.colTiles * g.tileBytes() * 4 / g.elemBytes);
  int64_t accTile = kSublanes * kLanes * 4;
  for (int64_t col = 0; col < g.colTiles; ++col)
    vstore(splatF32(identity), acc, c(col * accTile));
  bool ragged = g.rows % kSublanes != 0;
  loop(g.rowTiles / blockRows, [&](Value blk) {
    dma(*in, mul(blk, inBuf.bytes), inBuf.arena, c(inBuf.offset), 1,
        inBuf.bytes, 0, 0, 0);
    wait(0, 1);
    loop(blockRows, [&](Value r) {
      Value rowLimit;
      if (ragged) // rows left from this tile row on: sublanes below it count
        rowLimit = sub(c(g.rows), mul(add(mul(blk, blockRows), r), kSublanes));
      Value sublanes =
          ragged ? tpu::VSublaneIdOp::create(b, loc, i32Reg()).getResult()
                 : Value();
      for (int64_t col = 0; col < g.colTiles; ++col) {
        Value x = vload(inBuf, add(mul(r, rowBytes), col * g.tileBytes()));
        if (ragged)
          x = maskBelow(x, sublanes, rowLimit, identity);
        Value a = vload(acc, c(col * accTile));
        vstore(combine(a, x), acc, c(col * accTile));
      }
    });
  });
  VBuf staging = vmem(outElem, g.colTiles * outTile);
  for (int64_t col = 0; col < g.colTiles; ++col) {
    Value red = tpu::VReduceSublanesOp::create(b, loc, kind,
                                                 vload(acc, c(col * accTile)));
    vstore(combine(red, splatF32(*init)), staging, c(col * outTile));
  }
  dma(staging.arena, c(staging.offset), out, c(0), g.colTiles, kLanes * ob,
      outTile, kLanes * ob, 1);
  wait(1, 1);
  return success();
}


} // namespace tpuc::hlotpu
