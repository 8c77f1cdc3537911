//===- Elementwise.cpp - VPU loops over (8,128) tiles -------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Lowering.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace tpuc::hlotpu {

//===----------------------------------------------------------------------===//
// Elementwise: flat loops over (8,128) tiles
//===----------------------------------------------------------------------===//

/// The register value of `v` for the tile at byte offset `tileOff` (counted
/// in f32 tiles; bf16 buffers use half). `ins` maps the kernel's array
/// inputs to their VMEM block.
FailureOr<Value>
Lowering::emitTile(Value v, Value tileIndex,
                   llvm::DenseMap<Value, std::pair<VBuf, int64_t>> &ins,
                   llvm::DenseMap<Value, Value> &memo) {
  if (Value r = memo.lookup(v))
    return r;
  Value r;
  if (auto it = ins.find(v); it != ins.end()) {
    r = vload(it->second.first, mul(tileIndex, it->second.second));
  } else if (std::optional<double> s = splatValue(v)) {
    r = splatF32(*s);
  } else {
    Operation *def = v.getDefiningOp();
    SmallVector<Value> operands;
    for (Value operand : def->getOperands()) {
      FailureOr<Value> o = emitTile(operand, tileIndex, ins, memo);
      if (failed(o))
        return failure();
      operands.push_back(*o);
    }
    auto ty = f32Reg();
    r = llvm::TypeSwitch<Operation *, Value>(def)
            .Case([&](hlo::AddOp) { return tpu::VAddOp::create(b, loc, operands[0], operands[1]); })
            .Case([&](hlo::SubtractOp) { return tpu::VSubOp::create(b, loc, operands[0], operands[1]); })
            .Case([&](hlo::MultiplyOp) { return tpu::VMulOp::create(b, loc, operands[0], operands[1]); })
            .Case([&](hlo::DivideOp) { return tpu::VDivOp::create(b, loc, operands[0], operands[1]); })
            .Case([&](hlo::MaximumOp) { return tpu::VMaxOp::create(b, loc, operands[0], operands[1]); })
            .Case([&](hlo::MinimumOp) { return tpu::VMinOp::create(b, loc, operands[0], operands[1]); })
            .Case([&](hlo::NegOp) { return tpu::VNegOp::create(b, loc, operands[0]); })
            .Case([&](hlo::AbsOp) { return tpu::VAbsOp::create(b, loc, operands[0]); })
            .Case([&](hlo::ExpOp) { return tpu::VExpOp::create(b, loc, operands[0]); })
            .Case([&](hlo::LogOp) { return tpu::VLogOp::create(b, loc, operands[0]); })
            .Case([&](hlo::TanhOp) { return tpu::VTanhOp::create(b, loc, operands[0]); })
            .Case([&](hlo::RsqrtOp) { return tpu::VRsqrtOp::create(b, loc, operands[0]); })
            .Case([&](hlo::SqrtOp) { return tpu::VSqrtOp::create(b, loc, operands[0]); })
            .Case([&](hlo::CopyOp) { return operands[0]; })
            // A bf16 result is rounded by the store (VST to a bf16 buffer).
            .Case([&](hlo::ConvertOp) { return operands[0]; })
            .Case([&](hlo::SelectOp) {
              return tpu::VSelectOp::create(b, loc, operands[0], operands[1],
                                              operands[2]);
            })
            .Case([&](hlo::CompareOp cmp) -> Value {
              tpu::CmpKind kind = tpu::CmpKind::eq;
              switch (cmp.getComparisonDirection()) {
              case hlo::ComparisonDirection::EQ: kind = tpu::CmpKind::eq; break;
              case hlo::ComparisonDirection::NE: kind = tpu::CmpKind::ne; break;
              case hlo::ComparisonDirection::LT: kind = tpu::CmpKind::lt; break;
              case hlo::ComparisonDirection::LE: kind = tpu::CmpKind::le; break;
              case hlo::ComparisonDirection::GT: kind = tpu::CmpKind::gt; break;
              case hlo::ComparisonDirection::GE: kind = tpu::CmpKind::ge; break;
              }
              return tpu::VCmpOp::create(b, loc, i32Reg(), kind, operands[0],
                                           operands[1]);
            })
            .Default([&](Operation *) { return Value(); });
    (void)ty;
    if (!r)
      return FailureOr<Value>(unsupported(def));
    // Keep the hlo op's location on what it computes (the debug map).
    r.getDefiningOp()->setLoc(def->getLoc());
  }
  memo[v] = r;
  return r;
}

LogicalResult Lowering::lowerElementwise(Operation *op) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  Geometry g = geometryOf(type);
  // The array inputs: operands (and a select's compare's operands) that
  // are neither splat constants nor compares.
  SmallVector<Value> inputs;
  std::function<LogicalResult(Value)> collect = [&](Value v) -> LogicalResult {
    if (splatValue(v))
      return success();
    if (auto cmp = v.getDefiningOp<hlo::CompareOp>()) {
      if (failed(collect(cmp.getLhs())) || failed(collect(cmp.getRhs())))
        return failure();
      return success();
    }
    if (llvm::is_contained(inputs, v))
      return success();
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getShape() != type.getShape())
      return unsupported(op, "with operands of different shapes");
    if (!(t.getElementType().isF32() || t.getElementType().isBF16()))
      return unsupported(op, "on this element type");
    inputs.push_back(v);
    return success();
  };
  for (Value operand : op->getOperands())
    if (failed(collect(operand)))
      return failure();

  // Blocks of whole tiles: a divisor of the tile count, at most 64 tiles
  // (256 KiB of f32) per array.
  int64_t blockTiles = largestDivisorAtMost(g.tiles(), 64);
  int64_t blocks = g.tiles() / blockTiles;
  llvm::DenseMap<Value, std::pair<VBuf, int64_t>> ins;
  SmallVector<std::pair<Value, VBuf>> inMems;
  for (Value in : inputs) {
    Geometry gi = geometryOf(cast<RankedTensorType>(in.getType()));
    FailureOr<Value> mem = memOf(in);
    if (failed(mem))
      return failure();
    VBuf buf = vmem(cast<RankedTensorType>(in.getType()).getElementType(),
                    blockTiles * gi.tileBytes());
    ins[in] = {buf, gi.tileBytes()};
    inMems.push_back({*mem, buf});
  }
  VBuf outBuf = vmem(type.getElementType(), blockTiles * g.tileBytes());
  Value out = allocHbm(type, op->getLoc());
  hbm[op->getResult(0)] = out;

  loop(blocks, [&](Value blk) {
    for (auto &[mem, buf] : inMems) {
      int64_t bytes = buf.bytes;
      dma(mem, mul(blk, bytes), buf.arena, c(buf.offset), 1, bytes, 0, 0, 0);
    }
    wait(0, inMems.size());
    loop(blockTiles, [&](Value t) {
      llvm::DenseMap<Value, Value> memo;
      FailureOr<Value> r = emitTile(op->getResult(0), t, ins, memo);
      if (succeeded(r))
        vstore(*r, outBuf, mul(t, g.tileBytes()));
    });
    dma(outBuf.arena, c(outBuf.offset), out, mul(blk, outBuf.bytes), 1,
        outBuf.bytes, 0, 0, 1);
    wait(1, 1);
  });
  return success();
}

LogicalResult Lowering::lowerFill(Value v, Value out) {
  auto type = cast<RankedTensorType>(v.getType());
  Geometry g = geometryOf(type);
  // One tile of the value, copied to every tile of the array by one DMA
  // with a zero source stride.
  VBuf tile = vmem(type.getElementType(), g.tileBytes());
  vstore(splatF32(*splatValue(v)), tile, c(0));
  dma(tile.arena, c(tile.offset), out, c(0), g.tiles(), g.tileBytes(), 0,
      g.tileBytes(), 0);
  wait(0, 1);
  return success();
}


} // namespace tpuc::hlotpu
