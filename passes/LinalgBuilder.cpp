//===- LinalgBuilder.cpp - batched matrix helpers for the expanders -------===//

#include "passes/LinalgBuilder.h"

#include "dialects/hlo/HloOps.h"

#include <numeric>

namespace tpuc {
using namespace mlir;

namespace {
Attribute elementAttr(OpBuilder &b, Type elem, double v) {
  if (isa<FloatType>(elem))
    return b.getFloatAttr(elem, v);
  if (elem.isInteger(1))
    return b.getBoolAttr(v != 0);
  return b.getIntegerAttr(elem, static_cast<int64_t>(v));
}
} // namespace

Value LinalgBuilder::index(int64_t v) {
  return splat(RankedTensorType::get({}, b.getI32Type()),
               static_cast<double>(v));
}

Value LinalgBuilder::splat(RankedTensorType type, double v) {
  return hlo::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(type, elementAttr(b, type.getElementType(), v)));
}

Value LinalgBuilder::matrix(Type elem, int64_t rows, int64_t cols,
                            const std::function<double(int64_t, int64_t)> &f) {
  SmallVector<Attribute> values;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      values.push_back(elementAttr(b, elem, f(r, c)));
  auto type = RankedTensorType::get({rows, cols}, elem);
  return hlo::ConstantOp::create(b, loc, DenseElementsAttr::get(type, values));
}

Value LinalgBuilder::broadcastMatrix(Value m, ArrayRef<int64_t> shape) {
  int64_t rank = shape.size();
  if (rank == 2)
    return m;
  auto type = RankedTensorType::get(shape, tensorType(m).getElementType());
  return hlo::BroadcastInDimOp::create(
      b, loc, type, m, b.getDenseI64ArrayAttr({rank - 2, rank - 1}));
}

Value LinalgBuilder::sliceMinor(Value x, int64_t r0, int64_t c0, int64_t r1,
                                int64_t c1) {
  ArrayRef<int64_t> shape = tensorType(x).getShape();
  int64_t rank = shape.size();
  SmallVector<int64_t> start(rank, 0), limit(shape), strides(rank, 1);
  start[rank - 2] = r0;
  start[rank - 1] = c0;
  limit[rank - 2] = r1;
  limit[rank - 1] = c1;
  if (start == SmallVector<int64_t>(rank, 0) &&
      limit == SmallVector<int64_t>(shape))
    return x;
  return hlo::SliceOp::create(b, loc, x, b.getDenseI64ArrayAttr(start),
                              b.getDenseI64ArrayAttr(limit),
                              b.getDenseI64ArrayAttr(strides));
}

Value LinalgBuilder::updateSliceMinor(Value x, Value update, int64_t r,
                                      int64_t c) {
  if (tensorType(x) == tensorType(update))
    return update;
  int64_t rank = tensorType(x).getRank();
  SmallVector<Value> starts(rank - 2, index(0));
  starts.push_back(index(r));
  starts.push_back(index(c));
  return hlo::DynamicUpdateSliceOp::create(b, loc, x, update, starts);
}

Value LinalgBuilder::dynamicSliceMinor(Value x, Value i, Value j, int64_t rows,
                                       int64_t cols) {
  ArrayRef<int64_t> shape = tensorType(x).getShape();
  int64_t rank = shape.size();
  SmallVector<Value> starts(rank - 2, index(0));
  starts.push_back(i);
  starts.push_back(j);
  SmallVector<int64_t> sizes(shape);
  sizes[rank - 2] = rows;
  sizes[rank - 1] = cols;
  return hlo::DynamicSliceOp::create(b, loc, x, starts,
                                     b.getDenseI64ArrayAttr(sizes));
}

Value LinalgBuilder::transposeMinor(Value x) {
  int64_t rank = tensorType(x).getRank();
  SmallVector<int64_t> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[rank - 2], perm[rank - 1]);
  return hlo::TransposeOp::create(b, loc, x, b.getDenseI64ArrayAttr(perm));
}

Value LinalgBuilder::broadcastTo(Value x, RankedTensorType type,
                                 ArrayRef<int64_t> dims) {
  if (x.getType() == type)
    return x;
  return hlo::BroadcastInDimOp::create(b, loc, type, x,
                                       b.getDenseI64ArrayAttr(dims));
}

Value LinalgBuilder::batchDot(Value x, bool transposeX, Value y,
                              bool transposeY) {
  RankedTensorType xt = tensorType(x), yt = tensorType(y);
  int64_t rank = xt.getRank();
  SmallVector<int64_t> batch(rank - 2);
  std::iota(batch.begin(), batch.end(), 0);
  int64_t xc = transposeX ? rank - 2 : rank - 1;
  int64_t yc = transposeY ? rank - 1 : rank - 2;
  SmallVector<int64_t> shape(xt.getShape().take_front(rank - 2));
  shape.push_back(xt.getDimSize(transposeX ? rank - 1 : rank - 2));
  shape.push_back(yt.getDimSize(transposeY ? rank - 2 : rank - 1));
  auto dims = hlo::DotDimensionNumbersAttr::get(b.getContext(), batch, batch,
                                                {xc}, {yc});
  Attribute highest =
      hlo::PrecisionAttr::get(b.getContext(), hlo::Precision::HIGHEST);
  return hlo::DotGeneralOp::create(b, loc, xt.clone(shape), x, y, dims,
                                   b.getArrayAttr({highest, highest}));
}

Value LinalgBuilder::iotaLike(Value x, int64_t dim) {
  auto type = RankedTensorType::get(tensorType(x).getShape(), b.getI32Type());
  return hlo::IotaOp::create(b, loc, type, dim);
}

Value LinalgBuilder::triangleMask(Value x, int64_t diagonal) {
  int64_t rank = tensorType(x).getRank();
  Value row = iotaLike(x, rank - 2), col = iotaLike(x, rank - 1);
  if (diagonal != 0)
    row = hlo::AddOp::create(b, loc, row, splat(tensorType(row), diagonal));
  return hlo::CompareOp::create(b, loc, hlo::ComparisonDirection::GE, row, col,
                                hlo::ComparisonTypeAttr());
}

Value LinalgBuilder::triangle(Value x, bool lower) {
  Value zeros = splat(tensorType(x), 0);
  return lower ? hlo::SelectOp::create(b, loc, triangleMask(x, 0), x, zeros)
               : hlo::SelectOp::create(b, loc, triangleMask(x, -1), zeros, x);
}

Value LinalgBuilder::diagonal(Value x) {
  RankedTensorType type = tensorType(x);
  int64_t rank = type.getRank();
  Value eye = hlo::CompareOp::create(
      b, loc, hlo::ComparisonDirection::EQ, iotaLike(x, rank - 2),
      iotaLike(x, rank - 1), hlo::ComparisonTypeAttr());
  Value masked = hlo::SelectOp::create(b, loc, eye, x, splat(type, 0));
  // The sum of one value and zeros: exact.
  auto scalar = RankedTensorType::get({}, type.getElementType());
  auto reduce = hlo::ReduceOp::create(b, loc, ValueRange{masked},
                                      ValueRange{splat(scalar, 0)},
                                      b.getDenseI64ArrayAttr({rank - 1}));
  Block *block = new Block();
  reduce.getBody().push_back(block);
  block->addArguments({scalar, scalar}, {loc, loc});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(block);
  Value sum =
      hlo::AddOp::create(b, loc, block->getArgument(0), block->getArgument(1));
  hlo::ReturnOp::create(b, loc, sum);
  return reduce.getResult(0);
}

Value LinalgBuilder::isNan(Value x) {
  return hlo::CompareOp::create(b, loc, hlo::ComparisonDirection::NE, x, x,
                                hlo::ComparisonTypeAttr());
}

SmallVector<Value> LinalgBuilder::forEachIndex(int64_t begin, int64_t end,
                                               ArrayRef<Value> init,
                                               const LoopBody &body) {
  SmallVector<Value> operands{index(begin)};
  operands.append(init.begin(), init.end());
  auto loop =
      hlo::WhileOp::create(b, loc, operands, ArrayRef<NamedAttribute>{});
  SmallVector<Type> types;
  SmallVector<Location> locs;
  for (Value v : operands) {
    types.push_back(v.getType());
    locs.push_back(loc);
  }
  OpBuilder::InsertionGuard guard(b);
  Block *cond = b.createBlock(&loop.getCond(), {}, types, locs);
  Value lt = hlo::CompareOp::create(b, loc, hlo::ComparisonDirection::LT,
                                    cond->getArgument(0), index(end),
                                    hlo::ComparisonTypeAttr());
  hlo::ReturnOp::create(b, loc, lt);
  Block *step = b.createBlock(&loop.getBody(), {}, types, locs);
  Value i = step->getArgument(0);
  SmallVector<Value> state(step->getArguments().drop_front());
  SmallVector<Value> next{hlo::AddOp::create(b, loc, i, index(1))};
  next.append(body(i, state));
  hlo::ReturnOp::create(b, loc, next);
  return SmallVector<Value>(loop.getResults().drop_front());
}

} // namespace tpuc
