//===- ControlFlow.cpp - tuples, calls, while, conditional --------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
//
// Tuples are bookkeeping: a tuple value maps to the HBM memrefs of its
// leaves (`Lowering::tuples`), never copied. A while's state lives in
// fixed HBM buffers; its condition's pred goes HBM -> SMEM by DMA and to a
// scalar register by `tpu.sload`, which `tpu.while` branches on. A
// conditional's index takes the same path to `tpu.if`.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Lowering.h"

using namespace mlir;

namespace tpuc::hlotpu {

namespace {

/// The tensor types of the leaves of `type`, flattened in order.
void flattenTypes(Type type, SmallVectorImpl<RankedTensorType> &leaves) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    for (Type element : tuple.getTypes())
      flattenTypes(element, leaves);
    return;
  }
  leaves.push_back(cast<RankedTensorType>(type));
}

int64_t leafCount(Type type) {
  SmallVector<RankedTensorType> leaves;
  flattenTypes(type, leaves);
  return leaves.size();
}

} // namespace

/// Binds `v` (a tensor or a tuple) to the memrefs `leaves[pos...]` and
/// advances `pos`.
static void bind(Lowering &l, Value v, ArrayRef<Value> leaves, size_t &pos) {
  int64_t n = leafCount(v.getType());
  if (isa<TupleType>(v.getType()))
    l.tuples[v] = SmallVector<Value>(leaves.slice(pos, n));
  else
    l.hbm[v] = leaves[pos];
  pos += n;
}

/// The leaf memrefs of `v`, appended to `leaves`.
static LogicalResult leavesOf(Lowering &l, Value v,
                              SmallVectorImpl<Value> &leaves) {
  if (isa<TupleType>(v.getType())) {
    auto it = l.tuples.find(v);
    if (it == l.tuples.end())
      return emitError(v.getLoc())
             << "tpuc cannot lower a use of this tuple value yet";
    leaves.append(it->second.begin(), it->second.end());
    return success();
  }
  FailureOr<Value> mem = l.memOf(v);
  if (failed(mem))
    return failure();
  leaves.push_back(*mem);
  return success();
}

/// Lowers the ops of `block` (a callee, a while's or a branch's body),
/// whose arguments are bound to `args`, at the builder's insertion point;
/// appends the leaves of what its terminator returns to `results`.
static LogicalResult lowerBlock(Lowering &l, Block &block,
                                ArrayRef<Value> args,
                                SmallVectorImpl<Value> &results) {
  size_t pos = 0;
  for (BlockArgument arg : block.getArguments())
    bind(l, arg, args, pos);
  for (Operation &op : block.without_terminator())
    if (failed(l.lowerOp(&op)))
      return failure();
  Operation *terminator = block.getTerminator();
  l.loc = terminator->getLoc();
  for (Value v : terminator->getOperands())
    if (failed(leavesOf(l, v, results)))
      return failure();
  return success();
}

/// One HBM -> HBM copy of a whole array per pair, all in flight at once.
static void copyAll(Lowering &l, ArrayRef<std::pair<Value, Value>> copies,
                    ArrayRef<RankedTensorType> types) {
  int64_t n = 0;
  for (auto [copy, type] : llvm::zip(copies, types)) {
    if (!copy.first || copy.first == copy.second)
      continue;
    l.dma(copy.first, l.c(0), copy.second, l.c(0), 1,
          geometryOf(type).bytes(), 0, 0, 0);
    ++n;
  }
  l.wait(0, n);
}

/// Copies `from[i]` into `to[i]` (skipping equal ones). A source that is
/// another destination is first saved to a fresh buffer, so a body that
/// permutes its state reads the old values.
static void copyInto(Lowering &l, ArrayRef<Value> from, ArrayRef<Value> to,
                     ArrayRef<RankedTensorType> types) {
  SmallVector<std::pair<Value, Value>> saves(from.size()), copies;
  SmallVector<Value> sources(from.begin(), from.end());
  for (auto [i, src] : llvm::enumerate(from)) {
    if (src != to[i] && llvm::is_contained(to, src)) {
      Value saved = l.allocHbm(types[i], l.loc);
      saves[i] = {src, saved};
      sources[i] = saved;
    }
  }
  copyAll(l, saves, types);
  for (auto [src, dst] : llvm::zip(sources, to))
    copies.push_back({src, dst});
  copyAll(l, copies, types);
}

/// The HBM buffers the ops of `op` (nested ones included) read and write.
static void accesses(Operation *op, llvm::SmallPtrSetImpl<Value> &reads,
                     llvm::SmallPtrSetImpl<Value> &writes) {
  op->walk([&](tpu::DmaOp dma) {
    reads.insert(dma.getSrc());
    writes.insert(dma.getDst());
  });
}

/// A DMA that copies a region onto itself, followed by the wait for it.
static bool isSelfCopy(Operation *op) {
  auto dma = dyn_cast<tpu::DmaOp>(op);
  auto wait = dyn_cast_or_null<tpu::SemWaitOp>(op->getNextNode());
  auto same = [](Value a, Value b) {
    return a == b || (Lowering::constant(a) &&
                      Lowering::constant(a) == Lowering::constant(b));
  };
  return dma && wait && dma.getSrc() == dma.getDst() &&
         same(dma.getSrcOffset(), dma.getDstOffset()) &&
         dma.getSrcStride() == dma.getDstStride() &&
         wait.getSem() == dma.getSem() && wait.getCount() == 1;
}

/// Lets the body write next state `i` straight into state buffer `i`
/// instead of copying it there at the end of the iteration (a scan's
/// dynamic_update_slice then updates the state in place): when the body's
/// result buffer R is written in the body, and from the first op that
/// writes R on nothing reads the old state buffer S (but that op itself
/// when it is the copy S -> R, which becomes a no-op and is removed), R's
/// uses in the body become S. A state buffer that is another leaf's result
/// (a permutation) keeps the copies.
static void updateInPlace(Block &body, MutableArrayRef<Value> next,
                          ArrayRef<Value> state) {
  for (auto [i, r] : llvm::enumerate(next)) {
    Value s = state[i];
    if (r == s || llvm::count(next, r) != 1 || llvm::is_contained(next, s) ||
        !r.getDefiningOp<tpu::AllocOp>() ||
        r.getDefiningOp<tpu::AllocOp>().getInit())
      continue;
    Operation *first = nullptr;
    bool safe = true;
    for (Operation &op : body) {
      llvm::SmallPtrSet<Value, 4> reads, writes;
      accesses(&op, reads, writes);
      if (!first && writes.contains(r)) {
        first = &op;
        auto dma = dyn_cast<tpu::DmaOp>(op);
        // The writer may read S only as the whole copy S -> R.
        if (reads.contains(s) && !(dma && dma.getSrc() == s))
          safe = false;
        continue;
      }
      if (first && reads.contains(s))
        safe = false;
    }
    if (!first || !safe)
      continue;
    r.replaceUsesWithIf(s, [&](OpOperand &use) {
      return body.getParent()->isAncestor(use.getOwner()->getParentRegion());
    });
    if (isSelfCopy(first)) {
      first->getNextNode()->erase();
      first->erase();
    }
    if (r.use_empty()) // no HBM for a buffer nothing reads or writes
      r.getDefiningOp()->erase();
    next[i] = s;
  }
}

/// The scalar register value of the rank-0 pred or s32 tensor held in
/// `mem`: element 0 goes HBM -> SMEM by DMA, then `tpu.sload`.
static Value loadScalar(Lowering &l, Value mem) {
  Value smem;
  {
    OpBuilder::InsertionGuard guard(l.b);
    l.b.setInsertionPoint(l.allocPoint);
    auto space = tpu::MemorySpaceAttr::get(l.ctx, tpu::MemorySpace::smem);
    smem = tpu::AllocOp::create(
        l.b, l.loc, MemRefType::get({1}, l.b.getI32Type(), nullptr, space));
  }
  l.dma(mem, l.c(0), smem, l.c(0), 1, 4, 0, 0, 0);
  l.wait(0, 1);
  return tpu::SLoadOp::create(l.b, l.loc, smem, l.c(0));
}

LogicalResult Lowering::lowerControlFlow(Operation *op) {
  beginKernel(op);
  if (auto tuple = dyn_cast<hlo::TupleOp>(op)) {
    SmallVector<Value> leaves;
    for (Value v : tuple.getElements())
      if (failed(leavesOf(*this, v, leaves)))
        return failure();
    tuples[tuple.getResult()] = std::move(leaves);
    return success();
  }

  if (auto get = dyn_cast<hlo::GetTupleElementOp>(op)) {
    SmallVector<Value> leaves;
    if (failed(leavesOf(*this, get.getOperand(), leaves)))
      return failure();
    auto tupleType = cast<TupleType>(get.getOperand().getType());
    size_t pos = 0;
    for (int64_t i = 0; i < static_cast<int64_t>(get.getIndex()); ++i)
      pos += leafCount(tupleType.getType(i));
    bind(*this, get.getResult(), leaves, pos);
    return success();
  }

  if (auto call = dyn_cast<hlo::CallOp>(op)) {
    // Usually inlined before; a call left is lowered in place.
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
    if (!callee || callee.isExternal() || !callee.getBody().hasOneBlock())
      return unsupported(op, "of a function without a one-block body");
    SmallVector<Value> args, results;
    for (Value v : call.getOperands())
      if (failed(leavesOf(*this, v, args)))
        return failure();
    if (failed(lowerBlock(*this, callee.getBody().front(), args, results)))
      return failure();
    size_t pos = 0;
    for (Value result : call.getResults())
      bind(*this, result, results, pos);
    return success();
  }

  if (auto loop = dyn_cast<hlo::WhileOp>(op)) {
    // The state: one fixed HBM buffer per leaf, initialised by copies
    // (the initial values may be parameters or constants, never written).
    SmallVector<Value> init;
    SmallVector<RankedTensorType> types;
    for (Value v : loop.getOperand()) {
      if (failed(leavesOf(*this, v, init)))
        return failure();
      flattenTypes(v.getType(), types);
    }
    for (RankedTensorType type : types)
      if (!isLowerableElementType(type.getElementType()))
        return unsupported(op, "with this state element type");
    SmallVector<Value> state;
    for (RankedTensorType type : types)
      state.push_back(allocHbm(type, op->getLoc()));
    copyInto(*this, init, state, types);

    auto whileOp = tpu::WhileOp::create(b, loc);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToEnd(whileOp.getConditionBlock());
      SmallVector<Value> flag;
      if (failed(lowerBlock(*this, loop.getCond().front(), state, flag)))
        return failure();
      loc = op->getLoc();
      tpu::ConditionOp::create(b, loc, loadScalar(*this, flag[0]));

      b.setInsertionPoint(whileOp.getBodyBlock()->getTerminator());
      SmallVector<Value> next;
      if (failed(lowerBlock(*this, loop.getBody().front(), state, next)))
        return failure();
      loc = op->getLoc();
      updateInPlace(*whileOp.getBodyBlock(), next, state);
      copyInto(*this, next, state, types);
    }
    size_t pos = 0;
    for (Value result : loop.getResults())
      bind(*this, result, state, pos);
    return success();
  }

  auto cond = cast<hlo::ConditionalOp>(op);
  // Result buffers that every branch copies its results into.
  SmallVector<RankedTensorType> types;
  for (Type type : cond.getResultTypes())
    flattenTypes(type, types);
  SmallVector<Value> results;
  for (RankedTensorType type : types)
    results.push_back(allocHbm(type, op->getLoc()));
  FailureOr<Value> indexMem = memOf(cond.getIndex());
  if (failed(indexMem))
    return failure();
  Value index = loadScalar(*this, *indexMem);
  auto lowerBranch = [&](unsigned i) -> LogicalResult {
    SmallVector<Value> args, values;
    if (failed(leavesOf(*this, cond.getBranchOperands()[i], args)) ||
        failed(lowerBlock(*this, cond.getBranches()[i].front(), args, values)))
      return failure();
    loc = op->getLoc();
    copyInto(*this, values, results, types);
    return success();
  };
  unsigned n = cond.getBranches().size();
  if (cond.getBranchOperands().size() != n)
    return unsupported(op, "without one operand per branch");
  OpBuilder::InsertionGuard guard(b);
  if (cast<RankedTensorType>(cond.getIndex().getType())
          .getElementType()
          .isInteger(1)) {
    // pred: branch 0 when true.
    auto ifOp = tpu::IfOp::create(b, loc, index);
    b.setInsertionPoint(ifOp.getThenBlock()->getTerminator());
    if (failed(lowerBranch(0)))
      return failure();
    b.setInsertionPoint(ifOp.getElseBlock()->getTerminator());
    if (failed(lowerBranch(1)))
      return failure();
  } else {
    // s32: branch `index`, out of range the last one; a chain of
    // `if (index - i != 0) {...} else {branch i}`.
    for (unsigned i = 0; i + 1 < n; ++i) {
      loc = op->getLoc();
      Value diff = arith::SubIOp::create(
          b, loc, index, arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(i)));
      auto ifOp = tpu::IfOp::create(b, loc, diff);
      b.setInsertionPoint(ifOp.getElseBlock()->getTerminator());
      if (failed(lowerBranch(i)))
        return failure();
      b.setInsertionPoint(ifOp.getThenBlock()->getTerminator());
    }
    if (failed(lowerBranch(n - 1)))
      return failure();
  }
  size_t pos = 0;
  for (Value result : cond.getResults())
    bind(*this, result, results, pos);
  return success();
}

void populateControlFlowPatterns(RewritePatternSet &patterns, Lowering &l) {
  // Their results may be tuples: no per-kernel result type check.
  l.addKernels<hlo::TupleOp, hlo::GetTupleElementOp, hlo::CallOp, hlo::WhileOp,
               hlo::ConditionalOp>(patterns, &Lowering::lowerControlFlow,
                                   KernelKind::Direct);
}

} // namespace tpuc::hlotpu
