//===- Sort.cpp - sort and topk on the VPU --------------------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
//
// sort: a bitonic network over blocks of 128 rows transposed with VTRANSPOSE,
// so that each lane is one row and element e of every row is the 512-byte
// VMEM row e: a compare-exchange at any distance is then elementwise between
// two registers loaded with a sublane stride. The key is compared together
// with its index, which makes the order strict and the sort stable. Any
// other comparator is evaluated on the registers (the elementwise ops of
// its region, both ways round), its ties broken by the index the same way.
// topk: k rounds of a running (max, first index) per lane over a row's
// tiles, on s32 total-order keys.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Lowering.h"

#include <climits>
#include <cmath>

using namespace mlir;

namespace tpuc::hlotpu {
namespace {

/// Bytes of one element index in the transposed layout: 128 rows x 32 bit.
constexpr int64_t kElementRow = kLanes * 4;
/// Bytes of a 32-bit tile.
constexpr int64_t kTile32 = kSublanes * kLanes * 4;

/// The geometry of rows along the minor dim: a 1-D array is one row of
/// ceil(n / 128) tiles (its 128-element runs go to sublane 0 of each).
Geometry rowGeometry(RankedTensorType type) {
  if (type.getRank() != 1)
    return geometryOf(type);
  Geometry g = geometryOf(type);
  g.colTiles = ceilDiv(g.cols, kLanes);
  return g;
}

//===----------------------------------------------------------------------===//
// Comparators
//===----------------------------------------------------------------------===//

/// The order a comparator defines: by operand `key`, ascending (LT) or
/// descending (GT); or (`general`) whatever its region computes.
struct SortOrder {
  unsigned key = 0;
  bool descending = false;
  bool isUnsigned = false; // 32-bit integer keys in unsigned order
  bool general = false;
};

/// The block argument `v` canonicalises the way JAX's sort comparator does:
/// select(compare(a, a, NE), nan, select(compare(a, 0, EQ), 0, a)), so that
/// -0.0 equals 0.0 and every NaN is the same NaN (the largest in TOTALORDER).
BlockArgument canonicalArg(Value v) {
  auto outer = v.getDefiningOp<hlo::SelectOp>();
  if (!outer)
    return {};
  auto ne = outer.getPred().getDefiningOp<hlo::CompareOp>();
  auto inner = outer.getOnFalse().getDefiningOp<hlo::SelectOp>();
  std::optional<double> nan = splatValue(outer.getOnTrue());
  if (!ne || !inner || !nan || !std::isnan(*nan) ||
      ne.getComparisonDirection() != hlo::ComparisonDirection::NE ||
      ne.getLhs() != ne.getRhs())
    return {};
  auto arg = dyn_cast<BlockArgument>(ne.getLhs());
  auto eq = inner.getPred().getDefiningOp<hlo::CompareOp>();
  if (!arg || !eq ||
      eq.getComparisonDirection() != hlo::ComparisonDirection::EQ ||
      eq.getLhs() != arg || splatValue(eq.getRhs()) != 0.0 ||
      splatValue(inner.getOnTrue()) != 0.0 || inner.getOnFalse() != arg)
    return {};
  return arg;
}

/// A comparator the kernel evaluates as it stands (emitRegion).
FailureOr<SortOrder> generalComparator(hlo::SortOp op) {
  if (failed(checkRegisterRegion(op, op.getComparator(), "a comparator")))
    return failure();
  SortOrder order;
  order.general = true;
  return order;
}

/// The comparators the kernel implements with a key transform: `compare
/// LT|GT` of the two arguments of one f32, bf16 or 32-bit integer operand,
/// directly (FLOAT or integer compare) or on JAX's canonicalised floats
/// (TOTALORDER). One compare of an operand's two elements in another
/// direction is not a strict order (an error); any other comparator is
/// evaluated as it stands (generalComparator).
FailureOr<SortOrder> matchComparator(hlo::SortOp op) {
  Block &body = op.getComparator().front();
  auto fail = [&](const Twine &why) {
    return FailureOr<SortOrder>(unsupported(op, why));
  };
  auto cmp =
      body.getTerminator()->getOperand(0).getDefiningOp<hlo::CompareOp>();
  if (!cmp)
    return generalComparator(op);
  auto lhs = dyn_cast<BlockArgument>(cmp.getLhs());
  auto rhs = dyn_cast<BlockArgument>(cmp.getRhs());
  bool canonical = false;
  if (!lhs || !rhs) {
    lhs = canonicalArg(cmp.getLhs());
    rhs = canonicalArg(cmp.getRhs());
    canonical = true;
  }
  if (!lhs || !rhs || lhs.getOwner() != &body || rhs.getOwner() != &body ||
      lhs.getArgNumber() / 2 != rhs.getArgNumber() / 2 || lhs == rhs)
    return generalComparator(op);
  SortOrder order;
  order.key = lhs.getArgNumber() / 2;
  hlo::ComparisonDirection dir = cmp.getComparisonDirection();
  if (dir != hlo::ComparisonDirection::LT &&
      dir != hlo::ComparisonDirection::GT)
    return fail("with a " + hlo::stringifyComparisonDirection(dir) +
                " comparator (not a strict order)");
  order.descending = (dir == hlo::ComparisonDirection::GT) !=
                     (lhs.getArgNumber() > rhs.getArgNumber());
  Type elem = cast<RankedTensorType>(op.getInputs()[order.key].getType())
                  .getElementType();
  if (!(elem.isF32() || elem.isBF16() || elem.isInteger(32)))
    return generalComparator(op);
  // XLA compares u32 unsigned unless the compare type says otherwise.
  std::optional<hlo::ComparisonType> type = cmp.getCompareType();
  order.isUnsigned =
      elem.isInteger(32) && (type ? *type == hlo::ComparisonType::UNSIGNED
                                  : elem.isUnsignedInteger());
  if (!elem.isInteger(32) && type == hlo::ComparisonType::UNSIGNED)
    return fail("with an UNSIGNED compare");
  // TOTALORDER on raw floats orders -0.0 before 0.0 and NaNs by their sign
  // bit, which the transformed f32 keys cannot see: the region decides.
  if (!canonical && !elem.isInteger(32) && type &&
      *type == hlo::ComparisonType::TOTALORDER)
    return generalComparator(op);
  return order;
}

//===----------------------------------------------------------------------===//
// Register helpers
//===----------------------------------------------------------------------===//

/// The VPU helpers of the sort kernels (on top of KernelBuilder's).
struct Vpu {
  Lowering &L;

  Value splatI(int64_t v) { return L.splatIndex(L.c(v)); }
  Value zero(VectorType type) {
    return type.getElementType().isInteger(32) ? splatI(0) : L.splatF32(0.0);
  }
  Value addV(Value x, Value y) { return tpu::VAddOp::create(L.b, L.loc, x, y); }
  Value subV(Value x, Value y) { return tpu::VSubOp::create(L.b, L.loc, x, y); }
  Value sublaneIds() {
    return tpu::VSublaneIdOp::create(L.b, L.loc, L.i32Reg());
  }
  Value laneIds() { return tpu::VLaneIdOp::create(L.b, L.loc, L.i32Reg()); }
  /// The s32 total-order key of f32 bits and back (an involution): negative
  /// floats count down from INT_MAX - bits, so -NaN < -inf < -0 < 0 < NaN.
  Value totalOrder(Value bits) {
    return L.vsel(L.vcmp(tpu::CmpKind::lt, bits, splatI(0)),
                  subV(splatI(INT_MAX), bits), bits);
  }
  /// Copies `tiles` (8,128) tiles from HBM at `off` into `buf` (sem 0),
  /// or one row of a 1-D array ({0:T(1024)}, the same bytes as rows of 128)
  /// into sublane 0 of `tiles` tiles whose other sublanes are `fill`.
  void copyIn(Value hbm, Value off, const VBuf &buf, int64_t tiles,
              int64_t tileBytes, bool row, Value fill = {}) {
    if (!row) {
      L.dma(hbm, off, buf.arena, L.c(buf.offset), 1, tiles * tileBytes, 0, 0,
            0);
      return;
    }
    L.loop(tiles, [&](Value t) { L.vstore(fill, buf, L.mul(t, tileBytes)); });
    L.dma(hbm, off, buf.arena, L.c(buf.offset), tiles, tileBytes / 8,
          tileBytes / 8, tileBytes, 0);
  }
  /// The inverse of copyIn (sem 1).
  void copyOut(const VBuf &buf, Value hbm, Value off, int64_t tiles,
               int64_t tileBytes, bool row) {
    if (!row)
      L.dma(buf.arena, L.c(buf.offset), hbm, off, 1, tiles * tileBytes, 0, 0,
            1);
    else
      L.dma(buf.arena, L.c(buf.offset), hbm, off, tiles, tileBytes / 8,
            tileBytes, tileBytes / 8, 1);
  }
  /// Transposes the 128x128 block of 32-bit elements whose rows `L.vload(r)`
  /// gives (register r holds rows 8r..8r+7) and hands result r to `use`.
  /// The sources are loaded back to back with nothing else live, so that
  /// they land in consecutive registers next to 16 free ones.
  void transpose(function_ref<Value(int64_t)> load,
                 function_ref<void(int64_t, Value)> use) {
    SmallVector<Value> rows;
    for (int64_t r = 0; r < 16; ++r)
      rows.push_back(load(r));
    auto t = tpu::VTransposeOp::create(
        L.b, L.loc, SmallVector<Type>(16, rows[0].getType()), rows);
    for (int64_t r = 0; r < 16; ++r)
      use(r, t.getResult(r));
  }
};

//===----------------------------------------------------------------------===//
// sort
//===----------------------------------------------------------------------===//

/// One sort kernel: per block of 16 tile rows (128 rows), every operand is
/// transposed into its own buffer of nPad element rows; the key operand's
/// buffer holds the comparison key and `sec` the s32 tie-break (index, plus
/// multiples of nPad that order NaNs and the padding).
class SortKernel : Vpu {
public:
  SortKernel(Lowering &L, hlo::SortOp op, SortOrder order)
      : Vpu{L}, op(op), order(order) {}
  LogicalResult emit();

private:
  enum class Dir { Asc, Desc };

  void block(ArrayRef<Value> ins, ArrayRef<Value> outs, Value tileRow,
             int64_t tileRows);
  void prepareKeys();
  void prepareIndices();
  void finishKeys();
  void packKeys();
  void unpackKeys();
  void stage(int64_t size, int64_t j);
  void compareExchange(Value a, int64_t distance, int64_t stride, Dir dir,
                       Value dirMask);

  hlo::SortOp op;
  SortOrder order;
  Geometry g;
  int64_t n = 0, nPad = 0;
  bool floatKey = false;
  /// One bf16 key and no other operand: (key, index) packed into one s32
  /// in `sec`, compare-exchanged with vmin/vmax.
  bool packed = false;
  SmallVector<VBuf> staging, columns; // per operand
  VBuf sec;
};

LogicalResult SortKernel::emit() {
  auto type = cast<RankedTensorType>(op.getInputs()[0].getType());
  int64_t rank = type.getRank();
  if (rank == 0 || static_cast<int64_t>(op.getDimension()) != rank - 1)
    return unsupported(op, "along a dimension other than the minor one");
  // Each compare-exchange holds two registers per operand.
  if (op.getInputs().size() > 8)
    return unsupported(op, "of more than 8 operands");
  for (Value in : op.getInputs())
    if (!isLowerableElementType(
            cast<RankedTensorType>(in.getType()).getElementType()))
      return unsupported(op, "of this element type");
  g = rowGeometry(type);
  n = g.cols;
  if (n == 0 || g.tiles() == 0) { // nothing to sort
    for (auto [in, result] : llvm::zip(op.getInputs(), op.getResults())) {
      FailureOr<Value> mem = L.memOf(in);
      if (failed(mem))
        return failure();
      L.hbm[result] = *mem;
    }
    return success();
  }
  nPad = static_cast<int64_t>(llvm::PowerOf2Ceil(g.colTiles * kLanes));
  Type keyElem = cast<RankedTensorType>(op.getInputs()[order.key].getType())
                     .getElementType();
  floatKey = !order.general && !keyElem.isInteger(32);
  // 2 * index + 1 must fit the low 16 bits.
  packed = !order.general && keyElem.isBF16() && op.getInputs().size() == 1 &&
           nPad <= 32768;

  // VMEM: per operand the staging of 16 tile rows and its column buffer,
  // plus `sec`. A longer row would need a merge across blocks in HBM.
  auto vmemBytes = [&](int64_t pad) {
    int64_t bytes = pad * kElementRow;
    for (Value in : op.getInputs())
      bytes +=
          16 * ceilDiv(pad, kLanes) *
              geometryOf(cast<RankedTensorType>(in.getType())).tileBytes() +
          pad * kElementRow;
    return bytes;
  };
  int64_t vmemLimit = L.spec.machine.vmem_bytes();
  if (vmemBytes(nPad) > vmemLimit) {
    int64_t longest = nPad;
    while (longest > kLanes && vmemBytes(longest) > vmemLimit)
      longest /= 2;
    return unsupported(op, "of rows longer than " + Twine(longest) +
                               " elements (the network of 128 rows must fit "
                               "VMEM)");
  }

  // `sec` first: offset 0 in its arena saves an add per access.
  sec = L.vmem(L.b.getI32Type(), nPad * kElementRow);
  SmallVector<Value> ins, outs;
  for (auto [in, result] : llvm::zip(op.getInputs(), op.getResults())) {
    FailureOr<Value> mem = L.memOf(in);
    if (failed(mem))
      return failure();
    ins.push_back(*mem);
    auto t = cast<RankedTensorType>(result.getType());
    Value out = L.allocHbm(t, op.getLoc());
    L.hbm[result] = out;
    outs.push_back(out);
    Type elem = storageType(t.getElementType());
    staging.push_back(
        L.vmem(elem, 16 * g.colTiles * geometryOf(t).tileBytes()));
    Type column = elem.isInteger(32) ? elem : L.b.getF32Type();
    columns.push_back(L.vmem(column, nPad * kElementRow));
  }

  int64_t tileRows = g.outer * g.rowTiles;
  L.loop(tileRows / 16, [&](Value i) { block(ins, outs, L.mul(i, 16), 16); });
  if (tileRows % 16)
    block(ins, outs, L.c(tileRows / 16 * 16), tileRows % 16);
  return success();
}

/// Sorts the rows of `tileRows` (<= 16) tile rows from `tileRow` on.
void SortKernel::block(ArrayRef<Value> ins, ArrayRef<Value> outs, Value tileRow,
                       int64_t tileRows) {
  int64_t count = ins.size();
  auto tileBytes = [&](int64_t i) {
    return geometryOf(cast<RankedTensorType>(op.getInputs()[i].getType()))
        .tileBytes();
  };
  for (int64_t i = 0; i < count; ++i)
    copyIn(ins[i], L.mul(tileRow, g.colTiles * tileBytes(i)), staging[i],
           tileRows * g.colTiles, tileBytes(i), g.rank == 1,
           g.rank == 1 ? zero(L.regOf(columns[i].arena)) : Value());
  L.wait(0, count);

  // Tile (r, ct) -> element rows 128ct .. 128ct+127; rows past the array
  // are zeros.
  for (int64_t i = 0; i < count; ++i) {
    int64_t tb = tileBytes(i);
    L.loop(g.colTiles, [&](Value ct) {
      transpose(
          [&](int64_t r) {
            if (r < tileRows)
              return L.vload(staging[i],
                             L.add(L.mul(ct, tb), r * g.colTiles * tb));
            return zero(L.regOf(columns[i].arena));
          },
          [&](int64_t r, Value v) {
            L.vstore(
                v, columns[i],
                L.add(L.mul(ct, kLanes * kElementRow), r * 8 * kElementRow));
          });
    });
  }
  if (order.general)
    prepareIndices();
  else
    packed ? packKeys() : prepareKeys();

  for (int64_t size = 2; size <= nPad; size *= 2)
    for (int64_t j = size / 2; j >= 1; j /= 2)
      stage(size, j);

  if (!order.general)
    packed ? unpackKeys() : finishKeys();
  for (int64_t i = 0; i < count; ++i) {
    int64_t tb = tileBytes(i);
    L.loop(g.colTiles, [&](Value ct) {
      transpose(
          [&](int64_t r) {
            return L.vload(columns[i], L.add(L.mul(ct, kLanes * kElementRow),
                                             r * 8 * kElementRow));
          },
          [&](int64_t r, Value v) {
            if (r < tileRows)
              L.vstore(v, staging[i],
                       L.add(L.mul(ct, tb), r * g.colTiles * tb));
          });
    });
  }
  for (int64_t i = 0; i < count; ++i)
    copyOut(staging[i], outs[i], L.mul(tileRow, g.colTiles * tileBytes(i)),
            tileRows * g.colTiles, tileBytes(i), g.rank == 1);
  L.wait(1, count);
}

/// Key operand values -> (key, sec) in place, and the padding up to nPad.
/// Ascending: NaN becomes +inf with sec + nPad (after +inf); descending
/// sorts -x ascending, NaN becoming -inf with sec - nPad (first). Elements
/// past the row (ragged tile, padding) get +inf with sec + 2 nPad: last.
void SortKernel::prepareKeys() {
  VBuf &key = columns[order.key];
  double inf = std::numeric_limits<double>::infinity();
  int64_t data = g.colTiles * kLanes / 8; // element blocks that hold data
  L.loop(data, [&](Value q) {
    Value off = L.mul(q, 8 * kElementRow);
    Value x = L.vload(key, off);
    Value e = addV(sublaneIds(), L.splatIndex(L.mul(q, 8)));
    Value valid = L.vcmp(tpu::CmpKind::lt, e, splatI(n));
    Value k, shift;
    if (floatKey) {
      Value nan = L.vcmp(tpu::CmpKind::ne, x, x);
      k = order.descending ? tpu::VNegOp::create(L.b, L.loc, x).getResult() : x;
      k = L.vsel(nan, L.splatF32(order.descending ? -inf : inf), k);
      k = L.vsel(valid, k, L.splatF32(inf));
      shift = L.vsel(nan, splatI(order.descending ? -nPad : nPad), splatI(0));
    } else {
      // Unsigned order is signed order with the sign bit flipped.
      if (order.isUnsigned)
        x = tpu::VXorOp::create(L.b, L.loc, x, splatI(INT_MIN));
      k = order.descending ? subV(splatI(-1), x) : x;
      k = L.vsel(valid, k, splatI(INT_MAX));
      shift = splatI(0);
    }
    shift = L.vsel(valid, shift, splatI(2 * nPad));
    L.vstore(k, key, off);
    L.vstore(addV(e, shift), sec, off);
  });
  L.loop(nPad / 8 - data, [&](Value q) {
    Value blk = L.add(q, data);
    Value off = L.mul(blk, 8 * kElementRow);
    for (auto [i, column] : llvm::enumerate(columns)) {
      if (i == order.key)
        L.vstore(floatKey ? L.splatF32(inf) : splatI(INT_MAX), column, off);
      else
        L.vstore(zero(L.regOf(column.arena)), column, off);
    }
    L.vstore(addV(sublaneIds(), L.splatIndex(L.add(L.mul(blk, 8), 2 * nPad))),
             sec, off);
  });
}

/// A general comparator's `sec`: the element index, plus 2 nPad past the
/// row (ragged tile, padding), whose elements the comparator never sees
/// (compareExchange orders them by `sec` alone: last). The padding rows of
/// every column are zeros.
void SortKernel::prepareIndices() {
  int64_t data = g.colTiles * kLanes / 8; // element blocks that hold data
  L.loop(data, [&](Value q) {
    Value e = addV(sublaneIds(), L.splatIndex(L.mul(q, 8)));
    Value valid = L.vcmp(tpu::CmpKind::lt, e, splatI(n));
    L.vstore(addV(e, L.vsel(valid, splatI(0), splatI(2 * nPad))), sec,
             L.mul(q, 8 * kElementRow));
  });
  L.loop(nPad / 8 - data, [&](Value q) {
    Value blk = L.add(q, data);
    Value off = L.mul(blk, 8 * kElementRow);
    for (VBuf &column : columns)
      L.vstore(zero(L.regOf(column.arena)), column, off);
    L.vstore(addV(sublaneIds(), L.splatIndex(L.add(L.mul(blk, 8), 2 * nPad))),
             sec, off);
  });
}

/// (key, sec) -> the key operand's values, for the element rows that hold
/// data.
void SortKernel::finishKeys() {
  VBuf &key = columns[order.key];
  L.loop(g.colTiles * kLanes / 8, [&](Value q) {
    Value off = L.mul(q, 8 * kElementRow);
    Value k = L.vload(key, off);
    Value x;
    if (floatKey) {
      Value s = L.vload(sec, off);
      x = order.descending ? tpu::VNegOp::create(L.b, L.loc, k).getResult() : k;
      Value nan = order.descending ? L.vcmp(tpu::CmpKind::lt, s, splatI(0))
                                   : L.vcmp(tpu::CmpKind::ge, s, splatI(nPad));
      x = L.vsel(nan, L.splatF32(std::nan("")), x);
    } else {
      x = order.descending ? subV(splatI(-1), k) : k;
      if (order.isUnsigned)
        x = tpu::VXorOp::create(L.b, L.loc, x, splatI(INT_MIN));
    }
    L.vstore(x, key, off);
  });
}

/// bf16 keys -> one s32 per element in `sec`:
///   ord * 65536 + 2 * index + (x is -0.0)
/// where ord is the bf16 bits in total order with -0.0 folded onto 0.0 (the
/// comparators make them equal) and NaN canonicalised (largest), negated
/// (-1 - ord) for descending. Distinct for every element, so vmin/vmax are
/// a stable compare-exchange. The f32 bits of the widened bf16 come from a
/// VMEM -> VMEM DMA of the key column into `sec` (a bitcast); their low 16
/// bits are zero. Padding packs ord 32767, above every real key.
void SortKernel::packKeys() {
  VBuf &key = columns[order.key];
  int64_t data = g.colTiles * kLanes / 8; // element blocks that hold data
  L.loop(data, [&](Value q) {
    Value off = L.mul(q, 8 * kElementRow);
    Value x = L.vload(key, off);
    L.vstore(
        L.vsel(L.vcmp(tpu::CmpKind::ne, x, x), L.splatF32(std::nan("")), x),
        key, off);
  });
  L.dma(key.arena, L.c(key.offset), sec.arena, L.c(sec.offset), 1,
        data * 8 * kElementRow, 0, 0, 3);
  L.wait(3, 1);
  L.loop(data, [&](Value q) {
    Value off = L.mul(q, 8 * kElementRow);
    Value bits = L.vload(sec, off);
    Value half = tpu::VDivOp::create(L.b, L.loc, bits, splatI(65536));
    Value negative = L.vcmp(tpu::CmpKind::lt, half, splatI(0));
    Value ord = L.vsel(negative, subV(splatI(-32768), half), half);
    if (order.descending)
      ord = subV(splatI(-1), ord);
    Value e = addV(sublaneIds(), L.splatIndex(L.mul(q, 8)));
    ord = L.vsel(L.vcmp(tpu::CmpKind::lt, e, splatI(n)), ord, splatI(32767));
    Value negZero = L.vcmp(tpu::CmpKind::eq, bits, splatI(INT_MIN));
    Value low = addV(addV(e, e), negZero);
    L.vstore(addV(tpu::VMulOp::create(L.b, L.loc, ord, splatI(65536)), low),
             sec, off);
  });
  L.loop(nPad / 8 - data, [&](Value q) {
    Value blk = L.add(q, data);
    Value e = addV(sublaneIds(), L.splatIndex(L.mul(blk, 8)));
    L.vstore(addV(splatI(32767 * 65536), addV(e, e)), sec,
             L.mul(blk, 8 * kElementRow));
  });
}

/// The inverse of packKeys for the element rows that hold data: ord is the
/// floor of packed / 65536, the low bit restores -0.0.
void SortKernel::unpackKeys() {
  VBuf &key = columns[order.key];
  int64_t data = g.colTiles * kLanes / 8;
  L.loop(data, [&](Value q) {
    Value off = L.mul(q, 8 * kElementRow);
    Value packedKey = L.vload(sec, off);
    Value c65536 = splatI(65536);
    Value ord = tpu::VDivOp::create(L.b, L.loc, packedKey, c65536);
    Value low = subV(packedKey, tpu::VMulOp::create(L.b, L.loc, ord, c65536));
    Value below = L.vcmp(tpu::CmpKind::lt, low, splatI(0));
    ord = L.vsel(below, subV(ord, splatI(1)), ord);
    low = L.vsel(below, addV(low, c65536), low);
    Value negZero =
        subV(low, addV(tpu::VDivOp::create(L.b, L.loc, low, splatI(2)),
                       tpu::VDivOp::create(L.b, L.loc, low, splatI(2))));
    if (order.descending)
      ord = subV(splatI(-1), ord);
    Value half = L.vsel(L.vcmp(tpu::CmpKind::lt, ord, splatI(0)),
                        subV(splatI(-32768), ord), ord);
    half = L.vsel(negZero, splatI(-32768), half);
    L.vstore(tpu::VMulOp::create(L.b, L.loc, half, c65536), sec, off);
  });
  L.dma(sec.arena, L.c(sec.offset), key.arena, L.c(key.offset), 1,
        data * 8 * kElementRow, 0, 0, 3);
  L.wait(3, 1);
}

/// One step of the bitonic network: merge blocks of `size` elements
/// (ascending where bit `size` of the element index is 0, so the last
/// merge is ascending), comparing elements `j` apart.
///
/// j >= 8: a register is 8 consecutive element rows, partner j rows on.
/// j < 8: a register is 8 rows 2j apart (sublane stride), partner j on, and
/// a unit of 16j rows holds j such pairs; when a merge block is shorter
/// than that, the direction alternates between sublanes (a mask).
void SortKernel::stage(int64_t size, int64_t j) {
  int64_t span = j >= 8 ? 2 * j : 16 * j;
  int64_t stride = (j >= 8 ? 1 : 2 * j) * kElementRow;
  auto unit = [&](Value base, Dir dir, Value mask) {
    L.loop(j >= 8 ? j / 8 : j, [&](Value p) {
      Value a = L.add(base, j >= 8 ? L.mul(p, 8) : p);
      compareExchange(L.mul(a, kElementRow), j * kElementRow, stride, dir,
                      mask);
    });
  };
  if (size == nPad) {
    L.loop(nPad / span,
           [&](Value u) { unit(L.mul(u, span), Dir::Asc, Value()); });
  } else if (size >= span) {
    L.loop(nPad / (2 * size), [&](Value q) {
      for (Dir dir : {Dir::Asc, Dir::Desc}) {
        Value first = L.add(L.mul(q, 2 * size), dir == Dir::Desc ? size : 0);
        L.loop(size / span, [&](Value u) {
          unit(L.add(first, L.mul(u, span)), dir, Value());
        });
      }
    });
  } else {
    // Sublane m holds row base + e0 + 2jm: descending when (m / d) is odd.
    int64_t d = size / (2 * j);
    Value m = sublaneIds();
    Value q =
        d == 1 ? m : tpu::VDivOp::create(L.b, L.loc, m, splatI(d)).getResult();
    Value half = tpu::VDivOp::create(L.b, L.loc, q, splatI(2));
    Value mask = subV(q, addV(half, half));
    L.loop(nPad / span, [&](Value u) { unit(L.mul(u, span), Dir::Asc, mask); });
  }
}

/// Orders the element rows at byte offsets `a` and `a + distance` (8 rows
/// each, `stride` apart) of every column buffer: lexicographically by (key,
/// sec), the smaller to `a` for Asc, to `a + distance` for Desc or where
/// `dirMask` is 1. Packed keys are one s32: vmin/vmax.
void SortKernel::compareExchange(Value a, int64_t distance, int64_t stride,
                                 Dir dir, Value dirMask) {
  // Addresses computed once per buffer and side (the scalar unit issues
  // about as many instructions here as the VPU).
  struct Side {
    VBuf buf;
    Value at[2], v[2];
  };
  SmallVector<Side> arrays;
  auto add = [&](const VBuf &buf) {
    Side side{buf, {}, {}};
    side.at[0] = L.add(a, buf.offset);
    side.at[1] = L.add(side.at[0], distance);
    for (int i = 0; i < 2; ++i)
      side.v[i] = tpu::VLoadOp::create(L.b, L.loc, L.regOf(buf.arena),
                                       buf.arena, side.at[i], stride);
    arrays.push_back(side);
  };
  if (!packed)
    for (VBuf &column : columns)
      add(column);
  add(sec);
  Value sa = arrays.back().v[0], sb = arrays.back().v[1];
  auto put = [&](const Side &side, Value x, Value y) {
    if (dir == Dir::Desc)
      std::swap(x, y);
    tpu::VStoreOp::create(L.b, L.loc, x, side.buf.arena, side.at[0], stride);
    tpu::VStoreOp::create(L.b, L.loc, y, side.buf.arena, side.at[1], stride);
  };
  if (packed && !dirMask) {
    put(arrays.back(), tpu::VMinOp::create(L.b, L.loc, sa, sb),
        tpu::VMaxOp::create(L.b, L.loc, sa, sb));
    return;
  }
  Value first = L.vcmp(tpu::CmpKind::lt, sa, sb);
  if (order.general) {
    // a before b where the comparator says a < b and not b < a; where it
    // says neither (or both), and where either is past the row, by `sec`.
    auto less = [&](int x, int y) -> Value {
      SmallVector<Value> args;
      for (unsigned i = 0; i < op.getInputs().size(); ++i) {
        args.push_back(arrays[i].v[x]);
        args.push_back(arrays[i].v[y]);
      }
      return L.emitRegion(op.getComparator(), args)[0];
    };
    Value ab = less(0, 1), ba = less(1, 0);
    Value decided = L.vcmp(tpu::CmpKind::ne, ab, ba);
    Value past = L.vcmp(tpu::CmpKind::ge, tpu::VMaxOp::create(L.b, L.loc, sa, sb),
                        splatI(2 * nPad));
    first = L.vsel(past, first, L.vsel(decided, ab, first));
  } else if (!packed) {
    Value ka = arrays[order.key].v[0], kb = arrays[order.key].v[1];
    first = L.vsel(L.vcmp(tpu::CmpKind::eq, ka, kb), first,
                   L.vcmp(tpu::CmpKind::lt, ka, kb));
  }
  if (dirMask)
    first = L.vcmp(tpu::CmpKind::ne, first, dirMask);
  for (const Side &side : arrays)
    put(side, L.vsel(first, side.v[0], side.v[1]),
        L.vsel(first, side.v[1], side.v[0]));
}

//===----------------------------------------------------------------------===//
// topk
//===----------------------------------------------------------------------===//

/// Per tile row (8 rows in the sublanes): the row's tiles become s32
/// total-order keys in VMEM (f32 bits through a VMEM -> VMEM DMA, negated
/// for the smallest), then each round keeps a running (max, first index)
/// per lane over the tiles, reduces the lanes (max, then the smallest index
/// holding it) and marks the winner taken (INT_MIN) during the next round.
/// A tile row that holds one row (a second-minor dim of 1, or rank 1: a
/// `[1, N]` logits row) uses one sublane in eight: its tiles' sublane 0 are
/// gathered by the same DMA into dense tiles (element e at tile e / 1024,
/// sublane e / 128 % 8), so a round visits an eighth of the tiles, and the
/// round's reductions run over lanes and sublanes.
class TopKKernel : Vpu {
public:
  TopKKernel(Lowering &L, hlo::TopKOp op) : Vpu{L}, op(op) {}
  LogicalResult emit();

private:
  void round(Value lane, int64_t resultTile);
  /// The element index of each lane of work tile `t`.
  Value indexOf(Value t);

  hlo::TopKOp op;
  Geometry g;
  /// One row per tile row, gathered into `workTiles` dense tiles of `work`.
  bool dense = false;
  int64_t workTiles = 0;
  VBuf keys, work, best, bestIndex, prev, resultKeys, resultIndices;
  /// Made once before the loops: each lane's index in its work tile (the
  /// lane, plus 128 x the sublane in a dense tile) and INT_MIN.
  Value laneBase, minKey;
  /// A row too long for VMEM: the first column tile of the chunk whose
  /// keys `work` holds; then, for the last rounds, the candidates' indices
  /// (`work` holding the candidates' keys).
  Value chunkStart;
  VBuf candIndices;
  bool indicesInVmem = false;
};

Value TopKKernel::indexOf(Value t) {
  if (indicesInVmem)
    return L.vload(candIndices, L.mul(t, kTile32));
  Value first = L.mul(t, dense ? kSublanes * kLanes : kLanes);
  if (chunkStart)
    first = L.add(first, L.mul(chunkStart, kLanes));
  return addV(laneBase, L.splatIndex(first));
}

LogicalResult TopKKernel::emit() {
  auto inType = cast<RankedTensorType>(op.getOperand().getType());
  auto valuesType = cast<RankedTensorType>(op.getValues().getType());
  Type elem = inType.getElementType();
  if (inType.getRank() == 0)
    return unsupported(op, "of a scalar");
  if (!(elem.isF32() || elem.isBF16() || elem.isInteger(32)))
    return unsupported(op, "of this element type");
  int64_t k = op.getK();
  g = rowGeometry(inType);
  bool row = g.rank == 1;
  if (k > g.cols)
    return unsupported(op, "with k above the row length");
  FailureOr<Value> in = L.memOf(op.getOperand());
  if (failed(in))
    return failure();
  Value outValues = L.allocHbm(valuesType, op.getLoc());
  Value outIndices = L.allocHbm(
      cast<RankedTensorType>(op.getIndices().getType()), op.getLoc());
  L.hbm[op.getValues()] = outValues;
  L.hbm[op.getIndices()] = outIndices;
  if (k == 0 || g.tiles() == 0)
    return success();

  bool isFloat = !elem.isInteger(32);
  Type i32 = L.b.getI32Type(), f32 = L.b.getF32Type();
  int64_t kTiles = ceilDiv(k, kLanes);
  int64_t tb = g.tileBytes(), outTb = geometryOf(valuesType).tileBytes();
  dense = g.rows == 1 && g.colTiles > 1;
  // A tile row whose keys do not fit VMEM (with what the rounds take) is
  // taken in `chunks` chunks of `chunkTiles` column tiles, the buffers of
  // one chunk at most half the VMEM: each chunk's top k (its keys with
  // their row indices) become candidates, whose top k is the row's. A
  // dense row's chunks are whole dense tiles (multiples of 8 tiles).
  int64_t chunkTiles = g.colTiles, chunks = 1;
  {
    auto pg = [](int64_t bytes) { return Lowering::pages(bytes); };
    int64_t fixed = 3 * pg(kTile32) + 2 * pg(kTiles * kTile32) +
                    (isFloat ? pg(kTiles * kTile32) : 0) + pg(kTiles * outTb);
    auto rowBytes = [&](int64_t tiles) {
      return (elem.isBF16() ? pg(tiles * tb) + pg(tiles * kTile32) : 0) +
             pg(tiles * kTile32);
    };
    int64_t vmemBytes = L.spec.machine.vmem_bytes();
    if (dense)
      fixed += pg(ceilDiv(g.colTiles, kSublanes) * kTile32);
    if (L.kernelBytes + fixed + rowBytes(g.colTiles) > vmemBytes) {
      int64_t perTile = (elem.isBF16() ? tb + kTile32 : 0) + kTile32 +
                        (dense ? kTile32 / kSublanes : 0);
      int64_t most = std::max(kTiles, vmemBytes / 2 / perTile);
      if (most < g.colTiles) {
        chunks = ceilDiv(g.colTiles, most);
        chunkTiles = std::max(kTiles, ceilDiv(g.colTiles, chunks));
        // A dense chunk fills whole dense tiles.
        if (dense)
          chunkTiles = llvm::alignTo(chunkTiles, kSublanes);
        if (chunkTiles >= g.colTiles)
          chunks = 1, chunkTiles = g.colTiles;
      }
    }
  }
  VBuf input, floats;
  if (elem.isBF16()) {
    input = L.vmem(elem, chunkTiles * tb);
    floats = L.vmem(f32, chunkTiles * kTile32);
  }
  keys = L.vmem(i32, chunkTiles * kTile32);
  workTiles = dense ? ceilDiv(chunkTiles, kSublanes) : chunkTiles;
  work = dense ? L.vmem(i32, workTiles * kTile32) : keys;
  best = L.vmem(i32, kTile32);
  bestIndex = L.vmem(i32, kTile32);
  prev = L.vmem(i32, kTile32);
  resultKeys = L.vmem(i32, kTiles * kTile32);
  resultIndices = L.vmem(i32, kTiles * kTile32);
  VBuf resultFloats = isFloat ? L.vmem(f32, kTiles * kTile32) : VBuf();
  VBuf outStaging = L.vmem(elem, kTiles * outTb);
  VBuf candKeys;
  if (chunks > 1) {
    candKeys = L.vmem(i32, chunks * kTiles * kTile32);
    candIndices = L.vmem(i32, chunks * kTiles * kTile32);
  }
  bool largest = op.getLargest();
  int64_t ragged = g.cols % kLanes;
  laneBase = laneIds();
  if (dense)
    laneBase = addV(laneBase, tpu::VMulOp::create(L.b, L.loc, sublaneIds(),
                                                  splatI(kLanes)));
  minKey = splatI(INT_MIN);

  // The keys of `tiles` column tiles from byte `off` of the input into
  // `work`.
  auto loadKeys = [&](Value off, int64_t tiles) {
    // Keys: f32 bits (bf16 widened by a VPU pass) -> total order; s32 as
    // they are. A VMEM -> VMEM DMA reinterprets the f32 bits as s32 (and
    // gathers a one-row tile row's sublanes 0 into dense tiles).
    bool widen = elem.isBF16();
    if (widen) {
      copyIn(*in, off, input, tiles, tb, row, row ? L.splatF32(0) : Value());
      L.wait(0, 1);
      L.loop(tiles, [&](Value t) {
        L.vstore(L.vload(input, L.mul(t, tb)), floats, L.mul(t, kTile32));
      });
    } else {
      copyIn(*in, off, keys, tiles, tb, row, row ? splatI(0) : Value());
    }
    const VBuf &bits = widen ? floats : keys;
    if (dense) {
      if (tiles % kSublanes) // the last dense tile's tail is defined
        L.vstore(splatI(0), work, L.c((workTiles - 1) * kTile32));
      if (!widen) // copyIn's DMA (the widened floats are stored already)
        L.wait(0, 1);
      L.dma(bits.arena, L.c(bits.offset), work.arena, L.c(work.offset), tiles,
            kLanes * 4, kTile32, kLanes * 4, 0);
    } else if (widen) {
      L.dma(bits.arena, L.c(bits.offset), keys.arena, L.c(keys.offset), 1,
            tiles * kTile32, 0, 0, 0);
    }
    L.wait(0, 1);
    // Past the row (the ragged last lanes, a dense tile's tail) nothing can
    // win.
    bool masked = dense && chunks == 1 ? workTiles * kSublanes * kLanes > g.cols
                                       : ragged != 0;
    L.loop(workTiles, [&](Value t) {
      Value x = L.vload(work, L.mul(t, kTile32));
      if (isFloat)
        x = totalOrder(x);
      if (!largest)
        x = subV(splatI(-1), x);
      if (masked)
        x = L.vsel(L.vcmp(tpu::CmpKind::lt, indexOf(t), splatI(g.cols)), x,
                   minKey);
      L.vstore(x, work, L.mul(t, kTile32));
    });
  };
  // k rounds over `work`, the results' keys starting as `init`.
  auto rounds = [&](int64_t init) {
    L.vstore(splatI(-1), prev, L.c(0));
    for (int64_t t = 0; t < kTiles; ++t) {
      L.vstore(splatI(init), resultKeys, L.c(t * kTile32));
      L.vstore(splatI(0), resultIndices, L.c(t * kTile32));
    }
    for (int64_t t = 0; t < kTiles; ++t)
      L.loop(std::min(kLanes, k - t * kLanes),
             [&](Value lane) { round(lane, t); });
  };

  L.loop(g.outer * g.rowTiles, [&](Value tr) {
    Value rowOff = L.mul(tr, g.colTiles * tb);
    if (chunks == 1) {
      loadKeys(rowOff, g.colTiles);
      rounds(0);
    } else {
      // Chunk c from column tile c * chunkTiles, the last one ending the
      // row (so starting earlier: an element of both chunks may be a
      // candidate twice, with one index, and the round that takes it
      // marks both). Its top k (lanes past k: INT_MIN) go to candidates
      // c * kTiles on, with their indices.
      int64_t overlap = chunks * chunkTiles - g.colTiles;
      workTiles = dense ? chunkTiles / kSublanes : chunkTiles;
      L.loop(chunks, [&](Value c) {
        chunkStart =
            L.sub(L.mul(c, chunkTiles), L.mul(L.div(c, chunks - 1), overlap));
        // A rank-1 row's column tiles are 128 elements apart in HBM.
        loadKeys(L.add(rowOff, L.mul(chunkStart, row ? tb / kSublanes : tb)),
                 chunkTiles);
        rounds(INT_MIN);
        Value at = L.mul(c, kTiles * kTile32);
        for (int64_t t = 0; t < kTiles; ++t) {
          L.vstore(L.vload(resultKeys, L.c(t * kTile32)), candKeys,
                   L.add(at, t * kTile32));
          L.vstore(L.vload(resultIndices, L.c(t * kTile32)), candIndices,
                   L.add(at, t * kTile32));
        }
      });
      chunkStart = Value();
      // The candidates in chunk order: of equal keys, the one of the
      // smallest index comes first in its lane, as round() wants.
      VBuf keysBuf = work;
      work = candKeys;
      workTiles = chunks * kTiles;
      indicesInVmem = true;
      rounds(0);
      work = keysBuf;
      indicesInVmem = false;
    }

    // Keys back to values: undo the negation and the total order.
    for (int64_t t = 0; t < kTiles; ++t) {
      Value x = L.vload(resultKeys, L.c(t * kTile32));
      if (!largest)
        x = subV(splatI(-1), x);
      if (isFloat)
        x = totalOrder(x);
      L.vstore(x, isFloat ? resultKeys : outStaging,
               L.c(t * (isFloat ? kTile32 : outTb)));
    }
    if (isFloat) {
      L.dma(resultKeys.arena, L.c(resultKeys.offset), resultFloats.arena,
            L.c(resultFloats.offset), 1, kTiles * kTile32, 0, 0, 0);
      L.wait(0, 1);
      for (int64_t t = 0; t < kTiles; ++t)
        L.vstore(L.vload(resultFloats, L.c(t * kTile32)), outStaging,
                 L.c(t * outTb));
    }
    copyOut(outStaging, outValues, L.mul(tr, kTiles * outTb), kTiles, outTb,
            row);
    copyOut(resultIndices, outIndices, L.mul(tr, kTiles * kTile32), kTiles,
            kTile32, row);
    L.wait(1, 2);
  });
  return success();
}

/// One round: the next key of each row and its first index, recorded in
/// lane `lane` of result tile `resultTile`.
void TopKKernel::round(Value lane, int64_t resultTile) {
  Value taken = L.vload(prev, L.c(0));
  auto visit = [&](Value t, bool first) {
    Value off = L.mul(t, kTile32);
    Value index = indexOf(t);
    Value x = L.vsel(L.vcmp(tpu::CmpKind::eq, index, taken), minKey,
                     L.vload(work, off));
    L.vstore(x, work, off);
    if (first) {
      L.vstore(x, best, L.c(0));
      L.vstore(index, bestIndex, L.c(0));
      return;
    }
    // Strictly greater: an equal key at a later index does not win.
    Value m = L.vload(best, L.c(0));
    Value better = L.vcmp(tpu::CmpKind::gt, x, m);
    L.vstore(L.vsel(better, x, m), best, L.c(0));
    L.vstore(L.vsel(better, index, L.vload(bestIndex, L.c(0))), bestIndex,
             L.c(0));
  };
  visit(L.c(0), true);
  L.loop(workTiles - 1, [&](Value t) { visit(L.add(t, 1), false); });

  // The lanes' (and a dense row's sublanes') max, then the smallest index
  // holding it.
  auto reduce = [&](tpu::ReduceKind kind, Value x) -> Value {
    x = tpu::VReduceLanesOp::create(L.b, L.loc, kind, x);
    return dense ? tpu::VReduceSublanesOp::create(L.b, L.loc, kind, x) : x;
  };
  Value m = L.vload(best, L.c(0));
  Value top = reduce(tpu::ReduceKind::max, m);
  Value index = reduce(
      tpu::ReduceKind::min,
      L.vsel(L.vcmp(tpu::CmpKind::eq, m, top), L.vload(bestIndex, L.c(0)),
             splatI(INT_MAX)));
  L.vstore(index, prev, L.c(0));
  Value here = L.vcmp(tpu::CmpKind::eq, laneIds(), L.splatIndex(lane));
  Value off = L.c(resultTile * kTile32);
  L.vstore(L.vsel(here, top, L.vload(resultKeys, off)), resultKeys, off);
  L.vstore(L.vsel(here, index, L.vload(resultIndices, off)), resultIndices,
           off);
}

} // namespace

LogicalResult Lowering::lowerSort(hlo::SortOp op) {
  FailureOr<SortOrder> order = matchComparator(op);
  if (failed(order))
    return failure();
  return SortKernel(*this, op, *order).emit();
}

LogicalResult Lowering::lowerTopK(hlo::TopKOp op) {
  return TopKKernel(*this, op).emit();
}

void populateSortPatterns(RewritePatternSet &patterns, Lowering &l) {
  l.addKernel(patterns, &Lowering::lowerSort);
  l.addKernel(patterns, &Lowering::lowerTopK);
}

} // namespace tpuc::hlotpu
