//===- HloDialect.cpp - the hlo dialect and its attributes ----------------===//

#include "dialects/hlo/HloDialect.h"
#include "dialects/hlo/HloOps.h"
#include "dialects/hlo/Sharding.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

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

LogicalResult HloDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName();
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
/// scalar `name = N`. Empty lists are not printed; scalars are required.
struct DimsField {
  StringRef name;
  SmallVector<int64_t> *list = nullptr;
  int64_t *scalar = nullptr;
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
    if (field.scalar && !field.seen)
      return parser.emitError(parser.getCurrentLocation(), "missing field '")
             << field.name << "'";
  return success();
}

namespace {
struct PrintedField {
  StringRef name;
  ArrayRef<int64_t> values;
  bool scalar = false;
};
} // namespace

static void printDimsFields(AsmPrinter &printer,
                            ArrayRef<PrintedField> fields) {
  printer << "<";
  bool first = true;
  for (const PrintedField &field : fields) {
    if (!field.scalar && field.values.empty())
      continue;
    if (!first)
      printer << ", ";
    first = false;
    printer << field.name << " = ";
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
