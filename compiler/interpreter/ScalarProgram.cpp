//===- ScalarProgram.cpp - regions run per element, compiled ----------------===//

#include "compiler/interpreter/ScalarProgram.h"

#include "compiler/interpreter/Interpreter.h"
#include "compiler/interpreter/ScalarOps.h"
#include "dialects/hlo/HloOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace tpuc::interpreter {

std::optional<BinaryOp> binaryOpKind(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<BinaryOp>>(op)
      .Case([](hlo::AddOp) { return BinaryOp::Add; })
      .Case([](hlo::SubtractOp) { return BinaryOp::Subtract; })
      .Case([](hlo::MultiplyOp) { return BinaryOp::Multiply; })
      .Case([](hlo::DivideOp) { return BinaryOp::Divide; })
      .Case([](hlo::RemainderOp) { return BinaryOp::Remainder; })
      .Case([](hlo::MaximumOp) { return BinaryOp::Maximum; })
      .Case([](hlo::MinimumOp) { return BinaryOp::Minimum; })
      .Case([](hlo::PowerOp) { return BinaryOp::Power; })
      .Case([](hlo::Atan2Op) { return BinaryOp::Atan2; })
      .Case([](hlo::AndOp) { return BinaryOp::And; })
      .Case([](hlo::OrOp) { return BinaryOp::Or; })
      .Case([](hlo::XorOp) { return BinaryOp::Xor; })
      .Case([](hlo::ShiftLeftOp) { return BinaryOp::ShiftLeft; })
      .Case([](hlo::ShiftRightArithmeticOp) {
        return BinaryOp::ShiftRightArithmetic;
      })
      .Case([](hlo::ShiftRightLogicalOp) { return BinaryOp::ShiftRightLogical; })
      .Case([](hlo::MulhiOp) { return BinaryOp::Mulhi; })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<UnaryOp> unaryOpKind(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<UnaryOp>>(op)
      .Case([](hlo::AbsOp) { return UnaryOp::Abs; })
      .Case([](hlo::CeilOp) { return UnaryOp::Ceil; })
      .Case([](hlo::CosineOp) { return UnaryOp::Cosine; })
      .Case([](hlo::ExpOp) { return UnaryOp::Exp; })
      .Case([](hlo::Expm1Op) { return UnaryOp::Expm1; })
      .Case([](hlo::FloorOp) { return UnaryOp::Floor; })
      .Case([](hlo::LogOp) { return UnaryOp::Log; })
      .Case([](hlo::Log1pOp) { return UnaryOp::Log1p; })
      .Case([](hlo::LogisticOp) { return UnaryOp::Logistic; })
      .Case([](hlo::NegOp) { return UnaryOp::Negate; })
      .Case([](hlo::NotOp) { return UnaryOp::Not; })
      .Case([](hlo::RoundNearestEvenOp) { return UnaryOp::RoundNearestEven; })
      .Case([](hlo::RsqrtOp) { return UnaryOp::Rsqrt; })
      .Case([](hlo::SignOp) { return UnaryOp::Sign; })
      .Case([](hlo::SineOp) { return UnaryOp::Sine; })
      .Case([](hlo::SqrtOp) { return UnaryOp::Sqrt; })
      .Case([](hlo::TanhOp) { return UnaryOp::Tanh; })
      .Case([](hlo::TanOp) { return UnaryOp::Tan; })
      .Case([](hlo::CbrtOp) { return UnaryOp::Cbrt; })
      .Case([](hlo::ErfOp) { return UnaryOp::Erf; })
      .Case([](hlo::RoundNearestAfzOp) { return UnaryOp::RoundNearestAfz; })
      .Case([](hlo::AcosOp) { return UnaryOp::Acos; })
      .Case([](hlo::AcoshOp) { return UnaryOp::Acosh; })
      .Case([](hlo::AsinOp) { return UnaryOp::Asin; })
      .Case([](hlo::AsinhOp) { return UnaryOp::Asinh; })
      .Case([](hlo::AtanOp) { return UnaryOp::Atan; })
      .Case([](hlo::AtanhOp) { return UnaryOp::Atanh; })
      .Case([](hlo::CoshOp) { return UnaryOp::Cosh; })
      .Case([](hlo::SinhOp) { return UnaryOp::Sinh; })
      .Case([](hlo::PopcntOp) { return UnaryOp::Popcnt; })
      .Case([](hlo::ClzOp) { return UnaryOp::Clz; })
      .Default([](Operation *) { return std::nullopt; });
}

CompareSpec compareSpecOf(hlo::CompareOp op) {
  CompareSpec spec;
  spec.direction = op.getComparisonDirection();
  if (auto type = op.getCompareType()) {
    bool isUnsigned = llvm::cast<ShapedType>(op.getLhs().getType())
                          .getElementType()
                          .isUnsignedInteger();
    spec.totalOrder = *type == hlo::ComparisonType::TOTALORDER;
    spec.forceSigned = *type == hlo::ComparisonType::SIGNED && isUnsigned;
    spec.forceUnsigned = *type == hlo::ComparisonType::UNSIGNED && !isUnsigned;
  }
  return spec;
}

namespace {
template <typename S> S fromBits(uint64_t bits) {
  S value;
  std::memcpy(&value, &bits, sizeof(S));
  return value;
}

template <typename S> uint64_t toBits(S value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(S));
  return bits;
}

/// The storage bits of a splat constant's element.
std::optional<uint64_t> splatBits(hlo::ConstantOp op) {
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!dense || !dense.isSplat())
    return std::nullopt;
  Type element = dense.getElementType();
  if (isa<FloatType>(element))
    return dense.getSplatValue<APFloat>().bitcastToAPInt().getZExtValue();
  if (element.isInteger(1))
    return dense.getSplatValue<bool>() ? 1 : 0;
  // Signed integers sign-extended: the low bytes are the bits of every
  // width, and s4's byte holds its value sign-extended.
  APInt value = dense.getSplatValue<APInt>();
  return element.isUnsignedInteger() ? value.getZExtValue()
                                     : static_cast<uint64_t>(value.getSExtValue());
}
} // namespace

std::optional<ScalarProgram> ScalarProgram::compile(Region &region,
                                                    OuterValue outer) {
  if (!region.hasOneBlock())
    return std::nullopt;
  Block &block = region.front();
  ScalarProgram program;
  llvm::DenseMap<Value, unsigned> slotOf;
  auto dtypeOf = [](Value value) -> std::optional<DType> {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || type.getRank() != 0)
      return std::nullopt;
    std::optional<TensorSpec> spec = tensorSpecOf(type);
    if (!spec)
      return std::nullopt;
    return spec->dtype;
  };
  for (BlockArgument arg : block.getArguments()) {
    if (!dtypeOf(arg))
      return std::nullopt;
    slotOf[arg] = program.numSlots++;
  }
  for (Operation &op : block.without_terminator()) {
    if (op.getNumResults() != 1 || !dtypeOf(op.getResult(0)))
      return std::nullopt;
    SmallVector<unsigned, 3> operands;
    for (Value operand : op.getOperands()) {
      if (!dtypeOf(operand))
        return std::nullopt;
      auto it = slotOf.find(operand);
      if (it == slotOf.end()) {
        // A value from outside the region: a constant slot, read now.
        std::optional<uint64_t> bits = outer(operand);
        if (!bits)
          return std::nullopt;
        it = slotOf.insert({operand, program.numSlots++}).first;
        program.constants.push_back({it->second, *bits});
      }
      operands.push_back(it->second);
    }
    unsigned result = program.numSlots++;
    slotOf[op.getResult(0)] = result;
    if (auto constant = dyn_cast<hlo::ConstantOp>(op)) {
      std::optional<uint64_t> bits = splatBits(constant);
      if (!bits)
        return std::nullopt;
      program.constants.push_back({result, *bits});
      continue;
    }
    Inst inst;
    inst.result = result;
    inst.dtype = *dtypeOf(op.getNumOperands() ? op.getOperand(0)
                                              : op.getResult(0));
    inst.a = operands.size() > 0 ? operands[0] : 0;
    inst.b = operands.size() > 1 ? operands[1] : 0;
    inst.c = operands.size() > 2 ? operands[2] : 0;
    if (std::optional<UnaryOp> kind = unaryOpKind(&op)) {
      inst.kind = Kind::Unary;
      inst.unary = *kind;
    } else if (std::optional<BinaryOp> kind = binaryOpKind(&op)) {
      inst.kind = Kind::Binary;
      inst.binary = *kind;
    } else if (auto compare = dyn_cast<hlo::CompareOp>(op)) {
      inst.kind = Kind::Compare;
      inst.compare = compareSpecOf(compare);
    } else if (auto select = dyn_cast<hlo::SelectOp>(op)) {
      inst.kind = Kind::Select;
      inst.dtype = *dtypeOf(select.getOnTrue());
    } else if (auto convert = dyn_cast<hlo::ConvertOp>(op)) {
      inst.kind = Kind::Convert;
      inst.to = *dtypeOf(convert.getResult());
    } else {
      return std::nullopt;
    }
    program.insts.push_back(inst);
  }
  for (Value value : block.getTerminator()->getOperands()) {
    auto it = slotOf.find(value);
    if (it == slotOf.end()) {
      std::optional<uint64_t> bits =
          dtypeOf(value) ? outer(value) : std::nullopt;
      if (!bits)
        return std::nullopt;
      it = slotOf.insert({value, program.numSlots++}).first;
      program.constants.push_back({it->second, *bits});
    }
    program.results.push_back(it->second);
  }
  return program;
}

void ScalarProgram::initSlots(llvm::SmallVectorImpl<uint64_t> &slots) const {
  slots.assign(numSlots, 0);
  for (auto [slot, bits] : constants)
    slots[slot] = bits;
}

void ScalarProgram::run(uint64_t *slots) const {
  for (const Inst &inst : insts) {
    if (inst.kind == Kind::Select) {
      slots[inst.result] = slots[inst.a] ? slots[inst.b] : slots[inst.c];
      continue;
    }
    dispatch(inst.dtype, [&](auto traits) {
      using T = decltype(traits);
      using S = typename T::Storage;
      auto load = [&](unsigned slot) { return T::load(fromBits<S>(slots[slot])); };
      switch (inst.kind) {
      case Kind::Unary:
        dispatchUnary(inst.unary, [&](auto op) {
          slots[inst.result] = toBits<S>(
              T::store(applyUnary<decltype(op)::value, T>(load(inst.a))));
        });
        break;
      case Kind::Binary:
        dispatchBinary(inst.binary, [&](auto op) {
          slots[inst.result] = toBits<S>(T::store(
              applyBinary<decltype(op)::value, T>(load(inst.a), load(inst.b))));
        });
        break;
      case Kind::Compare:
        slots[inst.result] =
            applyCompare<T>(inst.compare, load(inst.a), load(inst.b)) ? 1 : 0;
        break;
      case Kind::Convert:
        dispatch(inst.to, [&](auto toTraits) {
          using To = decltype(toTraits);
          slots[inst.result] = toBits<typename To::Storage>(
              convertElement<T, To>(fromBits<S>(slots[inst.a])));
        });
        break;
      case Kind::Select:
        break;
      }
    });
  }
}

} // namespace tpuc::interpreter
