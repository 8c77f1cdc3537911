//===- HloToTpu.cpp - lower the hlo entry function to tpu kernels ---------===//
//
// tpuc-convert-hlo-to-tpu: each hlo op of the entry function becomes one
// kernel (an hlo.fusion: loop kernels around its other ops, FusedKernel.cpp),
// a straight-line sequence of tpu ops (DMA into VMEM, VPU/MXU loops,
// DMA back to HBM) that leaves no DMA in flight. Tensors become HBM memrefs
// in XLA's TPU tiled layouts, placed at the memory plan's buffers that
// tpuc-assign-buffers recorded (AssignBuffers.cpp); donated outputs are
// written in place when liveness allows. This file is the driver and the pass: the new
// function's signature, then applyFullConversion over the entry's ops in
// program order with one pattern that runs each op's kernel (registered by
// the families' populate<Family>Kernels) and replaces its results by the
// memrefs written. The kernels are in the other files of this folder.
// docs/codegen.md describes them.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/ModuleTarget.h"
#include "passes/HloToTpu/Lowering.h"

#include "mlir/Transforms/DialectConversion.h"

#include <limits>

namespace tpuc {
#define GEN_PASS_DEF_CONVERTHLOTOTPU
#include "passes/Passes.h.inc"
} // namespace tpuc

using namespace mlir;

namespace tpuc::hlotpu {

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

LogicalResult Lowering::run() {
  FunctionType oldType = oldFunc.getFunctionType();
  SmallVector<Type> argTypes, resultTypes;
  auto checkType = [&](Type type, Location where) -> FailureOr<Type> {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !isLowerableElementType(tensor.getElementType()))
      return emitError(where)
             << "tpuc cannot lower entry type " << type
             << " yet (f32, bf16, f16, s32, u32, s8, u8, s16, u16 and "
                "pred arrays only)";
    return Type(hbmType(tensor));
  };
  for (BlockArgument arg : oldFunc.getArguments()) {
    FailureOr<Type> t = checkType(arg.getType(), arg.getLoc());
    if (failed(t))
      return failure();
    // An argument read only through views of its physical order
    // (tpuc-normalize-layouts) stays in its layout: the executable's
    // parameter has it, and the loader lays the host array out so.
    if (MemRefType stored = storedArgumentType(arg))
      t = Type(stored);
    argTypes.push_back(*t);
  }
  for (Type type : oldType.getResults()) {
    FailureOr<Type> t = checkType(type, oldFunc.getLoc());
    if (failed(t))
      return failure();
    resultTypes.push_back(*t);
  }
  if (!oldFunc.getBody().hasOneBlock())
    return oldFunc.emitError("tpuc cannot lower a multi-block function yet");

  b.setInsertionPoint(oldFunc);
  newFunc = func::FuncOp::create(b, oldFunc.getLoc(), oldFunc.getName(),
                                   b.getFunctionType(argTypes, resultTypes));
  // Pred and 8/16-bit integer arrays are s32 words on the device (0/1, or
  // the value extended), f16 and f8 arrays f32 words, s64/u64 arrays their
  // planar 32-bit words (tpuc-expand-x64's record), their own type on the
  // host.
  auto hostType = [](Type type, TypeAttr x64) -> TypeAttr {
    Type elem = cast<RankedTensorType>(type).getElementType();
    if (elem.isInteger(1) || isNarrowInt(elem) || isNarrowFloat(elem))
      return TypeAttr::get(elem);
    return x64;
  };
  for (auto [i, type] : llvm::enumerate(oldType.getInputs()))
    if (TypeAttr host = hostType(
            type, oldFunc.getArgAttrOfType<TypeAttr>(i, kX64HostTypeAttrName)))
      newFunc.setArgAttr(i, tpu::kHostTypeAttrName, host);
  for (auto [i, type] : llvm::enumerate(oldType.getResults()))
    if (TypeAttr host = hostType(type, oldFunc.getResultAttrOfType<TypeAttr>(
                                           i, kX64HostTypeAttrName)))
      newFunc.setResultAttr(i, tpu::kHostTypeAttrName, host);
  Block *entry = newFunc.addEntryBlock();
  for (auto [oldArg, newArg] :
       llvm::zip(oldFunc.getArguments(), entry->getArguments()))
    hbm[oldArg] = newArg;
  b.setInsertionPointToEnd(entry);
  // Allocs go before this marker, so they stay at the top of the function.
  allocPoint = arith::ConstantIndexOp::create(b, oldFunc.getLoc(), 0);

  // Every op of the entry, then its return, through the conversion
  // (convertEntry below): the driver visits them in program order.
  if (failed(convertEntry()))
    return failure();
  int64_t numSteps = stepMarks.size() - 1;
  annotateHbmBuffers(numSteps);
  if (failed(recordDeviceGrid())) // Collective.cpp
    return failure();

  // Size each step's arenas (one overlaid region) for its largest kernel;
  // tpuc-allocate-vmem places the regions.
  for (auto &[key, arena] : arenas) {
    Type elem = key.second;
    int64_t bytes = std::max<int64_t>(stepBytes.lookup(key.first), 4096);
    arena.setType(MemRefType::get({bytes / elementBytes(elem)}, elem, nullptr,
                                  vmemSpace));
  }
  markSteps();
  if (allocPoint->use_empty())
    allocPoint->erase();
  return success();
}

/// The entry's results. One buffer returned twice (a value returned twice,
/// or a no-op transpose of another result): the later one gets a copy, as
/// in XLA. A result read in a permuted layout took that layout's type
/// (lowerTranspose): the function returns what it returns.
LogicalResult Lowering::lowerReturn(Operation *terminator) {
  beginStep(); // the result copies and the return
  SmallVector<Value> results;
  for (Value v : terminator->getOperands()) {
    loc = terminator->getLoc();
    FailureOr<Value> mem = memOf(v);
    if (failed(mem))
      return failure();
    if (llvm::is_contained(results, *mem)) {
      auto type = cast<RankedTensorType>(v.getType());
      Value copy = allocHbm(type, v.getLoc());
      dma(*mem, c(0), copy, c(0), 1, geometryOf(type).bytes(), 0, 0, 0);
      wait(0, 1);
      mem = copy;
    }
    results.push_back(*mem);
  }
  if (failed(applyInputOutputAliases(results, terminator->getOperands())))
    return failure();
  SmallVector<Type> returned;
  for (Value v : results)
    returned.push_back(v.getType());
  newFunc.setType(
      b.getFunctionType(newFunc.getFunctionType().getInputs(), returned));
  // The return's location keeps each result's HLO instruction (the ROOT
  // tuple's operand): fused<"tpu.results">[NameLoc("result<i>", its loc)].
  // The serializer names the executable's results after them.
  SmallVector<Location> sources;
  for (auto [i, v] : llvm::enumerate(terminator->getOperands()))
    sources.push_back(NameLoc::get(
        b.getStringAttr("result" + std::to_string(i)), v.getLoc()));
  func::ReturnOp::create(
      b,
      FusedLoc::get(b.getContext(), sources,
                    b.getStringAttr("tpu.results")),
      results);
  return success();
}

/// The memory truth the serializer honours. Every HBM buffer (not the
/// constants) gets `tpu.live = [first, last]`: the steps (top-level hlo
/// ops, whose kernels leave no DMA in flight, numbered from 1 as the memory
/// plan numbers them) whose ops use it; two buffers
/// live in disjoint steps may share memory. A buffer holding a value that
/// tpuc-assign-buffers gave a heap offset of the memory plan, and that fits
/// the planned bytes, gets `tpu.plan_offset`, that offset; the
/// serializer keeps it there when no other planned buffer collides in
/// memory and steps, and places everything else around the planned ones.
llvm::DenseMap<Operation *, int64_t> Lowering::entrySteps() {
  // Ops after stepMarks[k] are step k + 1's (top-level op k), the result
  // copies and the return step numSteps + 1.
  llvm::DenseMap<Operation *, int64_t> stepOf;
  size_t next = 0;
  int64_t step = 0;
  for (Operation &op : newFunc.getBody().front()) {
    stepOf[&op] = step;
    while (next < stepMarks.size() && &op == stepMarks[next])
      step = ++next;
  }
  return stepOf;
}

void Lowering::annotateHbmBuffers(int64_t numSteps) {
  Block &entry = newFunc.getBody().front();
  llvm::DenseMap<Operation *, int64_t> stepOf = entrySteps();
  Builder builder(ctx);
  SmallVector<tpu::AllocOp> allocs;
  for (auto alloc : entry.getOps<tpu::AllocOp>()) {
    if (alloc.getInit() || tpu::getMemorySpace(alloc.getType()) !=
                               tpu::MemorySpace::hbm)
      continue;
    int64_t first = numSteps + 1, last = 0;
    for (Operation *user : alloc->getUsers()) {
      int64_t at = stepOf.lookup(entry.findAncestorOpInBlock(*user));
      first = std::min(first, at);
      last = std::max(last, at);
    }
    if (first > last)
      first = last = 0;
    alloc->setAttr(tpu::kLiveAttrName,
                   builder.getDenseI64ArrayAttr({first, last}));
    allocs.push_back(alloc);
  }

  llvm::DenseMap<Value, int64_t> planOffset; // memref -> offset, -1: none
  for (const HeldValue &held : heldValues) {
    auto alloc = held.mem.getDefiningOp<tpu::AllocOp>();
    if (!alloc || !alloc->hasAttr(tpu::kLiveAttrName))
      continue;
    MemRefType type = alloc.getType();
    int64_t padded =
        geometryOf(RankedTensorType::get(type.getShape(), type.getElementType()))
            .bytes();
    int64_t offset =
        held.offset >= 0 && padded <= held.bytes ? held.offset : -1;
    // One buffer holding values of two allocations (or a value that does
    // not fit its allocation) has no plan offset.
    auto [slot, inserted] = planOffset.try_emplace(held.mem, offset);
    if (!inserted && slot->second != offset)
      slot->second = -1;
  }
  for (tpu::AllocOp alloc : allocs) {
    auto it = planOffset.find(alloc.getResult());
    if (it != planOffset.end() && it->second >= 0)
      alloc->setAttr(tpu::kPlanOffsetAttrName,
                     builder.getI64IntegerAttr(it->second));
  }
}

/// Whether `value`, computed from the fusion parameter or operand
/// `source` by its users, is only ever read elementwise at its own shape
/// on the way to `to` (the op's results or the fusion's yield): each
/// element of the result then depends on the same element of `source`, and
/// a kernel that writes a tile after reading it may write in place.
static bool readElementwise(Value source, Operation *to) {
  auto shape = cast<ShapedType>(source.getType()).getShape();
  SmallVector<Value> work{source};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (Operation *user : v.getUsers()) {
      if (user == to)
        continue;
      // Select and clamp are elementwise at one shape (the result's shape
      // is checked below); their scalar bounds are not the parameter.
      if (!(user->hasTrait<OpTrait::Elementwise>() ||
            isa<hlo::SelectOp, hlo::ClampOp>(user)) ||
          user->getNumRegions() != 0)
        return false;
      for (Value result : user->getResults()) {
        auto type = dyn_cast<ShapedType>(result.getType());
        if (!type || type.getShape() != shape)
          return false;
        work.push_back(result);
      }
    }
  }
  return true;
}

/// XLA's rule for sharing an operand's buffer with the result (the
/// producer reads the donated parameter at most elementwise), for the
/// producers whose kernels read each tile before writing it: elementwise
/// ops, loop fusions and output fusions' epilogues.
static bool producerMayOverwrite(Operation *producer, BlockArgument param,
                                 const llvm::DenseSet<Value> &views) {
  auto resultShape = [](Value v) {
    return cast<ShapedType>(v.getType()).getShape();
  };
  for (Value result : producer->getResults())
    if (!isa<ShapedType>(result.getType()) ||
        resultShape(result) != resultShape(param))
      return false;
  // The parameter itself, not a view of it in another shape or order.
  for (Value operand : producer->getOperands())
    if (operand != param && views.contains(operand))
      return false;
  if (auto fusion = dyn_cast<hlo::FusionOp>(producer)) {
    // A loop fusion, or an output fusion's epilogue (the contraction is a
    // kernel of its own, into a buffer of its own), with one result: the
    // last kernel of the fusion writes it, and every kernel that reads
    // the parameter is on the elementwise way to it.
    if ((fusion.getKind() != hlo::FusionKind::loop &&
         fusion.getKind() != hlo::FusionKind::output) ||
        fusion->getNumResults() != 1)
      return false;
    Block &body = fusion.getBody().front();
    for (OpOperand &use : param.getUses())
      if (use.getOwner() == producer &&
          !readElementwise(body.getArgument(use.getOperandNumber()),
                           body.getTerminator()))
        return false;
    return true;
  }
  return isLoopKernelOp(producer) &&
         producer->hasTrait<OpTrait::Elementwise>();
}

bool Lowering::writesInPlace(Value buffer, Value returned,
                             BlockArgument param) {
  auto alloc = buffer.getDefiningOp<tpu::AllocOp>();
  Operation *producer = returned.getDefiningOp();
  if (!alloc || alloc.getInit() || !producer ||
      producer->getBlock() != &oldFunc.getBody().front() ||
      buffer.getType() != newFunc.getArgument(param.getArgNumber()).getType())
    return false;
  // The old value's last read in the hlo graph (through the views that
  // share its buffer) comes before the producer, or is the producer
  // reading it elementwise.
  Block &body = oldFunc.getBody().front();
  Operation *lastRead = nullptr;
  llvm::DenseSet<Value> views{param};
  SmallVector<Value> work{param};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      Operation *top = body.findAncestorOpInBlock(*user);
      if (!top || isa<func::ReturnOp>(top))
        return false; // the old value is returned too
      if (!lastRead || lastRead->isBeforeInBlock(top))
        lastRead = top;
      if (top == user &&
          isa<hlo::ReshapeOp, hlo::TransposeOp, hlo::BitcastConvertOp>(user) &&
          views.insert(user->getResult(0)).second)
        work.push_back(user->getResult(0));
    }
  }
  if (lastRead && producer->isBeforeInBlock(lastRead))
    return false;
  if (lastRead == producer && !producerMayOverwrite(producer, param, views))
    return false;
  // In the new function: the parameter's buffer is last used before the
  // buffer's first use (the buffer holds no earlier value), except by the
  // producer's own kernel.
  // Recomputed per alias: the copies of the aliases before this one are
  // reads of their buffers and parameters after every kernel.
  llvm::DenseMap<Operation *, int64_t> stepOf = entrySteps();
  Block &entry = newFunc.getBody().front();
  auto stepOfUse = [&](Operation *user) {
    return stepOf.lookup(entry.findAncestorOpInBlock(*user));
  };
  int64_t producerStep =
      std::distance(body.begin(), producer->getIterator()) + 1;
  int64_t firstWrite = std::numeric_limits<int64_t>::max();
  for (Operation *user : alloc->getUsers())
    firstWrite = std::min(firstWrite, stepOfUse(user));
  if (firstWrite < producerStep)
    return false;
  for (Operation *user : newFunc.getArgument(param.getArgNumber()).getUsers())
    if (stepOfUse(user) > producerStep ||
        (stepOfUse(user) == producerStep && lastRead != producer))
      return false;
  return true;
}

void Lowering::markSteps() {
  Builder builder(ctx);
  for (size_t k = 0; k < stepMarks.size(); ++k) {
    Operation *first = stepMarks[k]->getNextNode();
    if (!first || first->hasTrait<mlir::OpTrait::IsTerminator>() ||
        (k + 1 < stepMarks.size() && stepMarks[k + 1] == stepMarks[k]))
      continue;
    first->setAttr(tpu::kStepAttrName,
                   builder.getI64IntegerAttr(static_cast<int64_t>(k + 1)));
  }
}

/// The module's input_output_alias (XLA's donation): output i is written
/// into parameter p's buffer, so a training step's updated parameters
/// replace the old ones in place and the executable records the alias.
/// When no read of the old value follows the output's producer (or the
/// producer reads it elementwise, a tile before it writes the tile), the
/// producer writes into the parameter's buffer directly; otherwise the
/// result is copied into the parameter by one HBM -> HBM DMA after every
/// kernel (all reads of the old value are done by then).
LogicalResult Lowering::applyInputOutputAliases(SmallVectorImpl<Value> &results,
                                                ValueRange returned) {
  Block &entry = newFunc.getBody().front();
  for (hlo::InputOutputAliasAttr alias : hlo::getInputOutputAliases(module)) {
    if (!alias.isWholeParameter())
      return module.emitError()
             << "tpuc cannot lower input_output_alias entry " << alias
             << " yet (only whole parameters aliased to top-level outputs)";
    unsigned out = alias.getResultNumber();
    int64_t p = alias.getParameterNumber();
    Value arg = entry.getArgument(p);
    if (results[out] == arg)
      continue;
    if (results[out].getType() != arg.getType())
      return module.emitError()
             << "input_output_alias: output " << out << " has type "
             << results[out].getType() << " but parameter " << p << " has "
             << arg.getType();
    if (llvm::count(results, results[out]) == 1 &&
        writesInPlace(results[out], returned[out], oldFunc.getArgument(p))) {
      Value buffer = results[out];
      llvm::erase_if(heldValues,
                     [&](auto &held) { return held.mem == buffer; });
      for (auto &[value, mem] : hbm)
        if (mem == buffer)
          mem = arg;
      buffer.replaceAllUsesWith(arg);
      buffer.getDefiningOp()->erase();
      results[out] = arg;
      continue;
    }
    auto type = cast<RankedTensorType>(oldFunc.getArgument(p).getType());
    int64_t bytes = geometryOf(type).bytes();
    loc = oldFunc.getArgument(p).getLoc();
    dma(results[out], c(0), arg, c(0), 1, bytes, 0, 0, 0);
    wait(0, 1);
    results[out] = arg;
  }
  return success();
}

/// The tiled HBM type of `type` stored with `minorToMajor` (tiles on the
/// two minor-most physical dims, as hbmType).
static MemRefType permutedHbmType(MemRefType rowMajor,
                                  ArrayRef<int64_t> minorToMajor) {
  auto layout = cast<tpu::TiledLayoutAttr>(rowMajor.getLayout());
  return MemRefType::get(
      rowMajor.getShape(), rowMajor.getElementType(),
      tpu::TiledLayoutAttr::get(rowMajor.getContext(), minorToMajor,
                                layout.getTileRanks(), layout.getTileDims()),
      rowMajor.getMemorySpace());
}

bool Lowering::isPhysicalView(hlo::TransposeOp op, MemRefType stored) {
  auto tiled = dyn_cast<tpu::TiledLayoutAttr>(stored.getLayout());
  if (!tiled)
    return false;
  SmallVector<int64_t, 4> rowMajor =
      layout::descendingOrder(op.getPermutation().size());
  return tiled.getMinorToMajor() != ArrayRef<int64_t>(rowMajor) &&
         layout::isTransposeBitcast(op.getPermutation(),
                                    tiled.getMinorToMajor(), rowMajor);
}

/// The minor_to_major `value` records (rank >= 2, no tiles), if any.
static std::optional<SmallVector<int64_t>> recordedOrder(Value value) {
  if (!layout::recordedLayoutAttr(value) ||
      cast<RankedTensorType>(value.getType()).getRank() < 2)
    return std::nullopt;
  FailureOr<layout::TiledLayout> recorded = layout::recordedLayout(value);
  if (failed(recorded) || !recorded->tiles.empty())
    return std::nullopt;
  return SmallVector<int64_t>(recorded->minorToMajor.begin(),
                              recorded->minorToMajor.end());
}

MemRefType Lowering::storedViewType(hlo::TransposeOp op) {
  std::optional<SmallVector<int64_t>> order = recordedOrder(op.getResult());
  if (!order)
    return MemRefType();
  // The row-major operand read in the result's layout, byte for byte.
  SmallVector<int64_t, 4> rowMajor =
      layout::descendingOrder(op.getPermutation().size());
  if (ArrayRef<int64_t>(*order) == ArrayRef<int64_t>(rowMajor) ||
      !layout::isTransposeBitcast(op.getPermutation(), rowMajor, *order))
    return MemRefType();
  return permutedHbmType(hbmType(cast<RankedTensorType>(op.getType())), *order);
}

MemRefType Lowering::storedArgumentType(BlockArgument arg) {
  std::optional<SmallVector<int64_t>> order = recordedOrder(arg);
  if (!order || arg.use_empty())
    return MemRefType();
  MemRefType stored =
      permutedHbmType(hbmType(cast<RankedTensorType>(arg.getType())), *order);
  for (Operation *user : arg.getUsers()) {
    auto transpose = dyn_cast<hlo::TransposeOp>(user);
    if (!transpose || !isPhysicalView(transpose, stored))
      return MemRefType();
  }
  return stored;
}

/// Whether `v` is an array without elements (a dimension of size 0).
static bool isEmptyArray(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.getNumElements() == 0;
}

FailureOr<Value> Lowering::memOf(Value v) {
  if (Value mem = hbm.lookup(v))
    return mem;
  if (isEmptyArray(v)) // nothing to fill
    return hbm[v] = allocHbm(cast<RankedTensorType>(v.getType()), v.getLoc());
  // Splat constants live in registers; one read as an array is filled.
  if (splatValue(v)) {
    auto type = cast<RankedTensorType>(v.getType());
    if (!(type.getElementType().isF32() || type.getElementType().isBF16()))
      return FailureOr<Value>(unsupported(v.getDefiningOp(), "as an array operand"));
    Value out = allocHbm(type, v.getLoc());
    Location saved = loc;
    Operation *savedOp = kernelOp;
    int64_t savedBytes = kernelBytes;
    beginKernel(v.getDefiningOp());
    // Filled in the middle of the enclosing kernel (a sort reading a splat):
    // its VMEM goes after that kernel's, which keeps them all.
    kernelBytes = savedBytes;
    if (failed(lowerFill(v, out)) || failed(endKernel()))
      return failure();
    loc = saved;
    kernelOp = savedOp;
    // Reused only when filled at the function's top level: filled inside a
    // branch or a loop body, it is unfilled on the other paths.
    if (isa<func::FuncOp>(b.getInsertionBlock()->getParentOp()))
      hbm[v] = out;
    return out;
  }
  if (Operation *def = v.getDefiningOp())
    return FailureOr<Value>(unsupported(def));
  return FailureOr<Value>(emitError(v.getLoc())
                          << "tpuc cannot lower a use of this value yet");
}

bool Lowering::isMaterializedAtUse(Operation *op) {
  if (isa<hlo::ConstantOp>(op))
    return splatValue(op->getResult(0)).has_value();
  // A compare that only feeds selects' predicates lives in registers,
  // inside them; otherwise it is an array of its own (s32 0/1).
  auto cmp = dyn_cast<hlo::CompareOp>(op);
  return cmp && llvm::all_of(cmp->getUsers(), [&](Operation *user) {
           auto select = dyn_cast<hlo::SelectOp>(user);
           return select && select.getPred() == cmp.getResult();
         });
}

LogicalResult Lowering::lowerOp(Operation *op) {
  // An op whose results have no elements computes nothing (a cuDNN call's
  // u8[0] scratch, a zero-size slice or broadcast): its results are empty
  // buffers. Control flow still runs: its regions may have effects.
  if (op->getNumResults() > 0 &&
      llvm::all_of(op->getResults(), isEmptyArray) &&
      !isa<hlo::WhileOp, hlo::ConditionalOp, hlo::CallOp>(op)) {
    for (Value result : op->getResults())
      hbm[result] = allocHbm(cast<RankedTensorType>(result.getType()),
                             op->getLoc());
    return success();
  }
  if (isMaterializedAtUse(op))
    return success();
  auto kernel = kernels.find(op->getName());
  if (kernel != kernels.end() && kernel->second.kind == KernelKind::Direct)
    return kernel->second.lower(*this, op);
  for (Value result : op->getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || !isLowerableElementType(type.getElementType())) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << result.getType();
      return unsupported(op, "producing " + s);
    }
  }
  beginKernel(op);
  // Elementwise ops (one VPU instruction or an expansion, Elementwise.cpp)
  // share the loop kernel; every other op has its family's entry.
  LogicalResult result = isLoopKernelOp(op) ? lowerElementwise(op)
                         : kernel != kernels.end()
                             ? kernel->second.lower(*this, op)
                             : unsupported(op);
  if (failed(result))
    return failure();
  return endKernel();
}

LogicalResult convertWithKernel(Lowering &l, Operation *op,
                                ArrayRef<ValueRange> operands,
                                ConversionPatternRewriter &rewriter) {
  for (auto [operand, mems] : llvm::zip(op->getOperands(), operands)) {
    if (isa<TupleType>(operand.getType())) {
      if (!mems.empty())
        l.tuples[operand] = SmallVector<Value>(mems);
    } else if (mems.size() == 1 && isa<MemRefType>(mems[0].getType())) {
      l.hbm[operand] = mems[0];
    }
  }
  l.beginStep();
  if (failed(l.lowerOp(op)))
    return failure();
  SmallVector<SmallVector<Value>> replacements;
  for (Value result : op->getResults()) {
    SmallVector<Value> &mems = replacements.emplace_back();
    if (isa<TupleType>(result.getType())) {
      mems = l.tuples.lookup(result);
      continue;
    }
    Value mem = l.hbm.lookup(result);
    if (!mem)
      continue;
    mems.push_back(mem);
    // The memory plan's buffer of the value (tpuc-assign-buffers).
    auto buffers = op->getAttrOfType<ArrayAttr>(kHbmBuffersAttrName);
    auto planned = buffers ? dyn_cast<DenseI64ArrayAttr>(
                                 buffers[cast<OpResult>(result).getResultNumber()])
                           : DenseI64ArrayAttr();
    if (planned && planned.size() == 3)
      l.heldValues.push_back(Lowering::HeldValue{planned[1], planned[2], mem});
  }
  rewriter.replaceOpWithMultiple(op, std::move(replacements));
  return success();
}

namespace {

/// The ops without a KernelPattern: elementwise ops (the loop kernel, by
/// isLoopKernelOp and Elementwise.cpp's op -> instruction table), compares
/// that only feed selects, and ops nothing lowers (lowerOp reports them).
/// No type converter: a value's memref type is its kernel's choice (a
/// transpose that is a view of a permuted layout keeps that layout), so
/// the adaptor hands over the memrefs as replaced.
class FallbackPattern : public ConversionPattern {
public:
  FallbackPattern(MLIRContext *ctx, Lowering &l)
      : ConversionPattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx), l(l) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<ValueRange> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (isa<func::ReturnOp>(op) || l.kernels.contains(op->getName()))
      return failure(); // their own patterns
    return convertWithKernel(l, op, operands, rewriter);
  }

private:
  Lowering &l;
};

/// The entry's return: the result copies and aliases, the new return.
class ReturnPattern : public OpConversionPattern<func::ReturnOp> {
public:
  ReturnPattern(MLIRContext *ctx, Lowering &l)
      : OpConversionPattern(ctx), l(l) {}

  LogicalResult
  matchAndRewrite(func::ReturnOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    for (auto [operand, mems] :
         llvm::zip(op->getOperands(), adaptor.getOperands()))
      if (mems.size() == 1 && isa<MemRefType>(mems[0].getType()))
        l.hbm[operand] = mems[0];
    if (failed(l.lowerReturn(op)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }

private:
  Lowering &l;
};

} // namespace

LogicalResult Lowering::convertEntry() {
  // Every hlo op and the entry's return are illegal: a full conversion
  // fails at the first op without a kernel.
  ConversionTarget target(*ctx);
  target.addIllegalDialect<hlo::HloDialect>();
  target.addDynamicallyLegalOp<func::ReturnOp>(
      [&](func::ReturnOp op) { return op->getParentOp() != oldFunc; });
  RewritePatternSet patterns(ctx);
  populateConstantPatterns(patterns, *this);
  populateDataMovementPatterns(patterns, *this);
  populateGatherPatterns(patterns, *this);
  populateReducePatterns(patterns, *this);
  populateReduceWindowPatterns(patterns, *this);
  populateDotPatterns(patterns, *this);
  populateConvolutionPatterns(patterns, *this);
  populateSortPatterns(patterns, *this);
  populateCollectivePatterns(patterns, *this);
  populateControlFlowPatterns(patterns, *this);
  populateFusionPatterns(patterns, *this);
  patterns.add<FallbackPattern, ReturnPattern>(ctx, *this);
  SmallVector<Operation *> ops;
  for (Operation &op : oldFunc.getBody().front())
    ops.push_back(&op);
  // A kernel that fails has said why; the driver's "failed to legalize"
  // after it adds nothing.
  bool reported = false;
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return failure();
    if (reported && StringRef(diag.str()).starts_with("failed to legalize"))
      return success();
    reported = true;
    return failure();
  });
  // No folding: the hlo graph was simplified before; a fold here would
  // change which kernels run (a broadcast of a splat becoming a splat).
  ConversionConfig config;
  config.foldingMode = DialectConversionFoldingMode::Never;
  return applyFullConversion(ops, target, std::move(patterns), config);
}

} // namespace tpuc::hlotpu

namespace tpuc {
namespace {
using hlotpu::Lowering;

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

class ConvertHloToTpuPass
    : public impl::ConvertHloToTpuBase<ConvertHloToTpuPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<target::TargetSpec> spec = moduleTarget(module, targetName);
    if (failed(spec))
      return signalPassFailure();
    // The entry: the one public function, else @main.
    func::FuncOp entry;
    for (auto f : module.getOps<func::FuncOp>())
      if (f.isPublic() && !f.isExternal())
        entry = entry ? func::FuncOp() : f;
    if (!entry)
      entry = module.lookupSymbol<func::FuncOp>("main");
    if (!entry) {
      module.emitError("tpuc-convert-hlo-to-tpu needs one public entry "
                       "function (or @main)");
      return signalPassFailure();
    }
    Lowering lowering(module, entry, *spec);
    lowering.dotPrecision = dotPrecision;
    if (failed(lowering.run()))
      return signalPassFailure();
    // The tpu module holds just the lowered entry (callees were inlined).
    for (auto f : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (f != lowering.lowered())
        f.erase();
    const exe::Target &m = spec->machine;
    // The executable keeps the preset's HBM figures: the memory plan that
    // the HBM overrides constrain does not yet count the lowering's scratch
    // buffers, so an executable sized to the override may not load
    // (docs/targets.md). The VMEM override does reach it.
    exe::Target hbm = target::lookupTarget(m.name()).value_or(*spec).machine;
    module->setAttr(
        tpu::TpuDialect::kTargetAttrName,
        tpu::TargetAttr::get(&getContext(),
                             StringAttr::get(&getContext(), m.name()),
                             m.clock_hz(), m.mxu_count(), m.vmem_bytes(),
                             m.smem_bytes(), hbm.hbm_bytes(),
                             hbm.hbm_reserved_bytes(), m.hbm_bytes_per_second(),
                             m.dma_latency_cycles(), m.num_semaphores(),
                             hbm.hbm_limit_bytes(), m.cores_per_device(),
                             m.mxu_rows()));
  }
};

} // namespace
} // namespace tpuc
