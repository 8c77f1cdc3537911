//===- ExpandTriangularSolve.cpp - XLA's TriangularSolveExpander ----------===//
//
// tpuc-expand-triangular-solve: hlo.triangular_solve becomes what XLA's
// TriangularSolveExpander (block size 128) builds: for a batch of small
// matrices (batch > 8, m < 32) the unrolled row-by-row substitution
// (SolveDirectly); otherwise the diagonal blocks of a are inverted at once
// (an hlo.while of batched row-times-block products) and the solution is
// assembled block by block with matrix products
// (SolveByInvertingDiagonalBlocks). See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/LinalgBuilder.h"

#include "dialects/hlo/HloOps.h"

#include <numeric>

namespace tpuc {
#define GEN_PASS_DEF_EXPANDTRIANGULARSOLVE
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// TriangularSolveExpander's default block size.
constexpr int64_t kBlockSize = 128;

SmallVector<int64_t> identityDims(int64_t rank) {
  SmallVector<int64_t> dims(rank);
  std::iota(dims.begin(), dims.end(), 0);
  return dims;
}

struct Options {
  bool leftSide, lower, unitDiagonal, transposeA;
};

/// x - y, or x when y is null.
Value minus(OpBuilder &b, Location loc, Value x, Value y) {
  return y ? Value(hlo::SubtractOp::create(b, loc, x, y)) : x;
}

/// XLA's SolveDirectly (trsm_left_lower_leftlooking and its mirrors),
/// unrolled over the rows (columns) of b.
Value solveDirectly(LinalgBuilder &lb, Value a, Value bv, const Options &o) {
  OpBuilder &b = lb.builder();
  Location loc = a.getLoc();
  int64_t rank = tensorType(bv).getRank();
  int64_t m = tensorType(bv).getDimSize(rank - 2);
  int64_t n = tensorType(bv).getDimSize(rank - 1);
  int64_t size = tensorType(a).getShape().back();
  bool backwards = o.transposeA ^ o.lower ^ !o.leftSide;
  for (int64_t i = 0; i < size; ++i) {
    int64_t j = backwards ? i : size - i - 1;
    int64_t r0 = 0, c0 = 0, r1 = m, c1 = n;
    if (o.leftSide) {
      r0 = j;
      r1 = j + 1;
    } else {
      c0 = j;
      c1 = j + 1;
    }
    Value row = lb.sliceMinor(bv, r0, c0, r1, c1);
    int64_t ar0 = j, ac0 = backwards ? 0 : j + 1, ar1 = j + 1,
            ac1 = backwards ? j : size;
    if (o.transposeA ^ !o.leftSide) {
      std::swap(ar0, ac0);
      std::swap(ar1, ac1);
    }
    // An empty chunk (the first row solved) contributes nothing.
    if (ar1 > ar0 && ac1 > ac0) {
      Value chunk = lb.sliceMinor(a, ar0, ac0, ar1, ac1);
      Value product;
      if (o.leftSide) {
        bool which = o.transposeA ^ o.lower;
        Value bChunk =
            lb.sliceMinor(bv, which ? 0 : j + 1, 0, which ? j : m, n);
        product = lb.batchDot(chunk, o.transposeA, bChunk, false);
      } else {
        bool which = o.transposeA ^ !o.lower;
        Value bChunk =
            lb.sliceMinor(bv, 0, which ? 0 : j + 1, m, which ? j : n);
        product = lb.batchDot(bChunk, false, chunk, o.transposeA);
      }
      row = minus(b, loc, row, product);
    }
    if (!o.unitDiagonal) {
      Value d = lb.sliceMinor(a, j, j, j + 1, j + 1);
      row = hlo::DivideOp::create(
          b, loc, row, lb.broadcastTo(d, tensorType(row), identityDims(rank)));
    }
    bv = lb.updateSliceMinor(bv, row, r0, c0);
  }
  return bv;
}

/// XLA's DiagonalBlocks: a's diagonal blocks as [..., blocks, size, size],
/// the last one padded with the identity.
Value diagonalBlocks(LinalgBuilder &lb, Value a, int64_t size) {
  OpBuilder &b = lb.builder();
  Location loc = a.getLoc();
  RankedTensorType type = tensorType(a);
  int64_t rank = type.getRank(), n = type.getShape().back();
  Type elem = type.getElementType();
  SmallVector<int64_t> batch(type.getShape().take_front(rank - 2));
  auto asBlock = [&](Value block) -> Value {
    SmallVector<int64_t> shape(batch);
    shape.append({1, size, size});
    return hlo::ReshapeOp::create(b, loc, RankedTensorType::get(shape, elem),
                                  block);
  };
  SmallVector<Value> blocks;
  for (int64_t i = 0; i + size <= n; i += size)
    blocks.push_back(asBlock(lb.sliceMinor(a, i, i, i + size, i + size)));
  if (int64_t rest = n % size) {
    Value last = lb.sliceMinor(a, n - rest, n - rest, n, n);
    SmallVector<int64_t> lo(rank, 0), hi(rank, 0);
    hi[rank - 2] = hi[rank - 1] = size - rest;
    last = hlo::PadOp::create(
        b, loc, last, lb.splat(RankedTensorType::get({}, elem), 0),
        b.getDenseI64ArrayAttr(lo), b.getDenseI64ArrayAttr(hi),
        b.getDenseI64ArrayAttr(SmallVector<int64_t>(rank, 0)));
    Value eye = lb.matrix(elem, size, size, [&](int64_t r, int64_t c) {
      return r == c && r >= rest ? 1.0 : 0.0;
    });
    last = hlo::AddOp::create(
        b, loc, last, lb.broadcastMatrix(eye, tensorType(last).getShape()));
    blocks.push_back(asBlock(last));
  }
  if (blocks.size() == 1)
    return blocks.front();
  return hlo::ConcatenateOp::create(b, loc, blocks, rank - 2);
}

/// XLA's InvertDiagonalBlocks: the inverses of the lower (upper) triangular
/// blocks ([..., size, size]), one row per trip of an hlo.while over all
/// blocks at once.
Value invertDiagonalBlocks(LinalgBuilder &lb, Value blocks, bool lower) {
  OpBuilder &b = lb.builder();
  Location loc = blocks.getLoc();
  RankedTensorType type = tensorType(blocks);
  Type elem = type.getElementType();
  int64_t size = type.getShape().back();
  int64_t count = type.getNumElements() / (size * size);
  auto flat = RankedTensorType::get({count, size, size}, elem);
  Value x = hlo::ReshapeOp::create(b, loc, flat, blocks);
  x = lb.triangle(x, lower);
  // Unit triangular: column c divided by its diagonal element.
  Value diags = lb.diagonal(x);
  Value scaled = hlo::DivideOp::create(
      b, loc, x, lb.broadcastTo(diags, flat, ArrayRef<int64_t>{0, 2}));
  // diag(1, -1, ..., -1) (the 1 last for upper): each trip computes one
  // row [L21 L22 0] <- -[L21 L22 0] @ diag([L11', -I, -I]).
  int64_t start = lower ? 0 : size - 1;
  Value out = lb.matrix(elem, size, size, [&](int64_t r, int64_t c) {
    return r != c ? 0.0 : r == start ? 1.0 : -1.0;
  });
  out = lb.broadcastTo(out, flat, ArrayRef<int64_t>{1, 2});
  SmallVector<Value> result = lb.forEachIndex(
      1, size, {out, scaled},
      [&](Value i, ArrayRef<Value> state) -> SmallVector<Value> {
        Value body = state[0], input = state[1];
        Value j =
            lower
                ? i
                : Value(hlo::SubtractOp::create(b, loc, lb.index(size - 1), i));
        Value zero = lb.index(0);
        Value row = hlo::DynamicSliceOp::create(
            b, loc, input, ValueRange{zero, j, zero},
            b.getDenseI64ArrayAttr({count, 1, size}));
        auto dims = hlo::DotDimensionNumbersAttr::get(b.getContext(), {0}, {0},
                                                      {2}, {1});
        Attribute highest =
            hlo::PrecisionAttr::get(b.getContext(), hlo::Precision::HIGHEST);
        Value update = hlo::NegOp::create(
            b, loc,
            hlo::DotGeneralOp::create(b, loc, tensorType(row), row, body, dims,
                                      b.getArrayAttr({highest, highest})));
        body = hlo::DynamicUpdateSliceOp::create(b, loc, body, update,
                                                 ValueRange{zero, j, zero});
        return {body, input};
      });
  // Undo the scaling: row r divided by its diagonal element.
  Value inv = hlo::DivideOp::create(
      b, loc, result[0], lb.broadcastTo(diags, flat, ArrayRef<int64_t>{0, 1}));
  return hlo::ReshapeOp::create(b, loc, type, inv);
}

/// XLA's SolveWithInvertedDiagonalBlocks: block rows of the solution, each
/// the inverted diagonal block times b's block row minus what the solved
/// blocks contribute.
Value solveWithInvertedBlocks(LinalgBuilder &lb, Value a, Value bv, Value inv,
                              const Options &o) {
  OpBuilder &b = lb.builder();
  Location loc = a.getLoc();
  RankedTensorType invType = tensorType(inv);
  int64_t size = invType.getShape().back();
  RankedTensorType aType = tensorType(a);
  int64_t rank = aType.getRank(), n = aType.getShape().back();
  int64_t blocks = n / size + (n % size != 0);
  int64_t m = tensorType(bv).getDimSize(o.leftSide ? rank - 1 : rank - 2);
  int64_t blockDim = o.leftSide ? rank - 2 : rank - 1;
  SmallVector<int64_t> batch(aType.getShape().take_front(rank - 2));
  Value x;
  for (int64_t i = 0; i < blocks; ++i) {
    bool backward = o.leftSide ^ o.lower ^ o.transposeA;
    int64_t j = backward ? blocks - 1 - i : i;
    int64_t block = (n % size != 0 && j + 1 == blocks) ? n % size : size;
    // inv[..., j, :block, :block] as [..., block, block].
    SmallVector<int64_t> start(rank + 1, 0), limit(invType.getShape()),
        strides(rank + 1, 1);
    start[rank - 2] = j;
    limit[rank - 2] = j + 1;
    limit[rank - 1] = limit[rank] = block;
    Value invBlock = hlo::SliceOp::create(
        b, loc, inv, b.getDenseI64ArrayAttr(start),
        b.getDenseI64ArrayAttr(limit), b.getDenseI64ArrayAttr(strides));
    SmallVector<int64_t> blockShape(batch);
    blockShape.append({block, block});
    invBlock = hlo::ReshapeOp::create(
        b, loc, RankedTensorType::get(blockShape, aType.getElementType()),
        invBlock);

    int64_t k = std::min((j + 1) * size, n);
    int64_t r0 = j * size, c0 = 0, r1 = k, c1 = m;
    if (!o.leftSide) {
      std::swap(r0, c0);
      std::swap(r1, c1);
    }
    Value remainder = lb.sliceMinor(bv, r0, c0, r1, c1);
    if (i > 0) {
      int64_t ar0, ac0, ar1, ac1;
      if (backward) {
        ar0 = j * size;
        ac0 = std::max<int64_t>(0, (blocks - i) * size);
        ar1 = k;
        ac1 = n;
      } else {
        ar0 = j * size;
        ac0 = 0;
        ar1 = k;
        ac1 = std::min(i * size, n);
      }
      if (!o.leftSide ^ o.transposeA) {
        std::swap(ar0, ac0);
        std::swap(ar1, ac1);
      }
      Value aRow = lb.sliceMinor(a, ar0, ac0, ar1, ac1);
      remainder = minus(b, loc, remainder,
                        o.leftSide ? lb.batchDot(aRow, o.transposeA, x, false)
                                   : lb.batchDot(x, false, aRow, o.transposeA));
    }
    Value update = o.leftSide
                       ? lb.batchDot(invBlock, o.transposeA, remainder, false)
                       : lb.batchDot(remainder, false, invBlock, o.transposeA);
    if (i == 0)
      x = update;
    else if (backward)
      x = hlo::ConcatenateOp::create(b, loc, ValueRange{update, x}, blockDim);
    else
      x = hlo::ConcatenateOp::create(b, loc, ValueRange{x, update}, blockDim);
  }
  return x;
}

/// XLA's SolveByInvertingDiagonalBlocks.
Value solveByInvertingDiagonalBlocks(LinalgBuilder &lb, Value a, Value bv,
                                     const Options &o) {
  OpBuilder &b = lb.builder();
  Location loc = a.getLoc();
  RankedTensorType type = tensorType(a);
  int64_t k = type.getShape().back();
  if (o.unitDiagonal) {
    // The strictly lower (upper) triangle plus the identity.
    Value zeros = lb.splat(type, 0);
    a = o.lower
            ? hlo::SelectOp::create(b, loc, lb.triangleMask(a, -1), a, zeros)
            : hlo::SelectOp::create(b, loc, lb.triangleMask(a, 0), zeros, a);
    Value eye = lb.matrix(type.getElementType(), k, k,
                          [](int64_t r, int64_t c) { return r == c; });
    a = hlo::AddOp::create(b, loc, a, lb.broadcastMatrix(eye, type.getShape()));
  } else {
    a = lb.triangle(a, o.lower);
  }
  int64_t size = std::min(kBlockSize, k);
  Value inv = invertDiagonalBlocks(lb, diagonalBlocks(lb, a, size), o.lower);
  return solveWithInvertedBlocks(lb, a, bv, inv, o);
}

void expand(hlo::TriangularSolveOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  LinalgBuilder lb(b, loc);
  Value a = op.getA(), bv = op.getB();
  RankedTensorType aType = tensorType(a), bType = tensorType(bv);
  Options o{op.getLeftSide(), op.getLower(), op.getUnitDiagonal(),
            op.getTransposeA()};
  int64_t rank = aType.getRank(), size = aType.getShape().back();
  int64_t batch = 1;
  for (int64_t d : aType.getShape().drop_back(2))
    batch *= d;
  Value result;
  if (bType.getNumElements() == 0) {
    result = bv;
  } else if (size == 1) {
    result =
        o.unitDiagonal
            ? bv
            : Value(hlo::DivideOp::create(
                  b, loc, bv, lb.broadcastTo(a, bType, identityDims(rank))));
  } else if (batch > kBlockSize / 16 && size < kBlockSize / 4) {
    result = solveDirectly(lb, a, bv, o);
  } else {
    result = solveByInvertingDiagonalBlocks(lb, a, bv, o);
  }
  op.getResult().replaceAllUsesWith(result);
  op.erase();
}

class ExpandTriangularSolvePass
    : public impl::ExpandTriangularSolveBase<ExpandTriangularSolvePass> {
public:
  void runOnOperation() override {
    SmallVector<hlo::TriangularSolveOp> ops;
    getOperation()->walk([&](hlo::TriangularSolveOp op) { ops.push_back(op); });
    for (hlo::TriangularSolveOp op : ops)
      expand(op);
  }
};
} // namespace
} // namespace tpuc
