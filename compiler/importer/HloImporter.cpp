//===- HloImporter.cpp - XLA HLO text AST -> hlo dialect ------------------===//
//
// Walks the AST of compiler/hlo_text and builds hlo-dialect ops with the
// generic OperationState builder, so each opcode is a few lines: its op
// name, its operands, its attributes and (for to_apply-style computations)
// its regions. Shape checking is left to the dialect's verifiers, which run
// on the result and report at the instruction's file:line:col.
//
//===----------------------------------------------------------------------===//

#include "compiler/importer/HloImporter.h"
#include "compiler/importer/GpuLibraryCalls.h"

#include "dialects/hlo/HloOps.h"
#include "dialects/hlo/Sharding.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/InterleavedRange.h"

#include <cmath>
#include <functional>
#include <numeric>

using namespace mlir;
using namespace tpuc::hlo_text;
namespace hlo = tpuc::hlo;
namespace hlo_text = tpuc::hlo_text;
namespace importer = tpuc::importer;

namespace {

/// Instruction opcodes that map one-to-one onto an hlo op with the same
/// operands and no attributes.
StringRef simpleOpName(StringRef opcode) {
  return llvm::StringSwitch<StringRef>(opcode)
      .Case("abs", "hlo.abs")
      .Case("ceil", "hlo.ceil")
      .Case("cosine", "hlo.cosine")
      .Case("exponential", "hlo.exponential")
      .Case("exponential-minus-one", "hlo.exponential_minus_one")
      .Case("floor", "hlo.floor")
      .Case("log", "hlo.log")
      .Case("log-plus-one", "hlo.log_plus_one")
      .Case("logistic", "hlo.logistic")
      .Case("negate", "hlo.negate")
      .Case("not", "hlo.not")
      .Case("round-nearest-even", "hlo.round_nearest_even")
      .Case("rsqrt", "hlo.rsqrt")
      .Case("sign", "hlo.sign")
      .Case("sine", "hlo.sine")
      .Case("sqrt", "hlo.sqrt")
      .Case("tanh", "hlo.tanh")
      .Case("copy", "hlo.copy")
      .Case("is-finite", "hlo.is_finite")
      .Case("add", "hlo.add")
      .Case("subtract", "hlo.subtract")
      .Case("multiply", "hlo.multiply")
      .Case("divide", "hlo.divide")
      .Case("remainder", "hlo.remainder")
      .Case("maximum", "hlo.maximum")
      .Case("minimum", "hlo.minimum")
      .Case("power", "hlo.power")
      .Case("atan2", "hlo.atan2")
      .Case("and", "hlo.and")
      .Case("or", "hlo.or")
      .Case("xor", "hlo.xor")
      .Case("select", "hlo.select")
      .Case("clamp", "hlo.clamp")
      .Case("convert", "hlo.convert")
      .Case("bitcast-convert", "hlo.bitcast_convert")
      .Case("reshape", "hlo.reshape")
      .Case("dynamic-update-slice", "hlo.dynamic_update_slice")
      .Case("tuple", "hlo.tuple")
      .Case("tan", "hlo.tan")
      .Case("cbrt", "hlo.cbrt")
      .Case("erf", "hlo.erf")
      .Case("round-nearest-afz", "hlo.round_nearest_afz")
      .Case("acos", "hlo.acos")
      .Case("acosh", "hlo.acosh")
      .Case("asin", "hlo.asin")
      .Case("asinh", "hlo.asinh")
      .Case("atan", "hlo.atan")
      .Case("atanh", "hlo.atanh")
      .Case("cosh", "hlo.cosh")
      .Case("sinh", "hlo.sinh")
      .Case("popcnt", "hlo.popcnt")
      .Case("count-leading-zeros", "hlo.count_leading_zeros")
      .Case("shift-left", "hlo.shift_left")
      .Case("shift-right-arithmetic", "hlo.shift_right_arithmetic")
      .Case("shift-right-logical", "hlo.shift_right_logical")
      .Case("mulhi", "hlo.mulhi")
      .Default("");
}

/// Custom-call targets that are the identity of their one operand on a
/// single device: sharding annotations and the SPMD partitioner's shape
/// markers (one shard is the full array), host/device placement marks.
bool isIdentityCustomCall(StringRef target) {
  return llvm::is_contained({"Sharding", "SPMDFullToShardShape",
                             "SPMDShardToFullShape", "MoveToHost",
                             "MoveToDevice", "annotate_device_placement"},
                            target);
}

/// Why a single-program, single-device compile cannot honour an opcode,
/// for the ones that are rejected by design (null for all others).
const char *unsupportedReason(StringRef opcode) {
  return llvm::StringSwitch<const char *>(opcode)
      .Cases({"infeed", "outfeed", "send", "send-done", "recv", "recv-done"},
             "it exchanges data with the host or another program, which a "
             "single compiled program cannot do")
      .Cases({"complex", "real", "imag", "fft"},
             "complex numbers are not supported")
      .Default(nullptr);
}

/// The op `opcode` wraps when it is XLA's async form of any op X
/// (`X-start`, `X-update`, `X-done`: HloParser's sugar for an
/// async-start/update/done around a computation holding X), with `part`
/// set to "start", "update" or "done"; empty for every other opcode. The
/// collectives, copy, send/recv and async-start itself have async forms of
/// their own, imported where they are.
StringRef asyncWrappedOp(StringRef opcode, StringRef &part) {
  for (StringRef suffix : {"-start", "-update", "-done"}) {
    StringRef base = opcode;
    if (!base.consume_back(suffix))
      continue;
    if (llvm::is_contained({"all-reduce", "all-gather", "collective-permute",
                            "copy", "send", "recv", "async"},
                           base))
      return {};
    part = suffix.drop_front();
    return base;
  }
  return {};
}

/// The array shapes of `shape`, depth first (itself when it is no tuple).
void flattenShape(const Shape &shape, SmallVectorImpl<const Shape *> &leaves) {
  if (!shape.isTuple()) {
    leaves.push_back(&shape);
    return;
  }
  for (const Shape &element : shape.tupleElements)
    flattenShape(element, leaves);
}

class Importer {
public:
  Importer(const Module &module, StringRef fileName, MLIRContext &context)
      : module(module), context(context), builder(&context),
        fileName(StringAttr::get(&context, fileName)) {}

  OwningOpRef<ModuleOp> run();

private:
  /// Values of one computation being emitted: instruction name -> value.
  using ValueMap = llvm::StringMap<Value>;

  Location loc(Loc at) const {
    return FileLineColLoc::get(fileName, at.line, at.column);
  }
  InFlightDiagnostic error(Loc at) const { return emitError(loc(at)); }
  Location instructionLoc(const Instruction &inst) const;

  FailureOr<Type> convertType(const Shape &shape);
  FailureOr<Type> convertElementType(ElementType type, Loc at);
  void setLayoutAttr(Operation *op, const Shape &shape);

  FailureOr<func::FuncOp> emitFunction(const Computation &comp, bool isEntry);
  /// Emits `comp`'s instructions at the builder's insertion point with its
  /// parameters bound to `params`; returns the ROOT's value.
  FailureOr<Value> emitBody(const Computation &comp, ValueRange params);
  LogicalResult emitInstruction(const Instruction &inst, ValueMap &values,
                                ValueRange params);
  /// Builds `region` from `comp` (inlined), returning `resultCount` values
  /// (a tuple ROOT is split; with `splitRoot` a one-element one too, for a
  /// fusion whose XLA result is a 1-tuple).
  LogicalResult emitRegion(Region &region, const Instruction &inst,
                           const Computation &comp, size_t resultCount,
                           bool splitRoot = false);
  const Computation *calledComputation(const Instruction &inst,
                                       StringRef key);
  FailureOr<mlir::Attribute> convertLiteral(const Instruction &inst,
                                      RankedTensorType type);
  /// batch-norm-inference/training/grad expanded into elementwise ops,
  /// broadcasts and reductions (XLA's BatchNormExpander); the result value
  /// (a tuple for training and grad).
  /// The function of the computation `inst` names in `key`, emitted once;
  /// an error for a computation that (indirectly) calls itself.
  FailureOr<func::FuncOp> emitCallee(const Instruction &inst, StringRef key);
  /// `X-start` (asyncWrappedOp): X emitted with the start's result element
  /// as its shape, and the start's value XLA's ((operands), result,
  /// context...) tuple with zero contexts.
  LogicalResult emitAsyncWrappedStart(const Instruction &inst, StringRef op,
                                      ValueMap &values, ValueRange params);
  /// The value of an async start: XLA's ((operands), result, context...)
  /// tuple with zero contexts.
  LogicalResult setAsyncStart(const Instruction &inst, TupleType start,
                              ValueRange operands, Value result,
                              ValueMap &values);
  /// An all-gather or reduce-scatter of several operands (XLA's combiners
  /// join independent ones): one op per operand, the results a tuple.
  LogicalResult emitCombinedCollective(const Instruction &inst,
                                       ValueMap &values, ValueRange params);
  /// The tuple form of all-to-all (no dimensions=): operand i goes to the
  /// group's device i, result i comes from it. The operands (one shape)
  /// stacked along a new leading dimension make the array form along it.
  LogicalResult emitTupleAllToAll(const Instruction &inst, ValueMap &values,
                                  ValueRange params);
  /// Zeros for the context elements (from index 2) of an async start's
  /// tuple, which a synchronous program does not need.
  LogicalResult appendZeroContexts(const Instruction &inst, TupleType start,
                                   Location location,
                                   SmallVectorImpl<Value> &elements);
  /// ragged-dot as dots over every group, masked by each row's group.
  FailureOr<Value> emitRaggedDot(const Instruction &inst, ValueRange operands,
                                 Type resultType, Location location);
  /// scaled-dot's operands as XLA's ScaledDotRewriter dequantizes them:
  /// {lhs * lhs_scale, rhs * rhs_scale}, each scale broadcast over its
  /// blocks, in one element type the dot takes.
  FailureOr<std::pair<Value, Value>>
  emitScaledDotOperands(const Instruction &inst, ValueRange operands,
                        Location location);
  /// scan as XLA's ScanExpander expands it: an hlo.while over the scanned
  /// dimension that calls to_apply on each slice; the result tuple.
  FailureOr<Value> emitScan(const Instruction &inst, ValueRange operands,
                            Type resultType, Location location);
  /// shuffle as XLA's ShuffleExpander expands it: mode=rotate as slices
  /// and concatenates, mode=permute as a gather of one element per element.
  FailureOr<Value> emitShuffle(const Instruction &inst, ValueRange operands,
                               Type resultType, Location location);
  /// ragged-all-to-all: each update's rows of the input copied into the
  /// output at its offset (masked gathers), exchanged by an all-to-all
  /// over groups of more than one device.
  FailureOr<Value> emitRaggedAllToAll(const Instruction &inst,
                                      ValueRange operands, Type resultType,
                                      Location location);
  /// The epilogue of a cuBLAS/cuDNN call around its dot_general or
  /// convolution `core` (scale, C or side input, bias, activation), as the
  /// call's result: a tuple with the aux value and zero workspaces where
  /// XLA's result is one. `extras`: the operands after the first two.
  FailureOr<Value> emitGpuLibraryEpilogue(const Instruction &inst,
                                          const importer::GpuLibraryCall &call,
                                          Value core, ValueRange extras,
                                          Type resultType, Location location);
  /// A cuDNN backward convolution (`call.kind`) as the convolution that
  /// computes the gradient, as JAX's transpose rules write it: the input
  /// gradient convolves the output gradient with the spatially reversed
  /// filter (features swapped, the forward strides as lhs dilation), the
  /// filter gradient convolves the input with the output gradient (batch
  /// and feature swapped, the forward strides as rhs dilation).
  FailureOr<Value> emitConvolutionGradient(const Instruction &inst,
                                           const importer::GpuLibraryCall &call,
                                           ValueRange operands,
                                           RankedTensorType resultType,
                                           Location location);
  /// A convolution's `dim_labels=`; an error at the labels.
  FailureOr<hlo::ConvDimensionNumbersAttr>
  convDimLabels(const hlo_text::Attribute &labels) {
    std::string message;
    FailureOr<hlo::ConvDimensionNumbersAttr> dims =
        hlo::ConvDimensionNumbersAttr::parseDimLabels(&context, labels.raw,
                                                      message);
    if (failed(dims))
      return error(labels.valueLoc) << message;
    return dims;
  }
  /// A constant of `type` with every element `value` (rounded to its
  /// element type).
  Value createSplat(Location location, RankedTensorType type, double value);
  /// A reduce with an add region over `dims`, starting from zero.
  Value emitAddReduce(Location location, Value input, ArrayRef<int64_t> dims,
                      Type resultType);
  /// One op of one result, generically (the expansions' building block).
  Value createOp(Location location, StringRef name, ValueRange operands,
                 Type type, ArrayRef<NamedAttribute> attrs = {}) {
    OperationState state(location, name);
    state.addOperands(operands);
    state.addTypes(type);
    state.addAttributes(attrs);
    return builder.create(state)->getResult(0);
  }
  /// A constant of zeros of `type`.
  Value createZeros(Location location, RankedTensorType type);
  /// `a direction b`, elementwise (a pred array of a's shape).
  Value createCompare(Location location, hlo::ComparisonDirection direction,
                      Value a, Value b);
  /// The unit-stride slice [starts, limits) of `value`.
  Value createSlice(Location location, Value value, ArrayRef<int64_t> starts,
                    ArrayRef<int64_t> limits);
  /// stochastic-convert as XLA's StochasticConvertDecomposer expands it.
  FailureOr<Value> emitStochasticConvert(const Instruction &inst,
                                         ValueRange operands, Type resultType,
                                         Location location);
  FailureOr<Value> emitBatchNorm(const Instruction &inst, ValueRange operands,
                                 Location location);
  /// Leaves of `value` (a tuple is split recursively) for function results.
  void flattenTuple(Value value, SmallVectorImpl<Value> &leaves);
  /// The entry function's argument (and the index into it) for XLA's
  /// parameter `number` at tuple `index`: tuple parameters are passed as
  /// their leaves (emitFunction).
  FailureOr<std::pair<int64_t, SmallVector<int64_t>>>
  entryArgument(int64_t number, ArrayRef<int64_t> index, Loc at) const;
  /// Sets `text` on `count` results or arguments of `func` from `first`:
  /// a tuple sharding one leaf each (an error at `at` when the leaves do not
  /// match), any other sharding on each.
  LogicalResult setShardingLeaves(func::FuncOp func, bool results,
                                  unsigned first, unsigned count,
                                  StringAttr text, Loc at);
  /// XLA's `sharding=` as the canonical `hlo.sharding` string; errors at
  /// the offending character.
  FailureOr<StringAttr> convertSharding(const hlo_text::Attribute &attr);
  /// `replica_groups=` (list or iota form; absent is `{}`) as the 2-D
  /// tensor of the hlo collectives, rows padded with -1.
  FailureOr<DenseIntElementsAttr> convertReplicaGroups(const Instruction &inst);
  /// Builds the collective op of `inst` (also its -start form).
  LogicalResult addCollective(const Instruction &inst, StringRef opcode,
                              ValueRange operands, Type resultType,
                              StringRef &opName,
                              SmallVectorImpl<NamedAttribute> &attrs);

  const Module &module;
  MLIRContext &context;
  OpBuilder builder;
  StringAttr fileName;
  ModuleOp moduleOp;
  /// Computations emitted as func.func (entry and `call` targets).
  llvm::StringMap<func::FuncOp> functions;
  /// Computations being emitted, to reject recursion.
  llvm::StringMap<bool> active;
  unsigned elidedConstants = 0;
  /// The opcode of the instruction being emitted, for type errors.
  StringRef currentOpcode;
};

} // namespace

//===----------------------------------------------------------------------===//
// Types, locations, layouts
//===----------------------------------------------------------------------===//

FailureOr<Type> Importer::convertElementType(ElementType type, Loc at) {
  MLIRContext *ctx = &context;
  switch (type) {
  case ElementType::Pred:
    return Type(IntegerType::get(ctx, 1));
  case ElementType::S4: // E(4) layouts (XLA's packed int4) are dropped
  case ElementType::S8:
  case ElementType::S16:
  case ElementType::S32:
  case ElementType::S64:
    return Type(IntegerType::get(ctx, integerBitWidth(type)));
  case ElementType::U4:
  case ElementType::U8:
  case ElementType::U16:
  case ElementType::U32:
  case ElementType::U64:
    return Type(IntegerType::get(ctx, integerBitWidth(type),
                                 IntegerType::Unsigned));
  case ElementType::F16:
    return Type(Float16Type::get(ctx));
  case ElementType::BF16:
    return Type(BFloat16Type::get(ctx));
  case ElementType::F32:
    return Type(Float32Type::get(ctx));
  case ElementType::F64:
    return Type(Float64Type::get(ctx));
  case ElementType::F8E4M3FN:
    return Type(Float8E4M3FNType::get(ctx));
  case ElementType::F8E5M2:
    return Type(Float8E5M2Type::get(ctx));
  case ElementType::F8E4M3:
    return Type(Float8E4M3Type::get(ctx));
  case ElementType::F8E4M3FNUZ:
    return Type(Float8E4M3FNUZType::get(ctx));
  case ElementType::F8E5M2FNUZ:
    return Type(Float8E5M2FNUZType::get(ctx));
  case ElementType::F8E4M3B11FNUZ:
    return Type(Float8E4M3B11FNUZType::get(ctx));
  case ElementType::F8E3M4:
    return Type(Float8E3M4Type::get(ctx));
  default: {
    // f4e2m1fn and f8e8m0fnu (MX scale types): no sign/zero or no NaN,
    // not computed by tpuc yet (docs/integers.md).
    InFlightDiagnostic diag = error(at);
    diag << "unsupported element type '" << elementTypeName(type) << "'";
    if (!currentOpcode.empty())
      diag << " in '" << currentOpcode << "'";
    return diag;
  }
  }
}

FailureOr<Type> Importer::convertType(const Shape &shape) {
  if (shape.isTuple()) {
    SmallVector<Type> elements;
    for (const Shape &element : shape.tupleElements) {
      FailureOr<Type> type = convertType(element);
      if (failed(type))
        return failure();
      elements.push_back(*type);
    }
    return Type(TupleType::get(&context, elements));
  }
  // Tokens order side effects, which one program run in order keeps: an
  // empty tuple stands for them.
  if (shape.elementType == ElementType::Token)
    return Type(TupleType::get(&context, {}));
  if (shape.isDynamic())
    return error(shape.loc) << "dynamic shape '" << shape.toString()
                            << "' is not supported (tpuc compiles static "
                               "shapes)";
  FailureOr<Type> element = convertElementType(shape.elementType, shape.loc);
  if (failed(element))
    return failure();
  return Type(RankedTensorType::get(shape.dims, *element));
}

/// The layout part of an XLA shape string ("{1,0:T(8,128)}"), or "" when
/// the layout is absent or XLA's default (major-to-minor, untiled).
static std::string nonDefaultLayout(const Shape &shape) {
  if (shape.isTuple() || !shape.layout)
    return "";
  const Layout &layout = *shape.layout;
  bool descending = layout.minorToMajor.size() == shape.dims.size();
  for (size_t i = 0; descending && i < layout.minorToMajor.size(); ++i)
    descending = layout.minorToMajor[i] ==
                 static_cast<int64_t>(shape.dims.size() - 1 - i);
  std::string text = shape.toString();
  std::string layoutText = text.substr(text.find('{', text.find(']')));
  if (descending && layoutText.find(':') == std::string::npos)
    return "";
  return layoutText;
}

void Importer::setLayoutAttr(Operation *op, const Shape &shape) {
  std::string layout = nonDefaultLayout(shape);
  if (!layout.empty())
    op->setAttr("hlo.layout", builder.getStringAttr(layout));
}

Location Importer::instructionLoc(const Instruction &inst) const {
  Location named = NameLoc::get(StringAttr::get(&context, inst.name),
                                loc(inst.loc));
  const OpMetadata *metadata = inst.metadata();
  if (!metadata)
    return named;
  std::string file = metadata->sourceFile;
  int64_t line = metadata->sourceLine.value_or(0);
  if (metadata->stackFrameId) {
    if (std::optional<SourceLocation> frame =
            module.sourceLocation(*metadata->stackFrameId)) {
      file = frame->file;
      line = frame->line;
    }
  }
  if (metadata->opName.empty() && file.empty())
    return named;
  // The framework op: its name, at its source line when known.
  Location source =
      file.empty() ? Location(UnknownLoc::get(&context))
                   : Location(FileLineColLoc::get(
                         &context, file, std::max<int64_t>(line, 0), 0));
  Location framework =
      metadata->opName.empty()
          ? source
          : NameLoc::get(StringAttr::get(&context, metadata->opName), source);
  if (metadata->opType.empty())
    return FusedLoc::get(&context, {named, framework});
  return FusedLoc::get(&context, {named, framework},
                       StringAttr::get(&context, metadata->opType));
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

/// A deterministic stand-in for an elided value: a small number from a
/// hash of the element index, the same on every run and machine.
static double elidedValue(uint64_t index) {
  uint64_t x = index * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<double>(x >> 40) / static_cast<double>(1ull << 24) - 0.5;
}

FailureOr<mlir::Attribute> Importer::convertLiteral(const Instruction &inst,
                                              RankedTensorType type) {
  const Literal &literal = *inst.literal;
  if (literal.kind == Literal::Kind::Tuple)
    return error(literal.loc) << "tuple constants are not supported";
  int64_t count = type.getNumElements();
  bool elided = literal.kind == Literal::Kind::Elided;
  // Filling an elided constant costs about 40 bytes of importer memory per
  // element: XLA's tests elide constants of hundreds of millions of elements
  // (a 200M-element one took minutes and gigabytes before this limit).
  constexpr int64_t kMaxElidedElements = int64_t(1) << 24;
  if (elided && count > kMaxElidedElements)
    return error(literal.loc)
           << "constant " << type << " was printed elided ({...}) and has "
           << count << " elements; tpuc fills in at most " << kMaxElidedElements
           << " (give its values, or make it a parameter)";
  if (elided)
    ++elidedConstants;
  else if (static_cast<int64_t>(literal.values.size()) != count &&
           literal.values.size() != 1)
    return error(literal.loc)
           << "constant has " << literal.values.size() << " values, but its "
           << "shape " << type << " has " << count << " elements";
  auto valueAt = [&](int64_t i) -> LiteralValue {
    if (elided) {
      LiteralValue v;
      v.kind = LiteralValue::Kind::Float;
      v.floatValue = elidedValue(i);
      v.intValue = static_cast<int64_t>(v.floatValue * 16);
      v.boolValue = v.floatValue > 0;
      return v;
    }
    return literal.values[literal.values.size() == 1 ? 0 : i];
  };
  // One value fills the whole shape: a splat attribute (DenseElementsAttr
  // takes a single value as one), not `count` copies.
  int64_t distinct = !elided && literal.values.size() == 1 ? 1 : count;
  Type element = type.getElementType();
  if (auto floatType = dyn_cast<FloatType>(element)) {
    SmallVector<APFloat> values;
    values.reserve(distinct);
    for (int64_t i = 0; i < distinct; ++i) {
      LiteralValue v = valueAt(i);
      double d = v.kind == LiteralValue::Kind::Float ? v.floatValue
                 : v.kind == LiteralValue::Kind::UInt
                     ? static_cast<double>(v.uintValue)
                     : static_cast<double>(v.intValue);
      APFloat value(d);
      bool losesInfo = false;
      value.convert(floatType.getFloatSemantics(),
                    APFloat::rmNearestTiesToEven, &losesInfo);
      values.push_back(value);
    }
    return mlir::Attribute(DenseElementsAttr::get(type, values));
  }
  auto intType = cast<IntegerType>(element);
  if (intType.getWidth() == 1) {
    SmallVector<bool> values;
    for (int64_t i = 0; i < distinct; ++i) {
      LiteralValue v = valueAt(i);
      values.push_back(v.kind == LiteralValue::Kind::Bool ? v.boolValue
                                                          : v.intValue != 0);
    }
    return mlir::Attribute(DenseElementsAttr::get(type, values));
  }
  SmallVector<APInt> values;
  values.reserve(distinct);
  for (int64_t i = 0; i < distinct; ++i) {
    LiteralValue v = valueAt(i);
    if (v.kind == LiteralValue::Kind::Float && !elided)
      return error(literal.loc) << "floating-point value in an integer "
                                   "constant of type "
                                << type;
    uint64_t bits = v.kind == LiteralValue::Kind::UInt
                        ? v.uintValue
                        : static_cast<uint64_t>(v.intValue);
    values.push_back(APInt(64, bits).trunc(intType.getWidth()));
  }
  return mlir::Attribute(DenseElementsAttr::get(type, values));
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

const Computation *Importer::calledComputation(const Instruction &inst,
                                               StringRef key) {
  const hlo_text::Attribute *attr = inst.attr(key);
  if (!attr || attr->names.size() != 1) {
    error(inst.opcodeLoc) << "'" << inst.opcode << "' needs " << key
                          << "=<computation>";
    return nullptr;
  }
  const Computation *comp = module.findComputation(attr->names.front());
  if (!comp)
    error(attr->valueLoc) << "unknown computation '" << attr->names.front()
                          << "'";
  return comp;
}

/// A reducer whose scalars are another float type than the reduced arrays
/// (XLA's mixed-precision HLO: an all-reduce of bf16 with an f32 `add`):
/// XLA reduces in the arrays' type, so the region's arguments and its ops'
/// results take that type. Only bodies of elementwise ops on those scalars
/// (no constants, no nested regions) are retyped; others stay for the
/// verifier's error.
static void retypeMixedReducer(Operation *op) {
  if (!isa<hlo::AllReduceOp, hlo::ReduceScatterOp, hlo::ReduceOp>(op) ||
      op->getNumRegions() != 1 || op->getNumOperands() == 0)
    return;
  auto elementOf = [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return tensor ? tensor.getElementType() : Type();
  };
  Type arrays = elementOf(op->getOperand(0).getType());
  if (!isa_and_nonnull<FloatType>(arrays) ||
      llvm::any_of(op->getOperandTypes(),
                   [&](Type t) { return elementOf(t) != arrays; }))
    return;
  Region &region = op->getRegion(0);
  if (!region.hasOneBlock() || region.front().getNumArguments() != 2)
    return;
  Block &block = region.front();
  Type scalars = block.getArgument(0).getType();
  auto scalarsType = dyn_cast<RankedTensorType>(scalars);
  if (!scalarsType || scalarsType.getRank() != 0 ||
      !isa<FloatType>(scalarsType.getElementType()) ||
      scalarsType.getElementType() == arrays)
    return;
  auto allScalars = [&](TypeRange types) {
    return llvm::all_of(types, [&](Type t) { return t == scalars; });
  };
  for (Operation &inner : block) {
    bool terminator = &inner == block.getTerminator();
    if (!allScalars(inner.getOperandTypes()) ||
        !allScalars(inner.getResultTypes()) || inner.getNumRegions() ||
        (!terminator && (isa<hlo::ConstantOp>(inner) ||
                         !inner.hasTrait<OpTrait::Elementwise>() ||
                         inner.getNumOperands() == 0)))
      return;
  }
  auto retyped = RankedTensorType::get({}, arrays);
  for (BlockArgument arg : block.getArguments())
    arg.setType(retyped);
  for (Operation &inner : block)
    for (Value result : inner.getResults())
      result.setType(retyped);
}

LogicalResult Importer::emitRegion(Region &region, const Instruction &inst,
                                   const Computation &computation,
                                   size_t resultCount, bool splitRoot) {
  const Computation *comp = &computation;
  if (active.lookup(comp->name))
    return error(inst.loc) << "computation '" << comp->name
                           << "' calls itself";
  // Block arguments: the computation's parameters, by number.
  SmallVector<const Instruction *> params;
  for (const Instruction &i : comp->instructions)
    if (i.parameterNumber) {
      size_t n = *i.parameterNumber;
      if (n >= params.size())
        params.resize(n + 1, nullptr);
      params[n] = &i;
    }
  Block *block = new Block();
  region.push_back(block);
  for (auto [n, param] : llvm::enumerate(params)) {
    if (!param)
      return error(comp->loc) << "computation '" << comp->name
                              << "' has no parameter(" << n << ")";
    FailureOr<Type> type = convertType(param->shape);
    if (failed(type))
      return failure();
    block->addArgument(*type, loc(param->loc));
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  active[comp->name] = true;
  FailureOr<Value> root = emitBody(*comp, block->getArguments());
  active[comp->name] = false;
  if (failed(root))
    return failure();
  SmallVector<Value> results{*root};
  if (resultCount != 1 || splitRoot) {
    results.clear();
    auto tupleType = dyn_cast<TupleType>(root->getType());
    if (!tupleType || tupleType.size() != resultCount)
      return error(comp->root().loc)
             << "computation '" << comp->name << "' must return a tuple of "
             << resultCount << " elements for '" << inst.opcode << "'";
    if (auto tuple = root->getDefiningOp<hlo::TupleOp>()) {
      llvm::append_range(results, tuple.getElements());
      if (tuple->use_empty())
        tuple->erase();
    } else {
      for (size_t i = 0; i < resultCount; ++i)
        results.push_back(hlo::GetTupleElementOp::create(
            builder, root->getLoc(), *root, i));
    }
  }
  hlo::ReturnOp::create(builder, loc(comp->root().loc), results);
  return success();
}

LogicalResult Importer::emitInstruction(const Instruction &inst,
                                        ValueMap &values, ValueRange params) {
  Location location = instructionLoc(inst);
  const std::string &opcode = inst.opcode;
  if (opcode == "parameter") {
    size_t n = *inst.parameterNumber;
    if (n >= params.size())
      return error(inst.loc) << "parameter(" << n << ") is out of range: the "
                             << "computation has " << params.size()
                             << " parameters";
    values[inst.name] = params[n];
    return success();
  }

  StringRef asyncPart;
  StringRef asyncOp = asyncWrappedOp(opcode, asyncPart);
  if (asyncPart == "start")
    return emitAsyncWrappedStart(inst, asyncOp, values, params);
  // A combined all-gather-start returns ((operands), (results)).
  if (opcode == "all-gather-start" && inst.shape.isTuple() &&
      !inst.shape.tupleElements.empty() && inst.shape.tupleElements[0].isTuple())
    return emitAsyncWrappedStart(inst, "all-gather", values, params);
  if ((opcode == "all-gather" || opcode == "reduce-scatter") &&
      inst.operands.size() > 1)
    return emitCombinedCollective(inst, values, params);
  if (opcode == "all-to-all" && !inst.attr("dimensions"))
    return emitTupleAllToAll(inst, values, params);

  if (const char *reason = unsupportedReason(opcode))
    return error(inst.opcodeLoc) << "'" << opcode << "' is not supported: "
                                 << reason;
  currentOpcode = opcode;
  FailureOr<Type> resultType = convertType(inst.shape);
  currentOpcode = "";
  if (failed(resultType))
    return failure();
  SmallVector<Value> operands;
  for (const Operand &operand : inst.operands) {
    Value value = values.lookup(operand.name);
    if (!value)
      return error(operand.loc) << "operand '" << operand.name
                                << "' is not defined before its use";
    operands.push_back(value);
  }

  auto intAttr = [&](StringRef key) -> FailureOr<int64_t> {
    const hlo_text::Attribute *attr = inst.attr(key);
    if (!attr || attr->kind != AttrKind::Int)
      return error(attr ? attr->valueLoc : inst.opcodeLoc)
             << "'" << opcode << "' needs an integer " << key << "=";
    return attr->intValue;
  };
  auto intsAttr = [&](StringRef key) -> ArrayRef<int64_t> {
    const hlo_text::Attribute *attr = inst.attr(key);
    if (!attr || attr->kind != AttrKind::IntList)
      return {};
    return attr->ints;
  };
  auto boolAttr = [&](StringRef key, bool fallback) {
    const hlo_text::Attribute *attr = inst.attr(key);
    return attr && attr->kind == AttrKind::Bool ? attr->boolValue : fallback;
  };
  auto i64Array = [&](ArrayRef<int64_t> values) -> mlir::Attribute {
    return builder.getDenseI64ArrayAttr(values);
  };
  auto needAttr = [&](StringRef key) -> const hlo_text::Attribute * {
    const hlo_text::Attribute *attr = inst.attr(key);
    if (!attr)
      error(inst.opcodeLoc) << "'" << opcode << "' needs " << key << "=";
    return attr;
  };

  // The op to build, generically: name, operands, result types, attributes,
  // regions (filled after creation).
  StringRef opName = simpleOpName(opcode);
  SmallVector<Type> resultTypes{*resultType};
  SmallVector<NamedAttribute> attrs;
  auto addAttr = [&](StringRef name, mlir::Attribute value) {
    attrs.push_back(builder.getNamedAttr(name, value));
  };
  // Computations that become regions, with the number of values each
  // region returns.
  SmallVector<std::pair<const Computation *, size_t>> regions;
  auto addRegion = [&](StringRef key, size_t results) {
    const Computation *comp = calledComputation(inst, key);
    regions.push_back({comp, results});
    return success(comp != nullptr);
  };
  // XLA returns a tuple where the hlo op has several results.
  bool tupleResult = false;
  auto splitTupleResult = [&]() -> LogicalResult {
    auto tuple = dyn_cast<TupleType>(*resultType);
    if (!tuple)
      return success();
    resultTypes.assign(tuple.getTypes().begin(), tuple.getTypes().end());
    tupleResult = true;
    return success();
  };
  auto window = [&]() -> const hlo_text::Attribute * {
    const hlo_text::Attribute *attr = inst.attr("window");
    return attr && attr->kind == AttrKind::Window ? attr : nullptr;
  };
  auto addWindowAttrs = [&](bool dilations) {
    const hlo_text::Attribute *w = window();
    if (!w)
      return;
    SmallVector<int64_t> sizes, strides, padding, lhsDil, rhsDil;
    for (const WindowDim &dim : w->window) {
      sizes.push_back(dim.size);
      strides.push_back(dim.stride);
      padding.append({dim.padLow, dim.padHigh});
      lhsDil.push_back(dim.lhsDilation);
      rhsDil.push_back(dim.rhsDilation);
    }
    addAttr("window_dimensions", i64Array(sizes));
    addAttr("window_strides", i64Array(strides));
    addAttr("padding", i64Array(padding));
    if (dilations) {
      addAttr("base_dilations", i64Array(lhsDil));
      addAttr("window_dilations", i64Array(rhsDil));
    }
  };
  auto operandPrecision = [&]() -> ArrayRef<std::string> {
    const hlo_text::Attribute *attr = inst.attr("operand_precision");
    return attr ? ArrayRef<std::string>(attr->names) : ArrayRef<std::string>();
  };
  auto precisionConfig = [&](ArrayRef<std::string> names) {
    if (names.empty())
      return;
    SmallVector<mlir::Attribute> config;
    for (const std::string &name : names) {
      std::string upper = StringRef(name).upper();
      auto precision = hlo::symbolizePrecision(upper);
      config.push_back(hlo::PrecisionAttr::get(
          &context, precision.value_or(hlo::Precision::DEFAULT)));
    }
    addAttr("precision_config", builder.getArrayAttr(config));
  };

  // A convolution's attributes (also a cuDNN call's): dim_labels, window,
  // group counts.
  // XLA's dots and convolutions may mix operand types (s8 weights with bf16
  // activations, s8 with s16, pred with f32): both operands become one
  // type, as XLA's operand upcaster makes them: the result's, or for a
  // float result the widest float among it and the operands (an f32
  // operand of a bf16 dot is not rounded first). Every such convert is
  // exact but an integer's to a float narrower than it.
  auto unifyContractionOperands = [&]() {
    if (operands.size() < 2)
      return;
    auto lhsType = dyn_cast<RankedTensorType>(operands[0].getType());
    auto rhsType = dyn_cast<RankedTensorType>(operands[1].getType());
    auto outType = dyn_cast<RankedTensorType>(*resultType);
    if (!lhsType || !rhsType || !outType ||
        lhsType.getElementType() == rhsType.getElementType())
      return;
    Type target = outType.getElementType();
    if (isa<FloatType>(target))
      for (Type t : {lhsType.getElementType(), rhsType.getElementType()})
        if (auto f = dyn_cast<FloatType>(t);
            f && f.getWidth() > cast<FloatType>(target).getWidth())
          target = f;
    for (Value &operand : MutableArrayRef<Value>(operands).take_front(2)) {
      auto type = cast<RankedTensorType>(operand.getType());
      if (type.getElementType() != target)
        operand = createOp(location, "hlo.convert", {operand},
                           type.clone(target));
    }
  };
  auto addConvolutionAttrs = [&]() -> LogicalResult {
    const hlo_text::Attribute *labels = needAttr("dim_labels");
    if (!labels)
      return failure();
    FailureOr<hlo::ConvDimensionNumbersAttr> dims = convDimLabels(*labels);
    if (failed(dims))
      return failure();
    opName = "hlo.convolution";
    addAttr("dimension_numbers", *dims);
    if (const hlo_text::Attribute *w = window()) {
      SmallVector<int64_t> strides, padding, lhsDil, rhsDil;
      SmallVector<bool> reversal;
      for (const WindowDim &dim : w->window) {
        strides.push_back(dim.stride);
        padding.append({dim.padLow, dim.padHigh});
        lhsDil.push_back(dim.lhsDilation);
        rhsDil.push_back(dim.rhsDilation);
        reversal.push_back(dim.reversal);
      }
      addAttr("window_strides", i64Array(strides));
      addAttr("padding", i64Array(padding));
      addAttr("lhs_dilation", i64Array(lhsDil));
      addAttr("rhs_dilation", i64Array(rhsDil));
      if (llvm::is_contained(reversal, true))
        addAttr("window_reversal", builder.getDenseBoolArrayAttr(reversal));
    }
    for (StringRef key : {"feature_group_count", "batch_group_count"})
      if (inst.attr(key)) {
        FailureOr<int64_t> count = intAttr(key);
        if (failed(count))
          return failure();
        addAttr(key, builder.getI64IntegerAttr(*count));
      }
    return success();
  };

  // XLA's cuBLAS/cuDNN calls: their dot_general or convolution here, the
  // epilogue once it is built (GpuLibraryCalls.h).
  std::optional<importer::GpuLibraryCall> gpuCall;
  SmallVector<Value> gpuExtras;
  const hlo_text::Attribute *target = inst.attr("custom_call_target");
  if (opcode == "custom-call" && target &&
      importer::isGpuLibraryTarget(target->stringValue)) {
    const hlo_text::Attribute *config = inst.attr("backend_config");
    std::string text;
    if (config)
      text = config->kind == AttrKind::String ? config->stringValue
                                              : config->raw;
    std::string message;
    gpuCall = importer::readGpuLibraryCall(target->stringValue, text, message);
    if (!gpuCall)
      return error(config && importer::readsGpuLibraryTarget(
                                 target->stringValue)
                       ? config->valueLoc
                       : target->valueLoc)
             << message;
  }

  // Ops that are their operand on one device, in one program.
  auto identity = [&](Value value) -> LogicalResult {
    if (value.getType() != *resultType)
      return error(inst.opcodeLoc)
             << "'" << opcode << "' returns " << *resultType
             << " but its operand is " << value.getType()
             << "; tpuc imports it as the identity, which needs one type";
    values[inst.name] = value;
    return success();
  };
  auto needOperands = [&](size_t count) -> LogicalResult {
    if (operands.size() == count)
      return success();
    return error(inst.opcodeLoc) << "'" << opcode << "' needs " << count
                                 << " operand(s), found " << operands.size();
  };

  if (!opName.empty()) {
    // No attributes.
  } else if (opcode == "batch-norm-inference" ||
             opcode == "batch-norm-training" || opcode == "batch-norm-grad") {
    FailureOr<Value> result = emitBatchNorm(inst, operands, location);
    if (failed(result))
      return failure();
    if (result->getType() != *resultType)
      return error(inst.loc) << "'" << opcode << "' must return "
                             << result->getType() << ", not " << *resultType;
    values[inst.name] = *result;
    return success();
  } else if (opcode == "ragged-dot" || opcode == "stochastic-convert" ||
             opcode == "scan" || opcode == "shuffle" ||
             opcode == "ragged-all-to-all") {
    // Expanded into hlo ops, as XLA's expanders do.
    FailureOr<Value> result =
        opcode == "ragged-dot"
            ? emitRaggedDot(inst, operands, *resultType, location)
        : opcode == "scan"
            ? emitScan(inst, operands, *resultType, location)
        : opcode == "shuffle"
            ? emitShuffle(inst, operands, *resultType, location)
        : opcode == "ragged-all-to-all"
            ? emitRaggedAllToAll(inst, operands, *resultType, location)
            : emitStochasticConvert(inst, operands, *resultType, location);
    if (failed(result))
      return failure();
    values[inst.name] = *result;
    return success();
  } else if (opcode == "after-all") {
    opName = "hlo.tuple"; // a token: the empty tuple
    operands.clear();
  } else if (opcode == "opt-barrier" || opcode == "domain" ||
             opcode == "add-dependency") {
    // opt-barrier only orders scheduling, which a program run op by op
    // keeps; add-dependency returns operand 0 once operand 1 (a token or
    // value) is computed.
    if (operands.empty())
      return needOperands(1);
    return identity(operands[0]);
  } else if (opcode == "custom-call" &&
             isIdentityCustomCall(
                 inst.attr("custom_call_target")
                     ? StringRef(inst.attr("custom_call_target")->stringValue)
                     : StringRef())) {
    if (failed(needOperands(1)))
      return failure();
    // A Sharding annotation is kept as the sharding of its operand's
    // producer (or parameter), for tpuc-sharding-propagation (docs/spmd.md).
    const hlo_text::Attribute *sharding = inst.attr("sharding");
    if (sharding && inst.attr("custom_call_target")->stringValue == "Sharding" &&
        isa<RankedTensorType>(operands[0].getType())) {
      FailureOr<StringAttr> text = convertSharding(*sharding);
      if (failed(text))
        return failure();
      Operation *producer = operands[0].getDefiningOp();
      auto arg = dyn_cast<BlockArgument>(operands[0]);
      auto owner = arg ? dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp())
                       : func::FuncOp();
      if (producer && producer->getNumResults() == 1 &&
          !producer->hasAttr("hlo.sharding"))
        producer->setAttr("hlo.sharding", *text);
      else if (owner && !owner.getArgAttr(arg.getArgNumber(), "hlo.sharding"))
        owner.setArgAttr(arg.getArgNumber(), "hlo.sharding", *text);
    }
    return identity(operands[0]);
  } else if (opcode == "custom-call" && inst.attr("custom_call_target") &&
             inst.attr("custom_call_target")->stringValue == "TopK") {
    // JAX's lax.top_k before XLA's TopK rewriter: (values, s32 indices) of
    // the k largest along the last dimension, k from the result shape.
    auto tuple = dyn_cast<TupleType>(*resultType);
    auto values = tuple && tuple.size() == 2
                      ? dyn_cast<RankedTensorType>(tuple.getType(0))
                      : nullptr;
    if (failed(needOperands(1)) || failed(splitTupleResult()))
      return failure();
    if (!values || values.getRank() < 1)
      return error(inst.loc) << "custom-call TopK must return a tuple "
                                "(values, indices) of rank >= 1";
    opName = "hlo.topk";
    addAttr("k", builder.getI64IntegerAttr(values.getShape().back()));
    addAttr("largest", builder.getBoolAttr(true));
  } else if (opcode == "reduce-precision") {
    FailureOr<int64_t> exponent = intAttr("exponent_bits");
    if (failed(exponent))
      return failure();
    FailureOr<int64_t> mantissa = intAttr("mantissa_bits");
    if (failed(mantissa))
      return failure();
    opName = "hlo.reduce_precision";
    addAttr("exponent_bits", builder.getI32IntegerAttr(*exponent));
    addAttr("mantissa_bits", builder.getI32IntegerAttr(*mantissa));
  } else if (opcode == "map") {
    opName = "hlo.map";
    auto tensorType = dyn_cast<RankedTensorType>(*resultType);
    SmallVector<int64_t> dims = llvm::to_vector(intsAttr("dimensions"));
    if (dims.empty() && tensorType)
      dims = llvm::to_vector(llvm::seq<int64_t>(0, tensorType.getRank()));
    addAttr("dimensions", i64Array(dims));
    if (failed(addRegion("to_apply", 1)))
      return failure();
  } else if (opcode == "bitcast" || opcode == "dynamic-reshape") {
    // With static shapes and row-major layouts, both are a reshape
    // (dynamic-reshape's size operands then repeat the static sizes).
    auto tensorType = dyn_cast<RankedTensorType>(*resultType);
    auto operandType = operands.empty()
                           ? nullptr
                           : dyn_cast<RankedTensorType>(operands[0].getType());
    if (!tensorType || !operandType ||
        operandType.getElementType() != tensorType.getElementType())
      return error(inst.opcodeLoc)
             << "'" << opcode << "' is imported as a reshape, which needs an "
             << "array operand of the result's element type";
    operands.resize(1);
    opName = "hlo.reshape";
  } else if (opcode == "get-dimension-size") {
    ArrayRef<int64_t> dims = intsAttr("dimensions");
    auto operandType = operands.size() == 1
                           ? dyn_cast<RankedTensorType>(operands[0].getType())
                           : nullptr;
    auto tensorType = dyn_cast<RankedTensorType>(*resultType);
    if (dims.size() != 1 || !operandType || !tensorType ||
        dims[0] >= operandType.getRank() || dims[0] < 0)
      return error(inst.opcodeLoc) << "get-dimension-size needs one array "
                                      "operand and dimensions={d} in range";
    // Static shapes: the size is a constant.
    opName = "hlo.constant";
    operands.clear();
    addAttr("value", DenseElementsAttr::get(
                         tensorType, ArrayRef<APInt>(APInt(
                                         32, operandType.getDimSize(dims[0])))));
  } else if (opcode == "set-dimension-size") {
    // The result shape must be static (convertType rejects <=N bounds), so
    // the size operand can only restate the static size.
    if (operands.empty())
      return needOperands(2);
    return identity(operands[0]);
  } else if (opcode == "replica-id" || opcode == "partition-id") {
    opName = opcode == "replica-id" ? "hlo.replica_id" : "hlo.partition_id";
  } else if (opcode == "all-reduce-done" || opcode == "all-gather-done" ||
             opcode == "collective-permute-done") {
    // The -start op computed the result; -done reads it from the start's
    // tuple (all-gather, collective-permute) or is its value (all-reduce).
    if (failed(needOperands(1)))
      return failure();
    Value started = operands[0];
    if (isa<TupleType>(started.getType()) && started.getType() != *resultType)
      started = hlo::GetTupleElementOp::create(builder, location, started, 1);
    return identity(started);
  } else if (llvm::is_contained(
                 {"all-reduce", "all-reduce-start", "all-gather",
                  "all-gather-start", "reduce-scatter", "all-to-all",
                  "collective-permute", "collective-permute-start",
                  "collective-broadcast", "collective-reduce"},
                 opcode)) {
    // An async -start is imported as the synchronous op (docs/spmd.md).
    StringRef base = StringRef(opcode);
    bool isStart = base.consume_back("-start");
    // collective-reduce writes the reduction to the group's root (rank 0)
    // only and leaves the other devices' results unwritten: an all-reduce
    // gives the root that value and the others the same one. That holds for
    // any root, so a run-time root (has_dynamic_root=true: a trailing s32
    // operand with one root rank per reduced operand, XLA's
    // CollectiveReduceThunk) is checked and dropped.
    if (base == "collective-reduce") {
      if (boolAttr("has_dynamic_root", false)) {
        int64_t reduced = static_cast<int64_t>(operands.size()) - 1;
        auto roots = reduced >= 1 ? dyn_cast<RankedTensorType>(
                                        operands.back().getType())
                                  : nullptr;
        if (!roots || !roots.getElementType().isInteger(32) ||
            roots.getRank() > 1 || roots.getNumElements() != reduced)
          return error(reduced >= 1 ? inst.operands.back().loc
                                    : inst.opcodeLoc)
                 << "'collective-reduce' with has_dynamic_root=true needs "
                    "a trailing s32 root operand of one rank per reduced "
                    "operand ("
                 << std::max<int64_t>(reduced, 1) << " elements, rank <= 1)";
        operands.pop_back();
      }
      base = "all-reduce";
    }
    if (base == "all-reduce") {
      if (failed(splitTupleResult()) || failed(addRegion("to_apply", 1)))
        return failure();
    } else if (base == "reduce-scatter") {
      if (failed(addRegion("to_apply", 1)))
        return failure();
    }
    // all-gather-start and collective-permute-start return (operand,
    // result, context...).
    auto startTuple = isStart && base != "all-reduce"
                          ? dyn_cast<TupleType>(*resultType)
                          : nullptr;
    if (isStart && base != "all-reduce" &&
        (!startTuple || startTuple.size() < 2 || operands.size() != 1 ||
         startTuple.getType(0) != operands[0].getType()))
      return error(inst.opcodeLoc)
             << "'" << opcode << "' must take one operand and return "
             << "(operand, result, ...)";
    if (startTuple)
      resultTypes.assign({startTuple.getType(1)});
    if (base != "all-reduce" && failed(needOperands(1)))
      return failure();
    if (failed(addCollective(inst, base, operands, resultTypes.front(), opName,
                             attrs)))
      return failure();
    if (startTuple) {
      OperationState state(location, opName);
      state.addOperands(operands);
      state.addTypes(resultTypes);
      state.addAttributes(attrs);
      Value result = builder.create(state)->getResult(0);
      SmallVector<Value> elements{operands[0], result};
      if (failed(appendZeroContexts(inst, startTuple, location, elements)))
        return failure();
      values[inst.name] = hlo::TupleOp::create(builder, location, elements);
      return success();
    }
  } else if (opcode == "copy-start") {
    // (destination, source, context); copy-done returns the destination.
    auto tuple = dyn_cast<TupleType>(*resultType);
    if (failed(needOperands(1)))
      return failure();
    if (!tuple || tuple.size() != 3 || tuple.getType(0) != operands[0].getType())
      return error(inst.opcodeLoc)
             << "copy-start must return (destination, source, u32[])";
    Value copy = hlo::CopyOp::create(builder, location, operands[0]);
    auto contextType = dyn_cast<RankedTensorType>(tuple.getType(2));
    if (!contextType)
      return error(inst.opcodeLoc) << "copy-start's context must be an array";
    Value context = hlo::ConstantOp::create(
        builder, location,
        DenseElementsAttr::get(contextType,
                               ArrayRef<APInt>(APInt(
                                   contextType.getElementTypeBitWidth(), 0))));
    values[inst.name] = hlo::TupleOp::create(builder, location,
                                             ValueRange{copy, operands[0], context});
    return success();
  } else if (opcode == "copy-done") {
    if (failed(needOperands(1)))
      return failure();
    if (!isa<TupleType>(operands[0].getType()))
      return error(inst.opcodeLoc) << "copy-done needs copy-start's tuple";
    return identity(hlo::GetTupleElementOp::create(builder, location,
                                                   operands[0], 0));
  } else if (opcode == "constant") {
    auto tensorType = dyn_cast<RankedTensorType>(*resultType);
    if (!tensorType || !inst.literal)
      return error(inst.loc) << "constant needs an array shape and a literal";
    FailureOr<mlir::Attribute> value = convertLiteral(inst, tensorType);
    if (failed(value))
      return failure();
    opName = "hlo.constant";
    addAttr("value", *value);
  } else if (opcode == "iota") {
    FailureOr<int64_t> dim = intAttr("iota_dimension");
    if (failed(dim))
      return failure();
    opName = "hlo.iota";
    addAttr("iota_dimension", builder.getI64IntegerAttr(*dim));
  } else if (opcode == "compare") {
    const hlo_text::Attribute *direction = needAttr("direction");
    if (!direction)
      return failure();
    auto dir = hlo::symbolizeComparisonDirection(direction->stringValue);
    if (!dir)
      return error(direction->valueLoc) << "unknown comparison direction '"
                                        << direction->raw << "'";
    opName = "hlo.compare";
    addAttr("comparison_direction",
            hlo::ComparisonDirectionAttr::get(&context, *dir));
    if (const hlo_text::Attribute *type = inst.attr("type")) {
      auto compareType = hlo::symbolizeComparisonType(type->stringValue);
      if (!compareType)
        return error(type->valueLoc) << "unknown comparison type '"
                                     << type->raw << "'";
      addAttr("compare_type",
              hlo::ComparisonTypeAttr::get(&context, *compareType));
    }
  } else if (opcode == "broadcast") {
    opName = "hlo.broadcast_in_dim";
    addAttr("broadcast_dimensions", i64Array(intsAttr("dimensions")));
  } else if (opcode == "transpose") {
    opName = "hlo.transpose";
    addAttr("permutation", i64Array(intsAttr("dimensions")));
  } else if (opcode == "reverse") {
    opName = "hlo.reverse";
    addAttr("dimensions", i64Array(intsAttr("dimensions")));
  } else if (opcode == "slice") {
    const hlo_text::Attribute *slice = needAttr("slice");
    if (!slice)
      return failure();
    SmallVector<int64_t> starts, limits, strides;
    for (const SliceRange &range : slice->slices) {
      starts.push_back(range.start);
      limits.push_back(range.limit);
      strides.push_back(range.stride);
    }
    opName = "hlo.slice";
    addAttr("start_indices", i64Array(starts));
    addAttr("limit_indices", i64Array(limits));
    addAttr("strides", i64Array(strides));
  } else if (opcode == "dynamic-slice") {
    opName = "hlo.dynamic_slice";
    addAttr("slice_sizes", i64Array(intsAttr("dynamic_slice_sizes")));
  } else if (opcode == "concatenate") {
    ArrayRef<int64_t> dims = intsAttr("dimensions");
    if (dims.size() != 1)
      return error(inst.opcodeLoc) << "concatenate needs dimensions={d}";
    opName = "hlo.concatenate";
    addAttr("dimension", builder.getI64IntegerAttr(dims.front()));
  } else if (opcode == "pad") {
    const hlo_text::Attribute *padding = needAttr("padding");
    if (!padding)
      return failure();
    SmallVector<int64_t> low, high, interior;
    for (const PadDim &dim : padding->padding) {
      low.push_back(dim.low);
      high.push_back(dim.high);
      interior.push_back(dim.interior);
    }
    opName = "hlo.pad";
    addAttr("edge_padding_low", i64Array(low));
    addAttr("edge_padding_high", i64Array(high));
    addAttr("interior_padding", i64Array(interior));
  } else if (opcode == "reduce" || opcode == "reduce-window") {
    if (failed(splitTupleResult()))
      return failure();
    bool isReduce = opcode == "reduce";
    opName = isReduce ? "hlo.reduce" : "hlo.reduce_window";
    if (isReduce)
      addAttr("dimensions", i64Array(intsAttr("dimensions")));
    else
      addWindowAttrs(/*dilations=*/true);
    if (failed(addRegion("to_apply", resultTypes.size())))
      return failure();
  } else if (opcode == "select-and-scatter") {
    opName = "hlo.select_and_scatter";
    addWindowAttrs(/*dilations=*/false);
    if (failed(addRegion("select", 1)))
      return failure();
    if (failed(addRegion("scatter", 1)))
      return failure();
  } else if (gpuCall) {
    // Its output: the result, or a tuple's first element (then the aux
    // value of a cuBLASLt *_AUX epilogue, workspaces).
    auto tuple = dyn_cast<TupleType>(*resultType);
    auto out =
        dyn_cast<RankedTensorType>(tuple ? tuple.getType(0) : *resultType);
    // Integer operands (cuDNN's and cuBLAS's int8 calls): an exact integer
    // contraction accumulated in s32, then the epilogue in f32 for an s8 or
    // float result (emitGpuLibraryEpilogue).
    auto elementOf = [&](Value v) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      return type ? type.getElementType() : Type();
    };
    bool integerCall = operands.size() >= 2 && elementOf(operands[0]) &&
                       isa<IntegerType>(elementOf(operands[0]));
    if (integerCall &&
        (elementOf(operands[1]) != elementOf(operands[0]) ||
         elementOf(operands[0]).isInteger(1) ||
         gpuCall->kind == importer::GpuCallKind::ConvBackwardInput ||
         gpuCall->kind == importer::GpuCallKind::ConvBackwardFilter))
      return error(inst.opcodeLoc)
             << "'" << target->stringValue
             << "' on integers needs two forward operands of one integer "
                "type (cuDNN's and cuBLAS's are s8), not "
             << operands[0].getType() << " and " << operands[1].getType();
    if (!out ||
        !(isa<FloatType>(out.getElementType()) ||
          (integerCall && isa<IntegerType>(out.getElementType()) &&
           !out.getElementType().isInteger(1))) ||
        (gpuCall->aux && (integerCall || !tuple || tuple.size() < 2 ||
                          tuple.getType(1) != out)))
      return error(inst.opcodeLoc)
             << "'" << target->stringValue << "' must return a float array"
             << (integerCall ? " or (on integer operands) an integer one" : "")
             << (gpuCall->aux ? " and its aux value of the same type"
                              : " (or a tuple of one and its workspace)");
    size_t least =
        2 + (gpuCall->isGemm() && gpuCall->beta != 0) + gpuCall->bias;
    size_t most = least + (!gpuCall->isGemm() && gpuCall->bias); // side input
    if (operands.size() < least || operands.size() > most)
      return error(inst.opcodeLoc)
             << "'" << target->stringValue << "' with this backend_config takes "
             << least << (most > least ? " or " + std::to_string(most) : "")
             << " operands, not " << operands.size();
    if (gpuCall->kind == importer::GpuCallKind::ConvBackwardInput ||
        gpuCall->kind == importer::GpuCallKind::ConvBackwardFilter) {
      FailureOr<Value> grad =
          emitConvolutionGradient(inst, *gpuCall, operands, out, location);
      if (failed(grad))
        return failure();
      FailureOr<Value> called = emitGpuLibraryEpilogue(
          inst, *gpuCall, *grad, {}, *resultType, location);
      if (failed(called))
        return failure();
      values[inst.name] = *called;
      return success();
    }
    // cuDNN's vectorized int8 layouts (NCHW_VECT_C: a minor vector of 4 or
    // 32 features, `?` in dim_labels or no label at all, the filter
    // reordered for the int8x32 kernels) are no convolution tpuc reads.
    const hlo_text::Attribute *labels = inst.attr("dim_labels");
    auto operandType = dyn_cast<RankedTensorType>(operands[0].getType());
    StringRef inputLabels =
        labels ? StringRef(labels->raw).split('_').first : StringRef();
    if (!gpuCall->isGemm() && labels && operandType &&
        (StringRef(labels->raw).contains('?') ||
         operandType.getRank() > static_cast<int64_t>(inputLabels.size())))
      return error(labels->valueLoc)
             << "'" << target->stringValue
             << "' on cuDNN's vectorized int8 layout (NCHW_VECT_C: a minor "
                "vector dimension of features dim_labels= does not name) is "
                "not supported; the module's before-optimizations dump has "
                "the plain convolution";
    if (gpuCall->isGemm()) {
      opName = "hlo.dot_general";
      addAttr("dot_dimension_numbers",
              hlo::DotDimensionNumbersAttr::get(
                  &context, gpuCall->lhsBatch, gpuCall->rhsBatch,
                  gpuCall->lhsContracting, gpuCall->rhsContracting));
      precisionConfig(gpuCall->precision);
    } else if (failed(addConvolutionAttrs())) {
      return failure();
    }
    gpuExtras.assign(operands.begin() + 2, operands.end());
    operands.resize(2);
    resultTypes.assign({integerCall ? out.clone(builder.getI32Type()) : out});
  } else if (opcode == "dot" || opcode == "scaled-dot") {
    if (opcode == "scaled-dot") {
      // XLA's ScaledDotRewriter: a dot of the dequantized operands.
      FailureOr<std::pair<Value, Value>> scaled =
          emitScaledDotOperands(inst, operands, location);
      if (failed(scaled))
        return failure();
      operands.assign({scaled->first, scaled->second});
    }
    opName = "hlo.dot_general";
    addAttr("dot_dimension_numbers",
            hlo::DotDimensionNumbersAttr::get(
                &context, intsAttr("lhs_batch_dims"),
                intsAttr("rhs_batch_dims"), intsAttr("lhs_contracting_dims"),
                intsAttr("rhs_contracting_dims")));
    precisionConfig(operandPrecision());
    unifyContractionOperands();
  } else if (opcode == "convolution") {
    if (failed(addConvolutionAttrs()))
      return failure();
    precisionConfig(operandPrecision());
    unifyContractionOperands();
  } else if (opcode == "gather") {
    FailureOr<int64_t> ivd = intAttr("index_vector_dim");
    if (failed(ivd))
      return failure();
    opName = "hlo.gather";
    addAttr("dimension_numbers",
            hlo::GatherDimensionNumbersAttr::get(
                &context, intsAttr("offset_dims"),
                intsAttr("collapsed_slice_dims"),
                intsAttr("operand_batching_dims"),
                intsAttr("start_indices_batching_dims"),
                intsAttr("start_index_map"), *ivd));
    addAttr("slice_sizes", i64Array(intsAttr("slice_sizes")));
    addAttr("indices_are_sorted",
            builder.getBoolAttr(boolAttr("indices_are_sorted", false)));
  } else if (opcode == "scatter") {
    FailureOr<int64_t> ivd = intAttr("index_vector_dim");
    if (failed(ivd))
      return failure();
    if (failed(splitTupleResult()))
      return failure();
    opName = "hlo.scatter";
    addAttr("dimension_numbers",
            hlo::ScatterDimensionNumbersAttr::get(
                &context, intsAttr("update_window_dims"),
                intsAttr("inserted_window_dims"),
                intsAttr("input_batching_dims"),
                intsAttr("scatter_indices_batching_dims"),
                intsAttr("scatter_dims_to_operand_dims"), *ivd));
    addAttr("indices_are_sorted",
            builder.getBoolAttr(boolAttr("indices_are_sorted", false)));
    addAttr("unique_indices",
            builder.getBoolAttr(boolAttr("unique_indices", false)));
    if (failed(addRegion("to_apply", resultTypes.size())))
      return failure();
  } else if (opcode == "sort") {
    ArrayRef<int64_t> dims = intsAttr("dimensions");
    if (dims.size() != 1)
      return error(inst.opcodeLoc) << "sort needs dimensions={d}";
    if (failed(splitTupleResult()))
      return failure();
    opName = "hlo.sort";
    addAttr("dimension", builder.getI64IntegerAttr(dims.front()));
    addAttr("is_stable", builder.getBoolAttr(boolAttr("is_stable", false)));
    if (failed(addRegion("to_apply", 1)))
      return failure();
  } else if (opcode == "topk") {
    FailureOr<int64_t> k = intAttr("k");
    if (failed(k) || failed(splitTupleResult()))
      return failure();
    opName = "hlo.topk";
    addAttr("k", builder.getI64IntegerAttr(*k));
    addAttr("largest", builder.getBoolAttr(boolAttr("largest", true)));
  } else if (opcode == "cholesky") {
    if (failed(needOperands(1)))
      return failure();
    opName = "hlo.cholesky";
    addAttr("lower", builder.getBoolAttr(boolAttr("lower", false)));
  } else if (opcode == "triangular-solve") {
    if (failed(needOperands(2)))
      return failure();
    bool transpose = false;
    if (const hlo_text::Attribute *attr = inst.attr("transpose_a")) {
      StringRef kind = attr->stringValue;
      if (kind != "NO_TRANSPOSE" && kind != "TRANSPOSE" && kind != "ADJOINT")
        return error(attr->valueLoc)
               << "unknown transpose_a '" << attr->raw
               << "' (NO_TRANSPOSE, TRANSPOSE or ADJOINT)";
      // ADJOINT is the transpose for real element types.
      transpose = kind != "NO_TRANSPOSE";
    }
    opName = "hlo.triangular_solve";
    for (StringRef flag : {"left_side", "lower", "unit_diagonal"})
      addAttr(flag, builder.getBoolAttr(boolAttr(flag, false)));
    addAttr("transpose_a", builder.getBoolAttr(transpose));
  } else if (opcode == "rng-bit-generator") {
    const hlo_text::Attribute *algorithm = needAttr("algorithm");
    if (!algorithm || failed(needOperands(1)))
      return failure();
    auto kind = llvm::StringSwitch<std::optional<hlo::RngAlgorithm>>(
                    algorithm->stringValue)
                    .Case("rng_default", hlo::RngAlgorithm::DEFAULT)
                    .Case("rng_three_fry", hlo::RngAlgorithm::THREE_FRY)
                    .Case("rng_philox", hlo::RngAlgorithm::PHILOX)
                    .Default(std::nullopt);
    if (!kind)
      return error(algorithm->valueLoc)
             << "unknown rng algorithm '" << algorithm->raw
             << "' (rng_default, rng_three_fry or rng_philox)";
    auto tuple = dyn_cast<TupleType>(*resultType);
    if (!tuple || tuple.size() != 2)
      return error(inst.loc) << "'rng-bit-generator' must return a tuple "
                                "(state, bits)";
    if (failed(splitTupleResult()))
      return failure();
    opName = "hlo.rng_bit_generator";
    addAttr("algorithm", hlo::RngAlgorithmAttr::get(&context, *kind));
  } else if (opcode == "rng") {
    const hlo_text::Attribute *distribution = needAttr("distribution");
    if (!distribution || failed(needOperands(2)))
      return failure();
    auto kind = llvm::StringSwitch<std::optional<hlo::RngDistribution>>(
                    distribution->stringValue)
                    .Case("rng_uniform", hlo::RngDistribution::UNIFORM)
                    .Case("rng_normal", hlo::RngDistribution::NORMAL)
                    .Default(std::nullopt);
    if (!kind)
      return error(distribution->valueLoc)
             << "unknown rng distribution '" << distribution->raw
             << "' (rng_uniform or rng_normal)";
    opName = "hlo.rng";
    addAttr("distribution", hlo::RngDistributionAttr::get(&context, *kind));
  } else if (opcode == "rng-get-and-update-state") {
    FailureOr<int64_t> delta = intAttr("delta");
    if (failed(delta) || failed(needOperands(0)))
      return failure();
    opName = "hlo.rng_get_and_update_state";
    addAttr("delta", builder.getI64IntegerAttr(*delta));
  } else if (opcode == "get-tuple-element") {
    FailureOr<int64_t> index = intAttr("index");
    if (failed(index))
      return failure();
    opName = "hlo.get_tuple_element";
    addAttr("index", builder.getI64IntegerAttr(*index));
  } else if (opcode == "call") {
    FailureOr<func::FuncOp> callee = emitCallee(inst, "to_apply");
    if (failed(callee))
      return failure();
    opName = "hlo.call";
    addAttr("callee", FlatSymbolRefAttr::get(callee->getSymNameAttr()));
  } else if (opcode == "async-start") {
    // A program run op by op is synchronous: the wrapped computation is
    // called here, and the start's value is XLA's ((operands), result,
    // context...) tuple, with zero contexts; async-done reads element 1.
    FailureOr<func::FuncOp> callee = emitCallee(inst, "calls");
    if (failed(callee))
      return failure();
    auto startTuple = dyn_cast<TupleType>(*resultType);
    auto operandTuple = TupleType::get(&context, ValueRange(operands).getTypes());
    ArrayRef<Type> calleeResults = callee->getFunctionType().getResults();
    if (!startTuple || startTuple.size() < 2 ||
        startTuple.getType(0) != operandTuple || calleeResults.size() != 1 ||
        startTuple.getType(1) != calleeResults.front())
      return error(inst.opcodeLoc)
             << "'async-start' must return ((operands), result of '"
             << callee->getSymName() << "', context...)";
    Value result = hlo::CallOp::create(
                       builder, location, calleeResults,
                       FlatSymbolRefAttr::get(callee->getSymNameAttr()),
                       operands, /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr)
                       ->getResult(0);
    return setAsyncStart(inst, startTuple, operands, result, values);
  } else if (opcode == "async-update" || opcode == "async-done" ||
             asyncPart == "update" || asyncPart == "done") {
    auto started = operands.size() == 1
                       ? dyn_cast<TupleType>(operands[0].getType())
                       : nullptr;
    if (!started || started.size() < 2)
      return error(inst.opcodeLoc) << "'" << opcode
                                   << "' needs one async-start operand";
    if (opcode == "async-update" || asyncPart == "update")
      return identity(operands[0]);
    return identity(
        hlo::GetTupleElementOp::create(builder, location, operands[0], 1));
  } else if (opcode == "while") {
    opName = "hlo.while";
    if (failed(addRegion("condition", 1)))
      return failure();
    if (failed(addRegion("body", 1)))
      return failure();
  } else if (opcode == "conditional") {
    opName = "hlo.conditional";
    if (const hlo_text::Attribute *branches =
            inst.attr("branch_computations")) {
      for (const std::string &name : branches->names) {
        const Computation *comp = module.findComputation(name);
        if (!comp)
          return error(branches->valueLoc) << "unknown computation '" << name
                                           << "'";
        regions.push_back({comp, 1});
      }
    } else {
      if (failed(addRegion("true_computation", 1)))
      return failure();
      if (failed(addRegion("false_computation", 1)))
      return failure();
    }
  } else if (opcode == "fusion") {
    const hlo_text::Attribute *kind = needAttr("kind");
    if (!kind)
      return failure();
    auto fusionKind = llvm::StringSwitch<std::optional<hlo::FusionKind>>(
                          kind->stringValue)
                          .Case("kLoop", hlo::FusionKind::loop)
                          .Case("kInput", hlo::FusionKind::input)
                          .Case("kOutput", hlo::FusionKind::output)
                          .Case("kCustom", hlo::FusionKind::custom)
                          .Default(std::nullopt);
    if (!fusionKind)
      return error(kind->valueLoc) << "unknown fusion kind '" << kind->raw
                                   << "'";
    opName = "hlo.fusion";
    addAttr("kind", hlo::FusionKindAttr::get(&context, *fusionKind));
    // A multi-output fusion (XLA's tuple root) has one result per output,
    // as the fusions tpuc forms itself.
    if (failed(splitTupleResult()) ||
        failed(addRegion("calls", resultTypes.size())))
      return failure();
  } else if (opcode == "custom-call") {
    const hlo_text::Attribute *target = inst.attr("custom_call_target");
    return error(inst.opcodeLoc)
           << "unsupported custom-call target '"
           << (target ? target->stringValue : std::string("?")) << "'";
  } else {
    return error(inst.opcodeLoc) << "unsupported HLO opcode '" << opcode
                                 << "'";
  }

  if (const hlo_text::Attribute *sharding = inst.attr("sharding")) {
    FailureOr<StringAttr> text = convertSharding(*sharding);
    if (failed(text))
      return failure();
    addAttr("hlo.sharding", *text);
  }
  OperationState state(location, opName);
  state.addOperands(operands);
  state.addTypes(resultTypes);
  state.addAttributes(attrs);
  for (size_t i = 0; i < regions.size(); ++i)
    state.addRegion();
  Operation *op = builder.create(state);
  for (auto [region, spec] : llvm::zip(op->getRegions(), regions))
    if (failed(emitRegion(region, inst, *spec.first, spec.second,
                          /*splitRoot=*/opName == "hlo.fusion" && tupleResult)))
      return failure();
  retypeMixedReducer(op);
  setLayoutAttr(op, gpuCall && inst.shape.isTuple()
                        ? inst.shape.tupleElements.front()
                        : inst.shape);
  Value result = op->getResult(0);
  if (tupleResult)
    result = hlo::TupleOp::create(builder, location, op->getResults());
  if (gpuCall) {
    FailureOr<Value> called = emitGpuLibraryEpilogue(
        inst, *gpuCall, result, gpuExtras, *resultType, location);
    if (failed(called))
      return failure();
    result = *called;
  }
  values[inst.name] = result;
  return success();
}

FailureOr<Value> Importer::emitConvolutionGradient(
    const Instruction &inst, const importer::GpuLibraryCall &call,
    ValueRange operands, RankedTensorType resultType, Location location) {
  StringRef target = inst.attr("custom_call_target")->stringValue;
  const hlo_text::Attribute *labels = inst.attr("dim_labels");
  const hlo_text::Attribute *window = inst.attr("window");
  if (!labels || !window || window->kind != AttrKind::Window)
    return error(inst.opcodeLoc)
           << "'" << target << "' needs window= and dim_labels=";
  for (StringRef key : {"feature_group_count", "batch_group_count"})
    if (const hlo_text::Attribute *count = inst.attr(key))
      if (count->kind != AttrKind::Int || count->intValue != 1)
        return error(count->valueLoc)
               << "'" << target << "' with " << key
               << " other than 1 is not supported";
  FailureOr<hlo::ConvDimensionNumbersAttr> parsed = convDimLabels(*labels);
  if (failed(parsed))
    return failure();
  hlo::ConvDimensionNumbersAttr dims = *parsed;
  bool backwardInput = call.kind == importer::GpuCallKind::ConvBackwardInput;
  // The forward convolution's input, filter and output gradient types.
  auto input = dyn_cast<RankedTensorType>(
      backwardInput ? Type(resultType) : operands[0].getType());
  auto filter = dyn_cast<RankedTensorType>(
      backwardInput ? operands[1].getType() : Type(resultType));
  auto output = dyn_cast<RankedTensorType>(
      backwardInput ? operands[0].getType() : operands[1].getType());
  size_t spatial = dims.getInputSpatial().size();
  if (!input || !filter || !output || operands.size() != 2 ||
      window->window.size() != spatial ||
      input.getRank() != static_cast<int64_t>(spatial) + 2 ||
      filter.getRank() != input.getRank() ||
      output.getRank() != input.getRank() ||
      input.getElementType() != filter.getElementType() ||
      input.getElementType() != output.getElementType())
    return error(inst.opcodeLoc)
           << "'" << target
           << "' needs two operands and a result of one element type and "
              "of the rank dim_labels= and window= give";
  SmallVector<int64_t> strides, padding, lhsDilation, rhsDilation;
  for (auto [i, w] : llvm::enumerate(window->window)) {
    if (w.reversal)
      return error(window->valueLoc)
             << "'" << target << "' with a reversed window is not supported";
    // JAX's _conv_general_vjp_{lhs,rhs}_padding.
    auto dilated = [](int64_t size, int64_t dilation) {
      return size == 0 ? 0 : 1 + dilation * (size - 1);
    };
    int64_t in = dilated(input.getDimSize(dims.getInputSpatial()[i]),
                         w.lhsDilation);
    int64_t kernel = dilated(filter.getDimSize(dims.getKernelSpatial()[i]),
                             w.rhsDilation);
    int64_t out =
        dilated(output.getDimSize(dims.getOutputSpatial()[i]), w.stride);
    if (backwardInput) {
      if (w.lhsDilation != 1)
        return error(window->valueLoc)
               << "'" << target << "' with an lhs dilation is not supported";
      int64_t before = kernel - w.padLow - 1;
      strides.push_back(1);
      padding.append({before, in + kernel - 1 - out - before});
      lhsDilation.push_back(w.stride);
      rhsDilation.push_back(w.rhsDilation);
    } else {
      strides.push_back(w.rhsDilation);
      padding.append({w.padLow, out - in + kernel - w.padLow - 1});
      lhsDilation.push_back(w.lhsDilation);
      rhsDilation.push_back(w.stride);
    }
  }
  hlo::ConvDimensionNumbersAttr gradDims;
  SmallVector<Value> convOperands;
  if (backwardInput) {
    // d_input = conv(d_output, reverse(filter)), the filter's features
    // swapped.
    gradDims = hlo::ConvDimensionNumbersAttr::get(
        &context, dims.getOutputBatch(), dims.getOutputFeature(),
        dims.getOutputSpatial(), dims.getKernelOutputFeature(),
        dims.getKernelInputFeature(), dims.getKernelSpatial(),
        dims.getInputBatch(), dims.getInputFeature(), dims.getInputSpatial());
    Value reversed = createOp(
        location, "hlo.reverse", {operands[1]}, filter,
        {builder.getNamedAttr(
            "dimensions", builder.getDenseI64ArrayAttr(dims.getKernelSpatial()))});
    convOperands = {operands[0], reversed};
  } else {
    // d_filter = conv(input, d_output): the input's batch is the sum's
    // feature, the output gradient's batch the kernel's input feature.
    gradDims = hlo::ConvDimensionNumbersAttr::get(
        &context, dims.getInputFeature(), dims.getInputBatch(),
        dims.getInputSpatial(), dims.getOutputBatch(),
        dims.getOutputFeature(), dims.getOutputSpatial(),
        dims.getKernelInputFeature(), dims.getKernelOutputFeature(),
        dims.getKernelSpatial());
    convOperands = {operands[0], operands[1]};
  }
  Value grad = createOp(
      location, "hlo.convolution", convOperands, resultType,
      {builder.getNamedAttr("dimension_numbers", gradDims),
       builder.getNamedAttr("window_strides",
                            builder.getDenseI64ArrayAttr(strides)),
       builder.getNamedAttr("padding", builder.getDenseI64ArrayAttr(padding)),
       builder.getNamedAttr("lhs_dilation",
                            builder.getDenseI64ArrayAttr(lhsDilation)),
       builder.getNamedAttr("rhs_dilation",
                            builder.getDenseI64ArrayAttr(rhsDilation))});
  if (inst.shape.isTuple())
    setLayoutAttr(grad.getDefiningOp(), inst.shape.tupleElements.front());
  else
    setLayoutAttr(grad.getDefiningOp(), inst.shape);
  return grad;
}

Value Importer::createSplat(Location location, RankedTensorType type,
                            double value) {
  return createOp(
      location, "hlo.constant", {}, type,
      {builder.getNamedAttr(
          "value", DenseElementsAttr::get(
                       type, builder.getFloatAttr(type.getElementType(),
                                                  value)))});
}

FailureOr<Value> Importer::emitGpuLibraryEpilogue(
    const Instruction &inst, const importer::GpuLibraryCall &call, Value core,
    ValueRange extras, Type resultType, Location location) {
  StringRef target = inst.attr("custom_call_target")->stringValue;
  auto tuple = dyn_cast<TupleType>(resultType);
  // The call's result (tuple: with the aux value and zero workspaces).
  auto finish = [&](Value x, Value aux) -> FailureOr<Value> {
    if (!tuple)
      return x;
    SmallVector<Value> elements{x};
    if (call.aux)
      elements.push_back(aux);
    for (Type rest : tuple.getTypes().drop_front(elements.size())) {
      auto workspace = dyn_cast<RankedTensorType>(rest);
      if (!workspace)
        return error(inst.opcodeLoc) << "the workspace of '" << target
                                     << "' must be an array, not " << rest;
      elements.push_back(createZeros(location, workspace));
    }
    return hlo::TupleOp::create(builder, location, elements).getResult();
  };
  auto out = cast<RankedTensorType>(tuple ? tuple.getType(0) : resultType);
  Type outElement = out.getElementType();
  // An integer contraction (s32): cuDNN and cuBLAS compute an s8 or float
  // result's epilogue in f32 and clamp an s8 one to [-128, 127] before the
  // convert (XLA's CudnnFusedConvRewriter idioms); another integer result is
  // the contraction itself, which takes no epilogue.
  bool integerCore = isa<IntegerType>(
      cast<RankedTensorType>(core.getType()).getElementType());
  if (integerCore && isa<IntegerType>(outElement) &&
      !outElement.isInteger(8)) {
    bool plain = call.alpha == 1 && !call.bias &&
                 !(call.isGemm() && call.beta != 0) &&
                 (extras.empty() || call.sideScale == 0) &&
                 call.activation == importer::GpuActivation::None;
    if (!plain)
      return error(inst.opcodeLoc)
             << "'" << target << "' on integers returning " << out
             << " takes no scale, bias, side input or activation (cuDNN "
                "computes those in f32 for an s8 or f32 result)";
    if (core.getType() != out)
      core = createOp(location, "hlo.convert", {core}, out);
    return finish(core, Value());
  }
  Value value = integerCore ? createOp(location, "hlo.convert", {core},
                                       out.clone(builder.getF32Type()))
                            : core;
  auto type = cast<RankedTensorType>(value.getType());
  auto op = [&](StringRef name, ValueRange operands) {
    return createOp(location, name, operands, type);
  };
  auto splat = [&](double value) { return createSplat(location, type, value); };
  auto scaled = [&](Value v, double factor) {
    return factor == 1 ? v : op("hlo.multiply", {v, splat(factor)});
  };
  // An operand added to the result: of its type, or (the bias) a vector
  // along dimension `dim`, in any float type.
  auto addend = [&](Value v, StringRef what,
                    std::optional<int64_t> dim) -> FailureOr<Value> {
    auto vType = dyn_cast<RankedTensorType>(v.getType());
    bool vector = dim && vType && vType.getRank() == 1 &&
                  vType.getDimSize(0) == type.getDimSize(*dim);
    if (!vType ||
        !(isa<FloatType>(vType.getElementType()) ||
          (integerCore && isa<IntegerType>(vType.getElementType()))) ||
        (vType.getShape() != type.getShape() && !vector))
      return error(inst.opcodeLoc)
             << what << " of '" << target
             << "' must have the shape of its result " << type
             << (dim ? " or be a vector along dimension " +
                           std::to_string(*dim)
                     : std::string())
             << ", not " << v.getType();
    if (vType.getElementType() != type.getElementType())
      v = createOp(location, "hlo.convert", {v},
                   vType.clone(type.getElementType()));
    if (vector)
      v = createOp(location, "hlo.broadcast_in_dim", {v}, type,
                   {builder.getNamedAttr(
                       "broadcast_dimensions",
                       builder.getDenseI64ArrayAttr({*dim}))});
    return v;
  };

  Value x = scaled(value, call.alpha);
  size_t next = 0;
  if (call.isGemm() && call.beta != 0) {
    FailureOr<Value> c = addend(extras[next++], "C", std::nullopt);
    if (failed(c))
      return failure();
    x = op("hlo.add", {x, scaled(*c, call.beta)});
  }
  Value bias = call.bias ? extras[next++] : Value();
  Value side = next < extras.size() ? extras[next++] : Value();
  if (side && call.sideScale != 0) {
    FailureOr<Value> s = addend(side, "the side input", std::nullopt);
    if (failed(s))
      return failure();
    x = op("hlo.add", {x, scaled(*s, call.sideScale)});
  }
  if (bias) {
    // cuBLASLt adds the bias along the output's columns (its last logical
    // dimension), cuDNN along the output's feature dimension.
    int64_t dim = type.getRank() - 1;
    if (!call.isGemm())
      dim = core.getDefiningOp()
                ->getAttrOfType<hlo::ConvDimensionNumbersAttr>(
                    "dimension_numbers")
                .getOutputFeature();
    FailureOr<Value> b = addend(bias, "the bias", dim);
    if (failed(b))
      return failure();
    x = op("hlo.add", {x, *b});
  }
  Value aux = x;
  auto positive = [&](Value v) {
    return createCompare(location, hlo::ComparisonDirection::GT, v, splat(0));
  };
  switch (call.activation) {
  case importer::GpuActivation::None:
    break;
  case importer::GpuActivation::Relu:
    x = op("hlo.maximum", {x, splat(0)});
    break;
  case importer::GpuActivation::Relu6:
    x = op("hlo.clamp", {splat(0), x, splat(6)});
    break;
  case importer::GpuActivation::Sigmoid:
    x = op("hlo.logistic", {x});
    break;
  case importer::GpuActivation::Tanh:
    x = op("hlo.tanh", {x});
    break;
  case importer::GpuActivation::Elu:
    x = op("hlo.select",
           {positive(x), x, op("hlo.exponential_minus_one", {x})});
    break;
  case importer::GpuActivation::LeakyRelu:
    x = op("hlo.select", {positive(x), x, scaled(x, call.leakyAlpha)});
    break;
  case importer::GpuActivation::Gelu: {
    // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
    Value cube = op("hlo.multiply", {op("hlo.multiply", {x, x}), x});
    Value inner = op("hlo.add", {x, scaled(cube, 0.044715)});
    Value t = op("hlo.tanh", {scaled(inner, std::sqrt(2 / M_PI))});
    x = op("hlo.multiply",
           {scaled(x, 0.5), op("hlo.add", {splat(1), t})});
    break;
  }
  }
  if (auto narrow = dyn_cast<IntegerType>(outElement)) {
    // An 8-bit result: clamped to its range in f32, then converted (which
    // rounds toward zero).
    bool isUnsigned = narrow.isUnsigned();
    x = op("hlo.clamp", {splat(isUnsigned ? 0 : -128), x,
                         splat(isUnsigned ? 255 : 127)});
  }
  if (x.getType() != out)
    x = createOp(location, "hlo.convert", {x}, out);
  return finish(x, aux);
}

//===----------------------------------------------------------------------===//
// Shardings and collectives
//===----------------------------------------------------------------------===//

/// `at` moved right by `offset` characters (values sit on one line).
static Loc shifted(Loc at, size_t offset) {
  return Loc{at.line, at.column + static_cast<uint32_t>(offset)};
}

FailureOr<StringAttr>
Importer::convertSharding(const hlo_text::Attribute &attr) {
  hlo::ShardingError problem;
  std::optional<hlo::Sharding> sharding = hlo::parseSharding(attr.raw, problem);
  if (!sharding)
    return error(shifted(attr.valueLoc, problem.offset))
           << "invalid sharding: " << problem.message;
  return builder.getStringAttr(sharding->str());
}

FailureOr<DenseIntElementsAttr>
Importer::convertReplicaGroups(const Instruction &inst) {
  std::vector<std::vector<int64_t>> groups;
  if (const hlo_text::Attribute *attr = inst.attr("replica_groups")) {
    if (attr->kind == AttrKind::IntListList) {
      groups = attr->intLists;
    } else if (StringRef(attr->raw).starts_with("[")) {
      hlo::ShardingError problem;
      auto iota = hlo::parseIotaReplicaGroups(attr->raw, problem);
      if (!iota)
        return error(shifted(attr->valueLoc, problem.offset))
               << "invalid replica_groups: " << problem.message;
      groups = std::move(*iota);
    } else {
      return error(attr->valueLoc)
             << "replica_groups must be a list {{0,1},{2,3}} or an iota "
                "form [2,2]<=[4]";
    }
  }
  int64_t columns = 0;
  for (const std::vector<int64_t> &group : groups)
    columns = std::max<int64_t>(columns, group.size());
  SmallVector<int64_t> ids;
  for (const std::vector<int64_t> &group : groups) {
    ids.append(group.begin(), group.end());
    ids.append(columns - group.size(), -1);
  }
  auto type = RankedTensorType::get(
      {static_cast<int64_t>(groups.size()), columns}, builder.getI64Type());
  return DenseIntElementsAttr::get(type, ids);
}

LogicalResult Importer::addCollective(const Instruction &inst, StringRef opcode,
                                      ValueRange operands, Type resultType,
                                      StringRef &opName,
                                      SmallVectorImpl<NamedAttribute> &attrs) {
  auto add = [&](StringRef name, mlir::Attribute value) {
    attrs.push_back(builder.getNamedAttr(name, value));
  };
  if (const hlo_text::Attribute *channel = inst.attr("channel_id")) {
    if (channel->kind != AttrKind::Int || channel->intValue < 0)
      return error(channel->valueLoc)
             << "channel_id must be a non-negative integer";
    add("channel_id", builder.getI64IntegerAttr(channel->intValue));
  }
  const hlo_text::Attribute *global = inst.attr("use_global_device_ids");
  if (global && global->boolValue &&
      llvm::is_contained({"all-reduce", "all-gather", "reduce-scatter"},
                         opcode))
    add("use_global_device_ids", builder.getUnitAttr());
  // The one dimension of `dimensions={d}`.
  auto dimension = [&](StringRef name) -> LogicalResult {
    const hlo_text::Attribute *dims = inst.attr("dimensions");
    if (!dims || dims->kind != AttrKind::IntList || dims->ints.size() != 1)
      return error(dims ? dims->valueLoc : inst.opcodeLoc)
             << "'" << inst.opcode << "' needs dimensions={d} (one dimension)";
    add(name, builder.getI64IntegerAttr(dims->ints[0]));
    return success();
  };
  if (opcode == "collective-permute") {
    const hlo_text::Attribute *pairs = inst.attr("source_target_pairs");
    if (!pairs || pairs->kind != AttrKind::IntListList)
      return error(pairs ? pairs->valueLoc : inst.opcodeLoc)
             << "collective-permute needs source_target_pairs={{0,1},...}";
    SmallVector<int64_t> ids;
    for (const std::vector<int64_t> &pair : pairs->intLists) {
      if (pair.size() != 2)
        return error(pairs->valueLoc)
               << "source_target_pairs entries are {source,target} pairs, "
                  "found one of "
               << pair.size() << " ids";
      ids.append(pair.begin(), pair.end());
    }
    auto type = RankedTensorType::get(
        {static_cast<int64_t>(pairs->intLists.size()), 2},
        builder.getI64Type());
    add("source_target_pairs", DenseIntElementsAttr::get(type, ids));
    opName = "hlo.collective_permute";
    return success();
  }
  FailureOr<DenseIntElementsAttr> groups = convertReplicaGroups(inst);
  if (failed(groups))
    return failure();
  add("replica_groups", *groups);
  if (opcode == "all-reduce") {
    opName = "hlo.all_reduce";
    return success();
  }
  if (opcode == "collective-broadcast") {
    opName = "hlo.collective_broadcast";
    return success();
  }
  opName = opcode == "all-gather"       ? "hlo.all_gather"
           : opcode == "reduce-scatter" ? "hlo.reduce_scatter"
                                        : "hlo.all_to_all";
  return dimension(opcode == "all-gather"       ? "all_gather_dim"
                   : opcode == "reduce-scatter" ? "scatter_dimension"
                                                : "dimension");
}

FailureOr<func::FuncOp> Importer::emitCallee(const Instruction &inst,
                                             StringRef key) {
  const Computation *comp = calledComputation(inst, key);
  if (!comp)
    return failure();
  // The callee may already exist as a function: check the stack first.
  if (active.lookup(comp->name))
    return error(inst.loc) << "computation '" << comp->name
                           << "' calls itself";
  return emitFunction(*comp, /*isEntry=*/false);
}

LogicalResult Importer::emitCombinedCollective(const Instruction &inst,
                                               ValueMap &values,
                                               ValueRange params) {
  const Shape &shape = inst.shape;
  if (!shape.isTuple() || shape.tupleElements.size() != inst.operands.size())
    return error(inst.opcodeLoc)
           << "'" << inst.opcode << "' of " << inst.operands.size()
           << " operands must return a tuple of as many arrays";
  SmallVector<Value> results;
  for (auto [i, operand] : llvm::enumerate(inst.operands)) {
    Instruction one = inst;
    one.operands = {operand};
    one.shape = shape.tupleElements[i];
    one.name = inst.name + " " + std::to_string(i);
    one.isRoot = false;
    if (failed(emitInstruction(one, values, params)))
      return failure();
    results.push_back(values.lookup(one.name));
    values.erase(one.name);
  }
  values[inst.name] =
      hlo::TupleOp::create(builder, instructionLoc(inst), results);
  return success();
}

LogicalResult Importer::emitTupleAllToAll(const Instruction &inst,
                                          ValueMap &values, ValueRange params) {
  const Shape &shape = inst.shape;
  size_t n = inst.operands.size();
  bool sameShapes =
      shape.isTuple() && shape.tupleElements.size() == n && n > 0 &&
      llvm::all_of(shape.tupleElements, [&](const Shape &s) {
        return !s.isTuple() && s.elementType == shape.tupleElements[0].elementType &&
               s.dims == shape.tupleElements[0].dims;
      });
  if (!sameShapes)
    return error(inst.opcodeLoc)
           << "the tuple form of 'all-to-all' takes operands of one shape "
              "and returns a tuple of as many arrays of it";
  SmallVector<Value> operands;
  for (const Operand &operand : inst.operands) {
    Value v = values.lookup(operand.name);
    if (!v)
      return error(operand.loc)
             << "use of undefined instruction '" << operand.name << "'";
    operands.push_back(v);
  }
  FailureOr<Type> elementType = convertType(shape.tupleElements[0]);
  if (failed(elementType))
    return failure();
  auto type = dyn_cast<RankedTensorType>(*elementType);
  if (!type || llvm::any_of(operands, [&](Value v) { return v.getType() != type; }))
    return error(inst.opcodeLoc)
           << "the tuple form of 'all-to-all' takes operands of the type of "
              "its results";
  Location loc = instructionLoc(inst);
  SmallVector<int64_t> stackedShape{static_cast<int64_t>(n)};
  llvm::append_range(stackedShape, type.getShape());
  SmallVector<int64_t> one(stackedShape);
  one[0] = 1;
  auto oneType = RankedTensorType::get(one, type.getElementType());
  SmallVector<Value> rows;
  for (Value v : operands)
    rows.push_back(hlo::ReshapeOp::create(builder, loc, oneType, v));
  Value stacked = hlo::ConcatenateOp::create(builder, loc, rows, 0);
  // The array form along the new dimension, as one instruction of that
  // shape (its groups and channel).
  Instruction array = inst;
  array.name = inst.name + " stacked";
  array.operands = {Operand{array.name + " operand", std::nullopt, inst.loc}};
  array.shape = shape.tupleElements[0];
  array.shape.dims.insert(array.shape.dims.begin(), static_cast<int64_t>(n));
  array.shape.dynamicDims.clear();
  array.shape.layout.reset();
  array.isRoot = false;
  hlo_text::Attribute dims;
  dims.key = "dimensions";
  dims.kind = AttrKind::IntList;
  dims.ints = {0};
  dims.loc = dims.valueLoc = inst.opcodeLoc;
  array.attributes.push_back(dims);
  values[array.operands[0].name] = stacked;
  LogicalResult emitted = emitInstruction(array, values, params);
  values.erase(array.operands[0].name);
  if (failed(emitted))
    return failure();
  Value exchanged = values.lookup(array.name);
  values.erase(array.name);
  SmallVector<Value> results;
  SmallVector<int64_t> limit(stackedShape), strides(stackedShape.size(), 1);
  for (size_t i = 0; i < n; ++i) {
    SmallVector<int64_t> start(stackedShape.size(), 0);
    start[0] = static_cast<int64_t>(i);
    limit[0] = static_cast<int64_t>(i) + 1;
    Value row = hlo::SliceOp::create(builder, loc, exchanged,
                                     builder.getDenseI64ArrayAttr(start),
                                     builder.getDenseI64ArrayAttr(limit),
                                     builder.getDenseI64ArrayAttr(strides));
    results.push_back(hlo::ReshapeOp::create(builder, loc, type, row));
  }
  values[inst.name] = hlo::TupleOp::create(builder, loc, results);
  return success();
}

LogicalResult Importer::emitAsyncWrappedStart(const Instruction &inst,
                                              StringRef op, ValueMap &values,
                                              ValueRange params) {
  const Shape &shape = inst.shape;
  if (!shape.isTuple() || shape.tupleElements.size() < 2 ||
      !shape.tupleElements[0].isTuple())
    return error(inst.opcodeLoc)
           << "'" << inst.opcode << "' must return ((operands), result of '"
           << op << "', context...)";
  FailureOr<Type> startType = convertType(shape);
  if (failed(startType))
    return failure();
  auto startTuple = cast<TupleType>(*startType);
  SmallVector<Value> operands;
  for (const Operand &operand : inst.operands)
    operands.push_back(values.lookup(operand.name));
  // (An undefined operand is reported by the wrapped op.)
  if (llvm::all_of(operands, [](Value v) { return v != nullptr; })) {
    auto operandTuple =
        TupleType::get(&context, ValueRange(operands).getTypes());
    if (startTuple.getType(0) != operandTuple)
      return error(inst.opcodeLoc)
             << "'" << inst.opcode << "' returns " << startTuple.getType(0)
             << " as its operands, but they are " << operandTuple;
  }
  // The wrapped op under a name no HLO instruction can have.
  Instruction wrapped = inst;
  wrapped.opcode = op.str();
  wrapped.shape = shape.tupleElements[1];
  wrapped.name = inst.name + " wrapped";
  wrapped.isRoot = false;
  if (failed(emitInstruction(wrapped, values, params)))
    return failure();
  Value result = values.lookup(wrapped.name);
  values.erase(wrapped.name);
  return setAsyncStart(inst, startTuple, operands, result, values);
}

LogicalResult Importer::setAsyncStart(const Instruction &inst,
                                      TupleType start, ValueRange operands,
                                      Value result, ValueMap &values) {
  Location location = instructionLoc(inst);
  SmallVector<Value> elements{
      hlo::TupleOp::create(builder, location, operands), result};
  if (failed(appendZeroContexts(inst, start, location, elements)))
    return failure();
  values[inst.name] = hlo::TupleOp::create(builder, location, elements);
  return success();
}

LogicalResult Importer::appendZeroContexts(const Instruction &inst,
                                           TupleType start, Location location,
                                           SmallVectorImpl<Value> &elements) {
  for (Type type : start.getTypes().drop_front(2)) {
    auto context = dyn_cast<RankedTensorType>(type);
    if (!context || !isa<IntegerType>(context.getElementType()))
      return error(inst.opcodeLoc) << "'" << inst.opcode << "' context "
                                   << type << " must be an integer array";
    elements.push_back(hlo::ConstantOp::create(
        builder, location,
        DenseElementsAttr::get(context,
                               APInt(context.getElementTypeBitWidth(), 0))));
  }
  return success();
}

Value Importer::createZeros(Location location, RankedTensorType type) {
  Type element = type.getElementType();
  mlir::Attribute zero = isa<FloatType>(element)
                             ? mlir::Attribute(builder.getFloatAttr(element, 0))
                             : builder.getIntegerAttr(element, 0);
  return createOp(
      location, "hlo.constant", {}, type,
      {builder.getNamedAttr("value", DenseElementsAttr::get(type, zero))});
}

Value Importer::createCompare(Location location,
                              hlo::ComparisonDirection direction, Value a,
                              Value b) {
  auto shape = cast<RankedTensorType>(a.getType()).getShape();
  return createOp(location, "hlo.compare", {a, b},
                  RankedTensorType::get(shape, builder.getI1Type()),
                  {builder.getNamedAttr(
                      "comparison_direction",
                      hlo::ComparisonDirectionAttr::get(&context, direction))});
}

Value Importer::createSlice(Location location, Value value,
                            ArrayRef<int64_t> starts,
                            ArrayRef<int64_t> limits) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> sizes;
  for (auto [start, limit] : llvm::zip(starts, limits))
    sizes.push_back(limit - start);
  return createOp(
      location, "hlo.slice", {value},
      RankedTensorType::get(sizes, type.getElementType()),
      {builder.getNamedAttr("start_indices",
                            builder.getDenseI64ArrayAttr(starts)),
       builder.getNamedAttr("limit_indices",
                            builder.getDenseI64ArrayAttr(limits)),
       builder.getNamedAttr("strides",
                            builder.getDenseI64ArrayAttr(
                                SmallVector<int64_t>(starts.size(), 1)))});
}

Value Importer::emitAddReduce(Location location, Value input,
                              ArrayRef<int64_t> dims, Type resultType) {
  Type element = cast<ShapedType>(input.getType()).getElementType();
  auto scalarType = RankedTensorType::get({}, element);
  Value init = createZeros(location, scalarType);
  OperationState state(location, "hlo.reduce");
  state.addOperands({input, init});
  state.addTypes(resultType);
  state.addAttribute("dimensions", builder.getDenseI64ArrayAttr(dims));
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  block->addArguments({scalarType, scalarType}, {location, location});
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(block);
    Value add = createOp(location, "hlo.add",
                         {block->getArgument(0), block->getArgument(1)},
                         scalarType);
    hlo::ReturnOp::create(builder, location, add);
  }
  return builder.create(state)->getResult(0);
}

FailureOr<Value> Importer::emitRaggedDot(const Instruction &inst,
                                         ValueRange operands, Type resultType,
                                         Location location) {
  // XLA's ragged-dot with lhs [m, k] ragged along m and rhs [g, k, n]
  // (any dimension order): rows [start_j, start_j + group_sizes[j]) of lhs
  // multiply rhs group j; rows past the last group are zero. Computed as
  // the dot with every group, masked by each row's group and summed over
  // the groups (g times the work of one dot).
  auto ints = [&](StringRef key) -> ArrayRef<int64_t> {
    const hlo_text::Attribute *attr = inst.attr(key);
    return attr && attr->kind == AttrKind::IntList ? ArrayRef(attr->ints)
                                                   : ArrayRef<int64_t>();
  };
  auto lhs = operands.size() == 3
                 ? dyn_cast<RankedTensorType>(operands[0].getType())
                 : nullptr;
  auto rhs = lhs ? dyn_cast<RankedTensorType>(operands[1].getType()) : nullptr;
  auto sizes =
      rhs ? dyn_cast<RankedTensorType>(operands[2].getType()) : nullptr;
  auto result = dyn_cast<RankedTensorType>(resultType);
  ArrayRef<int64_t> lc = ints("lhs_contracting_dims"),
                    rc = ints("rhs_contracting_dims"),
                    ragged = ints("lhs_ragged_dims"),
                    group = ints("rhs_group_dims");
  if (!lhs || !rhs || !sizes || !result || lhs.getRank() != 2 ||
      rhs.getRank() != 3 || lc.size() != 1 || rc.size() != 1 ||
      ragged.size() != 1 || group.size() != 1 || ragged[0] == lc[0] ||
      lc[0] > 1 || rc[0] > 2 || group[0] > 2 || group[0] == rc[0] ||
      !ints("lhs_batch_dims").empty() || !ints("rhs_batch_dims").empty() ||
      sizes.getRank() != 1 || !isa<IntegerType>(sizes.getElementType()) ||
      sizes.getDimSize(0) != rhs.getDimSize(group[0]))
    return error(inst.opcodeLoc)
           << "'ragged-dot' is supported with lhs [m, k] ragged in its "
              "non-contracting dimension, rhs [g, k, n] with a group "
              "dimension, group_sizes [g] and no batch dimensions";
  int64_t m = lhs.getDimSize(ragged[0]), g = sizes.getDimSize(0);
  // The dot with every group: [m, rhs's free dimensions in order].
  SmallVector<int64_t> dotShape{m};
  int64_t groupPos = 0;
  for (int64_t d = 0; d < 3; ++d) {
    if (d == rc[0])
      continue;
    if (d == group[0])
      groupPos = static_cast<int64_t>(dotShape.size());
    dotShape.push_back(rhs.getDimSize(d));
  }
  auto dotType = RankedTensorType::get(dotShape, result.getElementType());
  if (result.getShape() != ArrayRef<int64_t>{m, dotShape[3 - groupPos]})
    return error(inst.opcodeLoc) << "'ragged-dot' must return " << m << "x"
                                 << dotShape[3 - groupPos] << ", not "
                                 << resultType;
  Value dot = createOp(
      location, "hlo.dot_general", {operands[0], operands[1]}, dotType,
      {builder.getNamedAttr("dot_dimension_numbers",
                            hlo::DotDimensionNumbersAttr::get(
                                &context, {}, {}, lc, rc))});
  Type index = sizes.getElementType();
  auto iota = [&](ArrayRef<int64_t> shape, int64_t dim) {
    return createOp(location, "hlo.iota", {},
                    RankedTensorType::get(shape, index),
                    {builder.getNamedAttr("iota_dimension",
                                          builder.getI64IntegerAttr(dim))});
  };
  auto broadcast = [&](Value v, ArrayRef<int64_t> shape, Type element,
                       ArrayRef<int64_t> dims) {
    return createOp(location, "hlo.broadcast_in_dim", {v},
                    RankedTensorType::get(shape, element),
                    {builder.getNamedAttr("broadcast_dimensions",
                                          builder.getDenseI64ArrayAttr(dims))});
  };
  auto compare = [&](hlo::ComparisonDirection direction, Value a, Value b) {
    return createCompare(location, direction, a, b);
  };
  auto zeros = [&](RankedTensorType type) {
    return createZeros(location, type);
  };
  // ends[i] = sum of group_sizes[j] for j <= i; starts = ends - sizes.
  Value sizesGG = broadcast(operands[2], {g, g}, index, {1});
  Value upTo = compare(hlo::ComparisonDirection::LE, iota({g, g}, 1),
                       iota({g, g}, 0));
  Value ends = emitAddReduce(
      location,
      createOp(location, "hlo.select",
               {upTo, sizesGG, zeros(RankedTensorType::get({g, g}, index))},
               sizesGG.getType()),
      {1}, sizes);
  Value starts =
      createOp(location, "hlo.subtract", {ends, operands[2]}, sizes);
  Value rows = iota({m, g}, 0);
  Value inGroup = createOp(
      location, "hlo.and",
      {compare(hlo::ComparisonDirection::GE, rows,
               broadcast(starts, {m, g}, index, {1})),
       compare(hlo::ComparisonDirection::LT, rows,
               broadcast(ends, {m, g}, index, {1}))},
      RankedTensorType::get({m, g}, builder.getI1Type()));
  Value mask =
      broadcast(inGroup, dotShape, builder.getI1Type(), {0, groupPos});
  Value masked = createOp(location, "hlo.select", {mask, dot, zeros(dotType)},
                          dotType);
  return emitAddReduce(location, masked, {groupPos}, resultType);
}

/// The element type XLA's ScaledDotRewriter computes `a * b` in
/// (GetTargetType): bf16 when both are narrower than 16 bits, the type
/// when they agree, f32 for two different types of one width, else the
/// wider type.
static FloatType scaledDotType(FloatType a, FloatType b) {
  if (a.getWidth() < 16 && b.getWidth() < 16)
    return BFloat16Type::get(a.getContext());
  if (a == b)
    return a;
  if (a.getWidth() == b.getWidth())
    return Float32Type::get(a.getContext());
  return a.getWidth() > b.getWidth() ? a : b;
}

FailureOr<std::pair<Value, Value>>
Importer::emitScaledDotOperands(const Instruction &inst, ValueRange operands,
                                Location location) {
  // XLA's scaled-dot(lhs, rhs, lhs_scale, rhs_scale): the dot of
  // lhs * lhs_scale and rhs * rhs_scale, where each dimension of a scale
  // equals the operand's or divides it (one scale per block of
  // operand/scale elements), and a scalar scale multiplies everything.
  if (operands.size() != 4)
    return error(inst.opcodeLoc)
           << "'scaled-dot' needs 4 operands (lhs, rhs, lhs_scale, "
              "rhs_scale), found "
           << operands.size();
  auto convert = [&](Value value, FloatType element) -> Value {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getElementType() == element)
      return value;
    return createOp(location, "hlo.convert", {value}, type.clone(element));
  };
  auto dequantize = [&](Value operand, Value scale,
                        StringRef side) -> FailureOr<Value> {
    auto operandType = dyn_cast<RankedTensorType>(operand.getType());
    auto scaleType = dyn_cast<RankedTensorType>(scale.getType());
    auto operandElement =
        operandType ? dyn_cast<FloatType>(operandType.getElementType())
                    : FloatType();
    auto scaleElement =
        scaleType ? dyn_cast<FloatType>(scaleType.getElementType())
                  : FloatType();
    if (!operandElement || !scaleElement)
      return error(inst.opcodeLoc)
             << "'scaled-dot' " << side
             << " and its scale must be floating-point arrays";
    FloatType element = scaledDotType(operandElement, scaleElement);
    operand = convert(operand, element);
    scale = convert(scale, element);
    ArrayRef<int64_t> shape = operandType.getShape();
    auto type = RankedTensorType::get(shape, element);
    if (scaleType.getRank() != 0) {
      if (scaleType.getRank() != operandType.getRank())
        return error(inst.opcodeLoc)
               << "'scaled-dot' " << side << " and its scale must have the "
               << "same rank: " << operandType.getRank() << " vs "
               << scaleType.getRank();
      // Each scale dimension s of an operand dimension n becomes [s, n/s],
      // broadcast along n/s, then reshaped back to n.
      SmallVector<int64_t> blocked, dims;
      for (int64_t d = 0; d < operandType.getRank(); ++d) {
        int64_t n = shape[d], s = scaleType.getDimSize(d);
        if (s == 0 || n % s != 0)
          return error(inst.opcodeLoc)
                 << "'scaled-dot' " << side << " scale dimension " << d
                 << " (" << s << ") must divide the operand's (" << n << ")";
        dims.push_back(static_cast<int64_t>(blocked.size()));
        blocked.push_back(s);
        if (n != s)
          blocked.push_back(n / s);
      }
      scale = createOp(location, "hlo.broadcast_in_dim", {scale},
                       RankedTensorType::get(blocked, element),
                       {builder.getNamedAttr(
                           "broadcast_dimensions",
                           builder.getDenseI64ArrayAttr(dims))});
      scale = createOp(location, "hlo.reshape", {scale}, type);
    } else {
      scale = createOp(location, "hlo.broadcast_in_dim", {scale}, type,
                       {builder.getNamedAttr(
                           "broadcast_dimensions",
                           builder.getDenseI64ArrayAttr({}))});
    }
    return createOp(location, "hlo.multiply", {operand, scale}, type);
  };
  FailureOr<Value> lhs = dequantize(operands[0], operands[2], "lhs");
  if (failed(lhs))
    return failure();
  FailureOr<Value> rhs = dequantize(operands[1], operands[3], "rhs");
  if (failed(rhs))
    return failure();
  // XLA's dot takes operands of two element types; hlo.dot_general takes
  // one, so both are widened exactly to the type that holds either.
  auto lhsElement = cast<FloatType>(getElementTypeOrSelf(lhs->getType()));
  auto rhsElement = cast<FloatType>(getElementTypeOrSelf(rhs->getType()));
  if (lhsElement != rhsElement) {
    FloatType common =
        lhsElement.getWidth() == rhsElement.getWidth()
            ? Float32Type::get(&context)
            : (lhsElement.getWidth() > rhsElement.getWidth() ? lhsElement
                                                             : rhsElement);
    lhs = convert(*lhs, common);
    rhs = convert(*rhs, common);
  }
  return std::make_pair(*lhs, *rhs);
}

FailureOr<Value> Importer::emitScan(const Instruction &inst,
                                    ValueRange operands, Type resultType,
                                    Location location) {
  // XLA's scan(inputs..., inits...), dimensions={d}, is_reverse=b,
  // to_apply=f: f(input slices at i..., carries...) returns (output slices
  // at i..., next carries...) for i = 0..n-1 along d (n-1..0 when
  // reversed); the result is (outputs stacked along d..., final carries...).
  // ScanExpander's while loop, with the state (i, carries..., inputs...,
  // outputs...) and outputs starting as zeros.
  const hlo_text::Attribute *dims = inst.attr("dimensions");
  if (!dims || dims->kind != AttrKind::IntList || dims->ints.size() != 1)
    return error(dims ? dims->valueLoc : inst.opcodeLoc)
           << "'scan' needs dimensions={d} with one dimension";
  int64_t d = dims->ints.front();
  if (d < 0)
    return error(dims->valueLoc) << "'scan' dimension " << d
                                 << " must be non-negative";
  const hlo_text::Attribute *reverseAttr = inst.attr("is_reverse");
  bool reverse = reverseAttr && reverseAttr->kind == AttrKind::Bool &&
                 reverseAttr->boolValue;
  FailureOr<func::FuncOp> callee = emitCallee(inst, "to_apply");
  if (failed(callee))
    return failure();
  FunctionType fnType = callee->getFunctionType();
  auto fail = [&]() {
    return error(inst.opcodeLoc)
           << "'scan' needs operands (inputs..., inits...) with to_apply "
              "taking each input without dimension "
           << d << " and then each init, and returning (outputs..., next "
           << "carries...) of arrays";
  };
  if (fnType.getNumInputs() != operands.size())
    return fail();
  // An input's parameter lacks dimension d, a carry's is the init's type:
  // their ranks tell them apart.
  size_t numInputs = 0;
  int64_t n = -1;
  SmallVector<Type> sliceTypes;
  for (auto [index, operand] : llvm::enumerate(operands)) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    Type param = fnType.getInput(index);
    if (!type)
      return fail();
    if (numInputs == index && d < type.getRank() &&
        (n < 0 || type.getDimSize(d) == n)) {
      SmallVector<int64_t> sliced(type.getShape());
      sliced.erase(sliced.begin() + d);
      if (param == RankedTensorType::get(sliced, type.getElementType())) {
        n = type.getDimSize(d);
        ++numInputs;
        continue;
      }
    }
    if (param != type) // neither an input nor a carry
      return fail();
  }
  if (numInputs == 0)
    return fail();
  size_t numCarries = operands.size() - numInputs;
  ValueRange inputs = operands.take_front(numInputs),
             inits = operands.drop_front(numInputs);
  // to_apply returns one tuple (or, for a lone result, one array).
  SmallVector<Type> fnResults(fnType.getResults());
  auto fnTuple = fnResults.size() == 1 ? dyn_cast<TupleType>(fnResults[0])
                                       : TupleType();
  if (fnTuple)
    fnResults.assign(fnTuple.getTypes().begin(), fnTuple.getTypes().end());
  if (fnResults.size() < numCarries ||
      TypeRange(ArrayRef(fnResults).take_back(numCarries)) !=
          inits.getTypes())
    return fail();
  size_t numOutputs = fnResults.size() - numCarries;
  SmallVector<Type> outputTypes, resultTypes;
  for (Type type : ArrayRef(fnResults).take_front(numOutputs)) {
    auto slice = dyn_cast<RankedTensorType>(type);
    if (!slice || d > slice.getRank())
      return fail();
    SmallVector<int64_t> shape(slice.getShape());
    shape.insert(shape.begin() + d, n);
    outputTypes.push_back(RankedTensorType::get(shape, slice.getElementType()));
  }
  resultTypes.append(outputTypes);
  resultTypes.append(inits.getTypes().begin(), inits.getTypes().end());
  if (resultType != TupleType::get(&context, resultTypes))
    return error(inst.loc) << "'scan' must return "
                           << TupleType::get(&context, resultTypes)
                           << ", not " << resultType;

  auto index = RankedTensorType::get({}, builder.getI32Type());
  auto constant = [&](int64_t value) {
    return createOp(location, "hlo.constant", {}, index,
                    {builder.getNamedAttr(
                        "value",
                        DenseElementsAttr::get(
                            index, mlir::Attribute(
                                       builder.getI32IntegerAttr(value))))});
  };
  SmallVector<Value> state{constant(0)};
  state.append(inits.begin(), inits.end());
  state.append(inputs.begin(), inputs.end());
  for (Type type : outputTypes)
    state.push_back(createZeros(location, cast<RankedTensorType>(type)));
  SmallVector<Type> stateTypes(ValueRange(state).getTypes());
  SmallVector<Location> stateLocs(state.size(), location);
  OperationState whileState(location, "hlo.while");
  whileState.addOperands(state);
  whileState.addTypes(stateTypes);
  Region *cond = whileState.addRegion();
  Region *body = whileState.addRegion();
  OpBuilder::InsertPoint after = builder.saveInsertionPoint();

  Block *condBlock = builder.createBlock(cond, {}, stateTypes, stateLocs);
  Value more = createCompare(location, hlo::ComparisonDirection::LT,
                             condBlock->getArgument(0), constant(n));
  hlo::ReturnOp::create(builder, location, ValueRange{more});

  Block *bodyBlock = builder.createBlock(body, {}, stateTypes, stateLocs);
  Value i = bodyBlock->getArgument(0);
  ValueRange carries = bodyBlock->getArguments().slice(1, numCarries),
             inputArgs = bodyBlock->getArguments().slice(1 + numCarries,
                                                         numInputs),
             outputArgs = bodyBlock->getArguments().drop_front(
                 1 + numCarries + numInputs);
  Value at = reverse ? createOp(location, "hlo.subtract",
                                {constant(n - 1), i}, index)
                     : i;
  auto starts = [&](int64_t rank) {
    Value zero = constant(0);
    SmallVector<Value> values(rank, zero);
    values[d] = at;
    return values;
  };
  SmallVector<Value> args;
  for (auto [input, sliceType] : llvm::zip(inputArgs, fnType.getInputs())) {
    auto type = cast<RankedTensorType>(input.getType());
    SmallVector<int64_t> sizes(type.getShape());
    sizes[d] = 1;
    SmallVector<Value> operandsAndStarts{input};
    operandsAndStarts.append(starts(type.getRank()));
    Value slice = createOp(
        location, "hlo.dynamic_slice", operandsAndStarts,
        RankedTensorType::get(sizes, type.getElementType()),
        {builder.getNamedAttr("slice_sizes",
                              builder.getDenseI64ArrayAttr(sizes))});
    args.push_back(createOp(location, "hlo.reshape", {slice}, sliceType));
  }
  args.append(carries.begin(), carries.end());
  Operation *call = hlo::CallOp::create(
      builder, location, fnType.getResults(),
      FlatSymbolRefAttr::get(callee->getSymNameAttr()), args,
      /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr);
  SmallVector<Value> called(call->getResults());
  if (fnTuple) {
    called.clear();
    for (size_t k = 0; k < fnResults.size(); ++k)
      called.push_back(hlo::GetTupleElementOp::create(
          builder, location, call->getResult(0), k));
  }
  SmallVector<Value> next{
      createOp(location, "hlo.add", {i, constant(1)}, index)};
  next.append(called.begin() + numOutputs, called.end());
  next.append(inputArgs.begin(), inputArgs.end());
  for (auto [output, slice] :
       llvm::zip(outputArgs, ArrayRef(called).take_front(numOutputs))) {
    auto type = cast<RankedTensorType>(output.getType());
    SmallVector<int64_t> sizes(type.getShape());
    sizes[d] = 1;
    SmallVector<Value> operandsAndStarts{
        output, createOp(location, "hlo.reshape", {slice},
                         RankedTensorType::get(sizes, type.getElementType()))};
    operandsAndStarts.append(starts(type.getRank()));
    next.push_back(createOp(location, "hlo.dynamic_update_slice",
                            operandsAndStarts, type));
  }
  hlo::ReturnOp::create(builder, location, next);

  builder.restoreInsertionPoint(after);
  Operation *loop = builder.create(whileState);
  SmallVector<Value> results(
      loop->getResults().drop_front(1 + numCarries + numInputs));
  results.append(loop->getResults().begin() + 1,
                 loop->getResults().begin() + 1 + numCarries);
  return hlo::TupleOp::create(builder, location, results).getResult();
}

FailureOr<Value> Importer::emitShuffle(const Instruction &inst,
                                       ValueRange operands, Type resultType,
                                       Location location) {
  // XLA's shuffle(x), dimensions={...}, mode=rotate, shifts={...}: each
  // listed dimension rotated left by its shift (result[i] = x[(i + shift)
  // mod n]), as ShuffleExpander's slice [shift, n) ++ [0, shift). mode=permute,
  // indices=<literal>: result[p] = x[q], where q takes p's coordinate in the
  // other dimensions and indices[p][k] in dimensions[k] (indices of the
  // operand's shape, size-1 dimensions shared, plus a coordinate dimension
  // unless one dimension is shuffled): ShuffleExpander's elementwise gather,
  // whose start indices are built here from the literal.
  auto type = operands.size() == 1
                  ? dyn_cast<RankedTensorType>(operands[0].getType())
                  : nullptr;
  if (!type || resultType != type)
    return error(inst.opcodeLoc)
           << "'shuffle' needs one array operand and returns its type";
  const hlo_text::Attribute *dimsAttr = inst.attr("dimensions");
  const hlo_text::Attribute *mode = inst.attr("mode");
  if (!dimsAttr || dimsAttr->kind != AttrKind::IntList || !mode ||
      mode->kind != AttrKind::Identifier)
    return error(inst.opcodeLoc)
           << "'shuffle' needs dimensions={...} and mode=";
  int64_t rank = type.getRank();
  ArrayRef<int64_t> dims = dimsAttr->ints;
  llvm::SmallBitVector seen(rank);
  for (int64_t d : dims) {
    if (d < 0 || d >= rank || seen.test(d))
      return error(dimsAttr->valueLoc)
             << "'shuffle' dimensions must be distinct dimensions of the "
                "operand";
    seen.set(d);
  }
  ArrayRef<int64_t> shape = type.getShape();
  Value result = operands[0];
  if (mode->stringValue == "rotate") {
    const hlo_text::Attribute *shifts = inst.attr("shifts");
    if (!shifts || shifts->kind != AttrKind::IntList ||
        shifts->ints.size() != dims.size())
      return error(inst.opcodeLoc)
             << "'shuffle' mode=rotate needs shifts={...} with one shift per "
                "dimension";
    for (auto [d, shift] : llvm::zip(dims, shifts->ints)) {
      int64_t n = shape[d];
      int64_t amount = n == 0 ? 0 : ((shift % n) + n) % n;
      if (amount == 0)
        continue;
      auto slice = [&](int64_t start, int64_t limit) {
        SmallVector<int64_t> starts(rank, 0), limits(shape);
        starts[d] = start;
        limits[d] = limit;
        return createSlice(location, result, starts, limits);
      };
      result = createOp(location, "hlo.concatenate",
                        {slice(amount, n), slice(0, amount)}, type,
                        {builder.getNamedAttr("dimension",
                                              builder.getI64IntegerAttr(d))});
    }
    return result;
  }
  if (mode->stringValue != "permute")
    return error(mode->valueLoc)
           << "XLA's semantics for 'shuffle' mode=" << mode->stringValue
           << " are not implemented (ShuffleExpander expands rotate and "
              "permute only)";
  // indices=<type>[dims]{layout} {literal}: the dimensions from the
  // [...], the values from the literal.
  const hlo_text::Attribute *indices = inst.attr("indices");
  StringRef raw = indices ? StringRef(indices->raw) : StringRef();
  size_t open = raw.find('['), close = raw.find(']');
  auto badIndices = [&]() {
    return error(indices ? indices->valueLoc : inst.opcodeLoc)
           << "'shuffle' mode=permute needs indices=s32[...] {...}: the "
              "operand's shape (size-1 dimensions shared) plus one "
              "coordinate per shuffled dimension";
  };
  if (open == StringRef::npos || close == StringRef::npos || close < open ||
      dims.empty())
    return badIndices();
  SmallVector<int64_t> indexShape;
  {
    SmallVector<StringRef> parts;
    raw.slice(open + 1, close).split(parts, ',', -1, /*KeepEmpty=*/false);
    for (StringRef part : parts) {
      int64_t size;
      if (part.trim().getAsInteger(10, size) || size < 0)
        return badIndices();
      indexShape.push_back(size);
    }
  }
  // After the shape: an optional layout {...}, then the literal {...}.
  StringRef literal = raw.drop_front(close + 1).trim();
  auto braced = [](StringRef text) -> size_t { // the end of a leading {...}
    int level = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '{')
        ++level;
      else if (text[i] == '}' && --level == 0)
        return i + 1;
    }
    return StringRef::npos;
  };
  if (!literal.starts_with("{"))
    return badIndices();
  size_t first = braced(literal);
  if (first == StringRef::npos)
    return badIndices();
  if (literal.drop_front(first).trim().starts_with("{"))
    literal = literal.drop_front(first).trim();
  SmallVector<int64_t> numbers;
  for (StringRef rest = literal; !rest.empty();) {
    size_t start = rest.find_first_of("-0123456789");
    if (start == StringRef::npos)
      break;
    rest = rest.drop_front(start);
    size_t end = rest.find_first_not_of("-0123456789");
    int64_t value;
    if (rest.take_front(end).getAsInteger(10, value))
      return badIndices();
    numbers.push_back(value);
    rest = end == StringRef::npos ? StringRef() : rest.drop_front(end);
  }
  int64_t numDims = static_cast<int64_t>(dims.size());
  // The index of each coordinate: the operand's dimensions, then one for
  // the shuffled dimensions (absent, or size 1, when one is shuffled).
  SmallVector<int64_t> target(shape);
  target.push_back(numDims);
  int64_t indexRank = static_cast<int64_t>(indexShape.size());
  bool hasCoordinateDim = indexRank == rank + 1;
  if (indexRank > rank + 1 || (!hasCoordinateDim && numDims != 1))
    return badIndices();
  int64_t count = 1;
  for (int64_t i = 0; i < indexRank; ++i) {
    if (indexShape[i] != target[i] && indexShape[i] != 1)
      return badIndices();
    count *= indexShape[i];
  }
  if (static_cast<int64_t>(numbers.size()) != count)
    return badIndices();
  ArrayRef<int64_t> values = numbers;
  SmallVector<int64_t> strides(indexRank, 1);
  for (int64_t i = indexRank - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * indexShape[i + 1];
  // Start indices [shape..., rank]: every element's full coordinates.
  int64_t elements = type.getNumElements();
  SmallVector<int32_t> starts;
  starts.reserve(elements * rank);
  SmallVector<int64_t> position(rank, 0);
  for (int64_t e = 0; e < elements; ++e) {
    SmallVector<int32_t> coordinates(position.begin(), position.end());
    for (int64_t k = 0; k < numDims; ++k) {
      int64_t offset = 0;
      for (int64_t i = 0; i < indexRank; ++i) {
        int64_t coordinate = i < rank ? position[i] : k;
        offset += (indexShape[i] == 1 ? 0 : coordinate) * strides[i];
      }
      coordinates[dims[k]] = static_cast<int32_t>(values[offset]);
    }
    starts.append(coordinates);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++position[d] < shape[d])
        break;
      position[d] = 0;
    }
  }
  SmallVector<int64_t> startShape(shape);
  startShape.push_back(rank);
  auto startType = RankedTensorType::get(startShape, builder.getI32Type());
  Value startIndices = createOp(
      location, "hlo.constant", {}, startType,
      {builder.getNamedAttr("value", DenseElementsAttr::get(
                                         startType, ArrayRef(starts)))});
  SmallVector<int64_t> all(rank);
  std::iota(all.begin(), all.end(), 0);
  return createOp(
      location, "hlo.gather", {result, startIndices}, type,
      {builder.getNamedAttr("dimension_numbers",
                            hlo::GatherDimensionNumbersAttr::get(
                                &context, {}, all, {}, {}, all, rank)),
       builder.getNamedAttr("slice_sizes", builder.getDenseI64ArrayAttr(
                                               SmallVector<int64_t>(rank, 1)))});
}

FailureOr<Value> Importer::emitRaggedAllToAll(const Instruction &inst,
                                              ValueRange operands,
                                              Type resultType,
                                              Location location) {
  // XLA's ragged-all-to-all(input, output, input_offsets, send_sizes,
  // output_offsets, recv_sizes): update j sends input rows
  // [input_offsets[j], + send_sizes[j]) (dimension 0) to its peer, which
  // writes them at output_offsets[j] of its copy of `output`; the other rows
  // keep `output`'s values. In a group of one device every update comes
  // back: result rows [output_offsets[j], + send_sizes[j]) are input rows
  // from input_offsets[j] on, as a gather of the input by each row's source
  // row, selected where the row lies in the update.
  auto input = operands.size() == 6
                   ? dyn_cast<RankedTensorType>(operands[0].getType())
                   : nullptr;
  auto output =
      input ? dyn_cast<RankedTensorType>(operands[1].getType()) : nullptr;
  auto offsets =
      output ? dyn_cast<RankedTensorType>(operands[2].getType()) : nullptr;
  bool ok = offsets && resultType == output && input.getRank() >= 1 &&
            input.getRank() == output.getRank() &&
            input.getElementType() == output.getElementType() &&
            input.getShape().drop_front() == output.getShape().drop_front() &&
            offsets.getRank() == 1 && isa<IntegerType>(offsets.getElementType());
  for (Value operand : operands.drop_front(3))
    ok = ok && operand.getType() == offsets;
  if (!ok)
    return error(inst.opcodeLoc)
           << "'ragged-all-to-all' needs (input, output, input_offsets, "
              "send_sizes, output_offsets, recv_sizes): input and output of "
              "one element type and equal dimensions after the first, the "
              "result of output's type, and four integer vectors of one type";
  FailureOr<DenseIntElementsAttr> groups = convertReplicaGroups(inst);
  if (failed(groups))
    return failure();
  // The group size: a row of replica_groups, or with none (one group) the
  // replica count, or with a channel_id the partition count, as all-to-all's
  // group modes (docs/spmd.md).
  auto groupShape = groups->getType().getShape();
  const hlo_text::Attribute *channel = inst.attr("channel_id");
  int64_t groupSize = groupShape[1];
  if (groupShape[0] == 0) {
    const hlo_text::Attribute *count =
        module.attr(channel ? "num_partitions" : "replica_count");
    groupSize = count && count->kind == AttrKind::Int ? count->intValue : 1;
  }
  // num_updates = k * group size: updates [p * k, (p + 1) * k) go to rank p
  // (XLA's RaggedAllToAllThunk, docs/hlo-dialect.md).
  int64_t updates = offsets.getDimSize(0);
  if (groupSize != 1 && updates % groupSize != 0)
    return error(inst.opcodeLoc)
           << "'ragged-all-to-all' over groups of " << groupSize
           << " devices needs the same number of offsets and sizes for each "
              "device of the group (a multiple of "
           << groupSize << "), found " << updates;
  if (updates == 0)
    return operands[1]; // nothing sent: the output as it is
  Type index = offsets.getElementType();
  auto scalarType = RankedTensorType::get({}, index);
  auto element = [&](Value vector, int64_t j) {
    return createOp(location, "hlo.reshape",
                    {createSlice(location, vector, {j}, {j + 1})}, scalarType);
  };
  int64_t rows = output.getDimSize(0), rank = output.getRank();
  auto rowType = RankedTensorType::get({rows}, index);
  auto toRows = [&](Value scalar) {
    return createOp(location, "hlo.broadcast_in_dim", {scalar}, rowType,
                    {builder.getNamedAttr("broadcast_dimensions",
                                          builder.getDenseI64ArrayAttr({}))});
  };
  auto compare = [&](hlo::ComparisonDirection direction, Value a, Value b) {
    return createCompare(location, direction, a, b);
  };
  SmallVector<int64_t> offsetDims, sliceSizes{1};
  for (int64_t d = 1; d < rank; ++d) {
    offsetDims.push_back(d);
    sliceSizes.push_back(input.getDimSize(d));
  }
  // Rows of `data` at `indices` ([n] row numbers; clamped by the gather).
  auto gatherRows = [&](Value data, Value indices) {
    auto type = cast<RankedTensorType>(indices.getType());
    int64_t n = type.getDimSize(0);
    SmallVector<int64_t> shape(input.getShape());
    shape[0] = n;
    return createOp(
        location, "hlo.gather",
        {data, createOp(location, "hlo.reshape", {indices},
                        RankedTensorType::get({n, 1}, index))},
        RankedTensorType::get(shape, input.getElementType()),
        {builder.getNamedAttr(
             "dimension_numbers",
             hlo::GatherDimensionNumbersAttr::get(&context, offsetDims, {0},
                                                  {}, {}, {0}, 1)),
         builder.getNamedAttr("slice_sizes",
                              builder.getDenseI64ArrayAttr(sliceSizes))});
  };
  // Update j writes rows [start_j, start_j + size_j) of the result from
  // rows base_j + (r - start_j) of `data`. In a group of one device every
  // update comes back: data is the input, start/size/base are
  // output_offsets[j], send_sizes[j], input_offsets[j]. In a group of g
  // devices with k updates per device, each device sends rank p, for its
  // updates j = p * k + u, the input rows from input_offsets[j] on (as many
  // as the input has); an all-to-all exchanges them (block i * k + u of
  // data is update u from rank i) with output_offsets and send_sizes, so
  // on rank p update j = i * k + u is start = output_offsets_i[p * k + u],
  // size = send_sizes_i[p * k + u], base = j * input rows.
  Value data = operands[0];
  SmallVector<Value> starts, sizes, bases;
  if (groupSize == 1) {
    for (int64_t j = 0; j < updates; ++j) {
      starts.push_back(element(operands[4], j));
      sizes.push_back(element(operands[3], j));
      bases.push_back(element(operands[2], j));
    }
  } else {
    int64_t inRows = input.getDimSize(0);
    SmallVector<NamedAttribute> attrs{
        builder.getNamedAttr("dimension", builder.getI64IntegerAttr(0)),
        builder.getNamedAttr("replica_groups", *groups)};
    if (channel && channel->kind == AttrKind::Int)
      attrs.push_back(builder.getNamedAttr(
          "channel_id", builder.getI64IntegerAttr(channel->intValue)));
    auto allToAll = [&](Value value) {
      return createOp(location, "hlo.all_to_all", {value}, value.getType(),
                      attrs);
    };
    auto blockType = RankedTensorType::get({updates, inRows}, index);
    Value send = createOp(
        location, "hlo.add",
        {createOp(location, "hlo.broadcast_in_dim", {operands[2]}, blockType,
                  {builder.getNamedAttr("broadcast_dimensions",
                                        builder.getDenseI64ArrayAttr({0}))}),
         createOp(location, "hlo.iota", {}, blockType,
                  {builder.getNamedAttr("iota_dimension",
                                        builder.getI64IntegerAttr(1))})},
        blockType);
    data = allToAll(gatherRows(
        operands[0],
        createOp(location, "hlo.reshape", {send},
                 RankedTensorType::get({updates * inRows}, index))));
    Value received = allToAll(operands[4]), receivedSizes = allToAll(operands[3]);
    for (int64_t i = 0; i < updates; ++i) {
      starts.push_back(element(received, i));
      sizes.push_back(element(receivedSizes, i));
      bases.push_back(createOp(
          location, "hlo.constant", {}, scalarType,
          {builder.getNamedAttr(
              "value", DenseElementsAttr::get(
                           scalarType, mlir::Attribute(builder.getIntegerAttr(
                                           index, i * inRows))))}));
    }
  }
  Value row = createOp(location, "hlo.iota", {}, rowType,
                       {builder.getNamedAttr("iota_dimension",
                                             builder.getI64IntegerAttr(0))});
  Value result = operands[1];
  for (auto [startScalar, sizeScalar, base] : llvm::zip(starts, sizes, bases)) {
    Value start = toRows(startScalar);
    Value end = createOp(location, "hlo.add", {start, toRows(sizeScalar)},
                         rowType);
    Value inUpdate = createOp(
        location, "hlo.and",
        {compare(hlo::ComparisonDirection::GE, row, start),
         compare(hlo::ComparisonDirection::LT, row, end)},
        RankedTensorType::get({rows}, builder.getI1Type()));
    Value source = createOp(
        location, "hlo.add",
        {createOp(location, "hlo.subtract", {row, start}, rowType),
         toRows(base)},
        rowType);
    Value gathered = gatherRows(data, source);
    Value mask = createOp(
        location, "hlo.broadcast_in_dim", {inUpdate},
        RankedTensorType::get(output.getShape(), builder.getI1Type()),
        {builder.getNamedAttr("broadcast_dimensions",
                              builder.getDenseI64ArrayAttr({0}))});
    result = createOp(location, "hlo.select", {mask, gathered, result}, output);
  }
  return result;
}

FailureOr<Value> Importer::emitStochasticConvert(const Instruction &inst,
                                                 ValueRange operands,
                                                 Type resultType,
                                                 Location location) {
  // XLA's StochasticConvertDecomposer (its ShapeInference checks first):
  // |x|'s fraction, scaled by 2^bits of the random operand, rounds |x| up
  // where it exceeds the unsigned random value; the sign is put back and
  // values beyond the result type's range saturate.
  auto x = operands.size() == 2
               ? dyn_cast<RankedTensorType>(operands[0].getType())
               : nullptr;
  auto random = x ? dyn_cast<RankedTensorType>(operands[1].getType()) : nullptr;
  auto result = dyn_cast<RankedTensorType>(resultType);
  auto randomInt =
      random ? dyn_cast<IntegerType>(random.getElementType()) : IntegerType();
  auto resultInt =
      result ? dyn_cast<IntegerType>(result.getElementType()) : IntegerType();
  if (!x || !isa<FloatType>(x.getElementType()) || !randomInt ||
      !randomInt.isUnsigned() ||
      randomInt.getWidth() != x.getElementTypeBitWidth() ||
      random.getShape() != x.getShape() || !result ||
      result.getShape() != x.getShape())
    return error(inst.opcodeLoc)
           << "'stochastic-convert' needs a float array and an unsigned "
              "random array of its shape and bit width";
  if (!resultInt || resultInt.isUnsigned() || resultInt.getWidth() < 8)
    return error(inst.opcodeLoc)
           << "'stochastic-convert' to " << result.getElementType()
           << " is not supported: XLA converts stochastically to signed "
              "integers only";
  Type floatType = x.getElementType();
  auto make = [&](StringRef name, ValueRange args, Type type,
                  ArrayRef<NamedAttribute> attrs = {}) {
    return createOp(location, name, args, type, attrs);
  };
  auto withElement = [&](Type element) {
    return RankedTensorType::get(x.getShape(), element);
  };
  auto splat = [&](Type type, mlir::Attribute value) {
    return make("hlo.constant", {}, type,
                {builder.getNamedAttr(
                    "value", DenseElementsAttr::get(cast<ShapedType>(type),
                                                    ArrayRef(value)))});
  };
  auto floatSplat = [&](Value like, double value) {
    auto type = cast<RankedTensorType>(like.getType());
    return splat(type, builder.getFloatAttr(type.getElementType(), value));
  };
  auto compare = [&](hlo::ComparisonDirection direction, Value a, Value b) {
    return make("hlo.compare", {a, b}, withElement(builder.getI1Type()),
                {builder.getNamedAttr(
                    "comparison_direction",
                    hlo::ComparisonDirectionAttr::get(&context, direction))});
  };
  auto select = [&](Value p, Value a, Value b) {
    return make("hlo.select", {p, a, b}, a.getType());
  };
  Value operand = operands[0];
  Value sign = make("hlo.sign", {operand}, x);
  Value negative =
      compare(hlo::ComparisonDirection::LT, sign, floatSplat(sign, 0));
  Value magnitude = make("hlo.abs", {operand}, x);
  Value truncated = make("hlo.floor", {magnitude}, x);
  Value fraction = make("hlo.subtract", {magnitude, truncated}, x);
  // f16 cannot hold 2^16.
  if (floatType.isF16())
    fraction = make("hlo.convert", {fraction},
                    withElement(builder.getF32Type()));
  Value fixed = make(
      "hlo.multiply",
      {fraction, floatSplat(fraction, std::ldexp(1.0, randomInt.getWidth()))},
      fraction.getType());
  Value roundUp = compare(hlo::ComparisonDirection::LT, operands[1],
                          make("hlo.convert", {fixed}, random));
  Value integer = make("hlo.convert", {truncated}, result);
  auto intSplat = [&](int64_t value) {
    return splat(result, builder.getIntegerAttr(resultInt, value));
  };
  integer = select(roundUp, make("hlo.add", {integer, intSplat(1)}, result),
                   integer);
  Value value =
      select(negative, make("hlo.negate", {integer}, result), integer);
  unsigned bits = resultInt.getWidth();
  int64_t min = static_cast<int64_t>(~uint64_t(0) << (bits - 1));
  int64_t max = static_cast<int64_t>((uint64_t(1) << (bits - 1)) - 1);
  value = select(compare(hlo::ComparisonDirection::LE, operand,
                         floatSplat(operand, static_cast<double>(min))),
                 intSplat(min), value);
  return select(compare(hlo::ComparisonDirection::GE, operand,
                        floatSplat(operand, static_cast<double>(max))),
                intSplat(max), value);
}

FailureOr<Value> Importer::emitBatchNorm(const Instruction &inst,
                                         ValueRange operands,
                                         Location location) {
  StringRef opcode = inst.opcode;
  size_t arity = opcode == "batch-norm-training" ? 3 : 5;
  auto x = operands.empty() ? nullptr
                            : dyn_cast<RankedTensorType>(operands[0].getType());
  const hlo_text::Attribute *epsilonAttr = inst.attr("epsilon");
  const hlo_text::Attribute *featureAttr = inst.attr("feature_index");
  if (operands.size() != arity || !x || !isa<FloatType>(x.getElementType()) ||
      !featureAttr || featureAttr->kind != AttrKind::Int ||
      featureAttr->intValue < 0 || featureAttr->intValue >= x.getRank())
    return error(inst.opcodeLoc)
           << "'" << opcode << "' needs " << arity
           << " operands (a float array first) and feature_index= in range";
  int64_t feature = featureAttr->intValue;
  double epsilon = 0;
  if (epsilonAttr) {
    if (epsilonAttr->kind == AttrKind::Float)
      epsilon = epsilonAttr->floatValue;
    else if (epsilonAttr->kind == AttrKind::Int)
      epsilon = static_cast<double>(epsilonAttr->intValue);
  }
  Type element = x.getElementType();
  auto vector = RankedTensorType::get({x.getDimSize(feature)}, element);
  for (Value operand : operands.drop_front())
    if (operand.getType() != vector && operand.getType() != x)
      return error(inst.opcodeLoc)
             << "'" << opcode << "' operand of type " << operand.getType()
             << " must be " << vector << " (per feature) or " << x;
  auto make = [&](StringRef name, ValueRange args, Type type,
                  ArrayRef<NamedAttribute> attrs = {}) {
    return createOp(location, name, args, type, attrs);
  };
  auto splat = [&](Type type, double value) {
    return make("hlo.constant", {}, type,
                {builder.getNamedAttr(
                    "value", DenseElementsAttr::get(
                                 cast<ShapedType>(type),
                                 ArrayRef<mlir::Attribute>(
                                     builder.getFloatAttr(element, value))))});
  };
  auto binary = [&](StringRef name, Value a, Value b) {
    return make(name, {a, b}, a.getType());
  };
  // [C] -> the operand's shape along feature_index.
  auto broadcast = [&](Value v) {
    return make("hlo.broadcast_in_dim", {v}, x,
                {builder.getNamedAttr("broadcast_dimensions",
                                      builder.getDenseI64ArrayAttr({feature}))});
  };
  // Sum over every dimension but feature_index.
  SmallVector<int64_t> reduced;
  for (int64_t d = 0; d < x.getRank(); ++d)
    if (d != feature)
      reduced.push_back(d);
  auto sum = [&](Value v) {
    return emitAddReduce(location, v, reduced, vector);
  };
  double count = static_cast<double>(x.getNumElements()) /
                 std::max<int64_t>(1, x.getDimSize(feature));
  Value input = operands[0], scale = operands[1];
  auto normalize = [&](Value mean, Value variance, Value offset) {
    // y = x * scale/sqrt(var + eps) + (offset - mean * scale/sqrt(var + eps))
    Value rsqrt = make("hlo.rsqrt", {binary("hlo.add", variance,
                                            splat(vector, epsilon))},
                       vector);
    Value trueScale = binary("hlo.multiply", scale, rsqrt);
    Value trueShift = binary("hlo.subtract", offset,
                             binary("hlo.multiply", mean, trueScale));
    return binary("hlo.add",
                  binary("hlo.multiply", input, broadcast(trueScale)),
                  broadcast(trueShift));
  };
  if (opcode == "batch-norm-inference")
    return normalize(operands[3], operands[4], operands[2]);
  if (opcode == "batch-norm-training") {
    Value n = splat(vector, count);
    Value mean = binary("hlo.divide", sum(input), n);
    Value meanOfSquares =
        binary("hlo.divide", sum(binary("hlo.multiply", input, input)), n);
    Value variance = binary("hlo.subtract", meanOfSquares,
                            binary("hlo.multiply", mean, mean));
    Value y = normalize(mean, variance, operands[2]);
    return Value(hlo::TupleOp::create(builder, location,
                                      ValueRange{y, mean, variance}));
  }
  // grad: operands x, scale, mean, variance, grad_output.
  Value mean = operands[2], variance = operands[3], gradOut = operands[4];
  Value varianceEps = binary("hlo.add", variance, splat(vector, epsilon));
  Value rsqrt = make("hlo.rsqrt", {varianceEps}, vector);
  Value centered = binary("hlo.subtract", input, broadcast(mean));
  Value gradBeta = sum(gradOut);
  Value gradOutCentered = sum(binary("hlo.multiply", gradOut, centered));
  Value gradScale = binary("hlo.multiply", gradOutCentered, rsqrt);
  // scale/sqrt(var+eps) * (g - mean(g) - (x-mean) * mean(g*(x-mean))/(var+eps))
  Value n = splat(vector, count);
  Value meanGrad = binary("hlo.divide", gradBeta, n);
  Value projection = binary("hlo.divide", gradOutCentered,
                            binary("hlo.multiply", n, varianceEps));
  Value inner = binary(
      "hlo.subtract", binary("hlo.subtract", gradOut, broadcast(meanGrad)),
      binary("hlo.multiply", centered, broadcast(projection)));
  Value gradInput = binary("hlo.multiply",
                           broadcast(binary("hlo.multiply", scale, rsqrt)),
                           inner);
  return Value(hlo::TupleOp::create(builder, location,
                                    ValueRange{gradInput, gradScale, gradBeta}));
}

FailureOr<Value> Importer::emitBody(const Computation &comp,
                                    ValueRange params) {
  ValueMap values;
  // Post-order from every instruction (XLA prints in post-order, but the
  // text format does not require it).
  enum class State { New, Active, Done };
  std::vector<State> state(comp.instructions.size(), State::New);
  SmallVector<std::pair<size_t, size_t>> stack; // instruction, next operand
  for (size_t start = 0; start < comp.instructions.size(); ++start) {
    if (state[start] != State::New)
      continue;
    stack.push_back({start, 0});
    state[start] = State::Active;
    while (!stack.empty()) {
      auto &[index, next] = stack.back();
      const Instruction &inst = comp.instructions[index];
      if (next < inst.operands.size()) {
        const Operand &operand = inst.operands[next++];
        auto it = comp.instructionIndex.find(operand.name);
        if (it == comp.instructionIndex.end())
          return error(operand.loc) << "unknown operand '" << operand.name
                                    << "'";
        if (state[it->second] == State::Active)
          return error(operand.loc) << "operand '" << operand.name
                                    << "' depends on its own result";
        if (state[it->second] == State::New) {
          state[it->second] = State::Active;
          stack.push_back({it->second, 0});
        }
        continue;
      }
      if (failed(emitInstruction(inst, values, params)))
        return failure();
      state[index] = State::Done;
      stack.pop_back();
    }
  }
  return values.lookup(comp.root().name);
}

void Importer::flattenTuple(Value value, SmallVectorImpl<Value> &leaves) {
  auto tupleType = dyn_cast<TupleType>(value.getType());
  if (!tupleType) {
    leaves.push_back(value);
    return;
  }
  auto tuple = value.getDefiningOp<hlo::TupleOp>();
  for (size_t i = 0; i < tupleType.size(); ++i)
    flattenTuple(tuple ? tuple.getElements()[i]
                       : Value(hlo::GetTupleElementOp::create(
                             builder, value.getLoc(), value, i)),
                 leaves);
  if (tuple && tuple->use_empty())
    tuple->erase();
}

LogicalResult Importer::setShardingLeaves(func::FuncOp func, bool results,
                                         unsigned first, unsigned count,
                                         StringAttr text, Loc at) {
  hlo::ShardingError ignored;
  hlo::Sharding parsed = *hlo::parseSharding(text.getValue(), ignored);
  SmallVector<hlo::Sharding> leaves;
  std::function<void(const hlo::Sharding &)> flatten =
      [&](const hlo::Sharding &s) {
        if (s.kind != hlo::Sharding::Kind::Tuple)
          leaves.push_back(s);
        for (const hlo::Sharding &element : s.elements)
          flatten(element);
      };
  flatten(parsed);
  auto set = [&](unsigned i, StringAttr value) {
    if (results)
      func.setResultAttr(first + i, "hlo.sharding", value);
    else
      func.setArgAttr(first + i, "hlo.sharding", value);
  };
  // One sharding for a tuple holds for each of its arrays, as in XLA.
  if (parsed.kind != hlo::Sharding::Kind::Tuple)
    for (unsigned i = 0; i < count; ++i)
      set(i, text);
  else if (parsed.kind == hlo::Sharding::Kind::Tuple && leaves.size() == count)
    for (auto [i, leaf] : llvm::enumerate(leaves))
      set(i, builder.getStringAttr(leaf.str()));
  else
    return error(at) << "the " << (results ? "ROOT" : "parameter")
                     << "'s sharding has " << leaves.size()
                     << " leaves but the "
                     << (results ? "computation returns " : "parameter has ")
                     << count << " arrays";
  return success();
}

FailureOr<func::FuncOp> Importer::emitFunction(const Computation &comp,
                                               bool isEntry) {
  if (func::FuncOp existing = functions.lookup(comp.name))
    return existing;
  if (active.lookup(comp.name))
    return error(comp.loc) << "computation '" << comp.name
                           << "' calls itself";
  SmallVector<const Instruction *> params;
  for (const Instruction &inst : comp.instructions)
    if (inst.parameterNumber) {
      size_t n = *inst.parameterNumber;
      if (n >= params.size())
        params.resize(n + 1, nullptr);
      if (params[n])
        return error(inst.loc) << "parameter(" << n << ") appears twice";
      params[n] = &inst;
    }
  // The function's arguments: one per parameter, but an entry parameter of
  // tuple type is passed as its leaves (depth first), and the body sees the
  // tuple rebuilt from them.
  SmallVector<Type> argTypes, paramTypes;
  SmallVector<const Instruction *> argParams;
  SmallVector<const Shape *> argShapes;
  // Per parameter: its first argument and how many it has.
  SmallVector<std::pair<unsigned, unsigned>> paramArgs;
  for (auto [n, param] : llvm::enumerate(params)) {
    if (!param)
      return error(comp.loc) << "computation '" << comp.name
                             << "' has no parameter(" << n << ")";
    currentOpcode = "parameter";
    FailureOr<Type> type = convertType(param->shape);
    currentOpcode = "";
    if (failed(type))
      return failure();
    paramTypes.push_back(*type);
    size_t first = argTypes.size();
    if (auto tuple = dyn_cast<TupleType>(*type); tuple && isEntry) {
      tuple.getFlattenedTypes(argTypes);
      flattenShape(param->shape, argShapes);
    } else {
      argTypes.push_back(*type);
      argShapes.push_back(&param->shape);
    }
    argParams.append(argTypes.size() - first, param);
    paramArgs.push_back({static_cast<unsigned>(first),
                         static_cast<unsigned>(argTypes.size() - first)});
  }

  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(moduleOp.getBody());
  auto func = func::FuncOp::create(builder, loc(comp.loc), comp.name,
                                   builder.getFunctionType(argTypes, {}));
  if (!isEntry)
    func.setPrivate();
  functions[comp.name] = func;
  Block *block = func.addEntryBlock();
  for (auto [arg, param, shape] :
       llvm::zip(block->getArguments(), argParams, argShapes)) {
    arg.setLoc(instructionLoc(*param));
    std::string layout = nonDefaultLayout(*shape);
    if (!layout.empty())
      func.setArgAttr(arg.getArgNumber(), "hlo.layout",
                      builder.getStringAttr(layout));
  }
  // Shardings, a tuple parameter's split over its leaves.
  for (auto [n, param] : llvm::enumerate(params)) {
    const hlo_text::Attribute *sharding = param->attr("sharding");
    if (!sharding)
      continue;
    FailureOr<StringAttr> text = convertSharding(*sharding);
    if (failed(text))
      return failure();
    auto [first, count] = paramArgs[n];
    if (isa<TupleType>(paramTypes[n]) && isEntry) {
      if (failed(setShardingLeaves(func, /*results=*/false, first, count,
                                   *text, sharding->valueLoc)))
        return failure();
    } else {
      func.setArgAttr(first, "hlo.sharding", *text);
    }
  }
  SmallVector<Value> paramValues;
  unsigned next = 0;
  std::function<Value(Type, Location)> rebuild = [&](Type type,
                                                     Location at) -> Value {
    auto tuple = dyn_cast<TupleType>(type);
    if (!tuple)
      return block->getArgument(next++);
    SmallVector<Value> elements;
    for (Type element : tuple.getTypes())
      elements.push_back(rebuild(element, at));
    return hlo::TupleOp::create(builder, at, elements);
  };
  builder.setInsertionPointToEnd(block);
  for (auto [param, type] : llvm::zip(params, paramTypes))
    paramValues.push_back(isEntry ? rebuild(type, instructionLoc(*param))
                                  : block->getArgument(next++));
  active[comp.name] = true;
  FailureOr<Value> root = emitBody(comp, paramValues);
  active[comp.name] = false;
  if (failed(root))
    return failure();
  SmallVector<Value> results;
  if (isEntry)
    flattenTuple(*root, results);
  else
    results.push_back(*root);
  func::ReturnOp::create(builder, loc(comp.root().loc), results);
  func.setFunctionType(
      builder.getFunctionType(argTypes, ValueRange(results).getTypes()));
  // The ROOT's sharding, split over the flattened results.
  if (const hlo_text::Attribute *sharding = comp.root().attr("sharding")) {
    FailureOr<StringAttr> text = convertSharding(*sharding);
    if (failed(text))
      return failure();
    if (failed(setShardingLeaves(func, /*results=*/true, 0, results.size(),
                                 *text, sharding->valueLoc)))
      return failure();
  }
  return func;
}

FailureOr<std::pair<int64_t, SmallVector<int64_t>>>
Importer::entryArgument(int64_t number, ArrayRef<int64_t> index,
                        Loc at) const {
  SmallVector<const Shape *> shapes;
  for (const Instruction &inst : module.entry().instructions)
    if (inst.parameterNumber) {
      size_t n = *inst.parameterNumber;
      if (n >= shapes.size())
        shapes.resize(n + 1, nullptr);
      shapes[n] = &inst.shape;
    }
  if (number < 0 || number >= static_cast<int64_t>(shapes.size()) ||
      llvm::is_contained(ArrayRef(shapes).take_front(number + 1), nullptr))
    return std::make_pair(number, SmallVector<int64_t>(index)); // verified later
  auto leafCount = [](const Shape &shape) {
    SmallVector<const Shape *> leaves;
    flattenShape(shape, leaves);
    return static_cast<int64_t>(leaves.size());
  };
  int64_t first = 0;
  for (const Shape *shape : ArrayRef(shapes).take_front(number))
    first += shape->isTuple() ? leafCount(*shape) : 1;
  const Shape *shape = shapes[number];
  if (!shape->isTuple())
    return std::make_pair(first, SmallVector<int64_t>(index));
  for (auto [depth, i] : llvm::enumerate(index)) {
    if (!shape->isTuple() || i < 0 ||
        i >= static_cast<int64_t>(shape->tupleElements.size()))
      return std::make_pair(first,
                            SmallVector<int64_t>(index.drop_front(depth)));
    for (const Shape &before : ArrayRef(shape->tupleElements).take_front(i))
      first += before.isTuple() ? leafCount(before) : 1;
    shape = &shape->tupleElements[i];
  }
  if (shape->isTuple())
    return error(at) << "parameter " << number << " at {"
                     << llvm::interleaved(index, ",")
                     << "} is a tuple; tpuc passes an entry parameter's "
                        "tuple as its arrays, so name each of them";
  return std::make_pair(first, SmallVector<int64_t>());
}

OwningOpRef<ModuleOp> Importer::run() {
  OwningOpRef<ModuleOp> owned = ModuleOp::create(loc(module.loc), module.name);
  moduleOp = *owned;
  // Header attributes worth keeping, structured where later passes use them.
  SmallVector<NamedAttribute> attrs;
  if (const hlo_text::Attribute *layout =
          module.attr("entry_computation_layout"))
    attrs.push_back(builder.getNamedAttr("hlo.entry_computation_layout",
                                         builder.getStringAttr(layout->raw)));
  if (!module.inputOutputAliases.empty()) {
    SmallVector<mlir::Attribute> aliases;
    for (const InputOutputAlias &alias : module.inputOutputAliases)
    {
      auto argument = entryArgument(alias.parameterNumber,
                                    alias.parameterIndex, alias.loc);
      if (failed(argument))
        return nullptr;
      auto &[number, index] = *argument;
      aliases.push_back(hlo::InputOutputAliasAttr::get(
          &context, alias.outputIndex, number, index,
          alias.kind == "must-alias" ? hlo::AliasKind::must_alias
                                     : hlo::AliasKind::may_alias));
    }
    attrs.push_back(builder.getNamedAttr(hlo::kInputOutputAliasAttrName,
                                         builder.getArrayAttr(aliases)));
  }
  if (!module.bufferDonors.empty()) {
    SmallVector<mlir::Attribute> donors;
    for (const BufferDonor &donor : module.bufferDonors) {
      auto argument = entryArgument(donor.parameterNumber,
                                    donor.parameterIndex, donor.loc);
      if (failed(argument))
        return nullptr;
      auto &[number, index] = *argument;
      donors.push_back(builder.getDictionaryAttr(
          {builder.getNamedAttr("parameter_number",
                                builder.getI64IntegerAttr(number)),
           builder.getNamedAttr("parameter_index",
                                builder.getDenseI64ArrayAttr(index))}));
    }
    attrs.push_back(builder.getNamedAttr("hlo.buffer_donor",
                                         builder.getArrayAttr(donors)));
  }
  if (!module.frontendAttributes.empty()) {
    SmallVector<NamedAttribute> entries;
    for (const auto &[key, value] : module.frontendAttributes)
      entries.push_back(
          builder.getNamedAttr(key, builder.getStringAttr(value)));
    attrs.push_back(builder.getNamedAttr("hlo.frontend_attributes",
                                         builder.getDictionaryAttr(entries)));
  }
  // The device counts (XLA's HloModuleConfig; 1 when absent).
  for (StringRef key : {"replica_count", "num_partitions"}) {
    const hlo_text::Attribute *count = module.attr(key);
    if (!count)
      continue;
    if (count->kind != AttrKind::Int || count->intValue < 1) {
      error(count->valueLoc) << key << " must be a positive integer";
      return nullptr;
    }
    attrs.push_back(builder.getNamedAttr(
        ("hlo." + key).str(), builder.getI64IntegerAttr(count->intValue)));
  }
  for (const NamedAttribute &attr : attrs)
    moduleOp->setAttr(attr.getName(), attr.getValue());

  if (module.computations.empty()) {
    error(module.loc) << "module has no computations";
    return nullptr;
  }
  if (failed(emitFunction(module.entry(), /*isEntry=*/true)))
    return nullptr;
  if (elidedConstants)
    emitWarning(loc(module.loc))
        << elidedConstants << " constant(s) were printed elided ({...}); "
        << "their values are filled with deterministic pseudo-random numbers "
        << "in [-0.5, 0.5)";
  if (failed(verify(moduleOp)))
    return nullptr;
  return owned;
}

OwningOpRef<ModuleOp> tpuc::importHloModule(const Module &module,
                                            StringRef fileName,
                                            MLIRContext &context) {
  context.loadDialect<hlo::HloDialect, func::FuncDialect>();
  return Importer(module, fileName, context).run();
}
