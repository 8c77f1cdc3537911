//===- TpuOps.cpp - tpu dialect operations --------------------------------===//

#include "dialects/tpu/TpuOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tpuc::tpu;

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

namespace {

std::optional<int64_t> getConstantInt(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  return std::nullopt;
}

std::optional<MemorySpace> getSpace(Value memref) {
  return getMemorySpace(cast<MemRefType>(memref.getType()));
}

StringRef spaceName(std::optional<MemorySpace> space) {
  return space ? stringifyMemorySpace(*space) : "no tpu memory space";
}

/// `what` (a memref operand) must be in `space`.
LogicalResult checkSpace(Operation *op, StringRef what, Value memref,
                         MemorySpace space) {
  std::optional<MemorySpace> actual = getSpace(memref);
  if (actual == space)
    return success();
  return op->emitOpError() << what << " must be in "
                           << stringifyMemorySpace(space) << ", not in "
                           << spaceName(actual);
}

/// An access of `extent` bytes at `memref + offset`. In VMEM and SMEM, whose
/// buffers are row-major and sized here, it must stay in the buffer; a
/// constant offset must also be `alignment`-aligned.
LogicalResult checkAccess(Operation *op, StringRef what, Value memref,
                          Value offset, int64_t extent, int64_t alignment = 1) {
  std::optional<int64_t> constant = getConstantInt(offset);
  if (constant && *constant % alignment != 0)
    return op->emitOpError() << what << " offset " << *constant << " is not "
                             << alignment << "-byte aligned";
  if (getSpace(memref) == MemorySpace::hbm)
    return success();
  int64_t size = getBufferBytes(cast<MemRefType>(memref.getType()));
  int64_t begin = constant.value_or(0);
  if (begin < 0 || begin + extent > size)
    return op->emitOpError()
           << what << " access of " << extent << " bytes at offset " << begin
           << " exceeds the " << size << "-byte buffer";
  return success();
}

LogicalResult checkSemaphore(Operation *op, int64_t sem) {
  int64_t count = getTargetLimits(op).numSemaphores;
  if (sem < 0 || sem >= count)
    return op->emitOpError()
           << "semaphore " << sem << " is out of range [0, " << count << ")";
  return success();
}

LogicalResult checkMxu(Operation *op, int64_t mxu) {
  int64_t count = getTargetLimits(op).mxuCount;
  if (mxu < 0 || mxu >= count)
    return op->emitOpError()
           << "MXU " << mxu << " is out of range [0, " << count << ")";
  return success();
}

/// Bytes a VLD/VST touches: 8 rows of 128 elements, `stride` apart.
int64_t vectorAccessBytes(Type elementType, int64_t stride) {
  int64_t row = 128 * getElementBytes(elementType);
  return stride == 0 ? 8 * row : 7 * stride + row;
}

LogicalResult checkLaneIndex(Operation *op, Value index, int64_t count,
                             StringRef what) {
  std::optional<int64_t> constant = getConstantInt(index);
  if (constant && (*constant < 0 || *constant >= count))
    return op->emitOpError() << what << " " << *constant
                             << " is out of range [0, " << count << ")";
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

LogicalResult AllocOp::verify() {
  std::optional<MemorySpace> space = getMemorySpace(getType());
  if (!space)
    return emitOpError("needs a #tpu.memory_space on its memref type");
  if (*space != MemorySpace::hbm && !getType().getLayout().isIdentity())
    return emitOpError() << stringifyMemorySpace(*space)
                         << " buffers are row-major (no layout)";
  if (!isa_and_nonnull<func::FuncOp>((*this)->getParentOp()))
    return emitOpError("must stand in a function's body, outside loops");
  if (!getInit())
    return success();
  if (*space != MemorySpace::hbm)
    return emitOpError("only HBM buffers have an init value (constants)");
  auto initType = cast<ShapedType>(getInit()->getType());
  if (initType.getShape() != getType().getShape() ||
      initType.getElementType() != getType().getElementType())
    return emitOpError() << "init value of type " << initType
                         << " does not match the buffer "
                         << getType();
  for (Operation *user : getResult().getUsers()) {
    auto dma = dyn_cast<DmaOp>(user);
    if (isa<func::ReturnOp>(user) || (dma && dma.getDst() == getResult()))
      return emitOpError("is a constant (it has an init value): it cannot "
                         "be written or returned");
  }
  return success();
}

LogicalResult DmaOp::verify() {
  if (getChunks() < 1 || getChunkBytes() < 1)
    return emitOpError("needs at least one chunk of at least one byte");
  auto extent = [&](int64_t stride) {
    return (getChunks() - 1) * std::abs(stride) + getChunkBytes();
  };
  if (failed(checkAccess(*this, "source", getSrc(), getSrcOffset(),
                         extent(getSrcStride()))) ||
      failed(checkAccess(*this, "destination", getDst(), getDstOffset(),
                         extent(getDstStride()))))
    return failure();
  if (!getSpace(getSrc()) || !getSpace(getDst()))
    return emitOpError("operands need a #tpu.memory_space");
  return checkSemaphore(*this, static_cast<int32_t>(getSem()));
}

LogicalResult SemWaitOp::verify() {
  if (getCount() < 1)
    return emitOpError("count must be at least 1");
  return checkSemaphore(*this, static_cast<int32_t>(getSem()));
}

LogicalResult SemSignalOp::verify() {
  if (getCount() < 1)
    return emitOpError("count must be at least 1");
  return checkSemaphore(*this, static_cast<int32_t>(getSem()));
}

//===----------------------------------------------------------------------===//
// MXU
//===----------------------------------------------------------------------===//

LogicalResult MxuLoadWeightsOp::verify() {
  int64_t d = getTargetLimits(*this).mxuSize;
  if (failed(checkSpace(*this, "weights", getWeights(), MemorySpace::vmem)) ||
      failed(checkAccess(*this, "weights", getWeights(), getOffset(),
                         d * d * 2)))
    return failure();
  return checkMxu(*this, static_cast<int32_t>(getMxu()));
}

LogicalResult MxuMatmulOp::verify() {
  int64_t rows = getRows(), d = getTargetLimits(*this).mxuSize;
  if (rows < 8 || rows % 8 != 0)
    return emitOpError() << "rows (" << rows
                         << ") must be a positive multiple of 8";
  if (failed(checkSpace(*this, "lhs", getLhs(), MemorySpace::vmem)) ||
      failed(checkSpace(*this, "dst", getDst(), MemorySpace::vmem)) ||
      failed(checkAccess(*this, "lhs", getLhs(), getLhsOffset(),
                         rows * d * 2)) ||
      failed(
          checkAccess(*this, "dst", getDst(), getDstOffset(), rows * d * 4)))
    return failure();
  return checkMxu(*this, static_cast<int32_t>(getMxu()));
}

//===----------------------------------------------------------------------===//
// VPU
//===----------------------------------------------------------------------===//

/// The register type VLD gives for (and VST takes from) a buffer element.
static bool matchesRegister(Type memElement, Type regElement) {
  if (memElement.isInteger(32))
    return regElement.isInteger(32);
  // bf16 memory holds f32 registers (widened on load, rounded on store); a
  // bf16 register may also be stored as it is.
  return regElement.isF32() || (memElement.isBF16() && regElement.isBF16());
}

static LogicalResult verifyVectorAccess(Operation *op, Value base, Value offset,
                                        int64_t stride, VectorType reg) {
  auto type = cast<MemRefType>(base.getType());
  if (!matchesRegister(type.getElementType(), reg.getElementType()))
    return op->emitOpError()
           << "a " << type.getElementType() << " buffer does not hold " << reg;
  if (stride < 0)
    return op->emitOpError("sublane_stride must not be negative");
  if (failed(checkSpace(op, "buffer", base, MemorySpace::vmem)))
    return failure();
  return checkAccess(op, "vector", base, offset,
                     vectorAccessBytes(type.getElementType(), stride));
}

LogicalResult VLoadOp::verify() {
  return verifyVectorAccess(*this, getBase(), getOffset(), getSublaneStride(),
                            cast<VectorType>(getType()));
}

LogicalResult VStoreOp::verify() {
  return verifyVectorAccess(*this, getBase(), getOffset(), getSublaneStride(),
                            cast<VectorType>(getValue().getType()));
}

LogicalResult VConvertOp::verify() {
  Type from = cast<VectorType>(getSource().getType()).getElementType();
  Type to = cast<VectorType>(getType()).getElementType();
  if (from == to)
    return emitOpError("converts nothing: the types are the same");
  if (!from.isF32() && !to.isF32())
    return emitOpError("one side of a conversion must be f32");
  if (getIsUnsigned() && !from.isInteger(32) && !to.isInteger(32))
    return emitOpError("is unsigned without an i32 side");
  return success();
}

LogicalResult tpuc::tpu::verifyUnsignedOnI32(Operation *op, bool isUnsigned) {
  if (isUnsigned && !cast<VectorType>(op->getOperand(0).getType())
                         .getElementType()
                         .isInteger(32))
    return op->emitOpError("is unsigned on a register that is not i32");
  return success();
}

LogicalResult VBroadcastLaneOp::verify() {
  return checkLaneIndex(*this, getLane(), 128, "lane");
}

LogicalResult VBroadcastSublaneOp::verify() {
  return checkLaneIndex(*this, getSublane(), 8, "sublane");
}

LogicalResult VTransposeOp::verify() {
  if (getSources().size() != 16 || getResults().size() != 16)
    return emitOpError("transposes a 128x128 block: 16 sources and 16 "
                       "results");
  Type type = getSources().front().getType();
  if (!llvm::all_equal(getOperandTypes()) ||
      llvm::any_of(getResultTypes(), [&](Type t) { return t != type; }))
    return emitOpError("sources and results must all have one type");
  return success();
}

// %t:16 = tpu.vtranspose %r0, ..., %r15 : vector<8x128xf32>
ParseResult VTransposeOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> sources;
  Type type;
  if (parser.parseOperandList(sources) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type) ||
      parser.resolveOperands(sources, type, result.operands))
    return failure();
  result.addTypes(SmallVector<Type>(sources.size(), type));
  return success();
}

void VTransposeOp::print(OpAsmPrinter &printer) {
  printer << " " << getSources();
  printer.printOptionalAttrDict((*this)->getAttrs());
  printer << " : " << getSources().front().getType();
}

//===----------------------------------------------------------------------===//
// Scalar unit
//===----------------------------------------------------------------------===//

LogicalResult SLoadOp::verify() {
  if (failed(checkSpace(*this, "buffer", getBase(), MemorySpace::smem)))
    return failure();
  return checkAccess(*this, "scalar", getBase(), getOffset(), 4, 4);
}

LogicalResult SStoreOp::verify() {
  if (failed(checkSpace(*this, "buffer", getBase(), MemorySpace::smem)))
    return failure();
  return checkAccess(*this, "scalar", getBase(), getOffset(), 4, 4);
}

void LoopOp::build(OpBuilder &builder, OperationState &result,
                   Value tripCount) {
  result.addOperands(tripCount);
  Region *body = result.addRegion();
  Block *block = new Block();
  block->addArgument(builder.getIndexType(), result.location);
  body->push_back(block);
  ensureTerminator(*body, builder, result.location);
}

LogicalResult LoopOp::verify() {
  Block *body = getBody();
  if (body->getNumArguments() != 1 || !body->getArgument(0).getType().isIndex())
    return emitOpError("body takes one index argument, the induction "
                       "variable");
  std::optional<int64_t> trips = getConstantInt(getTripCount());
  if (trips && *trips < 0)
    return emitOpError() << "trip count " << *trips << " is negative";
  int depth = 1;
  for (Operation *parent = (*this)->getParentOp(); parent;
       parent = parent->getParentOp())
    depth += isa<LoopOp>(parent);
  if (depth > 16)
    return emitOpError("loops nest at most 16 deep");
  return success();
}

// tpu.loop %i = 0 to %n { ... }
ParseResult LoopOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument inductionVar;
  OpAsmParser::UnresolvedOperand tripCount;
  int64_t lower = 0;
  Type index = parser.getBuilder().getIndexType();
  inductionVar.type = index;
  if (parser.parseArgument(inductionVar) || parser.parseEqual())
    return failure();
  SMLoc lowerLoc = parser.getCurrentLocation();
  if (parser.parseInteger(lower))
    return failure();
  if (lower != 0)
    return parser.emitError(lowerLoc, "loops count from 0");
  if (parser.parseKeyword("to") || parser.parseOperand(tripCount) ||
      parser.resolveOperand(tripCount, index, result.operands))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, inductionVar) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  LoopOp::ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

void LoopOp::print(OpAsmPrinter &printer) {
  printer << " " << getInductionVar() << " = 0 to " << getTripCount() << " ";
  printer.printRegion(getRegion(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/false);
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs());
}

//===----------------------------------------------------------------------===//
// Branches: tpu.while and tpu.if
//===----------------------------------------------------------------------===//

void WhileOp::build(OpBuilder &builder, OperationState &result) {
  OpBuilder::InsertionGuard guard(builder);
  Region *condition = result.addRegion();
  builder.createBlock(condition);
  Region *body = result.addRegion();
  builder.createBlock(body);
  YieldOp::create(builder, result.location);
}

/// The one block of `region` ends in a `Terminator`.
template <typename Terminator>
static LogicalResult checkTerminator(Operation *op, Region &region,
                                     StringRef what) {
  if (region.empty() || !isa<Terminator>(region.front().back()))
    return op->emitOpError() << what << " must end in '"
                             << Terminator::getOperationName() << "'";
  return success();
}

LogicalResult WhileOp::verify() {
  if (failed(checkTerminator<ConditionOp>(*this, getCondition(),
                                          "the condition")) ||
      failed(checkTerminator<YieldOp>(*this, getBody(), "the body")))
    return failure();
  if (getConditionBlock()->getNumArguments() ||
      getBodyBlock()->getNumArguments())
    return emitOpError("regions take no arguments");
  return success();
}

void IfOp::build(OpBuilder &builder, OperationState &result, Value flag) {
  OpBuilder::InsertionGuard guard(builder);
  result.addOperands(flag);
  for (int i = 0; i < 2; ++i) {
    builder.createBlock(result.addRegion());
    YieldOp::create(builder, result.location);
  }
}

LogicalResult IfOp::verify() {
  if (failed(checkTerminator<YieldOp>(*this, getThenRegion(), "then")) ||
      failed(checkTerminator<YieldOp>(*this, getElseRegion(), "else")))
    return failure();
  if (getThenBlock()->getNumArguments() || getElseBlock()->getNumArguments())
    return emitOpError("regions take no arguments");
  return success();
}

//===----------------------------------------------------------------------===//
// ICI
//===----------------------------------------------------------------------===//

/// Both buffers in HBM with one element type; `ids` a 2-D i64 tensor of
/// device ids (>= 0, or -1 as padding in `groups`); `reduce` (if given) one
/// of the combiners; `dimension` (if given) a dimension of `src`.
static LogicalResult verifyCollective(Operation *op, Value src, Value dst,
                                      ElementsAttr ids, StringRef idsName,
                                      std::optional<StringRef> reduce,
                                      std::optional<int64_t> dimension) {
  if (failed(checkSpace(op, "src", src, MemorySpace::hbm)) ||
      failed(checkSpace(op, "dst", dst, MemorySpace::hbm)))
    return failure();
  auto srcType = cast<MemRefType>(src.getType());
  auto dstType = cast<MemRefType>(dst.getType());
  if (srcType.getElementType() != dstType.getElementType())
    return op->emitOpError("src and dst need one element type");
  auto idsType = cast<ShapedType>(ids.getType());
  if (idsType.getRank() != 2 || !idsType.getElementType().isInteger(64))
    return op->emitOpError() << idsName << " must be a 2-D i64 tensor";
  for (int64_t id : ids.getValues<int64_t>())
    if (id < -1 || (id == -1 && idsName != "groups"))
      return op->emitOpError() << idsName << " holds the invalid id " << id;
  if (reduce && !llvm::is_contained({"add", "mul", "min", "max", "and", "or"},
                                    *reduce))
    return op->emitOpError() << "reduce must be add, mul, min, max, and or "
                                "or, not '"
                             << *reduce << "'";
  if (dimension && (*dimension < 0 || *dimension >= srcType.getRank()))
    return op->emitOpError() << "dimension " << *dimension
                             << " is not a dimension of src";
  return success();
}

LogicalResult AllReduceOp::verify() {
  if (getSrc().getType() != getDst().getType())
    return emitOpError("src and dst need one type");
  return verifyCollective(*this, getSrc(), getDst(), getGroups(), "groups",
                          getReduce(), std::nullopt);
}
LogicalResult AllGatherOp::verify() {
  return verifyCollective(*this, getSrc(), getDst(), getGroups(), "groups",
                          std::nullopt, getDimension());
}
LogicalResult ReduceScatterOp::verify() {
  return verifyCollective(*this, getSrc(), getDst(), getGroups(), "groups",
                          getReduce(), getDimension());
}
LogicalResult AllToAllOp::verify() {
  return verifyCollective(*this, getSrc(), getDst(), getGroups(), "groups",
                          std::nullopt, getDimension());
}
LogicalResult CollectiveBroadcastOp::verify() {
  return verifyCollective(*this, getSrc(), getDst(), getGroups(), "groups",
                          std::nullopt, std::nullopt);
}
LogicalResult CollectivePermuteOp::verify() {
  if (failed(verifyCollective(*this, getSrc(), getDst(), getPairs(), "pairs",
                              std::nullopt, std::nullopt)))
    return failure();
  if (cast<ShapedType>(getPairs().getType()).getDimSize(1) != 2)
    return emitOpError("pairs must be an N x 2 tensor");
  return success();
}
LogicalResult DeviceIdOp::verify() {
  if (failed(checkSpace(*this, "dst", getDst(), MemorySpace::hbm)))
    return failure();
  if (getDst().getType().getRank() != 0)
    return emitOpError("dst must be a rank-0 buffer");
  if (getKind() != "replica" && getKind() != "partition")
    return emitOpError() << "kind must be replica or partition, not '"
                         << getKind() << "'";
  return success();
}

#define GET_OP_CLASSES
#include "dialects/tpu/TpuOps.cpp.inc"
