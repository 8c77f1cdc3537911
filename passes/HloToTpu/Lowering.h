//===- Lowering.h - the hlo -> tpu lowering's shared state and emitter ---===//
//
// tpuc-convert-hlo-to-tpu converts the entry function's ops in program
// order (applyFullConversion, HloToTpu.cpp) into one kernel each, through
// the kernel table the families fill. `Lowering` holds what every kernel needs:
// the tensor -> HBM memref map, the VMEM arenas, and small builders for the
// tpu ops (scalar arithmetic folded to constants, loops, DMA, vregs). Each
// kernel family lives in its own file of this folder and is declared here.
// docs/codegen.md describes the buffers, the kernels and their DMA schemes.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_PASSES_HLOTOTPU_LOWERING_H
#define TPUC_PASSES_HLOTOTPU_LOWERING_H

#include "compiler/analysis/Immediates.h"
#include "compiler/layout/TiledLayout.h"
#include "compiler/interpreter/Interpreter.h"
#include "dialects/hlo/HloOps.h"
#include "dialects/tpu/TpuDialect.h"
#include "dialects/tpu/TpuOps.h"
#include "passes/NarrowFloat.h"
#include "passes/Passes.h"
#include "runtime/target/Targets.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <functional>
#include <optional>

namespace tpuc::hlotpu {

// The MLIR names this folder uses, declared here (as mlir/Support/LLVM.h
// does for LLVM's) instead of a using-directive in a header.
using mlir::APFloat;
using mlir::ArrayRef;
using mlir::Attribute;
using mlir::BlockArgument;
using mlir::cast;
using mlir::DenseFPElementsAttr;
using mlir::dyn_cast;
using mlir::dyn_cast_or_null;
using mlir::failed;
using mlir::failure;
using mlir::FailureOr;
using mlir::function_ref;
using mlir::InFlightDiagnostic;
using mlir::IntegerType;
using mlir::isa;
using mlir::Location;
using mlir::LogicalResult;
using mlir::MemRefType;
using mlir::MLIRContext;
using mlir::ModuleOp;
using mlir::OpBuilder;
using mlir::Operation;
using mlir::OperationName;
using mlir::RankedTensorType;
using mlir::Region;
using mlir::SmallVector;
using mlir::SmallVectorImpl;
using mlir::succeeded;
using mlir::success;
using mlir::Twine;
using mlir::Type;
using mlir::UnknownLoc;
using mlir::Value;
using mlir::ValueRange;
using mlir::VectorType;
namespace arith = mlir::arith;
namespace func = mlir::func;

inline constexpr int64_t kSublanes = 8, kLanes = 128;

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The largest divisor of `n` that is at most `limit` (at least 1).
inline int64_t largestDivisorAtMost(int64_t n, int64_t limit) {
  for (int64_t d = std::min(n, std::max<int64_t>(limit, 1)); d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

/// s4/u4/s8/u8/s16/u16: entry arrays held as s32 words (sign- or zero-extended;
/// inside a program tpuc-expand-narrow-ints computes them in s32).
inline bool isNarrowInt(Type elem) {
  return elem.isInteger(4) || elem.isInteger(8) || elem.isInteger(16);
}

/// The element type a tensor element type is stored as in HBM and VMEM:
/// pred (i1) is stored as s32 0/1 (VLD/VST move 32-bit or bf16 lanes), the
/// narrow integers as s32 holding the value, f16 and the f8 types (entry
/// arrays only: tpuc-expand-narrow-floats computes them in f32) as f32
/// holding the value.
inline Type storageType(Type elem) {
  if (elem.isInteger(1) || elem.isUnsignedInteger(32) || isNarrowInt(elem))
    return IntegerType::get(elem.getContext(), 32);
  if (isNarrowFloat(elem))
    return mlir::Float32Type::get(elem.getContext());
  return elem;
}

/// Element types the lowering handles: f32, bf16, s32, pred, the narrow
/// integers in s32 words and f16/f8 in f32 words.
inline bool isLowerableElementType(Type elem) {
  return elem.isF32() || elem.isBF16() || elem.isInteger(32) ||
         elem.isInteger(1) || isNarrowInt(elem) || isNarrowFloat(elem);
}

inline int64_t elementBytes(Type type) { return type.isBF16() ? 2 : 4; }

/// How a tensor is stored in HBM, as vreg-sized tiles. Rank >= 2 uses
/// {r-1,...,0:T(8,128)}: the two minor dims in 8x128 tiles, tile rows
/// contiguous. Rank 1 uses {0:T(1024)}: 1024 contiguous elements, one vreg
/// (sublane s holds elements 128s..128s+127). Rank 0 uses {:T(1024)}: the
/// scalar is element 0 of one padded vreg-sized tile.
inline layout::TiledLayout hbmLayout(int64_t rank) {
  layout::TiledLayout hbm;
  hbm.minorToMajor = layout::descendingOrder(rank);
  hbm.tiles.push_back(rank <= 1 ? layout::Tile{kSublanes * kLanes}
                                : layout::Tile{kSublanes, kLanes});
  return hbm;
}

/// A tensor's HBM array (hbmLayout) as the kernels address it: tiles of
/// the two minor dims (one tile row of a rank-1 array) over `outer`.
struct Geometry {
  int64_t rank = 0;
  int64_t outer = 1;   // product of the dims above the two minor ones
  int64_t rows = 1;    // second-minor dim (1 for rank 1)
  int64_t cols = 1;    // minor dim
  int64_t rowTiles = 1, colTiles = 1;
  int64_t elemBytes = 4;
  int64_t paddedBytes = 0; // the array's size: layout::byteSizes
  int64_t tileBytes() const { return kSublanes * kLanes * elemBytes; }
  int64_t tiles() const { return outer * rowTiles * colTiles; }
  int64_t bytes() const { return paddedBytes; }
};

inline Geometry geometryOf(RankedTensorType type) {
  Geometry g;
  g.rank = type.getRank();
  g.elemBytes = elementBytes(type.getElementType());
  ArrayRef<int64_t> shape = type.getShape();
  if (g.rank == 1) {
    g.cols = shape[0];
    g.colTiles = ceilDiv(shape[0], kSublanes * kLanes);
  } else if (g.rank >= 2) {
    for (int64_t i = 0; i + 2 < g.rank; ++i)
      g.outer *= shape[i];
    g.rows = shape[g.rank - 2];
    g.cols = shape[g.rank - 1];
    g.rowTiles = ceilDiv(g.rows, kSublanes);
    g.colTiles = ceilDiv(g.cols, kLanes);
  }
  // The size comes from the one size function (the runtime's
  // paddedByteSize) of the stored type; a shape it rejects keeps the tile
  // count's size, and the serializer reports it.
  std::string error;
  FailureOr<layout::ByteSizes> sizes = layout::byteSizes(
      RankedTensorType::get(shape, storageType(type.getElementType())),
      hbmLayout(g.rank), error);
  g.paddedBytes = succeeded(sizes) ? sizes->padded : g.tiles() * g.tileBytes();
  return g;
}

/// A splat f32/bf16 constant's value, if `v` is one.
using analysis::splatValue;

/// Whether the VPU loop kernel computes `op` in registers: an elementwise
/// op of a lowerable form whose operands have its shape or are rank 0
/// (Elementwise.cpp).
bool fitsLoopKernel(Operation *op);
/// Whether `op` is an elementwise op the loop kernel computes in some form
/// (Elementwise.cpp: one VPU instruction, or an expansion).
bool isLoopKernelOp(Operation *op);
/// A splat constant of a lowerable element type (a register immediate).
bool isSplatConstant(Value v);
/// The VCMP kind of an hlo comparison direction (Elementwise.cpp).
std::optional<tpu::CmpKind> cmpKind(hlo::ComparisonDirection d);
/// Why the VPU loop kernel cannot compute `op` (empty if it can).
std::string unsupportedForm(Operation *op);
/// Whether Lowering::emitRegion computes `region` (a sort comparator, a
/// scatter's update computation) on registers: each op a rank-0 op the
/// loop kernel computes, or a splat constant; else the diagnostic at `op`,
/// which names the region `what` ("a comparator") (Elementwise.cpp).
LogicalResult checkRegisterRegion(Operation *op, Region &region,
                                  llvm::StringRef what);
/// Whether a loop kernel of `op`'s result shape computes `op` from the
/// tile's position: an iota, or a broadcast_in_dim read from its source
/// (kept whole in VMEM, or streamed with the blocks) (FusedKernel.cpp).
bool fitsLoopBroadcast(Operation *op);

/// "tpuc cannot lower 'hlo.gather' yet": the one message for ops outside
/// what this pass handles; the location gives file:line:col.
inline LogicalResult unsupported(Operation *op, const Twine &why = "") {
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

/// How a kernel spreads `tiles` weight tiles times `rows` LHS rows over the
/// target's MXUs (Mxu.cpp): each tile's rows go in `parts` equal parts of
/// `partRows`, and task (tile t, part q) runs on MXU (t * parts + q) % mxus.
struct MxuSplit {
  int64_t tiles = 1, parts = 1, partRows = 0;
  int64_t mxus = 1;
  uint32_t mxuOf(int64_t tile, int64_t part) const {
    return static_cast<uint32_t>((tile * parts + part) % mxus);
  }
};

/// One LHS stream of an MXU task: the part's rows from `lhs + lhsAt(part)`
/// into `dst + dstAt(tile, part)` (arena offsets, buffer offsets included).
/// An LHS or result of D columns is D/128 lane blocks of the part's rows
/// (docs/isa.md, "MXU").
struct MxuStream {
  Value lhs;
  function_ref<Value(int64_t part)> lhsAt;
  Value dst;
  function_ref<Value(int64_t tile, int64_t part)> dstAt;
  bool accumulate;
};

class Lowering;

/// How `Lowering::lowerOp` runs a kernel entry point: a `Kernel` gets its
/// result types checked and is bracketed by beginKernel/endKernel; a
/// `Direct` one (constants, fusions, control flow) does its own.
enum class KernelKind { Kernel, Direct };

/// The kernel entry point of one hlo op (see Lowering::kernels).
struct KernelEntry {
  std::function<LogicalResult(Lowering &, Operation *)> lower;
  KernelKind kind = KernelKind::Kernel;
};

// Each kernel family adds one KernelPattern per op it lowers (one line per
// op, Lowering::addKernel); HloToTpu.cpp calls them all.
void populateConstantPatterns(mlir::RewritePatternSet &patterns, Lowering &l);
void populateDataMovementPatterns(mlir::RewritePatternSet &patterns,
                                  Lowering &l);
void populateGatherPatterns(mlir::RewritePatternSet &patterns, Lowering &l);
void populateReducePatterns(mlir::RewritePatternSet &patterns, Lowering &l);
void populateReduceWindowPatterns(mlir::RewritePatternSet &patterns,
                                  Lowering &l);
void populateDotPatterns(mlir::RewritePatternSet &patterns, Lowering &l);
void populateConvolutionPatterns(mlir::RewritePatternSet &patterns,
                                 Lowering &l);
void populateSortPatterns(mlir::RewritePatternSet &patterns, Lowering &l);
void populateCollectivePatterns(mlir::RewritePatternSet &patterns, Lowering &l);
void populateControlFlowPatterns(mlir::RewritePatternSet &patterns,
                                 Lowering &l);
void populateFusionPatterns(mlir::RewritePatternSet &patterns, Lowering &l);

/// Converts `op` (HloToTpu.cpp): binds its operands to their memrefs from
/// the adaptor (a tuple's leaves, 1:N), lowers it (Lowering::lowerOp) and
/// replaces its results by the memrefs its kernel wrote.
LogicalResult convertWithKernel(Lowering &l, Operation *op,
                                ArrayRef<ValueRange> operands,
                                mlir::ConversionPatternRewriter &rewriter);

/// The conversion pattern of one hlo op with a kernel of its own.
template <typename OpTy>
class KernelPattern : public mlir::OpConversionPattern<OpTy> {
public:
  KernelPattern(MLIRContext *ctx, Lowering &l)
      : mlir::OpConversionPattern<OpTy>(ctx), l(l) {}

  LogicalResult matchAndRewrite(
      OpTy op,
      typename mlir::OpConversionPattern<OpTy>::OneToNOpAdaptor adaptor,
      mlir::ConversionPatternRewriter &rewriter) const override {
    return convertWithKernel(l, op, adaptor.getOperands(), rewriter);
  }

private:
  Lowering &l;
};

/// The emitter every kernel builds with: the tpu ops' builders (scalar
/// arithmetic folded to constants, loops, DMA, vregs, the MXU issue loop),
/// the HBM buffer types and allocation, and the per-kernel state: the
/// kernel's op and location and its VMEM, bump-allocated in its step's
/// overlaid arenas between beginKernel and endKernel (which checks it against the
/// target). The driver's state (value -> memref maps, steps, the memory
/// plan) is `Lowering`'s.
class KernelBuilder {
public:
  KernelBuilder(ModuleOp module, const target::TargetSpec &spec)
      : module(module), spec(spec), b(module.getContext()),
        ctx(module.getContext()) {
    vmemSpace = tpu::MemorySpaceAttr::get(ctx, tpu::MemorySpace::vmem);
    hbmSpace = tpu::MemorySpaceAttr::get(ctx, tpu::MemorySpace::hbm);
  }

  // --- types and buffers ---------------------------------------------------
  MemRefType hbmType(RankedTensorType type) {
    layout::TiledLayout hbm = hbmLayout(type.getRank());
    SmallVector<int64_t> tileRanks, tileDims;
    for (const layout::Tile &tile : hbm.tiles) {
      tileRanks.push_back(tile.size());
      tileDims.append(tile.begin(), tile.end());
    }
    auto layout = tpu::TiledLayoutAttr::get(ctx, hbm.minorToMajor, tileRanks,
                                            tileDims);
    return MemRefType::get(type.getShape(),
                           storageType(type.getElementType()), layout,
                           hbmSpace);
  }
  /// A new HBM buffer for `type`: a tpu.alloc at the top of the function.
  /// Buffers share memory through their placement (annotateHbmBuffers, the
  /// serializer's heap), not by reuse here.
  Value allocHbm(RankedTensorType type, Location loc) {
    MemRefType memType = hbmType(type);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(allocPoint);
    return tpu::AllocOp::create(b, loc, memType);
  }
  /// The VMEM scoreboard's page (docs/isa.md, "Ordering"): the MXU and the
  /// VPU order their accesses by it, and a DMA waits for their accesses of
  /// its pages.
  static constexpr int64_t kVmemPageBytes = 4096;
  /// `bytes` in whole pages, as vmem() allocates them.
  static int64_t pages(int64_t bytes) {
    return ceilDiv(bytes, kVmemPageBytes) * kVmemPageBytes;
  }
  /// VMEM for the current kernel: bump allocation in the arena of the
  /// element type, 4 KiB aligned (the scoreboard's page). Each step (top-
  /// level hlo op) has its own arenas, marked `tpu.step`; the kernels of a
  /// step overlay them from offset 0, and tpuc-allocate-vmem places each
  /// step's region in VMEM (`tpu.overlay = offset`).
  VBuf vmem(Type elem, int64_t bytes) {
    Value &arena = arenas[{step, elem}];
    if (!arena) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(allocPoint);
      arena = tpu::AllocOp::create(b, 
          module.getLoc(), MemRefType::get({1}, elem, nullptr, vmemSpace));
      // The arenas of all element types overlay one VMEM region: a
      // kernel's regions are disjoint byte ranges of it, whatever type.
      arena.getDefiningOp()->setAttr(tpu::kOverlayAttrName, b.getUnitAttr());
      arena.getDefiningOp()->setAttr(tpu::kStepAttrName,
                                     b.getI64IntegerAttr(step));
    }
    VBuf buf{arena, kernelBytes, bytes};
    kernelBytes += pages(bytes);
    int64_t &peak = stepBytes[step];
    peak = std::max(peak, kernelBytes);
    return buf;
  }
  void beginKernel(Operation *op) {
    loc = op->getLoc();
    kernelOp = op;
    kernelBytes = 0;
  }
  /// Records the kernel's VMEM and fails when it exceeds the target's.
  LogicalResult endKernel() {
    int64_t total = kernelBytes;
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
  /// `x` as (a value) + (a constant) when it is an add of a constant.
  static std::pair<Value, int64_t> splitConstant(Value x) {
    if (auto sum = x.getDefiningOp<arith::AddIOp>()) {
      if (std::optional<int64_t> k = constant(sum.getRhs()))
        return {sum.getLhs(), *k};
      if (std::optional<int64_t> k = constant(sum.getLhs()))
        return {sum.getRhs(), *k};
    }
    return {x, 0};
  }
  /// Constants gather at the outermost add ((x + 1) + 2 is x + 3), so an
  /// address of a base and unrolled constant offsets is one add each and
  /// the base's arithmetic is shared (tpuc-cse-scalars).
  Value add(Value x, Value y) {
    std::optional<int64_t> cx = constant(x), cy = constant(y);
    if (cx && cy)
      return c(*cx + *cy);
    if (cx == 0)
      return y;
    if (cy == 0)
      return x;
    if (cy || cx) {
      auto [base, k] = splitConstant(cy ? x : y);
      if (k)
        return add(base, k + (cy ? *cy : *cx));
      return arith::AddIOp::create(b, loc, x, y);
    }
    auto [bx, kx] = splitConstant(x);
    auto [by, ky] = splitConstant(y);
    if (kx || ky)
      return add(add(bx, by), kx + ky);
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value add(Value x, int64_t y) { return y == 0 ? x : add(x, c(y)); }
  /// (x + k) * y is emitted as x * y + k * y (see add).
  Value mul(Value x, int64_t y) {
    if (std::optional<int64_t> cx = constant(x))
      return c(*cx * y);
    if (y == 0)
      return c(0);
    if (y == 1)
      return x;
    if (auto [base, k] = splitConstant(x); k)
      return add(mul(base, y), k * y);
    return arith::MulIOp::create(b, loc, x, c(y)).getResult();
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
  /// Scalar division (SDIV), folded for constants.
  Value div(Value x, int64_t y) {
    if (std::optional<int64_t> cx = constant(x))
      return c(*cx / y);
    return y == 1 ? x : arith::DivSIOp::create(b, loc, x, c(y)).getResult();
  }
  /// `count` items in groups of `unroll` (fewer when there are fewer):
  /// `group(first, n)` emits items first .. first+n-1, with `first` a
  /// loop value for the full groups (one loop) and a constant for the
  /// rest. A group's items are then one base and constant offsets.
  void unrolledLoop(int64_t count, int64_t unroll,
                    function_ref<void(Value first, int64_t n)> group) {
    if (count <= 0)
      return;
    int64_t u = std::min(count, unroll);
    loop(count / u, [&](Value g) { group(mul(g, u), u); });
    if (count % u)
      group(c(count - count % u), count % u);
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
  /// A software pipeline over `blocks` blocks in `depth` slots: block
  /// b+depth-1's `fetch` (its DMAs) is issued before block b's `run`, which
  /// waits for block b's (DMAs complete in issue order).
  void pipeline(int64_t blocks, function_ref<void(Value)> fetch,
                function_ref<void(Value)> run, int64_t depth = 2) {
    int64_t ahead = std::max<int64_t>(1, std::min(depth - 1, blocks - 1));
    for (int64_t blk = 0; blk < ahead; ++blk)
      fetch(c(blk));
    loop(blocks - ahead, [&](Value blk) {
      fetch(add(blk, ahead));
      run(blk);
    });
    for (int64_t blk = blocks - ahead; blk < blocks; ++blk)
      run(c(blk));
  }
  /// As pipeline, for a last block that differs from the others (a ragged
  /// one): `fetch` and `run` learn whether their block is the last, whose
  /// fetch is issued `depth - 1` blocks before it runs.
  void pipelineRagged(int64_t blocks, function_ref<void(Value, bool)> fetch,
                      function_ref<void(Value, bool)> run, int64_t depth = 2) {
    int64_t ahead = std::max<int64_t>(1, std::min(depth - 1, blocks - 1));
    for (int64_t blk = 0; blk < ahead; ++blk)
      fetch(c(blk), blk == blocks - 1);
    loop(blocks - 1 - ahead, [&](Value blk) {
      fetch(add(blk, ahead), false);
      run(blk, false);
    });
    for (int64_t blk = std::max<int64_t>(0, blocks - 1 - ahead);
         blk < blocks - 1; ++blk) {
      if (blk + ahead == blocks - 1)
        fetch(c(blocks - 1), true);
      run(c(blk), false);
    }
    run(c(blocks - 1), true);
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
  /// The register type of a buffer's loads: i32 buffers give i32
  /// registers, f32 and bf16 ones f32 (VLD widens bf16).
  VectorType regOf(Value arena) {
    Type elem = cast<MemRefType>(arena.getType()).getElementType();
    return elem.isInteger(32) ? i32Reg() : f32Reg();
  }
  Value vload(const VBuf &buf, Value off, int64_t stride = 0) {
    return tpu::VLoadOp::create(b, loc, regOf(buf.arena), buf.arena,
                                add(off, buf.offset), stride);
  }
  void vstore(Value v, const VBuf &buf, Value off, int64_t stride = 0) {
    tpu::VStoreOp::create(b, loc, v, buf.arena, add(off, buf.offset), stride);
  }
  Value vcmp(tpu::CmpKind kind, Value x, Value y) {
    return tpu::VCmpOp::create(b, loc, i32Reg(), kind, x, y);
  }
  Value vsel(Value mask, Value x, Value y) {
    return tpu::VSelectOp::create(b, loc, mask, x, y);
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
    Value mask = vcmp(tpu::CmpKind::lt, ids, splatIndex(limit));
    return vsel(mask, v, splatF32(fill));
  }

  // --- the MXUs (Mxu.cpp) -------------------------------------------------------
  /// D of the target's D x D MXUs (128 or 256).
  int64_t mxuDim() const { return spec.machine.mxu_rows(); }
  /// 128-column lane blocks of an MXU operand row.
  int64_t mxuBlocks() const { return mxuDim() / kLanes; }
  /// Spreads `tiles` weight tiles x `rows` rows over every MXU: row parts
  /// (a multiple of `rowAlign` rows each) when there are fewer tiles than
  /// MXUs, chosen for the shortest per-MXU work.
  MxuSplit splitForMxus(int64_t tiles, int64_t rows,
                        int64_t rowAlign = kSublanes) const;
  /// The one MXU issue loop: for every task (tile, part) of `split`, loads
  /// the weight tile at `weights + weightsAt(tile)` into the task's MXU and
  /// runs each stream's matmul on it.
  void issueMxu(const MxuSplit &split, Value weights,
                function_ref<Value(int64_t tile)> weightsAt,
                ArrayRef<MxuStream> streams);

  ModuleOp module;
  const target::TargetSpec &spec;
  OpBuilder b;
  MLIRContext *ctx;
  Attribute vmemSpace, hbmSpace;
  /// Allocs go before this marker, so they stay at the top of the function.
  Operation *allocPoint = nullptr;
  Location loc = UnknownLoc::get(ctx);
  Operation *kernelOp = nullptr;
  /// The VMEM arenas of each step and element type.
  llvm::MapVector<std::pair<int64_t, Type>, Value> arenas;
  /// The step (top-level hlo op, numbered from 1 as tpu.live numbers them)
  /// being lowered, and the most VMEM any kernel of each step took.
  int64_t step = 0;
  llvm::DenseMap<int64_t, int64_t> stepBytes;
  int64_t kernelBytes = 0;     // VMEM the current kernel has taken
};

class Lowering : public KernelBuilder {
public:
  Lowering(ModuleOp module, func::FuncOp func, const target::TargetSpec &spec)
      : KernelBuilder(module, spec), oldFunc(func) {}

  LogicalResult run();
  func::FuncOp lowered() { return newFunc; }

  // --- the driver (HloToTpu.cpp) ----------------------------------------------
  FailureOr<Value> memOf(Value v);
  /// Lowers `op` through its entry in `kernels` (elementwise ops: the loop
  /// kernel). The conversion pattern calls it for the entry's ops, the
  /// region kernels (ControlFlow.cpp, FusedKernel.cpp) for nested ones.
  LogicalResult lowerOp(Operation *op);
  /// Ops that become no kernel of their own: splat constants (filled or
  /// kept in registers where used) and compares that only feed selects.
  static bool isMaterializedAtUse(Operation *op);
  /// Registers `fn` as the kernel of `OpTy` and adds its pattern.
  template <typename OpTy>
  void addKernel(mlir::RewritePatternSet &patterns,
                 LogicalResult (Lowering::*fn)(OpTy),
                 KernelKind kind = KernelKind::Kernel) {
    kernels.insert_or_assign(
        OperationName(OpTy::getOperationName(), ctx),
        KernelEntry{
            [fn](Lowering &l, Operation *op) { return (l.*fn)(cast<OpTy>(op)); },
            kind});
    patterns.add<KernelPattern<OpTy>>(ctx, *this);
  }
  /// Registers `fn` as the kernel of each of `OpTys` and adds their
  /// patterns.
  template <typename... OpTys>
  void addKernels(mlir::RewritePatternSet &patterns,
                  LogicalResult (Lowering::*fn)(Operation *),
                  KernelKind kind = KernelKind::Kernel) {
    (kernels.insert_or_assign(
         OperationName(OpTys::getOperationName(), ctx),
         KernelEntry{[fn](Lowering &l, Operation *op) { return (l.*fn)(op); },
                     kind}),
     ...);
    patterns.add<KernelPattern<OpTys>...>(ctx, *this);
  }
  /// hlo op name -> its kernel entry point (the families' populate
  /// functions fill it): what lowerOp dispatches on, for the patterns and
  /// for ops nested in region bodies.
  llvm::DenseMap<OperationName, KernelEntry> kernels;
  /// The entry's results: copies where one buffer would be returned twice,
  /// the input_output_alias copies, and the new function's return.
  LogicalResult lowerReturn(Operation *terminator);
  /// Converts the entry's ops (then its return) into the new function by
  /// applyFullConversion over the kernel patterns (HloToTpu.cpp).
  LogicalResult convertEntry();
  LogicalResult applyInputOutputAliases(SmallVectorImpl<Value> &results,
                                        ValueRange returned);
  /// Whether output `returned`, aliased to entry parameter `param`, can be
  /// written into the parameter's buffer by its producer (HloToTpu.cpp).
  bool writesInPlace(Value buffer, Value returned, BlockArgument param);
  /// The step of each op of the new function (numbered as the memory plan
  /// numbers them: top-level hlo op k is step k + 1).
  llvm::DenseMap<Operation *, int64_t> entrySteps();
  // Arguments in permuted layouts read through views of their physical
  // order (tpuc-normalize-layouts): the memref an argument is stored as
  // (null: row-major, as hbmType), and whether `op` is such a view of a
  // buffer stored as `stored`.
  MemRefType storedArgumentType(BlockArgument arg);
  // The memref a row-major buffer is, read through `op` in the permuted
  // layout its result records (null if `op` moves bytes).
  MemRefType storedViewType(hlo::TransposeOp op);
  static bool isPhysicalView(hlo::TransposeOp op, MemRefType stored);
  // HBM placement: the steps each buffer is used in and the memory plan's
  // offset of the value it holds (the serializer places the buffers).
  void annotateHbmBuffers(int64_t numSteps);
  /// Marks the first top-level op of each step k that emitted any with
  /// `tpu.step = k` (tpuc-overlap-kernels finds the kernels by them).
  void markSteps();

  // --- the device grid and the ICI (Collective.cpp) -----------------------------
  interpreter::DeviceGrid deviceGrid();
  LogicalResult lowerCollective(Operation *op);
  LogicalResult lowerDeviceId(Operation *op);
  /// Checks the grid against the target slice (module attribute
  /// `tpu.slice`) and records it and the entry's shardings for the
  /// serializer.
  LogicalResult recordDeviceGrid();

  // --- kernels, one file per family ---------------------------------------------
  // Each returns failure after emitting a diagnostic at the op; an op or a
  // form a kernel does not handle is `unsupported(op, "why")`.

  // Elementwise.cpp: VPU loops over (8,128) tiles.
  LogicalResult lowerElementwise(Operation *op);
  LogicalResult lowerFill(Value v, Value out);
  /// One loop kernel computing `roots` (one shape) from the values that
  /// the ops `isMember` accepts read from outside (FusedKernel.cpp).
  LogicalResult emitLoopKernel(ValueRange roots,
                               function_ref<bool(Operation *)> isMember);
  /// `reg` (f32 lanes) rounded to bf16 and widened back, once per register.
  Value roundToBf16(Value reg);
  FailureOr<Value> emitTile(Value v, Value tileOff,
                            llvm::DenseMap<Value, std::pair<VBuf, int64_t>> &ins,
                            llvm::DenseMap<Value, Value> &memo);
  /// The registers of what the rank-0 `region` returns, computed from
  /// `args`, its arguments' registers (checkRegisterRegion accepted it).
  SmallVector<Value> emitRegion(Region &region, ValueRange args);
  // FusedKernel.cpp: an hlo.fusion as loop kernels around its other ops.
  LogicalResult lowerFusion(hlo::FusionOp fusion);
  /// An operand a kernel streams block by block through two VMEM slots of
  /// `slotBytes` each: its HBM buffer, or (input fusion: `fusedProducer`
  /// accepts its defining op) the inputs of the fused elementwise ops that
  /// compute it, each tile computed on vregs where it is loaded.
  /// A rank-1 array (f32, s32 or bf16) broadcast along the rows of a
  /// rank-2 operand or result, streamed with its blocks: 8 elements per
  /// tile row, read one per sublane by a strided load.
  struct RowStream {
    Value value; // the broadcast
    Value mem;   // the source's HBM buffer
    VBuf buf;
    int64_t slotBytes; // one slot of the buffer, padding included (pages)
    int64_t rowBytes;  // one tile row: 8 elements
    bool isInt;
  };
  /// DMAs `tileRows` tile rows of `r`'s source from tile row
  /// `firstTileRow` to `slotOffset` of its buffer (semaphore 0).
  void fetchRows(const RowStream &r, Value firstTileRow, Value slotOffset,
                 int64_t tileRows);
  /// The broadcast's tile for tile row `row` of slot `slot` of its buffer.
  Value loadRow(const RowStream &r, Value slot, Value row);
  struct OperandStream {
    Value operand;
    int64_t elemBytes = 4; // the operand's
    int64_t tileBytes = 0; // the operand's tile
    int64_t rowBytes = 0;  // a tile row in the slots (the columns streamed)
    int64_t slotRows = 0;  // tile rows per slot
    /// HBM source, its slots, its element bytes.
    SmallVector<std::tuple<Value, VBuf, int64_t>> sources;
    llvm::DenseMap<Value, std::pair<VBuf, int64_t>> ins;
    llvm::DenseMap<Value, Value> hoisted;
    SmallVector<RowStream> rows; // two slots of a block's tile rows each
    /// A broadcast of a rank-1 [C] array along the rows (a per-column
    /// statistic) too large to keep whole: its HBM buffer and a VMEM
    /// buffer for the current column block (beginColumns).
    SmallVector<std::pair<Value, VBuf>> columns;
    /// Values read by position (iotas, per-column broadcasts kept whole or
    /// streamed by column block): each tile's register from its global
    /// tile row, global column tile and column tile in the column block.
    SmallVector<std::pair<Value, std::function<Value(Value, Value, Value)>>>
        positional;
    /// Values read by tile row only (per-row broadcasts kept whole): each
    /// tile row's register from its global tile row.
    SmallVector<std::pair<Value, std::function<Value(Value)>>> rowwise;
    Value blockRow; // the global tile row of the current block's first row
    Value firstCol; // the first column tile of the current column block
    bool produced = false;
    /// Values of the fused producers the fusion also returns (a
    /// multi-output input fusion): each tile stored where it is computed,
    /// into two slots laid out as the stream's, written back by block
    /// (semaphore kSemExports) to their HBM buffers.
    struct Export {
      Value value, mem;
      VBuf buf;
      int64_t elemBytes;
    };
    SmallVector<Export> exports;
    /// loadStreamedAt's registers of the last tile row it read.
    Value cachedRow;
    mlir::Block *cachedBlock = nullptr;
    llvm::DenseMap<Value, Value> rowRegs;
  };
  /// `pitchTiles`: the tiles of a tile row in the slots, when the kernel
  /// streams column blocks (0: the operand's whole tile rows).
  FailureOr<OperandStream> streamOperand(Value operand, int64_t slotBytes,
                                         int64_t pitchTiles = 0);
  /// The VMEM `streamOperand(operand, slotBytes)` takes, in units of
  /// 2 * slotBytes: 1 for an HBM operand, the streamed inputs' element
  /// bytes over the operand's for an input fusion (at least 1).
  int64_t streamSlotFactor(Value operand);
  /// The operand's tile at byte offset `off` of its slots.
  Value loadStreamed(OperandStream &s, Value off);
  /// The operand's column tile `col` (of the slots' pitch) of the tile row
  /// at byte `rowOff` of its slots: each address one add to the row's
  /// base, and what depends on the row only (per-row broadcasts, streamed
  /// row statistics) read once per row.
  Value loadStreamedAt(OperandStream &s, Value rowOff, int64_t col);
  /// Starts the column block of `tiles` column tiles from `firstCol`:
  /// fetches its columns of the streamed per-column broadcasts (waited).
  void beginColumns(OperandStream &s, Value firstCol, int64_t tiles);
  std::function<bool(Operation *)> fusedProducer;
  /// Values computed by the fused producers that the kernel streaming them
  /// also writes to HBM (streamOperand takes them).
  SmallVector<Value> fusedExports;
  /// The semaphore of the exports' write-backs.
  static constexpr int kSemExports = 2;
  /// An output fusion's epilogue (FusedKernel.cpp finds it, Epilogue.cpp
  /// emits it): the elementwise ops the contraction `result`'s kernel
  /// applies to its result tiles in VMEM, and the values of the
  /// contraction and those ops read outside them (`roots`, written to HBM;
  /// the contraction's own result only when it is one of them).
  struct EpilogueOps {
    Value result;
    llvm::DenseSet<Operation *> ops;
    SmallVector<Value> roots;
    /// The roots the epilogue's ops compute (all but the contraction's).
    SmallVector<Value> computedRoots() const {
      SmallVector<Value> computed;
      for (Value root : roots)
        if (root != result)
          computed.push_back(root);
      return computed;
    }
  };
  /// Set by lowerFusion while it lowers the contraction of an output
  /// fusion; a kernel that applies it clears it (takeEpilogue).
  std::optional<EpilogueOps> epilogue;
  /// The same-shape arrays an epilogue reads per tile (`inputs`, the
  /// contraction's result among them) and the VMEM its broadcast sources
  /// take (`residentBytes`); fails, after a diagnostic, on a source it
  /// cannot read by column (FusedKernel.cpp).
  LogicalResult epilogueLeaves(const EpilogueOps &e,
                               SmallVectorImpl<Value> &inputs,
                               int64_t &residentBytes);
  /// Puts the per-column sources' tiles for column tile `col` in a memo.
  using EpilogueColumns =
      std::function<void(llvm::DenseMap<Value, Value> &, Value)>;
  /// Waits for the sources' DMAs, computes the ones computed from
  /// parameters (batch norm's scale and offset), and puts the one-element
  /// sources, spread to every lane, in `hoisted`.
  using FinishEpilogueSources =
      std::function<FailureOr<EpilogueColumns>(llvm::DenseMap<Value, Value> &)>;
  /// Issues the DMAs of the epilogue's broadcast sources into VMEM (one
  /// each, on semaphore `sem`) and puts the splats in `hoisted`; the kernel
  /// calls the returned function before the epilogue's first tile, after
  /// its own first DMAs if it likes (FusedKernel.cpp).
  FailureOr<FinishEpilogueSources>
  fetchEpilogueSources(const EpilogueOps &e,
                       llvm::DenseMap<Value, Value> &hoisted, int sem);
  // Constant.cpp: constants that are not splats (the executable's constant
  // table), iota.
  LogicalResult lowerConstant(hlo::ConstantOp op);
  LogicalResult lowerIota(hlo::IotaOp op);
  /// The tile of `op` at tile row `tileRow` (the dims above the minor one
  /// flattened, in tiles) and column tile `colTile` (rank 1: the tile).
  Value iotaTile(hlo::IotaOp op, Value tileRow, Value colTile);
  // DataMovement.cpp: DMA relayouts.
  LogicalResult lowerBroadcast(hlo::BroadcastInDimOp op);
  LogicalResult lowerReshape(hlo::ReshapeOp op);
  LogicalResult lowerTranspose(hlo::TransposeOp op);
  LogicalResult lowerSlice(hlo::SliceOp op);
  LogicalResult lowerPad(hlo::PadOp op);
  LogicalResult lowerConcatenate(hlo::ConcatenateOp op);
  LogicalResult lowerReverse(hlo::ReverseOp op);
  // Gather.cpp: data-dependent addressing with scalar arithmetic.
  LogicalResult lowerDynamicSlice(hlo::DynamicSliceOp op);
  LogicalResult lowerDynamicUpdateSlice(hlo::DynamicUpdateSliceOp op);
  LogicalResult lowerGather(hlo::GatherOp op);
  LogicalResult lowerScatter(hlo::ScatterOp op);
  // Reduce.cpp, ReduceWindow.cpp: reductions on the VPU.
  LogicalResult lowerReduce(hlo::ReduceOp op);
  LogicalResult lowerReduceWindow(hlo::ReduceWindowOp op);
  LogicalResult lowerSelectAndScatter(hlo::SelectAndScatterOp op);
  // Dot.cpp, Convolution.cpp: the MXU.
  LogicalResult lowerDot(hlo::DotGeneralOp op);
  LogicalResult lowerConvolution(hlo::ConvolutionOp op);
  // Sort.cpp: sorting networks on the VPU.
  LogicalResult lowerSort(hlo::SortOp op);
  LogicalResult lowerTopK(hlo::TopKOp op);
  // ControlFlow.cpp: tuples, calls, while and conditional (ops whose
  // results may be tuples; called before the per-kernel type checks).
  LogicalResult lowerControlFlow(Operation *op);

  func::FuncOp oldFunc, newFunc;
  llvm::DenseMap<Value, Value> hbm; // hlo tensor -> HBM memref
  /// Concatenate operands a fused loop kernel already wrote into their
  /// slice of the concatenation (FusedKernel.cpp, concatSlice): the
  /// concatenate copies only the others.
  llvm::DenseSet<Value> concatOperandsWritten;
  /// hlo tuple -> the HBM memrefs of its leaves, flattened in order
  /// (ControlFlow.cpp; tuples are never copied).
  llvm::DenseMap<Value, SmallVector<Value>> tuples;
  /// The last op of the new function before each top-level hlo op's kernel
  /// (step k's ops follow stepMarks[k]).
  SmallVector<Operation *> stepMarks;
  /// Starts the next step: its ops follow the new function's last op.
  void beginStep() {
    stepMarks.push_back(&newFunc.getBody().front().back());
    step = stepMarks.size();
  }
  /// A value's planned buffer (tpuc-assign-buffers' heap offset, -1 for
  /// none, and padded bytes) and the HBM memref holding it.
  struct HeldValue {
    int64_t offset, bytes;
    Value mem;
  };
  SmallVector<HeldValue> heldValues;
  /// --dot-precision.
  DotPrecision dotPrecision = DotPrecision::PerOp;
  /// Loop kernels: bf16 values computed in f32 registers, rounded where
  /// they are read (emitTile), and each register's rounded copy.
  llvm::DenseSet<Value> roundOnUse;
  llvm::DenseMap<Value, Value> roundedRegs;
};

} // namespace tpuc::hlotpu

#endif // TPUC_PASSES_HLOTOTPU_LOWERING_H
