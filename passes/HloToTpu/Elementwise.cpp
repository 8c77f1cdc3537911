//===- Elementwise.cpp - VPU loops over (8,128) tiles -------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
//
// f32 and bf16 compute in f32 registers (bf16 loads widened, stores
// rounded); s32 and pred in s32 registers, pred as 0/1, so the bitwise
// instructions are also pred's logic (not = xor 1). Ops that are one VPU
// instruction are a row of directOps(); the others are expanded in
// emitTile.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Lowering.h"

#include "passes/ElementTypeChange.h"

#include "compiler/fusion/FusedKernelSupport.h"

#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;

namespace tpuc::hlotpu {

namespace {

Type elementOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

/// s32 and pred live in s32 registers; f32 and bf16 in f32 registers.
bool isIntLike(Type elem) {
  return elem.isInteger(32) || elem.isInteger(1) || isNarrowInt(elem);
}

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

namespace {

/// hlo ops that are one VPU instruction on their operands' registers
/// (`isUnsigned`: u32 operands).
using DirectBuilder = Value (*)(OpBuilder &, Location, ValueRange,
                                bool isUnsigned);
template <typename TpuOp>
Value unary(OpBuilder &b, Location loc, ValueRange x, bool) {
  return TpuOp::create(b, loc, x[0]);
}
template <typename TpuOp>
Value binary(OpBuilder &b, Location loc, ValueRange x, bool) {
  return TpuOp::create(b, loc, x[0], x[1]);
}
/// The ops whose u32 result is not the s32 one's bits: the ISA's dtype U32.
template <typename TpuOp>
Value signedBinary(OpBuilder &b, Location loc, ValueRange x, bool isUnsigned) {
  return TpuOp::create(b, loc, x[0], x[1], isUnsigned);
}

const llvm::DenseMap<TypeID, DirectBuilder> &directOps() {
  static const llvm::DenseMap<TypeID, DirectBuilder> table = {
      {TypeID::get<hlo::AddOp>(), binary<tpu::VAddOp>},
      {TypeID::get<hlo::SubtractOp>(), binary<tpu::VSubOp>},
      {TypeID::get<hlo::MultiplyOp>(), binary<tpu::VMulOp>},
      // s32: x / 0 = -1; u32: 2^32 - 1 (XLA's, both all ones).
      {TypeID::get<hlo::DivideOp>(), signedBinary<tpu::VDivOp>},
      // s32: VREM's x % 0 = x and x % -1 = 0 are XLA's; u32: x % 0 = x;
      // f32: fmod.
      {TypeID::get<hlo::RemainderOp>(), signedBinary<tpu::VRemOp>},
      {TypeID::get<hlo::MaximumOp>(), signedBinary<tpu::VMaxOp>},
      {TypeID::get<hlo::MinimumOp>(), signedBinary<tpu::VMinOp>},
      {TypeID::get<hlo::MulhiOp>(), signedBinary<tpu::VMulhiOp>},
      {TypeID::get<hlo::AndOp>(), binary<tpu::VAndOp>},
      {TypeID::get<hlo::OrOp>(), binary<tpu::VOrOp>},
      {TypeID::get<hlo::XorOp>(), binary<tpu::VXorOp>},
      {TypeID::get<hlo::ShiftLeftOp>(), binary<tpu::VShlOp>},
      {TypeID::get<hlo::ShiftRightLogicalOp>(), binary<tpu::VShrlOp>},
      {TypeID::get<hlo::ShiftRightArithmeticOp>(), binary<tpu::VShraOp>},
      {TypeID::get<hlo::NegOp>(), unary<tpu::VNegOp>},
      {TypeID::get<hlo::AbsOp>(), unary<tpu::VAbsOp>},
      {TypeID::get<hlo::ExpOp>(), unary<tpu::VExpOp>},
      {TypeID::get<hlo::LogOp>(), unary<tpu::VLogOp>},
      {TypeID::get<hlo::TanhOp>(), unary<tpu::VTanhOp>},
      {TypeID::get<hlo::RsqrtOp>(), unary<tpu::VRsqrtOp>},
      {TypeID::get<hlo::SqrtOp>(), unary<tpu::VSqrtOp>},
      {TypeID::get<hlo::PopcntOp>(), unary<tpu::VPopcntOp>},
      {TypeID::get<hlo::ClzOp>(), unary<tpu::VClzOp>},
      {TypeID::get<hlo::FloorOp>(), unary<tpu::VFloorOp>},
      {TypeID::get<hlo::CeilOp>(), unary<tpu::VCeilOp>},
      {TypeID::get<hlo::RoundNearestAfzOp>(), unary<tpu::VRoundAfzOp>},
      {TypeID::get<hlo::RoundNearestEvenOp>(), unary<tpu::VRoundEvenOp>},
  };
  return table;
}

DirectBuilder directBuilder(Operation *op) {
  std::optional<RegisteredOperationName> name = op->getRegisteredInfo();
  return name ? directOps().lookup(name->getTypeID()) : nullptr;
}

/// 32-bit element types: the ones bitcast-convert reinterprets in place.
bool is32Bit(Type elem) { return elem.isF32() || elem.isInteger(32); }

/// tpu ops on f32 registers for NarrowFloatRounding::build.
struct TpuRoundingOps {
  KernelBuilder &k;

  Value constant(double c) { return k.splatF32(c); }
  Value reducePrecision(Value x, int e, int m) {
    return tpu::VReducePrecisionOp::create(k.b, k.loc, x, k.c(e), k.c(m));
  }
  Value multiply(Value x, Value y) {
    return tpu::VMulOp::create(k.b, k.loc, x, y);
  }
  Value roundNearestEven(Value x) {
    return tpu::VRoundEvenOp::create(k.b, k.loc, x);
  }
  Value abs(Value x) { return tpu::VAbsOp::create(k.b, k.loc, x); }
  Value lessThan(Value x, Value y) { return k.vcmp(tpu::CmpKind::lt, x, y); }
  Value greaterThan(Value x, Value y) {
    return k.vcmp(tpu::CmpKind::gt, x, y);
  }
  Value equal(Value x, Value y) { return k.vcmp(tpu::CmpKind::eq, x, y); }
  Value select(Value p, Value a, Value b) { return k.vsel(p, a, b); }
};

} // namespace

bool isLoopKernelOp(Operation *op) {
  return directBuilder(op) ||
         isa<hlo::NotOp, hlo::SignOp, hlo::LogisticOp, hlo::ClampOp,
             hlo::CopyOp, hlo::ConvertOp, hlo::SelectOp, hlo::CompareOp,
             hlo::IsFiniteOp, hlo::BitcastConvertOp, hlo::ReducePrecisionOp>(
             op);
}

/// Why the elementwise kernel cannot compute `op` (empty if it can).
std::string unsupportedForm(Operation *op) {
  Type elem = elementOf(op->getOperand(0));
  bool isFloat = elem.isF32() || elem.isBF16();
  if (isa<hlo::CompareOp>(op))
    return "";
  // f16 and f8 arrays are f32 words holding their values: a convert rounds
  // to them, other arithmetic is tpuc-expand-narrow-floats's (in f32, then
  // that rounding).
  Type result = elementOf(op->getResult(0));
  if (isNarrowFloat(result) && !isa<hlo::ConvertOp, hlo::CopyOp>(op)) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "on " << result
       << " (tpuc-expand-narrow-floats computes it in f32)";
    return s;
  }
  if (isa<hlo::BitcastConvertOp>(op)) {
    Type out = cast<RankedTensorType>(op->getResult(0).getType())
                   .getElementType();
    if (is32Bit(elem) && is32Bit(out))
      return "";
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "from " << elem << " to " << out << " (only f32 <-> s32)";
    return s;
  }
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
    // u32 lives in i32 registers; the ops whose result depends on the sign
    // are `unsigned` (abs and sign have their own u32 forms below).
    bool isUnsigned = in.isUnsignedInteger(32);
    auto sel = [&](Value mask, Value t, Value f) -> Value {
      return tpu::VSelectOp::create(b, loc, mask, t, f);
    };
    auto cmp = [&](tpu::CmpKind kind, Value l, Value rhs) -> Value {
      return tpu::VCmpOp::create(b, loc, i32Reg(), kind, l, rhs);
    };
    auto zero = [&]() { return isFloat ? splatF32(0.0) : splatInt(0); };
    auto one = [&]() { return isFloat ? splatF32(1.0) : splatInt(1); };
    auto bitcast = [&](VectorType type, Value v) -> Value {
      return tpu::VBitcastOp::create(b, loc, type, v);
    };
    // The s32 key of an f32 whose signed order is XLA's total order
    // (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN): negative values
    // get their magnitude bits flipped.
    auto totalOrderKey = [&](Value v) -> Value {
      Value bits = bitcast(i32Reg(), v);
      Value sign = tpu::VShraOp::create(b, loc, bits, splatInt(31));
      Value flip = tpu::VAndOp::create(b, loc, sign, splatInt(0x7fffffff));
      return tpu::VXorOp::create(b, loc, bits, flip);
    };
    // An 8/16-bit integer in s32 words (tpuc-expand-narrow-ints' forms):
    // integers wrap (sign-extend the low bits, or mask them); floats
    // convert to s32 (truncating, saturating, NaN -> 0) and clamp.
    auto toNarrow = [&](Value v, Type narrow, bool fromFloat) -> Value {
      if (fromFloat) {
        v = tpu::VConvertOp::create(b, loc, i32Reg(), v);
        auto [lo, hi] = narrowBounds(narrow);
        v = tpu::VMaxOp::create(b, loc, v, splatInt(lo));
        return tpu::VMinOp::create(b, loc, v, splatInt(hi));
      }
      return wrapToNarrow<tpu::VAndOp, tpu::VShlOp, tpu::VShraOp>(
          b, loc, v, narrow, splatInt);
    };
    if (isUnsigned && isa<hlo::AbsOp>(def))
      r = x[0]; // |x| = x
    else if (DirectBuilder direct = directBuilder(def))
      r = direct(b, loc, x, isUnsigned);
    else
      r = llvm::TypeSwitch<Operation *, Value>(def)
            .Case([&](hlo::NotOp) -> Value {
              // pred is 0/1: not = xor 1; s32: xor -1.
              return tpu::VXorOp::create(
                  b, loc, x[0], splatInt(in.isInteger(1) ? 1 : -1));
            })
            .Case([&](hlo::IsFiniteOp) -> Value {
              // |x| < inf: false for +-inf and NaN.
              return cmp(tpu::CmpKind::lt, tpu::VAbsOp::create(b, loc, x[0]),
                         splatF32(std::numeric_limits<double>::infinity()));
            })
            .Case([&](hlo::BitcastConvertOp) -> Value {
              VectorType out = isIntLike(elem) ? i32Reg() : f32Reg();
              return x[0].getType() == out ? x[0] : bitcast(out, x[0]);
            })
            .Case([&](hlo::ReducePrecisionOp rp) -> Value {
              return tpu::VReducePrecisionOp::create(
                  b, loc, x[0], c(rp.getExponentBits()),
                  c(rp.getMantissaBits()));
            })
            .Case([&](hlo::SignOp) -> Value {
              if (isUnsigned) // x != 0 is the 0/1 mask
                return cmp(tpu::CmpKind::ne, x[0], zero());
              // sign(x) = x > 0 ? 1 : (x < 0 ? -1 : x), which keeps -0, +0
              // and NaN as XLA does.
              Value neg = sel(cmp(tpu::CmpKind::lt, x[0], zero()),
                              isFloat ? splatF32(-1.0) : splatInt(-1), x[0]);
              return sel(cmp(tpu::CmpKind::gt, x[0], zero()), one(), neg);
            })
            .Case([&](hlo::LogisticOp) -> Value {
              // 1 / (1 + e^-x), as XLA expands it.
              Value e = tpu::VExpOp::create(
                  b, loc, tpu::VNegOp::create(b, loc, x[0]));
              return tpu::VDivOp::create(
                  b, loc, one(), tpu::VAddOp::create(b, loc, one(), e));
            })
            .Case([&](hlo::ClampOp) -> Value {
              // min(max(x, lo), hi); operands are (lo, x, hi).
              Value m = tpu::VMaxOp::create(b, loc, x[1], x[0], isUnsigned);
              return tpu::VMinOp::create(b, loc, m, x[2], isUnsigned);
            })
            .Case([&](hlo::CopyOp) { return x[0]; })
            .Case([&](hlo::ConvertOp) -> Value {
              Type out = elem;
              if (out.isInteger(1)) // x != 0 (NaN is true, -0 false)
                return cmp(tpu::CmpKind::ne, x[0], zero());
              if (isNarrowInt(out)) // s32 words holding the narrow value
                return toNarrow(x[0], out, isFloat);
              // f32 words holding an f16 or f8 value: XLA's convert,
              // the rounding tpuc-expand-narrow-floats builds
              // (passes/NarrowFloat.h, docs/integers.md).
              if (std::optional<NarrowFloatRounding> rounding =
                      NarrowFloatRounding::of(out)) {
                Value f = isIntLike(in) ? tpu::VConvertOp::create(
                                              b, loc, f32Reg(), x[0], isUnsigned)
                                        : x[0];
                TpuRoundingOps ops{*this};
                return rounding->build(ops, f);
              }
              if (isIntLike(in) == isIntLike(out))
                return x[0]; // a bf16 result is rounded by its store
              if (isIntLike(in)) // s32/u32/pred -> f32 (to nearest even)
                return tpu::VConvertOp::create(b, loc, f32Reg(), x[0],
                                               isUnsigned);
              // f32/bf16 -> s32/u32: truncates, saturates, NaN -> 0.
              return tpu::VConvertOp::create(b, loc, i32Reg(), x[0],
                                             out.isUnsignedInteger(32));
            })
            .Case([&](hlo::SelectOp) { return sel(x[0], x[1], x[2]); })
            .Case([&](hlo::CompareOp c) -> Value {
              Value l = x[0], rhs = x[1];
              std::optional<hlo::ComparisonType> type = c.getCompareType();
              if (isFloat && type == hlo::ComparisonType::TOTALORDER) {
                l = totalOrderKey(l);
                rhs = totalOrderKey(rhs);
              }
              // XLA compares u32 unsigned unless the compare type says
              // otherwise (and s32 so when it says UNSIGNED).
              bool isUnsignedCmp =
                  in.isInteger(32) &&
                  (type ? *type == hlo::ComparisonType::UNSIGNED : isUnsigned);
              return tpu::VCmpOp::create(b, loc, i32Reg(),
                                         *cmpKind(c.getComparisonDirection()),
                                         l, rhs, isUnsignedCmp);
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

LogicalResult checkRegisterRegion(Operation *op, Region &region,
                                  llvm::StringRef what) {
  for (Operation &inner : region.front().without_terminator()) {
    bool rankZero = llvm::all_of(inner.getResultTypes(), [](Type t) {
      auto r = dyn_cast<RankedTensorType>(t);
      return r && r.getRank() == 0 && isLowerableElementType(r.getElementType());
    });
    bool onRegisters =
        isa<hlo::ConstantOp>(inner)
            ? isSplatConstant(inner.getResult(0))
            : isLoopKernelOp(&inner) && unsupportedForm(&inner).empty();
    if (!rankZero || !onRegisters)
      return unsupported(op, "with " + what + " that computes '" +
                                 inner.getName().getStringRef() +
                                 "' (the VPU evaluates it: elementwise ops "
                                 "and constants)");
  }
  return success();
}

SmallVector<Value> Lowering::emitRegion(Region &region, ValueRange args) {
  Block &body = region.front();
  llvm::DenseMap<Value, Value> memo;
  for (auto [arg, reg] : llvm::zip(body.getArguments(), args))
    memo[arg] = reg;
  llvm::DenseMap<Value, std::pair<VBuf, int64_t>> none;
  SmallVector<Value> results;
  for (Value v : body.getTerminator()->getOperands())
    results.push_back(*emitTile(v, c(0), none, memo));
  return results;
}

bool fitsLoopKernel(Operation *op) {
  if (!isLoopKernelOp(op))
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
    // One VPU op: reduce-precision to bf16's 8 exponent and 7 mantissa
    // bits rounds the f32 bits to nearest even exactly as a convert to
    // bf16 does (docs/isa.md), and keeps the result in an f32 register,
    // where a convert pair (f32 -> bf16 -> f32) takes two. NaN stays a NaN.
    rounded = tpu::VReducePrecisionOp::create(b, loc, reg, c(8), c(7));
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
