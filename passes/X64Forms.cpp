//===- X64Forms.cpp - 64-bit converts, reduces, dots and sorts ------------===//
//
// The Expander's forms of the ops that need more than X64Builder's
// elementwise word forms: converts between 64-bit integers and the other
// types, reduces (add, max, min, bitwise), dot_generals, convolutions and
// sorts with 64-bit operands.
//
//===----------------------------------------------------------------------===//

#include "passes/X64Expander.h"

namespace tpuc::x64 {
using namespace mlir;
using hlo::ComparisonDirection;

LogicalResult Expander::expandConvert(hlo::ConvertOp op) {
  X64Builder x(b, op.getLoc());
  Value in = op.getOperand(), out = op.getResult();
  Type from = tensorType(in).getElementType();
  Type to = tensorType(out).getElementType();
  if (isX64(in.getType()) && isX64(out.getType())) {
    map(out, get(in));
    return success();
  }
  if (isX64(out.getType())) {
    if (isa<FloatType>(from)) {
      if (!from.isF32())
        in = hlo::ConvertOp::create(b, op.getLoc(),
                                    withElement(in, b.getF32Type()), in);
      map(out, x.fromF32(in, isUnsigned64(out)));
    } else {
      map(out, x.extend(x.toI32(in),
                        !from.isUnsignedInteger() && !from.isInteger(1)));
    }
    return success();
  }
  WordPair w = get(in);
  Value r;
  if (to.isInteger(1))
    r = x.nonzero(w);
  else if (isa<FloatType>(to))
    r = x.toF32(w, isUnsigned64(in));
  else
    r = w.lo;
  if (r.getType() != out.getType()) {
    if (to.isUnsignedInteger(32))
      r = hlo::BitcastConvertOp::create(b, op.getLoc(), out.getType(), r);
    else
      r = hlo::ConvertOp::create(b, op.getLoc(), out.getType(), r);
  }
  out.replaceAllUsesWith(r);
  return success();
}

namespace {
/// The binary op `kind` of l and r (of l's type).
Value createBinary(OpBuilder &b, Location loc, StringRef kind, Value l,
                   Value r) {
  OperationState state(loc, kind);
  state.addOperands({l, r});
  state.addTypes(l.getType());
  return b.create(state)->getResult(0);
}
} // namespace

/// A reduce of i32 `x` over `dims` with one binary op `kind`.
Value Expander::reduce32(Value x, int32_t init, ArrayRef<int64_t> dims,
                         StringRef kind) {
  X64Builder xb(b, x.getLoc());
  Location loc = x.getLoc();
  auto reduce = hlo::ReduceOp::create(b, loc, ValueRange{x},
                                      ValueRange{xb.splat({}, init)},
                                      b.getDenseI64ArrayAttr(dims));
  Block *block = new Block();
  reduce.getBody().push_back(block);
  auto scalar = RankedTensorType::get({}, b.getI32Type());
  block->addArguments({scalar, scalar}, {loc, loc});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(block);
  hlo::ReturnOp::create(
      b, loc,
      createBinary(b, loc, kind, block->getArgument(0), block->getArgument(1)));
  return reduce.getResult(0);
}

/// The sum of `in` over `dims` (`count` elements per result): the low
/// words in 16-bit halves, whose sums cannot overflow 32 bits for up to
/// 65536 elements, and the high words, each an s32 add-reduce, recombined
/// with carries.
FailureOr<WordPair> Expander::sum(Operation *op, WordPair in,
                                  ArrayRef<int64_t> dims, int64_t count) {
  if (count > 65536)
    return op->emitError() << "tpuc emulates a 64-bit integer sum of at "
                              "most 65536 elements per result, not "
                           << count;
  X64Builder x(b, op->getLoc());
  Location loc = op->getLoc();
  StringRef kind = hlo::AddOp::getOperationName();
  auto c16 = x.splatLike(in.lo, 16);
  Value low =
      reduce32(hlo::AndOp::create(b, loc, in.lo, x.splatLike(in.lo, 0xffff)), 0,
               dims, kind);
  Value mid = reduce32(hlo::ShiftRightLogicalOp::create(b, loc, in.lo, c16), 0,
                       dims, kind);
  Value high = reduce32(in.hi, 0, dims, kind);
  auto m16 = x.splatLike(mid, 16);
  WordPair total = x.add(x.extend(low, false),
                         {hlo::ShiftLeftOp::create(b, loc, mid, m16),
                          hlo::ShiftRightLogicalOp::create(b, loc, mid, m16)});
  total.hi = hlo::AddOp::create(b, loc, total.hi, high);
  return total;
}

/// The dot_general of 64-bit words l and r: each word of both operands
/// transposed and broadcast to the product space [batch, lhs free, rhs
/// free, contracting], multiplied (the word form) and summed over the
/// contracting dimensions.
FailureOr<WordPair> Expander::dot(Operation *op, WordPair l, WordPair r,
                                  hlo::DotDimensionNumbersAttr dn) {
  Location loc = op->getLoc();
  // Each operand's dimensions in product order: batch, free, contracting.
  auto order = [](RankedTensorType type, ArrayRef<int64_t> batch,
                  ArrayRef<int64_t> contracting) {
    SmallVector<int64_t> perm(batch);
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (!llvm::is_contained(batch, d) && !llvm::is_contained(contracting, d))
        perm.push_back(d);
    perm.append(contracting.begin(), contracting.end());
    return perm;
  };
  RankedTensorType lt = tensorType(l.lo), rt = tensorType(r.lo);
  SmallVector<int64_t> lp = order(lt, dn.getLhsBatch(), dn.getLhsContracting());
  SmallVector<int64_t> rp = order(rt, dn.getRhsBatch(), dn.getRhsContracting());
  int64_t nb = dn.getLhsBatch().size(), nk = dn.getLhsContracting().size();
  int64_t nm = lt.getRank() - nb - nk, nn = rt.getRank() - nb - nk;
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < nb + nm; ++i)
    shape.push_back(lt.getDimSize(lp[i]));
  for (int64_t i = nb; i < nb + nn; ++i)
    shape.push_back(rt.getDimSize(rp[i]));
  int64_t count = 1;
  for (int64_t i = nb + nm; i < nb + nm + nk; ++i) {
    shape.push_back(lt.getDimSize(lp[i]));
    count *= lt.getDimSize(lp[i]);
  }
  auto product = RankedTensorType::get(shape, b.getI32Type());
  // Where each operand dimension (in product order) goes.
  SmallVector<int64_t> ld, rd, contracted;
  for (int64_t i = 0; i < nb; ++i) {
    ld.push_back(i);
    rd.push_back(i);
  }
  for (int64_t i = 0; i < nm; ++i)
    ld.push_back(nb + i);
  for (int64_t i = 0; i < nn; ++i)
    rd.push_back(nb + nm + i);
  for (int64_t i = 0; i < nk; ++i) {
    ld.push_back(nb + nm + nn + i);
    rd.push_back(nb + nm + nn + i);
    contracted.push_back(nb + nm + nn + i);
  }
  auto spread = [&](Value word, ArrayRef<int64_t> perm,
                    ArrayRef<int64_t> to) -> Value {
    return hlo::BroadcastInDimOp::create(b, loc, product, transpose(word, perm),
                                         to);
  };
  X64Builder x(b, loc);
  WordPair p = x.multiply({spread(l.lo, lp, ld), spread(l.hi, lp, ld)},
                          {spread(r.lo, rp, rd), spread(r.hi, rp, rd)});
  if (contracted.empty())
    return p;
  return sum(op, p, contracted, count);
}

/// `word` transposed by `perm` (itself for the identity).
Value Expander::transpose(Value word, ArrayRef<int64_t> perm) {
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return word;
  return hlo::TransposeOp::create(b, word.getLoc(), word,
                                  b.getDenseI64ArrayAttr(perm));
}

LogicalResult Expander::expandDot(hlo::DotGeneralOp op, bool &handled) {
  if (!isX64(op.getLhs().getType()) || !isX64(op.getRhs().getType()) ||
      !isX64(op.getType())) {
    handled = false;
    return success();
  }
  FailureOr<WordPair> r =
      dot(op, get(op.getLhs()), get(op.getRhs()), op.getDotDimensionNumbers());
  if (failed(r))
    return failure();
  map(op.getResult(), *r);
  return success();
}

/// A convolution of 64-bit operands as one dot_general (im2col): the
/// input's words [batch, spatial..., feature] padded (lhs dilation as
/// interior padding), one strided slice per kernel offset (rhs dilation)
/// concatenated along the feature, against the kernel [spatial...,
/// input feature, output feature] (reversed where the window is)
/// reshaped to [offsets x input feature, output feature].
LogicalResult Expander::expandConvolution(hlo::ConvolutionOp op,
                                          bool &handled) {
  if (!isX64(op.getLhs().getType()) || !isX64(op.getRhs().getType()) ||
      !isX64(op.getType())) {
    handled = false;
    return success();
  }
  if (op.getFeatureGroupCount() != 1 || op.getBatchGroupCount() != 1)
    return op.emitError() << "tpuc emulates a 64-bit integer convolution "
                             "only with feature_group_count and "
                             "batch_group_count 1";
  Location loc = op.getLoc();
  hlo::ConvDimensionNumbersAttr dn = op.getDimensionNumbers();
  int64_t n = dn.getInputSpatial().size();
  auto attr = [&](std::optional<ArrayRef<int64_t>> v, int64_t size,
                  int64_t value) {
    return v ? SmallVector<int64_t>(*v) : SmallVector<int64_t>(size, value);
  };
  SmallVector<int64_t> strides = attr(op.getWindowStrides(), n, 1);
  SmallVector<int64_t> padding = attr(op.getPadding(), 2 * n, 0);
  SmallVector<int64_t> lhsDil = attr(op.getLhsDilation(), n, 1);
  SmallVector<int64_t> rhsDil = attr(op.getRhsDilation(), n, 1);
  auto both = [](WordPair w, auto f) -> WordPair { return {f(w.lo), f(w.hi)}; };
  // The input [batch, spatial..., feature], padded.
  SmallVector<int64_t> inPerm = {dn.getInputBatch()};
  llvm::append_range(inPerm, dn.getInputSpatial());
  inPerm.push_back(dn.getInputFeature());
  SmallVector<int64_t> lo(n + 2, 0), hi(n + 2, 0), interior(n + 2, 0);
  for (int64_t i = 0; i < n; ++i) {
    lo[i + 1] = padding[2 * i];
    hi[i + 1] = padding[2 * i + 1];
    interior[i + 1] = lhsDil[i] - 1;
  }
  X64Builder x(b, loc);
  Value zero = x.splat({}, 0);
  WordPair in = both(get(op.getLhs()), [&](Value w) -> Value {
    w = transpose(w, inPerm);
    if (llvm::all_of(llvm::concat<int64_t>(lo, hi, interior),
                     [](int64_t v) { return v == 0; }))
      return w;
    return hlo::PadOp::create(b, loc, w, zero, b.getDenseI64ArrayAttr(lo),
                              b.getDenseI64ArrayAttr(hi),
                              b.getDenseI64ArrayAttr(interior));
  });
  // The kernel [spatial..., input feature, output feature].
  SmallVector<int64_t> kPerm(dn.getKernelSpatial());
  kPerm.append({dn.getKernelInputFeature(), dn.getKernelOutputFeature()});
  SmallVector<int64_t> reversed;
  if (auto rev = op.getWindowReversal())
    for (auto [i, r] : llvm::enumerate(*rev))
      if (r)
        reversed.push_back(i);
  RankedTensorType kType = tensorType(op.getRhs());
  SmallVector<int64_t> window;
  int64_t offsets = 1;
  for (int64_t d : dn.getKernelSpatial()) {
    window.push_back(kType.getDimSize(d));
    offsets *= kType.getDimSize(d);
  }
  int64_t inFeatures = kType.getDimSize(dn.getKernelInputFeature());
  auto kFlat = RankedTensorType::get(
      {offsets * inFeatures, kType.getDimSize(dn.getKernelOutputFeature())},
      b.getI32Type());
  WordPair kernel = both(get(op.getRhs()), [&](Value w) -> Value {
    w = transpose(w, kPerm);
    if (!reversed.empty())
      w = hlo::ReverseOp::create(b, loc, w, b.getDenseI64ArrayAttr(reversed));
    return hlo::ReshapeOp::create(b, loc, kFlat, w);
  });
  // One strided slice of the input per kernel offset (row-major).
  RankedTensorType resultType = tensorType(op.getResult());
  RankedTensorType padded = tensorType(in.lo);
  SmallVector<Value> columns[2];
  for (int64_t k = 0; k < offsets; ++k) {
    SmallVector<int64_t> start(n + 2, 0), limit(padded.getShape()),
        step(n + 2, 1);
    for (int64_t i = n - 1, rest = k; i >= 0; --i) {
      int64_t at = rest % window[i],
              size = resultType.getDimSize(dn.getOutputSpatial()[i]);
      rest /= window[i];
      start[i + 1] = at * rhsDil[i];
      limit[i + 1] =
          size == 0 ? start[i + 1] : start[i + 1] + (size - 1) * strides[i] + 1;
      step[i + 1] = strides[i];
    }
    columns[0].push_back(
        hlo::SliceOp::create(b, loc, in.lo, start, limit, step));
    columns[1].push_back(
        hlo::SliceOp::create(b, loc, in.hi, start, limit, step));
  }
  WordPair im2col;
  for (int k = 0; k < 2; ++k) {
    Value v =
        columns[k].size() == 1
            ? columns[k][0]
            : hlo::ConcatenateOp::create(b, loc, columns[k], n + 1).getResult();
    (k ? im2col.hi : im2col.lo) = v;
  }
  auto dotDims =
      hlo::DotDimensionNumbersAttr::get(b.getContext(), {}, {}, {n + 1}, {0});
  FailureOr<WordPair> r = dot(op, im2col, kernel, dotDims);
  if (failed(r))
    return failure();
  // [batch, spatial..., feature] to the result's layout.
  SmallVector<int64_t> outPerm(n + 2);
  outPerm[dn.getOutputBatch()] = 0;
  for (int64_t i = 0; i < n; ++i)
    outPerm[dn.getOutputSpatial()[i]] = i + 1;
  outPerm[dn.getOutputFeature()] = n + 1;
  map(op.getResult(),
      both(*r, [&](Value w) -> Value { return transpose(w, outPerm); }));
  return success();
}

/// A reduce of one 64-bit input whose body is one add, maximum, minimum,
/// and, or or xor of its arguments.
LogicalResult Expander::expandReduce(hlo::ReduceOp op) {
  Block &body = op.getBody().front();
  Operation *combine = &body.front();
  if (op.getInputs().size() != 1 || body.getOperations().size() != 2 ||
      combine->getNumOperands() != 2 ||
      !llvm::all_of(combine->getOperands(),
                    [&](Value v) {
                      return v.getParentBlock() == &body &&
                             isa<BlockArgument>(v);
                    }) ||
      combine->getOperand(0) == combine->getOperand(1) ||
      !isa<hlo::AddOp, hlo::MaximumOp, hlo::MinimumOp, hlo::AndOp, hlo::OrOp,
           hlo::XorOp>(combine))
    return op.emitError() << "tpuc emulates a 64-bit integer reduce only "
                             "with one input and a body of one add, "
                             "maximum, minimum, and, or or xor";
  Value input = op.getInputs()[0], result = op.getResult(0);
  ArrayRef<int64_t> dims = op.getDimensions();
  RankedTensorType inType = tensorType(input);
  SmallVector<int64_t> kept;
  int64_t count = 1;
  for (int64_t d = 0; d < inType.getRank(); ++d) {
    if (llvm::is_contained(dims, d))
      count *= inType.getDimSize(d);
    else
      kept.push_back(d);
  }
  X64Builder x(b, op.getLoc());
  WordPair in = get(input), init = get(op.getInitValues()[0]);
  ArrayRef<int64_t> shape = tensorType(result).getShape();
  auto broadcast = [&](Value v, ArrayRef<int64_t> to,
                       ArrayRef<int64_t> dimsOf) -> Value {
    if (tensorType(v).getShape() == to)
      return v;
    return hlo::BroadcastInDimOp::create(
        b, op.getLoc(), RankedTensorType::get(to, b.getI32Type()), v, dimsOf);
  };
  auto initOf = [&](WordPair w) -> WordPair {
    return {broadcast(w.lo, shape, {}), broadcast(w.hi, shape, {})};
  };
  StringRef kind = combine->getName().getStringRef();
  bool isUnsigned = isUnsigned64(input);
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  WordPair r;
  if (isa<hlo::AndOp, hlo::OrOp, hlo::XorOp>(combine)) {
    int32_t identity = isa<hlo::AndOp>(combine) ? -1 : 0;
    WordPair words{reduce32(in.lo, identity, dims, kind),
                   reduce32(in.hi, identity, dims, kind)};
    WordPair i = initOf(init);
    r = {createBinary(b, op.getLoc(), kind, words.lo, i.lo),
         createBinary(b, op.getLoc(), kind, words.hi, i.hi)};
  } else if (isa<hlo::AddOp>(combine)) {
    FailureOr<WordPair> total = sum(op, in, dims, count);
    if (failed(total))
      return failure();
    r = x.add(*total, initOf(init));
  } else {
    // Max (min) of the high words, then of the low words of the elements
    // with that high word; unsigned words compare with the sign flipped.
    bool isMax = isa<hlo::MaximumOp>(combine);
    int32_t identity = isMax ? kMin : kMax;
    auto flip = [&](Value v) -> Value {
      return hlo::XorOp::create(b, op.getLoc(), v, x.splatLike(v, kMin));
    };
    Value hiKey = isUnsigned ? flip(in.hi) : in.hi;
    Value hi = reduce32(hiKey, identity, dims, kind);
    Value atHi = x.compare(ComparisonDirection::EQ, hiKey,
                           broadcast(hi, inType.getShape(), kept));
    Value loKey = hlo::SelectOp::create(b, op.getLoc(), atHi, flip(in.lo),
                                        x.splatLike(in.lo, identity));
    Value lo = flip(reduce32(loKey, identity, dims, kind));
    r = x.minOrMax({lo, isUnsigned ? flip(hi) : hi}, initOf(init), isMax,
                   isUnsigned);
  }
  map(result, r);
  return success();
}

/// A sort with 64-bit operands sorts their words as two operands each;
/// the comparator reads them joined (and expands what it computes on them).
LogicalResult Expander::expandSort(hlo::SortOp op) {
  SmallVector<Value> inputs;
  SmallVector<unsigned> first;
  for (Value in : op.getInputs()) {
    first.push_back(inputs.size());
    if (isX64(in.getType())) {
      WordPair w = get(in);
      inputs.append({w.lo, w.hi});
    } else {
      inputs.push_back(in);
    }
  }
  auto sort = hlo::SortOp::create(b, op.getLoc(), inputs, op.getDimension(),
                                  op.getIsStable());
  Block *old = &op.getComparator().front();
  Block *block = new Block();
  sort.getComparator().push_back(block);
  for (Value in : inputs) {
    auto scalar = RankedTensorType::get({}, tensorType(in).getElementType());
    block->addArguments({scalar, scalar}, {op.getLoc(), op.getLoc()});
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(block);
  for (auto [i, in] : llvm::enumerate(op.getInputs())) {
    for (unsigned side = 0; side < 2; ++side) {
      BlockArgument arg = old->getArgument(2 * i + side);
      if (!isX64(in.getType())) {
        arg.replaceAllUsesWith(block->getArgument(2 * first[i] + side));
        continue;
      }
      WordPair w{block->getArgument(2 * first[i] + side),
                 block->getArgument(2 * first[i] + 2 + side)};
      map(arg, w);
      Value joined = join(arg);
      // By value: inserting may grow the map under a reference to an entry.
      values[joined] = values.lookup(arg);
      arg.replaceAllUsesWith(joined);
    }
  }
  block->getOperations().splice(block->end(), old->getOperations());
  for (auto [i, r] : llvm::enumerate(op.getResults())) {
    if (isX64(r.getType()))
      map(r, {sort.getResult(first[i]), sort.getResult(first[i] + 1)});
    else
      r.replaceAllUsesWith(sort.getResult(first[i]));
  }
  return expandIn(sort);
}

} // namespace tpuc::x64
