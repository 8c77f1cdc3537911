//===- Elementwise.cpp - VPU loops over (8,128) tiles -------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
//
// f32 and bf16 compute in f32 registers (bf16 loads widened, stores
// rounded); s32 and pred in s32 registers, pred as 0/1. The VPU has no
// bitwise ops, so pred logic is arithmetic on 0/1: and = min, or = max,
// xor = (a != b), not = 1 - a.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Lowering.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace tpuc::hlotpu {

namespace {

Type elementOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

/// s32 and pred live in s32 registers; f32 and bf16 in f32 registers.
bool isIntLike(Type elem) { return elem.isInteger(32) || elem.isInteger(1); }

/// A splat constant of any lowerable element type: its value as the 32-bit
/// lane of a register (f32 bits or s32).
struct Splat {
  bool isFloat;
  double f;
  int64_t i;
};
std::optional<Splat> anySplat(Value v) {
  auto cst = v.getDefiningOp<hlo::ConstantOp>();
  if (!cst || !isLowerableElementType(elementOf(v)))
    return std::nullopt;
  auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
  if (!dense || !dense.isSplat())
    return std::nullopt;
  if (auto fp = dyn_cast<DenseFPElementsAttr>(dense))
    return Splat{true, fp.getSplatValue<APFloat>().convertToDouble(), 0};
  APInt i = dense.getSplatValue<APInt>();
  return Splat{false, 0, i.getBitWidth() == 1 ? static_cast<int64_t>(i.getZExtValue())
                                              : i.getSExtValue()};
}

std::optional<tpu::CmpKind> cmpKind(hlo::ComparisonDirection d) {
  switch (d) {
  case hlo::ComparisonDirection::EQ: return tpu::CmpKind::eq;
  case hlo::ComparisonDirection::NE: return tpu::CmpKind::ne;
  case hlo::ComparisonDirection::LT: return tpu::CmpKind::lt;
  case hlo::ComparisonDirection::LE: return tpu::CmpKind::le;
  case hlo::ComparisonDirection::GT: return tpu::CmpKind::gt;
  case hlo::ComparisonDirection::GE: return tpu::CmpKind::ge;
  }
  return std::nullopt;
}

/// Why the elementwise kernel cannot compute `op` (empty if it can).
std::string unsupportedForm(Operation *op) {
  Type elem = elementOf(op->getOperand(0));
  bool isFloat = elem.isF32() || elem.isBF16();
  if (auto cmp = dyn_cast<hlo::CompareOp>(op)) {
    std::optional<hlo::ComparisonType> type = cmp.getCompareType();
    if (type == hlo::ComparisonType::TOTALORDER ||
        type == hlo::ComparisonType::UNSIGNED)
      return "with compare type " + stringifyComparisonType(*type).str();
    return "";
  }
  if (isa<hlo::AndOp, hlo::OrOp, hlo::XorOp, hlo::NotOp>(op) &&
      !elem.isInteger(1))
    return "on s32 (the VPU has no bitwise ops)";
  if (isa<hlo::RemainderOp>(op) && isFloat)
    return "on floats";
  if (isa<hlo::ExpOp, hlo::LogOp, hlo::TanhOp, hlo::RsqrtOp, hlo::SqrtOp,
          hlo::LogisticOp>(op) &&
      !isFloat)
    return "on integers";
  if (isa<hlo::AddOp, hlo::SubtractOp, hlo::MultiplyOp, hlo::DivideOp,
          hlo::MaximumOp, hlo::MinimumOp, hlo::NegOp, hlo::AbsOp,
          hlo::SignOp>(op) &&
      elem.isInteger(1))
    return "on pred";
  return "";
}

} // namespace

//===----------------------------------------------------------------------===//
// Elementwise: flat loops over (8,128) tiles
//===----------------------------------------------------------------------===//

/// The register value of `v` for the tile `tileIndex` of the kernel. `ins`
/// maps the kernel's array inputs to their VMEM block and the byte stride
/// of a tile in it; `memo` holds what is already computed for this tile
/// (and the broadcast rank-0 operands).
FailureOr<Value>
Lowering::emitTile(Value v, Value tileIndex,
                   llvm::DenseMap<Value, std::pair<VBuf, int64_t>> &ins,
                   llvm::DenseMap<Value, Value> &memo) {
  if (Value r = memo.lookup(v))
    return r;
  Value r;
  Type elem = elementOf(v);
  auto splatInt = [&](int64_t value) -> Value {
    Value cst = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
    return tpu::VSplatOp::create(b, loc, i32Reg(), cst);
  };
  if (auto it = ins.find(v); it != ins.end()) {
    const VBuf &buf = it->second.first;
    r = tpu::VLoadOp::create(b, loc, isIntLike(elem) ? i32Reg() : f32Reg(),
                             buf.arena,
                             add(mul(tileIndex, it->second.second), buf.offset),
                             0);
  } else if (std::optional<Splat> s = anySplat(v)) {
    r = s->isFloat ? splatF32(s->f) : splatInt(s->i);
  } else {
    Operation *def = v.getDefiningOp();
    SmallVector<Value> x;
    for (Value operand : def->getOperands()) {
      FailureOr<Value> o = emitTile(operand, tileIndex, ins, memo);
      if (failed(o))
        return failure();
      x.push_back(*o);
    }
    Type in = elementOf(def->getOperand(0));
    bool isFloat = !isIntLike(in);
    auto sel = [&](Value mask, Value t, Value f) -> Value {
      return tpu::VSelectOp::create(b, loc, mask, t, f);
    };
    auto cmp = [&](tpu::CmpKind kind, Value l, Value rhs) -> Value {
      return tpu::VCmpOp::create(b, loc, i32Reg(), kind, l, rhs);
    };
    auto zero = [&]() { return isFloat ? splatF32(0.0) : splatInt(0); };
    auto one = [&]() { return isFloat ? splatF32(1.0) : splatInt(1); };
    r = llvm::TypeSwitch<Operation *, Value>(def)
            .Case([&](hlo::AddOp) { return tpu::VAddOp::create(b, loc, x[0], x[1]); })
            .Case([&](hlo::SubtractOp) { return tpu::VSubOp::create(b, loc, x[0], x[1]); })
            .Case([&](hlo::MultiplyOp) { return tpu::VMulOp::create(b, loc, x[0], x[1]); })
            .Case([&](hlo::DivideOp) { return tpu::VDivOp::create(b, loc, x[0], x[1]); })
            .Case([&](hlo::RemainderOp) -> Value {
              // a - (a / b) * b: VDIV's x / 0 = -1 and INT_MIN / -1 =
              // INT_MIN give XLA's a % 0 = a and INT_MIN % -1 = 0.
              Value q = tpu::VDivOp::create(b, loc, x[0], x[1]);
              Value p = tpu::VMulOp::create(b, loc, q, x[1]);
              return tpu::VSubOp::create(b, loc, x[0], p);
            })
            .Case<hlo::MaximumOp, hlo::OrOp>([&](Operation *) {
              return tpu::VMaxOp::create(b, loc, x[0], x[1]);
            })
            .Case<hlo::MinimumOp, hlo::AndOp>([&](Operation *) {
              return tpu::VMinOp::create(b, loc, x[0], x[1]);
            })
            .Case([&](hlo::XorOp) { return cmp(tpu::CmpKind::ne, x[0], x[1]); })
            .Case([&](hlo::NotOp) -> Value {
              return tpu::VSubOp::create(b, loc, splatInt(1), x[0]);
            })
            .Case([&](hlo::NegOp) { return tpu::VNegOp::create(b, loc, x[0]); })
            .Case([&](hlo::AbsOp) { return tpu::VAbsOp::create(b, loc, x[0]); })
            .Case([&](hlo::SignOp) -> Value {
              // sign(x) = x > 0 ? 1 : (x < 0 ? -1 : x), which keeps -0, +0
              // and NaN as XLA does.
              Value neg = sel(cmp(tpu::CmpKind::lt, x[0], zero()),
                              isFloat ? splatF32(-1.0) : splatInt(-1), x[0]);
              return sel(cmp(tpu::CmpKind::gt, x[0], zero()), one(), neg);
            })
            .Case([&](hlo::ExpOp) { return tpu::VExpOp::create(b, loc, x[0]); })
            .Case([&](hlo::LogOp) { return tpu::VLogOp::create(b, loc, x[0]); })
            .Case([&](hlo::TanhOp) { return tpu::VTanhOp::create(b, loc, x[0]); })
            .Case([&](hlo::RsqrtOp) { return tpu::VRsqrtOp::create(b, loc, x[0]); })
            .Case([&](hlo::SqrtOp) { return tpu::VSqrtOp::create(b, loc, x[0]); })
            .Case([&](hlo::LogisticOp) -> Value {
              // 1 / (1 + e^-x), as XLA expands it.
              Value e = tpu::VExpOp::create(
                  b, loc, tpu::VNegOp::create(b, loc, x[0]));
              return tpu::VDivOp::create(
                  b, loc, one(), tpu::VAddOp::create(b, loc, one(), e));
            })
            .Case([&](hlo::ClampOp) -> Value {
              // min(max(x, lo), hi); operands are (lo, x, hi).
              Value m = tpu::VMaxOp::create(b, loc, x[1], x[0]);
              return tpu::VMinOp::create(b, loc, m, x[2]);
            })
            .Case([&](hlo::CopyOp) { return x[0]; })
            .Case([&](hlo::ConvertOp) -> Value {
              Type out = elem;
              if (out.isInteger(1)) // x != 0 (NaN is true, -0 false)
                return cmp(tpu::CmpKind::ne, x[0], zero());
              if (isIntLike(in) == isIntLike(out))
                return x[0]; // a bf16 result is rounded by its store
              if (isIntLike(in)) // s32/pred -> f32 (rounds to nearest even)
                return tpu::VConvertOp::create(b, loc, f32Reg(), x[0]);
              // f32/bf16 -> s32: truncates, saturates, NaN -> 0.
              return tpu::VConvertOp::create(b, loc, i32Reg(), x[0]);
            })
            .Case([&](hlo::SelectOp) { return sel(x[0], x[1], x[2]); })
            .Case([&](hlo::CompareOp c) -> Value {
              return cmp(*cmpKind(c.getComparisonDirection()), x[0], x[1]);
            })
            .Default([&](Operation *) { return Value(); });
    if (!r)
      return FailureOr<Value>(unsupported(def));
    // Keep the hlo op's location on what it computes (the debug map).
    if (Operation *rdef = r.getDefiningOp(); rdef && !isa<tpu::VLoadOp>(rdef))
      rdef->setLoc(def->getLoc());
  }
  memo[v] = r;
  return r;
}

LogicalResult Lowering::lowerElementwise(Operation *op) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  Geometry g = geometryOf(type);
  // The array inputs: operands (and an inlined compare's operands) that
  // are not splat constants. A compare without a buffer lives in the
  // registers of the select that uses it.
  SmallVector<Value> inputs, scalars;
  std::function<LogicalResult(Operation *)> collect =
      [&](Operation *user) -> LogicalResult {
    if (std::string why = unsupportedForm(user); !why.empty())
      return unsupported(user, why);
    for (Value v : user->getOperands()) {
      if (anySplat(v))
        continue;
      auto cmp = v.getDefiningOp<hlo::CompareOp>();
      if (cmp && !hbm.count(v)) {
        if (failed(collect(cmp)))
          return failure();
        continue;
      }
      if (llvm::is_contained(inputs, v) || llvm::is_contained(scalars, v))
        continue;
      auto t = cast<RankedTensorType>(v.getType());
      if (!isLowerableElementType(t.getElementType()))
        return unsupported(op, "on this element type");
      if (t.getRank() == 0 && type.getRank() != 0)
        scalars.push_back(v); // broadcast to every lane
      else if (t.getShape() != type.getShape())
        return unsupported(op, "with operands of different shapes");
      else
        inputs.push_back(v);
    }
    return success();
  };
  if (failed(collect(op)))
    return failure();

  // Blocks of whole tiles: a divisor of the tile count, at most 64 tiles
  // (256 KiB of f32) per array.
  int64_t blockTiles = largestDivisorAtMost(g.tiles(), 64);
  int64_t blocks = g.tiles() / blockTiles;
  llvm::DenseMap<Value, std::pair<VBuf, int64_t>> ins;
  SmallVector<std::pair<Value, VBuf>> inMems;
  for (Value in : inputs) {
    auto t = cast<RankedTensorType>(in.getType());
    int64_t tileBytes = geometryOf(t).tileBytes();
    FailureOr<Value> mem = memOf(in);
    if (failed(mem))
      return failure();
    VBuf buf = vmem(storageType(t.getElementType()), blockTiles * tileBytes);
    ins[in] = {buf, tileBytes};
    inMems.push_back({*mem, buf});
  }
  // Rank-0 operands of an array op: one tile each, element 0 broadcast to
  // every lane once, before the loops.
  llvm::DenseMap<Value, Value> broadcasts;
  if (!scalars.empty()) {
    llvm::DenseMap<Value, std::pair<VBuf, int64_t>> scalarIns;
    for (Value s : scalars) {
      auto t = cast<RankedTensorType>(s.getType());
      FailureOr<Value> mem = memOf(s);
      if (failed(mem))
        return failure();
      VBuf buf = vmem(storageType(t.getElementType()),
                      geometryOf(t).tileBytes());
      scalarIns[s] = {buf, 0};
      dma(*mem, c(0), buf.arena, c(buf.offset), 1, buf.bytes, 0, 0, 0);
    }
    wait(0, scalars.size());
    llvm::DenseMap<Value, Value> memo;
    for (Value s : scalars) {
      Value tile = *emitTile(s, c(0), scalarIns, memo);
      Value lane = tpu::VBroadcastLaneOp::create(b, loc, tile, c(0));
      broadcasts[s] = tpu::VBroadcastSublaneOp::create(b, loc, lane, c(0));
    }
  }
  Type outElem = storageType(type.getElementType());
  VBuf outBuf = vmem(outElem, blockTiles * g.tileBytes());
  Value out = allocHbm(type, op->getLoc());
  hbm[op->getResult(0)] = out;

  LogicalResult status = success();
  loop(blocks, [&](Value blk) {
    for (auto &[mem, buf] : inMems) {
      int64_t bytes = buf.bytes;
      dma(mem, mul(blk, bytes), buf.arena, c(buf.offset), 1, bytes, 0, 0, 0);
    }
    wait(0, inMems.size());
    loop(blockTiles, [&](Value t) {
      llvm::DenseMap<Value, Value> memo = broadcasts;
      FailureOr<Value> r = emitTile(op->getResult(0), t, ins, memo);
      if (failed(r)) {
        status = failure();
        return;
      }
      tpu::VStoreOp::create(b, loc, *r, outBuf.arena,
                            add(mul(t, g.tileBytes()), outBuf.offset), 0);
    });
    dma(outBuf.arena, c(outBuf.offset), out, mul(blk, outBuf.bytes), 1,
        outBuf.bytes, 0, 0, 1);
    wait(1, 1);
  });
  return status;
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
