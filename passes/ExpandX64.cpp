//===- ExpandX64.cpp - 64-bit integers as pairs of 32-bit words -----------===//
//
// tpuc-expand-x64: the VPU has no 64-bit integers, so (as XLA TPU does) an
// s64/u64 array is held as its (low, high) 32-bit halves: a parameter or
// result of a function of type [..]xs64/u64 becomes [.., 2]xs32/u32 (the
// little-endian words of each element, the bytes unchanged), with
// hlo.bitcast_convert between the two, and so does a 64-bit constant;
// chains of bitcast_converts that return to their start are then removed,
// so the 64-bit type disappears where only bitcasts met it
// (tpuc-expand-rng-bit-generator's state and bits). 64-bit arithmetic is not
// emulated yet: any other op left on a 64-bit integer is an error naming it.
// See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/LinalgBuilder.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tpuc {
#define GEN_PASS_DEF_EXPANDX64
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

bool isX64(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getElementType().isInteger(64);
}

/// [shape..., 2] of the 32-bit integer of the same signedness.
RankedTensorType pairType(RankedTensorType type) {
  auto elem = cast<IntegerType>(type.getElementType());
  SmallVector<int64_t> shape(type.getShape());
  shape.push_back(2);
  return RankedTensorType::get(
      shape, IntegerType::get(type.getContext(), 32, elem.getSignedness()));
}

/// Rewrites `func`'s 64-bit parameters and results into word pairs. Only
/// entry functions (public): a private one is called with its own types
/// (the inliner has normally removed them).
void splitSignature(func::FuncOp func) {
  if (func.isExternal() || !func.isPublic())
    return;
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  for (BlockArgument arg : entry.getArguments()) {
    if (!isX64(arg.getType()))
      continue;
    auto wide = cast<RankedTensorType>(arg.getType());
    arg.setType(pairType(wide));
    auto join = hlo::BitcastConvertOp::create(b, arg.getLoc(), wide, arg);
    arg.replaceAllUsesExcept(join, join);
  }
  func.walk([&](func::ReturnOp ret) {
    OpBuilder rb(ret);
    for (OpOperand &operand : ret->getOpOperands())
      if (isX64(operand.get().getType()))
        operand.set(hlo::BitcastConvertOp::create(
            rb, ret.getLoc(),
            pairType(cast<RankedTensorType>(operand.get().getType())),
            operand.get()));
  });
  SmallVector<Type> results;
  for (Type t : func.getResultTypes())
    results.push_back(isX64(t) ? pairType(cast<RankedTensorType>(t)) : t);
  func.setType(
      FunctionType::get(func.getContext(), entry.getArgumentTypes(), results));
}

/// A 64-bit integer constant as the constant of its word pairs, bitcast
/// to 64 bits (so that bitcasts of it to words fold away).
void splitConstant(hlo::ConstantOp op) {
  auto type = dyn_cast<RankedTensorType>(op.getType());
  auto values = dyn_cast<DenseIntElementsAttr>(op.getValue());
  if (!type || !isX64(type) || !values)
    return;
  RankedTensorType pairs = pairType(type);
  SmallVector<APInt> words;
  for (const APInt &v : values.getValues<APInt>()) {
    words.push_back(v.trunc(32));
    words.push_back(v.lshr(32).trunc(32));
  }
  // s32 words (the VPU's constants), then the pair type, then 64 bits.
  OpBuilder b(op);
  auto signless = RankedTensorType::get(pairs.getShape(), b.getI32Type());
  Value split = hlo::ConstantOp::create(
      b, op.getLoc(), DenseIntElementsAttr::get(signless, words));
  if (pairs != signless)
    split = hlo::BitcastConvertOp::create(b, op.getLoc(), pairs, split);
  op.replaceAllUsesWith(
      hlo::BitcastConvertOp::create(b, op.getLoc(), type, split).getResult());
  op.erase();
}

/// bitcast_convert(bitcast_convert(x)) of x's own type is x.
void foldRoundTrips(Operation *root) {
  bool changed = true;
  while (changed) {
    changed = false;
    root->walk([&](hlo::BitcastConvertOp op) {
      auto inner = op.getOperand().getDefiningOp<hlo::BitcastConvertOp>();
      if (inner && inner.getOperand().getType() == op.getType()) {
        op.replaceAllUsesWith(inner.getOperand());
        op.erase();
        if (inner->use_empty())
          inner.erase();
        changed = true;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
  }
}

class ExpandX64Pass : public impl::ExpandX64Base<ExpandX64Pass> {
public:
  using impl::ExpandX64Base<ExpandX64Pass>::ExpandX64Base;

  void runOnOperation() override {
    getOperation()->walk([](func::FuncOp func) { splitSignature(func); });
    getOperation()->walk([](hlo::ConstantOp op) { splitConstant(op); });
    foldRoundTrips(getOperation());
    // Bitcasts nobody reads (a state the program drops).
    for (bool erased = true; erased;) {
      SmallVector<hlo::BitcastConvertOp> dead;
      getOperation()->walk([&](hlo::BitcastConvertOp op) {
        if (op->use_empty())
          dead.push_back(op);
      });
      for (hlo::BitcastConvertOp op : dead)
        op.erase();
      erased = !dead.empty();
    }
    if (!check)
      return;
    // The first op computing on a 64-bit integer (else a bitcast left at
    // the boundary, whose user went).
    Operation *firstOp = nullptr, *firstBitcast = nullptr;
    getOperation()->walk([&](Operation *op) {
      if (isa<func::FuncOp, func::ReturnOp>(op) ||
          (llvm::none_of(op->getOperandTypes(), isX64) &&
           llvm::none_of(op->getResultTypes(), isX64)))
        return;
      Operation *&first =
          isa<hlo::BitcastConvertOp>(op) ? firstBitcast : firstOp;
      if (!first)
        first = op;
    });
    Operation *bad = firstOp ? firstOp : firstBitcast;
    if (!bad)
      return;
    Type type = llvm::any_of(bad->getOperandTypes(), isX64)
                    ? *llvm::find_if(bad->getOperandTypes(), isX64)
                    : *llvm::find_if(bad->getResultTypes(), isX64);
    bad->emitError() << "tpuc does not emulate 64-bit integer '"
                     << bad->getName() << "' on " << type
                     << " yet (tpuc-expand-x64 keeps s64/u64 only as "
                        "parameters, results and rng_bit_generator state and "
                        "bits)";
    signalPassFailure();
  }
};
} // namespace
} // namespace tpuc
