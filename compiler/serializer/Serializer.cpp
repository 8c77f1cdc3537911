//===- Serializer.cpp - tpu dialect to executable -------------------------===//
//
// One walk over the function in program order allocates registers (linear
// scan over live intervals of the structured program, spilling to VMEM and
// SMEM spill areas: RegisterAllocator.h) and emits the instructions;
// buffers are placed before it. See docs/tpu-dialect.md.
//
//===----------------------------------------------------------------------===//

#include "compiler/serializer/Serializer.h"
#include "compiler/layout/TiledLayout.h"
#include "compiler/report/Reports.h"
#include "compiler/serializer/HbmPlacement.h"
#include "compiler/serializer/RegisterAllocator.h"

#include "dialects/tpu/TpuOps.h"
#include "runtime/loader/Executable.h"
#include "runtime/loader/Isa.h"
#include "runtime/loader/Layout.h"
#include "runtime/target/Targets.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

using namespace mlir;
using namespace tpuc::tpu;
namespace exe = tpuc::exe;

namespace tpuc::serializer {
namespace {

constexpr int kScalarRegisters = 32; // s0 reads 0: s1..s31 are allocatable.
constexpr int kVectorRegisters = 32;
// A spill slot holds one register: a vreg is 8 sublanes x 128 lanes x 32
// bits, a scalar register's low 32 bits (SST/SLD move 32-bit words).
constexpr uint64_t kVectorSlotBytes = 8 * 128 * 4;
constexpr uint64_t kScalarSlotBytes = 4;
// HBM buffers start at multiples of this: TargetSpec::hbmAlignment, the
// memory plan's alignment, so that the executable's heap is the plan's.
constexpr uint64_t kHbmAlignment = 512;

std::optional<int64_t> getConstantInt(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  return std::nullopt;
}

exe::DType getDType(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    type = vector.getElementType();
  if (type.isF32())
    return exe::F32;
  if (type.isBF16())
    return exe::BF16;
  if (type.isInteger(32))
    return exe::S32;
  return exe::DTYPE_INVALID;
}

/// Values that live in the vector or the scalar register file. Constants
/// do not: they become immediates.
enum class RegisterFile { None, Scalar, Vector };
RegisterFile getRegisterFile(Value value) {
  if (isa<VectorType>(value.getType()))
    return RegisterFile::Vector;
  if (matchPattern(value, m_Constant()) || !value.getType().isIntOrIndex())
    return RegisterFile::None;
  return RegisterFile::Scalar;
}

using Key = RegisterAllocator::Key;
Key keyOf(Value value) { return value.getAsOpaquePointer(); }

// The hlo op and framework op of an importer location:
// FusedLoc[NameLoc(instruction, file:line:col), NameLoc(op_name, source:line)]
// or a bare NameLoc(instruction, ...), possibly inside the CallSiteLoc of
// an inlined call.
namespace {
struct SourceOp {
  std::string hloOp, opName, file;
  int line = 0;
};
} // namespace

static std::optional<SourceOp> sourceOp(Location loc) {
  SourceOp s;
  std::string &hloOp = s.hloOp, &opName = s.opName, &file = s.file;
  int &line = s.line;
  // An inlined callee's op: name the callee's hlo op.
  while (auto callSite = dyn_cast<CallSiteLoc>(loc))
    loc = callSite.getCallee();
  auto fromSource = [&](Location source) {
    if (auto name = dyn_cast<NameLoc>(source)) {
      opName = name.getName().str();
      source = name.getChildLoc();
    }
    if (auto fileLoc = dyn_cast<FileLineColLoc>(source)) {
      file = fileLoc.getFilename().str();
      line = fileLoc.getLine();
    }
  };
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    ArrayRef<Location> locs = fused.getLocations();
    if (locs.empty() || !isa<NameLoc>(locs[0]))
      return std::nullopt;
    hloOp = cast<NameLoc>(locs[0]).getName().str();
    if (locs.size() > 1)
      fromSource(locs[1]);
  } else if (auto name = dyn_cast<NameLoc>(loc)) {
    hloOp = name.getName().str();
  } else {
    return std::nullopt;
  }
  return s;
}

// The call site an inlined op's location names, outermost first: the entry
// computation's instruction (a result computed inside an inlined call is
// named after the entry's call instruction, the ROOT tuple's operand).
static Location outermostCaller(Location loc) {
  while (auto callSite = dyn_cast<CallSiteLoc>(loc))
    loc = callSite.getCaller();
  return loc;
}

class Serializer {
public:
  explicit Serializer(func::FuncOp func) : func(func) {}
  FailureOr<exe::Executable> run();

private:
  // Program positions and live intervals.
  void number(Block &block);
  void foldConstantAdds();
  Value operandValue(Value value) const;
  void computeLastUses();
  // Buffers, parameters and results.
  LogicalResult placeBuffers();
  // Registers.
  int64_t nextUse(Value value, int64_t pos);
  FailureOr<unsigned> allocate(Value value, Operation *op,
                               SmallVectorImpl<Key> &keep);
  LogicalResult reload(Value value, Operation *op, ArrayRef<Key> keep);
  LogicalResult outOfRegisters(Operation *op, RegisterFile file);
  unsigned regOf(Value value) const;
  void emitSpill(int file, unsigned reg, unsigned slot, bool store);
  LogicalResult checkSpillAreas();
  // Emission.
  LogicalResult emitBlock(Block &block);
  LogicalResult emitOp(Operation *op);
  LogicalResult emitTranspose(VTransposeOp op);
  LogicalResult emitBranches(Operation *op);
  LogicalResult emitCollective(Operation *op);
  void recordDeviceGrid();
  exe::Instruction &emit(Operation *op, exe::Opcode opcode);
  exe::Operand scalar(Value value, int64_t add = 0);
  exe::Operand address(Value memref, Value offset);
  static exe::Operand imm(int64_t value) {
    exe::Operand operand;
    operand.set_imm(value);
    return operand;
  }
  uint32_t debugOp(Location loc);

  func::FuncOp func;
  exe::Executable proto;
  llvm::DenseMap<Operation *, int64_t> position, loopEnd;
  llvm::DenseMap<Value, int64_t> lastUse;
  // Adds of a constant that every user reads as a scalar operand
  // (s[reg] + imm): the sum's base value and constant (foldConstantAdds).
  llvm::DenseMap<Value, std::pair<Value, int64_t>> folded;
  llvm::DenseMap<Value, SmallVector<int64_t>> uses; // positions, sorted
  llvm::DenseMap<Value, uint64_t> baseAddress;
  std::optional<RegisterAllocator> registers;
  Operation *current = nullptr; // the op being emitted
  // Where the spill areas start: after the program's VMEM and SMEM buffers.
  uint64_t vmemSpillBase = 0, smemSpillBase = 0;
  std::map<std::tuple<std::string, std::string, std::string, int>, uint32_t>
      debugOps;
  int64_t counter = 0;
};

//===----------------------------------------------------------------------===//
// Live intervals
//===----------------------------------------------------------------------===//

// Every op gets a position in program order; a loop also gets one for its
// LOOP_END, after its body, and a tpu.while one for its backward branch.
void Serializer::number(Block &block) {
  for (Operation &op : block) {
    position[&op] = counter++;
    for (Region &region : op.getRegions())
      number(region.front());
    if (isa<LoopOp, WhileOp>(op))
      loopEnd[&op] = counter++;
  }
}

// A value is live from its definition to its last use; a use inside a loop
// (tpu.loop or tpu.while) that does not contain the definition keeps it live
// to that loop's end (the next iteration reads it again).
void Serializer::computeLastUses() {
  func.walk([&](Operation *op) {
    auto defPos = [&](Value value) {
      if (auto arg = dyn_cast<BlockArgument>(value))
        return position.lookup(arg.getOwner()->getParentOp());
      return position.lookup(value.getDefiningOp());
    };
    for (Value result : op->getResults())
      lastUse[result] = position[op];
    if (auto loop = dyn_cast<LoopOp>(op)) // LOOP_END reads the counter.
      lastUse[loop.getInductionVar()] = loopEnd[op];
    for (Value operand : op->getOperands()) {
      operand = operandValue(operand);
      if (getRegisterFile(operand) == RegisterFile::None)
        continue;
      int64_t def = defPos(operand), use = position[op];
      uses[operand].push_back(use);
      for (Operation *parent = op->getParentOp(); parent != func;
           parent = parent->getParentOp())
        if (isa<LoopOp, WhileOp>(parent) &&
            !(position[parent] <= def && def <= loopEnd[parent]))
          use = std::max(use, loopEnd[parent]);
      lastUse[operand] = std::max(lastUse.lookup(operand), use);
    }
  });
  for (auto &entry : uses)
    llvm::sort(entry.second);
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

FailureOr<exe::Shape> getShape(Operation *op, MemRefType type) {
  exe::Shape shape;
  shape.set_dtype(getDType(type.getElementType()));
  for (int64_t dim : type.getShape())
    shape.add_dims(dim);
  if (auto tiled = dyn_cast<TiledLayoutAttr>(type.getLayout())) {
    for (int64_t dim : tiled.getMinorToMajor())
      shape.mutable_layout()->add_minor_to_major(dim);
    for (ArrayRef<int64_t> tile : tiled.getTiles()) {
      exe::Tile *t = shape.mutable_layout()->add_tiles();
      for (int64_t dim : tile)
        t->add_dims(dim);
    }
  } else if (!type.getLayout().isIdentity()) {
    return op->emitError() << "HBM arrays need a row-major or #tpu.tiled "
                              "layout, not "
                           << type.getLayout();
  }
  return shape;
}

/// A constant's elements as the executable's `Constant.data` wants them:
/// row-major, little-endian, in the element type (bf16 as its 16 bits).
std::string getHostBytes(ElementsAttr init) {
  std::string bytes;
  Type elem = init.getElementType();
  int64_t width = elem.isBF16() ? 2 : 4;
  bytes.reserve(init.getNumElements() * width);
  auto append = [&](uint64_t bits) {
    for (int64_t i = 0; i < width; ++i)
      bytes.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
  };
  if (isa<FloatType>(elem)) {
    for (APFloat value : init.getValues<APFloat>())
      append(value.bitcastToAPInt().getZExtValue());
  } else {
    for (APInt value : init.getValues<APInt>())
      append(value.getZExtValue());
  }
  return bytes;
}

LogicalResult Serializer::placeBuffers() {
  uint64_t hbmEnd = 0;
  auto paddedSize = [&](Operation *op, Value value,
                        const exe::Shape &shape) -> FailureOr<uint64_t> {
    absl::StatusOr<int64_t> size = runtime::paddedByteSize(shape);
    if (!size.ok())
      return op->emitError() << "cannot size " << value.getType() << ": "
                             << std::string(size.status().message());
    return uint64_t(std::max<int64_t>(*size, 1));
  };
  auto addBuffer = [&](Value value, const std::string &name, uint64_t offset,
                       uint64_t size) -> uint32_t {
    exe::Buffer *buffer = proto.add_buffers();
    buffer->set_name(name);
    buffer->set_offset(offset);
    buffer->set_size(size);
    baseAddress[value] = offset;
    return proto.buffers_size() - 1;
  };

  // Parameters: the function's arguments, HBM memrefs, from offset 0.
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || getMemorySpace(type) != MemorySpace::hbm)
      return func.emitError()
             << "argument " << arg.getArgNumber()
             << " must be an HBM memref, not " << arg.getType();
    FailureOr<exe::Shape> shape = getShape(func, type);
    std::string name = "arg" + std::to_string(arg.getArgNumber());
    if (failed(shape))
      return failure();
    FailureOr<uint64_t> size = paddedSize(func, arg, *shape);
    if (failed(size))
      return failure();
    uint32_t buffer = addBuffer(arg, name, hbmEnd, *size);
    hbmEnd = llvm::alignTo(hbmEnd + *size, kHbmAlignment);
    exe::Parameter *param = proto.add_parameters();
    param->set_name(name);
    *param->mutable_shape() = *shape;
    param->set_buffer(buffer);
  }
  exe::HbmSegments &segments = *proto.mutable_hbm();
  segments.set_argument_bytes(hbmEnd);

  // HBM allocs: constants after the parameters, then the heap. VMEM and
  // SMEM ones are packed in program order.
  struct HbmAlloc {
    AllocOp alloc;
    exe::Shape shape;
    uint64_t size = 0, offset = 0;
    int64_t first = 0, last = -1; // tpu.live; last < 0: the whole program
    int64_t planOffset = -1;
    bool planned = false;
  };
  std::vector<HbmAlloc> hbmAllocs;
  OnChipPlacement onChip = placeOnChipBuffers(func);
  vmemSpillBase = llvm::alignTo(
      onChip.end[static_cast<int>(MemorySpace::vmem)],
      getAllocAlignment(MemorySpace::vmem));
  smemSpillBase = llvm::alignTo(
      onChip.end[static_cast<int>(MemorySpace::smem)],
      getAllocAlignment(MemorySpace::smem));
  int64_t lastStep = 0;
  WalkResult walk = func.walk([&](AllocOp alloc) {
    MemorySpace space = *getMemorySpace(alloc.getType());
    if (space != MemorySpace::hbm) {
      baseAddress[alloc] = onChip.offsets.lookup(alloc.getResult());
      return WalkResult::advance();
    }
    FailureOr<exe::Shape> shape = getShape(alloc, alloc.getType());
    if (failed(shape))
      return WalkResult::interrupt();
    FailureOr<uint64_t> size = paddedSize(alloc, alloc, *shape);
    if (failed(size))
      return WalkResult::interrupt();
    HbmAlloc entry{alloc, *shape, *size};
    if (auto live = alloc->getAttrOfType<DenseI64ArrayAttr>(kLiveAttrName)) {
      entry.first = live[0];
      entry.last = live[1];
      lastStep = std::max(lastStep, entry.last);
    }
    if (auto offset = alloc->getAttrOfType<IntegerAttr>(kPlanOffsetAttrName))
      entry.planOffset = offset.getInt();
    if (alloc.getInit()) {
      entry.offset = hbmEnd;
      hbmEnd = llvm::alignTo(hbmEnd + *size, kHbmAlignment);
    }
    hbmAllocs.push_back(std::move(entry));
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  segments.set_constant_bytes(hbmEnd - segments.argument_bytes());
  // The heap: every other HBM buffer, over the steps it is used in.
  std::vector<HeapBuffer> heapBuffers;
  std::vector<size_t> inHeap;
  for (auto [i, entry] : llvm::enumerate(hbmAllocs)) {
    if (entry.alloc.getInit())
      continue;
    if (entry.last < 0) { // no tpu.live: the whole program
      entry.first = 0;
      entry.last = lastStep;
    }
    heapBuffers.push_back(
        {entry.size, entry.first, entry.last, entry.planOffset});
    inHeap.push_back(i);
  }
  HeapPlacement heap = placeHbmHeap(heapBuffers, kHbmAlignment);
  for (auto [k, i] : llvm::enumerate(inHeap)) {
    hbmAllocs[i].offset = hbmEnd + heap.offsets[k];
    hbmAllocs[i].planned = heap.atPlanOffset[k];
  }
  segments.set_heap_bytes(heap.heapBytes);
  segments.set_used_bytes(hbmEnd + heap.heapBytes);
  int64_t planned = llvm::count(heap.atPlanOffset, true);
  segments.set_planned_buffers(planned);
  segments.set_unplanned_buffers(heap.atPlanOffset.size() - planned);

  auto returnOp = cast<func::ReturnOp>(func.getBody().back().getTerminator());
  llvm::DenseMap<Value, uint32_t> allocBuffer;
  int scratch = 0, constants = 0;
  for (HbmAlloc &entry : hbmAllocs) {
    AllocOp alloc = entry.alloc;
    bool returned =
        llvm::is_contained(returnOp.getOperands(), alloc.getResult());
    std::optional<ElementsAttr> init = alloc.getInit();
    std::string name = returned ? "result"
                       : init   ? "constant" + std::to_string(constants++)
                                : "scratch" + std::to_string(scratch++);
    // Heap buffers say which HLO op's kernel made them ("scratch3:add.7").
    if (!returned && !init)
      if (std::optional<SourceOp> op = sourceOp(alloc.getLoc()))
        name += ":" + op->hloOp;
    uint32_t buffer = addBuffer(alloc, name, entry.offset, entry.size);
    allocBuffer[alloc] = buffer;
    if (!init) {
      exe::Buffer &b = *proto.mutable_buffers(buffer);
      b.set_heap(true);
      b.set_live_first(entry.first);
      b.set_live_last(entry.last);
      b.set_planned(entry.planned);
    } else {
      exe::Constant *constant = proto.add_constants();
      constant->set_name(name);
      constant->set_buffer(buffer);
      *constant->mutable_shape() = entry.shape;
      constant->set_data(getHostBytes(*init));
    }
  }
  if (auto planned = func->getParentOfType<ModuleOp>()->getAttrOfType<IntegerAttr>(
          kPlannedHbmAttrName))
    segments.set_planned_bytes(planned.getInt());

  // The HLO instruction of each result, as the lowering recorded it.
  auto sources = dyn_cast<FusedLoc>(returnOp.getLoc());
  auto tag = sources ? dyn_cast_or_null<StringAttr>(sources.getMetadata())
                     : StringAttr();
  auto nameResult = [&](exe::Result *result, unsigned i) {
    if (!tag || tag.getValue() != "tpu.results" ||
        i >= sources.getLocations().size())
      return;
    auto source = dyn_cast<NameLoc>(sources.getLocations()[i]);
    if (!source)
      return;
    if (std::optional<SourceOp> op =
            sourceOp(outermostCaller(source.getChildLoc()))) {
      result->set_hlo_op(op->hloOp);
      result->set_op_name(op->opName);
    }
  };

  // Results: the returned memrefs. A returned argument aliases its parameter.
  llvm::DenseSet<Value> returned;
  for (auto [i, value] : llvm::enumerate(returnOp.getOperands())) {
    std::string name = "result" + std::to_string(i);
    if (!returned.insert(value).second)
      return returnOp.emitError()
             << "result " << i << " returns the same buffer twice";
    exe::Result *result = proto.add_results();
    result->set_name(name);
    nameResult(result, i);
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      const exe::Parameter &param = proto.parameters(arg.getArgNumber());
      *result->mutable_shape() = param.shape();
      result->set_buffer(param.buffer());
      exe::InputOutputAlias *alias = proto.add_aliases();
      alias->set_result(i);
      alias->set_parameter(arg.getArgNumber());
      continue;
    }
    auto alloc = value.getDefiningOp<AllocOp>();
    if (!alloc || !allocBuffer.count(alloc))
      return returnOp.emitError()
             << "result " << i << " must be an argument or an HBM tpu.alloc";
    proto.mutable_buffers(allocBuffer[alloc])->set_name(name);
    *result->mutable_shape() = *getShape(alloc, alloc.getType());
    result->set_buffer(allocBuffer[alloc]);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Registers
//===----------------------------------------------------------------------===//

// The position of the next read of `value` at or after `pos`. A value
// defined outside a loop that holds `current` and read inside it is read
// again in the next iteration: its next read is no later than the loop's end.
int64_t Serializer::nextUse(Value value, int64_t pos) {
  int64_t next = std::numeric_limits<int64_t>::max();
  const SmallVector<int64_t> &at = uses[value];
  auto it = llvm::lower_bound(at, pos);
  if (it != at.end())
    next = *it;
  int64_t def = isa<BlockArgument>(value)
                    ? position.lookup(
                          cast<BlockArgument>(value).getOwner()->getParentOp())
                    : position.lookup(value.getDefiningOp());
  for (Operation *loop = current ? current->getParentOp() : nullptr;
       loop && loop != func; loop = loop->getParentOp()) {
    if (!isa<LoopOp, WhileOp>(loop))
      continue;
    int64_t begin = position[loop], end = loopEnd[loop];
    if (begin <= def && def <= end)
      continue;
    auto inLoop = llvm::lower_bound(at, begin);
    if (inLoop != at.end() && *inLoop <= end)
      next = std::min(next, end);
  }
  return next;
}

LogicalResult Serializer::outOfRegisters(Operation *op, RegisterFile file) {
  bool vector = file == RegisterFile::Vector;
  return op->emitOpError()
         << "needs more than the ISA's "
         << (vector ? kVectorRegisters : kScalarRegisters - 1) << " "
         << (vector ? "vector" : "scalar")
         << " registers at once: its operands and results alone fill the "
            "register file";
}

FailureOr<unsigned> Serializer::allocate(Value value, Operation *op,
                                         SmallVectorImpl<Key> &keep) {
  RegisterFile file = getRegisterFile(value) == RegisterFile::Vector
                          ? RegisterFile::Vector
                          : RegisterFile::Scalar;
  std::optional<unsigned> r =
      registers->define(file == RegisterFile::Vector ? 1 : 0, keyOf(value),
                        lastUse.lookup(value), position[op], keep);
  if (!r)
    return outOfRegisters(op, file);
  keep.push_back(keyOf(value));
  return *r;
}

LogicalResult Serializer::reload(Value value, Operation *op,
                                 ArrayRef<Key> keep) {
  RegisterFile file = getRegisterFile(value);
  if (file == RegisterFile::None)
    return success();
  if (!registers->use(keyOf(value), position[op], keep))
    return outOfRegisters(op, file);
  return success();
}

unsigned Serializer::regOf(Value value) const {
  return registers->regOf(keyOf(value)).value_or(0);
}

// Spill code: VST/VLD of the whole vreg (s32: the bits as they are) to the
// VMEM spill area, SST/SLD of a scalar register to the SMEM one.
void Serializer::emitSpill(int file, unsigned reg, unsigned slot, bool store) {
  if (file == 1) {
    exe::Instruction &in = emit(current, store ? exe::VST : exe::VLD);
    if (store)
      in.add_vsrc(reg);
    else
      in.set_dst(reg);
    *in.add_args() = imm(vmemSpillBase + slot * kVectorSlotBytes);
    *in.add_args() = imm(0);
    in.set_dtype(exe::S32);
    return;
  }
  exe::Instruction &in = emit(current, store ? exe::SST : exe::SLD);
  if (store) {
    exe::Operand value;
    value.set_reg(reg);
    *in.add_args() = value;
  } else {
    in.set_dst(reg);
  }
  *in.add_args() = imm(smemSpillBase + slot * kScalarSlotBytes);
}

// The spill areas follow the program's buffers; both must fit the target.
LogicalResult Serializer::checkSpillAreas() {
  const exe::Target &t = proto.target();
  uint64_t vmemEnd =
      vmemSpillBase + registers->slotsUsed(1) * kVectorSlotBytes;
  uint64_t smemEnd =
      smemSpillBase + registers->slotsUsed(0) * kScalarSlotBytes;
  if (registers->slotsUsed(1) && t.vmem_bytes() && vmemEnd > t.vmem_bytes())
    return func.emitError()
           << "spills " << registers->slotsUsed(1)
           << " vector registers at once: the spill area ends at VMEM byte "
           << vmemEnd << ", past the target's " << t.vmem_bytes();
  if (registers->slotsUsed(0) && t.smem_bytes() && smemEnd > t.smem_bytes())
    return func.emitError()
           << "spills " << registers->slotsUsed(0)
           << " scalar registers at once: the spill area ends at SMEM byte "
           << smemEnd << ", past the target's " << t.smem_bytes();
  return success();
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

uint32_t Serializer::debugOp(Location loc) {
  std::optional<SourceOp> source = sourceOp(loc);
  if (!source)
    return 0;
  auto &[hloOp, opName, file, line] = *source;
  auto key = std::make_tuple(hloOp, opName, file, line);
  auto [it, inserted] = debugOps.insert({key, debugOps.size() + 1});
  if (inserted) {
    exe::DebugOp *d = proto.add_debug_ops();
    d->set_hlo_op(hloOp);
    d->set_op_name(opName);
    d->set_source_file(file);
    d->set_source_line(line);
  }
  return it->second;
}

exe::Instruction &Serializer::emit(Operation *op, exe::Opcode opcode) {
  exe::Instruction *in = proto.add_instructions();
  in->set_opcode(opcode);
  in->set_debug_op(debugOp(op->getLoc()));
  return *in;
}

exe::Operand Serializer::scalar(Value value, int64_t add) {
  if (auto it = folded.find(value); it != folded.end()) {
    value = it->second.first;
    add += it->second.second;
  }
  exe::Operand operand;
  if (std::optional<int64_t> constant = getConstantInt(value)) {
    operand.set_imm(*constant + add);
    return operand;
  }
  operand.set_reg(regOf(value));
  operand.set_imm(add);
  return operand;
}

exe::Operand Serializer::address(Value memref, Value offset) {
  return scalar(offset, static_cast<int64_t>(baseAddress.lookup(memref)));
}

exe::MemorySpace getSpace(Value memref) {
  switch (*getMemorySpace(cast<MemRefType>(memref.getType()))) {
  case MemorySpace::hbm:
    return exe::HBM;
  case MemorySpace::vmem:
    return exe::VMEM;
  case MemorySpace::smem:
    return exe::SMEM;
  }
  return exe::MEMORY_SPACE_INVALID;
}

exe::CmpKind getCmp(CmpKind kind) {
  switch (kind) {
  case CmpKind::eq:
    return exe::EQ;
  case CmpKind::ne:
    return exe::NE;
  case CmpKind::lt:
    return exe::LT;
  case CmpKind::le:
    return exe::LE;
  case CmpKind::gt:
    return exe::GT;
  case CmpKind::ge:
    return exe::GE;
  }
  llvm_unreachable("unknown tpu.cmp kind");
}

exe::ReduceKind getReduce(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::sum:
    return exe::REDUCE_SUM;
  case ReduceKind::max:
    return exe::REDUCE_MAX;
  case ReduceKind::min:
    return exe::REDUCE_MIN;
  }
  llvm_unreachable("unknown tpu.reduce kind");
}

std::optional<exe::Opcode> getScalarOpcode(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<exe::Opcode>>(op)
      .Case([](arith::AddIOp) { return exe::SADD; })
      .Case([](arith::SubIOp) { return exe::SSUB; })
      .Case([](arith::MulIOp) { return exe::SMUL; })
      .Case([](arith::DivSIOp) { return exe::SDIV; })
      .Case([](arith::RemSIOp) { return exe::SREM; })
      .Case([](arith::AndIOp) { return exe::SAND; })
      .Case([](arith::OrIOp) { return exe::SOR; })
      .Case([](arith::XOrIOp) { return exe::SXOR; })
      .Case([](arith::ShLIOp) { return exe::SSHL; })
      .Case([](arith::ShRSIOp) { return exe::SSHR; })
      .Case([](arith::MinSIOp) { return exe::SMIN; })
      .Case([](arith::MaxSIOp) { return exe::SMAX; })
      .Case([](arith::CmpIOp) { return exe::SCMP; })
      .Case([](arith::IndexCastOp) { return exe::SMOV; })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<exe::Opcode> getVectorOpcode(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<exe::Opcode>>(op)
      .Case([](VMovOp) { return exe::VMOV; })
      .Case([](VAddOp) { return exe::VADD; })
      .Case([](VSubOp) { return exe::VSUB; })
      .Case([](VMulOp) { return exe::VMUL; })
      .Case([](VDivOp) { return exe::VDIV; })
      .Case([](VMaxOp) { return exe::VMAX; })
      .Case([](VMinOp) { return exe::VMIN; })
      .Case([](VNegOp) { return exe::VNEG; })
      .Case([](VAbsOp) { return exe::VABS; })
      .Case([](VExpOp) { return exe::VEXP; })
      .Case([](VLogOp) { return exe::VLOG; })
      .Case([](VTanhOp) { return exe::VTANH; })
      .Case([](VRsqrtOp) { return exe::VRSQRT; })
      .Case([](VSqrtOp) { return exe::VSQRT; })
      .Case([](VRcpOp) { return exe::VRCP; })
      .Case([](VCmpOp) { return exe::VCMP; })
      .Case([](VSelectOp) { return exe::VSEL; })
      .Case([](VConvertOp) { return exe::VCVT; })
      .Case([](VReduceLanesOp) { return exe::VREDUCE_LANES; })
      .Case([](VReduceSublanesOp) { return exe::VREDUCE_SUBLANES; })
      .Case([](VBroadcastLaneOp) { return exe::VBCAST_LANE; })
      .Case([](VBroadcastSublaneOp) { return exe::VBCAST_SUBLANE; })
      .Case([](VLaneIdOp) { return exe::VLANE_ID; })
      .Case([](VSublaneIdOp) { return exe::VSUBLANE_ID; })
      .Case([](VRemOp) { return exe::VREM; })
      .Case([](VMulhiOp) { return exe::VMULHI; })
      .Case([](VAndOp) { return exe::VAND; })
      .Case([](VOrOp) { return exe::VOR; })
      .Case([](VXorOp) { return exe::VXOR; })
      .Case([](VShlOp) { return exe::VSHL; })
      .Case([](VShrlOp) { return exe::VSHRL; })
      .Case([](VShraOp) { return exe::VSHRA; })
      .Case([](VPopcntOp) { return exe::VPOPCNT; })
      .Case([](VClzOp) { return exe::VCLZ; })
      .Case([](VFloorOp) { return exe::VFLOOR; })
      .Case([](VCeilOp) { return exe::VCEIL; })
      .Case([](VRoundAfzOp) { return exe::VROUND_AFZ; })
      .Case([](VRoundEvenOp) { return exe::VROUND_EVEN; })
      .Case([](VReducePrecisionOp) { return exe::VREDUCE_PRECISION; })
      .Case([](VBitcastOp) { return exe::VMOV; }) // the same 32 bits
      .Default([](Operation *) { return std::nullopt; });
}

// An instruction's scalar operands are `s[reg] + imm` (docs/isa.md): an
// `x + c` read only as such operands is not computed by an SADD of its own
// but read as `s[x] + c` by each user, so unrolled code's addresses (a base
// and constant offsets) cost no instructions; an index_cast (an SMOV of the
// 64-bit register) is read as `s[x]` the same way. The users that read their
// integer operands as scalar operands: the scalar ALU ops, the memory ops'
// offsets, loop trip counts, splats and the vector ops' scalar operands
// (not control flow, collectives or transposes, which move registers).
static bool readsScalarOperands(Operation *user) {
  return getScalarOpcode(user) || getVectorOpcode(user) ||
         isa<DmaOp, SLoadOp, SStoreOp, VLoadOp, VStoreOp, MxuLoadWeightsOp,
             MxuMatmulOp, VSplatOp, LoopOp>(user);
}

void Serializer::foldConstantAdds() {
  func.walk([&](Operation *op) {
    Value x;
    std::optional<int64_t> c;
    if (auto add = dyn_cast<arith::AddIOp>(op)) {
      x = add.getLhs();
      c = getConstantInt(add.getRhs());
      if (!c) {
        x = add.getRhs();
        c = getConstantInt(add.getLhs());
      }
    } else if (auto cast = dyn_cast<arith::IndexCastOp>(op)) {
      // An SMOV: registers are 64-bit, and SLD sign-extends already.
      x = cast.getIn();
      c = 0;
    }
    if (!c || getRegisterFile(x) != RegisterFile::Scalar ||
        !llvm::all_of(op->getUsers(), readsScalarOperands))
      return;
    auto [base, k] = folded.lookup(x);
    folded[op->getResult(0)] = base ? std::make_pair(base, k + *c)
                                    : std::make_pair(x, *c);
  });
}

// The value whose register an operand reads: a folded add's base.
Value Serializer::operandValue(Value value) const {
  auto it = folded.find(value);
  return it == folded.end() ? value : it->second.first;
}

LogicalResult Serializer::emitBlock(Block &block) {
  for (Operation &op : block)
    if (failed(emitOp(&op)))
      return failure();
  return success();
}

LogicalResult Serializer::emitOp(Operation *op) {
  int64_t pos = position[op];
  current = op;
  registers->expire(pos);
  if (isa<arith::ConstantOp, AllocOp, YieldOp>(op) ||
      (op->getNumResults() == 1 && folded.count(op->getResult(0))))
    return success();
  if (isa<func::ReturnOp>(op)) {
    emit(op, exe::HALT);
    return success();
  }
  if (auto transpose = dyn_cast<VTransposeOp>(op))
    return emitTranspose(transpose);
  // The operands in registers (reloading spilled ones), then the results in
  // others: no instruction reads and writes the same register.
  SmallVector<Key> keep;
  for (Value operand : op->getOperands())
    if (getRegisterFile(operandValue(operand)) != RegisterFile::None)
      keep.push_back(keyOf(operandValue(operand)));
  for (Value operand : op->getOperands())
    if (failed(reload(operandValue(operand), op, keep)))
      return failure();
  if (isa<WhileOp, IfOp, ConditionOp>(op))
    return emitBranches(op);
  if (op->getNumRegions() == 0)
    for (Value result : op->getResults())
      if (failed(allocate(result, op, keep)))
        return failure();

  if (auto loop = dyn_cast<LoopOp>(op)) {
    // LOOP_END reads the counter: it stays in its register. Every iteration
    // starts with the values where the first found them: the body's end
    // puts back what it moved.
    FailureOr<unsigned> counter = allocate(loop.getInductionVar(), op, keep);
    if (failed(counter))
      return failure();
    registers->pin(keyOf(loop.getInductionVar()));
    exe::Instruction &begin = emit(op, exe::LOOP_BEGIN);
    begin.set_dst(*counter);
    *begin.add_args() = scalar(loop.getTripCount());
    RegisterAllocator::State top = registers->save();
    if (failed(emitBlock(*loop.getBody())))
      return failure();
    current = op;
    registers->expire(loopEnd[op]);
    registers->reconcile(top);
    emit(op, exe::LOOP_END);
    registers->unpin(keyOf(loop.getInductionVar()));
    return success();
  }

  if (std::optional<exe::Opcode> opcode = getScalarOpcode(op)) {
    if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      static const std::pair<arith::CmpIPredicate, exe::CmpKind> kinds[] = {
          {arith::CmpIPredicate::eq, exe::EQ},
          {arith::CmpIPredicate::ne, exe::NE},
          {arith::CmpIPredicate::slt, exe::LT},
          {arith::CmpIPredicate::sle, exe::LE},
          {arith::CmpIPredicate::sgt, exe::GT},
          {arith::CmpIPredicate::sge, exe::GE}};
      auto it = llvm::find_if(
          kinds, [&](const auto &k) { return k.first == cmp.getPredicate(); });
      if (it == std::end(kinds))
        return op->emitOpError("has no scalar instruction: SCMP compares "
                               "signed");
      exe::Instruction &in = emit(op, exe::SCMP);
      in.set_cmp(it->second);
      in.set_dst(regOf(op->getResult(0)));
      *in.add_args() = scalar(cmp.getLhs());
      *in.add_args() = scalar(cmp.getRhs());
      return success();
    }
    exe::Instruction &in = emit(op, *opcode);
    in.set_dst(regOf(op->getResult(0)));
    for (Value operand : op->getOperands())
      *in.add_args() = scalar(operand);
    return success();
  }

  if (std::optional<exe::Opcode> opcode = getVectorOpcode(op)) {
    exe::Instruction &in = emit(op, *opcode);
    if (op->getNumResults() == 1)
      in.set_dst(regOf(op->getResult(0)));
    for (Value operand : op->getOperands()) {
      if (isa<VectorType>(operand.getType()))
        in.add_vsrc(regOf(operand));
      else
        *in.add_args() = scalar(operand);
    }
    // The fields Isa.def says the opcode uses: dtype is the result's
    // element type (the operands' for VCMP), src_dtype the operand's; an
    // `unsigned` op's i32 side is U32.
    const runtime::OpcodeInfo &info = *runtime::getOpcodeInfo(*opcode);
    bool isUnsigned = op->hasAttr("is_unsigned");
    auto dtypeOf = [&](Type type) {
      exe::DType dtype = getDType(type);
      return isUnsigned && dtype == exe::S32 ? exe::U32 : dtype;
    };
    if (info.dtypes)
      in.set_dtype(dtypeOf(info.usesCmp ? op->getOperand(0).getType()
                                        : op->getResult(0).getType()));
    if (info.srcDtypes)
      in.set_src_dtype(dtypeOf(op->getOperand(0).getType()));
    if (info.usesCmp)
      in.set_cmp(getCmp(cast<VCmpOp>(op).getKind()));
    if (info.usesReduce)
      in.set_reduce(
          getReduce(op->getAttrOfType<ReduceKindAttr>("kind").getValue()));
    return success();
  }

  if (isa<AllReduceOp, AllGatherOp, ReduceScatterOp, AllToAllOp,
          CollectivePermuteOp, CollectiveBroadcastOp, DeviceIdOp>(op))
    return emitCollective(op);

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](DmaOp dma) {
        exe::Instruction &in = emit(op, exe::DMA);
        *in.add_args() = address(dma.getSrc(), dma.getSrcOffset());
        *in.add_args() = address(dma.getDst(), dma.getDstOffset());
        *in.add_args() = imm(dma.getChunkBytes());
        *in.add_args() = imm(dma.getChunks());
        *in.add_args() = imm(dma.getSrcStride());
        *in.add_args() = imm(dma.getDstStride());
        *in.add_args() = imm(dma.getSem());
        in.set_src_space(getSpace(dma.getSrc()));
        in.set_dst_space(getSpace(dma.getDst()));
        return success();
      })
      .Case([&](SemWaitOp wait) {
        exe::Instruction &in = emit(op, exe::SEM_WAIT);
        *in.add_args() = imm(wait.getSem());
        *in.add_args() = imm(wait.getCount());
        return success();
      })
      .Case([&](SemSignalOp signal) {
        exe::Instruction &in = emit(op, exe::SEM_SIGNAL);
        *in.add_args() = imm(signal.getSem());
        *in.add_args() = imm(signal.getCount());
        return success();
      })
      .Case([&](MxuLoadWeightsOp load) {
        exe::Instruction &in = emit(op, exe::MXU_LOAD_WEIGHTS);
        in.set_mxu(load.getMxu());
        *in.add_args() = address(load.getWeights(), load.getOffset());
        return success();
      })
      .Case([&](MxuMatmulOp matmul) {
        exe::Instruction &in = emit(op, exe::MXU_MATMUL);
        in.set_mxu(matmul.getMxu());
        *in.add_args() = address(matmul.getLhs(), matmul.getLhsOffset());
        *in.add_args() = address(matmul.getDst(), matmul.getDstOffset());
        *in.add_args() = imm(matmul.getRows());
        in.set_accumulate(matmul.getAccumulate());
        return success();
      })
      .Case([&](VLoadOp load) {
        exe::Instruction &in = emit(op, exe::VLD);
        in.set_dst(regOf(load.getResult()));
        *in.add_args() = address(load.getBase(), load.getOffset());
        *in.add_args() = imm(load.getSublaneStride());
        in.set_dtype(getDType(load.getBase().getType().getElementType()));
        return success();
      })
      .Case([&](VStoreOp store) {
        exe::Instruction &in = emit(op, exe::VST);
        in.add_vsrc(regOf(store.getValue()));
        *in.add_args() = address(store.getBase(), store.getOffset());
        *in.add_args() = imm(store.getSublaneStride());
        in.set_dtype(getDType(store.getBase().getType().getElementType()));
        return success();
      })
      .Case([&](VSplatOp splat) -> LogicalResult {
        exe::Operand value;
        FloatAttr constant;
        if (matchPattern(splat.getScalar(), m_Constant(&constant))) {
          float f = constant.getValueAsDouble();
          uint32_t bits;
          std::memcpy(&bits, &f, sizeof(bits));
          value = imm(bits);
        } else if (isa<FloatType>(splat.getScalar().getType())) {
          return op->emitOpError("splats an f32 that is not a constant: "
                                 "scalar registers hold integers");
        } else {
          value = scalar(splat.getScalar());
        }
        exe::Instruction &in = emit(op, exe::VSPLAT);
        in.set_dst(regOf(splat.getResult()));
        *in.add_args() = value;
        return success();
      })
      .Case([&](SLoadOp load) {
        exe::Instruction &in = emit(op, exe::SLD);
        in.set_dst(regOf(load.getResult()));
        *in.add_args() = address(load.getBase(), load.getOffset());
        return success();
      })
      .Case([&](SStoreOp store) {
        exe::Instruction &in = emit(op, exe::SST);
        *in.add_args() = scalar(store.getValue());
        *in.add_args() = address(store.getBase(), store.getOffset());
        return success();
      })
      .Default([&](Operation *) {
        return op->emitOpError("is not supported by the serializer");
      });
}

// tpu.while and tpu.if become branches within the loop body that holds them
// (docs/isa.md: a branch may not leave or enter a loop body):
//
//   while:  top: <condition>             if:  BRNZ flag, then
//                BRNZ flag, body              <else>
//                BR exit                      BR end
//          body: <body>                 then: <then>
//                BR top                  end:
//          exit:
//
// Targets are patched once the regions are emitted.
// One ICI instruction and its Collective: args (collective index, operand
// address, result address); groups and pairs as the tpu op lists them.
LogicalResult Serializer::emitCollective(Operation *op) {
  exe::Collective c;
  Value src = op->getNumOperands() == 2 ? op->getOperand(0) : Value();
  Value dst = op->getOperands().back();
  if (src) {
    FailureOr<exe::Shape> shape = getShape(op, cast<MemRefType>(src.getType()));
    if (failed(shape))
      return failure();
    *c.mutable_operand() = *shape;
  }
  FailureOr<exe::Shape> shape = getShape(op, cast<MemRefType>(dst.getType()));
  if (failed(shape))
    return failure();
  *c.mutable_result() = *shape;
  if (!src)
    *c.mutable_operand() = *shape;
  if (auto groups = op->getAttrOfType<DenseIntElementsAttr>("groups")) {
    int64_t width = groups.getType().getDimSize(1);
    SmallVector<int64_t> ids(groups.getValues<int64_t>());
    for (size_t i = 0; i < ids.size(); i += width) {
      exe::ReplicaGroup *g = c.add_groups();
      for (int64_t k = 0; k < width; ++k)
        if (ids[i + k] >= 0)
          g->add_devices(static_cast<uint32_t>(ids[i + k]));
    }
  }
  if (auto pairs = op->getAttrOfType<DenseIntElementsAttr>("pairs")) {
    SmallVector<int64_t> ids(pairs.getValues<int64_t>());
    for (size_t i = 0; i + 1 < ids.size(); i += 2) {
      exe::SourceTarget *p = c.add_pairs();
      p->set_source(static_cast<uint32_t>(ids[i]));
      p->set_target(static_cast<uint32_t>(ids[i + 1]));
    }
  }
  if (auto reduce = op->getAttrOfType<StringAttr>("reduce")) {
    static const std::pair<StringRef, exe::CollectiveReduce> kinds[] = {
        {"add", exe::COLLECTIVE_ADD}, {"mul", exe::COLLECTIVE_MUL},
        {"min", exe::COLLECTIVE_MIN}, {"max", exe::COLLECTIVE_MAX},
        {"and", exe::COLLECTIVE_AND}, {"or", exe::COLLECTIVE_OR}};
    for (const auto &[name, kind] : kinds)
      if (reduce.getValue() == name)
        c.set_reduce(kind);
  }
  if (auto dim = op->getAttrOfType<IntegerAttr>("dimension"))
    c.set_dimension(dim.getInt());
  exe::Opcode opcode =
      llvm::TypeSwitch<Operation *, exe::Opcode>(op)
          .Case([](AllReduceOp) { return exe::ALL_REDUCE; })
          .Case([](AllGatherOp) { return exe::ALL_GATHER; })
          .Case([](ReduceScatterOp) { return exe::REDUCE_SCATTER; })
          .Case([](AllToAllOp) { return exe::ALL_TO_ALL; })
          .Case([](CollectivePermuteOp) { return exe::COLLECTIVE_PERMUTE; })
          .Case([](CollectiveBroadcastOp) {
            return exe::COLLECTIVE_BROADCAST;
          })
          .Default([&](Operation *) {
            c.set_id(cast<DeviceIdOp>(op).getKind() == "replica"
                         ? exe::REPLICA_ID
                         : exe::PARTITION_ID);
            return exe::DEVICE_ID;
          });
  exe::Instruction &in = emit(op, opcode);
  *in.add_args() = imm(proto.collectives_size());
  *in.add_args() = imm(src ? static_cast<int64_t>(baseAddress.lookup(src)) : 0);
  *in.add_args() = imm(static_cast<int64_t>(baseAddress.lookup(dst)));
  *proto.add_collectives() = std::move(c);
  return success();
}

// The device grid, the slice and the entry's shardings and u32 types, as
// the lowering recorded them (passes/HloToTpu/Collective.cpp).
void Serializer::recordDeviceGrid() {
  ModuleOp module = func->getParentOfType<ModuleOp>();
  if (auto r = module->getAttrOfType<IntegerAttr>("tpu.replica_count"))
    if (r.getInt() > 1)
      proto.set_replica_count(static_cast<uint32_t>(r.getInt()));
  if (auto p = module->getAttrOfType<IntegerAttr>("tpu.num_partitions"))
    if (p.getInt() > 1)
      proto.set_num_partitions(static_cast<uint32_t>(p.getInt()));
  if (auto name = module->getAttrOfType<StringAttr>("tpu.slice"))
    if (const target::SliceSpec *s = target::findSlice(name.getValue().str())) {
      exe::Slice &slice = *proto.mutable_slice();
      slice.set_name(s->name);
      slice.set_devices(static_cast<uint32_t>(s->devices));
      for (int64_t d : s->topology)
        slice.add_topology(d);
      slice.set_wraparound(s->wraparound);
      slice.set_ici_bytes_per_second_per_link(s->iciBytesPerSecondPerLink);
      slice.set_ici_hop_latency_seconds(s->iciHopLatencySeconds);
    }
  auto fill = [&](DictionaryAttr attrs, exe::Shape &shape,
                  exe::Sharding *sharding, bool &has) {
    if (!attrs)
      return;
    if (attrs.get("tpu.dtype"))
      shape.set_dtype(exe::U32);
    if (auto device = attrs.getAs<IntegerAttr>("tpu.maximal_device")) {
      sharding->set_maximal(true);
      sharding->set_device(static_cast<uint32_t>(device.getInt()));
      has = true;
    }
    if (auto tiles = attrs.getAs<DenseI64ArrayAttr>("tpu.tiles")) {
      for (int64_t t : tiles.asArrayRef())
        sharding->add_tiles(t);
      for (int64_t t : attrs.getAs<DenseI64ArrayAttr>("tpu.tile_of_partition")
                           .asArrayRef())
        sharding->add_tile_of_partition(t);
      has = true;
    }
  };
  // A pred or 8/16-bit integer entry array: s32 words on the device.
  auto setHostType = [](DictionaryAttr attrs, auto &entry) {
    if (auto host =
            attrs ? attrs.getAs<TypeAttr>(kHostTypeAttrName) : TypeAttr())
      entry.set_host_dtype(layout::runtimeDType(host.getValue()));
  };
  for (int i = 0; i < proto.parameters_size(); ++i) {
    exe::Parameter &p = *proto.mutable_parameters(i);
    exe::Sharding sharding;
    bool has = false;
    setHostType(func.getArgAttrDict(i), p);
    fill(func.getArgAttrDict(i), *p.mutable_shape(), &sharding, has);
    if (has)
      *p.mutable_sharding() = sharding;
  }
  for (int i = 0; i < proto.results_size(); ++i) {
    exe::Result &r = *proto.mutable_results(i);
    exe::Sharding sharding;
    bool has = false;
    setHostType(func.getResultAttrDict(i), r);
    fill(func.getResultAttrDict(i), *r.mutable_shape(), &sharding, has);
    if (has)
      *r.mutable_sharding() = sharding;
  }
}

LogicalResult Serializer::emitBranches(Operation *op) {
  auto here = [&] { return static_cast<int64_t>(proto.instructions_size()); };
  auto branch = [&](exe::Opcode opcode, Value flag) {
    exe::Instruction &in = emit(op, opcode);
    if (flag)
      *in.add_args() = scalar(flag);
    return here() - 1;
  };
  auto target = [&](int64_t pc, int64_t to) {
    proto.mutable_instructions(pc)->set_target(to);
  };
  if (auto cond = dyn_cast<ConditionOp>(op)) {
    // The while's conditional branch; the parent patches both targets.
    branch(exe::BRNZ, cond.getFlag());
    branch(exe::BR, Value());
    return success();
  }
  // Registers: both edges into a point see the values in the same places.
  // The body's end puts back what it moved since the top (the state the
  // condition starts from); the exit sees the condition's end. Each branch
  // of an if starts from, and ends in, the state before it.
  if (auto loop = dyn_cast<WhileOp>(op)) {
    int64_t top = here();
    RegisterAllocator::State atTop = registers->save();
    if (failed(emitBlock(*loop.getConditionBlock())))
      return failure();
    RegisterAllocator::State atExit = registers->save();
    int64_t brnz = here() - 2;
    target(brnz, here());
    if (failed(emitBlock(*loop.getBodyBlock())))
      return failure();
    current = op;
    registers->expire(loopEnd[op]);
    registers->reconcile(atTop);
    target(branch(exe::BR, Value()), top);
    target(brnz + 1, here());
    registers->restore(atExit);
    return success();
  }
  auto ifOp = cast<IfOp>(op);
  int64_t brnz = branch(exe::BRNZ, ifOp.getFlag());
  RegisterAllocator::State before = registers->save();
  auto emitBranch = [&](Block &block) {
    if (failed(emitBlock(block)))
      return failure();
    current = op;
    registers->expire(position[block.getTerminator()] + 1);
    registers->reconcile(before);
    return success();
  };
  if (failed(emitBranch(*ifOp.getElseBlock())))
    return failure();
  int64_t br = branch(exe::BR, Value());
  target(brnz, here());
  registers->restore(before);
  if (failed(emitBranch(*ifOp.getThenBlock())))
    return failure();
  target(br, here());
  registers->restore(before);
  return success();
}

// VTRANSPOSE reads 16 consecutive registers and writes 16 consecutive ones
// (VTRANSPOSE_ROWS the first of them that anything reads).
// The results get the block that holds the fewest values (spilling them).
// Sources already in order in a block keep it; other sources are first
// copied (VMOV, or VLD from their spill slot) into the results' block, which
// is then transposed in place (the instruction reads its whole block before
// writing, docs/isa.md).
LogicalResult Serializer::emitTranspose(VTransposeOp op) {
  std::optional<unsigned> block =
      registers->clearBlock(1, 16, position[op], /*keep=*/{});
  if (!block)
    return op.emitOpError("needs 16 consecutive vector registers, and a "
                          "pinned value holds one in every block");
  unsigned results = *block;
  std::optional<unsigned> first =
      registers->regOf(keyOf(op.getSources().front()));
  bool inOrder = first && *first + 16 <= kVectorRegisters;
  for (auto [i, source] : llvm::enumerate(op.getSources()))
    inOrder &= registers->regOf(keyOf(source)) == *first + i;
  if (!inOrder) {
    for (auto [i, source] : llvm::enumerate(op.getSources())) {
      if (std::optional<unsigned> r = registers->regOf(keyOf(source))) {
        exe::Instruction &mov = emit(op, exe::VMOV);
        mov.set_dst(results + i);
        mov.add_vsrc(*r);
      } else {
        emitSpill(1, results + i, *registers->slotOf(keyOf(source)),
                  /*store=*/false);
      }
    }
    first = results;
  }
  for (auto [i, result] : llvm::enumerate(op.getResults()))
    registers->assign(1, keyOf(result), results + i, lastUse.lookup(result));
  // Results from the last one read on are not written (VTRANSPOSE_ROWS): a
  // kernel that reads a few rows of the transpose (a convolution's weight
  // gradient over 3 input channels reads one register of 16).
  int64_t used = 0;
  for (auto [i, result] : llvm::enumerate(op.getResults()))
    if (!result.use_empty())
      used = i + 1;
  bool partial = used > 0 && used < 16;
  exe::Instruction &in =
      emit(op, partial ? exe::VTRANSPOSE_ROWS : exe::VTRANSPOSE);
  in.set_dst(results);
  in.add_vsrc(*first);
  if (partial)
    *in.add_args() = imm(used);
  return success();
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

FailureOr<exe::Executable> Serializer::run() {
  proto.set_format_version(exe::FORMAT_VERSION_CURRENT);
  proto.set_name(func.getSymName().str());
  *proto.mutable_target() = runtime::tpuV3Target();
  if (auto target =
          func->getParentOfType<ModuleOp>()->getAttrOfType<TargetAttr>(
              TpuDialect::kTargetAttrName)) {
    exe::Target &t = *proto.mutable_target();
    if (target.getName())
      t.set_name(target.getName().str());
    if (target.getClockHz())
      t.set_clock_hz(target.getClockHz());
    if (target.getMxuCount())
      t.set_mxu_count(target.getMxuCount());
    if (target.getMxuSize()) {
      t.set_mxu_rows(target.getMxuSize());
      t.set_mxu_cols(target.getMxuSize());
    }
    if (target.getVmemBytes())
      t.set_vmem_bytes(target.getVmemBytes());
    if (target.getSmemBytes())
      t.set_smem_bytes(target.getSmemBytes());
    // A target that gives its HBM capacity gives its whole HBM: a missing
    // reservation (or limit, below) is 0, not tpu-v3's.
    if (target.getHbmBytes()) {
      t.set_hbm_bytes(target.getHbmBytes());
      t.set_hbm_reserved_bytes(target.getHbmReservedBytes());
    }
    if (target.getHbmReservedBytes())
      t.set_hbm_reserved_bytes(target.getHbmReservedBytes());
    if (target.getHbmBytesPerSecond())
      t.set_hbm_bytes_per_second(target.getHbmBytesPerSecond());
    if (target.getDmaLatencyCycles())
      t.set_dma_latency_cycles(target.getDmaLatencyCycles());
    if (target.getNumSemaphores())
      t.set_num_semaphores(target.getNumSemaphores());
    // tpu-v3's limit belongs to its capacity and reservation: a target that
    // gives either without a limit uses capacity - reserved.
    if (target.getHbmLimitBytes())
      t.set_hbm_limit_bytes(target.getHbmLimitBytes());
    else if (target.getHbmBytes() || target.getHbmReservedBytes())
      t.set_hbm_limit_bytes(0);
    if (target.getCoresPerDevice())
      t.set_cores_per_device(target.getCoresPerDevice());
  }

  if (!func.getBody().hasOneBlock())
    return func.emitError("the entry function must have one block");
  number(func.getBody().front());
  foldConstantAdds();
  computeLastUses();
  if (failed(placeBuffers()))
    return failure();
  RegisterAllocator::Callbacks callbacks;
  callbacks.nextUse = [&](Key key, int64_t pos) {
    return nextUse(Value::getFromOpaquePointer(key), pos);
  };
  callbacks.spill = [&](int file, unsigned reg, unsigned slot) {
    emitSpill(file, reg, slot, /*store=*/true);
  };
  callbacks.reload = [&](int file, unsigned reg, unsigned slot) {
    emitSpill(file, reg, slot, /*store=*/false);
  };
  // s0 reads 0: s1..s31 are allocatable.
  registers.emplace(
      std::vector<RegisterAllocator::File>{{1, kScalarRegisters - 1},
                                           {0, kVectorRegisters}},
      std::move(callbacks));
  if (failed(emitBlock(func.getBody().front())) || failed(checkSpillAreas()))
    return failure();
  recordDeviceGrid();

  // A kernel's scratch buffers are not in the memory plan, so the memory
  // check before codegen cannot see them: past the target's HBM, XLA's
  // out-of-memory message with the largest buffers, not an invalid
  // executable.
  uint64_t usable = target::usableHbmBytes(proto.target());
  uint64_t used = proto.hbm().used_bytes();
  if (used > usable) {
    std::vector<const exe::Buffer *> largest;
    for (const exe::Buffer &b : proto.buffers())
      largest.push_back(&b);
    std::stable_sort(largest.begin(), largest.end(),
                     [](const exe::Buffer *a, const exe::Buffer *b) {
                       return a->size() > b->size();
                     });
    InFlightDiagnostic diag =
        func.emitError()
        << "Ran out of memory in memory space hbm. Used "
        << report::formatBytes(static_cast<int64_t>(used)) << " of "
        << report::formatBytes(static_cast<int64_t>(usable))
        << " hbm. Exceeded hbm capacity by "
        << report::formatBytes(static_cast<int64_t>(used - usable))
        << " (the executable's buffers, beyond the memory plan's; the "
           "largest:";
    for (size_t i = 0; i < std::min<size_t>(3, largest.size()); ++i)
      diag << (i ? ", " : " ") << "'" << largest[i]->name() << "' "
           << report::formatBytes(static_cast<int64_t>(largest[i]->size()));
    diag << ")";
    return diag;
  }

  absl::StatusOr<runtime::Executable> valid =
      runtime::validateExecutable(proto);
  if (!valid.ok())
    return func.emitError() << "the serialized executable is invalid: "
                            << std::string(valid.status().message());
  return proto;
}

} // namespace

std::vector<ResultSource> entryResultSources(func::FuncOp entry) {
  std::vector<ResultSource> sources(entry.getNumResults());
  Operation *terminator = entry.getBody().front().getTerminator();
  for (unsigned i = 0; i < sources.size(); ++i) {
    if (auto name = entry.getResultAttrOfType<StringAttr>(i, "hlo.result_name")) {
      sources[i].hloOp = name.str();
      if (auto opName =
              entry.getResultAttrOfType<StringAttr>(i, "hlo.result_op_name"))
        sources[i].opName = opName.str();
    } else if (i < terminator->getNumOperands()) {
      if (std::optional<SourceOp> op = sourceOp(
              outermostCaller(terminator->getOperand(i).getLoc()))) {
        sources[i].hloOp = op->hloOp;
        sources[i].opName = op->opName;
      }
    }
  }
  return sources;
}

void recordResultSources(func::FuncOp entry, ArrayRef<ResultSource> sources) {
  Builder b(entry.getContext());
  for (auto [i, source] : llvm::enumerate(sources)) {
    if (source.hloOp.empty() || i >= entry.getNumResults())
      continue;
    entry.setResultAttr(i, "hlo.result_name", b.getStringAttr(source.hloOp));
    if (!source.opName.empty())
      entry.setResultAttr(i, "hlo.result_op_name",
                          b.getStringAttr(source.opName));
  }
}

FailureOr<exe::Executable> serializeModule(ModuleOp module) {
  SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
  if (funcs.size() != 1 || funcs.front().isExternal())
    return module.emitError("expected exactly one function with a body, "
                            "the entry computation");
  return Serializer(funcs.front()).run();
}

//===----------------------------------------------------------------------===//
// Listing
//===----------------------------------------------------------------------===//

namespace {
std::string formatOperand(const exe::Operand &operand) {
  if (operand.reg() == 0)
    return std::to_string(operand.imm());
  std::string s = "s" + std::to_string(operand.reg());
  if (operand.imm() > 0)
    s += "+" + std::to_string(operand.imm());
  else if (operand.imm() < 0)
    s += std::to_string(operand.imm());
  return s;
}

std::string formatShape(const exe::Shape &shape) {
  std::string s = exe::DType_Name(shape.dtype()) + "[";
  for (int i = 0; i < shape.dims_size(); ++i)
    s += (i ? "," : "") + std::to_string(shape.dims(i));
  s += "]";
  const exe::Layout &layout = shape.layout();
  if (layout.minor_to_major_size() == 0 && layout.tiles_size() == 0)
    return s;
  s += "{";
  for (int i = 0; i < layout.minor_to_major_size(); ++i)
    s += (i ? "," : "") + std::to_string(layout.minor_to_major(i));
  if (layout.tiles_size())
    s += ":T";
  for (const exe::Tile &tile : layout.tiles()) {
    s += "(";
    for (int i = 0; i < tile.dims_size(); ++i)
      s += (i ? "," : "") + std::to_string(tile.dims(i));
    s += ")";
  }
  return s + "}";
}

// The register an instruction writes, as the listing names it ("" if none).
std::string formatDst(const exe::Instruction &in) {
  const runtime::OpcodeInfo *info = runtime::getOpcodeInfo(in.opcode());
  if (!info)
    return "";
  switch (info->dst) {
  case runtime::RegFile::Scalar:
    return "s" + std::to_string(in.dst());
  case runtime::RegFile::Vector:
    return "v" + std::to_string(in.dst());
  case runtime::RegFile::None:
    break;
  }
  return "";
}
} // namespace

std::string printExecutable(const exe::Executable &e) {
  std::string text;
  llvm::raw_string_ostream os(text);
  const exe::Target &t = e.target();
  os << "executable \"" << e.name() << "\" (format " << e.format_version()
     << ")\n";
  os << "target " << t.name() << ": " << t.mxu_count() << " MXU "
     << t.mxu_rows() << "x" << t.mxu_cols() << ", VMEM " << t.vmem_bytes()
     << ", SMEM " << t.smem_bytes() << ", HBM " << t.hbm_bytes() << " ("
     << t.hbm_reserved_bytes() << " reserved), " << t.num_semaphores()
     << " semaphores\n";
  if (e.replica_count() > 1 || e.num_partitions() > 1 || e.has_slice())
    os << "devices: " << std::max(1u, e.replica_count()) << " replicas x "
       << std::max(1u, e.num_partitions()) << " partitions"
       << (e.has_slice() ? ", slice " + e.slice().name() : std::string())
       << "\n";
  for (int i = 0; i < e.collectives_size(); ++i) {
    const exe::Collective &c = e.collectives(i);
    os << "collective " << i << " " << formatShape(c.operand()) << " -> "
       << formatShape(c.result());
    for (const exe::ReplicaGroup &g : c.groups()) {
      os << " {";
      for (int k = 0; k < g.devices_size(); ++k)
        os << (k ? "," : "") << g.devices(k);
      os << "}";
    }
    for (const exe::SourceTarget &p : c.pairs())
      os << " " << p.source() << "->" << p.target();
    if (c.reduce())
      os << " " << exe::CollectiveReduce_Name(c.reduce());
    if (c.id())
      os << " " << exe::DeviceIdKind_Name(c.id());
    os << "\n";
  }
  for (int i = 0; i < e.buffers_size(); ++i) {
    const exe::Buffer &b = e.buffers(i);
    os << "buffer " << i << " \"" << b.name() << "\" offset " << b.offset()
       << " size " << b.size();
    if (b.heap())
      os << " heap steps " << b.live_first() << ".." << b.live_last()
         << (b.planned() ? " planned" : "");
    os << "\n";
  }
  if (e.has_hbm()) {
    const exe::HbmSegments &h = e.hbm();
    os << "hbm: arguments " << h.argument_bytes() << ", constants "
       << h.constant_bytes() << ", heap " << h.heap_bytes() << ", used "
       << h.used_bytes() << " (plan " << h.planned_bytes() << "), "
       << h.planned_buffers() << " buffers at planned offsets, "
       << h.unplanned_buffers() << " placed around them\n";
  }
  auto hostType = [](exe::DType host) {
    return host ? " host " + exe::DType_Name(host) : std::string();
  };
  for (int i = 0; i < e.parameters_size(); ++i)
    os << "parameter " << i << " \"" << e.parameters(i).name() << "\" "
       << formatShape(e.parameters(i).shape())
       << hostType(e.parameters(i).host_dtype()) << " buffer "
       << e.parameters(i).buffer() << "\n";
  for (int i = 0; i < e.results_size(); ++i) {
    const exe::Result &r = e.results(i);
    os << "result " << i << " \"" << r.name() << "\" "
       << formatShape(r.shape()) << hostType(r.host_dtype()) << " buffer "
       << r.buffer();
    if (!r.hlo_op().empty())
      os << " hlo op \"" << r.hlo_op() << "\"";
    if (!r.op_name().empty())
      os << " \"" << r.op_name() << "\"";
    os << "\n";
  }
  for (int i = 0; i < e.constants_size(); ++i)
    os << "constant " << i << " \"" << e.constants(i).name() << "\" "
       << formatShape(e.constants(i).shape()) << " buffer "
       << e.constants(i).buffer() << " (" << e.constants(i).data().size()
       << " bytes)\n";
  for (const exe::InputOutputAlias &alias : e.aliases())
    os << "alias result " << alias.result() << " = parameter "
       << alias.parameter() << "\n";
  for (int i = 0; i < e.debug_ops_size(); ++i) {
    const exe::DebugOp &d = e.debug_ops(i);
    os << "debug_op " << i + 1 << " \"" << d.hlo_op() << "\"";
    if (!d.op_name().empty())
      os << " \"" << d.op_name() << "\"";
    if (!d.source_file().empty())
      os << " at " << d.source_file() << ":" << d.source_line();
    os << "\n";
  }
  int depth = 0;
  for (int pc = 0; pc < e.instructions_size(); ++pc) {
    const exe::Instruction &in = e.instructions(pc);
    depth -= in.opcode() == exe::LOOP_END;
    os << llvm::format_decimal(pc, 5) << "  ";
    os.indent(2 * depth) << exe::Opcode_Name(in.opcode());
    depth += in.opcode() == exe::LOOP_BEGIN;
    std::vector<std::string> fields;
    if (std::string dst = formatDst(in); !dst.empty())
      fields.push_back(dst);
    for (uint32_t v : in.vsrc())
      fields.push_back("v" + std::to_string(v));
    for (const exe::Operand &arg : in.args())
      fields.push_back(formatOperand(arg));
    if (in.dtype())
      fields.push_back(exe::DType_Name(in.dtype()));
    if (in.src_dtype())
      fields.push_back("from " + exe::DType_Name(in.src_dtype()));
    if (in.cmp())
      fields.push_back(exe::CmpKind_Name(in.cmp()));
    if (in.reduce())
      fields.push_back(exe::ReduceKind_Name(in.reduce()));
    if (in.opcode() == exe::BR || in.opcode() == exe::BRNZ)
      fields.push_back("-> " + std::to_string(in.target()));
    if (in.opcode() == exe::MXU_LOAD_WEIGHTS || in.opcode() == exe::MXU_MATMUL)
      fields.push_back("mxu " + std::to_string(in.mxu()));
    if (in.accumulate())
      fields.push_back("accumulate");
    if (in.src_space())
      fields.push_back(exe::MemorySpace_Name(in.src_space()) + "->" +
                       exe::MemorySpace_Name(in.dst_space()));
    for (size_t i = 0; i < fields.size(); ++i)
      os << (i ? ", " : " ") << fields[i];
    if (in.debug_op())
      os << "  ; " << e.debug_ops(in.debug_op() - 1).hlo_op();
    os << "\n";
  }
  return text;
}

} // namespace tpuc::serializer
