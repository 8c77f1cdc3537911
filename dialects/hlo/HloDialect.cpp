//===- HloDialect.cpp - the hlo dialect and its attributes ----------------===//

#include "dialects/hlo/HloDialect.h"
#include "dialects/hlo/HloOps.h"
#include "dialects/hlo/Sharding.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <set>

using namespace mlir;
using namespace tpuc::hlo;

#include "dialects/hlo/HloDialect.cpp.inc"
#include "dialects/hlo/HloEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/hlo/HloAttrs.cpp.inc"

namespace {
/// hlo ops have no side effects that depend on where they stand, so calls to
/// computations (and regions) may always be inlined.
struct HloInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void HloDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/hlo/HloOps.cpp.inc"
      >();
  registerAttributes();
  addInterfaces<HloInlinerInterface>();
}

void HloDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/hlo/HloAttrs.cpp.inc"
      >();
}

Operation *HloDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}

//===----------------------------------------------------------------------===//
// Discardable attributes: shardings and the module's device counts
//===----------------------------------------------------------------------===//

/// `hlo.sharding` must be a string in XLA's sharding syntax.
static LogicalResult verifyShardingAttr(Operation *op, NamedAttribute attr) {
  if (attr.getName() != "hlo.sharding")
    return success();
  auto text = dyn_cast<StringAttr>(attr.getValue());
  if (!text)
    return op->emitError("hlo.sharding must be a string");
  ShardingError error;
  if (!parseSharding(text.getValue(), error))
    return op->emitError() << "invalid hlo.sharding \"" << text.getValue()
                           << "\": " << error.message << " at offset "
                           << error.offset;
  return success();
}

func::FuncOp tpuc::hlo::entryFunction(ModuleOp module) {
  func::FuncOp entry;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isDeclaration())
      continue;
    if (!entry || func.getSymName() == "main")
      entry = func;
  }
  return entry;
}

SmallVector<InputOutputAliasAttr>
tpuc::hlo::getInputOutputAliases(ModuleOp module) {
  SmallVector<InputOutputAliasAttr> aliases;
  if (auto array = module->getAttrOfType<ArrayAttr>(kInputOutputAliasAttrName))
    for (Attribute alias : array)
      if (auto entry = dyn_cast<InputOutputAliasAttr>(alias))
        aliases.push_back(entry);
  return aliases;
}

SmallVector<AliasProducer> tpuc::hlo::aliasProducers(ModuleOp module) {
  SmallVector<AliasProducer> producers;
  func::FuncOp entry = entryFunction(module);
  if (!entry)
    return producers;
  Operation *ret = entry.getBody().front().getTerminator();
  for (InputOutputAliasAttr alias : getInputOutputAliases(module))
    if (alias.getResultNumber() < ret->getNumOperands())
      if (Operation *producer =
              ret->getOperand(alias.getResultNumber()).getDefiningOp())
        producers.push_back({alias, producer});
  return producers;
}

/// The type at `index` inside `type` (tuple elements), or null when the
/// index leaves the type.
static Type typeAtIndex(Type type, ArrayRef<int64_t> index) {
  for (int64_t i : index) {
    auto tuple = dyn_cast<TupleType>(type);
    if (!tuple || i < 0 || i >= static_cast<int64_t>(tuple.size()))
      return {};
    type = tuple.getType(i);
  }
  return type;
}

static std::string formatIndex(ArrayRef<int64_t> index) {
  std::string text = "{";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(index, os);
  os << "}";
  return text;
}

/// `hlo.input_output_alias` on a module: an array of #hlo.alias whose
/// outputs and parameters exist in the entry function with equal types, no
/// output and no parameter (index) named twice (XLA's
/// HloInputOutputAliasConfig rules).
static LogicalResult verifyInputOutputAliases(Operation *op, Attribute value) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError() << kInputOutputAliasAttrName
                           << " belongs on the module";
  auto array = dyn_cast<ArrayAttr>(value);
  if (!array || !llvm::all_of(array, llvm::IsaPred<InputOutputAliasAttr>))
    return op->emitError() << kInputOutputAliasAttrName
                           << " must be an array of #hlo.alias";
  func::FuncOp entry = entryFunction(module);
  if (!entry)
    return op->emitError() << kInputOutputAliasAttrName
                           << " needs a public entry function";
  FunctionType type = entry.getFunctionType();
  llvm::DenseSet<int64_t> outputs;
  std::set<std::pair<int64_t, SmallVector<int64_t>>> parameters;
  for (auto alias : array.getAsRange<InputOutputAliasAttr>()) {
    auto fail = [&]() {
      return op->emitError() << kInputOutputAliasAttrName << " " << alias
                             << ": ";
    };
    ArrayRef<int64_t> output = alias.getOutputIndex();
    if (output.size() > 1)
      return fail() << "output index " << formatIndex(output)
                    << " is nested, but the entry's results are flat";
    if (output.empty() && type.getNumResults() != 1)
      return fail() << "output index {} names all " << type.getNumResults()
                    << " results of @" << entry.getSymName();
    int64_t result = alias.getResultNumber();
    if (!output.empty() &&
        (output[0] < 0 || output[0] >= type.getNumResults()))
      return fail() << "@" << entry.getSymName() << " has no result "
                    << output[0] << " (it has " << type.getNumResults() << ")";
    int64_t number = alias.getParameterNumber();
    if (number < 0 || number >= type.getNumInputs())
      return fail() << "@" << entry.getSymName() << " has no parameter "
                    << number << " (it has " << type.getNumInputs() << ")";
    Type paramType =
        typeAtIndex(type.getInput(number), alias.getParameterIndex());
    if (!paramType)
      return fail() << "parameter " << number << " ("
                    << type.getInput(number) << ") has no index "
                    << formatIndex(alias.getParameterIndex());
    if (paramType != type.getResult(result))
      return fail() << "result " << result << " (" << type.getResult(result)
                    << ") and parameter " << number << " ("
                    << paramType << ") differ in type";
    if (!outputs.insert(result).second)
      return fail() << "result " << result << " is aliased twice";
    if (!parameters
             .insert({number, SmallVector<int64_t>(alias.getParameterIndex())})
             .second)
      return fail() << "parameter " << number << " "
                    << formatIndex(alias.getParameterIndex())
                    << " is aliased twice";
  }
  return success();
}

LogicalResult HloDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName();
  if (name == kInputOutputAliasAttrName)
    return verifyInputOutputAliases(op, attr.getValue());
  if (name == "hlo.num_partitions" || name == "hlo.replica_count") {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || value.getInt() < 1)
      return op->emitError() << name << " must be a positive integer";
    return success();
  }
  return verifyShardingAttr(op, attr);
}

LogicalResult HloDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                   unsigned,
                                                   NamedAttribute attr) {
  return verifyShardingAttr(op, attr);
}

LogicalResult HloDialect::verifyRegionResultAttribute(Operation *op, unsigned,
                                                      unsigned,
                                                      NamedAttribute attr) {
  return verifyShardingAttr(op, attr);
}

//===----------------------------------------------------------------------===//
// Dimension-number attributes: `<name = [1, 2], other = 3>` field lists.
//===----------------------------------------------------------------------===//

namespace {
/// One field of a dimension-numbers attribute: a list `name = [..]` or a
/// scalar `name = N` or a keyword `name = word`. Empty lists are not printed;
/// scalars and keywords are required.
struct DimsField {
  StringRef name;
  SmallVector<int64_t> *list = nullptr;
  int64_t *scalar = nullptr;
  StringRef *keyword = nullptr;
  bool seen = false;
};
} // namespace

static ParseResult parseDimsFields(AsmParser &parser,
                                   MutableArrayRef<DimsField> fields) {
  if (parser.parseLess())
    return failure();
  if (failed(parser.parseOptionalGreater())) {
    do {
      SMLoc loc = parser.getCurrentLocation();
      StringRef key;
      if (parser.parseKeyword(&key) || parser.parseEqual())
        return failure();
      DimsField *field = llvm::find_if(
          fields, [&](const DimsField &f) { return f.name == key; });
      if (field == fields.end()) {
        InFlightDiagnostic diag = parser.emitError(loc, "unknown field '")
                                  << key << "', expected one of: ";
        llvm::interleaveComma(fields, diag,
                              [&](const DimsField &f) { diag << f.name; });
        return diag;
      }
      if (field->seen)
        return parser.emitError(loc, "field '") << key << "' appears twice";
      field->seen = true;
      if (field->scalar) {
        if (parser.parseInteger(*field->scalar))
          return failure();
        continue;
      }
      if (field->keyword) {
        if (parser.parseKeyword(field->keyword))
          return failure();
        continue;
      }
      if (parser.parseCommaSeparatedList(
              AsmParser::Delimiter::Square, [&]() -> ParseResult {
                int64_t value;
                if (parser.parseInteger(value))
                  return failure();
                field->list->push_back(value);
                return success();
              }))
        return failure();
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseGreater())
      return failure();
  }
  for (const DimsField &field : fields)
    if ((field.scalar || field.keyword) && !field.seen)
      return parser.emitError(parser.getCurrentLocation(), "missing field '")
             << field.name << "'";
  return success();
}

namespace {
struct PrintedField {
  StringRef name;
  ArrayRef<int64_t> values;
  bool scalar = false;
  StringRef keyword = {};
};
} // namespace

static void printDimsFields(AsmPrinter &printer,
                            ArrayRef<PrintedField> fields) {
  printer << "<";
  bool first = true;
  for (const PrintedField &field : fields) {
    if (!field.scalar && field.keyword.empty() && field.values.empty())
      continue;
    if (!first)
      printer << ", ";
    first = false;
    printer << field.name << " = ";
    if (!field.keyword.empty()) {
      printer << field.keyword;
      continue;
    }
    if (field.scalar) {
      printer << field.values.front();
      continue;
    }
    printer << "[";
    llvm::interleaveComma(field.values, printer);
    printer << "]";
  }
  printer << ">";
}

Attribute DotDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> lhsBatch, rhsBatch, lhsContracting, rhsContracting;
  DimsField fields[] = {{"lhs_batch", &lhsBatch},
                        {"rhs_batch", &rhsBatch},
                        {"lhs_contracting", &lhsContracting},
                        {"rhs_contracting", &rhsContracting}};
  if (parseDimsFields(parser, fields))
    return {};
  return get(parser.getContext(), lhsBatch, rhsBatch, lhsContracting,
             rhsContracting);
}

void DotDimensionNumbersAttr::print(AsmPrinter &printer) const {
  printDimsFields(printer, {{"lhs_batch", getLhsBatch()},
                            {"rhs_batch", getRhsBatch()},
                            {"lhs_contracting", getLhsContracting()},
                            {"rhs_contracting", getRhsContracting()}});
}

Attribute InputOutputAliasAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> outputIndex, parameterIndex;
  int64_t parameterNumber = 0;
  StringRef kindName;
  DimsField fields[] = {{"output_index", &outputIndex},
                        {"parameter_number", nullptr, &parameterNumber},
                        {"parameter_index", &parameterIndex},
                        {"kind", nullptr, nullptr, &kindName}};
  SMLoc loc = parser.getCurrentLocation();
  if (parseDimsFields(parser, fields))
    return {};
  std::optional<AliasKind> kind = symbolizeAliasKind(kindName);
  if (!kind) {
    parser.emitError(loc, "kind must be may_alias or must_alias, not '")
        << kindName << "'";
    return {};
  }
  return get(parser.getContext(), outputIndex, parameterNumber,
             parameterIndex, *kind);
}

void InputOutputAliasAttr::print(AsmPrinter &printer) const {
  int64_t parameterNumber = getParameterNumber();
  printDimsFields(printer,
                  {{"output_index", getOutputIndex()},
                   {"parameter_number", ArrayRef<int64_t>(parameterNumber), true},
                   {"parameter_index", getParameterIndex()},
                   {"kind", {}, false, stringifyAliasKind(getKind())}});
}

Attribute GatherDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> offset, collapsed, operandBatching, indicesBatching,
      startIndexMap;
  int64_t indexVectorDim = 0;
  DimsField fields[] = {{"offset_dims", &offset},
                        {"collapsed_slice_dims", &collapsed},
                        {"operand_batching_dims", &operandBatching},
                        {"start_indices_batching_dims", &indicesBatching},
                        {"start_index_map", &startIndexMap},
                        {"index_vector_dim", nullptr, &indexVectorDim}};
  if (parseDimsFields(parser, fields))
    return {};
  return get(parser.getContext(), offset, collapsed, operandBatching,
             indicesBatching, startIndexMap, indexVectorDim);
}

void GatherDimensionNumbersAttr::print(AsmPrinter &printer) const {
  int64_t indexVectorDim = getIndexVectorDim();
  printDimsFields(
      printer,
      {{"offset_dims", getOffsetDims()},
       {"collapsed_slice_dims", getCollapsedSliceDims()},
       {"operand_batching_dims", getOperandBatchingDims()},
       {"start_indices_batching_dims", getStartIndicesBatchingDims()},
       {"start_index_map", getStartIndexMap()},
       {"index_vector_dim", ArrayRef<int64_t>(indexVectorDim), true}});
}

Attribute ScatterDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> updateWindow, inserted, inputBatching, indicesBatching,
      toOperand;
  int64_t indexVectorDim = 0;
  DimsField fields[] = {{"update_window_dims", &updateWindow},
                        {"inserted_window_dims", &inserted},
                        {"input_batching_dims", &inputBatching},
                        {"scatter_indices_batching_dims", &indicesBatching},
                        {"scatter_dims_to_operand_dims", &toOperand},
                        {"index_vector_dim", nullptr, &indexVectorDim}};
  if (parseDimsFields(parser, fields))
    return {};
  return get(parser.getContext(), updateWindow, inserted, inputBatching,
             indicesBatching, toOperand, indexVectorDim);
}

void ScatterDimensionNumbersAttr::print(AsmPrinter &printer) const {
  int64_t indexVectorDim = getIndexVectorDim();
  printDimsFields(
      printer,
      {{"update_window_dims", getUpdateWindowDims()},
       {"inserted_window_dims", getInsertedWindowDims()},
       {"input_batching_dims", getInputBatchingDims()},
       {"scatter_indices_batching_dims", getScatterIndicesBatchingDims()},
       {"scatter_dims_to_operand_dims", getScatterDimsToOperandDims()},
       {"index_vector_dim", ArrayRef<int64_t>(indexVectorDim), true}});
}

//===----------------------------------------------------------------------===//
// Convolution dimension numbers in XLA's dim_labels notation.
//===----------------------------------------------------------------------===//

namespace {
/// The labels of one of the three parts of dim_labels ("b01f", "01io").
struct LabeledDims {
  int64_t first = -1, second = -1; // b/f or i/o
  SmallVector<int64_t> spatial;
};
} // namespace

static bool parseLabelPart(StringRef part, char firstLabel, char secondLabel,
                           LabeledDims &out, std::string &error) {
  size_t spatialCount = part.size() >= 2 ? part.size() - 2 : 0;
  if (spatialCount > 10) {
    error = "more than 10 spatial dimensions in '" + part.str() + "'";
    return false;
  }
  out.spatial.assign(spatialCount, -1);
  for (auto [pos, c] : llvm::enumerate(part)) {
    int64_t *slot = nullptr;
    if (c == firstLabel)
      slot = &out.first;
    else if (c == secondLabel)
      slot = &out.second;
    else if (c >= '0' && c <= '9' && size_t(c - '0') < spatialCount)
      slot = &out.spatial[c - '0'];
    if (!slot) {
      error = std::string("unexpected label '") + c + "' in '" + part.str() +
              "' (expected '" + firstLabel + "', '" + secondLabel +
              "' and spatial digits below " +
              std::to_string(spatialCount) + ")";
      return false;
    }
    if (*slot != -1) {
      error = std::string("label '") + c + "' appears twice in '" +
              part.str() + "'";
      return false;
    }
    *slot = pos;
  }
  return true;
}

FailureOr<ConvDimensionNumbersAttr>
ConvDimensionNumbersAttr::parseDimLabels(MLIRContext *context,
                                         StringRef labels, std::string &error) {
  auto [operands, output] = labels.split("->");
  auto [input, kernel] = operands.split('_');
  if (output.empty() || kernel.empty()) {
    error = "dim_labels '" + labels.str() +
            "' is not of the form <input>_<kernel>-><output>";
    return failure();
  }
  LabeledDims in, ker, out;
  if (!parseLabelPart(input, 'b', 'f', in, error) ||
      !parseLabelPart(kernel, 'i', 'o', ker, error) ||
      !parseLabelPart(output, 'b', 'f', out, error))
    return failure();
  if (in.spatial.size() != ker.spatial.size() ||
      in.spatial.size() != out.spatial.size()) {
    error = "dim_labels '" + labels.str() +
            "' has different numbers of spatial dimensions in its parts";
    return failure();
  }
  return get(context, in.first, in.second, in.spatial, ker.first, ker.second,
             ker.spatial, out.first, out.second, out.spatial);
}

static std::string labelString(int64_t rank, int64_t first, char firstLabel,
                               int64_t second, char secondLabel,
                               ArrayRef<int64_t> spatial) {
  std::string text(rank, '?');
  auto place = [&](int64_t pos, char c) {
    if (pos >= 0 && pos < rank)
      text[pos] = c;
  };
  place(first, firstLabel);
  place(second, secondLabel);
  for (auto [i, pos] : llvm::enumerate(spatial))
    place(pos, char('0' + i));
  return text;
}

std::string ConvDimensionNumbersAttr::getDimLabels() const {
  int64_t rank = getInputSpatial().size() + 2;
  return labelString(rank, getInputBatch(), 'b', getInputFeature(), 'f',
                     getInputSpatial()) +
         "_" +
         labelString(rank, getKernelInputFeature(), 'i',
                     getKernelOutputFeature(), 'o', getKernelSpatial()) +
         "->" +
         labelString(rank, getOutputBatch(), 'b', getOutputFeature(), 'f',
                     getOutputSpatial());
}

Attribute ConvDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  std::string labels;
  if (parser.parseLess() || parser.parseString(&labels) ||
      parser.parseGreater())
    return {};
  std::string error;
  FailureOr<ConvDimensionNumbersAttr> attr =
      parseDimLabels(parser.getContext(), labels, error);
  if (failed(attr)) {
    parser.emitError(loc, error);
    return {};
  }
  return *attr;
}

void ConvDimensionNumbersAttr::print(AsmPrinter &printer) const {
  printer << "<\"" << getDimLabels() << "\">";
}
