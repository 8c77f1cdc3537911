//===- WhileLoopState.cpp - the state elements of an hlo.while -----------===//

#include "dialects/hlo/WhileLoopState.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

namespace tpuc {
using namespace mlir;

WhileLoopState::WhileLoopState(hlo::WhileOp loop) : whileOp(loop) {
  auto operands = loop.getOperand();
  if (operands.size() == 1)
    if (auto type = dyn_cast<TupleType>(operands[0].getType())) {
      tuple = true;
      numElements = type.size();
      return;
    }
  numElements = operands.size();
}

bool WhileLoopState::readsAreKnown(Region &region) const {
  if (!tuple)
    return true;
  return llvm::all_of(region.getArgument(0).getUsers(), [](Operation *user) {
    return isa<hlo::GetTupleElementOp>(user);
  });
}

SmallVector<Value> WhileLoopState::reads(Region &region, unsigned k) const {
  if (!tuple)
    return {region.getArgument(k)};
  SmallVector<Value> values;
  if (!readsAreKnown(region))
    return values;
  for (Operation *user : region.getArgument(0).getUsers())
    if (cast<hlo::GetTupleElementOp>(user).getIndex() == k)
      values.push_back(user->getResult(0));
  return values;
}

Value WhileLoopState::next(unsigned k) const {
  Operation *ret = whileOp.getBody().front().getTerminator();
  if (!tuple)
    return ret->getOperand(k);
  auto built = ret->getOperand(0).getDefiningOp<hlo::TupleOp>();
  return built ? built.getOperand(k) : Value();
}

bool WhileLoopState::isInvariant(unsigned k) const {
  Value value = next(k);
  if (!value)
    return false;
  if (!tuple)
    return value == whileOp.getBody().getArgument(k);
  auto gte = value.getDefiningOp<hlo::GetTupleElementOp>();
  return gte && gte.getOperand() == whileOp.getBody().getArgument(0) &&
         gte.getIndex() == k;
}

Value WhileLoopState::init(OpBuilder &builder, unsigned k) const {
  if (!tuple)
    return whileOp.getOperand()[k];
  Value initial = whileOp.getOperand()[0];
  if (auto built = initial.getDefiningOp<hlo::TupleOp>())
    return built.getOperand(k);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(whileOp);
  return hlo::GetTupleElementOp::create(builder, whileOp.getLoc(), initial, k);
}

std::optional<SmallVector<Value>> WhileLoopState::resultReads(unsigned k) const {
  if (!tuple)
    return SmallVector<Value>{whileOp.getResult(k)};
  SmallVector<Value> values;
  for (Operation *user : whileOp.getResult(0).getUsers()) {
    auto gte = dyn_cast<hlo::GetTupleElementOp>(user);
    if (!gte)
      return std::nullopt;
    if (gte.getIndex() == k)
      values.push_back(gte.getResult());
  }
  return values;
}

namespace {

/// The value of a rank-0 integer constant (hlo.constant).
std::optional<__int128> integerConstant(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() != 0 || !type.getElementType().isInteger() ||
      type.getElementType().isInteger(1) ||
      type.getElementType().isUnsignedInteger())
    return std::nullopt;
  DenseIntElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  return static_cast<__int128>((*attr.begin()).getSExtValue());
}

/// Iterations of `while (i <dir> bound) i += step` from i = start, if
/// finite.
std::optional<__int128> countIterations(hlo::ComparisonDirection dir,
                                        __int128 start, __int128 bound,
                                        __int128 step) {
  auto ceilDiv = [](__int128 a, __int128 b) { return (a + b - 1) / b; };
  switch (dir) {
  case hlo::ComparisonDirection::LE:
    return countIterations(hlo::ComparisonDirection::LT, start, bound + 1,
                           step);
  case hlo::ComparisonDirection::GE:
    return countIterations(hlo::ComparisonDirection::GT, start, bound - 1,
                           step);
  case hlo::ComparisonDirection::LT:
    if (start >= bound)
      return 0;
    if (step <= 0)
      return std::nullopt;
    return ceilDiv(bound - start, step);
  case hlo::ComparisonDirection::GT:
    if (start <= bound)
      return 0;
    if (step >= 0)
      return std::nullopt;
    return ceilDiv(start - bound, -step);
  case hlo::ComparisonDirection::NE:
    if (start == bound)
      return 0;
    if (step == 0 || (bound - start) % step != 0 || (bound - start) / step < 0)
      return std::nullopt;
    return (bound - start) / step;
  case hlo::ComparisonDirection::EQ:
    if (start != bound)
      return 0;
    return step == 0 ? std::nullopt : std::optional<__int128>(1);
  }
  return std::nullopt;
}

} // namespace

std::optional<WhileLoopState::CountedLoop> WhileLoopState::countedLoop() const {
  Region &cond = whileOp.getCond();
  auto compare = cond.front().getTerminator()->getOperand(0)
                     .getDefiningOp<hlo::CompareOp>();
  if (!compare || (compare.getCompareType() &&
                   *compare.getCompareType() != hlo::ComparisonType::SIGNED))
    return std::nullopt;
  for (unsigned k = 0; k < numElements; ++k) {
    SmallVector<Value> condReads = reads(cond, k);
    hlo::ComparisonDirection dir = compare.getComparisonDirection();
    Value bound;
    if (llvm::is_contained(condReads, compare.getLhs())) {
      bound = compare.getRhs();
    } else if (llvm::is_contained(condReads, compare.getRhs())) {
      bound = compare.getLhs();
      dir = hlo::swappedDirection(dir);
    } else {
      continue;
    }
    // The body steps the element by a constant.
    Value stepped = next(k);
    if (!stepped)
      return std::nullopt;
    SmallVector<Value> bodyReads = reads(whileOp.getBody(), k);
    std::optional<__int128> step;
    Operation *def = stepped.getDefiningOp();
    if (auto add = dyn_cast_or_null<hlo::AddOp>(def)) {
      if (llvm::is_contained(bodyReads, add.getLhs()))
        step = integerConstant(add.getRhs());
      else if (llvm::is_contained(bodyReads, add.getRhs()))
        step = integerConstant(add.getLhs());
    } else if (auto sub = dyn_cast_or_null<hlo::SubtractOp>(def)) {
      if (llvm::is_contained(bodyReads, sub.getLhs()))
        if (std::optional<__int128> s = integerConstant(sub.getRhs()))
          step = -*s;
    }
    std::optional<__int128> start, limit = integerConstant(bound);
    // The initial value, without creating ops: a constant operand or a
    // constant element of the hlo.tuple the loop starts from.
    Value initial = whileOp.getOperand()[tuple ? 0 : k];
    if (tuple) {
      auto built = initial.getDefiningOp<hlo::TupleOp>();
      initial = built ? built.getOperand(k) : Value();
    }
    if (initial)
      start = integerConstant(initial);
    if (!step || !start || !limit)
      return std::nullopt;
    std::optional<__int128> count = countIterations(dir, *start, *limit, *step);
    if (!count || *count > (static_cast<__int128>(1) << 62))
      return std::nullopt;
    // The counter must not wrap on the way (the element's width).
    unsigned width = cast<RankedTensorType>(initial.getType())
                         .getElementType()
                         .getIntOrFloatBitWidth();
    __int128 last = *start + *count * *step;
    __int128 max = (static_cast<__int128>(1) << (width - 1)) - 1;
    if (last > max || last < -max - 1)
      return std::nullopt;
    return CountedLoop{k, static_cast<int64_t>(*count),
                       static_cast<int64_t>(last)};
  }
  return std::nullopt;
}

} // namespace tpuc
