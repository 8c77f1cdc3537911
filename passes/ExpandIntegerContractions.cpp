//===- ExpandIntegerContractions.cpp - integer contractions on the MXU ---===//
//
// tpuc-expand-integer-contractions: the MXU multiplies bf16 and accumulates
// in f32, and both are exact on small integers: every 8-bit integer is a
// bf16, the product of two is at most 2^16 in magnitude, and an f32 sum of
// such products is exact while it stays within 2^24. So an integer
// dot_general or convolution (8, 16 or 32-bit operands) is computed as
//
//   * each operand split into bytes ("pieces": the low ones zero-extended,
//     the top one sign-extended for signed types), converted to bf16;
//   * for each pair of pieces (i, j) whose weight 2^(8(i+j)) reaches the
//     result's bits, the op on those pieces with an f32 result, in chunks
//     of the contraction small enough that no f32 sum can exceed 2^24,
//     each chunk converted to s32;
//   * the terms shifted by 8(i+j) and added in s32 (wrapping, as XLA's
//     integer accumulation), converted to the result type.
//
// An s8 x s8 -> s32 dot is one MXU contraction per 1024-deep chunk; s32 x
// s32 ten of them per 258-deep chunk. With a float result the op is a float
// contraction (its operands converted), as XLA's evaluator computes it.
// 64-bit dots and convolutions stay for tpuc-expand-x64. See Passes.td and
// docs/integers.md.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/DotCost.h"
#include "passes/LinalgBuilder.h"
#include "passes/ModuleTarget.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/Builders.h"

namespace tpuc {
#define GEN_PASS_DEF_EXPANDINTEGERCONTRACTIONS
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// The largest f32 sum of integers that is exact whatever their order.
constexpr int64_t kExactF32 = int64_t(1) << 24;

/// The deepest exact chunk for pieces whose product is at most `bound`.
constexpr int64_t exactDepth(int64_t bound) { return kExactF32 / bound; }

/// `t`'s element type when it is a 4, 8, 16 or 32-bit integer, else null.
IntegerType contractedIntType(Type t) {
  auto elem = dyn_cast<IntegerType>(cast<RankedTensorType>(t).getElementType());
  if (!elem || (elem.getWidth() != 4 && elem.getWidth() != 8 &&
                elem.getWidth() != 16 && elem.getWidth() != 32))
    return {};
  return elem;
}

/// The bytes of an integer type: s4/u4 are one byte piece.
int64_t byteCount(IntegerType elem) {
  return std::max<int64_t>(1, elem.getWidth() / 8);
}

/// Whether `t` is a result type this pass computes: a 4, 8, 16 or 32-bit
/// integer or an f32/bf16/f16.
bool isExpandedResult(Type t) {
  Type elem = cast<RankedTensorType>(t).getElementType();
  if (isa<IntegerType>(elem))
    return static_cast<bool>(contractedIntType(t));
  return elem.isF32() || elem.isBF16() || elem.isF16();
}

/// An operand split into bf16 byte pieces, least significant first, with
/// the bound on each piece's magnitude.
struct Pieces {
  SmallVector<Value> values;
  SmallVector<int64_t> bounds;
};

/// Where and how deep an op contracts, for chunking: the operand
/// dimensions sliced together and the product of the contraction's other
/// sizes (the window; the dot's other contracting dims).
struct Contraction {
  int64_t lhsDim = -1, rhsDim = -1; // -1: not chunked
  int64_t size = 1;                 // the sliced dimension's size
  int64_t otherDepth = 1;
};

class Expander {
public:
  Expander(MLIRContext *ctx, DotMachine machine) : b(ctx), machine(machine) {}

  LogicalResult expand(Operation *op);

private:
  Value splatLike(Value x, int64_t v) {
    LinalgBuilder lb(b, x.getLoc());
    return lb.splat(tensorType(x), static_cast<double>(v));
  }
  Pieces split(Value operand, IntegerType elem, int64_t needed);
  FailureOr<Value> term(Operation *op, Value lhs, Value rhs,
                        const Contraction &c, int64_t bound);
  Value contract(Operation *op, Value lhs, Value rhs);

  OpBuilder b;
  DotMachine machine;
};

/// The operand's pieces: at most `needed`, the ones below the result's
/// width (a piece at byte k contributes only from bit 8k up).
Pieces Expander::split(Value operand, IntegerType elem, int64_t needed) {
  Location loc = operand.getLoc();
  RankedTensorType type = tensorType(operand);
  auto s32Type = type.clone(b.getI32Type());
  auto bf16Type = type.clone(b.getBF16Type());
  // The value in s32: extended exactly, or a u32's bits.
  Value x = elem.getWidth() == 32
                ? (elem.isUnsigned() ? Value(hlo::BitcastConvertOp::create(
                                           b, loc, s32Type, operand))
                                     : operand)
                : Value(hlo::ConvertOp::create(b, loc, s32Type, operand));
  int64_t count = byteCount(elem);
  Pieces p;
  for (int64_t k = 0; k < count && k < needed; ++k) {
    bool top = k == count - 1;
    bool signedTop = top && !elem.isUnsigned();
    Value v = x;
    if (count > 1) {
      if (k > 0)
        v = signedTop
                ? Value(hlo::ShiftRightArithmeticOp::create(
                      b, loc, v, splatLike(v, 8 * k)))
                : Value(hlo::ShiftRightLogicalOp::create(b, loc, v,
                                                         splatLike(v, 8 * k)));
      if (!top)
        v = hlo::AndOp::create(b, loc, v, splatLike(v, 0xff));
    }
    p.values.push_back(hlo::ConvertOp::create(b, loc, bf16Type, v));
    // A piece's magnitude: 8 bits (s4/u4: 4) signed or unsigned.
    int64_t bits = std::min<int64_t>(8, elem.getWidth());
    p.bounds.push_back(signedTop ? int64_t(1) << (bits - 1)
                                 : (int64_t(1) << bits) - 1);
  }
  return p;
}

/// `op` (a dot_general or convolution) on `lhs` and `rhs` with an f32
/// result: a clone with the new operands.
Value Expander::contract(Operation *op, Value lhs, Value rhs) {
  Operation *clone = b.clone(*op);
  clone->setOperands({lhs, rhs});
  // Chunks slice contracted dims only: the result keeps its shape.
  clone->getResult(0).setType(
      cast<RankedTensorType>(op->getResult(0).getType())
          .clone(b.getF32Type()));
  clone->removeAttr("precision_config");
  return clone->getResult(0);
}

/// sum over chunks of convert<s32>(op(lhs chunk, rhs chunk)): chunks of the
/// contraction no deeper than 2^24 / bound, so each f32 sum is exact.
FailureOr<Value> Expander::term(Operation *op, Value lhs, Value rhs,
                                const Contraction &c, int64_t bound) {
  Location loc = op->getLoc();
  int64_t depth = exactDepth(bound);
  auto s32Type =
      cast<RankedTensorType>(op->getResult(0).getType()).clone(b.getI32Type());
  int64_t chunk = c.size;
  if (c.otherDepth * c.size > depth) {
    if (c.lhsDim < 0 || c.otherDepth > depth)
      return op->emitError()
             << "tpuc computes an integer '" << op->getName()
             << "' exactly on the MXU only while each chunk of its "
                "contraction is at most "
             << depth << " deep (" << c.otherDepth * c.size
             << " here, and its window or grouping cannot be split)";
    chunk = depth / c.otherDepth;
  }
  auto slice = [&](Value x, int64_t dim, int64_t start, int64_t limit) {
    RankedTensorType t = tensorType(x);
    SmallVector<int64_t> lo(t.getRank(), 0), hi(t.getShape()),
        step(t.getRank(), 1);
    lo[dim] = start;
    hi[dim] = limit;
    return hlo::SliceOp::create(b, loc, x, b.getDenseI64ArrayAttr(lo),
                                b.getDenseI64ArrayAttr(hi),
                                b.getDenseI64ArrayAttr(step));
  };
  Value total;
  for (int64_t start = 0; start < c.size; start += chunk) {
    int64_t limit = std::min(c.size, start + chunk);
    Value l = lhs, r = rhs;
    if (chunk < c.size) {
      l = slice(lhs, c.lhsDim, start, limit);
      r = slice(rhs, c.rhsDim, start, limit);
    }
    Value part = hlo::ConvertOp::create(b, loc, s32Type, contract(op, l, r));
    total = total ? Value(hlo::AddOp::create(b, loc, total, part)) : part;
  }
  return total;
}

/// The contraction's chunkable dimension: a dot's largest contracting
/// dimension; a convolution's input feature (ungrouped only).
Contraction contraction(Operation *op) {
  Contraction c;
  if (auto dot = dyn_cast<hlo::DotGeneralOp>(op)) {
    RankedTensorType lt = tensorType(dot.getLhs());
    hlo::DotDimensionNumbersAttr dn = dot.getDotDimensionNumbers();
    ArrayRef<int64_t> lc = dn.getLhsContracting(), rc = dn.getRhsContracting();
    int64_t best = -1;
    for (size_t i = 0; i < lc.size(); ++i)
      if (best < 0 || lt.getDimSize(lc[i]) > lt.getDimSize(lc[best]))
        best = i;
    if (best < 0)
      return c; // an outer product: no contraction
    c.lhsDim = lc[best];
    c.rhsDim = rc[best];
    c.size = lt.getDimSize(c.lhsDim);
    for (size_t i = 0; i < lc.size(); ++i)
      if (static_cast<int64_t>(i) != best)
        c.otherDepth *= lt.getDimSize(lc[i]);
    return c;
  }
  auto conv = cast<hlo::ConvolutionOp>(op);
  RankedTensorType rt = tensorType(conv.getRhs());
  hlo::ConvDimensionNumbersAttr dn = conv.getDimensionNumbers();
  for (int64_t d : dn.getKernelSpatial())
    c.otherDepth *= rt.getDimSize(d);
  c.size = rt.getDimSize(dn.getKernelInputFeature());
  if (conv.getFeatureGroupCount() == 1 && conv.getBatchGroupCount() == 1) {
    c.lhsDim = dn.getInputFeature();
    c.rhsDim = dn.getKernelInputFeature();
  }
  return c;
}

LogicalResult Expander::expand(Operation *op) {
  IntegerType le = contractedIntType(op->getOperand(0).getType()),
              re = contractedIntType(op->getOperand(1).getType());
  Type resultType = op->getResult(0).getType();
  if (!le || !re || !isExpandedResult(resultType))
    return success();
  auto result = cast<RankedTensorType>(resultType);
  Type resultElem = result.getElementType();
  Location loc = op->getLoc();
  b.setInsertionPoint(op);
  if (isa<FloatType>(resultElem)) {
    // A float result is a float contraction (as XLA's evaluator: the
    // operands converted, the sum in f32): bytes are bf16, wider integers f32.
    for (unsigned k = 0; k < 2; ++k) {
      Value x = op->getOperand(k);
      IntegerType elem = k == 0 ? le : re;
      Type to = elem.getWidth() <= 8 ? Type(b.getBF16Type()) : b.getF32Type();
      op->setOperand(k, hlo::ConvertOp::create(b, loc, tensorType(x).clone(to), x));
    }
    return success();
  }
  // The bytes of the s32 sum the result keeps.
  int64_t resultBytes = byteCount(cast<IntegerType>(resultElem));
  Contraction c = contraction(op);
  if (auto dot = dyn_cast<hlo::DotGeneralOp>(op)) {
    // A dot the VPU computes more cheaply than its MXU pieces stays for
    // tpuc-strength-reduce-dots (in s32: tpuc-expand-narrow-ints widens it).
    int64_t lp = byteCount(le), rp = byteCount(re), pairs = 0;
    for (int64_t i = 0; i < lp; ++i)
      pairs += std::max<int64_t>(0, std::min(rp, resultBytes - i));
    constexpr int64_t shallowest = exactDepth(255 * 255); // low x low
    int64_t chunks = std::max<int64_t>(
        1, (c.size * c.otherDepth + shallowest - 1) / shallowest);
    if (vpuDotIsCheaper(dotSizes(dot), machine, pairs * chunks))
      return success();
  }
  Pieces lhs = split(op->getOperand(0), le, resultBytes);
  Pieces rhs = split(op->getOperand(1), re, resultBytes);
  Value total;
  for (size_t i = 0; i < lhs.values.size(); ++i)
    for (size_t j = 0; i + j < static_cast<size_t>(resultBytes) &&
                       j < rhs.values.size();
         ++j) {
      FailureOr<Value> t = term(op, lhs.values[i], rhs.values[j], c,
                                lhs.bounds[i] * rhs.bounds[j]);
      if (failed(t))
        return failure();
      Value v = *t;
      if (i + j > 0)
        v = hlo::ShiftLeftOp::create(b, loc, v,
                                     splatLike(v, 8 * int64_t(i + j)));
      total = total ? Value(hlo::AddOp::create(b, loc, total, v)) : v;
    }
  Value out = total;
  if (resultElem.isUnsignedInteger(32))
    out = hlo::BitcastConvertOp::create(b, loc, result, total);
  else if (!resultElem.isSignlessInteger(32))
    out = hlo::ConvertOp::create(b, loc, result, total);
  op->getResult(0).replaceAllUsesWith(out);
  op->erase();
  return success();
}

class ExpandIntegerContractionsPass
    : public impl::ExpandIntegerContractionsBase<
          ExpandIntegerContractionsPass> {
public:
  using ExpandIntegerContractionsBase::ExpandIntegerContractionsBase;

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<hlo::DotGeneralOp, hlo::ConvolutionOp>(op))
        ops.push_back(op);
    });
    FailureOr<target::TargetSpec> spec =
        moduleTarget(getOperation(), targetName);
    if (failed(spec))
      return signalPassFailure();
    Expander expander(&getContext(), DotMachine::of(*spec));
    for (Operation *op : ops)
      if (failed(expander.expand(op)))
        return signalPassFailure();
  }
};
} // namespace
} // namespace tpuc
