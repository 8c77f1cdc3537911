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

#include "compiler/fusion/FusedKernelSupport.h"

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

} // namespace

bool isSplatConstant(Value v) { return anySplat(v).has_value(); }

namespace {

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

} // namespace

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
      x.push_back(roundOnUse.contains(operand) ? roundToBf16(*o) : *o);
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
    // A bf16 result computed here is exact in f32 registers; the ops that
    // read it see it rounded, as if it had been stored (the interpreter
    // rounds after every op).
    if (elem.isBF16())
      roundOnUse.insert(v);
    // Keep the hlo op's location on what it computes (the debug map).
    if (Operation *rdef = r.getDefiningOp(); rdef && !isa<tpu::VLoadOp>(rdef))
      rdef->setLoc(def->getLoc());
  }
  memo[v] = r;
  return r;
}

bool fitsLoopKernel(Operation *op) {
  if (!isa<hlo::AddOp, hlo::SubtractOp, hlo::MultiplyOp, hlo::DivideOp,
           hlo::MaximumOp, hlo::MinimumOp, hlo::NegOp, hlo::AbsOp, hlo::ExpOp,
           hlo::LogOp, hlo::TanhOp, hlo::RsqrtOp, hlo::SqrtOp, hlo::SelectOp,
           hlo::ConvertOp, hlo::CopyOp, hlo::CompareOp, hlo::AndOp, hlo::OrOp,
           hlo::XorOp, hlo::NotOp, hlo::LogisticOp, hlo::ClampOp,
           hlo::RemainderOp, hlo::SignOp>(op))
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !isLowerableElementType(type.getElementType()))
    return false;
  for (Value v : op->getOperands()) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t || !isLowerableElementType(t.getElementType()) ||
        (t.getShape() != type.getShape() && t.getRank() != 0))
      return false;
  }
  return unsupportedForm(op).empty();
}

LogicalResult Lowering::lowerElementwise(Operation *op) {
  // The op, and the compares without a buffer it reads: those live in
  // the registers of the select that uses them.
  llvm::SmallPtrSet<Operation *, 4> members;
  std::function<void(Operation *)> collect = [&](Operation *user) {
    members.insert(user);
    for (Value v : user->getOperands())
      if (auto cmp = v.getDefiningOp<hlo::CompareOp>(); cmp && !hbm.count(v))
        collect(cmp);
  };
  collect(op);
  return emitLoopKernel(op->getResult(0),
                        [&](Operation *o) { return members.contains(o); });
}

Value Lowering::roundToBf16(Value reg) {
  Value &rounded = roundedRegs[reg];
  if (!rounded) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(reg);
    Value narrow = tpu::VConvertOp::create(
        b, loc, VectorType::get({8, 128}, b.getBF16Type()), reg);
    rounded = tpu::VConvertOp::create(b, loc, f32Reg(), narrow);
  }
  return rounded;
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
