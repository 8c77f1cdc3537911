//===- HloToTpu.cpp - lower the hlo entry function to tpu kernels ---------===//
//
// tpuc-convert-hlo-to-tpu: each hlo op of the entry function becomes one
// kernel, a straight-line sequence of tpu ops (DMA into VMEM, VPU/MXU loops,
// DMA back to HBM) that leaves no DMA in flight. Tensors become HBM memrefs
// in XLA's TPU tiled layouts; docs/codegen.md describes the buffers, the
// kernels and their DMA schemes.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/hlo/HloOps.h"
#include "dialects/tpu/TpuDialect.h"
#include "dialects/tpu/TpuOps.h"
#include "runtime/target/Targets.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <functional>

namespace tpuc {
#define GEN_PASS_DEF_CONVERTHLOTOTPU
#include "passes/Passes.h.inc"
} // namespace tpuc

using namespace mlir;

namespace tpuc {
namespace {

constexpr int64_t kSublanes = 8, kLanes = 128;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The largest divisor of `n` that is at most `limit` (at least 1).
int64_t largestDivisorAtMost(int64_t n, int64_t limit) {
  for (int64_t d = std::min(n, std::max<int64_t>(limit, 1)); d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

int64_t elementBytes(Type type) { return type.isBF16() ? 2 : 4; }

/// How a tensor is stored in HBM, as vreg-sized tiles. Rank >= 2 uses
/// {r-1,...,0:T(8,128)}: the two minor dims in 8x128 tiles, tile rows
/// contiguous. Rank 1 uses {0:T(1024)}: 1024 contiguous elements, one vreg
/// (sublane s holds elements 128s..128s+127).
struct Geometry {
  int64_t rank = 0;
  int64_t outer = 1;   // product of the dims above the two minor ones
  int64_t rows = 1;    // second-minor dim (1 for rank 1)
  int64_t cols = 1;    // minor dim
  int64_t rowTiles = 1, colTiles = 1;
  int64_t elemBytes = 4;
  int64_t tileBytes() const { return kSublanes * kLanes * elemBytes; }
  int64_t tiles() const { return outer * rowTiles * colTiles; }
  int64_t bytes() const { return tiles() * tileBytes(); }
};

Geometry geometryOf(RankedTensorType type) {
  Geometry g;
  g.rank = type.getRank();
  g.elemBytes = elementBytes(type.getElementType());
  ArrayRef<int64_t> shape = type.getShape();
  if (g.rank == 1) {
    g.cols = shape[0];
    g.colTiles = ceilDiv(shape[0], kSublanes * kLanes);
    return g;
  }
  for (int64_t i = 0; i + 2 < g.rank; ++i)
    g.outer *= shape[i];
  g.rows = shape[g.rank - 2];
  g.cols = shape[g.rank - 1];
  g.rowTiles = ceilDiv(g.rows, kSublanes);
  g.colTiles = ceilDiv(g.cols, kLanes);
  return g;
}

/// A splat f32/bf16 constant's value, if `v` is one.
std::optional<double> splatValue(Value v) {
  auto cst = v.getDefiningOp<hlo::ConstantOp>();
  if (!cst)
    return std::nullopt;
  auto dense = dyn_cast<DenseFPElementsAttr>(cst.getValue());
  if (!dense || !dense.isSplat())
    return std::nullopt;
  return dense.getSplatValue<APFloat>().convertToDouble();
}

/// "tpuc cannot lower 'hlo.gather' yet": the one message for ops outside
/// what this pass handles; the location gives file:line:col.
LogicalResult unsupported(Operation *op, const Twine &why = "") {
  InFlightDiagnostic diag = op->emitError()
                            << "tpuc cannot lower '" << op->getName() << "'";
  if (!why.isTriviallyEmpty())
    diag << " " << why;
  diag << " yet";
  return diag;
}

//===----------------------------------------------------------------------===//
// The emitter: builders for the tpu ops every kernel uses
//===----------------------------------------------------------------------===//

/// A VMEM region of one kernel: an arena of one element type and a byte
/// offset in it.
struct VBuf {
  Value arena;
  int64_t offset = 0;
  int64_t bytes = 0;
};

class Lowering {
public:
  Lowering(ModuleOp module, func::FuncOp func, const target::TargetSpec &spec)
      : module(module), spec(spec), b(module.getContext()),
        ctx(module.getContext()) {
    vmemSpace = tpu::MemorySpaceAttr::get(ctx, tpu::MemorySpace::vmem);
    hbmSpace = tpu::MemorySpaceAttr::get(ctx, tpu::MemorySpace::hbm);
    oldFunc = func;
  }

  LogicalResult run();
  func::FuncOp lowered() { return newFunc; }

private:
  // --- types and buffers ---------------------------------------------------
  MemRefType hbmType(RankedTensorType type) {
    int64_t rank = type.getRank();
    SmallVector<int64_t> minorToMajor;
    for (int64_t d = rank - 1; d >= 0; --d)
      minorToMajor.push_back(d);
    SmallVector<int64_t> tileRanks, tileDims;
    if (rank == 1) {
      tileRanks = {1};
      tileDims = {kSublanes * kLanes};
    } else {
      tileRanks = {2};
      tileDims = {kSublanes, kLanes};
    }
    auto layout = tpu::TiledLayoutAttr::get(ctx, minorToMajor, tileRanks,
                                            tileDims);
    return MemRefType::get(type.getShape(), type.getElementType(), layout,
                           hbmSpace);
  }
  Value allocHbm(RankedTensorType type, Location loc) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(allocPoint);
    return tpu::AllocOp::create(b, loc, hbmType(type));
  }
  /// VMEM for the current kernel: bump allocation in the arena of the
  /// element type, 4 KiB aligned (the scoreboard's page).
  VBuf vmem(Type elem, int64_t bytes) {
    Value &arena = arenas[elem];
    if (!arena) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(allocPoint);
      arena = tpu::AllocOp::create(b, 
          module.getLoc(), MemRefType::get({1}, elem, nullptr, vmemSpace));
    }
    int64_t &used = kernelUse[elem];
    VBuf buf{arena, used, bytes};
    used += ceilDiv(bytes, 4096) * 4096;
    return buf;
  }
  void beginKernel(Operation *op) {
    loc = op->getLoc();
    kernelOp = op;
    kernelUse.clear();
  }
  /// Records the kernel's VMEM and fails when it exceeds the target's.
  LogicalResult endKernel() {
    int64_t total = 0;
    for (auto &[elem, used] : kernelUse) {
      total += used;
      int64_t &peak = arenaBytes[elem];
      peak = std::max(peak, used);
    }
    int64_t vmemBytes = spec.machine.vmem_bytes();
    if (total > vmemBytes)
      return kernelOp->emitError()
             << "the kernel for '" << kernelOp->getName() << "' needs "
             << total << " bytes of VMEM but " << spec.machine.name()
             << " has " << vmemBytes;
    return success();
  }

  // --- scalars, loops, DMA ----------------------------------------------------
  // Scalar arithmetic, folded when the operands are constants (the
  // serializer turns constants into immediates).
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  static std::optional<int64_t> constant(Value v) {
    if (auto cst = v.getDefiningOp<arith::ConstantIndexOp>())
      return cst.value();
    return std::nullopt;
  }
  Value add(Value x, Value y) {
    std::optional<int64_t> cx = constant(x), cy = constant(y);
    if (cx && cy)
      return c(*cx + *cy);
    if (cx == 0)
      return y;
    if (cy == 0)
      return x;
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value add(Value x, int64_t y) { return y == 0 ? x : add(x, c(y)); }
  Value mul(Value x, int64_t y) {
    if (std::optional<int64_t> cx = constant(x))
      return c(*cx * y);
    if (y == 0)
      return c(0);
    return y == 1 ? x : arith::MulIOp::create(b, loc, x, c(y)).getResult();
  }
  Value sub(Value x, Value y) {
    std::optional<int64_t> cx = constant(x), cy = constant(y);
    if (cx && cy)
      return c(*cx - *cy);
    return arith::SubIOp::create(b, loc, x, y);
  }
  Value rem(Value x, int64_t y) {
    if (std::optional<int64_t> cx = constant(x))
      return c(*cx % y);
    return arith::RemSIOp::create(b, loc, x, c(y));
  }
  /// A counted loop; a trip count of one is emitted inline.
  void loop(int64_t trips, function_ref<void(Value)> body) {
    if (trips <= 0)
      return;
    if (trips == 1) {
      body(c(0));
      return;
    }
    auto op = tpu::LoopOp::create(b, loc, c(trips));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(op.getBody()->getTerminator());
    body(op.getInductionVar());
  }
  void dma(Value src, Value srcOff, Value dst, Value dstOff, int64_t chunks,
           int64_t chunkBytes, int64_t srcStride, int64_t dstStride,
           int sem) {
    tpu::DmaOp::create(b, loc, src, srcOff, dst, dstOff, chunks, chunkBytes,
                         srcStride, dstStride, sem);
  }
  void wait(int sem, int64_t count) {
    if (count > 0)
      tpu::SemWaitOp::create(b, loc, sem, count);
  }

  // --- vector registers -------------------------------------------------------
  VectorType f32Reg() { return VectorType::get({8, 128}, b.getF32Type()); }
  VectorType i32Reg() { return VectorType::get({8, 128}, b.getI32Type()); }
  Value vload(const VBuf &buf, Value off, int64_t stride = 0) {
    return tpu::VLoadOp::create(b, loc, f32Reg(), buf.arena,
                                  add(off, buf.offset), stride);
  }
  void vstore(Value v, const VBuf &buf, Value off) {
    tpu::VStoreOp::create(b, loc, v, buf.arena, add(off, buf.offset), 0);
  }
  Value splatF32(double value) {
    Value cst = arith::ConstantOp::create(b, 
        loc, b.getF32FloatAttr(static_cast<float>(value)));
    return tpu::VSplatOp::create(b, loc, f32Reg(), cst);
  }
  Value splatIndex(Value v) { return tpu::VSplatOp::create(b, loc, i32Reg(), v); }
  /// Lanes (sublanes) whose index is below `limit` keep `v`, the others
  /// become `fill`: masks the padding of ragged edges.
  Value maskBelow(Value v, Value ids, Value limit, double fill) {
    Value mask = tpu::VCmpOp::create(b, loc, i32Reg(), tpu::CmpKind::lt, ids,
                                       splatIndex(limit));
    return tpu::VSelectOp::create(b, loc, mask, v, splatF32(fill));
  }

  // --- kernels ------------------------------------------------------------------
  FailureOr<Value> memOf(Value v);
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerElementwise(Operation *op);
  LogicalResult lowerFill(Value v, Value out);
  LogicalResult lowerBroadcast(hlo::BroadcastInDimOp op);
  LogicalResult lowerReshape(hlo::ReshapeOp op);
  LogicalResult lowerReduce(hlo::ReduceOp op);
  LogicalResult lowerDot(hlo::DotGeneralOp op);
  FailureOr<Value> emitTile(Value v, Value tileOff,
                            llvm::DenseMap<Value, std::pair<VBuf, int64_t>> &ins,
                            llvm::DenseMap<Value, Value> &memo);

  ModuleOp module;
  const target::TargetSpec &spec;
  OpBuilder b;
  MLIRContext *ctx;
  Attribute vmemSpace, hbmSpace;
  func::FuncOp oldFunc, newFunc;
  Operation *allocPoint = nullptr;
  Location loc = UnknownLoc::get(ctx);
  Operation *kernelOp = nullptr;
  llvm::DenseMap<Value, Value> hbm; // hlo tensor -> HBM memref
  llvm::MapVector<Type, Value> arenas;
  llvm::MapVector<Type, int64_t> arenaBytes, kernelUse;
};

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

LogicalResult Lowering::run() {
  FunctionType oldType = oldFunc.getFunctionType();
  SmallVector<Type> argTypes, resultTypes;
  auto checkType = [&](Type type, Location where) -> FailureOr<Type> {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || tensor.getRank() == 0 ||
        !(tensor.getElementType().isF32() || tensor.getElementType().isBF16()))
      return emitError(where) << "tpuc cannot lower entry type " << type
                              << " yet (f32/bf16 arrays of rank >= 1 only)";
    return Type(hbmType(tensor));
  };
  for (BlockArgument arg : oldFunc.getArguments()) {
    FailureOr<Type> t = checkType(arg.getType(), arg.getLoc());
    if (failed(t))
      return failure();
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
  Block *entry = newFunc.addEntryBlock();
  for (auto [oldArg, newArg] :
       llvm::zip(oldFunc.getArguments(), entry->getArguments()))
    hbm[oldArg] = newArg;
  b.setInsertionPointToEnd(entry);
  // Allocs go before this marker, so they stay at the top of the function.
  allocPoint = arith::ConstantIndexOp::create(b, oldFunc.getLoc(), 0);

  for (Operation &op : oldFunc.getBody().front().without_terminator())
    if (failed(lowerOp(&op)))
      return failure();

  Operation *terminator = oldFunc.getBody().front().getTerminator();
  SmallVector<Value> results;
  for (Value v : terminator->getOperands()) {
    loc = terminator->getLoc();
    FailureOr<Value> mem = memOf(v);
    if (failed(mem))
      return failure();
    results.push_back(*mem);
  }
  func::ReturnOp::create(b, terminator->getLoc(), results);

  // Size the arenas for the largest kernel that used them.
  int64_t total = 0;
  for (auto &[elem, arena] : arenas) {
    int64_t bytes = std::max<int64_t>(arenaBytes.lookup(elem), 4096);
    total += bytes;
    arena.setType(MemRefType::get({bytes / elementBytes(elem)}, elem, nullptr,
                                  vmemSpace));
  }
  if (total > static_cast<int64_t>(spec.machine.vmem_bytes()))
    return oldFunc.emitError()
           << "tpuc's VMEM arenas need " << total << " bytes but "
           << spec.machine.name() << " has " << spec.machine.vmem_bytes();
  if (allocPoint->use_empty())
    allocPoint->erase();
  return success();
}

FailureOr<Value> Lowering::memOf(Value v) {
  if (Value mem = hbm.lookup(v))
    return mem;
  // Splat constants live in registers; one read as an array is filled.
  if (splatValue(v)) {
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getRank() == 0 || !(type.getElementType().isF32() ||
                                 type.getElementType().isBF16()))
      return FailureOr<Value>(unsupported(v.getDefiningOp(), "as an array operand"));
    Value out = allocHbm(type, v.getLoc());
    Location saved = loc;
    Operation *savedOp = kernelOp;
    beginKernel(v.getDefiningOp());
    if (failed(lowerFill(v, out)) || failed(endKernel()))
      return failure();
    loc = saved;
    kernelOp = savedOp;
    hbm[v] = out;
    return out;
  }
  if (Operation *def = v.getDefiningOp())
    return FailureOr<Value>(unsupported(def));
  return FailureOr<Value>(emitError(v.getLoc())
                          << "tpuc cannot lower a use of this value yet");
}

LogicalResult Lowering::lowerOp(Operation *op) {
  if (isa<hlo::ConstantOp>(op)) {
    if (!splatValue(op->getResult(0)))
      return unsupported(op, "(a constant that is not a splat)");
    return success(); // materialised where it is used
  }
  if (auto fusion = dyn_cast<hlo::FusionOp>(op)) {
    // Not yet one kernel: the fused ops are lowered one by one (a fusion
    // kernel that keeps intermediates in VMEM is later work).
    Block &body = fusion.getBody().front();
    for (auto [arg, operand] :
         llvm::zip(body.getArguments(), fusion.getOperands())) {
      FailureOr<Value> mem = memOf(operand);
      if (failed(mem))
        return failure();
      hbm[arg] = *mem;
    }
    for (Operation &inner : body.without_terminator())
      if (failed(lowerOp(&inner)))
        return failure();
    for (auto [result, value] :
         llvm::zip(fusion.getResults(), body.getTerminator()->getOperands())) {
      FailureOr<Value> mem = memOf(value);
      if (failed(mem))
        return failure();
      hbm[result] = *mem;
    }
    return success();
  }
  if (auto cmp = dyn_cast<hlo::CompareOp>(op)) {
    // Compares live in registers, inside the select that uses them.
    for (Operation *user : cmp->getUsers())
      if (!isa<hlo::SelectOp>(user) ||
          cast<hlo::SelectOp>(user).getPred() != cmp.getResult())
        return unsupported(op, "whose result is not only a select's predicate");
    return success();
  }
  for (Value result : op->getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || type.getRank() == 0 ||
        !(type.getElementType().isF32() || type.getElementType().isBF16()))
      return unsupported(op, "producing " + llvm::Twine(
                                  [&] {
                                    std::string s;
                                    llvm::raw_string_ostream os(s);
                                    os << result.getType();
                                    return s;
                                  }()));
  }
  beginKernel(op);
  LogicalResult result =
      llvm::TypeSwitch<Operation *, LogicalResult>(op)
          .Case<hlo::AddOp, hlo::SubtractOp, hlo::MultiplyOp, hlo::DivideOp,
                hlo::MaximumOp, hlo::MinimumOp, hlo::NegOp, hlo::AbsOp,
                hlo::ExpOp, hlo::LogOp, hlo::TanhOp, hlo::RsqrtOp,
                hlo::SqrtOp, hlo::SelectOp, hlo::ConvertOp, hlo::CopyOp>(
              [&](Operation *op) { return lowerElementwise(op); })
          .Case([&](hlo::BroadcastInDimOp op) { return lowerBroadcast(op); })
          .Case([&](hlo::ReshapeOp op) { return lowerReshape(op); })
          .Case([&](hlo::ReduceOp op) { return lowerReduce(op); })
          .Case([&](hlo::DotGeneralOp op) { return lowerDot(op); })
          .Default([&](Operation *op) { return unsupported(op); });
  if (failed(result))
    return failure();
  return endKernel();
}

//===----------------------------------------------------------------------===//
// Elementwise: flat loops over (8,128) tiles
//===----------------------------------------------------------------------===//

/// The register value of `v` for the tile at byte offset `tileOff` (counted
/// in f32 tiles; bf16 buffers use half). `ins` maps the kernel's array
/// inputs to their VMEM block.
FailureOr<Value>
Lowering::emitTile(Value v, Value tileIndex,
                   llvm::DenseMap<Value, std::pair<VBuf, int64_t>> &ins,
                   llvm::DenseMap<Value, Value> &memo) {
  if (Value r = memo.lookup(v))
    return r;
  Value r;
  if (auto it = ins.find(v); it != ins.end()) {
    r = vload(it->second.first, mul(tileIndex, it->second.second));
  } else if (std::optional<double> s = splatValue(v)) {
    r = splatF32(*s);
  } else {
    Operation *def = v.getDefiningOp();
    SmallVector<Value> operands;
    for (Value operand : def->getOperands()) {
      FailureOr<Value> o = emitTile(operand, tileIndex, ins, memo);
      if (failed(o))
        return failure();
      operands.push_back(*o);
    }
    auto ty = f32Reg();
    r = llvm::TypeSwitch<Operation *, Value>(def)
            .Case([&](hlo::AddOp) { return tpu::VAddOp::create(b, loc, operands[0], operands[1]); })
            .Case([&](hlo::SubtractOp) { return tpu::VSubOp::create(b, loc, operands[0], operands[1]); })
            .Case([&](hlo::MultiplyOp) { return tpu::VMulOp::create(b, loc, operands[0], operands[1]); })
            .Case([&](hlo::DivideOp) { return tpu::VDivOp::create(b, loc, operands[0], operands[1]); })
            .Case([&](hlo::MaximumOp) { return tpu::VMaxOp::create(b, loc, operands[0], operands[1]); })
            .Case([&](hlo::MinimumOp) { return tpu::VMinOp::create(b, loc, operands[0], operands[1]); })
            .Case([&](hlo::NegOp) { return tpu::VNegOp::create(b, loc, operands[0]); })
            .Case([&](hlo::AbsOp) { return tpu::VAbsOp::create(b, loc, operands[0]); })
            .Case([&](hlo::ExpOp) { return tpu::VExpOp::create(b, loc, operands[0]); })
            .Case([&](hlo::LogOp) { return tpu::VLogOp::create(b, loc, operands[0]); })
            .Case([&](hlo::TanhOp) { return tpu::VTanhOp::create(b, loc, operands[0]); })
            .Case([&](hlo::RsqrtOp) { return tpu::VRsqrtOp::create(b, loc, operands[0]); })
            .Case([&](hlo::SqrtOp) { return tpu::VSqrtOp::create(b, loc, operands[0]); })
            .Case([&](hlo::CopyOp) { return operands[0]; })
            // A bf16 result is rounded by the store (VST to a bf16 buffer).
            .Case([&](hlo::ConvertOp) { return operands[0]; })
            .Case([&](hlo::SelectOp) {
              return tpu::VSelectOp::create(b, loc, operands[0], operands[1],
                                              operands[2]);
            })
            .Case([&](hlo::CompareOp cmp) -> Value {
              tpu::CmpKind kind = tpu::CmpKind::eq;
              switch (cmp.getComparisonDirection()) {
              case hlo::ComparisonDirection::EQ: kind = tpu::CmpKind::eq; break;
              case hlo::ComparisonDirection::NE: kind = tpu::CmpKind::ne; break;
              case hlo::ComparisonDirection::LT: kind = tpu::CmpKind::lt; break;
              case hlo::ComparisonDirection::LE: kind = tpu::CmpKind::le; break;
              case hlo::ComparisonDirection::GT: kind = tpu::CmpKind::gt; break;
              case hlo::ComparisonDirection::GE: kind = tpu::CmpKind::ge; break;
              }
              return tpu::VCmpOp::create(b, loc, i32Reg(), kind, operands[0],
                                           operands[1]);
            })
            .Default([&](Operation *) { return Value(); });
    (void)ty;
    if (!r)
      return FailureOr<Value>(unsupported(def));
    // Keep the hlo op's location on what it computes (the debug map).
    r.getDefiningOp()->setLoc(def->getLoc());
  }
  memo[v] = r;
  return r;
}

LogicalResult Lowering::lowerElementwise(Operation *op) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  Geometry g = geometryOf(type);
  // The array inputs: operands (and a select's compare's operands) that
  // are neither splat constants nor compares.
  SmallVector<Value> inputs;
  std::function<LogicalResult(Value)> collect = [&](Value v) -> LogicalResult {
    if (splatValue(v))
      return success();
    if (auto cmp = v.getDefiningOp<hlo::CompareOp>()) {
      if (failed(collect(cmp.getLhs())) || failed(collect(cmp.getRhs())))
        return failure();
      return success();
    }
    if (llvm::is_contained(inputs, v))
      return success();
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getShape() != type.getShape())
      return unsupported(op, "with operands of different shapes");
    if (!(t.getElementType().isF32() || t.getElementType().isBF16()))
      return unsupported(op, "on this element type");
    inputs.push_back(v);
    return success();
  };
  for (Value operand : op->getOperands())
    if (failed(collect(operand)))
      return failure();

  // Blocks of whole tiles: a divisor of the tile count, at most 64 tiles
  // (256 KiB of f32) per array.
  int64_t blockTiles = largestDivisorAtMost(g.tiles(), 64);
  int64_t blocks = g.tiles() / blockTiles;
  llvm::DenseMap<Value, std::pair<VBuf, int64_t>> ins;
  SmallVector<std::pair<Value, VBuf>> inMems;
  for (Value in : inputs) {
    Geometry gi = geometryOf(cast<RankedTensorType>(in.getType()));
    FailureOr<Value> mem = memOf(in);
    if (failed(mem))
      return failure();
    VBuf buf = vmem(cast<RankedTensorType>(in.getType()).getElementType(),
                    blockTiles * gi.tileBytes());
    ins[in] = {buf, gi.tileBytes()};
    inMems.push_back({*mem, buf});
  }
  VBuf outBuf = vmem(type.getElementType(), blockTiles * g.tileBytes());
  Value out = allocHbm(type, op->getLoc());
  hbm[op->getResult(0)] = out;

  loop(blocks, [&](Value blk) {
    for (auto &[mem, buf] : inMems) {
      int64_t bytes = buf.bytes;
      dma(mem, mul(blk, bytes), buf.arena, c(buf.offset), 1, bytes, 0, 0, 0);
    }
    wait(0, inMems.size());
    loop(blockTiles, [&](Value t) {
      llvm::DenseMap<Value, Value> memo;
      FailureOr<Value> r = emitTile(op->getResult(0), t, ins, memo);
      if (succeeded(r))
        vstore(*r, outBuf, mul(t, g.tileBytes()));
    });
    dma(outBuf.arena, c(outBuf.offset), out, mul(blk, outBuf.bytes), 1,
        outBuf.bytes, 0, 0, 1);
    wait(1, 1);
  });
  return success();
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

//===----------------------------------------------------------------------===//
// broadcast_in_dim and reshape
//===----------------------------------------------------------------------===//

LogicalResult Lowering::lowerBroadcast(hlo::BroadcastInDimOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  auto inType = cast<RankedTensorType>(op.getOperand().getType());
  ArrayRef<int64_t> dims = op.getBroadcastDimensions();
  if (type.getElementType() != inType.getElementType())
    return unsupported(op, "that changes the element type");
  Value out = allocHbm(type, op.getLoc());
  hbm[op.getResult()] = out;
  if (splatValue(op.getOperand()))
    return lowerFill(op.getOperand(), out); // the broadcast of a splat
  if (type.getRank() != 2 || inType.getRank() != 1)
    return unsupported(op, "other than a row or column of a 2-D array");
  FailureOr<Value> in = memOf(op.getOperand());
  if (failed(in))
    return failure();
  Geometry g = geometryOf(type), gi = geometryOf(inType);
  Type elem = type.getElementType();
  int64_t eb = g.elemBytes;
  // The operand, whole, plus one tile so that strided loads near its end
  // read written bytes.
  VBuf src = vmem(elem, gi.bytes() + gi.tileBytes());
  vstore(splatF32(0.0), src, c(gi.bytes()));
  dma(*in, c(0), src.arena, c(src.offset), 1, gi.bytes(), 0, 0, 0);
  wait(0, 1);
  if (dims[0] == 1) {
    // Row: tile column c is sublane c%8 of vreg c/8, broadcast to every
    // sublane. One tile row is built, then copied to every tile row by one
    // DMA with a zero source stride.
    VBuf row = vmem(elem, g.colTiles * g.tileBytes());
    for (int64_t col = 0; col < g.colTiles; ++col) {
      Value v = vload(src, c((col / kSublanes) * gi.tileBytes()));
      Value r = tpu::VBroadcastSublaneOp::create(b, loc, v, c(col % kSublanes));
      vstore(r, row, c(col * g.tileBytes()));
    }
    dma(row.arena, c(row.offset), out, c(0), g.rowTiles, row.bytes, 0,
        row.bytes, 1);
    wait(1, 1);
    return success();
  }
  // Column: for tile row r, a load with a sublane stride of one element
  // puts element 8r+s in lane 0 of sublane s; broadcast lane 0. Each tile
  // row is then one DMA of that tile repeated across the columns.
  VBuf col = vmem(elem, g.rowTiles * g.tileBytes());
  loop(g.rowTiles, [&](Value r) {
    Value v = vload(src, mul(r, kSublanes * eb), eb);
    Value bc = tpu::VBroadcastLaneOp::create(b, loc, v, c(0));
    Value off = mul(r, g.tileBytes());
    vstore(bc, col, off);
    dma(col.arena, add(off, col.offset), out, mul(r, g.colTiles * g.tileBytes()),
        g.colTiles, g.tileBytes(), 0, g.tileBytes(), 1);
  });
  wait(1, g.rowTiles);
  return success();
}

/// The tiled arrangement of a shape: reshapes between shapes with the same
/// key move no bytes.
std::tuple<int64_t, int64_t, int64_t, int64_t> tiledKey(RankedTensorType t) {
  Geometry g = geometryOf(t);
  if (g.rank == 1)
    return {1, 1, g.cols, 0};
  if (g.outer == 1 || g.rows % kSublanes == 0)
    return {2, g.outer * g.rows, g.cols, 0};
  return {3, g.outer, g.rows, g.cols};
}

LogicalResult Lowering::lowerReshape(hlo::ReshapeOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  auto inType = cast<RankedTensorType>(op.getOperand().getType());
  if (tiledKey(type) != tiledKey(inType))
    return unsupported(op, "that changes the tiled layout (" +
                               std::to_string(inType.getRank()) + "-D to " +
                               std::to_string(type.getRank()) + "-D)");
  FailureOr<Value> in = memOf(op.getOperand());
  if (failed(in))
    return failure();
  Value out = allocHbm(type, op.getLoc());
  hbm[op.getResult()] = out;
  Geometry g = geometryOf(type);
  dma(*in, c(0), out, c(0), 1, g.bytes(), 0, 0, 0);
  wait(0, 1);
  return success();
}

//===----------------------------------------------------------------------===//
// reduce: over the minor dim (lanes) or the leading dim (sublanes)
//===----------------------------------------------------------------------===//

LogicalResult Lowering::lowerReduce(hlo::ReduceOp op) {
  if (op.getInputs().size() != 1)
    return unsupported(op, "with several inputs");
  auto inType = cast<RankedTensorType>(op.getInputs()[0].getType());
  auto type = cast<RankedTensorType>(op.getResult(0).getType());
  ArrayRef<int64_t> dims = op.getDimensions();
  if (inType.getRank() != 2 || dims.size() != 1)
    return unsupported(op, "other than over one dimension of a 2-D array");
  std::optional<double> init = splatValue(op.getInitValues()[0]);
  if (!init)
    return unsupported(op, "whose init value is not a constant");
  // The body must be one add/maximum/minimum of its two arguments.
  Block &body = op.getBody().front();
  Operation *combiner = body.getTerminator()->getOperand(0).getDefiningOp();
  if (!combiner || &body.front() != combiner ||
      combiner->getNumOperands() != 2 ||
      !llvm::all_of(combiner->getOperands(),
                    [](Value v) { return isa<BlockArgument>(v); }))
    return unsupported(op, "with a body other than one add/maximum/minimum");
  tpu::ReduceKind kind;
  double identity;
  std::function<Value(Value, Value)> combine;
  if (isa<hlo::AddOp>(combiner)) {
    kind = tpu::ReduceKind::sum;
    identity = 0.0;
    combine = [&](Value x, Value y) { return tpu::VAddOp::create(b, loc, x, y); };
  } else if (isa<hlo::MaximumOp>(combiner)) {
    kind = tpu::ReduceKind::max;
    identity = -std::numeric_limits<double>::infinity();
    combine = [&](Value x, Value y) { return tpu::VMaxOp::create(b, loc, x, y); };
  } else if (isa<hlo::MinimumOp>(combiner)) {
    kind = tpu::ReduceKind::min;
    identity = std::numeric_limits<double>::infinity();
    combine = [&](Value x, Value y) { return tpu::VMinOp::create(b, loc, x, y); };
  } else {
    return unsupported(op, "with a " + combiner->getName().getStringRef() +
                               " body");
  }

  FailureOr<Value> in = memOf(op.getInputs()[0]);
  if (failed(in))
    return failure();
  Value out = allocHbm(type, op.getLoc());
  hbm[op.getResult(0)] = out;
  Geometry g = geometryOf(inType);
  Type outElem = type.getElementType();
  int64_t ob = elementBytes(outElem);
  int64_t outTile = kSublanes * kLanes * ob;
  int64_t rowBytes = g.colTiles * g.tileBytes();
  // Blocks of whole tile rows, at most 512 KiB.
  int64_t blockRows =
      largestDivisorAtMost(g.rowTiles, std::max<int64_t>(1, (512 << 10) / rowBytes));
  VBuf inBuf = vmem(inType.getElementType(), blockRows * rowBytes);
  Value laneIds, sublaneIds;
  auto lanes = [&] {
    if (!laneIds)
      laneIds = tpu::VLaneIdOp::create(b, loc, i32Reg());
    return laneIds;
  };
  (void)sublaneIds;

  if (dims[0] == 1) {
    // Over lanes: per tile row, combine its tiles, reduce the lanes; sublane
    // s then holds row 8r+s in every lane. A strided DMA gathers lane 0 of
    // every sublane into the rank-1 result (element m at 512*m bytes in the
    // staging buffer).
    VBuf staging = vmem(outElem, blockRows * outTile);
    int64_t ragged = g.cols % kLanes;
    loop(g.rowTiles / blockRows, [&](Value blk) {
      dma(*in, mul(blk, inBuf.bytes), inBuf.arena, c(inBuf.offset), 1,
          inBuf.bytes, 0, 0, 0);
      wait(0, 1);
      loop(blockRows, [&](Value r) {
        Value base = mul(r, rowBytes);
        Value acc;
        for (int64_t col = 0; col < g.colTiles; ++col) {
          Value x = vload(inBuf, add(base, col * g.tileBytes()));
          if (ragged && col == g.colTiles - 1)
            x = maskBelow(x, tpu::VLaneIdOp::create(b, loc, i32Reg()),
                          c(ragged), identity);
          acc = acc ? combine(acc, x) : x;
        }
        Value red = tpu::VReduceLanesOp::create(b, loc, kind, acc);
        red = combine(red, splatF32(*init));
        vstore(red, staging, mul(r, outTile));
      });
      dma(staging.arena, c(staging.offset), out,
          mul(blk, blockRows * kSublanes * ob), blockRows * kSublanes, ob,
          kLanes * ob, ob, 1);
      wait(1, 1);
    });
    (void)lanes;
    return success();
  }

  // Over the leading dim: per tile column an accumulator tile in VMEM,
  // combined with every tile row (rows past the end masked), then the
  // sublanes reduced; one DMA gathers sublane 0 of every column tile.
  VBuf acc = vmem(b.getF32Type(), g.colTiles * g.tileBytes() * 4 / g.elemBytes);
  int64_t accTile = kSublanes * kLanes * 4;
  for (int64_t col = 0; col < g.colTiles; ++col)
    vstore(splatF32(identity), acc, c(col * accTile));
  bool ragged = g.rows % kSublanes != 0;
  loop(g.rowTiles / blockRows, [&](Value blk) {
    dma(*in, mul(blk, inBuf.bytes), inBuf.arena, c(inBuf.offset), 1,
        inBuf.bytes, 0, 0, 0);
    wait(0, 1);
    loop(blockRows, [&](Value r) {
      Value rowLimit;
      if (ragged) // rows left from this tile row on: sublanes below it count
        rowLimit = sub(c(g.rows), mul(add(mul(blk, blockRows), r), kSublanes));
      Value sublanes =
          ragged ? tpu::VSublaneIdOp::create(b, loc, i32Reg()).getResult()
                 : Value();
      for (int64_t col = 0; col < g.colTiles; ++col) {
        Value x = vload(inBuf, add(mul(r, rowBytes), col * g.tileBytes()));
        if (ragged)
          x = maskBelow(x, sublanes, rowLimit, identity);
        Value a = vload(acc, c(col * accTile));
        vstore(combine(a, x), acc, c(col * accTile));
      }
    });
  });
  VBuf staging = vmem(outElem, g.colTiles * outTile);
  for (int64_t col = 0; col < g.colTiles; ++col) {
    Value red = tpu::VReduceSublanesOp::create(b, loc, kind,
                                                 vload(acc, c(col * accTile)));
    vstore(combine(red, splatF32(*init)), staging, c(col * outTile));
  }
  dma(staging.arena, c(staging.offset), out, c(0), g.colTiles, kLanes * ob,
      outTile, kLanes * ob, 1);
  wait(1, 1);
  return success();
}

//===----------------------------------------------------------------------===//
// dot_general on the MXU
//===----------------------------------------------------------------------===//

LogicalResult Lowering::lowerDot(hlo::DotGeneralOp op) {
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
  auto type = cast<RankedTensorType>(op.getType());
  auto dn = op.getDotDimensionNumbers();
  if (lhsType.getRank() != 2 || rhsType.getRank() != 2 ||
      !dn.getLhsBatch().empty() || dn.getLhsContracting().size() != 1 ||
      dn.getLhsContracting()[0] != 1 || dn.getRhsContracting().size() != 1 ||
      dn.getRhsContracting()[0] != 0)
    return unsupported(op, "other than a 2-D [M,K] x [K,N] product");
  if (!type.getElementType().isF32())
    return unsupported(op, "with a non-f32 result");
  if (auto precision = op.getPrecisionConfig())
    for (Attribute p : *precision)
      if (cast<hlo::PrecisionAttr>(p).getValue() != hlo::Precision::DEFAULT)
        return unsupported(op, "with precision " +
                                   hlo::stringifyPrecision(
                                       cast<hlo::PrecisionAttr>(p).getValue()));

  Geometry ga = geometryOf(lhsType), gb = geometryOf(rhsType),
           gc = geometryOf(type);
  int64_t K = lhsType.getDimSize(1);
  int64_t mt = ga.rowTiles, kt = ga.colTiles, nt = gb.colTiles;
  bool raggedK = K % kLanes != 0;
  // Operands the MXU cannot read as they are go through the VPU: f32 ones
  // are rounded to bf16 (XLA's DEFAULT precision: one bf16 pass), and a
  // ragged K is zeroed past its end on both sides.
  bool prepA = !lhsType.getElementType().isBF16() || raggedK;
  bool prepB = !rhsType.getElementType().isBF16() || raggedK;
  int64_t groups = spec.machine.mxu_count() >= 2 ? 2 : 1;

  FailureOr<Value> a = memOf(op.getLhs()), bm = memOf(op.getRhs());
  if (failed(a) || failed(bm))
    return failure();
  Value out = allocHbm(type, op.getLoc());
  hbm[op.getResult()] = out;
  Type bf16 = b.getBF16Type(), f32 = b.getF32Type();

  // M panels: as many rows as fit (longer LHS streams amortise the MXU's
  // fill and drain), a divisor of the row tiles.
  int64_t vmemBytes = spec.machine.vmem_bytes();
  auto need = [&](int64_t rows) {
    int64_t lhs = 2 * rows * kLanes * 2 + (prepA ? 2 * rows * kLanes * ga.elemBytes : 0);
    int64_t w = groups * 2 * (kLanes * kLanes * 2 +
                              (prepB ? kLanes * kLanes * gb.elemBytes : 0));
    int64_t cp = groups * rows * kLanes * 4;
    return lhs + w + cp;
  };
  int64_t panelTiles = 1;
  for (int64_t d = std::min<int64_t>(mt, 1024); d >= 1; --d)
    if (mt % d == 0 && need(d * kSublanes) <= vmemBytes * 3 / 4) {
      panelTiles = d;
      break;
    }
  int64_t mb = panelTiles * kSublanes;
  if (need(mb) > vmemBytes)
    return op.emitError() << "the kernel for 'hlo.dot_general' needs "
                          << need(mb) << " bytes of VMEM but "
                          << spec.machine.name() << " has " << vmemBytes;

  // With a ragged K, B's last weight tile would read past its buffer: copy
  // B into one padded to whole 128-row tiles (the rows past K are masked).
  Value bsrc = *bm;
  if (raggedK) {
    auto padded = RankedTensorType::get({kt * kLanes, rhsType.getDimSize(1)},
                                        rhsType.getElementType());
    bsrc = allocHbm(padded, op.getLoc());
    dma(*bm, c(0), bsrc, c(0), 1, gb.bytes(), 0, 0, 3);
    wait(3, 1);
  }

  int64_t lhsSlot = mb * kLanes * 2, wSlot = kLanes * kLanes * 2,
          cSlot = mb * kLanes * 4;
  int64_t aTile = ga.tileBytes(), bTile = gb.tileBytes();
  VBuf lhs = vmem(bf16, 2 * lhsSlot);
  VBuf lhsStage = prepA ? vmem(lhsType.getElementType(), 2 * mb * kLanes * ga.elemBytes) : VBuf();
  SmallVector<VBuf> w, wStage;
  for (int64_t g = 0; g < groups; ++g) {
    w.push_back(vmem(bf16, 2 * wSlot));
    wStage.push_back(prepB ? vmem(rhsType.getElementType(),
                                  2 * kLanes * kLanes * gb.elemBytes)
                           : VBuf());
  }
  SmallVector<VBuf> cp;
  for (int64_t g = 0; g < groups; ++g)
    cp.push_back(vmem(f32, cSlot));
  int64_t lhsStageSlot = mb * kLanes * ga.elemBytes,
          wStageSlot = kLanes * kLanes * gb.elemBytes;

  constexpr int kSemLhs = 0, kSemW = 1, kSemOut = 2;
  // Issue the DMAs of step k (LHS panel k of M panel `mp`; weight tile
  // (k, n_g) per group) into slot k % 2.
  auto fetch = [&](Value mp, Value k, ArrayRef<Value> ns) {
    Value slot = rem(k, 2);
    Value aOff = add(mul(mp, panelTiles * kt * aTile),
                                   mul(k, aTile));
    const VBuf &ad = prepA ? lhsStage : lhs;
    int64_t adSlot = prepA ? lhsStageSlot : lhsSlot;
    dma(*a, aOff, ad.arena, add(mul(slot, adSlot), ad.offset), panelTiles,
        aTile, kt * aTile, aTile, kSemLhs);
    for (size_t g = 0; g < ns.size(); ++g) {
      const VBuf &wd = prepB ? wStage[g] : w[g];
      int64_t wdSlot = prepB ? wStageSlot : wSlot;
      Value bOff = add(mul(k, 16 * nt * bTile),
                                           mul(ns[g], bTile));
      dma(bsrc, bOff, wd.arena, add(mul(slot, wdSlot), wd.offset),
          kLanes / kSublanes, bTile, nt * bTile, bTile, kSemW);
    }
  };
  // Step k: wait for its tiles, prefetch step k+1's, prepare, multiply.
  auto step = [&](Value mp, Value k, ArrayRef<Value> ns, bool first,
                  bool hasNext) {
    wait(kSemLhs, 1);
    wait(kSemW, ns.size());
    if (hasNext)
      fetch(mp, add(k, 1), ns);
    Value slot = rem(k, 2);
    Value kLeft = raggedK ? sub(c(K), mul(k, kLanes)) : Value();
    if (prepA) {
      Value src = mul(slot, lhsStageSlot), dst = mul(slot, lhsSlot);
      loop(panelTiles, [&](Value t) {
        Value x = vload(lhsStage, add(src, mul(t, aTile)));
        if (raggedK)
          x = maskBelow(x, tpu::VLaneIdOp::create(b, loc, i32Reg()), kLeft, 0.0);
        vstore(x, lhs, add(dst, mul(t, kSublanes * kLanes * 2)));
      });
    }
    for (size_t g = 0; g < ns.size(); ++g) {
      Value wOff = mul(slot, wSlot);
      if (prepB) {
        Value src = mul(slot, wStageSlot);
        loop(kLanes / kSublanes, [&](Value t) {
          Value x = vload(wStage[g], add(src, mul(t, bTile)));
          if (raggedK)
            x = maskBelow(x, tpu::VSublaneIdOp::create(b, loc, i32Reg()),
                          sub(kLeft, mul(t, kSublanes)), 0.0);
          vstore(x, w[g], add(wOff, mul(t, kSublanes * kLanes * 2)));
        });
      }
      tpu::MxuLoadWeightsOp::create(b, loc, w[g].arena, add(wOff, w[g].offset),
                                      static_cast<uint32_t>(g));
      tpu::MxuMatmulOp::create(b, loc, lhs.arena,
                                 add(mul(slot, lhsSlot), lhs.offset),
                                 cp[g].arena, c(cp[g].offset),
                                 static_cast<uint32_t>(g), mb, !first);
    }
  };
  // One group of output columns: the K loop (first and last steps peeled,
  // as they differ in accumulate and prefetch), then the C panels out.
  auto columnGroup = [&](Value mp, ArrayRef<Value> ns) {
    fetch(mp, c(0), ns);
    step(mp, c(0), ns, /*first=*/true, /*hasNext=*/kt > 1);
    if (kt > 2)
      loop(kt - 2, [&](Value i) { step(mp, add(i, 1), ns, false, true); });
    if (kt > 1)
      step(mp, c(kt - 1), ns, false, false);
    for (size_t g = 0; g < ns.size(); ++g) {
      Value cOff = add(mul(mp, panelTiles * nt * gc.tileBytes()),
                       mul(ns[g], gc.tileBytes()));
      dma(cp[g].arena, c(cp[g].offset), out, cOff, panelTiles, gc.tileBytes(),
          gc.tileBytes(), nt * gc.tileBytes(), kSemOut);
    }
    wait(kSemOut, ns.size());
  };
  loop(mt / panelTiles, [&](Value mp) {
    loop(nt / groups, [&](Value np) {
      SmallVector<Value> ns;
      for (int64_t g = 0; g < groups; ++g)
        ns.push_back(add(mul(np, groups), g));
      columnGroup(mp, ns);
    });
    if (nt % groups)
      columnGroup(mp, {c(nt - 1)});
  });
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

class ConvertHloToTpuPass
    : public impl::ConvertHloToTpuBase<ConvertHloToTpuPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    absl::StatusOr<target::TargetSpec> spec = target::lookupTarget(targetName);
    if (!spec.ok()) {
      module.emitError() << std::string(spec.status().message());
      return signalPassFailure();
    }
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
    if (failed(lowering.run()))
      return signalPassFailure();
    // The tpu module holds just the lowered entry (callees were inlined).
    for (auto f : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (f != lowering.lowered())
        f.erase();
    const exe::Target &m = spec->machine;
    module->setAttr(
        tpu::TpuDialect::kTargetAttrName,
        tpu::TargetAttr::get(&getContext(),
                             StringAttr::get(&getContext(), m.name()),
                             m.clock_hz(), m.mxu_count(), m.vmem_bytes(),
                             m.smem_bytes(), m.hbm_bytes(),
                             m.hbm_reserved_bytes(), m.hbm_bytes_per_second(),
                             m.dma_latency_cycles(), m.num_semaphores()));
  }
};

} // namespace
} // namespace tpuc
