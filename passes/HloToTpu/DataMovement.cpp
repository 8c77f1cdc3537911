//===- DataMovement.cpp - relayouts: transpose, reshape, slice, pad ... -===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h, Relayout.h and
// docs/codegen.md. Every kernel here is a copyBox (strided HBM -> HBM DMAs
// of contiguous runs, loops of them over the other axes), plus VMEM kernels
// where the VPU does better: a tile replicated by one DMA for fills, row
// and lane broadcasts, and 128x128 blocks through VTRANSPOSE.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Reduction.h"
#include "passes/HloToTpu/Relayout.h"

using namespace mlir;

namespace tpuc::hlotpu {

// Semaphore of the relayout copies (docs/codegen.md: 3 = copies).
static constexpr int kCopySem = 3;

//===----------------------------------------------------------------------===//
// Views and the box copy
//===----------------------------------------------------------------------===//

View tiledView(Value mem, RankedTensorType type) {
  Geometry g = geometryOf(type);
  View v;
  v.mem = mem;
  v.elemBytes = g.elemBytes;
  v.shape.assign(type.getShape().begin(), type.getShape().end());
  int64_t rank = type.getRank();
  v.dims.resize(rank);
  if (rank == 1)
    v.dims[0] = {0, 0, g.elemBytes};
  if (rank < 2)
    return v;
  int64_t stride = g.rowTiles * g.colTiles * g.tileBytes();
  for (int64_t d = rank - 3; d >= 0; --d) {
    v.dims[d] = {0, 0, stride};
    stride *= type.getDimSize(d);
  }
  // With one column of tiles, the tiles of the row dim follow each other
  // row for row: linear (a per-row vector [.., N, 1] is one run of N
  // elements 128 lanes apart, not runs of 8 split at every tile).
  v.dims[rank - 2] = g.colTiles == 1
                         ? DimAddress{0, 0, kLanes * g.elemBytes}
                         : DimAddress{kSublanes, g.colTiles * g.tileBytes(),
                                      kLanes * g.elemBytes};
  v.dims[rank - 1] = {kLanes, g.tileBytes(), g.elemBytes};
  return v;
}

View linearView(Value mem, ArrayRef<int64_t> shape, int64_t elemBytes,
                ArrayRef<int64_t> order) {
  View v;
  v.mem = mem;
  v.elemBytes = elemBytes;
  v.shape.assign(shape.begin(), shape.end());
  v.dims.resize(shape.size());
  SmallVector<int64_t> ord(order.begin(), order.end());
  if (ord.empty())
    for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
      ord.push_back(d);
  int64_t stride = elemBytes;
  for (int64_t i = static_cast<int64_t>(ord.size()) - 1; i >= 0; --i) {
    v.dims[ord[i]] = {0, 0, stride};
    stride *= shape[ord[i]];
  }
  return v;
}

static int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static int64_t staticOffset(const DimAddress &a, int64_t x) {
  if (!a.period)
    return x * a.lo;
  return floorDiv(x, a.period) * a.hi + (x - floorDiv(x, a.period) * a.period) * a.lo;
}

/// The offset of index `x` (non-negative) along a dimension.
static Value dimOffset(Lowering &l, const DimAddress &a, Value x) {
  if (std::optional<int64_t> cx = Lowering::constant(x))
    return l.c(staticOffset(a, *cx));
  if (!a.period)
    return l.mul(x, a.lo);
  Value q = arith::DivSIOp::create(l.b, l.loc, x, l.c(a.period));
  return l.add(l.mul(q, a.hi), l.mul(l.rem(x, a.period), a.lo));
}

Value addressOf(Lowering &l, const View &v, ArrayRef<Value> coords) {
  Value addr = l.c(v.base);
  for (auto [a, x] : llvm::zip(v.dims, coords))
    addr = l.add(addr, dimOffset(l, a, x));
  return addr;
}

namespace {
/// A stretch of one axis that is linear on both sides (no tile boundary
/// crossed): `len` indices from the offsets, `srcStride`/`dstStride` bytes
/// apart.
struct Run {
  int64_t srcOff, dstOff, len, srcStride, dstStride;
  bool sameShape(const Run &o) const {
    return len == o.len && srcStride == o.srcStride &&
           dstStride == o.dstStride;
  }
};

/// One side of an axis with a static start: the offsets of its indices.
struct Side {
  DimAddress addr;
  int dim;
  int64_t step, start = 0;
  int64_t offset(int64_t b) const {
    return dim < 0 ? 0 : staticOffset(addr, start + step * b);
  }
  int64_t tile(int64_t b) const {
    return dim < 0 || !addr.period ? 0
                                   : floorDiv(start + step * b, addr.period);
  }
  int64_t stride() const { return dim < 0 ? 0 : step * addr.lo; }
};

/// Splits an axis where either side crosses a tile boundary.
SmallVector<Run> splitAxis(int64_t extent, const Side &s, const Side &d) {
  SmallVector<Run> runs;
  int64_t b0 = 0;
  for (int64_t b = 1; b <= extent; ++b) {
    if (b < extent && s.tile(b) == s.tile(b0) && d.tile(b) == d.tile(b0))
      continue;
    runs.push_back({s.offset(b0), d.offset(b0), b - b0, s.stride(),
                    d.stride()});
    b0 = b;
  }
  return runs;
}

/// Calls `body(srcOff, dstOff, run)` for every run; blocks of up to four
/// runs that repeat at constant distances become one loop. Returns the sum
/// of what the (executed) bodies return.
int64_t emitRuns(Lowering &l, ArrayRef<Run> runs,
                 function_ref<int64_t(Value, Value, const Run &)> body) {
  int64_t count = 0;
  for (size_t i = 0; i < runs.size();) {
    size_t bestP = 1, bestR = 1;
    for (size_t p = 1; p <= 4 && i + 2 * p <= runs.size(); ++p) {
      int64_t ds = runs[i + p].srcOff - runs[i].srcOff;
      int64_t dd = runs[i + p].dstOff - runs[i].dstOff;
      size_t r = 1;
      for (bool ok = true; ok && i + (r + 1) * p <= runs.size();) {
        for (size_t q = 0; q < p && ok; ++q) {
          const Run &x = runs[i + (r - 1) * p + q], &y = runs[i + r * p + q];
          ok = x.sameShape(y) && y.srcOff - x.srcOff == ds &&
               y.dstOff - x.dstOff == dd;
        }
        if (ok)
          ++r;
      }
      if (r * p > bestR * bestP)
        bestP = p, bestR = r;
    }
    if (bestR >= 2 && bestR * bestP >= 3) {
      int64_t ds = runs[i + bestP].srcOff - runs[i].srcOff;
      int64_t dd = runs[i + bestP].dstOff - runs[i].dstOff;
      int64_t inner = 0;
      l.loop(bestR, [&](Value iv) {
        for (size_t q = 0; q < bestP; ++q) {
          const Run &run = runs[i + q];
          inner += body(l.add(l.mul(iv, ds), l.c(run.srcOff)),
                        l.add(l.mul(iv, dd), l.c(run.dstOff)), run);
        }
      });
      count += inner * bestR;
      i += bestR * bestP;
      continue;
    }
    count += body(l.c(runs[i].srcOff), l.c(runs[i].dstOff), runs[i]);
    ++i;
  }
  return count;
}

/// copyBox's recursion over the axes.
struct BoxCopy {
  Lowering &l;
  const View &src, &dst;
  ArrayRef<Axis> axes;
  int sem;

  Value step(Value start, Value iv, int64_t by) {
    return l.add(start, l.mul(iv, by));
  }
  void advance(const Axis &a, Value iv, SmallVector<Value> &sc,
               SmallVector<Value> &dc) {
    if (a.srcDim >= 0)
      sc[a.srcDim] = step(sc[a.srcDim], iv, a.srcStep);
    if (a.dstDim >= 0)
      dc[a.dstDim] = step(dc[a.dstDim], iv, a.dstStep);
  }
  void dma(Value srcAddr, Value dstAddr, int64_t chunks, int64_t chunkBytes,
           int64_t srcStride, int64_t dstStride) {
    if (chunks == 1)
      srcStride = dstStride = 0;
    l.dma(src.mem, srcAddr, dst.mem, dstAddr, chunks, chunkBytes, srcStride,
          dstStride, sem);
  }

  /// Whether the runs of `a` are known at compile time: no run-time start
  /// on a tiled dimension.
  bool staticRuns(const Axis &a, ArrayRef<Value> sc, ArrayRef<Value> dc) {
    auto dynamicTiled = [&](const View &v, int dim, ArrayRef<Value> coords) {
      return dim >= 0 && v.dims[dim].period &&
             !Lowering::constant(coords[dim]);
    };
    return !dynamicTiled(src, a.srcDim, sc) && !dynamicTiled(dst, a.dstDim, dc);
  }

  /// The sides of axis `a`; a static start moves from `coords` (set to 0)
  /// into the side, a dynamic one (on a linear dimension) stays in
  /// `coords`, so the base address holds it.
  std::pair<Side, Side> sides(const Axis &a, SmallVector<Value> &sc,
                              SmallVector<Value> &dc) {
    auto make = [&](const View &v, int dim, int64_t by,
                    SmallVector<Value> &coords) {
      Side s{dim >= 0 ? v.dims[dim] : DimAddress{}, dim, by};
      if (dim >= 0)
        if (std::optional<int64_t> c0 = Lowering::constant(coords[dim])) {
          s.start = *c0;
          coords[dim] = l.c(0);
        }
      return s;
    };
    return {make(src, a.srcDim, a.srcStep, sc),
            make(dst, a.dstDim, a.dstStep, dc)};
  }

  bool contiguous(const Run &r) const {
    int64_t eb = src.elemBytes;
    return r.len == 1 || (r.srcStride == eb && r.dstStride == eb);
  }

  int64_t level(size_t i, SmallVector<Value> sc, SmallVector<Value> dc) {
    if (axes.empty()) {
      dma(addressOf(l, src, sc), addressOf(l, dst, dc), 1, src.elemBytes, 0,
          0);
      return 1;
    }
    if (i + 1 == axes.size())
      return innermost(sc, dc);
    if (i + 2 == axes.size()) {
      std::optional<int64_t> folded = foldTwo(sc, dc);
      if (folded)
        return *folded;
    }
    const Axis &a = axes[i];
    int64_t inner = 0;
    l.loop(a.extent, [&](Value iv) {
      SmallVector<Value> sc2 = sc, dc2 = dc;
      advance(a, iv, sc2, dc2);
      inner = level(i + 1, sc2, dc2);
    });
    return a.extent * inner;
  }

  /// The last axis: one DMA per run, the run's elements as one chunk when
  /// contiguous on both sides, else element chunks with the strides.
  int64_t innermost(SmallVector<Value> sc, SmallVector<Value> dc) {
    int64_t eb = src.elemBytes;
    const Axis &a = axes.back();
    if (!staticRuns(a, sc, dc)) {
      // Where the runs break is known only at run time: element DMAs.
      l.loop(a.extent, [&](Value iv) {
        SmallVector<Value> sc2 = sc, dc2 = dc;
        advance(a, iv, sc2, dc2);
        dma(addressOf(l, src, sc2), addressOf(l, dst, dc2), 1, eb, 0, 0);
      });
      return a.extent;
    }
    auto [s, d] = sides(a, sc, dc);
    Value srcBase = addressOf(l, src, sc), dstBase = addressOf(l, dst, dc);
    return emitRuns(l, splitAxis(a.extent, s, d),
                    [&](Value so, Value dO, const Run &r) -> int64_t {
                      bool whole = contiguous(r);
                      dma(l.add(srcBase, so), l.add(dstBase, dO),
                          whole ? 1 : r.len, whole ? r.len * eb : eb,
                          r.srcStride, r.dstStride);
                      return 1;
                    });
  }

  /// The last two axes as one level when the last one's runs are
  /// contiguous: a DMA moves one such run per chunk, with the strides of
  /// the second-last axis (e.g. up to 8 rows of a tile per DMA).
  std::optional<int64_t> foldTwo(SmallVector<Value> sc,
                                 SmallVector<Value> dc) {
    const Axis &outer = axes[axes.size() - 2], &inner = axes.back();
    if (!staticRuns(outer, sc, dc) || !staticRuns(inner, sc, dc))
      return std::nullopt;
    auto [s2, d2] = sides(outer, sc, dc);
    auto [s1, d1] = sides(inner, sc, dc);
    SmallVector<Run> innerRuns = splitAxis(inner.extent, s1, d1);
    if (!llvm::all_of(innerRuns, [&](const Run &r) { return contiguous(r); }))
      return std::nullopt;
    int64_t eb = src.elemBytes;
    Value srcBase = addressOf(l, src, sc), dstBase = addressOf(l, dst, dc);
    return emitRuns(
        l, splitAxis(outer.extent, s2, d2),
        [&](Value so2, Value do2, const Run &r2) -> int64_t {
          return emitRuns(l, innerRuns,
                          [&](Value so1, Value do1, const Run &r1) -> int64_t {
                            dma(l.add(srcBase, l.add(so2, so1)),
                                l.add(dstBase, l.add(do2, do1)), r2.len,
                                r1.len * eb, r2.srcStride, r2.dstStride);
                            return 1;
                          });
        });
  }
};
} // namespace

int64_t copyBox(Lowering &l, const View &src, ArrayRef<Value> srcStart,
                const View &dst, ArrayRef<Value> dstStart,
                ArrayRef<Axis> axes, int sem) {
  for (const Axis &a : axes)
    if (a.extent <= 0)
      return 0;
  // A one-index axis moves nothing (its start stays in the coordinates),
  // and between two others it would keep them from folding into one DMA
  // (a [N,1,K] box is N chunks of K, not N DMAs).
  SmallVector<Axis> moving;
  llvm::copy_if(axes, std::back_inserter(moving),
                [](const Axis &a) { return a.extent != 1; });
  SmallVector<Value> s(srcStart), d(dstStart);
  if (s.empty())
    s.assign(src.shape.size(), l.c(0));
  if (d.empty())
    d.assign(dst.shape.size(), l.c(0));
  BoxCopy copy{l, src, dst, moving, sem};
  return copy.level(0, s, d);
}

/// Index Values of 0 for every dimension of `v`.
static SmallVector<Value> zeros(Lowering &l, const View &v) {
  return SmallVector<Value>(v.shape.size(), l.c(0));
}

SmallVector<Axis> identityAxes(ArrayRef<int64_t> shape) {
  SmallVector<Axis> axes;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d)
    axes.push_back({shape[d], d, 1, d, 1});
  return axes;
}

void copyBoxAndWait(Lowering &l, const View &src, ArrayRef<Value> srcStart,
                    const View &dst, ArrayRef<Value> dstStart,
                    ArrayRef<Axis> axes) {
  l.wait(kCopySem, copyBox(l, src, srcStart, dst, dstStart, axes, kCopySem));
}

FailureOr<std::pair<View, View>> resultViews(Lowering &l, Operation *op,
                                             Value operand) {
  FailureOr<Value> in = l.memOf(operand);
  if (failed(in))
    return failure();
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  Value out = l.allocHbm(type, op->getLoc());
  l.hbm[op->getResult(0)] = out;
  return std::make_pair(
      tiledView(*in, cast<RankedTensorType>(operand.getType())),
      tiledView(out, type));
}

void copyWhole(Lowering &l, Value in, Value out, RankedTensorType type) {
  l.dma(in, l.c(0), out, l.c(0), 1, geometryOf(type).bytes(), 0, 0, 0);
  l.wait(0, 1);
}

//===----------------------------------------------------------------------===//
// Fills and scalar broadcasts
//===----------------------------------------------------------------------===//

/// A register of zeros (f32 or s32).
static Value zeroRegister(Lowering &l, VectorType regType) {
  Attribute zero = regType.getElementType().isInteger(32)
                       ? Attribute(l.b.getI32IntegerAttr(0))
                       : Attribute(l.b.getF32FloatAttr(0));
  Value scalar =
      arith::ConstantOp::create(l.b, l.loc, cast<TypedAttr>(zero));
  return tpu::VSplatOp::create(l.b, l.loc, regType, scalar);
}

/// The splat of a constant as a register of `regType`, if `v` is one.
static Value splatRegister(Lowering &l, Value v, VectorType regType) {
  auto cst = v.getDefiningOp<hlo::ConstantOp>();
  if (!cst)
    return {};
  auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
  if (!dense || !dense.isSplat())
    return {};
  if (auto fp = dyn_cast<DenseFPElementsAttr>(dense))
    return l.splatF32(fp.getSplatValue<APFloat>().convertToDouble());
  APInt bits = dense.getSplatValue<APInt>();
  int64_t value = bits.getBitWidth() == 1 ? bits.getZExtValue()
                                          : bits.getSExtValue();
  Value scalar = arith::ConstantOp::create(
      l.b, l.loc, l.b.getI32IntegerAttr(static_cast<int32_t>(value)));
  return tpu::VSplatOp::create(l.b, l.loc, regType, scalar);
}

LogicalResult fillFromScalar(Lowering &l, Value scalar, Value out,
                             RankedTensorType outType) {
  Type elem = storageType(outType.getElementType());
  Geometry g = geometryOf(outType);
  VectorType regType = elem.isInteger(32) ? l.i32Reg() : l.f32Reg();
  VBuf tile = l.vmem(elem, g.tileBytes());
  Value reg = splatRegister(l, scalar, regType);
  if (!reg) {
    // Element 0 of the scalar's tile, broadcast to every lane and sublane.
    FailureOr<Value> in = l.memOf(scalar);
    if (failed(in))
      return failure();
    l.dma(*in, l.c(0), tile.arena, l.c(tile.offset), 1, g.tileBytes(), 0, 0,
          kCopySem);
    l.wait(kCopySem, 1);
    reg = tpu::VLoadOp::create(l.b, l.loc, regType, tile.arena,
                               l.c(tile.offset), 0);
    reg = tpu::VBroadcastLaneOp::create(l.b, l.loc, reg, l.c(0));
    reg = tpu::VBroadcastSublaneOp::create(l.b, l.loc, reg, l.c(0));
  }
  tpu::VStoreOp::create(l.b, l.loc, reg, tile.arena, l.c(tile.offset), 0);
  l.dma(tile.arena, l.c(tile.offset), out, l.c(0), g.tiles(), g.tileBytes(), 0,
        g.tileBytes(), kCopySem);
  l.wait(kCopySem, 1);
  return success();
}

//===----------------------------------------------------------------------===//
// broadcast_in_dim
//===----------------------------------------------------------------------===//

/// A row `[N] -> [M,N]` (dims = [1]): tile column c is sublane c%8 of vreg
/// c/8, broadcast to every sublane. One tile row is built in VMEM, then
/// copied to every tile row by one DMA with a zero source stride.
static void broadcastRow(Lowering &l, Value in, RankedTensorType inType,
                         Value out, RankedTensorType type) {
  Geometry g = geometryOf(type), gi = geometryOf(inType);
  Type elem = type.getElementType();
  VBuf src = l.vmem(elem, gi.bytes());
  l.dma(in, l.c(0), src.arena, l.c(src.offset), 1, gi.bytes(), 0, 0, 0);
  l.wait(0, 1);
  VBuf row = l.vmem(elem, g.colTiles * g.tileBytes());
  for (int64_t col = 0; col < g.colTiles; ++col) {
    Value v = l.vload(src, l.c((col / kSublanes) * gi.tileBytes()));
    Value r = tpu::VBroadcastSublaneOp::create(l.b, l.loc, v,
                                               l.c(col % kSublanes));
    l.vstore(r, row, l.c(col * g.tileBytes()));
  }
  l.dma(row.arena, l.c(row.offset), out, l.c(0), g.rowTiles, row.bytes, 0,
        row.bytes, 1);
  l.wait(1, 1);
}

/// A broadcast along the minor dim whose row dim comes from the operand
/// (`[M] -> [M,N]`, `[1,4096] -> [1,4096,768]`): the operand goes to VMEM
/// row-major in the result's order; per outer index and tile row r, a load
/// with a sublane stride of one element puts element 8r+s in lane 0 of
/// sublane s, `vbcast_lane 0` fills the tile, and one DMA repeats it across
/// the tile columns.
static void broadcastLanes(Lowering &l, Value in, RankedTensorType inType,
                           Value out, RankedTensorType type,
                           ArrayRef<int> srcOf) {
  Geometry g = geometryOf(type);
  int64_t rank = type.getRank(), eb = g.elemBytes;
  Type elem = storageType(type.getElementType());
  VectorType regType = elem.isInteger(32) ? l.i32Reg() : l.f32Reg();
  // The staged operand: result dims 0..rank-2, size 1 where not mapped.
  SmallVector<int64_t> stage;
  for (int64_t d = 0; d + 1 < rank; ++d)
    stage.push_back(srcOf[d] >= 0 ? type.getDimSize(d) : 1);
  int64_t stageBytes = eb;
  for (int64_t s : stage)
    stageBytes *= s;
  // Strided loads near the end read up to a tile past it: zero that tile.
  int64_t padded = ceilDiv(stageBytes, g.tileBytes()) * g.tileBytes();
  VBuf buf = l.vmem(elem, padded + g.tileBytes());
  for (int64_t off = padded - g.tileBytes(); off <= padded; off += g.tileBytes())
    if (off >= 0)
      tpu::VStoreOp::create(
          l.b, l.loc,
          zeroRegister(l, regType), buf.arena, l.c(buf.offset + off), 0);
  View src = tiledView(in, inType);
  View dst = linearView(buf.arena, stage, eb);
  SmallVector<Axis> axes;
  for (int64_t d = 0; d + 1 < rank; ++d)
    axes.push_back({stage[d], srcOf[d], 1, static_cast<int>(d), 1});
  dst.base = buf.offset;
  copyBoxAndWait(l, src, {}, dst, {}, axes);
  // Each tile row's tile goes out by its own DMA from a ring of slots, one
  // VMEM page each (a store into a page a DMA still reads would wait for
  // it): a slot is rewritten once the DMA issued from it `slots` tile rows
  // before has completed (semaphore 1 pre-signalled `slots` times; DMAs
  // complete in issue order), so the DMAs' latency overlaps the next rows.
  View vo = tiledView(out, type);
  int64_t units = g.outer * g.rowTiles;
  int64_t slotBytes = ceilDiv(g.tileBytes(), 4096) * 4096;
  int64_t slots = std::min<int64_t>(units, 64);
  VBuf ring = l.vmem(elem, slots * slotBytes);
  constexpr int kOutSem = 1;
  tpu::SemSignalOp::create(l.b, l.loc, kOutSem, slots);
  // `unit` numbers the tile rows of the whole result (outer index-major).
  std::function<void(int64_t, Value, Value, Value)> outer =
      [&](int64_t d, Value so, Value oo, Value unit) {
        if (d + 2 < rank) {
          l.loop(type.getDimSize(d), [&](Value iv) {
            Value s =
                srcOf[d] >= 0 ? l.add(so, l.mul(iv, dst.dims[d].lo)) : so;
            outer(d + 1, s, l.add(oo, l.mul(iv, vo.dims[d].lo)),
                  l.add(l.mul(unit, type.getDimSize(d)), iv));
          });
          return;
        }
        l.loop(g.rowTiles, [&](Value r) {
          Value v = tpu::VLoadOp::create(
              l.b, l.loc, regType, buf.arena,
              l.add(l.add(so, l.mul(r, kSublanes * eb)), buf.offset), eb);
          Value bc = tpu::VBroadcastLaneOp::create(l.b, l.loc, v, l.c(0));
          Value slot = l.add(
              l.mul(l.rem(l.add(l.mul(unit, g.rowTiles), r), slots),
                    slotBytes),
              ring.offset);
          l.wait(kOutSem, 1);
          tpu::VStoreOp::create(l.b, l.loc, bc, ring.arena, slot, 0);
          l.dma(ring.arena, slot, out,
                l.add(oo, l.mul(r, g.colTiles * g.tileBytes())), g.colTiles,
                g.tileBytes(), 0, g.tileBytes(), kOutSem);
        });
      };
  outer(0, l.c(0), l.c(0), l.c(0));
  l.wait(kOutSem, slots);
}

LogicalResult Lowering::lowerBroadcast(hlo::BroadcastInDimOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  auto inType = cast<RankedTensorType>(op.getOperand().getType());
  ArrayRef<int64_t> dims = op.getBroadcastDimensions();
  if (type.getElementType() != inType.getElementType())
    return unsupported(op, "that changes the element type");
  Value out = allocHbm(type, op.getLoc());
  hbm[op.getResult()] = out;
  // Operand dimensions that really move (size-1 ones stay at index 0).
  SmallVector<int> srcOf(type.getRank(), -1);
  for (auto [i, d] : llvm::enumerate(dims))
    if (inType.getDimSize(i) == type.getDimSize(d))
      srcOf[d] = static_cast<int>(i);
  if (llvm::all_of(srcOf, [](int s) { return s < 0; }))
    return fillFromScalar(*this, op.getOperand(), out, type);
  FailureOr<Value> in = memOf(op.getOperand());
  if (failed(in))
    return failure();
  int64_t rank = type.getRank();
  Type elem = type.getElementType();
  // VMEM kernels for rows and lane broadcasts whose operand fits.
  int64_t vmemLimit = 4 << 20;
  Geometry g = geometryOf(type);
  if (rank == 2 && inType.getRank() == 1 && srcOf[1] == 0 &&
      !storageType(elem).isInteger(32) && g.colTiles <= 256 &&
      geometryOf(inType).bytes() <= vmemLimit) {
    broadcastRow(*this, *in, inType, out, type);
    return success();
  }
  if (rank >= 2 && srcOf[rank - 1] < 0 && srcOf[rank - 2] >= 0 &&
      geometryOf(inType).bytes() <= vmemLimit) {
    broadcastLanes(*this, *in, inType, out, type, srcOf);
    return success();
  }
  SmallVector<Axis> axes;
  for (int d = 0; d < rank; ++d)
    axes.push_back({type.getDimSize(d), srcOf[d], 1, d, 1});
  copyBoxAndWait(*this, tiledView(*in, inType), {}, tiledView(out, type), {},
                 axes);
  return success();
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

/// The tiled arrangement of a shape: reshapes between shapes with the same
/// key move no bytes.
static std::tuple<int64_t, int64_t, int64_t, int64_t>
tiledKey(RankedTensorType t) {
  Geometry g = geometryOf(t);
  if (g.rank <= 1)
    return {1, 1, g.cols, 0};
  if (g.outer == 1 || g.rows % kSublanes == 0)
    return {2, g.outer * g.rows, g.cols, 0};
  return {3, g.outer, g.rows, g.cols};
}

/// When `op` only adds or removes unit dims: its non-unit dims as (operand
/// dim, result dim) pairs, in order.
static std::optional<SmallVector<std::pair<int, int>>>
unitDimReshape(hlo::ReshapeOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  auto inType = cast<RankedTensorType>(op.getOperand().getType());
  SmallVector<int> inDims, outDims;
  for (int d = 0; d < inType.getRank(); ++d)
    if (inType.getDimSize(d) != 1)
      inDims.push_back(d);
  for (int d = 0; d < type.getRank(); ++d)
    if (type.getDimSize(d) != 1)
      outDims.push_back(d);
  if (inDims.size() != outDims.size())
    return std::nullopt;
  SmallVector<std::pair<int, int>> pairs;
  for (auto [i, o] : llvm::zip(inDims, outDims)) {
    if (inType.getDimSize(i) != type.getDimSize(o))
      return std::nullopt;
    pairs.push_back({i, o});
  }
  return pairs;
}

/// A unit-dim reshape inside a fusion whose users are all concatenates of
/// that fusion: they read the operand through a view of the reshaped shape
/// (reshapeView), so the reshape moves no byte and has no buffer (DLRM's
/// [B,K] -> [B,1,K] pieces of its [B,N,K] concatenate, each a 4 KiB tile
/// per row of K elements).
static bool readThroughView(hlo::ReshapeOp op) {
  return isa<hlo::FusionOp>(op->getParentOp()) && unitDimReshape(op) &&
         !op->use_empty() && llvm::all_of(op->getUsers(), [&](Operation *u) {
           return isa<hlo::ConcatenateOp>(u) && u->getBlock() == op->getBlock();
         });
}

/// The operand of a readThroughView reshape, viewed with the result's shape.
static FailureOr<View> reshapeView(Lowering &l, hlo::ReshapeOp op) {
  FailureOr<Value> in = l.memOf(op.getOperand());
  if (failed(in))
    return failure();
  View operand =
      tiledView(*in, cast<RankedTensorType>(op.getOperand().getType()));
  View v = operand;
  auto type = cast<RankedTensorType>(op.getType());
  v.shape.assign(type.getShape().begin(), type.getShape().end());
  v.dims.assign(type.getRank(), DimAddress{}); // unit dims: index 0 only
  SmallVector<std::pair<int, int>> pairs = *unitDimReshape(op);
  for (auto [i, o] : pairs)
    v.dims[o] = operand.dims[i];
  return v;
}

/// When the reshape only splits the minor dim of `merged`'s array into the
/// trailing dims of `split` (the dims before them equal) and that minor dim
/// fits one tile column: `merged` viewed with the shape `split`, the split
/// dims linear within a tile row (DLRM's `[3616,6,6] -> [3616,36]`).
static std::optional<View> splitMinorView(const View &merged,
                                          ArrayRef<int64_t> split) {
  size_t r = merged.shape.size();
  if (r < 2 || split.size() <= r)
    return std::nullopt;
  if (!llvm::equal(split.take_front(r - 1), ArrayRef(merged.shape).drop_back()))
    return std::nullopt;
  int64_t minor = merged.shape.back(), product = 1;
  for (int64_t s : split.drop_front(r - 1))
    product *= s;
  const DimAddress &lanes = merged.dims.back();
  if (product != minor || (lanes.period && minor > lanes.period))
    return std::nullopt;
  View v = merged;
  v.shape.assign(split.begin(), split.end());
  v.dims.resize(split.size());
  int64_t stride = lanes.lo;
  for (size_t d = split.size(); d-- > r - 1;) {
    v.dims[d] = {0, 0, stride};
    stride *= split[d];
  }
  return v;
}

/// Whether every reader of `v` reads its buffer in the layout the buffer
/// has: the entry's return (the executable records the layout), or a
/// fusion's root whose result is read so. Every kernel reads its operands
/// in the default layout, so a permuted view read by one is scrambled.
static bool onlyReturned(Value v, func::FuncOp entry) {
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    if (isa<func::ReturnOp>(user) && user->getParentOp() == entry)
      continue;
    auto fusion = dyn_cast<hlo::FusionOp>(user->getParentOp());
    if (isa<hlo::ReturnOp>(user) && fusion &&
        onlyReturned(fusion->getResult(use.getOperandNumber()), entry))
      continue;
    return false;
  }
  return true;
}

/// Whether `v` is a fusion body's other name for a buffer outside it (an
/// argument, or a root its fusion returns).
static bool isFusionAlias(Value v) {
  if (!isa<hlo::FusionOp>(v.getParentBlock()->getParentOp()))
    return false;
  return isa<BlockArgument>(v) || llvm::any_of(v.getUsers(), [](Operation *u) {
           return isa<hlo::ReturnOp>(u);
         });
}

static bool returnedFromEntry(hlo::ReshapeOp op) {
  return llvm::any_of(op->getUsers(), [](Operation *user) {
    return isa<func::ReturnOp>(user);
  });
}

/// Whether the reshape `op`, whose result has its operand's bytes in the
/// same order (the same tiles: unit dims added or dropped, major dims split
/// or merged), can read its operand's buffer `mem` as its own: in the entry
/// or a fusion (a while body's state buffers are copied in place, so a
/// second name for one would be unsafe), not a fusion result, and when it
/// is an entry result, the only name of a fresh buffer (that buffer then
/// takes the result's type: the executable's result has its shape).
static bool isBufferView(Lowering &l, hlo::ReshapeOp op, Value mem) {
  Operation *parent = op->getParentOp();
  if (parent != l.oldFunc.getOperation() && !isa<hlo::FusionOp>(parent))
    return false;
  if (llvm::any_of(op->getUsers(),
                   [](Operation *user) { return isa<hlo::ReturnOp>(user); }))
    return false;
  if (!returnedFromEntry(op))
    return true;
  auto alloc = mem.getDefiningOp<tpu::AllocOp>();
  return alloc && !alloc.getInit() && op.getOperand().hasOneUse() &&
         llvm::count_if(l.hbm, [&](auto &kv) {
           return kv.second == mem && !isFusionAlias(kv.first);
         }) == 1;
}

LogicalResult Lowering::lowerReshape(hlo::ReshapeOp op) {
  if (readThroughView(op) || isReducedRowGroups(op))
    return success();
  auto type = cast<RankedTensorType>(op.getType());
  auto inType = cast<RankedTensorType>(op.getOperand().getType());
  FailureOr<Value> in = memOf(op.getOperand());
  if (failed(in))
    return failure();
  bool sameBytes = tiledKey(type) == tiledKey(inType) &&
                   geometryOf(type).bytes() == geometryOf(inType).bytes();
  if (sameBytes && isBufferView(*this, op, *in)) {
    if (returnedFromEntry(op))
      in->setType(hbmType(type));
    hbm[op.getResult()] = *in;
    return success();
  }
  Value out = allocHbm(type, op.getLoc());
  hbm[op.getResult()] = out;
  if (sameBytes) {
    copyWhole(*this, *in, out, type);
    return success();
  }
  int64_t eb = elementBytes(type.getElementType());
  // Only unit dims added or removed: one copyBox pairing the non-unit dims.
  if (auto pairs = unitDimReshape(op)) {
    SmallVector<Axis> axes;
    for (auto [i, o] : *pairs)
      axes.push_back({type.getDimSize(o), i, 1, o, 1});
    copyBoxAndWait(*this, tiledView(*in, inType), {}, tiledView(out, type), {},
                   axes);
    return success();
  }
  // A minor dim split within a tile column (either way): one copyBox over
  // the split shape, every dim linear on both sides. The innermost axis is
  // the minor dim (contiguous runs), the longest other one becomes the
  // DMAs' chunks (DLRM's [3616,6,6] -> [3616,36]: 6 DMAs of 3616 chunks).
  View inView = tiledView(*in, inType), outView = tiledView(out, type);
  std::optional<View> outSplit = splitMinorView(outView, inType.getShape());
  std::optional<View> inSplit =
      outSplit ? std::nullopt : splitMinorView(inView, type.getShape());
  if (outSplit || inSplit) {
    ArrayRef<int64_t> shape = outSplit ? inType.getShape() : type.getShape();
    SmallVector<Axis> axes = identityAxes(shape);
    Axis minor = axes.pop_back_val();
    auto longest = llvm::max_element(axes, [](const Axis &x, const Axis &y) {
      return x.extent < y.extent;
    });
    Axis chunks = *longest;
    axes.erase(longest);
    axes.push_back(chunks);
    axes.push_back(minor);
    copyBoxAndWait(*this, outSplit ? inView : *inSplit, {},
                   outSplit ? *outSplit : outView, {}, axes);
    return success();
  }
  // Rank <= 1 arrays are row-major, so they can be viewed with the other
  // side's shape: one relayout. Otherwise through a row-major temporary.
  auto relayout = [&](Value from, RankedTensorType fromType, Value to,
                      RankedTensorType toType) {
    View src, dst;
    ArrayRef<int64_t> shape;
    if (fromType.getRank() <= 1) {
      dst = tiledView(to, toType);
      src = linearView(from, toType.getShape(), eb);
      shape = toType.getShape();
    } else {
      src = tiledView(from, fromType);
      dst = linearView(to, fromType.getShape(), eb);
      shape = fromType.getShape();
    }
    copyBoxAndWait(*this, src, {}, dst, {}, identityAxes(shape));
  };
  if (inType.getRank() <= 1 || type.getRank() <= 1) {
    relayout(*in, inType, out, type);
    return success();
  }
  auto flatType = RankedTensorType::get({type.getNumElements()},
                                        type.getElementType());
  Value flat = allocHbm(flatType, op.getLoc());
  relayout(*in, inType, flat, flatType);
  relayout(flat, flatType, out, type);
  return success();
}

//===----------------------------------------------------------------------===//
// transpose, slice, reverse, concatenate, pad
//===----------------------------------------------------------------------===//

/// A transpose whose result's two minor dims are the operand's swapped (the
/// outer dims permuted among themselves): per outer index, 128x128 blocks
/// (16 tiles) go HBM -> VMEM by one DMA, through VTRANSPOSE, and back by
/// one DMA. Tile padding may carry garbage into the result's padding only.
static void transposeMinorBlocks(Lowering &l, Value in, RankedTensorType inType,
                                 Value out, RankedTensorType type,
                                 ArrayRef<int64_t> perm) {
  Geometry gi = geometryOf(inType), go = geometryOf(type);
  int64_t tile = gi.tileBytes(), rank = type.getRank();
  Type elem = storageType(type.getElementType());
  VectorType regType = elem.isInteger(32) ? l.i32Reg() : l.f32Reg();
  VBuf a = l.vmem(elem, 16 * tile), bBuf = l.vmem(elem, 16 * tile);
  // Blocks with fewer than 16 row tiles read rows no DMA wrote: zero them.
  Value zero = zeroRegister(l, regType);
  for (int64_t r = 0; r < 16; ++r)
    tpu::VStoreOp::create(l.b, l.loc, zero, a.arena, l.c(a.offset + r * tile),
                          0);
  View vi = tiledView(in, inType), vo = tiledView(out, type);
  // One signal stands for "the previous DMA out", so the first block's
  // wait passes; the last block's DMA out is waited at the end.
  constexpr int kOutSem = 1;
  tpu::SemSignalOp::create(l.b, l.loc, kOutSem, 1);
  auto block = [&](Value inBase, Value outBase, Value bi, int64_t nr,
                   Value bj, int64_t nc) {
    Value src = l.add(inBase, l.add(l.mul(bi, 16 * gi.colTiles * tile),
                                    l.mul(bj, tile)));
    l.dma(in, src, a.arena, l.c(a.offset), nr, tile, gi.colTiles * tile, tile,
          kCopySem);
    l.wait(kCopySem, 1);
    SmallVector<Value> regs;
    for (int64_t r = 0; r < 16; ++r)
      regs.push_back(tpu::VLoadOp::create(l.b, l.loc, regType, a.arena,
                                          l.c(a.offset + r * tile), 0));
    auto t = tpu::VTransposeOp::create(l.b, l.loc,
                                       SmallVector<Type>(16, regType), regs);
    // The previous block's DMA out of `bBuf` overlapped this block's DMA
    // in and transpose; it must finish before `bBuf` is overwritten.
    l.wait(kOutSem, 1);
    for (int64_t r = 0; r < 16; ++r)
      tpu::VStoreOp::create(l.b, l.loc, t.getResult(r), bBuf.arena,
                            l.c(bBuf.offset + r * tile), 0);
    Value dst = l.add(outBase, l.add(l.mul(bj, 16 * go.colTiles * tile),
                                     l.mul(bi, tile)));
    l.dma(bBuf.arena, l.c(bBuf.offset), out, dst, nc, tile, tile,
          go.colTiles * tile, kOutSem);
  };
  // Full blocks in loops, the ragged last row/column of blocks peeled.
  auto blocks = [&](Value inBase, Value outBase) {
    int64_t fullI = gi.rowTiles / 16, restI = gi.rowTiles % 16;
    int64_t fullJ = go.rowTiles / 16, restJ = go.rowTiles % 16;
    auto overJ = [&](Value bi, int64_t nr) {
      l.loop(fullJ, [&](Value bj) { block(inBase, outBase, bi, nr, bj, 16); });
      if (restJ)
        block(inBase, outBase, bi, nr, l.c(fullJ), restJ);
    };
    l.loop(fullI, [&](Value bi) { overJ(bi, 16); });
    if (restI)
      overJ(l.c(fullI), restI);
  };
  // Loops over the outer dims of the result.
  std::function<void(int64_t, Value, Value)> outer = [&](int64_t d, Value ib,
                                                         Value ob) {
    if (d == rank - 2)
      return blocks(ib, ob);
    l.loop(type.getDimSize(d), [&](Value iv) {
      outer(d + 1, l.add(ib, l.mul(iv, vi.dims[perm[d]].lo)),
            l.add(ob, l.mul(iv, vo.dims[d].lo)));
    });
  };
  outer(0, l.c(0), l.c(0));
  l.wait(kOutSem, 1);
}

LogicalResult Lowering::lowerTranspose(hlo::TransposeOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  auto inType = cast<RankedTensorType>(op.getOperand().getType());
  // An argument stored in its physical order (tpuc-normalize-layouts'
  // view): the transpose moves no byte.
  if (Value mem = hbm.lookup(op.getOperand())) {
    if (isPhysicalView(op, cast<MemRefType>(mem.getType()))) {
      hbm[op.getResult()] = mem;
      return success();
    }
    // And back: a row-major array read in a permuted layout it already has
    // byte for byte (a fusion that computed in physical order). The buffer
    // takes the result's type, so that a returned result has its layout;
    // only a returned one (other kernels read the default layout), and only
    // a buffer no other value has (a returned operand, another transpose's
    // view or a reshape's keep their types).
    MemRefType stored = storedViewType(op);
    Value operand = op.getOperand();
    if (stored && onlyReturned(op.getResult(), oldFunc) &&
        !isa<BlockArgument>(operand) && operand.hasOneUse() &&
        llvm::count_if(hbm, [&](auto &kv) {
          return kv.second == mem && !isFusionAlias(kv.first);
        }) == 1) {
      if (auto alloc = mem.getDefiningOp<tpu::AllocOp>(); alloc && !alloc.getInit()) {
        mem.setType(stored);
        hbm[op.getResult()] = mem;
        return success();
      }
    }
  }
  FailureOr<std::pair<View, View>> views = resultViews(*this, op, op.getOperand());
  if (failed(views))
    return failure();
  ArrayRef<int64_t> perm = op.getPermutation();
  int64_t rank = type.getRank();
  if (rank >= 2 && perm[rank - 1] == rank - 2 && perm[rank - 2] == rank - 1 &&
      type.getDimSize(rank - 1) * type.getDimSize(rank - 2) >= 4096) {
    transposeMinorBlocks(*this, views->first.mem, inType, views->second.mem,
                         type, perm);
    return success();
  }
  SmallVector<Axis> axes;
  for (int d = 0; d < type.getRank(); ++d)
    axes.push_back({type.getDimSize(d), static_cast<int>(perm[d]), 1, d, 1});
  // The DMAs' chunks walk the innermost axis. When the minor dim moves, the
  // result's minor dim need not be the best one: the axis that stays linear
  // longest on both sides (to a tile boundary) makes the fewest DMAs, e.g.
  // [M,N,B] -> [B,M,N] with a small N walks B, 128 lanes of the operand per
  // DMA, instead of one DMA of N elements per (b, m).
  if (perm[rank - 1] != rank - 1) {
    auto linearRun = [&](const Axis &a) {
      auto run = [&](const View &v, int dim) {
        int64_t period = v.dims[dim].period;
        return period ? std::min(period, a.extent) : a.extent;
      };
      return std::min(run(views->first, a.srcDim),
                      run(views->second, a.dstDim));
    };
    auto best = llvm::max_element(axes, [&](const Axis &x, const Axis &y) {
      return linearRun(x) < linearRun(y);
    });
    if (linearRun(*best) > linearRun(axes.back())) {
      Axis moved = *best;
      axes.erase(best);
      axes.push_back(moved);
    }
  }
  copyBoxAndWait(*this, views->first, {}, views->second, {}, axes);
  return success();
}

LogicalResult Lowering::lowerSlice(hlo::SliceOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  FailureOr<std::pair<View, View>> views = resultViews(*this, op, op.getOperand());
  if (failed(views))
    return failure();
  SmallVector<Value> srcStart;
  SmallVector<Axis> axes;
  for (int d = 0; d < type.getRank(); ++d) {
    srcStart.push_back(c(op.getStartIndices()[d]));
    axes.push_back({type.getDimSize(d), d, op.getStrides()[d], d, 1});
  }
  copyBoxAndWait(*this, views->first, srcStart, views->second, {}, axes);
  return success();
}

LogicalResult Lowering::lowerReverse(hlo::ReverseOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  FailureOr<std::pair<View, View>> views = resultViews(*this, op, op.getOperand());
  if (failed(views))
    return failure();
  SmallVector<Value> srcStart = zeros(*this, views->first);
  SmallVector<Axis> axes = identityAxes(type.getShape());
  for (int64_t d : op.getDimensions()) {
    srcStart[d] = c(type.getDimSize(d) - 1);
    axes[d].srcStep = -1;
  }
  copyBoxAndWait(*this, views->first, srcStart, views->second, {}, axes);
  return success();
}

LogicalResult Lowering::lowerConcatenate(hlo::ConcatenateOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  int64_t dim = op.getDimension();
  // A fused loop kernel that wrote operands into their slices allocated it.
  Value out = hbm.lookup(op.getResult());
  if (!out)
    out = allocHbm(type, op.getLoc());
  hbm[op.getResult()] = out;
  View dst = tiledView(out, type);
  int64_t offset = 0, count = 0;
  for (Value input : op.getInputs()) {
    auto inType = cast<RankedTensorType>(input.getType());
    if (concatOperandsWritten.contains(input)) {
      offset += inType.getDimSize(dim);
      continue;
    }
    auto reshape = input.getDefiningOp<hlo::ReshapeOp>();
    FailureOr<View> src =
        reshape && readThroughView(reshape)
            ? reshapeView(*this, reshape)
            : FailureOr<View>(failure());
    if (failed(src)) {
      FailureOr<Value> in = memOf(input);
      if (failed(in))
        return failure();
      src = tiledView(*in, inType);
    }
    SmallVector<Value> dstStart = zeros(*this, dst);
    dstStart[dim] = c(offset);
    count += copyBox(*this, *src, {}, dst, dstStart,
                     identityAxes(inType.getShape()), kCopySem);
    offset += inType.getDimSize(dim);
  }
  wait(kCopySem, count);
  return success();
}

LogicalResult Lowering::lowerPad(hlo::PadOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  auto inType = cast<RankedTensorType>(op.getOperand().getType());
  FailureOr<std::pair<View, View>> views = resultViews(*this, op, op.getOperand());
  if (failed(views))
    return failure();
  // The padding value everywhere first (waited, so the interior copies
  // land after it), then the operand's elements that survive the edges.
  if (failed(fillFromScalar(*this, op.getPaddingValue(), views->second.mem,
                            type)))
    return failure();
  SmallVector<Value> srcStart, dstStart;
  SmallVector<Axis> axes;
  for (int d = 0; d < type.getRank(); ++d) {
    int64_t lo = op.getEdgePaddingLow()[d];
    int64_t step = op.getInteriorPadding()[d] + 1;
    // Operand indices i with 0 <= lo + i * step < result size.
    int64_t first = lo < 0 ? ceilDiv(-lo, step) : 0;
    int64_t last = std::min(inType.getDimSize(d) - 1,
                            floorDiv(type.getDimSize(d) - 1 - lo, step));
    srcStart.push_back(c(first));
    dstStart.push_back(c(lo + first * step));
    axes.push_back({last - first + 1, d, 1, d, step});
  }
  copyBoxAndWait(*this, views->first, srcStart, views->second, dstStart, axes);
  return success();
}

void populateDataMovementPatterns(RewritePatternSet &patterns, Lowering &l) {
  l.addKernel(patterns, &Lowering::lowerBroadcast);
  l.addKernel(patterns, &Lowering::lowerReshape);
  l.addKernel(patterns, &Lowering::lowerTranspose);
  l.addKernel(patterns, &Lowering::lowerSlice);
  l.addKernel(patterns, &Lowering::lowerPad);
  l.addKernel(patterns, &Lowering::lowerConcatenate);
  l.addKernel(patterns, &Lowering::lowerReverse);
}

} // namespace tpuc::hlotpu
