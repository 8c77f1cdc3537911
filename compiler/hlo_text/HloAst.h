//===- HloAst.h - Plain C++ AST of XLA's HLO text format --------*- C++ -*-===//
//
// What `parseHloModule` returns: the module exactly as written, with every
// node located (1-based line:column of the file). Opcodes are kept as
// strings; attributes are kept in order with their raw source text, plus a
// structured form for the ones whose syntax is known (see AttrKind). The
// emitter decides what is supported; this layer only checks that the text is
// well formed and that names resolve.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_HLO_TEXT_HLOAST_H
#define TPUC_COMPILER_HLO_TEXT_HLOAST_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tpuc::hlo_text {

/// 1-based position in the parsed buffer (column counts bytes).
struct Loc {
  uint32_t line = 0;
  uint32_t column = 0;
};

enum class ElementType : uint8_t {
  Invalid,
  Pred,
  S1, S2, S4, S8, S16, S32, S64,
  U1, U2, U4, U8, U16, U32, U64,
  F16, BF16, F32, F64,
  F8E5M2, F8E4M3, F8E4M3FN, F8E4M3B11FNUZ, F8E5M2FNUZ, F8E4M3FNUZ, F8E3M4,
  F4E2M1FN, F8E8M0FNU,
  C64, C128,
  Token,
  Opaque,
  Tuple,
};

/// XLA's spelling ("f32", "bf16", "pred", "token", ...; "tuple" for Tuple).
llvm::StringRef elementTypeName(ElementType type);
/// The element type spelled `name`; nullopt for anything else (and "tuple",
/// which the text format never spells out).
std::optional<ElementType> parseElementType(llvm::StringRef name);
bool isFloatType(ElementType type);   // f16 bf16 f32 f64 and the f8/f4 types
bool isSignedType(ElementType type);  // s1..s64
bool isUnsignedType(ElementType type);// u1..u64
bool isComplexType(ElementType type); // c64 c128
/// Bits per element of a signed/unsigned integer type, else 0.
int integerBitWidth(ElementType type);

/// A '?' (unbounded dynamic) dimension.
constexpr int64_t kUnboundedDim = -1;
/// A '*' tile dimension (XLA's Tile::kCombineDimension).
constexpr int64_t kCombineTileDim = std::numeric_limits<int64_t>::min();

struct SplitConfig {
  int64_t dimension = 0;
  std::vector<int64_t> splitIndices;
};

/// `{minor_to_major:D(...)T(...)...L(n)#(type)*(type)E(n)S(n)SC(...)P(...)M(n)}`
struct Layout {
  std::vector<int64_t> minorToMajor;
  std::vector<std::string> dimLevelTypes;   // D(D,C+,S~): each as written
  std::vector<std::vector<int64_t>> tiles;  // T(8,128)(2,1) -> {{8,128},{2,1}}
  int64_t tailPaddingAlignment = 1;         // L(n)
  ElementType indexType = ElementType::Invalid;   // #(u32)
  ElementType pointerType = ElementType::Invalid; // *(u32)
  int64_t elementSizeInBits = 0;            // E(n)
  int64_t memorySpace = 0;                  // S(n)
  std::vector<SplitConfig> splitConfigs;    // SC(d:i,j)...
  std::string physicalShape;                // P(shape), as written
  int64_t dynamicShapeMetadataPrefixBytes = 0; // M(n)
};

struct Shape {
  ElementType elementType = ElementType::Invalid;
  std::vector<int64_t> dims;        // kUnboundedDim for '?'
  std::vector<bool> dynamicDims;    // '<=N' or '?'
  std::optional<Layout> layout;     // absent when not written
  std::vector<Shape> tupleElements; // elementType == Tuple
  Loc loc;

  bool isTuple() const { return elementType == ElementType::Tuple; }
  int64_t rank() const { return static_cast<int64_t>(dims.size()); }
  bool isDynamic() const;
  /// XLA's spelling, with the layout when present: "f32[2,<=3]{1,0:T(8,128)}".
  std::string toString() const;
};

/// One element of a constant.
struct LiteralValue {
  enum class Kind : uint8_t { Int, UInt, Float, Bool, Complex };
  Kind kind = Kind::Int;
  int64_t intValue = 0;   // Int (also set for Bool: 0/1)
  uint64_t uintValue = 0; // UInt: an integer above INT64_MAX
  double floatValue = 0;  // Float; real part of Complex
  double imagValue = 0;   // Complex
  bool boolValue = false; // Bool
};

struct Literal {
  enum class Kind : uint8_t {
    Array,  ///< `values` in row-major order, one per element of the shape
    Tuple,  ///< `tupleElements`
    Elided, ///< written as {...}: the values were not printed
  };
  Kind kind = Kind::Array;
  std::vector<LiteralValue> values;
  std::vector<Literal> tupleElements;
  Loc loc;
};

/// One dimension of `window={size=.. stride=.. pad=.. lhs_dilate=..
/// rhs_dilate=.. rhs_reversal=..}`, with XLA's defaults for absent fields.
struct WindowDim {
  int64_t size = 0;
  int64_t stride = 1;
  int64_t padLow = 0;
  int64_t padHigh = 0;
  int64_t lhsDilation = 1;
  int64_t rhsDilation = 1;
  bool reversal = false;
};

/// One dimension of `padding=low_high[_interior]x...` (the pad op).
struct PadDim {
  int64_t low = 0;
  int64_t high = 0;
  int64_t interior = 0;
};

/// One `[start:limit(:stride)]` of `slice={...}`.
struct SliceRange {
  int64_t start = 0;
  int64_t limit = 0;
  int64_t stride = 1;
};

/// `dim_labels=b01f_01io->b01f`: positions of each labelled dimension
/// (spatial vectors are indexed by spatial number: '0', '1', ...).
struct ConvDimLabels {
  int64_t inputBatch = -1, inputFeature = -1;
  std::vector<int64_t> inputSpatial;
  int64_t kernelInputFeature = -1, kernelOutputFeature = -1;
  std::vector<int64_t> kernelSpatial;
  int64_t outputBatch = -1, outputFeature = -1;
  std::vector<int64_t> outputSpatial;
};

using StringPairs = std::vector<std::pair<std::string, std::string>>;

/// `metadata={op_type="..." op_name="..." source_file="..." source_line=42}`.
struct OpMetadata {
  std::string opType, opName, sourceFile, deduplicatedName, schedulingName;
  std::optional<int64_t> sourceLine, sourceEndLine, sourceColumn,
      sourceEndColumn, stackFrameId;
  std::vector<int64_t> profileType;
  StringPairs other; // unknown fields: key and raw value text
};

/// Which structured field of an Attribute is set. Every attribute also keeps
/// `raw`, the exact text of its value.
enum class AttrKind : uint8_t {
  Raw,            ///< only `raw` (e.g. sharding, a backend_config dict)
  Int,            ///< intValue: index=0, k=10, feature_group_count=256
  Float,          ///< floatValue
  Bool,           ///< boolValue: is_stable=true
  Identifier,     ///< stringValue: direction=LT, kind=kLoop, a bare %name
  String,         ///< stringValue (unescaped): custom_call_target="foo"
  IntList,        ///< ints: dimensions={0,1}, {} and 1x2x3 forms
  IntListList,    ///< intLists: replica_groups={{0,1},{2,3}}
  Names,          ///< names: to_apply=, calls=, branch_computations={..},
                  ///< control-predecessors={..}, operand_precision={..}
  Window,         ///< window
  Padding,        ///< padding
  Slice,          ///< slices
  DimLabels,      ///< dimLabels
  Metadata,       ///< metadata
  StringMap,      ///< stringMap: frontend_attributes={k="v",...}
};

struct Attribute {
  std::string key;
  std::string raw;
  Loc loc;      // of the key
  Loc valueLoc; // of the value
  AttrKind kind = AttrKind::Raw;

  int64_t intValue = 0;
  double floatValue = 0;
  bool boolValue = false;
  std::string stringValue;
  std::vector<int64_t> ints;
  std::vector<std::vector<int64_t>> intLists;
  std::vector<std::string> names;
  std::vector<WindowDim> window;
  std::vector<PadDim> padding;
  std::vector<SliceRange> slices;
  ConvDimLabels dimLabels;
  OpMetadata metadata;
  StringPairs stringMap;
};

struct Operand {
  std::string name;           // without '%'
  std::optional<Shape> shape; // when written before the name
  Loc loc;
};

struct Instruction {
  std::string name; // without '%'
  Loc loc;
  bool isRoot = false; // written with ROOT (or the implicit last-one root)
  Shape shape;
  std::string opcode; // "add", "custom-call", "all-reduce-start", ...
  Loc opcodeLoc;
  std::vector<Operand> operands;
  std::optional<int64_t> parameterNumber; // parameter(N)
  std::optional<Literal> literal;         // constant(...)
  std::vector<Attribute> attributes;

  const Attribute *attr(llvm::StringRef key) const;
  /// The parsed metadata={...}, if present.
  const OpMetadata *metadata() const;
};

struct Parameter {
  std::string name;
  Shape shape;
  Loc loc;
};

struct Computation {
  std::string name; // without '%'
  Loc loc;
  bool isEntry = false;
  /// `(p: shape, ...) -> shape` when written.
  bool hasSignature = false;
  std::vector<Parameter> signatureParams;
  Shape signatureResult;
  std::vector<Instruction> instructions; // in text order
  size_t rootIndex = 0;
  std::vector<Attribute> attributes; // after '}', e.g. execution_thread="x"

  const Instruction &root() const { return instructions[rootIndex]; }
  const Instruction *findInstruction(llvm::StringRef name) const;

  llvm::StringMap<size_t> instructionIndex; // name -> index
};

/// `{1}: (0, {}, may-alias)` in input_output_alias.
struct InputOutputAlias {
  std::vector<int64_t> outputIndex;
  int64_t parameterNumber = 0;
  std::vector<int64_t> parameterIndex;
  std::string kind = "may-alias"; // or "must-alias"
  Loc loc;
};

/// `(0, {})` in buffer_donor.
struct BufferDonor {
  int64_t parameterNumber = 0;
  std::vector<int64_t> parameterIndex;
  Loc loc;
};

/// entry_computation_layout={(p0, p1, ...)->result}
struct ComputationLayout {
  std::vector<Shape> parameters;
  Shape result;
};

/// The FileNames / FunctionNames / FileLocations / StackFrames tables newer
/// XLA prints after the header; ids in the text are 1-based.
struct StackFrameIndex {
  struct FileLocation {
    int64_t fileNameId = 0, functionNameId = 0, line = 0, endLine = 0,
            column = 0, endColumn = 0;
  };
  struct StackFrame {
    int64_t fileLocationId = 0;
    int64_t parentFrameId = 0; // as printed: 1 + parent id (so 1 = none)
  };
  std::vector<std::string> fileNames;
  std::vector<std::string> functionNames;
  std::vector<FileLocation> fileLocations;
  std::vector<StackFrame> stackFrames;
};

/// Where a stack frame points in the framework's source.
struct SourceLocation {
  std::string file;
  std::string function;
  int64_t line = 0;
  int64_t column = 0;
};

struct Module {
  std::string name;
  Loc loc;
  /// Every header attribute in order (raw and structured, as Attribute).
  std::vector<Attribute> attributes;
  std::optional<ComputationLayout> entryComputationLayout;
  std::vector<InputOutputAlias> inputOutputAliases;
  std::vector<BufferDonor> bufferDonors;
  StringPairs frontendAttributes;
  bool isScheduled = false;
  StackFrameIndex stackFrameIndex;
  std::vector<Computation> computations; // in text order
  size_t entryIndex = 0; // the ENTRY one, else the last (as XLA)

  const Computation &entry() const { return computations[entryIndex]; }
  const Computation *findComputation(llvm::StringRef name) const;
  const Attribute *attr(llvm::StringRef key) const;
  /// The innermost frame of metadata's stack_frame_id, if it resolves.
  std::optional<SourceLocation> sourceLocation(int64_t stackFrameId) const;

  llvm::StringMap<size_t> computationIndex; // name -> index
};

} // namespace tpuc::hlo_text

#endif // TPUC_COMPILER_HLO_TEXT_HLOAST_H
