//===- ResizeBatch.cpp - re-specialize a graph to another batch size ------===//
//
// tpuc-resize-batch: shape inference along one dimension of one entry
// parameter (the batch). See Passes.td for the contract and docs/fit.md for
// `tpuc fit --batch`, which uses it.
//
// The dimensions of all values form equivalence classes: an op whose result
// dimension is, by its semantics, one of its operands' dimensions (an
// elementwise op's every dimension, a transpose's permuted ones, a dot's
// batch and free dimensions, a reshape's dimension that neither merges nor
// splits, ...) joins the two; a dot's contracting dimensions join each
// other. The class of the parameter's dimension is the batch: every
// dimension in it takes the new size, and every other keeps its own. Each
// op also names the dimensions its rule accounts for; a batch dimension an
// op does not account for (a reshape merging the batch with another
// dimension, a non-splat constant, a gather) is an error at that op.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <numeric>

namespace tpuc {
#define GEN_PASS_DEF_RESIZEBATCH
#include "passes/Passes.h.inc"

using namespace mlir;

namespace {

using Dim = std::pair<Value, int64_t>;

RankedTensorType tensorType(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}

int64_t rankOf(Value v) {
  RankedTensorType t = tensorType(v);
  return t ? t.getRank() : 0;
}

/// The HLO instruction name (or op_name metadata) an importer location
/// gives a parameter: FusedLoc[NameLoc(instruction, ...), NameLoc(op_name,
/// ...)] or NameLoc(instruction, ...).
void locationNames(Location loc, SmallVectorImpl<std::string> &names) {
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location l : fused.getLocations())
      locationNames(l, names);
  } else if (auto name = dyn_cast<NameLoc>(loc)) {
    names.push_back(name.getName().str());
  }
}

class BatchResizer {
public:
  explicit BatchResizer(func::FuncOp func) : func(func) {}

  LogicalResult run(int64_t param, int64_t dim, int64_t size);

private:
  unsigned id(Dim d) {
    auto [it, inserted] = ids.try_emplace(d, parent.size());
    if (inserted)
      parent.push_back(parent.size());
    return it->second;
  }
  unsigned find(unsigned x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }
  bool inClass(Dim d) {
    auto it = ids.find(d);
    return it != ids.end() && find(it->second) == batchClass;
  }
  /// `a` and `b` are one dimension; `op`'s rule accounts for both.
  void join(Operation *op, Dim a, Dim b) {
    parent[find(id(a))] = find(id(b));
    account(op, a);
    account(op, b);
  }
  void account(Operation *op, Dim d) {
    id(d);
    accounted[op].insert(d);
  }
  /// Every dimension of `a` is the same dimension of `b` (equal ranks).
  void joinAll(Operation *op, Value a, Value b) {
    if (rankOf(a) != rankOf(b) || !tensorType(a) || !tensorType(b))
      return;
    for (int64_t i = 0; i < rankOf(a); ++i)
      join(op, {a, i}, {b, i});
  }
  void accountAll(Operation *op, Value v) {
    for (int64_t i = 0; i < rankOf(v); ++i)
      account(op, {v, i});
  }
  /// Applies `op`'s rule: joins and accounts for the dimensions its
  /// semantics relate.
  void applyRule(Operation *op);
  void joinReshape(Operation *op, Value in, Value out);
  /// The first batch dimension `op` uses or defines without its rule
  /// accounting for it, as an error at the op.
  LogicalResult checkAccounted(Operation *op);
  LogicalResult rewrite(int64_t size);

  func::FuncOp func;
  llvm::DenseMap<Dim, unsigned> ids;
  SmallVector<unsigned> parent;
  llvm::DenseMap<Operation *, llvm::DenseSet<Dim>> accounted;
  unsigned batchClass = 0;
};

void BatchResizer::joinReshape(Operation *op, Value in, Value out) {
  // Groups of dimensions with equal products; a group of one dimension on
  // each side keeps that dimension, a larger group merges or splits it.
  ArrayRef<int64_t> a = tensorType(in).getShape(),
                    b = tensorType(out).getShape();
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && a[i] == 1) {
      account(op, {in, static_cast<int64_t>(i++)});
      continue;
    }
    if (j < b.size() && b[j] == 1) {
      account(op, {out, static_cast<int64_t>(j++)});
      continue;
    }
    if (i >= a.size() || j >= b.size())
      return;
    size_t i0 = i, j0 = j;
    int64_t pa = a[i++], pb = b[j++];
    while (pa != pb && (i < a.size() || j < b.size())) {
      if (pa < pb && i < a.size())
        pa *= a[i++];
      else if (j < b.size())
        pb *= b[j++];
      else
        return;
    }
    if (i - i0 == 1 && j - j0 == 1)
      join(op, {in, static_cast<int64_t>(i0)}, {out, static_cast<int64_t>(j0)});
  }
}

void BatchResizer::applyRule(Operation *op) {
  if (op->getNumResults() == 1 && tensorType(op->getResult(0)) &&
      (op->hasTrait<OpTrait::Elementwise>() ||
       op->hasTrait<OpTrait::SameOperandsAndResultShape>() ||
       isa<hlo::SelectOp, hlo::ClampOp, hlo::ReverseOp, hlo::MapOp>(op))) {
    // Operands of the result's rank (not select's or clamp's scalars).
    Value result = op->getResult(0);
    accountAll(op, result);
    for (Value operand : op->getOperands())
      if (rankOf(operand) == rankOf(result))
        joinAll(op, operand, result);
    return;
  }
  if (auto bitcast = dyn_cast<hlo::BitcastConvertOp>(op)) {
    // Equal widths keep the shape; otherwise a minor dimension changes.
    Value in = bitcast.getOperand(), out = bitcast.getResult();
    int64_t common = std::min(rankOf(in), rankOf(out));
    for (int64_t i = 0; i < common; ++i)
      join(op, {in, i}, {out, i});
    return;
  }
  if (isa<hlo::IotaOp>(op)) {
    accountAll(op, op->getResult(0));
    return;
  }
  if (auto constant = dyn_cast<hlo::ConstantOp>(op)) {
    // A splat has the same value at any size; other data hard-codes it.
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (dense && dense.isSplat())
      accountAll(op, constant.getResult());
    return;
  }
  if (auto broadcast = dyn_cast<hlo::BroadcastInDimOp>(op)) {
    Value in = broadcast.getOperand(), out = broadcast.getResult();
    accountAll(op, out);
    for (auto [i, d] : llvm::enumerate(broadcast.getBroadcastDimensions())) {
      Dim from{in, static_cast<int64_t>(i)};
      if (tensorType(in).getDimSize(i) == tensorType(out).getDimSize(d))
        join(op, from, {out, d});
      else
        account(op, from); // a 1 broadcast to any size
    }
    return;
  }
  if (auto reshape = dyn_cast<hlo::ReshapeOp>(op)) {
    joinReshape(op, reshape.getOperand(), reshape.getResult());
    return;
  }
  if (auto transpose = dyn_cast<hlo::TransposeOp>(op)) {
    for (auto [i, p] : llvm::enumerate(transpose.getPermutation()))
      join(op, {transpose.getResult(), static_cast<int64_t>(i)},
           {transpose.getOperand(), p});
    return;
  }
  if (auto reduce = dyn_cast<hlo::ReduceOp>(op)) {
    ArrayRef<int64_t> reduced = reduce.getDimensions();
    for (Value input : reduce.getInputs()) {
      joinAll(op, input, reduce.getInputs().front());
      int64_t kept = 0;
      for (int64_t i = 0; i < rankOf(input); ++i) {
        if (llvm::is_contained(reduced, i))
          continue;
        for (Value result : reduce.getResults())
          join(op, {input, i}, {result, kept});
        ++kept;
      }
    }
    for (Value init : reduce.getInitValues())
      accountAll(op, init);
    return;
  }
  if (auto dot = dyn_cast<hlo::DotGeneralOp>(op)) {
    hlo::DotDimensionNumbersAttr dn = dot.getDotDimensionNumbers();
    Value lhs = dot.getLhs(), rhs = dot.getRhs(), out = dot.getResult();
    int64_t r = 0;
    for (auto [l, rr] : llvm::zip(dn.getLhsBatch(), dn.getRhsBatch())) {
      join(op, {lhs, l}, {rhs, rr});
      join(op, {lhs, l}, {out, r++});
    }
    for (auto [l, rr] :
         llvm::zip(dn.getLhsContracting(), dn.getRhsContracting()))
      join(op, {lhs, l}, {rhs, rr});
    auto free = [&](Value v, ArrayRef<int64_t> batch,
                    ArrayRef<int64_t> contracting) {
      for (int64_t i = 0; i < rankOf(v); ++i)
        if (!llvm::is_contained(batch, i) &&
            !llvm::is_contained(contracting, i))
          join(op, {v, i}, {out, r++});
    };
    free(lhs, dn.getLhsBatch(), dn.getLhsContracting());
    free(rhs, dn.getRhsBatch(), dn.getRhsContracting());
    return;
  }
  if (auto conv = dyn_cast<hlo::ConvolutionOp>(op)) {
    // The batch and feature dimensions; spatial ones depend on the window.
    hlo::ConvDimensionNumbersAttr dn = conv.getDimensionNumbers();
    Value lhs = conv.getLhs(), rhs = conv.getRhs(), out = conv.getResult();
    if (conv.getBatchGroupCount() == 1) {
      join(op, {lhs, dn.getInputBatch()}, {out, dn.getOutputBatch()});
      join(op, {rhs, dn.getKernelOutputFeature()},
           {out, dn.getOutputFeature()});
    }
    if (conv.getFeatureGroupCount() == 1)
      join(op, {lhs, dn.getInputFeature()}, {rhs, dn.getKernelInputFeature()});
    return;
  }
  if (auto slice = dyn_cast<hlo::SliceOp>(op)) {
    // A dimension sliced whole keeps its size.
    for (int64_t i = 0; i < rankOf(slice.getOperand()); ++i)
      if (slice.getStartIndices()[i] == 0 && slice.getStrides()[i] == 1 &&
          slice.getLimitIndices()[i] ==
              tensorType(slice.getOperand()).getDimSize(i))
        join(op, {slice.getOperand(), i}, {slice.getResult(), i});
    return;
  }
  if (auto pad = dyn_cast<hlo::PadOp>(op)) {
    for (int64_t i = 0; i < rankOf(pad.getOperand()); ++i)
      if (pad.getEdgePaddingLow()[i] == 0 && pad.getEdgePaddingHigh()[i] == 0 &&
          pad.getInteriorPadding()[i] == 0)
        join(op, {pad.getOperand(), i}, {pad.getResult(), i});
    accountAll(op, pad.getPaddingValue());
    return;
  }
  if (auto concat = dyn_cast<hlo::ConcatenateOp>(op)) {
    for (Value input : concat.getInputs())
      for (int64_t i = 0; i < rankOf(input); ++i)
        if (i != static_cast<int64_t>(concat.getDimension()))
          join(op, {input, i}, {concat.getResult(), i});
    return;
  }
  if (isa<hlo::ReduceWindowOp, hlo::SelectAndScatterOp>(op)) {
    // Dimensions with a window of one element, no stride, padding or
    // dilation keep their size.
    auto windowed = [&](int64_t i) {
      auto at = [&](StringRef name, int64_t fallback, int64_t k) {
        auto attr = op->getAttrOfType<DenseI64ArrayAttr>(name);
        return attr ? attr[k] : fallback;
      };
      return at("window_dimensions", 1, i) != 1 ||
             at("window_strides", 1, i) != 1 ||
             at("base_dilations", 1, i) != 1 ||
             at("window_dilations", 1, i) != 1 ||
             at("padding", 0, 2 * i) != 0 || at("padding", 0, 2 * i + 1) != 0;
    };
    if (auto window = dyn_cast<hlo::ReduceWindowOp>(op)) {
      for (Value input : window.getInputs())
        for (Value result : window.getResults())
          for (int64_t i = 0; i < rankOf(input); ++i)
            if (!windowed(i))
              join(op, {input, i}, {result, i});
      for (Value init : window.getInitValues())
        accountAll(op, init);
    } else {
      auto sas = cast<hlo::SelectAndScatterOp>(op);
      joinAll(op, sas.getOperand(), sas.getResult());
      for (int64_t i = 0; i < rankOf(sas.getOperand()); ++i)
        if (!windowed(i))
          join(op, {sas.getSource(), i}, {sas.getOperand(), i});
      accountAll(op, sas.getInitValue());
    }
    return;
  }
  if (auto sort = dyn_cast<hlo::SortOp>(op)) {
    for (Value v : llvm::concat<Value>(sort.getInputs(), sort.getResults()))
      joinAll(op, v, sort.getInputs().front());
    return;
  }
  if (auto topk = dyn_cast<hlo::TopKOp>(op)) {
    for (Value result : topk.getResults())
      for (int64_t i = 0; i + 1 < rankOf(result); ++i)
        join(op, {topk.getOperand(), i}, {result, i});
    return;
  }
  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    for (Value v : ret.getOperands())
      accountAll(op, v);
    return;
  }
  // hlo.return inside reductions and sorts returns scalars; anything else
  // (gather, scatter, dynamic slices, calls, loops, conditionals, fusions)
  // has no rule, so a batch dimension reaching it is an error.
}

LogicalResult BatchResizer::checkAccounted(Operation *op) {
  const llvm::DenseSet<Dim> &mine = accounted[op];
  auto check = [&](Value v, StringRef role) -> LogicalResult {
    for (int64_t i = 0; i < rankOf(v); ++i)
      if (inClass({v, i}) && !mine.contains({v, i})) {
        InFlightDiagnostic diag = op->emitError()
                                  << "cannot re-specialize the batch: '"
                                  << op->getName() << "' ";
        if (isa<hlo::ReshapeOp>(op))
          diag << "merges or splits the batch dimension (" << role
               << " dimension " << i << " of " << v.getType()
               << ") with another dimension";
        else if (isa<hlo::ConstantOp>(op))
          diag << "is a constant whose dimension " << i << " (" << v.getType()
               << ") is the batch (only a splat resizes)";
        else
          diag << "uses the batch as its " << role << " dimension " << i << " ("
               << v.getType() << ") in a way whose size is hard-coded";
        return failure();
      }
    return success();
  };
  for (Value operand : op->getOperands())
    if (failed(check(operand, "operand")))
      return failure();
  for (Value result : op->getResults())
    if (failed(check(result, "result")))
      return failure();
  return success();
}

LogicalResult BatchResizer::rewrite(int64_t size) {
  auto resized = [&](Value v) -> Type {
    RankedTensorType t = tensorType(v);
    if (!t)
      return v.getType();
    SmallVector<int64_t> shape(t.getShape());
    for (int64_t i = 0; i < t.getRank(); ++i)
      if (inClass({v, i}))
        shape[i] = size;
    return t.clone(shape);
  };
  Block &entry = func.getBody().front();
  for (BlockArgument arg : entry.getArguments())
    arg.setType(resized(arg));
  func.walk([&](Operation *op) {
    if (auto slice = dyn_cast<hlo::SliceOp>(op)) {
      SmallVector<int64_t> limits(slice.getLimitIndices());
      for (int64_t i = 0; i < rankOf(slice.getOperand()); ++i)
        if (inClass({slice.getOperand(), i}))
          limits[i] = size;
      slice.setLimitIndices(limits);
    }
    for (Value result : op->getResults()) {
      Type type = resized(result);
      if (type == result.getType())
        continue;
      if (auto constant = dyn_cast<hlo::ConstantOp>(op))
        constant.setValueAttr(DenseElementsAttr::get(
            cast<ShapedType>(type), cast<DenseElementsAttr>(constant.getValue())
                                        .getSplatValue<Attribute>()));
      result.setType(type);
    }
  });
  auto ret = cast<func::ReturnOp>(entry.getTerminator());
  func.setType(FunctionType::get(func.getContext(), entry.getArgumentTypes(),
                                 ret.getOperandTypes()));
  return verify(func);
}

LogicalResult BatchResizer::run(int64_t param, int64_t dim, int64_t size) {
  BlockArgument arg = func.getArgument(param);
  int64_t oldSize = tensorType(arg).getDimSize(dim);
  func.walk([&](Operation *op) { applyRule(op); });
  batchClass = find(id({arg, dim}));
  WalkResult walk = func.walk([&](Operation *op) {
    return failed(checkAccounted(op)) ? WalkResult::interrupt()
                                      : WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (oldSize == size)
    return success();
  return rewrite(size);
}

} // namespace

FailureOr<BatchDimension> findBatchDimension(ModuleOp module, StringRef param,
                                             int64_t dim) {
  func::FuncOp entry;
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal()) {
      if (entry)
        return module.emitError("tpuc-resize-batch: more than one public "
                                "function; the entry is ambiguous");
      entry = func;
    }
  if (!entry)
    return module.emitError("tpuc-resize-batch: no entry function");
  unsigned count = entry.getNumArguments();
  std::optional<unsigned> index;
  unsigned parsed = 0;
  if (!param.getAsInteger(10, parsed)) {
    if (parsed < count)
      index = parsed;
  } else {
    // An instruction name (x.5) or its op_name metadata (x).
    for (unsigned i = 0; i < count && !index; ++i) {
      SmallVector<std::string> names;
      locationNames(entry.getArgument(i).getLoc(), names);
      if (llvm::is_contained(names, param))
        index = i;
    }
  }
  if (!index) {
    InFlightDiagnostic diag = entry.emitError()
                              << "no entry parameter '" << param << "' (";
    diag << "@" << entry.getSymName() << " takes " << count
         << " parameters: an index 0.." << count - 1
         << ", the parameter's HLO name or its op_name)";
    return diag;
  }
  BlockArgument arg = entry.getArgument(*index);
  RankedTensorType type = tensorType(arg);
  if (!type || dim < 0 || dim >= type.getRank())
    return entry.emitError()
           << "dimension " << dim << " is out of range for parameter " << *index
           << " ('" << param << "', " << arg.getType() << ")";
  if (type.getDimSize(dim) == 1)
    return entry.emitError()
           << "dimension " << dim << " of parameter " << *index << " ('"
           << param << "', " << arg.getType()
           << ") has size 1, which cannot be told apart from the unit "
              "dimensions reshapes and broadcasts add";
  SmallVector<std::string> names;
  locationNames(arg.getLoc(), names);
  return BatchDimension{entry, *index, dim, type.getDimSize(dim),
                        names.empty() ? param.str() : names.front()};
}

LogicalResult resizeBatch(const BatchDimension &batch, int64_t size) {
  func::FuncOp entry = batch.entry;
  if (size < 1)
    return entry.emitError() << "the batch must be positive, got " << size;
  return BatchResizer(entry).run(batch.parameter, batch.dimension, size);
}

namespace {

class ResizeBatchPass : public impl::ResizeBatchBase<ResizeBatchPass> {
public:
  using ResizeBatchBase::ResizeBatchBase;

  void runOnOperation() override {
    FailureOr<BatchDimension> batch =
        findBatchDimension(getOperation(), param, dim);
    if (failed(batch) || failed(resizeBatch(*batch, size)))
      signalPassFailure();
  }
};

} // namespace
} // namespace tpuc
