//===- HloDialect.td - the hlo dialect, its enums and attributes -*- tablegen -*-===//
//
// The graph-level dialect of tpuc: XLA HLO's op set and semantics on MLIR
// tensors. Computations are func.func; HLO's parameter(i) is argument i.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_DIALECTS_HLO_HLODIALECT_TD
#define TPUC_DIALECTS_HLO_HLODIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Hlo_Dialect : Dialect {
  let name = "hlo";
  let cppNamespace = "::tpuc::hlo";
  let summary = "XLA HLO operations on tensors";
  let description = [{
    The `hlo` dialect models XLA's HLO instruction set with XLA's semantics
    on statically shaped tensors. A computation is a `func.func`; HLO's
    `parameter(i)` is the function's argument `i` and its ROOT is the
    operand of `func.return`. Computations that XLA passes by name
    (`to_apply`, `condition`, `body`, comparators, branches) are regions
    of the op that uses them, terminated by `hlo.return`; regions receive
    rank-0 tensors where XLA's computations receive scalars.

    Element types map as XLA's: `pred` is `i1`, `sN` is the signless
    `iN`, `uN` is `uiN`, and `f16`/`bf16`/`f32`/`f64` are themselves.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  // Patterns that match any hlo op (HloOps.cpp ElementwiseOnRowVector).
  let hasCanonicalizer = 1;
  // `hlo.sharding` (ops, arguments, results) and the module's
  // `hlo.num_partitions` / `hlo.replica_count` are checked (docs/spmd.md).
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Hlo_ComparisonDirection : I32EnumAttr<"ComparisonDirection",
    "the comparison a compare op makes", [
      I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>,
      I32EnumAttrCase<"GE", 2>, I32EnumAttrCase<"GT", 3>,
      I32EnumAttrCase<"LE", 4>, I32EnumAttrCase<"LT", 5>]> {
  let cppNamespace = "::tpuc::hlo";
  let genSpecializedAttr = 0;
}
def Hlo_ComparisonDirectionAttr
    : EnumAttr<Hlo_Dialect, Hlo_ComparisonDirection, "comparison_direction"> {
  let assemblyFormat = "$value";
}

def Hlo_ComparisonType : I32EnumAttr<"ComparisonType",
    "how a compare op orders its operands (XLA's Comparison::Type)", [
      I32EnumAttrCase<"FLOAT", 0>, I32EnumAttrCase<"TOTALORDER", 1>,
      I32EnumAttrCase<"SIGNED", 2>, I32EnumAttrCase<"UNSIGNED", 3>]> {
  let cppNamespace = "::tpuc::hlo";
  let genSpecializedAttr = 0;
}
def Hlo_ComparisonTypeAttr
    : EnumAttr<Hlo_Dialect, Hlo_ComparisonType, "comparison_type"> {
  let assemblyFormat = "$value";
}

def Hlo_Precision : I32EnumAttr<"Precision",
    "the precision of one operand of a dot or convolution", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"HIGH", 1>,
      I32EnumAttrCase<"HIGHEST", 2>]> {
  let cppNamespace = "::tpuc::hlo";
  let genSpecializedAttr = 0;
}
def Hlo_PrecisionAttr : EnumAttr<Hlo_Dialect, Hlo_Precision, "precision"> {
  let assemblyFormat = "$value";
}
def Hlo_PrecisionConfigAttr : TypedArrayAttrBase<Hlo_PrecisionAttr,
    "per-operand precision config"> {}

def Hlo_RngAlgorithm : I32EnumAttr<"RngAlgorithm",
    "the bit generator of an rng_bit_generator (XLA's RandomAlgorithm)", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"THREE_FRY", 1>,
      I32EnumAttrCase<"PHILOX", 2>]> {
  let cppNamespace = "::tpuc::hlo";
  let genSpecializedAttr = 0;
}
def Hlo_RngAlgorithmAttr
    : EnumAttr<Hlo_Dialect, Hlo_RngAlgorithm, "rng_algorithm"> {
  let assemblyFormat = "$value";
}

def Hlo_RngDistribution : I32EnumAttr<"RngDistribution",
    "the distribution of an rng (XLA's RandomDistribution)", [
      I32EnumAttrCase<"UNIFORM", 1>, I32EnumAttrCase<"NORMAL", 2>]> {
  let cppNamespace = "::tpuc::hlo";
  let genSpecializedAttr = 0;
}
def Hlo_RngDistributionAttr
    : EnumAttr<Hlo_Dialect, Hlo_RngDistribution, "rng_distribution"> {
  let assemblyFormat = "$value";
}

def Hlo_FusionKind : I32EnumAttr<"FusionKind",
    "the kind of a fusion, as XLA's kLoop/kInput/kOutput/kCustom", [
      I32EnumAttrCase<"loop", 0>, I32EnumAttrCase<"input", 1>,
      I32EnumAttrCase<"output", 2>, I32EnumAttrCase<"custom", 3>]> {
  let cppNamespace = "::tpuc::hlo";
  let genSpecializedAttr = 0;
}
def Hlo_FusionKindAttr : EnumAttr<Hlo_Dialect, Hlo_FusionKind, "fusion_kind"> {
  let assemblyFormat = "$value";
}

//===----------------------------------------------------------------------===//
def Hlo_AliasKind : I32EnumAttr<"AliasKind",
    "whether an input_output_alias may or must share the buffer "
    "(XLA's kMayAlias / kMustAlias)", [
      I32EnumAttrCase<"may_alias", 0>, I32EnumAttrCase<"must_alias", 1>]> {
  let cppNamespace = "::tpuc::hlo";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Dimension-number attributes
//===----------------------------------------------------------------------===//

class Hlo_Attr<string name, string attrMnemonic> : AttrDef<Hlo_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def Hlo_DotDimensionNumbersAttr : Hlo_Attr<"DotDimensionNumbers", "dot"> {
  let summary = "batch and contracting dimensions of a dot_general";
  let description = [{
    XLA's DotDimensionNumbers. Lists that are empty are not printed.

    ```mlir
    #hlo.dot<lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$lhsBatch,
    ArrayRefParameter<"int64_t">:$rhsBatch,
    ArrayRefParameter<"int64_t">:$lhsContracting,
    ArrayRefParameter<"int64_t">:$rhsContracting);
  let hasCustomAssemblyFormat = 1;
}

def Hlo_ConvDimensionNumbersAttr : Hlo_Attr<"ConvDimensionNumbers", "conv"> {
  let summary = "dimension numbers of a convolution, in XLA's dim_labels notation";
  let description = [{
    Printed as XLA's `dim_labels` string: the input, kernel and output
    labels, where `b`/`f` are the input batch/feature dimensions, `i`/`o`
    the kernel input/output feature dimensions, and digits the spatial
    dimensions in order.

    ```mlir
    #hlo.conv<"b01f_01io->b01f">
    ```
  }];
  let parameters = (ins
    "int64_t":$inputBatch,
    "int64_t":$inputFeature,
    ArrayRefParameter<"int64_t">:$inputSpatial,
    "int64_t":$kernelInputFeature,
    "int64_t":$kernelOutputFeature,
    ArrayRefParameter<"int64_t">:$kernelSpatial,
    "int64_t":$outputBatch,
    "int64_t":$outputFeature,
    ArrayRefParameter<"int64_t">:$outputSpatial);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// Parses XLA's dim_labels (e.g. "b01f_01io->b01f").
    static ::mlir::FailureOr<ConvDimensionNumbersAttr>
    parseDimLabels(::mlir::MLIRContext *context, ::llvm::StringRef labels,
                   std::string &error);
    /// Prints XLA's dim_labels.
    std::string getDimLabels() const;
  }];
}

def Hlo_GatherDimensionNumbersAttr : Hlo_Attr<"GatherDimensionNumbers", "gather"> {
  let summary = "dimension numbers of a gather";
  let description = [{
    XLA's GatherDimensionNumbers. Empty lists are not printed.

    ```mlir
    #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$offsetDims,
    ArrayRefParameter<"int64_t">:$collapsedSliceDims,
    ArrayRefParameter<"int64_t">:$operandBatchingDims,
    ArrayRefParameter<"int64_t">:$startIndicesBatchingDims,
    ArrayRefParameter<"int64_t">:$startIndexMap,
    "int64_t":$indexVectorDim);
  let hasCustomAssemblyFormat = 1;
}

def Hlo_ScatterDimensionNumbersAttr : Hlo_Attr<"ScatterDimensionNumbers", "scatter"> {
  let summary = "dimension numbers of a scatter";
  let description = [{
    XLA's ScatterDimensionNumbers. Empty lists are not printed.

    ```mlir
    #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$updateWindowDims,
    ArrayRefParameter<"int64_t">:$insertedWindowDims,
    ArrayRefParameter<"int64_t">:$inputBatchingDims,
    ArrayRefParameter<"int64_t">:$scatterIndicesBatchingDims,
    ArrayRefParameter<"int64_t">:$scatterDimsToOperandDims,
    "int64_t":$indexVectorDim);
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// Module attributes
//===----------------------------------------------------------------------===//

def Hlo_InputOutputAliasAttr : Hlo_Attr<"InputOutputAlias", "alias"> {
  let summary = "one entry of XLA's input_output_alias (buffer donation)";
  let description = [{
    The module attribute `hlo.input_output_alias` is an array of these, one
    per entry of the HLO module header's `input_output_alias={ {1}: (0, {},
    may-alias) }`: the entry function's output at `output_index` is written
    into the buffer of parameter `parameter_number` at `parameter_index`.
    The entry's tuple ROOT is flattened into its results, so `output_index`
    is `[]` (the one result) or `[i]` (result `i`); empty lists are not
    printed.

    ```mlir
    module attributes {hlo.input_output_alias = [
        #hlo.alias<output_index = [1], parameter_number = 0, kind = may_alias>]} {
    ```

    The dialect verifies the array on the module: every index names a
    result and a parameter of the entry function, their types are equal,
    and no output and no parameter is aliased twice. Passes read it through
    `hlo::getInputOutputAliases` (dialects/hlo/HloDialect.h).
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$outputIndex,
    "int64_t":$parameterNumber,
    ArrayRefParameter<"int64_t">:$parameterIndex,
    "AliasKind":$kind);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// The entry result this alias writes: `output_index` is `[]` or `[i]`
    /// (the verifier allows no deeper index, the entry's results being flat).
    unsigned getResultNumber() const {
      return getOutputIndex().empty() ? 0 : getOutputIndex().front();
    }
    /// Whether the whole parameter (not a tuple element of it) is aliased.
    bool isWholeParameter() const { return getParameterIndex().empty(); }
  }];
}

#endif // TPUC_DIALECTS_HLO_HLODIALECT_TD
