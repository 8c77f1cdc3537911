//===- Interpreter.cpp - evaluate hlo-dialect functions --------------------===//
//
// A block is evaluated op by op in order; each SSA value maps to a RtValue
// (a Tensor or a tuple). Values are dropped after their last use in the
// block, so a large graph holds only its live tensors. Regions (reducers,
// comparators, loop bodies, branches, fusions) are blocks evaluated the same
// way on rank-0 tensors, except that single-op reducers and comparators are
// recognised and run inline by the kernels (see Kernels.h).
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Interpreter.h"
#include "compiler/interpreter/Collectives.h"
#include "compiler/interpreter/ScalarProgram.h"
#include "compiler/interpreter/Kernels.h"
#include "dialects/hlo/RngShape.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstring>
#include <functional>
#include <optional>
#include <thread>

using namespace mlir;

namespace tpuc::interpreter {

std::string TensorSpec::str() const {
  return hostio::shapeString(dtype, std::vector<int64_t>(shape.begin(), shape.end()));
}

std::optional<TensorSpec> tensorSpecOf(Type type) {
  auto tensorType = llvm::dyn_cast<RankedTensorType>(type);
  if (!tensorType || !tensorType.hasStaticShape())
    return std::nullopt;
  std::optional<DType> dtype = dtypeOf(tensorType.getElementType());
  if (!dtype)
    return std::nullopt;
  return TensorSpec{*dtype, llvm::SmallVector<int64_t, 4>(tensorType.getShape())};
}

namespace {

/// A runtime value: a tensor, or a tuple of values.
struct RtValue {
  Tensor tensor;
  std::vector<RtValue> elements;
  bool isTuple = false;

  static RtValue tuple(std::vector<RtValue> elements) {
    RtValue value;
    value.elements = std::move(elements);
    value.isTuple = true;
    return value;
  }
};

/// The values of one block being evaluated; lookups fall back to the
/// enclosing blocks (regions that are not isolated may use outer values).
struct Scope {
  llvm::DenseMap<Value, RtValue> values;
  const Scope *parent = nullptr;

  const RtValue &lookup(Value value) const { return *find(value); }

  /// The value, or null when no enclosing block defines it.
  const RtValue *find(Value value) const {
    for (const Scope *scope = this; scope; scope = scope->parent) {
      auto it = scope->values.find(value);
      if (it != scope->values.end())
        return &it->second;
    }
    return nullptr;
  }
};

/// The single op of `region` before its terminator, when the terminator
/// returns exactly that op's one result.
Operation *singleOp(Region &region) {
  Block &block = region.front();
  if (block.getOperations().size() != 2)
    return nullptr;
  Operation &op = block.front();
  Operation *terminator = block.getTerminator();
  if (op.getNumResults() != 1 || terminator->getNumOperands() != 1 ||
      terminator->getOperand(0) != op.getResult(0))
    return nullptr;
  return &op;
}

/// `return op(arg0, arg1)` for a binary op (either order if commutative).
std::optional<BinaryOp> matchBinaryReducer(Region &region) {
  Operation *op = singleOp(region);
  if (!op || region.getNumArguments() != 2)
    return std::nullopt;
  std::optional<BinaryOp> kind = binaryOpKind(op);
  Value a = region.getArgument(0), b = region.getArgument(1);
  if (!kind || op->getResult(0).getType() != a.getType())
    return std::nullopt;
  if (op->getOperand(0) == a && op->getOperand(1) == b)
    return kind;
  bool commutative = *kind == BinaryOp::Add || *kind == BinaryOp::Multiply ||
                     *kind == BinaryOp::Maximum || *kind == BinaryOp::Minimum ||
                     *kind == BinaryOp::And || *kind == BinaryOp::Or ||
                     *kind == BinaryOp::Xor;
  if (commutative && op->getOperand(0) == b && op->getOperand(1) == a)
    return kind;
  return std::nullopt;
}

/// `return compare(arg[2k], arg[2k+1])`, possibly with the pair swapped.
void matchComparator(Region &region, Comparator &comparator) {
  auto compare = llvm::dyn_cast_or_null<hlo::CompareOp>(singleOp(region));
  if (!compare)
    return;
  auto lhs = llvm::dyn_cast<BlockArgument>(compare.getLhs());
  auto rhs = llvm::dyn_cast<BlockArgument>(compare.getRhs());
  if (!lhs || !rhs || lhs.getOwner() != &region.front() ||
      rhs.getOwner() != &region.front())
    return;
  unsigned a = lhs.getArgNumber(), b = rhs.getArgNumber();
  if (a / 2 != b / 2 || a == b)
    return;
  comparator.compare = compareSpecOf(compare);
  comparator.keyOperand = a / 2;
  comparator.swapped = a > b;
}

DType elementDType(Value value) {
  return tensorSpecOf(value.getType())->dtype;
}

llvm::ArrayRef<int64_t> shapeOf(Value value) {
  return llvm::cast<ShapedType>(value.getType()).getShape();
}

FailureOr<Tensor> constantTensor(hlo::ConstantOp op) {
  auto attr = llvm::dyn_cast<DenseElementsAttr>(op.getValue());
  std::optional<TensorSpec> spec = tensorSpecOf(op.getType());
  if (!attr || !spec)
    return op.emitOpError("the interpreter supports only dense constants");
  Tensor tensor(spec->dtype, spec->shape);
  int64_t size = hostio::dtypeByteSize(spec->dtype);
  Type elementType = attr.getElementType();
  if (elementType.getIntOrFloatBitWidth() % 8 == 0) {
    llvm::ArrayRef<char> raw = attr.getRawData();
    if (attr.isSplat()) {
      for (int64_t i = 0; i < tensor.numElements(); ++i)
        std::memcpy(tensor.bytes() + i * size, raw.data(), size);
    } else if (tensor.byteSize() > 0) { // an empty array has no data
      std::memcpy(tensor.bytes(), raw.data(), tensor.byteSize());
    }
    return tensor;
  }
  // pred (i1) as 0/1 bytes; s4/u4 as a byte holding the value sign- or
  // zero-extended.
  int64_t i = 0;
  bool isUnsigned = elementType.isUnsignedInteger();
  for (const APInt &value : attr.getValues<APInt>())
    tensor.data<uint8_t>()[i++] = static_cast<uint8_t>(
        elementType.isInteger(1) ? !value.isZero()
        : isUnsigned             ? value.getZExtValue()
                                 : static_cast<uint64_t>(value.getSExtValue()));
  return tensor;
}

Window windowOf(size_t rank, llvm::ArrayRef<int64_t> size,
                std::optional<llvm::ArrayRef<int64_t>> strides,
                std::optional<llvm::ArrayRef<int64_t>> padding,
                std::optional<llvm::ArrayRef<int64_t>> baseDilation,
                std::optional<llvm::ArrayRef<int64_t>> windowDilation) {
  Window window;
  window.size.assign(size.begin(), size.end());
  auto fill = [&](llvm::SmallVector<int64_t, 4> &out,
                  std::optional<llvm::ArrayRef<int64_t>> attr) {
    if (attr)
      out.assign(attr->begin(), attr->end());
    else
      out.assign(rank, 1);
  };
  fill(window.stride, strides);
  fill(window.baseDilation, baseDilation);
  fill(window.windowDilation, windowDilation);
  window.padLow.assign(rank, 0);
  window.padHigh.assign(rank, 0);
  if (padding)
    for (size_t d = 0; d < rank; ++d) {
      window.padLow[d] = (*padding)[2 * d];
      window.padHigh[d] = (*padding)[2 * d + 1];
    }
  return window;
}

class Evaluator {
public:
  explicit Evaluator(const InterpreterOptions &options)
      : numThreads(options.numThreads > 0
                       ? options.numThreads
                       : std::max(1u, std::thread::hardware_concurrency())),
        maxOps(options.maxOps), grid(options.grid), device(options.device),
        rendezvous(options.rendezvous) {}

  /// Evaluates `block` with `args` bound to its arguments and returns the
  /// operands of its terminator.
  FailureOr<std::vector<RtValue>> runBlock(Block &block,
                                           llvm::ArrayRef<RtValue> args,
                                           const Scope *parent);

private:
  LogicalResult evalOp(Operation &op, Scope &scope);
  /// A collective: exchanges operands with the other devices, then
  /// computes this device's results (docs/spmd.md).
  FailureOr<llvm::SmallVector<Tensor, 2>>
  evalCollective(Operation &op, llvm::ArrayRef<Tensor> operands,
                 const std::function<Combiner(Region &)> &combinerOf);
  FailureOr<llvm::SmallVector<RtValue, 2>> evalOpResults(Operation &op,
                                                         Scope &scope);

  /// The region as a function of rank-0 tensors.
  auto scalarComputation(Region &region, const Scope &scope) {
    return [this, &region, &scope](llvm::ArrayRef<Tensor> args)
               -> FailureOr<llvm::SmallVector<Tensor, 2>> {
      std::vector<RtValue> values(args.size());
      for (auto [value, arg] : llvm::zip(values, args))
        value.tensor = arg;
      auto results = runBlock(region.front(), values, &scope);
      if (failed(results))
        return failure();
      llvm::SmallVector<Tensor, 2> tensors;
      for (RtValue &result : *results)
        tensors.push_back(std::move(result.tensor));
      return tensors;
    };
  }

  /// The generator state's (low, high) words before the advance.
  void takeRngState(int64_t delta, uint64_t *words) {
    words[0] = rngState[0];
    words[1] = rngState[1];
    hlo::advanceRngState(rngState[0], rngState[1], delta);
  }

  int numThreads;
  uint64_t maxOps;
  /// The program's generator state, from XLA's initial value each run.
  uint64_t rngState[2] = {hlo::kRngInitialStateLow, 0};
  uint64_t opsRun = 0;
  DeviceGrid grid;
  int64_t device;
  Rendezvous *rendezvous;
};

FailureOr<std::vector<RtValue>>
Evaluator::runBlock(Block &block, llvm::ArrayRef<RtValue> args,
                    const Scope *parent) {
  Scope scope;
  scope.parent = parent;
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    scope.values[arg] = value;
  // The op of this block after which each of its values is dead. Only worth
  // computing for graph-sized blocks; regions run per element are small.
  llvm::DenseMap<Operation *, llvm::SmallVector<Value, 2>> deadAfter;
  if (block.getOperations().size() > 32) {
    llvm::DenseMap<Value, Operation *> lastUser;
    for (Operation &op : block.without_terminator())
      op.walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (operand.getParentBlock() == &block)
            lastUser[operand] = &op;
      });
    for (Value result : block.getTerminator()->getOperands())
      lastUser.erase(result);
    for (auto [value, op] : lastUser)
      deadAfter[op].push_back(value);
  }
  for (Operation &op : block.without_terminator()) {
    if (maxOps && ++opsRun > maxOps)
      return op.emitError() << "the interpreter stopped after " << maxOps
                            << " ops (the --max-ops budget); is a while "
                               "loop endless?";
    if (failed(evalOp(op, scope)))
      return failure();
    auto it = deadAfter.find(&op);
    if (it != deadAfter.end())
      for (Value value : it->second)
        scope.values.erase(value);
  }
  std::vector<RtValue> results;
  for (Value value : block.getTerminator()->getOperands())
    results.push_back(scope.lookup(value));
  return results;
}

LogicalResult Evaluator::evalOp(Operation &op, Scope &scope) {
  FailureOr<llvm::SmallVector<RtValue, 2>> results = evalOpResults(op, scope);
  if (failed(results))
    return failure();
  for (auto [result, value] : llvm::zip(op.getResults(), *results))
    scope.values[result] = std::move(value);
  return success();
}

FailureOr<llvm::SmallVector<RtValue, 2>>
Evaluator::evalOpResults(Operation &op, Scope &scope) {
  using Results = llvm::SmallVector<RtValue, 2>;
  auto tensor = [&](Value value) -> const Tensor & {
    return scope.lookup(value).tensor;
  };
  auto tensors = [&](ValueRange values) {
    llvm::SmallVector<Tensor, 2> list;
    for (Value value : values)
      list.push_back(tensor(value));
    return list;
  };
  auto one = [](Tensor t) {
    Results results(1);
    results[0].tensor = std::move(t);
    return results;
  };
  auto many = [](llvm::ArrayRef<Tensor> list) {
    Results results(list.size());
    for (auto [result, t] : llvm::zip(results, list))
      result.tensor = t;
    return results;
  };
  auto values = [&](ValueRange range) {
    std::vector<RtValue> list;
    for (Value value : range)
      list.push_back(scope.lookup(value));
    return list;
  };
  auto fromVector = [](std::vector<RtValue> list) {
    return Results(std::make_move_iterator(list.begin()),
                   std::make_move_iterator(list.end()));
  };
  auto programOf = [&](Region &region) -> std::shared_ptr<const ScalarProgram> {
    // Rank-0 values of the enclosing blocks are known now: compiled in.
    auto outer = [&](Value value) -> std::optional<uint64_t> {
      const RtValue *found = scope.find(value);
      if (!found || found->isTuple || found->tensor.numElements() != 1)
        return std::nullopt;
      return elementBits(found->tensor, 0);
    };
    std::optional<ScalarProgram> program = ScalarProgram::compile(region, outer);
    if (!program)
      return nullptr;
    return std::make_shared<const ScalarProgram>(std::move(*program));
  };
  auto combinerOf = [&](Region &region) {
    return Combiner{matchBinaryReducer(region),
                    scalarComputation(region, scope), programOf(region)};
  };
  auto comparatorOf = [&](Region &region) {
    Comparator comparator{std::nullopt, 0, false,
                          scalarComputation(region, scope), programOf(region)};
    matchComparator(region, comparator);
    return comparator;
  };
  auto indexList = [&](ValueRange range) {
    llvm::SmallVector<int64_t, 6> list;
    for (Value value : range)
      list.push_back(tensor(value).intAt(0));
    return list;
  };
  auto unsupported = [&]() -> FailureOr<Results> {
    return op.emitOpError("is not supported by the interpreter");
  };

  if (isa<hlo::AllReduceOp, hlo::AllGatherOp, hlo::ReduceScatterOp,
          hlo::AllToAllOp, hlo::CollectivePermuteOp,
          hlo::CollectiveBroadcastOp>(op)) {
    auto results = evalCollective(op, tensors(op.getOperands()), combinerOf);
    if (failed(results))
      return failure();
    // Groups of different sizes can give a shape the verifier could not
    // check statically.
    for (auto [result, value] : llvm::zip(op.getResults(), *results))
      if (value.shape() != shapeOf(result))
        return op.emitOpError()
               << "computes " << value.typeString() << " on device " << device
               << " but returns " << result.getType()
               << " (its replica groups differ in size?)";
    return many(*results);
  }
  if (isa<hlo::ReplicaIdOp, hlo::PartitionIdOp>(op)) {
    Tensor id(DType::U32, {});
    *id.data<uint32_t>() = static_cast<uint32_t>(
        isa<hlo::ReplicaIdOp>(op) ? device / grid.numPartitions
                                  : device % grid.numPartitions);
    return one(id);
  }
  if (std::optional<UnaryOp> kind = unaryOpKind(&op))
    return one(unary(*kind, tensor(op.getOperand(0))));
  if (std::optional<BinaryOp> kind = binaryOpKind(&op))
    return one(binary(*kind, tensor(op.getOperand(0)), tensor(op.getOperand(1))));

  return llvm::TypeSwitch<Operation *, FailureOr<Results>>(&op)
      .Case([&](hlo::CopyOp copy) { return one(tensor(copy.getOperand())); })
      .Case([&](hlo::IsFiniteOp o) { return one(isFinite(tensor(o.getOperand()))); })
      .Case([&](hlo::CompareOp o) {
        return one(compare(compareSpecOf(o), tensor(o.getLhs()), tensor(o.getRhs())));
      })
      .Case([&](hlo::SelectOp o) {
        return one(select(tensor(o.getPred()), tensor(o.getOnTrue()),
                          tensor(o.getOnFalse())));
      })
      .Case([&](hlo::ClampOp o) {
        return one(clamp(tensor(o.getMin()), tensor(o.getOperand()), tensor(o.getMax())));
      })
      .Case([&](hlo::ReducePrecisionOp o) {
        return one(reducePrecision(tensor(o.getOperand()), o.getExponentBits(),
                                   o.getMantissaBits()));
      })
      .Case([&](hlo::MapOp o) -> FailureOr<Results> {
        auto result = map(tensors(o.getInputs()), elementDType(o.getResult()),
                          combinerOf(o.getComputation()));
        if (failed(result))
          return failure();
        return one(*result);
      })
      .Case([&](hlo::ConvertOp o) {
        return one(convert(tensor(o.getOperand()), elementDType(o.getResult())));
      })
      .Case([&](hlo::BitcastConvertOp o) {
        return one(bitcastConvert(tensor(o.getOperand()), elementDType(o.getResult()),
                                  shapeOf(o.getResult())));
      })
      .Case([&](hlo::ConstantOp o) -> FailureOr<Results> {
        FailureOr<Tensor> value = constantTensor(o);
        if (failed(value))
          return failure();
        return one(*value);
      })
      .Case([&](hlo::IotaOp o) {
        return one(iota(elementDType(o.getOutput()), shapeOf(o.getOutput()),
                        o.getIotaDimension()));
      })
      .Case([&](hlo::BroadcastInDimOp o) {
        return one(broadcastInDim(tensor(o.getOperand()), shapeOf(o.getResult()),
                                  o.getBroadcastDimensions()));
      })
      .Case([&](hlo::ReshapeOp o) {
        return one(tensor(o.getOperand()).reshaped(shapeOf(o.getResult())));
      })
      .Case([&](hlo::TransposeOp o) {
        return one(transpose(tensor(o.getOperand()), o.getPermutation()));
      })
      .Case([&](hlo::ReverseOp o) {
        return one(reverse(tensor(o.getOperand()), o.getDimensions()));
      })
      .Case([&](hlo::SliceOp o) {
        return one(slice(tensor(o.getOperand()), o.getStartIndices(),
                         o.getLimitIndices(), o.getStrides()));
      })
      .Case([&](hlo::DynamicSliceOp o) {
        return one(dynamicSlice(tensor(o.getOperand()),
                                indexList(o.getStartIndices()), o.getSliceSizes()));
      })
      .Case([&](hlo::DynamicUpdateSliceOp o) {
        return one(dynamicUpdateSlice(tensor(o.getOperand()), tensor(o.getUpdate()),
                                      indexList(o.getStartIndices())));
      })
      .Case([&](hlo::ConcatenateOp o) {
        return one(concatenate(tensors(o.getInputs()), o.getDimension()));
      })
      .Case([&](hlo::PadOp o) {
        return one(pad(tensor(o.getOperand()), tensor(o.getPaddingValue()),
                       o.getEdgePaddingLow(), o.getEdgePaddingHigh(),
                       o.getInteriorPadding()));
      })
      .Case([&](hlo::ReduceOp o) -> FailureOr<Results> {
        auto results = reduce(tensors(o.getInputs()), tensors(o.getInitValues()),
                              o.getDimensions(), combinerOf(o.getBody()));
        if (failed(results))
          return failure();
        return many(*results);
      })
      .Case([&](hlo::ReduceWindowOp o) -> FailureOr<Results> {
        Window window = windowOf(o.getWindowDimensions().size(),
                                 o.getWindowDimensions(), o.getWindowStrides(),
                                 o.getPadding(), o.getBaseDilations(),
                                 o.getWindowDilations());
        auto results = reduceWindow(tensors(o.getInputs()), tensors(o.getInitValues()),
                                    window, shapeOf(o.getResult(0)),
                                    combinerOf(o.getBody()));
        if (failed(results))
          return failure();
        return many(*results);
      })
      .Case([&](hlo::SelectAndScatterOp o) -> FailureOr<Results> {
        Window window = windowOf(o.getWindowDimensions().size(),
                                 o.getWindowDimensions(), o.getWindowStrides(),
                                 o.getPadding(), std::nullopt, std::nullopt);
        auto result = selectAndScatter(tensor(o.getOperand()), tensor(o.getSource()),
                                       tensor(o.getInitValue()), window,
                                       comparatorOf(o.getSelect()),
                                       combinerOf(o.getScatter()));
        if (failed(result))
          return failure();
        return one(*result);
      })
      .Case([&](hlo::DotGeneralOp o) {
        return one(dotGeneral(tensor(o.getLhs()), tensor(o.getRhs()),
                              o.getDotDimensionNumbers(), elementDType(o.getResult()),
                              shapeOf(o.getResult()), numThreads));
      })
      .Case([&](hlo::ConvolutionOp o) -> FailureOr<Results> {
        if (o.getFeatureGroupCount() > 1 && o.getBatchGroupCount() > 1)
          return o.emitOpError("with both feature_group_count and "
                               "batch_group_count above 1 is not supported");
        return one(convolution(tensor(o.getLhs()), tensor(o.getRhs()), o,
                               elementDType(o.getResult()), shapeOf(o.getResult()),
                               numThreads));
      })
      .Case([&](hlo::GatherOp o) {
        return one(gather(tensor(o.getOperand()), tensor(o.getStartIndices()),
                          o.getDimensionNumbers(), o.getSliceSizes(),
                          shapeOf(o.getResult())));
      })
      .Case([&](hlo::ScatterOp o) -> FailureOr<Results> {
        auto results = scatter(tensors(o.getInputs()), tensor(o.getScatterIndices()),
                               tensors(o.getUpdates()), o.getDimensionNumbers(),
                               combinerOf(o.getUpdateComputation()));
        if (failed(results))
          return failure();
        return many(*results);
      })
      .Case([&](hlo::SortOp o) -> FailureOr<Results> {
        auto results = sort(tensors(o.getInputs()), o.getDimension(),
                            comparatorOf(o.getComparator()));
        if (failed(results))
          return failure();
        return many(*results);
      })
      .Case([&](hlo::TopKOp o) {
        return many(topK(tensor(o.getOperand()), o.getK(), o.getLargest()));
      })
      .Case([&](hlo::CholeskyOp o) {
        return one(cholesky(tensor(o.getOperand()), o.getLower()));
      })
      .Case([&](hlo::TriangularSolveOp o) {
        return one(triangularSolve(tensor(o.getA()), tensor(o.getB()),
                                   o.getLeftSide(), o.getLower(),
                                   o.getUnitDiagonal(), o.getTransposeA()));
      })
      .Case([&](hlo::RngBitGeneratorOp o) {
        return many(rngBitGenerator(tensor(o.getInitialState()),
                                    o.getAlgorithm(),
                                    elementDType(o.getOutput()),
                                    shapeOf(o.getOutput())));
      })
      .Case([&](hlo::RngGetAndUpdateStateOp o) {
        Tensor state(DType::U64, {2});
        takeRngState(o.getDelta(), state.data<uint64_t>());
        return one(state);
      })
      .Case([&](hlo::RngOp o) {
        // XLA's RngExpander: the op's key, the state an implicit
        // rng_get_and_update_state returns, Philox bits.
        uint64_t counter[2];
        takeRngState(o.getStateDelta(), counter);
        return one(rng(o.getDistribution(), tensor(o.getA()), tensor(o.getB()),
                       elementDType(o.getResult()), shapeOf(o.getResult()),
                       o.getOpSeed(), counter[0], counter[1]));
      })
      .Case([&](hlo::TupleOp o) {
        Results results(1);
        results[0] = RtValue::tuple(values(o.getElements()));
        return results;
      })
      .Case([&](hlo::GetTupleElementOp o) {
        Results results(1);
        results[0] = scope.lookup(o.getOperand()).elements[o.getIndex()];
        return results;
      })
      .Case([&](hlo::CallOp o) -> FailureOr<Results> {
        auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
            o, o.getCalleeAttr());
        if (!callee || callee.isExternal())
          return o.emitOpError("calls a function without a body");
        auto results = runBlock(callee.getBody().front(),
                                values(o.getOperands()), nullptr);
        if (failed(results))
          return failure();
        return fromVector(std::move(*results));
      })
      .Case([&](hlo::FusionOp o) -> FailureOr<Results> {
        auto results = runBlock(o.getBody().front(), values(o.getOperands()), nullptr);
        if (failed(results))
          return failure();
        return fromVector(std::move(*results));
      })
      .Case([&](hlo::WhileOp o) -> FailureOr<Results> {
        std::vector<RtValue> state = values(o.getOperand());
        while (true) {
          auto condition = runBlock(o.getCond().front(), state, &scope);
          if (failed(condition))
            return failure();
          if ((*condition)[0].tensor.intAt(0) == 0)
            break;
          auto next = runBlock(o.getBody().front(), state, &scope);
          if (failed(next))
            return failure();
          state = std::move(*next);
        }
        return fromVector(std::move(state));
      })
      .Case([&](hlo::ConditionalOp o) -> FailureOr<Results> {
        const Tensor &index = tensor(o.getIndex());
        int64_t branches = static_cast<int64_t>(o.getBranches().size());
        int64_t branch;
        if (index.dtype() == DType::Pred)
          branch = index.intAt(0) ? 0 : 1;
        else
          branch = index.intAt(0) < 0 || index.intAt(0) >= branches
                       ? branches - 1
                       : index.intAt(0);
        std::vector<RtValue> args;
        if (branch < static_cast<int64_t>(o.getBranchOperands().size()))
          args.push_back(scope.lookup(o.getBranchOperands()[branch]));
        auto results = runBlock(o.getBranches()[branch].front(), args, &scope);
        if (failed(results))
          return failure();
        return fromVector(std::move(*results));
      })
      .Default([&](Operation *) { return unsupported(); });
}

FailureOr<llvm::SmallVector<Tensor, 2>> Evaluator::evalCollective(
    Operation &op, llvm::ArrayRef<Tensor> operands,
    const std::function<Combiner(Region &)> &combinerOf) {
  std::vector<int64_t> group;
  if (!isa<hlo::CollectivePermuteOp>(op)) {
    auto participants = collectiveParticipants(&op, grid, device);
    if (failed(participants))
      return failure();
    group = std::move(*participants);
  }
  auto round = rendezvous->exchange(
      &op, device, std::vector<Tensor>(operands.begin(), operands.end()));
  if (failed(round))
    return failure();
  const Rendezvous::Round &all = **round;
  int64_t position = llvm::find(group, device) - group.begin();
  llvm::SmallVector<Tensor, 2> results;
  // Left fold over the group in group order, per operand.
  auto reduceOver = [&](Region &region, size_t index) -> FailureOr<Tensor> {
    Combiner combiner = combinerOf(region);
    Tensor acc = all[group[0]][index];
    for (size_t k = 1; k < group.size(); ++k) {
      const Tensor &next = all[group[k]][index];
      if (combiner.binary) {
        acc = binary(*combiner.binary, acc, next);
        continue;
      }
      FailureOr<Tensor> combined = map({acc, next}, acc.dtype(), combiner);
      if (failed(combined))
        return failure();
      acc = std::move(*combined);
    }
    return acc;
  };
  // Block `block` of `n` equal blocks of `t` along `dim`.
  auto block = [](const Tensor &t, int64_t dim, int64_t n, int64_t index) {
    llvm::SmallVector<int64_t, 4> start(t.rank(), 0), limit(t.shape()),
        strides(t.rank(), 1);
    int64_t size = t.dim(dim) / n;
    start[dim] = index * size;
    limit[dim] = (index + 1) * size;
    return slice(t, start, limit, strides);
  };
  return llvm::TypeSwitch<Operation *, FailureOr<llvm::SmallVector<Tensor, 2>>>(&op)
      .Case([&](hlo::AllReduceOp o) -> FailureOr<llvm::SmallVector<Tensor, 2>> {
        for (size_t i = 0; i < operands.size(); ++i) {
          FailureOr<Tensor> reduced = reduceOver(o.getComputation(), i);
          if (failed(reduced))
            return failure();
          results.push_back(*reduced);
        }
        return results;
      })
      .Case([&](hlo::ReduceScatterOp o) -> FailureOr<llvm::SmallVector<Tensor, 2>> {
        if (failed(verifyGroupShape(o, group.size())))
          return failure();
        FailureOr<Tensor> reduced = reduceOver(o.getComputation(), 0);
        if (failed(reduced))
          return failure();
        results.push_back(block(*reduced, o.getScatterDimension(),
                                group.size(), position));
        return results;
      })
      .Case([&](hlo::AllGatherOp o) -> FailureOr<llvm::SmallVector<Tensor, 2>> {
        if (failed(verifyGroupShape(o, group.size())))
          return failure();
        std::vector<Tensor> parts;
        for (int64_t member : group)
          parts.push_back(all[member][0]);
        results.push_back(concatenate(parts, o.getAllGatherDim()));
        return results;
      })
      .Case([&](hlo::AllToAllOp o) -> FailureOr<llvm::SmallVector<Tensor, 2>> {
        int64_t dim = o.getDimension();
        if (operands[0].dim(dim) % group.size() != 0)
          return o.emitOpError() << "dimension " << dim
                                 << " is not divisible by the group size "
                                 << group.size();
        std::vector<Tensor> parts;
        for (int64_t member : group)
          parts.push_back(block(all[member][0], dim, group.size(), position));
        results.push_back(concatenate(parts, dim));
        return results;
      })
      .Case([&](hlo::CollectivePermuteOp o) -> FailureOr<llvm::SmallVector<Tensor, 2>> {
        FailureOr<int64_t> source = permuteSource(o, grid, device);
        if (failed(source))
          return failure();
        results.push_back(*source < 0
                              ? Tensor(operands[0].dtype(), operands[0].shape())
                              : all[*source][0]);
        return results;
      })
      .Case([&](hlo::CollectiveBroadcastOp) -> FailureOr<llvm::SmallVector<Tensor, 2>> {
        results.push_back(all[group[0]][0]);
        return results;
      })
      .Default([&](Operation *) -> FailureOr<llvm::SmallVector<Tensor, 2>> {
        return op.emitOpError("is not a collective");
      });
}

} // namespace

FailureOr<llvm::SmallVector<Tensor>>
interpret(func::FuncOp func, llvm::ArrayRef<Tensor> args,
          const InterpreterOptions &options) {
  if (func.isExternal())
    return func.emitError("cannot interpret a function without a body");
  FunctionType type = func.getFunctionType();
  if (args.size() != type.getNumInputs())
    return func.emitError() << "@" << func.getSymName() << " has "
                            << type.getNumInputs() << " parameters but "
                            << args.size() << " inputs were given";
  std::vector<RtValue> values(args.size());
  for (auto [i, arg] : llvm::enumerate(args)) {
    std::optional<TensorSpec> spec = tensorSpecOf(type.getInput(i));
    if (!spec)
      return func.emitError() << "parameter " << i << " has type "
                              << type.getInput(i)
                              << ", which the interpreter cannot take as input";
    if (spec->dtype != arg.dtype() ||
        llvm::ArrayRef<int64_t>(spec->shape) != arg.shape())
      return func.emitError() << "parameter " << i << " expects "
                              << spec->str() << " but the input is "
                              << arg.typeString();
    values[i].tensor = arg;
  }
  for (auto [i, resultType] : llvm::enumerate(type.getResults()))
    if (!tensorSpecOf(resultType))
      return func.emitError() << "result " << i << " has type " << resultType
                              << ", which the interpreter cannot return";
  // A plain run is device 0 of a 1 x 1 grid.
  std::optional<Rendezvous> single;
  InterpreterOptions effective = options;
  if (!effective.rendezvous) {
    single.emplace(1);
    effective.grid = DeviceGrid();
    effective.device = 0;
    effective.rendezvous = &*single;
  }
  Evaluator evaluator(effective);
  auto results = evaluator.runBlock(func.getBody().front(), values, nullptr);
  if (failed(results))
    return failure();
  llvm::SmallVector<Tensor> tensors;
  for (RtValue &result : *results)
    tensors.push_back(std::move(result.tensor));
  return tensors;
}

} // namespace tpuc::interpreter
