//===- HloOps.cpp - hlo dialect operations: verifiers, inference, folds ---===//
//
// Shape rules follow XLA's ShapeInference; messages name the operand or
// attribute at fault and the values involved.
//
//===----------------------------------------------------------------------===//

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace tpuc::hlo;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {
/// Emits errors either on an op or at an optional location (inference runs
/// before the op exists, e.g. while parsing).
struct Checker {
  std::optional<Location> loc;

  InFlightDiagnostic error() const { return emitError(*loc); }
  LogicalResult fail(const Twine &message) const {
    return emitOptionalError(loc, message);
  }

  /// Every entry of `dims` names a dimension of a rank-`rank` tensor, once.
  LogicalResult dimsInRange(ArrayRef<int64_t> dims, int64_t rank,
                            StringRef what) const {
    llvm::SmallSet<int64_t, 8> seen;
    for (int64_t dim : dims) {
      if (dim < 0 || dim >= rank)
        return fail(what + " " + Twine(dim) + " is out of range [0, " +
                    Twine(rank) + ")");
      if (!seen.insert(dim).second)
        return fail(what + " " + Twine(dim) + " appears more than once");
    }
    return success();
  }

  LogicalResult sorted(ArrayRef<int64_t> dims, StringRef what) const {
    if (!llvm::is_sorted(dims))
      return fail(what + " must be sorted");
    return success();
  }

  LogicalResult size(ArrayRef<int64_t> values, size_t expected,
                     StringRef what) const {
    if (values.size() != expected)
      return fail(what + " has " + Twine(values.size()) +
                  " entries, expected " + Twine(expected));
    return success();
  }
};
} // namespace

static RankedTensorType tensorOf(ArrayRef<int64_t> shape, Type element) {
  return RankedTensorType::get(shape, element);
}

static RankedTensorType asTensor(Type type) {
  return dyn_cast_or_null<RankedTensorType>(type);
}

/// A type as diagnostics print it: quoted.
static std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << type << "'";
  return text;
}

/// The array attribute, or `count` copies of `fill` when it is absent.
static SmallVector<int64_t> orDefault(std::optional<ArrayRef<int64_t>> values,
                                      size_t count, int64_t fill) {
  if (values)
    return SmallVector<int64_t>(values->begin(), values->end());
  return SmallVector<int64_t>(count, fill);
}

/// Output size of one windowed dimension, as XLA's InferWindowOutputShape.
static int64_t windowedSize(int64_t input, int64_t window, int64_t stride,
                            int64_t padLow, int64_t padHigh,
                            int64_t baseDilation, int64_t windowDilation) {
  int64_t dilatedInput = input == 0 ? 0 : (input - 1) * baseDilation + 1;
  int64_t padded = dilatedInput + padLow + padHigh;
  int64_t dilatedWindow = window == 0 ? 0 : (window - 1) * windowDilation + 1;
  if (padded < dilatedWindow)
    return 0;
  return (padded - dilatedWindow) / stride + 1;
}

namespace {
/// A window over every dimension of an operand (reduce_window and
/// select_and_scatter): attributes checked and defaults filled in.
struct Window {
  SmallVector<int64_t> dims, strides, baseDilations, windowDilations, padding;

  static FailureOr<Window>
  check(const Checker &c, int64_t rank, ArrayRef<int64_t> dims,
        std::optional<ArrayRef<int64_t>> strides,
        std::optional<ArrayRef<int64_t>> baseDilations,
        std::optional<ArrayRef<int64_t>> windowDilations,
        std::optional<ArrayRef<int64_t>> padding) {
    Window w;
    w.dims.assign(dims.begin(), dims.end());
    w.strides = orDefault(strides, rank, 1);
    w.baseDilations = orDefault(baseDilations, rank, 1);
    w.windowDilations = orDefault(windowDilations, rank, 1);
    w.padding = orDefault(padding, 2 * rank, 0);
    if (failed(c.size(w.dims, rank, "window_dimensions")) ||
        failed(c.size(w.strides, rank, "window_strides")) ||
        failed(c.size(w.baseDilations, rank, "base_dilations")) ||
        failed(c.size(w.windowDilations, rank, "window_dilations")) ||
        failed(c.size(w.padding, 2 * rank, "padding (low, high per dim)")))
      return failure();
    for (int64_t i = 0; i < rank; ++i) {
      if (w.dims[i] < 1 || w.strides[i] < 1 || w.baseDilations[i] < 1 ||
          w.windowDilations[i] < 1) {
        (void)c.fail("window size, stride and dilations must be >= 1 (dim " +
                     Twine(i) + ")");
        return failure();
      }
    }
    return w;
  }

  SmallVector<int64_t> outputShape(ArrayRef<int64_t> input) const {
    SmallVector<int64_t> shape;
    for (auto [i, size] : llvm::enumerate(input))
      shape.push_back(windowedSize(size, dims[i], strides[i], padding[2 * i],
                                   padding[2 * i + 1], baseDilations[i],
                                   windowDilations[i]));
    return shape;
  }
};
} // namespace

/// Checks a region's block arguments and the types its hlo.return yields.
static LogicalResult verifyRegionSignature(Operation *op, Region &region,
                                           StringRef name,
                                           TypeRange expectedArgs,
                                           TypeRange expectedResults) {
  Block &block = region.front();
  if (block.getArgumentTypes() != expectedArgs) {
    InFlightDiagnostic diag = op->emitOpError()
                              << name << " takes " << block.getNumArguments()
                              << " argument(s) of type(s) (";
    llvm::interleaveComma(block.getArgumentTypes(), diag);
    diag << "), expected (";
    llvm::interleaveComma(expectedArgs, diag);
    return diag << ")";
  }
  auto ret = dyn_cast<ReturnOp>(block.getTerminator());
  if (!ret)
    return op->emitOpError() << name << " must end in hlo.return";
  if (ret.getResults().getTypes() != expectedResults) {
    InFlightDiagnostic diag = op->emitOpError() << name << " returns (";
    llvm::interleaveComma(ret.getResults().getTypes(), diag);
    diag << "), expected (";
    llvm::interleaveComma(expectedResults, diag);
    return diag << ")";
  }
  return success();
}

/// Rank-0 tensors of the given tensors' element types.
static SmallVector<Type> scalarsOf(TypeRange types) {
  SmallVector<Type> scalars;
  for (Type type : types)
    scalars.push_back(tensorOf({}, cast<ShapedType>(type).getElementType()));
  return scalars;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult CompareOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  auto lhs = asTensor(adaptor.getLhs().getType());
  if (!lhs)
    return emitOptionalError(loc, "compare operands must be ranked tensors");
  results.push_back(tensorOf(lhs.getShape(), IntegerType::get(context, 1)));
  return success();
}

LogicalResult SelectOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  auto pred = asTensor(adaptor.getPred().getType());
  auto onTrue = asTensor(adaptor.getOnTrue().getType());
  if (!pred || !onTrue)
    return emitOptionalError(loc, "select operands must be ranked tensors");
  if (onTrue != adaptor.getOnFalse().getType())
    return emitOptionalError(loc, "on_true and on_false must have the same "
                                  "type, got ",
                             onTrue, " and ", adaptor.getOnFalse().getType());
  if (pred.getRank() != 0 && pred.getShape() != onTrue.getShape())
    return emitOptionalError(loc, "pred must be a scalar or have the shape of "
                                  "on_true, got ",
                             pred, " for ", onTrue);
  results.push_back(onTrue);
  return success();
}

LogicalResult ClampOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  auto operand = asTensor(adaptor.getOperand().getType());
  if (!operand)
    return emitOptionalError(loc, "clamp operand must be a ranked tensor");
  for (auto [name, value] : {std::pair<StringRef, Value>{"min", adaptor.getMin()},
                             {"max", adaptor.getMax()}}) {
    auto bound = asTensor(value.getType());
    if (!bound || bound.getElementType() != operand.getElementType() ||
        (bound.getRank() != 0 && bound.getShape() != operand.getShape()))
      return emitOptionalError(loc, name,
                               " must be a scalar or have the operand's "
                               "shape, with its element type; got ",
                               value.getType(), " for ", operand);
  }
  results.push_back(operand);
  return success();
}

/// Whether `attr` is a constant whose every element equals `value`.
static bool isSplatOf(Attribute attr, int64_t value) {
  auto splat = dyn_cast_or_null<SplatElementsAttr>(attr);
  if (!splat)
    return false;
  Type element = splat.getElementType();
  if (isa<FloatType>(element))
    return splat.getSplatValue<APFloat>().isExactlyValue(value);
  if (element.isInteger(1))
    return false;
  return splat.getSplatValue<APInt>() ==
         APInt(element.getIntOrFloatBitWidth(), value, /*isSigned=*/true);
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  return isSplatOf(adaptor.getRhs(), 0) ? getLhs() : Value();
}

OpFoldResult SubtractOp::fold(FoldAdaptor adaptor) {
  return isSplatOf(adaptor.getRhs(), 0) ? getLhs() : Value();
}

OpFoldResult MultiplyOp::fold(FoldAdaptor adaptor) {
  return isSplatOf(adaptor.getRhs(), 1) ? getLhs() : Value();
}

OpFoldResult DivideOp::fold(FoldAdaptor adaptor) {
  return isSplatOf(adaptor.getRhs(), 1) ? getLhs() : Value();
}

//===----------------------------------------------------------------------===//
// Conversions and constants
//===----------------------------------------------------------------------===//

/// Whether every value of `from` is exactly representable in `to`.
static bool widensExactly(Type from, Type to) {
  if (auto fromFloat = dyn_cast<FloatType>(from)) {
    auto toFloat = dyn_cast<FloatType>(to);
    if (!toFloat)
      return false;
    const llvm::fltSemantics &a = fromFloat.getFloatSemantics();
    const llvm::fltSemantics &b = toFloat.getFloatSemantics();
    return APFloat::semanticsPrecision(a) <= APFloat::semanticsPrecision(b) &&
           APFloat::semanticsMaxExponent(a) <= APFloat::semanticsMaxExponent(b) &&
           APFloat::semanticsMinExponent(a) >= APFloat::semanticsMinExponent(b);
  }
  auto fromInt = dyn_cast<IntegerType>(from);
  auto toInt = dyn_cast<IntegerType>(to);
  return fromInt && toInt && fromInt.getWidth() > 1 &&
         fromInt.getSignedness() == toInt.getSignedness() &&
         fromInt.getWidth() <= toInt.getWidth();
}

OpFoldResult ConvertOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  // A float splat to another float type: the converted splat, rounded to
  // nearest even as XLA converts (mixed precision's convert of a relu's
  // zero then stays a splat the kernels read, not an array they stream).
  // NaN is left alone: its payload bits are the runtime's to define.
  auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getOperand());
  auto to = dyn_cast<FloatType>(getType().getElementType());
  if (splat && to && isa<FloatType>(splat.getElementType())) {
    APFloat value = splat.getSplatValue<APFloat>();
    bool losesInfo = false;
    if (!value.isNaN()) {
      value.convert(to.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
      return SplatElementsAttr::get(cast<ShapedType>(getType()), value);
    }
  }
  // convert(convert(x)) back to x's type, through a type that holds every
  // value of x exactly (bf16 -> f32 -> bf16, s32 -> s64 -> s32).
  if (auto inner = getOperand().getDefiningOp<ConvertOp>()) {
    Value source = inner.getOperand();
    if (source.getType() == getType() &&
        widensExactly(getType().getElementType(),
                      inner.getType().getElementType()))
      return source;
  }
  return {};
}

/// Whether `type` is [..., n, n].
static bool isSquareBatch(ShapedType type) {
  return type.hasRank() && type.getRank() >= 2 &&
         type.getDimSize(type.getRank() - 1) ==
             type.getDimSize(type.getRank() - 2);
}

LogicalResult CholeskyOp::verify() {
  if (!isSquareBatch(getOperand().getType()))
    return emitOpError() << "needs [..., n, n] matrices, not "
                         << getOperand().getType();
  return success();
}

LogicalResult TriangularSolveOp::verify() {
  auto a = cast<ShapedType>(getA().getType());
  auto b = cast<ShapedType>(getB().getType());
  if (!isSquareBatch(a))
    return emitOpError() << "needs a of [..., m, m], not " << a;
  int64_t rank = a.getRank();
  int64_t m = a.getDimSize(rank - 1);
  if (b.getRank() != rank || a.getElementType() != b.getElementType() ||
      a.getShape().drop_back(2) != b.getShape().drop_back(2) ||
      b.getDimSize(getLeftSide() ? rank - 2 : rank - 1) != m)
    return emitOpError() << "needs b of the batch and element type of a with "
                         << (getLeftSide() ? "[..., m, n]" : "[..., n, m]")
                         << " (m = " << m << "), not " << b;
  if (getResult().getType() != b)
    return emitOpError() << "returns " << getResult().getType()
                         << " but b is " << b;
  return success();
}

LogicalResult RngBitGeneratorOp::verify() {
  auto state = dyn_cast<RankedTensorType>(getInitialState().getType());
  if (!state || state.getRank() != 1 ||
      !state.getElementType().isUnsignedInteger(64))
    return emitOpError() << "needs a u64[n] state, not "
                         << getInitialState().getType();
  if (getOutputState().getType() != state)
    return emitOpError() << "returns its state as "
                         << getOutputState().getType()
                         << " but the state is " << state;
  int64_t size = state.getDimSize(0);
  if (getAlgorithm() == RngAlgorithm::THREE_FRY ? size != 2
                                                : size != 2 && size != 3)
    return emitOpError() << "the "
                         << stringifyRngAlgorithm(getAlgorithm())
                         << " state must be u64["
                         << (getAlgorithm() == RngAlgorithm::THREE_FRY
                                 ? "2"
                                 : "2] or u64[3")
                         << "], not " << state;
  auto output = dyn_cast<RankedTensorType>(getOutput().getType());
  auto element = output ? dyn_cast<IntegerType>(output.getElementType())
                        : IntegerType();
  if (!element || element.getWidth() < 8)
    return emitOpError() << "returns random bits as an integer array (s8 to "
                            "u64), not "
                         << getOutput().getType();
  return success();
}

LogicalResult RngOp::verify() {
  auto result = cast<RankedTensorType>(getResult().getType());
  Type element = result.getElementType();
  bool isFloat = element.isF32() || element.isBF16();
  if (!isFloat && !element.isSignlessInteger(32) &&
      !element.isUnsignedInteger(32))
    return emitOpError() << "draws f32, bf16, s32 or u32 numbers, not "
                         << element;
  if (getDistribution() == RngDistribution::NORMAL && !isFloat)
    return emitOpError() << "draws normal numbers as floats only, not "
                         << element;
  for (Value bound : {getA(), getB()}) {
    auto type = cast<RankedTensorType>(bound.getType());
    if (type.getRank() != 0 || type.getElementType() != element)
      return emitOpError() << "takes its parameters as scalars of the "
                              "result's element type, not "
                           << type;
  }
  return success();
}

uint64_t RngOp::getOpSeed() {
  Operation *top = getOperation();
  while (Operation *parent = top->getParentOp())
    top = parent;
  uint64_t id = 0;
  top->walk([&](RngOp op) {
    if (op == *this)
      return WalkResult::interrupt();
    ++id;
    return WalkResult::advance();
  });
  return (id * 0x9E3779B97F4A7C15ull) >> 32;
}

int64_t RngOp::getStateDelta() {
  // bf16 numbers are drawn as f32 ones (XLA converts), so every element
  // takes one 32-bit unit.
  return cast<RankedTensorType>(getResult().getType()).getNumElements();
}

LogicalResult RngGetAndUpdateStateOp::verify() {
  auto state = cast<RankedTensorType>(getState().getType());
  if (state.getShape() != ArrayRef<int64_t>{2} ||
      !state.getElementType().isUnsignedInteger(64))
    return emitOpError() << "returns the state as u64[2], not " << state;
  if (getDeltaAttr().getInt() < 0)
    return emitOpError() << "needs a non-negative delta, not "
                         << getDeltaAttr().getInt();
  return success();
}

LogicalResult BitcastConvertOp::verify() {
  auto in = getOperand().getType();
  auto out = getType();
  unsigned inBits = in.getElementTypeBitWidth();
  unsigned outBits = out.getElementTypeBitWidth();
  auto mismatch = [&]() {
    return emitOpError() << "cannot bitcast " << in << " to " << out
                         << ": with " << inBits << "-bit to " << outBits
                         << "-bit elements ";
  };
  if (inBits == outBits) {
    if (in.getShape() != out.getShape())
      return mismatch() << "the shapes must be equal";
    return success();
  }
  // The narrower side has one more, minor, dimension of size wide/narrow.
  bool widening = outBits > inBits;
  auto wide = widening ? out : in;
  auto narrow = widening ? in : out;
  unsigned ratio = widening ? outBits / inBits : inBits / outBits;
  if ((widening ? outBits % inBits : inBits % outBits) != 0 ||
      narrow.getRank() != wide.getRank() + 1 ||
      narrow.getShape().drop_back() != wide.getShape() ||
      narrow.getShape().back() != ratio)
    return mismatch() << "the narrower shape must be the wider one with a "
                         "minor dimension of size "
                      << ratio << " appended";
  return success();
}

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  ElementsAttr value = adaptor.getValueAttr();
  if (!value)
    return emitOptionalError(loc, "constant needs a 'value' attribute");
  results.push_back(value.getType());
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValueAttr(); }

LogicalResult IotaOp::verify() {
  int64_t rank = getType().getRank();
  if (getIotaDimension() >= static_cast<uint64_t>(rank))
    return emitOpError() << "iota dimension " << getIotaDimension()
                         << " is out of range for a rank-" << rank
                         << " result";
  return success();
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

LogicalResult BroadcastInDimOp::verify() {
  auto in = getOperand().getType();
  auto out = getType();
  ArrayRef<int64_t> dims = getBroadcastDimensions();
  if (in.getElementType() != out.getElementType())
    return emitOpError() << "element types differ: " << in.getElementType()
                         << " vs " << out.getElementType();
  if (static_cast<int64_t>(dims.size()) != in.getRank())
    return emitOpError() << "broadcast_dimensions has " << dims.size()
                         << " entries for a rank-" << in.getRank()
                         << " operand";
  for (auto [i, dim] : llvm::enumerate(dims)) {
    if (dim < 0 || dim >= out.getRank())
      return emitOpError() << "broadcast dimension " << dim
                           << " is out of range for a rank-" << out.getRank()
                           << " result";
    if (i > 0 && dim <= dims[i - 1])
      return emitOpError() << "broadcast_dimensions must be strictly "
                              "increasing, got "
                           << dims[i - 1] << " before " << dim;
    int64_t inSize = in.getDimSize(i), outSize = out.getDimSize(dim);
    if (inSize != 1 && inSize != outSize)
      return emitOpError() << "operand dimension " << i << " (size " << inSize
                           << ") must be 1 or equal to result dimension "
                           << dim << " (size " << outSize << ")";
  }
  return success();
}

OpFoldResult BroadcastInDimOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getOperand()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

LogicalResult ReshapeOp::verify() {
  auto in = getOperand().getType();
  auto out = getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError() << "element types differ: " << in.getElementType()
                         << " vs " << out.getElementType();
  if (in.getNumElements() != out.getNumElements())
    return emitOpError() << "cannot reshape " << in.getNumElements()
                         << " elements into " << out.getNumElements();
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getOperand()))
    return dense.reshape(getType());
  return {};
}

namespace {
/// reshape(reshape(x)) -> reshape(x).
struct FoldReshapeOfReshape : public OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getOperand().getDefiningOp<ReshapeOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(),
                                           inner.getOperand());
    return success();
  }
};

/// reshape(transpose(x)) -> transpose(reshape(x)) when the reshape only
/// drops dims of size 1 (a squeeze): the squeeze moves to the transpose's
/// operand, so the transpose meets its reader, and a dot_general folds it
/// into its dimension numbers (JAX's attention: `k` transposed, then its
/// leading unit dim squeezed, then the batched dot).
struct SqueezeBeforeTranspose : public OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getOperand().getDefiningOp<TransposeOp>();
    if (!transpose || !transpose->hasOneUse())
      return failure();
    ArrayRef<int64_t> source = transpose.getOperand().getType().getShape();
    ArrayRef<int64_t> perm = transpose.getPermutation();
    ArrayRef<int64_t> result = op.getType().getShape();
    if (llvm::is_contained(result, 1) || !llvm::is_contained(source, 1))
      return failure();
    // The source's dims other than the unit ones, and where each lands.
    SmallVector<int64_t> squeezed, position(source.size(), -1);
    for (auto [d, size] : llvm::enumerate(source))
      if (size != 1) {
        position[d] = squeezed.size();
        squeezed.push_back(size);
      }
    SmallVector<int64_t> newPerm;
    for (int64_t d : perm)
      if (source[d] != 1)
        newPerm.push_back(position[d]);
    SmallVector<int64_t> transposedShape;
    for (int64_t d : newPerm)
      transposedShape.push_back(squeezed[d]);
    if (ArrayRef<int64_t>(transposedShape) != result)
      return failure();
    Type elem = op.getType().getElementType();
    Value flat = rewriter.create<ReshapeOp>(
        op.getLoc(), RankedTensorType::get(squeezed, elem),
        transpose.getOperand());
    DictionaryAttr attrs = op->getDiscardableAttrDictionary();
    auto moved = rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(),
                                                          flat, newPerm);
    moved->setDiscardableAttrs(attrs);
    return success();
  }
};

/// transpose(transpose(x)) -> transpose(x) with the composed permutation.
struct FoldTransposeOfTranspose : public OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getOperand().getDefiningOp<TransposeOp>();
    if (!inner)
      return failure();
    SmallVector<int64_t> composed;
    for (int64_t dim : op.getPermutation())
      composed.push_back(inner.getPermutation()[dim]);
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(),
                                             inner.getOperand(), composed);
    return success();
  }
};
} // namespace

namespace {
/// The dims of `shape` that are not 1.
SmallVector<int64_t> nonUnitDims(ArrayRef<int64_t> shape) {
  return llvm::to_vector(
      llvm::make_filter_range(shape, [](int64_t d) { return d != 1; }));
}

/// ew(reshape(a), c) : [1,R,1] -> reshape(ew(reshape(a), reshape(c)) : [R]):
/// an elementwise op whose result has unit dims around one non-unit dim
/// (per-row statistics [1,R,1], [R,1]), whose operands are reshapes that only
/// add or drop unit dims (e.g. of a reduce's [1,R]) or constants, runs on the
/// rank-1 [R] (the operands' reshapes fold into `a` and the constants). Its
/// chain of such ops then stays rank 1 and the reshapes around it cancel: the
/// fused kernels stream rank-1 per-row sources (FusedKernel.cpp RowStream)
/// where a [..,R,1] one pads each element to a tile row. It matches any
/// elementwise hlo op: a dialect-wide canonicalization.
struct ElementwiseOnRowVector : public RewritePattern {
  ElementwiseOnRowVector(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<HloDialect>(op->getDialect()) ||
        !op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1 ||
        op->getNumRegions() != 0 || op->getNumOperands() == 0)
      return failure();
    // `hlo.sharding` and `hlo.layout` describe the op's own rank.
    if (!op->getDiscardableAttrDictionary().empty())
      return failure();
    auto type = asTensor(op->getResult(0).getType());
    if (!type || !type.hasStaticShape() || type.getRank() < 2)
      return failure();
    SmallVector<int64_t> vector = nonUnitDims(type.getShape());
    if (vector.size() != 1)
      return failure();
    bool anyReshape = false;
    for (Value operand : op->getOperands()) {
      auto operandType = asTensor(operand.getType());
      if (!operandType || operandType.getShape() != type.getShape())
        return failure();
      if (auto reshape = operand.getDefiningOp<ReshapeOp>()) {
        auto from = cast<RankedTensorType>(reshape.getOperand().getType());
        if (nonUnitDims(from.getShape()) != vector)
          return failure();
        anyReshape = true;
        continue;
      }
      if (!matchPattern(operand, m_Constant()))
        return failure();
    }
    if (!anyReshape)
      return failure();
    Location loc = op->getLoc();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      auto operandType = cast<RankedTensorType>(operand.getType());
      operands.push_back(rewriter.create<ReshapeOp>(
          loc, tensorOf(vector, operandType.getElementType()), operand));
    }
    OperationState state(loc, op->getName(), operands,
                         TypeRange{tensorOf(vector, type.getElementType())},
                         op->getAttrs());
    Operation *onVector = rewriter.create(state);
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, type, onVector->getResult(0));
    return success();
  }
};
} // namespace

namespace {
/// convert(reshape(convert(x))) back to x's element type ->
/// convert(convert(reshape(x))): a round trip through a narrower type (mixed
/// precision's f32 -> bf16 -> f32 around a reshape) is elementwise, so the
/// reshape commutes with it, exactly. Only a reshape that keeps the minor
/// dim (it regroups whole rows, which the kernels read in place); one that
/// changes it is a relayout, cheaper on the narrow side (DLRM's
/// [3616,6,6] -> [3616,36]), and not one that only adds or drops unit dims
/// (ElementwiseOnRowVector moves those the other way). The reshape then
/// reads x itself, as
/// it does without the round trip: in graphsage's mean
/// (f32[250,50] -> [10,25,50] reduced over dim 1) the reduce kernel reads
/// x's rows in groups through it (isReducedRowGroups) and computes the
/// converts per tile, where a reshape between them was a relayout through
/// HBM.
struct ReshapeBeforeRoundTrip : public OpRewritePattern<ConvertOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertOp op,
                                PatternRewriter &rewriter) const override {
    auto reshape = op.getOperand().getDefiningOp<ReshapeOp>();
    auto inner = reshape ? reshape.getOperand().getDefiningOp<ConvertOp>()
                         : ConvertOp();
    // Ops with a layout or sharding keep them: the rewrite would drop them.
    if (!inner || !reshape->hasOneUse() || !inner->hasOneUse() ||
        llvm::any_of(std::initializer_list<Operation *>{op, reshape, inner},
                     [](Operation *o) {
                       return !o->getDiscardableAttrDictionary().empty();
                     }))
      return failure();
    Value x = inner.getOperand();
    auto xType = asTensor(x.getType());
    auto type = asTensor(op.getType());
    if (!xType || !type || xType.getElementType() != type.getElementType() ||
        xType.getRank() < 1 || type.getRank() < 1 ||
        xType.getShape().back() != type.getShape().back() ||
        nonUnitDims(xType.getShape()) == nonUnitDims(type.getShape()))
      return failure();
    Type narrow = inner.getType().getElementType();
    Value moved = ReshapeOp::create(rewriter, reshape.getLoc(),
                                    tensorOf(type.getShape(),
                                             xType.getElementType()),
                                    x);
    Value narrowed = ConvertOp::create(rewriter, inner.getLoc(),
                                       tensorOf(type.getShape(), narrow), moved);
    rewriter.replaceOpWithNewOp<ConvertOp>(op, type, narrowed);
    return success();
  }
};
} // namespace

namespace {
/// reduce(x, init) over dims that are all 1, with a body of one binary op
/// `op(acc, x)` -> op(broadcast(init), reshape(x)): each result element is
/// the body applied once, to the init and the one element it reduces
/// (XLA's reduce of a single element), so the values are the reduce's bit
/// for bit (-0 + 0, NaN and max included). jnp.all(m, axis=1) of an [N,1]
/// mask then is an elementwise op on [N], not a reduction over lanes
/// padded 128-fold.
struct ReduceOfUnitDims : public OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getInputs().size() != 1 ||
        !op->getDiscardableAttrDictionary().empty())
      return failure();
    auto inType = asTensor(op.getInputs()[0].getType());
    auto type = asTensor(op.getResult(0).getType());
    if (!inType || !type || !inType.hasStaticShape() ||
        llvm::any_of(op.getDimensions(),
                     [&](int64_t d) { return inType.getDimSize(d) != 1; }))
      return failure();
    Block &body = op.getBody().front();
    if (!llvm::hasSingleElement(body.without_terminator()))
      return failure();
    Operation &combine = body.front();
    if (!isa<HloDialect>(combine.getDialect()) ||
        !combine.hasTrait<OpTrait::Elementwise>() ||
        combine.getNumOperands() != 2 || combine.getNumResults() != 1 ||
        combine.getNumRegions() != 0 ||
        body.getTerminator()->getOperand(0) != combine.getResult(0) ||
        !combine.getDiscardableAttrDictionary().empty())
      return failure();
    Value acc = body.getArgument(0), element = body.getArgument(1);
    bool accFirst = combine.getOperand(0) == acc &&
                    combine.getOperand(1) == element;
    if (!accFirst && !(combine.getOperand(0) == element &&
                       combine.getOperand(1) == acc))
      return failure();
    Location loc = op.getLoc();
    Value init = BroadcastInDimOp::create(rewriter, loc, type,
                                          op.getInitValues()[0],
                                          ArrayRef<int64_t>{});
    Value x = ReshapeOp::create(rewriter, loc, type, op.getInputs()[0]);
    SmallVector<Value> operands =
        accFirst ? SmallVector<Value>{init, x} : SmallVector<Value>{x, init};
    OperationState state(loc, combine.getName(), operands, TypeRange{type},
                         combine.getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};
} // namespace

namespace {
/// Reductions over nothing, as XLA's AlgebraicSimplifier folds them: a
/// dot_general or convolution with an operand without elements and a
/// result with some sums over an empty dimension (zeros), a reduce of
/// inputs without elements is its init values, broadcast. (An op whose
/// results have no elements the code generator leaves out.)
struct FoldEmptyReductions : public RewritePattern {
  FoldEmptyReductions(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    auto isEmpty = [](Value v) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      return type && type.hasStaticShape() && type.getNumElements() == 0;
    };
    if (!isa<DotGeneralOp, ConvolutionOp, ReduceOp>(op) ||
        llvm::all_of(op->getResults(), isEmpty))
      return failure();
    DictionaryAttr attrs = op->getDiscardableAttrDictionary();
    if (!attrs.empty() && op->getNumResults() != 1)
      return failure();
    SmallVector<Value> replacements;
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      if (!llvm::all_of(reduce.getInputs(), isEmpty))
        return failure();
      for (auto [result, init] :
           llvm::zip(reduce.getResults(), reduce.getInitValues()))
        replacements.push_back(BroadcastInDimOp::create(
            rewriter, op->getLoc(), result.getType(), init,
            ArrayRef<int64_t>{}));
    } else {
      if (!llvm::any_of(op->getOperands(), isEmpty))
        return failure();
      auto type = cast<RankedTensorType>(op->getResult(0).getType());
      Type element = type.getElementType();
      TypedAttr zero = isa<FloatType>(element)
                           ? TypedAttr(rewriter.getFloatAttr(element, 0))
                           : TypedAttr(rewriter.getIntegerAttr(element, 0));
      replacements.push_back(ConstantOp::create(
          rewriter, op->getLoc(), DenseElementsAttr::get(type, zero)));
    }
    if (!attrs.empty())
      replacements.front().getDefiningOp()->setDiscardableAttrs(attrs);
    rewriter.replaceOp(op, replacements);
    return success();
  }
};
} // namespace

void HloDialect::getCanonicalizationPatterns(
    RewritePatternSet &patterns) const {
  patterns.add<ElementwiseOnRowVector, ReduceOfUnitDims, ReshapeBeforeRoundTrip,
               FoldEmptyReductions>(getContext());
}

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                            MLIRContext *context) {
  patterns.add<FoldReshapeOfReshape, SqueezeBeforeTranspose>(context);
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  Checker c{loc};
  auto in = asTensor(adaptor.getOperand().getType());
  if (!in)
    return c.fail("transpose operand must be a ranked tensor");
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  if (failed(c.size(perm, in.getRank(), "permutation")) ||
      failed(c.dimsInRange(perm, in.getRank(), "permutation entry")))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t dim : perm)
    shape.push_back(in.getDimSize(dim));
  results.push_back(tensorOf(shape, in.getElementType()));
  return success();
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  for (auto [i, dim] : llvm::enumerate(getPermutation()))
    if (static_cast<int64_t>(i) != dim)
      return {};
  return getOperand();
}

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                              MLIRContext *context) {
  patterns.add<FoldTransposeOfTranspose>(context);
}

LogicalResult ReverseOp::verify() {
  return Checker{getLoc()}.dimsInRange(
      getDimensions(), getOperand().getType().getRank(), "reverse dimension");
}

// Enum attributes print as their bare keyword (`GT`, `loop`).
template <typename AttrT>
static ParseResult parseEnumKeyword(OpAsmParser &parser, AttrT &attr) {
  using Enum = decltype(std::declval<AttrT>().getValue());
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<Enum> value = symbolizeEnum<Enum>(keyword);
  if (!value)
    return parser.emitError(loc, "unknown ")
           << AttrT::getMnemonic() << " '" << keyword << "'";
  attr = AttrT::get(parser.getContext(), *value);
  return success();
}

template <typename AttrT>
static void printEnumKeyword(OpAsmPrinter &printer, Operation *, AttrT attr) {
  printer << stringifyEnum(attr.getValue());
}

// compare's rhs and its optional `, TOTALORDER`, in one directive so that
// nothing is printed (not even a space) when the type is absent.
static ParseResult
parseRhsAndCompareType(OpAsmParser &parser,
                       OpAsmParser::UnresolvedOperand &rhs,
                       ComparisonTypeAttr &attr) {
  if (parser.parseOperand(rhs))
    return failure();
  if (failed(parser.parseOptionalComma()))
    return success();
  return parseEnumKeyword(parser, attr);
}

static void printRhsAndCompareType(OpAsmPrinter &printer, Operation *op,
                                   Value rhs, ComparisonTypeAttr attr) {
  printer << rhs;
  if (!attr)
    return;
  printer << ", ";
  printEnumKeyword(printer, op, attr);
}

// Slices print as `[start:limit:stride, ...]`.
static ParseResult parseSliceRanges(OpAsmParser &parser,
                                    DenseI64ArrayAttr &starts,
                                    DenseI64ArrayAttr &limits,
                                    DenseI64ArrayAttr &strides) {
  SmallVector<int64_t> start, limit, stride;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            int64_t a, b, s;
            if (parser.parseInteger(a) || parser.parseColon() ||
                parser.parseInteger(b) || parser.parseColon() ||
                parser.parseInteger(s))
              return failure();
            start.push_back(a);
            limit.push_back(b);
            stride.push_back(s);
            return success();
          }))
    return failure();
  MLIRContext *context = parser.getContext();
  starts = DenseI64ArrayAttr::get(context, start);
  limits = DenseI64ArrayAttr::get(context, limit);
  strides = DenseI64ArrayAttr::get(context, stride);
  return success();
}

static void printSliceRanges(OpAsmPrinter &printer, Operation *,
                             DenseI64ArrayAttr starts, DenseI64ArrayAttr limits,
                             DenseI64ArrayAttr strides) {
  printer << "[";
  for (int64_t i = 0, e = starts.size(); i < e; ++i) {
    if (i)
      printer << ", ";
    printer << starts[i] << ":" << (i < limits.size() ? limits[i] : 0) << ":"
            << (i < strides.size() ? strides[i] : 1);
  }
  printer << "]";
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  Checker c{loc};
  auto in = asTensor(adaptor.getOperand().getType());
  if (!in)
    return c.fail("slice operand must be a ranked tensor");
  int64_t rank = in.getRank();
  ArrayRef<int64_t> starts = adaptor.getStartIndices();
  ArrayRef<int64_t> limits = adaptor.getLimitIndices();
  ArrayRef<int64_t> strides = adaptor.getStrides();
  if (failed(c.size(starts, rank, "start_indices")) ||
      failed(c.size(limits, rank, "limit_indices")) ||
      failed(c.size(strides, rank, "strides")))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    if (starts[i] < 0 || starts[i] > limits[i] ||
        limits[i] > in.getDimSize(i) || strides[i] < 1)
      return c.fail("slice [" + Twine(starts[i]) + ":" + Twine(limits[i]) +
                    ":" + Twine(strides[i]) + "] of dimension " + Twine(i) +
                    " (size " + Twine(in.getDimSize(i)) +
                    ") needs 0 <= start <= limit <= size and stride >= 1");
    shape.push_back(llvm::divideCeil(limits[i] - starts[i], strides[i]));
  }
  results.push_back(tensorOf(shape, in.getElementType()));
  return success();
}

LogicalResult DynamicSliceOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  Checker c{loc};
  auto in = asTensor(adaptor.getOperand().getType());
  if (!in)
    return c.fail("dynamic_slice operand must be a ranked tensor");
  int64_t rank = in.getRank();
  ArrayRef<int64_t> sizes = adaptor.getSliceSizes();
  if (static_cast<int64_t>(adaptor.getStartIndices().size()) != rank)
    return c.fail("dynamic_slice has " +
                  Twine(adaptor.getStartIndices().size()) +
                  " start indices for a rank-" + Twine(rank) + " operand");
  if (failed(c.size(sizes, rank, "slice_sizes")))
    return failure();
  for (int64_t i = 0; i < rank; ++i)
    if (sizes[i] < 0 || sizes[i] > in.getDimSize(i))
      return c.fail("slice size " + Twine(sizes[i]) + " of dimension " +
                    Twine(i) + " is outside [0, " + Twine(in.getDimSize(i)) +
                    "]");
  results.push_back(tensorOf(sizes, in.getElementType()));
  return success();
}

LogicalResult DynamicUpdateSliceOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  Checker c{loc};
  auto in = asTensor(adaptor.getOperand().getType());
  auto update = asTensor(adaptor.getUpdate().getType());
  if (!in || !update)
    return c.fail("dynamic_update_slice operands must be ranked tensors");
  int64_t rank = in.getRank();
  if (update.getRank() != rank ||
      update.getElementType() != in.getElementType())
    return c.fail("update " + typeString(update) +
                  " must have the rank and element type of the operand " +
                  typeString(in));
  if (static_cast<int64_t>(adaptor.getStartIndices().size()) != rank)
    return c.fail("dynamic_update_slice has " +
                  Twine(adaptor.getStartIndices().size()) +
                  " start indices for a rank-" + Twine(rank) + " operand");
  for (int64_t i = 0; i < rank; ++i)
    if (update.getDimSize(i) > in.getDimSize(i))
      return c.fail("update dimension " + Twine(i) + " (size " +
                    Twine(update.getDimSize(i)) +
                    ") is larger than the operand's (" +
                    Twine(in.getDimSize(i)) + ")");
  results.push_back(in);
  return success();
}

LogicalResult ConcatenateOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  Checker c{loc};
  if (adaptor.getInputs().empty())
    return c.fail("concatenate needs at least one input");
  auto first = asTensor(adaptor.getInputs().front().getType());
  if (!first)
    return c.fail("concatenate inputs must be ranked tensors");
  int64_t dim = adaptor.getDimension();
  if (dim < 0 || dim >= first.getRank())
    return c.fail("concatenate dimension " + Twine(dim) +
                  " is out of range for rank " + Twine(first.getRank()));
  SmallVector<int64_t> shape(first.getShape());
  for (auto [i, input] : llvm::enumerate(adaptor.getInputs().drop_front())) {
    auto type = asTensor(input.getType());
    if (!type || type.getRank() != first.getRank() ||
        type.getElementType() != first.getElementType())
      return c.fail("input " + Twine(i + 1) + " " + typeString(input.getType()) +
                    " must have the rank and element type of input 0 " +
                    typeString(first));
    for (int64_t d = 0; d < first.getRank(); ++d)
      if (d != dim && type.getDimSize(d) != first.getDimSize(d))
        return c.fail("input " + Twine(i + 1) + " differs from input 0 in "
                      "dimension " +
                      Twine(d) + ", which is not the concatenated one");
    shape[dim] += type.getDimSize(dim);
  }
  results.push_back(tensorOf(shape, first.getElementType()));
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  Checker c{loc};
  auto in = asTensor(adaptor.getOperand().getType());
  auto value = asTensor(adaptor.getPaddingValue().getType());
  if (!in || !value)
    return c.fail("pad operands must be ranked tensors");
  if (value.getRank() != 0 || value.getElementType() != in.getElementType())
    return c.fail("padding value must be a rank-0 tensor of the operand's "
                  "element type, got " +
                  typeString(value));
  int64_t rank = in.getRank();
  ArrayRef<int64_t> low = adaptor.getEdgePaddingLow();
  ArrayRef<int64_t> high = adaptor.getEdgePaddingHigh();
  ArrayRef<int64_t> interior = adaptor.getInteriorPadding();
  if (failed(c.size(low, rank, "edge_padding_low")) ||
      failed(c.size(high, rank, "edge_padding_high")) ||
      failed(c.size(interior, rank, "interior_padding")))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    if (interior[i] < 0)
      return c.fail("interior padding of dimension " + Twine(i) +
                    " is negative (" + Twine(interior[i]) + ")");
    int64_t size = in.getDimSize(i);
    int64_t padded =
        size + low[i] + high[i] + std::max<int64_t>(size - 1, 0) * interior[i];
    if (padded < 0)
      return c.fail("padding makes dimension " + Twine(i) +
                    " negative in size (" + Twine(padded) + ")");
    shape.push_back(padded);
  }
  results.push_back(tensorOf(shape, in.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and windows
//===----------------------------------------------------------------------===//

/// Checks N same-shaped inputs and N rank-0 init values of their element
/// types; returns the inputs' shape.
static FailureOr<ArrayRef<int64_t>> checkInputsAndInits(const Checker &c,
                                                        ValueRange inputs,
                                                        ValueRange inits) {
  if (inputs.empty())
    return c.fail("needs at least one input");
  if (inputs.size() != inits.size())
    return c.fail("has " + Twine(inputs.size()) + " inputs but " +
                  Twine(inits.size()) + " init values");
  auto first = asTensor(inputs.front().getType());
  if (!first)
    return c.fail("inputs must be ranked tensors");
  for (auto [i, pair] : llvm::enumerate(llvm::zip(inputs, inits))) {
    auto input = asTensor(std::get<0>(pair).getType());
    auto init = asTensor(std::get<1>(pair).getType());
    if (!input || input.getShape() != first.getShape())
      return c.fail("input " + Twine(i) + " " +
                    typeString(std::get<0>(pair).getType()) +
                    " does not have the shape of input 0 " +
                    typeString(first));
    if (!init || init.getRank() != 0 ||
        init.getElementType() != input.getElementType())
      return c.fail("init value " + Twine(i) + " must be a rank-0 tensor of " +
                    typeString(input.getElementType()) + ", got " +
                    typeString(std::get<1>(pair).getType()));
  }
  return first.getShape();
}

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  Checker c{loc};
  FailureOr<ArrayRef<int64_t>> shape =
      checkInputsAndInits(c, adaptor.getInputs(), adaptor.getInitValues());
  if (failed(shape) ||
      failed(c.dimsInRange(adaptor.getDimensions(), shape->size(),
                           "reduce dimension")))
    return failure();
  SmallVector<int64_t> kept;
  for (auto [i, size] : llvm::enumerate(*shape))
    if (!llvm::is_contained(adaptor.getDimensions(), int64_t(i)))
      kept.push_back(size);
  for (Value init : adaptor.getInitValues())
    results.push_back(tensorOf(kept, asTensor(init.getType()).getElementType()));
  return success();
}

/// A reduction body: (acc..., x...) -> acc... as rank-0 tensors.
static LogicalResult verifyReducerRegion(Operation *op, Region &region,
                                         StringRef name, ValueRange inits) {
  SmallVector<Type> scalars = scalarsOf(inits.getTypes());
  SmallVector<Type> args(scalars);
  args.append(scalars);
  return verifyRegionSignature(op, region, name, args, scalars);
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyReducerRegion(*this, getBody(), "reducer", getInitValues());
}

LogicalResult ReduceWindowOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  Checker c{loc};
  FailureOr<ArrayRef<int64_t>> shape =
      checkInputsAndInits(c, adaptor.getInputs(), adaptor.getInitValues());
  if (failed(shape))
    return failure();
  FailureOr<Window> window =
      Window::check(c, shape->size(), adaptor.getWindowDimensions(),
                    adaptor.getWindowStrides(), adaptor.getBaseDilations(),
                    adaptor.getWindowDilations(), adaptor.getPadding());
  if (failed(window))
    return failure();
  SmallVector<int64_t> outShape = window->outputShape(*shape);
  for (Value init : adaptor.getInitValues())
    results.push_back(
        tensorOf(outShape, asTensor(init.getType()).getElementType()));
  return success();
}

LogicalResult ReduceWindowOp::verifyRegions() {
  return verifyReducerRegion(*this, getBody(), "reducer", getInitValues());
}

LogicalResult SelectAndScatterOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  Checker c{loc};
  auto operand = asTensor(adaptor.getOperand().getType());
  auto source = asTensor(adaptor.getSource().getType());
  auto init = asTensor(adaptor.getInitValue().getType());
  if (!operand || !source || !init)
    return c.fail("select_and_scatter operands must be ranked tensors");
  if (init.getRank() != 0 || init.getElementType() != source.getElementType())
    return c.fail("init value must be a rank-0 tensor of the source's "
                  "element type, got " +
                  typeString(init));
  FailureOr<Window> window = Window::check(
      c, operand.getRank(), adaptor.getWindowDimensions(),
      adaptor.getWindowStrides(), std::nullopt, std::nullopt,
      adaptor.getPadding());
  if (failed(window))
    return failure();
  SmallVector<int64_t> windows = window->outputShape(operand.getShape());
  if (source.getShape() != ArrayRef<int64_t>(windows))
    return c.fail("source " + typeString(source) +
                  " must have one element per window; the windows form " +
                  typeString(tensorOf(windows, source.getElementType())));
  results.push_back(tensorOf(operand.getShape(), source.getElementType()));
  return success();
}

LogicalResult SelectAndScatterOp::verifyRegions() {
  Type operandScalar = scalarsOf(getOperand().getType()).front();
  Type sourceScalar = scalarsOf(getSource().getType()).front();
  Type pred = tensorOf({}, IntegerType::get(getContext(), 1));
  if (failed(verifyRegionSignature(*this, getSelect(), "select",
                                   {operandScalar, operandScalar}, {pred})))
    return failure();
  return verifyRegionSignature(*this, getScatter(), "scatter",
                               {sourceScalar, sourceScalar}, {sourceScalar});
}

//===----------------------------------------------------------------------===//
// Dot and convolution
//===----------------------------------------------------------------------===//

static LogicalResult verifyPrecisionConfig(Operation *op,
                                           std::optional<ArrayAttr> config) {
  if (config && !config->empty() && config->size() != 2)
    return op->emitOpError() << "precision_config has " << config->size()
                             << " entries, expected 0 or 2 (lhs, rhs)";
  return success();
}

/// The operand element types of a dot_general or convolution: equal, or
/// floats that differ in precision (XLA's
/// SameElementTypeIgnoringFpPrecision): tpuc-split-convolution-precision
/// has the MXU kernels read an f32 operand that mixed_bfloat16 rounds to
/// bf16 only for the MXU.
static LogicalResult verifyContractionOperandTypes(Operation *op,
                                                   RankedTensorType lhs,
                                                   RankedTensorType rhs) {
  Type l = lhs.getElementType(), r = rhs.getElementType();
  if (l != r && !(isa<FloatType>(l) && isa<FloatType>(r)))
    return op->emitOpError() << "operand element types differ: " << l
                             << " vs " << r;
  return success();
}

LogicalResult DotGeneralOp::verify() {
  Checker c{getLoc()};
  auto lhs = getLhs().getType();
  auto rhs = getRhs().getType();
  DotDimensionNumbersAttr dims = getDotDimensionNumbers();
  if (failed(verifyContractionOperandTypes(*this, lhs, rhs)))
    return failure();
  if (dims.getLhsBatch().size() != dims.getRhsBatch().size())
    return emitOpError() << "lhs and rhs have different numbers of batch "
                            "dimensions";
  if (dims.getLhsContracting().size() != dims.getRhsContracting().size())
    return emitOpError() << "lhs and rhs have different numbers of "
                            "contracting dimensions";
  SmallVector<int64_t> lhsUsed(dims.getLhsBatch());
  llvm::append_range(lhsUsed, dims.getLhsContracting());
  SmallVector<int64_t> rhsUsed(dims.getRhsBatch());
  llvm::append_range(rhsUsed, dims.getRhsContracting());
  if (failed(c.dimsInRange(lhsUsed, lhs.getRank(),
                           "lhs batch/contracting dimension")) ||
      failed(c.dimsInRange(rhsUsed, rhs.getRank(),
                           "rhs batch/contracting dimension")))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [l, r] : llvm::zip(dims.getLhsBatch(), dims.getRhsBatch())) {
    if (lhs.getDimSize(l) != rhs.getDimSize(r))
      return emitOpError() << "batch dimension sizes differ: lhs dimension "
                           << l << " is " << lhs.getDimSize(l)
                           << ", rhs dimension " << r << " is "
                           << rhs.getDimSize(r);
    shape.push_back(lhs.getDimSize(l));
  }
  for (auto [l, r] :
       llvm::zip(dims.getLhsContracting(), dims.getRhsContracting()))
    if (lhs.getDimSize(l) != rhs.getDimSize(r))
      return emitOpError() << "contracting dimension sizes differ: lhs "
                              "dimension "
                           << l << " is " << lhs.getDimSize(l)
                           << ", rhs dimension " << r << " is "
                           << rhs.getDimSize(r);
  for (int64_t d = 0; d < lhs.getRank(); ++d)
    if (!llvm::is_contained(lhsUsed, d))
      shape.push_back(lhs.getDimSize(d));
  for (int64_t d = 0; d < rhs.getRank(); ++d)
    if (!llvm::is_contained(rhsUsed, d))
      shape.push_back(rhs.getDimSize(d));
  if (getType().getShape() != ArrayRef<int64_t>(shape))
    return emitOpError() << "result shape must be "
                         << tensorOf(shape, getType().getElementType())
                         << " (batch, lhs free, rhs free), got " << getType();
  return verifyPrecisionConfig(*this, getPrecisionConfig());
}

namespace {
/// dot_general(transpose(x), y) -> dot_general(x, y) with the transpose
/// folded into the dimension numbers, when the result's dimension order
/// stays the same (the free dimensions keep their relative order). Same
/// for the rhs.
struct FoldTransposeIntoDot : public OpRewritePattern<DotGeneralOp> {
  using OpRewritePattern::OpRewritePattern;

  /// Maps `side`'s dimension numbers through its transpose; fails when the
  /// free dimensions would change order.
  static bool remap(TransposeOp transpose, ArrayRef<int64_t> batch,
                    ArrayRef<int64_t> contracting,
                    SmallVectorImpl<int64_t> &newBatch,
                    SmallVectorImpl<int64_t> &newContracting) {
    ArrayRef<int64_t> perm = transpose.getPermutation();
    for (int64_t d : batch)
      newBatch.push_back(perm[d]);
    for (int64_t d : contracting)
      newContracting.push_back(perm[d]);
    int64_t last = -1;
    for (int64_t d = 0, e = perm.size(); d < e; ++d) {
      if (llvm::is_contained(batch, d) || llvm::is_contained(contracting, d))
        continue;
      if (perm[d] < last)
        return false;
      last = perm[d];
    }
    return true;
  }

  LogicalResult matchAndRewrite(DotGeneralOp op,
                                PatternRewriter &rewriter) const override {
    DotDimensionNumbersAttr dims = op.getDotDimensionNumbers();
    SmallVector<int64_t> lhsBatch(dims.getLhsBatch()),
        lhsContracting(dims.getLhsContracting()),
        rhsBatch(dims.getRhsBatch()),
        rhsContracting(dims.getRhsContracting());
    Value lhs = op.getLhs(), rhs = op.getRhs();
    // Looks through `operand`'s transpose, updating its dimension numbers.
    auto foldSide = [](Value &operand, SmallVector<int64_t> &batch,
                       SmallVector<int64_t> &contracting) {
      auto t = operand.getDefiningOp<TransposeOp>();
      SmallVector<int64_t> newBatch, newContracting;
      if (!t || !remap(t, batch, contracting, newBatch, newContracting))
        return false;
      operand = t.getOperand();
      batch = newBatch;
      contracting = newContracting;
      return true;
    };
    bool changed = foldSide(lhs, lhsBatch, lhsContracting);
    changed |= foldSide(rhs, rhsBatch, rhsContracting);
    if (!changed)
      return failure();
    auto newDims = DotDimensionNumbersAttr::get(
        op.getContext(), lhsBatch, rhsBatch, lhsContracting, rhsContracting);
    rewriter.modifyOpInPlace(op, [&] {
      op.getLhsMutable().assign(lhs);
      op.getRhsMutable().assign(rhs);
      op.setDotDimensionNumbersAttr(newDims);
    });
    return success();
  }
};
} // namespace

void DotGeneralOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                               MLIRContext *context) {
  patterns.add<FoldTransposeIntoDot>(context);
}

namespace {
/// `x > c` for a constant bound `c` (a constant, or a broadcast of one)
/// where `maximum(x, c)` is computed before it: `maximum(x, c) > c`, equal
/// for every x and c (both false when either is NaN, and for x = c).
/// Likewise `c < x`, and `x < c` (`c > x`) with `minimum(x, c)`. JAX's relu
/// gradient compares the pre-activation with 0 beside relu's own maximum;
/// comparing the activation instead leaves the maximum the pre-activation's
/// only reader, so a training step does not keep both (the dot that
/// computes them writes the activation alone). Floats with IEEE compares
/// only (a TOTALORDER compare orders NaNs the maximum does not keep).
struct CompareClampedOperand : OpRewritePattern<CompareOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CompareOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<FloatType>(getElementTypeOrSelf(op.getLhs().getType())) ||
        (op.getCompareType() &&
         *op.getCompareType() != ComparisonType::FLOAT))
      return failure();
    ComparisonDirection dir = op.getComparisonDirection();
    if (dir != ComparisonDirection::GT && dir != ComparisonDirection::LT)
      return failure();
    auto isConstant = [](Value v) {
      if (auto bcast = v.getDefiningOp<BroadcastInDimOp>())
        v = bcast.getOperand();
      return matchPattern(v, m_Constant());
    };
    for (unsigned side : {0u, 1u}) {
      Value x = op->getOperand(side), c = op->getOperand(1 - side);
      if (!isConstant(c) || isConstant(x))
        continue;
      // x above c (x > c, c < x) reads maximum(x, c); x below c, minimum.
      bool above = (dir == ComparisonDirection::GT) == (side == 0);
      for (Operation *user : x.getUsers()) {
        bool clamps = above ? isa<MaximumOp>(user) : isa<MinimumOp>(user);
        if (!clamps || user->getBlock() != op->getBlock() ||
            !user->isBeforeInBlock(op) ||
            !llvm::is_contained(user->getOperands(), c))
          continue;
        rewriter.modifyOpInPlace(
            op, [&] { op->setOperand(side, user->getResult(0)); });
        return success();
      }
    }
    return failure();
  }
};
} // namespace

void CompareOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                            MLIRContext *context) {
  patterns.add<CompareClampedOperand>(context);
}

namespace {
/// Whether `v` is +0.0: a splat constant, possibly converted (JAX pads with
/// `convert(0)`), as the zeros of a convolution's own padding.
bool isPositiveZero(Value v) {
  while (auto convert = v.getDefiningOp<ConvertOp>())
    v = convert.getOperand();
  auto cst = v.getDefiningOp<ConstantOp>();
  auto value = cst ? dyn_cast<DenseElementsAttr>(cst.getValue()) : nullptr;
  if (!value || !value.isSplat())
    return false;
  if (isa<FloatType>(value.getElementType()))
    return value.getSplatValue<APFloat>().isPosZero();
  return isa<IntegerType>(value.getElementType()) &&
         value.getSplatValue<APInt>().isZero();
}

/// `convolution(pad(x, +0.0), w)` with edge padding of the spatial dims
/// only (JAX's and Keras' explicit padding, e.g. resnet50's stem and
/// ZeroPadding2D) is `convolution(x, w)` with that padding added to its
/// own, which the kernels apply in VMEM: the padded copy is never
/// written to HBM.
struct FoldPadIntoConvolution : OpRewritePattern<ConvolutionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvolutionOp op,
                                PatternRewriter &rewriter) const override {
    auto pad = op.getLhs().getDefiningOp<PadOp>();
    if (!pad || !isPositiveZero(pad.getPaddingValue()) ||
        llvm::any_of(pad.getInteriorPadding(), [](int64_t p) { return p; }))
      return failure();
    if (auto dilation = op.getLhsDilation())
      if (llvm::any_of(*dilation, [](int64_t d) { return d != 1; }))
        return failure();
    ArrayRef<int64_t> spatial = op.getDimensionNumbers().getInputSpatial();
    ArrayRef<int64_t> lo = pad.getEdgePaddingLow(),
                      hi = pad.getEdgePaddingHigh();
    for (int64_t d = 0, e = lo.size(); d < e; ++d)
      if (lo[d] < 0 || hi[d] < 0 ||
          (!llvm::is_contained(spatial, d) && (lo[d] || hi[d])))
        return failure();
    SmallVector<int64_t> padding(2 * spatial.size(), 0);
    if (auto own = op.getPadding())
      padding.assign(own->begin(), own->end());
    for (auto [i, d] : llvm::enumerate(spatial)) {
      padding[2 * i] += lo[d];
      padding[2 * i + 1] += hi[d];
    }
    rewriter.modifyOpInPlace(op, [&] {
      op.getLhsMutable().assign(pad.getOperand());
      op.setPaddingAttr(rewriter.getDenseI64ArrayAttr(padding));
    });
    return success();
  }
};
} // namespace

void ConvolutionOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                                MLIRContext *context) {
  patterns.add<FoldPadIntoConvolution>(context);
}

namespace {
/// The value of `v` if it is a float splat: a constant, possibly broadcast
/// or converted (JAX pads with `convert(0)` of an s32 constant), with each
/// convert applied as XLA rounds (to nearest even).
std::optional<APFloat> floatSplat(Value v) {
  SmallVector<FloatType> converts; // outermost first
  while (true) {
    if (auto bcast = v.getDefiningOp<BroadcastInDimOp>()) {
      v = bcast.getOperand();
    } else if (auto convert = v.getDefiningOp<ConvertOp>()) {
      auto to = dyn_cast<FloatType>(getElementTypeOrSelf(convert.getType()));
      if (!to)
        return std::nullopt;
      converts.push_back(to);
      v = convert.getOperand();
    } else {
      break;
    }
  }
  auto cst = v.getDefiningOp<ConstantOp>();
  auto value = cst ? dyn_cast<DenseElementsAttr>(cst.getValue()) : nullptr;
  if (!value || !value.isSplat())
    return std::nullopt;
  std::optional<APFloat> f;
  if (isa<FloatType>(value.getElementType()))
    f = value.getSplatValue<APFloat>();
  for (FloatType to : llvm::reverse(converts)) {
    bool losesInfo = false;
    if (f) {
      f->convert(to.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                 &losesInfo);
      continue;
    }
    auto from = dyn_cast<IntegerType>(value.getElementType());
    if (!from || from.getWidth() == 1)
      return std::nullopt;
    f = APFloat(to.getFloatSemantics());
    f->convertFromAPInt(value.getSplatValue<APInt>(), !from.isUnsigned(),
                        APFloat::rmNearestTiesToEven);
  }
  return f;
}

/// The op of a reducer `return op(a, b)` over its two arguments, or null.
Operation *binaryReducer(Region &body) {
  Block &block = body.front();
  if (block.getNumArguments() != 2 ||
      !llvm::hasSingleElement(block.without_terminator()))
    return nullptr;
  Operation &op = block.front();
  Operation *ret = block.getTerminator();
  if (op.getNumOperands() != 2 || op.getNumResults() != 1 ||
      ret->getNumOperands() != 1 || ret->getOperand(0) != op.getResult(0) ||
      !llvm::is_contained(op.getOperands(), block.getArgument(0)) ||
      !llvm::is_contained(op.getOperands(), block.getArgument(1)))
    return nullptr;
  return &op;
}

/// `reduce_window(pad(x, p), init)` with edge padding only is
/// `reduce_window(x, init)` with that padding added to its own (XLA's
/// algebraic simplifier folds such pads) when the padding cannot change a
/// window's value: p is the init value; or the reducer is max (min), x is
/// `maximum(y, c)` (`minimum`) with c >= p (c <= p) and every window holds
/// an element of x. resnet50's pool1 is the second case: relu, a pad by
/// 0, a -inf max-pool. The pooling kernel pads in VMEM: the padded copy
/// is never written to HBM.
struct FoldPadIntoReduceWindow : OpRewritePattern<ReduceWindowOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceWindowOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getInputs().size() != 1)
      return failure();
    auto pad = op.getInputs()[0].getDefiningOp<PadOp>();
    auto ones = [](std::optional<ArrayRef<int64_t>> a) {
      return !a || llvm::all_of(*a, [](int64_t v) { return v == 1; });
    };
    if (!pad ||
        llvm::any_of(pad.getInteriorPadding(), [](int64_t p) { return p; }) ||
        !ones(op.getBaseDilations()) || !ones(op.getWindowDilations()))
      return failure();
    ArrayRef<int64_t> lo = pad.getEdgePaddingLow(),
                      hi = pad.getEdgePaddingHigh();
    if (llvm::any_of(lo, [](int64_t p) { return p < 0; }) ||
        llvm::any_of(hi, [](int64_t p) { return p < 0; }))
      return failure();
    int64_t rank = static_cast<int64_t>(lo.size());
    SmallVector<int64_t> padding(2 * rank, 0);
    if (auto own = op.getPadding())
      padding.assign(own->begin(), own->end());
    for (int64_t d = 0; d < rank; ++d) {
      padding[2 * d] += lo[d];
      padding[2 * d + 1] += hi[d];
    }
    if (!padIsInit(op, pad) && !padBelowWindows(op, pad, padding))
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.getInputsMutable().assign(pad.getOperand());
      op.setPaddingAttr(rewriter.getDenseI64ArrayAttr(padding));
    });
    return success();
  }

private:
  static bool padIsInit(ReduceWindowOp op, PadOp pad) {
    Value init = op.getInitValues()[0], value = pad.getPaddingValue();
    Attribute a, b;
    if (matchPattern(init, m_Constant(&a)) &&
        matchPattern(value, m_Constant(&b)))
      return a == b;
    std::optional<APFloat> fa = floatSplat(init), fb = floatSplat(value);
    return fa && fb && fa->bitwiseIsEqual(*fb);
  }

  /// Whether x = pad's operand is clamped on the reducer's side of the pad
  /// value and every window (with `padding`, the folded padding) holds an
  /// element of x, so the pad value never wins.
  static bool padBelowWindows(ReduceWindowOp op, PadOp pad,
                              ArrayRef<int64_t> padding) {
    Operation *reducer = binaryReducer(op.getBody());
    Operation *clamp = pad.getOperand().getDefiningOp();
    bool max = reducer && isa<MaximumOp>(reducer);
    if (!reducer || !(max || isa<MinimumOp>(reducer)) || !clamp ||
        clamp->getName() != reducer->getName())
      return false;
    std::optional<APFloat> value = floatSplat(pad.getPaddingValue());
    if (!value)
      return false;
    bool clamped = llvm::any_of(clamp->getOperands(), [&](Value v) {
      std::optional<APFloat> c = floatSplat(v);
      if (!c)
        return false;
      APFloat::cmpResult cmp = c->compare(*value);
      return cmp == APFloat::cmpEqual ||
             cmp == (max ? APFloat::cmpGreaterThan : APFloat::cmpLessThan);
    });
    if (!clamped)
      return false;
    // Window o of dim d covers x's [o*s - lo, o*s - lo + k - 1]: the first
    // and the last window must reach into [0, n).
    auto x = dyn_cast<RankedTensorType>(pad.getOperand().getType());
    if (!x)
      return false;
    ArrayRef<int64_t> shape = x.getShape(), window = op.getWindowDimensions();
    auto strides = op.getWindowStrides();
    for (int64_t d = 0, e = shape.size(); d < e; ++d) {
      int64_t n = shape[d], k = window[d], s = strides ? (*strides)[d] : 1;
      int64_t padded = n + padding[2 * d] + padding[2 * d + 1];
      if (n < 1 || padded < k || padding[2 * d] > k - 1 ||
          (padded - k) / s * s - padding[2 * d] > n - 1)
        return false;
    }
    return true;
  }
};
} // namespace

void ReduceWindowOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                                 MLIRContext *context) {
  patterns.add<FoldPadIntoReduceWindow>(context);
}

LogicalResult ConvolutionOp::verify() {
  Checker c{getLoc()};
  auto lhs = getLhs().getType();
  auto rhs = getRhs().getType();
  auto out = getType();
  ConvDimensionNumbersAttr dn = getDimensionNumbers();
  int64_t rank = lhs.getRank();
  int64_t spatial = static_cast<int64_t>(dn.getInputSpatial().size());
  if (failed(verifyContractionOperandTypes(*this, lhs, rhs)))
    return failure();
  if (rhs.getRank() != rank || out.getRank() != rank || rank != spatial + 2)
    return emitOpError() << "input, kernel and result must all have rank "
                         << spatial + 2 << " (dim_labels \""
                         << dn.getDimLabels() << "\"), got " << rank << ", "
                         << rhs.getRank() << " and " << out.getRank();
  auto all = [](int64_t a, int64_t b, ArrayRef<int64_t> s) {
    SmallVector<int64_t> dims{a, b};
    llvm::append_range(dims, s);
    return dims;
  };
  if (failed(c.dimsInRange(all(dn.getInputBatch(), dn.getInputFeature(),
                               dn.getInputSpatial()),
                           rank, "input dimension")) ||
      failed(c.dimsInRange(all(dn.getKernelInputFeature(),
                               dn.getKernelOutputFeature(),
                               dn.getKernelSpatial()),
                           rank, "kernel dimension")) ||
      failed(c.dimsInRange(all(dn.getOutputBatch(), dn.getOutputFeature(),
                               dn.getOutputSpatial()),
                           rank, "output dimension")))
    return failure();
  SmallVector<int64_t> strides = orDefault(getWindowStrides(), spatial, 1);
  SmallVector<int64_t> padding = orDefault(getPadding(), 2 * spatial, 0);
  SmallVector<int64_t> lhsDil = orDefault(getLhsDilation(), spatial, 1);
  SmallVector<int64_t> rhsDil = orDefault(getRhsDilation(), spatial, 1);
  if (failed(c.size(strides, spatial, "window_strides")) ||
      failed(c.size(padding, 2 * spatial, "padding (low, high per dim)")) ||
      failed(c.size(lhsDil, spatial, "lhs_dilation")) ||
      failed(c.size(rhsDil, spatial, "rhs_dilation")))
    return failure();
  if (getWindowReversal() &&
      static_cast<int64_t>(getWindowReversal()->size()) != spatial)
    return emitOpError() << "window_reversal has "
                         << getWindowReversal()->size()
                         << " entries, expected " << spatial;
  for (int64_t i = 0; i < spatial; ++i)
    if (strides[i] < 1 || lhsDil[i] < 1 || rhsDil[i] < 1)
      return emitOpError() << "strides and dilations must be >= 1 (spatial "
                              "dimension "
                           << i << ")";
  int64_t groups = getFeatureGroupCount();
  int64_t batchGroups = getBatchGroupCount();
  int64_t inFeatures = lhs.getDimSize(dn.getInputFeature());
  int64_t kernelIn = rhs.getDimSize(dn.getKernelInputFeature());
  int64_t kernelOut = rhs.getDimSize(dn.getKernelOutputFeature());
  int64_t batch = lhs.getDimSize(dn.getInputBatch());
  if (groups > 1 && batchGroups > 1)
    return emitOpError() << "feature_group_count and batch_group_count cannot "
                            "both be > 1";
  if (inFeatures != kernelIn * groups)
    return emitOpError() << "input feature dimension (" << inFeatures
                         << ") must equal kernel input features (" << kernelIn
                         << ") times feature_group_count (" << groups << ")";
  if (kernelOut % groups != 0)
    return emitOpError() << "kernel output features (" << kernelOut
                         << ") must be a multiple of feature_group_count ("
                         << groups << ")";
  if (batch % batchGroups != 0 || kernelOut % batchGroups != 0)
    return emitOpError() << "input batch (" << batch
                         << ") and kernel output features (" << kernelOut
                         << ") must be multiples of batch_group_count ("
                         << batchGroups << ")";
  SmallVector<int64_t> shape(rank, 0);
  shape[dn.getOutputBatch()] = batch / batchGroups;
  shape[dn.getOutputFeature()] = kernelOut;
  for (int64_t i = 0; i < spatial; ++i)
    shape[dn.getOutputSpatial()[i]] = windowedSize(
        lhs.getDimSize(dn.getInputSpatial()[i]),
        rhs.getDimSize(dn.getKernelSpatial()[i]), strides[i], padding[2 * i],
        padding[2 * i + 1], lhsDil[i], rhsDil[i]);
  if (out.getShape() != ArrayRef<int64_t>(shape))
    return emitOpError() << "result shape must be "
                         << tensorOf(shape, out.getElementType()) << ", got "
                         << out;
  return verifyPrecisionConfig(*this, getPrecisionConfig());
}

//===----------------------------------------------------------------------===//
// Gather, scatter, sort, topk
//===----------------------------------------------------------------------===//

/// The dimensions of `indices` other than `indexVectorDim` (XLA: the batch
/// dimensions of a gather/scatter), and the index vector's length.
static std::pair<SmallVector<int64_t>, int64_t>
indexBatchDims(RankedTensorType indices, int64_t indexVectorDim) {
  SmallVector<int64_t> batch;
  for (int64_t d = 0; d < indices.getRank(); ++d)
    if (d != indexVectorDim)
      batch.push_back(indices.getDimSize(d));
  int64_t vectorSize =
      indexVectorDim == indices.getRank() ? 1
                                          : indices.getDimSize(indexVectorDim);
  return {batch, vectorSize};
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  Checker c{loc};
  auto operand = asTensor(adaptor.getOperand().getType());
  auto indices = asTensor(adaptor.getStartIndices().getType());
  GatherDimensionNumbersAttr dn = adaptor.getDimensionNumbers();
  if (!operand || !indices || !dn)
    return c.fail("gather needs ranked tensor operands and dimension numbers");
  int64_t rank = operand.getRank();
  int64_t ivd = dn.getIndexVectorDim();
  ArrayRef<int64_t> sizes = adaptor.getSliceSizes();
  if (ivd < 0 || ivd > indices.getRank())
    return c.fail("index_vector_dim " + Twine(ivd) + " is out of range [0, " +
                  Twine(indices.getRank()) + "]");
  auto [batch, vectorSize] = indexBatchDims(indices, ivd);
  if (failed(c.size(sizes, rank, "slice_sizes")) ||
      failed(c.sorted(dn.getOffsetDims(), "offset_dims")) ||
      failed(c.sorted(dn.getCollapsedSliceDims(), "collapsed_slice_dims")) ||
      failed(c.sorted(dn.getOperandBatchingDims(), "operand_batching_dims")) ||
      failed(c.dimsInRange(dn.getCollapsedSliceDims(), rank,
                           "collapsed slice dimension")) ||
      failed(c.dimsInRange(dn.getOperandBatchingDims(), rank,
                           "operand batching dimension")) ||
      failed(c.dimsInRange(dn.getStartIndexMap(), rank,
                           "start_index_map entry")) ||
      failed(c.dimsInRange(dn.getStartIndicesBatchingDims(),
                           indices.getRank(),
                           "start indices batching dimension")))
    return failure();
  if (static_cast<int64_t>(dn.getStartIndexMap().size()) != vectorSize)
    return c.fail("start_index_map has " + Twine(dn.getStartIndexMap().size()) +
                  " entries but the index vector has " + Twine(vectorSize));
  if (dn.getOperandBatchingDims().size() !=
      dn.getStartIndicesBatchingDims().size())
    return c.fail("operand_batching_dims and start_indices_batching_dims "
                  "differ in length");
  for (int64_t d = 0; d < rank; ++d) {
    if (sizes[d] < 0 || sizes[d] > operand.getDimSize(d))
      return c.fail("slice size " + Twine(sizes[d]) + " of dimension " +
                    Twine(d) + " is outside [0, " +
                    Twine(operand.getDimSize(d)) + "]");
    bool collapsed = llvm::is_contained(dn.getCollapsedSliceDims(), d) ||
                     llvm::is_contained(dn.getOperandBatchingDims(), d);
    if (collapsed && sizes[d] > 1)
      return c.fail("collapsed or batching dimension " + Twine(d) +
                    " must have slice size 0 or 1, got " + Twine(sizes[d]));
  }
  SmallVector<int64_t> offsetSizes;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dn.getCollapsedSliceDims(), d) &&
        !llvm::is_contained(dn.getOperandBatchingDims(), d))
      offsetSizes.push_back(sizes[d]);
  if (dn.getOffsetDims().size() != offsetSizes.size())
    return c.fail("offset_dims has " + Twine(dn.getOffsetDims().size()) +
                  " entries, expected " + Twine(offsetSizes.size()) +
                  " (operand rank minus collapsed and batching dimensions)");
  int64_t outRank = offsetSizes.size() + batch.size();
  if (failed(c.dimsInRange(dn.getOffsetDims(), outRank, "offset dimension")))
    return failure();
  SmallVector<int64_t> shape;
  size_t nextOffset = 0, nextBatch = 0;
  for (int64_t d = 0; d < outRank; ++d)
    shape.push_back(llvm::is_contained(dn.getOffsetDims(), d)
                        ? offsetSizes[nextOffset++]
                        : batch[nextBatch++]);
  results.push_back(tensorOf(shape, operand.getElementType()));
  return success();
}

LogicalResult ScatterOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  Checker c{loc};
  ValueRange inputs = adaptor.getInputs();
  ValueRange updates = adaptor.getUpdates();
  auto indices = asTensor(adaptor.getScatterIndices().getType());
  ScatterDimensionNumbersAttr dn = adaptor.getDimensionNumbers();
  if (inputs.empty() || inputs.size() != updates.size() || !indices || !dn)
    return c.fail("scatter needs N >= 1 inputs, N updates, indices and "
                  "dimension numbers");
  auto input = asTensor(inputs.front().getType());
  auto update = asTensor(updates.front().getType());
  if (!input || !update)
    return c.fail("scatter operands must be ranked tensors");
  for (auto [i, pair] : llvm::enumerate(llvm::zip(inputs, updates))) {
    auto in = asTensor(std::get<0>(pair).getType());
    auto up = asTensor(std::get<1>(pair).getType());
    if (!in || !up || in.getShape() != input.getShape() ||
        up.getShape() != update.getShape() ||
        in.getElementType() != up.getElementType())
      return c.fail("input " + Twine(i) + " and update " + Twine(i) +
                    " must have the shapes of input 0 and update 0 and one "
                    "element type");
    results.push_back(in);
  }
  int64_t rank = input.getRank();
  int64_t ivd = dn.getIndexVectorDim();
  if (ivd < 0 || ivd > indices.getRank())
    return c.fail("index_vector_dim " + Twine(ivd) + " is out of range [0, " +
                  Twine(indices.getRank()) + "]");
  auto [batch, vectorSize] = indexBatchDims(indices, ivd);
  ArrayRef<int64_t> window = dn.getUpdateWindowDims();
  int64_t expectedRank = window.size() + batch.size();
  if (update.getRank() != expectedRank)
    return c.fail("updates have rank " + Twine(update.getRank()) +
                  ", expected " + Twine(expectedRank) +
                  " (update_window_dims plus the index batch dimensions)");
  if (failed(c.sorted(window, "update_window_dims")) ||
      failed(c.sorted(dn.getInsertedWindowDims(), "inserted_window_dims")) ||
      failed(c.sorted(dn.getInputBatchingDims(), "input_batching_dims")) ||
      failed(c.dimsInRange(window, update.getRank(), "update window dimension")) ||
      failed(c.dimsInRange(dn.getInsertedWindowDims(), rank,
                           "inserted window dimension")) ||
      failed(c.dimsInRange(dn.getInputBatchingDims(), rank,
                           "input batching dimension")) ||
      failed(c.dimsInRange(dn.getScatterDimsToOperandDims(), rank,
                           "scatter_dims_to_operand_dims entry")) ||
      failed(c.dimsInRange(dn.getScatterIndicesBatchingDims(),
                           indices.getRank(),
                           "scatter indices batching dimension")))
    return failure();
  if (static_cast<int64_t>(window.size() + dn.getInsertedWindowDims().size() +
                           dn.getInputBatchingDims().size()) != rank)
    return c.fail("update_window_dims, inserted_window_dims and "
                  "input_batching_dims must together cover the input's " +
                  Twine(rank) + " dimensions");
  if (static_cast<int64_t>(dn.getScatterDimsToOperandDims().size()) !=
      vectorSize)
    return c.fail("scatter_dims_to_operand_dims has " +
                  Twine(dn.getScatterDimsToOperandDims().size()) +
                  " entries but the index vector has " + Twine(vectorSize));
  // Window dimensions of the update fit in the input's uncollapsed ones;
  // the other update dimensions follow the index batch dimensions.
  size_t nextWindow = 0, nextBatch = 0;
  SmallVector<int64_t> windowInputDims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dn.getInsertedWindowDims(), d) &&
        !llvm::is_contained(dn.getInputBatchingDims(), d))
      windowInputDims.push_back(d);
  for (int64_t d = 0; d < update.getRank(); ++d) {
    int64_t size = update.getDimSize(d);
    if (llvm::is_contained(window, d)) {
      int64_t inputDim = windowInputDims[nextWindow++];
      if (size > input.getDimSize(inputDim))
        return c.fail("update window dimension " + Twine(d) + " (size " +
                      Twine(size) + ") exceeds input dimension " +
                      Twine(inputDim) + " (size " +
                      Twine(input.getDimSize(inputDim)) + ")");
    } else if (size != batch[nextBatch++]) {
      return c.fail("update scatter dimension " + Twine(d) + " (size " +
                    Twine(size) +
                    ") does not match the corresponding index batch "
                    "dimension (size " +
                    Twine(batch[nextBatch - 1]) + ")");
    }
  }
  return success();
}

LogicalResult ScatterOp::verifyRegions() {
  return verifyReducerRegion(*this, getUpdateComputation(),
                             "update computation", getInputs());
}

LogicalResult SortOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  Checker c{loc};
  if (adaptor.getInputs().empty())
    return c.fail("sort needs at least one input");
  auto first = asTensor(adaptor.getInputs().front().getType());
  if (!first)
    return c.fail("sort inputs must be ranked tensors");
  for (Value input : adaptor.getInputs()) {
    auto type = asTensor(input.getType());
    if (!type || type.getShape() != first.getShape())
      return c.fail("sort inputs must all have the shape of input 0 " +
                    typeString(first) + ", got " + typeString(input.getType()));
    results.push_back(type);
  }
  if (adaptor.getDimension() >= static_cast<uint64_t>(first.getRank()))
    return c.fail("sort dimension " + Twine(adaptor.getDimension()) +
                  " is out of range for rank " + Twine(first.getRank()));
  return success();
}

LogicalResult SortOp::verifyRegions() {
  SmallVector<Type> args;
  for (Type scalar : scalarsOf(getInputs().getTypes())) {
    args.push_back(scalar);
    args.push_back(scalar);
  }
  Type pred = tensorOf({}, IntegerType::get(getContext(), 1));
  return verifyRegionSignature(*this, getComparator(), "comparator", args,
                               {pred});
}

LogicalResult MapOp::verifyRegions() {
  auto result = cast<RankedTensorType>(getResult().getType());
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  for (auto [i, input] : llvm::enumerate(getInputs()))
    if (cast<ShapedType>(input.getType()).getShape() != result.getShape())
      return emitOpError() << "input " << i << " has type " << input.getType()
                           << ", but every input must have the result's shape "
                           << result;
  ArrayRef<int64_t> dims = getDimensions();
  for (int64_t d = 0; d < result.getRank(); ++d)
    if (static_cast<int64_t>(dims.size()) != result.getRank() || dims[d] != d)
      return emitOpError() << "dimensions must list every dimension in order "
                              "(0 to "
                           << result.getRank() - 1 << ")";
  if (result.getRank() == 0 && !dims.empty())
    return emitOpError("dimensions must be empty for a rank-0 map");
  return verifyRegionSignature(*this, getComputation(), "computation",
                               scalarsOf(getInputs().getTypes()),
                               {tensorOf({}, result.getElementType())});
}

LogicalResult TopKOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  auto in = asTensor(adaptor.getOperand().getType());
  if (!in || in.getRank() < 1)
    return emitOptionalError(loc, "topk operand must have rank >= 1");
  int64_t k = adaptor.getK();
  if (k > in.getShape().back())
    return emitOptionalError(loc, "k = ", k,
                             " exceeds the last dimension's size ",
                             in.getShape().back());
  SmallVector<int64_t> shape(in.getShape());
  shape.back() = k;
  results.push_back(tensorOf(shape, in.getElementType()));
  results.push_back(tensorOf(shape, IntegerType::get(context, 32)));
  return success();
}

//===----------------------------------------------------------------------===//
// Tuples, calls and control flow
//===----------------------------------------------------------------------===//

LogicalResult TupleOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location>,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  results.push_back(
      TupleType::get(context, adaptor.getElements().getTypes()));
  return success();
}

LogicalResult GetTupleElementOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  auto tuple = dyn_cast<TupleType>(adaptor.getOperand().getType());
  if (!tuple)
    return emitOptionalError(loc, "get_tuple_element needs a tuple operand");
  uint64_t index = adaptor.getIndex();
  if (index >= tuple.size())
    return emitOptionalError(loc, "index ", index,
                             " is out of range for a tuple of ", tuple.size(),
                             " elements");
  results.push_back(tuple.getType(index));
  return success();
}

OpFoldResult GetTupleElementOp::fold(FoldAdaptor) {
  if (auto tuple = getOperand().getDefiningOp<TupleOp>())
    return tuple.getElements()[getIndex()];
  return {};
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "calls '" << getCallee()
                         << "', which is not a func.func in scope";
  FunctionType type = callee.getFunctionType();
  if (TypeRange(type.getInputs()) != TypeRange(getOperands().getTypes()) ||
      TypeRange(type.getResults()) != TypeRange(getResultTypes()))
    return emitOpError() << "types do not match the callee's signature "
                         << type;
  return success();
}

LogicalResult WhileOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  llvm::append_range(results, adaptor.getOperand().getTypes());
  return success();
}

LogicalResult WhileOp::verifyRegions() {
  TypeRange state = getOperand().getTypes();
  Type pred = tensorOf({}, IntegerType::get(getContext(), 1));
  if (failed(verifyRegionSignature(*this, getCond(), "cond", state, {pred})))
    return failure();
  return verifyRegionSignature(*this, getBody(), "body", state, state);
}

LogicalResult ConditionalOp::verifyRegions() {
  size_t count = getBranches().size();
  bool isPred = getIndex().getType().getElementType().isInteger(1);
  if (isPred && count != 2)
    return emitOpError() << "a pred index selects between exactly 2 branches, "
                            "got "
                         << count;
  if (count == 0)
    return emitOpError() << "needs at least one branch";
  if (getBranchOperands().size() != count)
    return emitOpError() << "has " << getBranchOperands().size()
                         << " branch operands for " << count << " branches";
  for (auto [i, region] : llvm::enumerate(getBranches()))
    if (failed(verifyRegionSignature(
            *this, region, ("branch " + Twine(i)).str(),
            getBranchOperands()[i].getType(), getResultTypes())))
      return failure();
  return success();
}

LogicalResult FusionOp::verifyRegions() {
  return verifyRegionSignature(*this, getBody(), "fused computation",
                               getOperands().getTypes(), getResultTypes());
}

#define GET_OP_CLASSES
#include "dialects/hlo/HloOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

/// Replica groups: a 2-D tensor of ids >= 0, rows padded at the end with
/// -1, no id twice. Returns the group size when every row has the same one
/// (nullopt for the empty `{}`, whose size is the device count).
static FailureOr<std::optional<int64_t>>
verifyReplicaGroups(Operation *op, DenseIntElementsAttr groups,
                    StringRef name = "replica_groups") {
  auto type = cast<ShapedType>(groups.getType());
  if (type.getRank() != 2)
    return op->emitOpError() << name << " must be a 2-D tensor, got rank "
                             << type.getRank();
  if (type.getNumElements() == 0)
    return std::optional<int64_t>();
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  SmallVector<int64_t> ids(groups.getValues<int64_t>());
  llvm::SmallSet<int64_t, 16> seen;
  std::optional<int64_t> size;
  bool uniform = true;
  for (int64_t r = 0; r < rows; ++r) {
    int64_t count = 0;
    for (int64_t c = 0; c < cols; ++c) {
      int64_t id = ids[r * cols + c];
      if (id == -1)
        continue;
      if (id < -1 || (c > 0 && ids[r * cols + c - 1] == -1))
        return op->emitOpError()
               << name << " row " << r << " has " << id << " at column " << c
               << "; ids are >= 0 and -1 only pads the end of a row";
      if (!seen.insert(id).second)
        return op->emitOpError() << name << " lists id " << id << " twice";
      ++count;
    }
    if (count == 0)
      return op->emitOpError() << name << " row " << r << " is empty";
    if (size && *size != count)
      uniform = false;
    size = count;
  }
  return uniform ? size : std::optional<int64_t>();
}

/// The checks shared by the ops with replica_groups and channel_id.
static FailureOr<std::optional<int64_t>>
verifyCollective(Operation *op, DenseIntElementsAttr groups,
                 std::optional<int64_t> channelId, bool useGlobalDeviceIds) {
  if (useGlobalDeviceIds && !channelId)
    return op->emitOpError("use_global_device_ids needs a channel_id");
  if (useGlobalDeviceIds && cast<ShapedType>(groups.getType()).getNumElements() == 0)
    return op->emitOpError("use_global_device_ids needs explicit replica_groups");
  return verifyReplicaGroups(op, groups);
}

/// `dim` in range of `type`, and (when the group size is known) divisible.
static LogicalResult verifySplitDim(Operation *op, RankedTensorType type,
                                    int64_t dim, StringRef name,
                                    std::optional<int64_t> groupSize) {
  if (dim >= type.getRank())
    return op->emitOpError() << name << " " << dim << " is out of range for "
                             << type;
  if (groupSize && type.getDimSize(dim) % *groupSize != 0)
    return op->emitOpError() << "dimension " << dim << " of " << type
                             << " is not divisible by the group size "
                             << *groupSize;
  return success();
}

/// Result `result` is `operand` with dimension `dim` scaled by `factor`
/// (or divided, `divide`), every other dimension and the element type kept.
static LogicalResult verifyScaledDim(Operation *op, RankedTensorType operand,
                                     RankedTensorType result, int64_t dim,
                                     std::optional<int64_t> groupSize,
                                     bool divide) {
  bool ok = operand.getElementType() == result.getElementType() &&
            operand.getRank() == result.getRank();
  for (int64_t d = 0; ok && d < operand.getRank(); ++d) {
    int64_t in = operand.getDimSize(d), out = result.getDimSize(d);
    if (d != dim)
      ok = in == out;
    else if (groupSize)
      ok = divide ? in == out * *groupSize : out == in * *groupSize;
    else
      ok = divide ? out > 0 && in % out == 0 : in > 0 && out % in == 0;
  }
  if (ok)
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << "result " << result << " must be " << operand
                            << " with dimension " << dim
                            << (divide ? " divided" : " multiplied");
  if (groupSize)
    diag << " by the group size " << *groupSize;
  else
    diag << " by the group size";
  return diag;
}

LogicalResult AllReduceOp::verify() {
  if (failed(verifyCollective(*this, getReplicaGroups(), getChannelId(),
                              getUseGlobalDeviceIds())))
    return failure();
  if (getOperands().getTypes() != getResults().getTypes())
    return emitOpError("results must have the operands' types");
  if (getOperands().empty())
    return emitOpError("needs at least one operand");
  Type element = cast<ShapedType>(getOperands()[0].getType()).getElementType();
  for (Value operand : getOperands())
    if (cast<ShapedType>(operand.getType()).getElementType() != element)
      return emitOpError("operands must share one element type, as the "
                         "computation is applied to each");
  return success();
}

LogicalResult AllReduceOp::verifyRegions() {
  SmallVector<Type> scalar = scalarsOf(getOperands().take_front(1).getTypes());
  return verifyRegionSignature(*this, getComputation(), "computation",
                               {scalar[0], scalar[0]}, scalar);
}

LogicalResult AllGatherOp::verify() {
  FailureOr<std::optional<int64_t>> size = verifyCollective(
      *this, getReplicaGroups(), getChannelId(), getUseGlobalDeviceIds());
  if (failed(size))
    return failure();
  auto operand = cast<RankedTensorType>(getOperand().getType());
  if (static_cast<int64_t>(getAllGatherDim()) >= operand.getRank())
    return emitOpError() << "all_gather_dim " << getAllGatherDim()
                         << " is out of range for " << operand;
  return verifyScaledDim(*this, operand,
                         cast<RankedTensorType>(getResult().getType()),
                         getAllGatherDim(), *size, /*divide=*/false);
}

LogicalResult ReduceScatterOp::verify() {
  FailureOr<std::optional<int64_t>> size = verifyCollective(
      *this, getReplicaGroups(), getChannelId(), getUseGlobalDeviceIds());
  if (failed(size))
    return failure();
  auto operand = cast<RankedTensorType>(getOperand().getType());
  if (failed(verifySplitDim(*this, operand, getScatterDimension(),
                            "scatter_dimension", *size)))
    return failure();
  return verifyScaledDim(*this, operand,
                         cast<RankedTensorType>(getResult().getType()),
                         getScatterDimension(), *size, /*divide=*/true);
}

LogicalResult ReduceScatterOp::verifyRegions() {
  SmallVector<Type> scalar = scalarsOf(getOperand().getType());
  return verifyRegionSignature(*this, getComputation(), "computation",
                               {scalar[0], scalar[0]}, scalar);
}

LogicalResult AllToAllOp::verify() {
  FailureOr<std::optional<int64_t>> size =
      verifyCollective(*this, getReplicaGroups(), getChannelId(), false);
  if (failed(size))
    return failure();
  return verifySplitDim(*this, cast<RankedTensorType>(getOperand().getType()),
                        getDimension(), "dimension", *size);
}

LogicalResult CollectivePermuteOp::verify() {
  auto type = cast<ShapedType>(getSourceTargetPairs().getType());
  if (type.getRank() != 2 || (type.getNumElements() && type.getDimSize(1) != 2))
    return emitOpError("source_target_pairs must be an N x 2 tensor");
  llvm::SmallSet<int64_t, 16> sources, targets;
  SmallVector<int64_t> ids(getSourceTargetPairs().getValues<int64_t>());
  for (size_t i = 0; i + 1 < ids.size(); i += 2) {
    if (ids[i] < 0 || ids[i + 1] < 0)
      return emitOpError("source_target_pairs ids must be >= 0");
    if (!sources.insert(ids[i]).second)
      return emitOpError() << "source " << ids[i] << " appears twice in "
                           << "source_target_pairs";
    if (!targets.insert(ids[i + 1]).second)
      return emitOpError() << "target " << ids[i + 1] << " appears twice in "
                           << "source_target_pairs";
  }
  return success();
}

LogicalResult CollectiveBroadcastOp::verify() {
  return verifyCollective(*this, getReplicaGroups(), getChannelId(), false);
}

ComparisonDirection tpuc::hlo::swappedDirection(ComparisonDirection dir) {
  switch (dir) {
  case ComparisonDirection::LT:
    return ComparisonDirection::GT;
  case ComparisonDirection::LE:
    return ComparisonDirection::GE;
  case ComparisonDirection::GT:
    return ComparisonDirection::LT;
  case ComparisonDirection::GE:
    return ComparisonDirection::LE;
  default:
    return dir;
  }
}
