//===- Constant.cpp - constants and iota --------------------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
//
// A constant becomes an HBM `tpu.alloc init <value>`: the serializer puts
// it in the executable's constant table and the loader writes it into HBM
// (in the tiled layout) before the program runs, so it costs no
// instruction. Large integer splats are filled on the VPU instead, which
// keeps the executable small; f32/bf16 splats are the driver's (registers
// or lowerFill).
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Lowering.h"

using namespace mlir;

namespace tpuc::hlotpu {

namespace {

/// Ops whose kernels read splat operands as `vsplat`s (Elementwise.cpp),
/// so a splat used only by them needs no buffer.
bool readsSplatsInRegisters(Operation *user) {
  return isa<hlo::AddOp, hlo::SubtractOp, hlo::MultiplyOp, hlo::DivideOp,
             hlo::RemainderOp, hlo::MaximumOp, hlo::MinimumOp, hlo::NegOp,
             hlo::AbsOp, hlo::SignOp, hlo::ExpOp, hlo::LogOp, hlo::TanhOp,
             hlo::RsqrtOp, hlo::SqrtOp, hlo::LogisticOp, hlo::SelectOp,
             hlo::ConvertOp, hlo::CopyOp, hlo::CompareOp, hlo::AndOp,
             hlo::OrOp, hlo::XorOp, hlo::NotOp, hlo::ClampOp>(user);
}

/// Splats with more elements than this are filled by a kernel rather than
/// stored in the executable.
constexpr int64_t kLargestStoredSplat = kSublanes * kLanes;

} // namespace

LogicalResult Lowering::lowerConstant(hlo::ConstantOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  Type elem = type.getElementType();
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!isLowerableElementType(elem) || !dense) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << type;
    return unsupported(op, "of type " + s);
  }
  bool returned = false, registersOnly = true;
  for (Operation *user : op->getUsers()) {
    returned |= isa<func::ReturnOp>(user);
    registersOnly &= readsSplatsInRegisters(user);
  }
  if (dense.isSplat() && registersOnly)
    return success(); // each user splats it into a register

  beginKernel(op);
  Value mem;
  Geometry g = geometryOf(type);
  if (dense.isSplat() && type.getNumElements() > kLargestStoredSplat) {
    // One tile of the value, copied to every tile by one DMA with a zero
    // source stride (as lowerFill does for floats).
    Type storage = storageType(elem);
    APInt bits = dense.getSplatValue<APInt>();
    int64_t value = elem.isInteger(1) ? static_cast<int64_t>(bits.getZExtValue())
                                      : bits.getSExtValue();
    mem = allocHbm(type, op.getLoc());
    VBuf tile = vmem(storage, g.tileBytes());
    Value cst = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
    tpu::VStoreOp::create(b, loc, tpu::VSplatOp::create(b, loc, i32Reg(), cst),
                          tile.arena, c(tile.offset), 0);
    dma(tile.arena, c(tile.offset), mem, c(0), g.tiles(), g.tileBytes(), 0,
        g.tileBytes(), 0);
    wait(0, 1);
  } else {
    // pred is stored as s32 0/1, u32 as the same 32 bits.
    if (elem.isInteger(1))
      dense = dense.mapValues(b.getI32Type(), [](const APInt &v) {
        return v.zext(32);
      });
    else if (elem.isUnsignedInteger(32))
      dense = dense.bitcast(b.getI32Type());
    MemRefType memType = hbmType(type);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(allocPoint);
    mem = tpu::AllocOp::create(b, op.getLoc(), memType, dense);
  }
  if (returned && mem.getDefiningOp<tpu::AllocOp>().getInit()) {
    // Constants are read-only and never results: return a copy.
    Value copy = allocHbm(type, op.getLoc());
    dma(mem, c(0), copy, c(0), 1, g.bytes(), 0, 0, 0);
    wait(0, 1);
    mem = copy;
  }
  hbm[op.getResult()] = mem;
  return endKernel();
}

Value Lowering::iotaTile(hlo::IotaOp op, Value tileRow, Value colTile) {
  auto type = cast<RankedTensorType>(op.getType());
  Geometry g = geometryOf(type);
  int64_t rank = type.getRank();
  int64_t dim = op.getIotaDimension();
  ArrayRef<int64_t> shape = type.getShape();
  // The index along `dim` of the tile's first element, and how it grows
  // through the tile: rank 1 counts 0..1023 through the tile, rank >= 2
  // along lanes (minor dim) or sublanes; a dim above the two minor ones is
  // one value per tile.
  Value base, pattern;
  if (rank == 1) {
    base = mul(colTile, kSublanes * kLanes);
    Value rows = tpu::VMulOp::create(
        b, loc, tpu::VSublaneIdOp::create(b, loc, i32Reg()),
        splatIndex(c(kLanes)));
    pattern = tpu::VAddOp::create(b, loc, rows,
                                  tpu::VLaneIdOp::create(b, loc, i32Reg()));
  } else if (dim == rank - 1) {
    base = mul(colTile, kLanes);
    pattern = tpu::VLaneIdOp::create(b, loc, i32Reg());
  } else if (dim == rank - 2) {
    base = mul(rem(tileRow, g.rowTiles), kSublanes);
    pattern = tpu::VSublaneIdOp::create(b, loc, i32Reg());
  } else {
    int64_t inner = 1; // the outer dims after `dim`
    for (int64_t d = dim + 1; d < rank - 2; ++d)
      inner *= shape[d];
    Value outer = tileRow;
    for (int64_t divisor : {g.rowTiles, inner})
      outer = div(outer, divisor);
    base = rem(outer, shape[dim]);
  }
  Value r = splatIndex(base);
  if (pattern)
    r = tpu::VAddOp::create(b, loc, pattern, r);
  if (!storageType(type.getElementType()).isInteger(32))
    r = tpu::VConvertOp::create(b, loc, f32Reg(), r);
  return r;
}

LogicalResult Lowering::lowerIota(hlo::IotaOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  Type elem = type.getElementType();
  if (elem.isInteger(1))
    return unsupported(op, "of pred");
  Geometry g = geometryOf(type);
  // Tile rows (rank 1: one row of 1024-element tiles), each built in VMEM
  // and written by one DMA (tile rows are contiguous in the layout), in
  // blocks of at most kBlockTiles column tiles when it is longer.
  constexpr int64_t kBlockTiles = 256;
  int64_t blockTiles = std::min(g.colTiles, kBlockTiles);
  VBuf rowBuf = vmem(storageType(elem), blockTiles * g.tileBytes());
  Value out = allocHbm(type, op.getLoc());
  hbm[op.getResult()] = out;
  int64_t rowBytes = g.colTiles * g.tileBytes();
  // Writes column tiles firstCol .. firstCol + tiles - 1 of tile row t.
  auto columns = [&](Value t, Value firstCol, int64_t tiles) {
    loop(tiles, [&](Value i) {
      vstore(iotaTile(op, t, add(firstCol, i)), rowBuf,
             mul(i, g.tileBytes()));
    });
    dma(rowBuf.arena, c(rowBuf.offset), out,
        add(mul(t, rowBytes), mul(firstCol, g.tileBytes())), 1,
        tiles * g.tileBytes(), 0, 0, 1);
    wait(1, 1);
  };
  loop(g.outer * g.rowTiles, [&](Value t) {
    int64_t full = g.colTiles / blockTiles, rest = g.colTiles % blockTiles;
    loop(full, [&](Value cb) { columns(t, mul(cb, blockTiles), blockTiles); });
    if (rest)
      columns(t, c(full * blockTiles), rest);
  });
  return success();
}

void populateConstantPatterns(RewritePatternSet &patterns, Lowering &l) {
  // Splat constants become no kernel (Lowering::isMaterializedAtUse).
  l.addKernel(patterns, &Lowering::lowerConstant, KernelKind::Direct);
  l.addKernel(patterns, &Lowering::lowerIota);
}

} // namespace tpuc::hlotpu
