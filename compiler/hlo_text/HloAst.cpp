//===- HloAst.cpp - Helpers of the HLO text AST ---------------------------===//

#include "compiler/hlo_text/HloAst.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace tpuc::hlo_text;
using llvm::StringRef;

namespace {
struct TypeName {
  ElementType type;
  const char *name;
};

constexpr TypeName kTypeNames[] = {
    {ElementType::Pred, "pred"},
    {ElementType::S1, "s1"},
    {ElementType::S2, "s2"},
    {ElementType::S4, "s4"},
    {ElementType::S8, "s8"},
    {ElementType::S16, "s16"},
    {ElementType::S32, "s32"},
    {ElementType::S64, "s64"},
    {ElementType::U1, "u1"},
    {ElementType::U2, "u2"},
    {ElementType::U4, "u4"},
    {ElementType::U8, "u8"},
    {ElementType::U16, "u16"},
    {ElementType::U32, "u32"},
    {ElementType::U64, "u64"},
    {ElementType::F16, "f16"},
    {ElementType::BF16, "bf16"},
    {ElementType::F32, "f32"},
    {ElementType::F64, "f64"},
    {ElementType::F8E5M2, "f8e5m2"},
    {ElementType::F8E4M3, "f8e4m3"},
    {ElementType::F8E4M3FN, "f8e4m3fn"},
    {ElementType::F8E4M3B11FNUZ, "f8e4m3b11fnuz"},
    {ElementType::F8E5M2FNUZ, "f8e5m2fnuz"},
    {ElementType::F8E4M3FNUZ, "f8e4m3fnuz"},
    {ElementType::F8E3M4, "f8e3m4"},
    {ElementType::F4E2M1FN, "f4e2m1fn"},
    {ElementType::F8E8M0FNU, "f8e8m0fnu"},
    {ElementType::C64, "c64"},
    {ElementType::C128, "c128"},
    {ElementType::Token, "token"},
    {ElementType::Opaque, "opaque"},
};

void printInts(llvm::raw_ostream &os, const std::vector<int64_t> &values) {
  llvm::interleave(
      values, os,
      [&](int64_t v) {
        if (v == kCombineTileDim)
          os << '*';
        else
          os << v;
      },
      ",");
}
} // namespace

StringRef tpuc::hlo_text::elementTypeName(ElementType type) {
  if (type == ElementType::Tuple)
    return "tuple";
  for (const TypeName &entry : kTypeNames)
    if (entry.type == type)
      return entry.name;
  return "invalid";
}

std::optional<ElementType> tpuc::hlo_text::parseElementType(StringRef name) {
  for (const TypeName &entry : kTypeNames)
    if (name == entry.name)
      return entry.type;
  return std::nullopt;
}

bool tpuc::hlo_text::isFloatType(ElementType type) {
  return type >= ElementType::F16 && type <= ElementType::F8E8M0FNU;
}

bool tpuc::hlo_text::isSignedType(ElementType type) {
  return type >= ElementType::S1 && type <= ElementType::S64;
}

bool tpuc::hlo_text::isUnsignedType(ElementType type) {
  return type >= ElementType::U1 && type <= ElementType::U64;
}

bool tpuc::hlo_text::isComplexType(ElementType type) {
  return type == ElementType::C64 || type == ElementType::C128;
}

int tpuc::hlo_text::integerBitWidth(ElementType type) {
  static constexpr int kWidths[] = {1, 2, 4, 8, 16, 32, 64};
  if (isSignedType(type))
    return kWidths[static_cast<int>(type) - static_cast<int>(ElementType::S1)];
  if (isUnsignedType(type))
    return kWidths[static_cast<int>(type) - static_cast<int>(ElementType::U1)];
  return 0;
}

bool Shape::isDynamic() const {
  if (isTuple())
    return llvm::any_of(tupleElements,
                        [](const Shape &s) { return s.isDynamic(); });
  return llvm::is_contained(dynamicDims, true);
}

std::string Shape::toString() const {
  std::string out;
  llvm::raw_string_ostream os(out);
  if (isTuple()) {
    os << '(';
    llvm::interleave(
        tupleElements, os, [&](const Shape &s) { os << s.toString(); }, ", ");
    os << ')';
    return out;
  }
  os << elementTypeName(elementType) << '[';
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      os << ',';
    if (dims[i] == kUnboundedDim)
      os << '?';
    else
      os << (dynamicDims[i] ? "<=" : "") << dims[i];
  }
  os << ']';
  if (!layout)
    return out;
  const Layout &l = *layout;
  os << '{';
  printInts(os, l.minorToMajor);
  bool hasSuffix = !l.dimLevelTypes.empty() || !l.tiles.empty() ||
                   l.tailPaddingAlignment != 1 ||
                   l.indexType != ElementType::Invalid ||
                   l.pointerType != ElementType::Invalid ||
                   l.elementSizeInBits || l.memorySpace ||
                   !l.splitConfigs.empty() || !l.physicalShape.empty() ||
                   l.dynamicShapeMetadataPrefixBytes;
  if (hasSuffix) {
    os << ':';
    if (!l.dimLevelTypes.empty())
      os << "D(" << llvm::join(l.dimLevelTypes, ",") << ')';
    if (!l.tiles.empty()) {
      os << 'T';
      for (const std::vector<int64_t> &tile : l.tiles) {
        os << '(';
        printInts(os, tile);
        os << ')';
      }
    }
    if (l.tailPaddingAlignment != 1)
      os << "L(" << l.tailPaddingAlignment << ')';
    if (l.indexType != ElementType::Invalid)
      os << "#(" << elementTypeName(l.indexType) << ')';
    if (l.pointerType != ElementType::Invalid)
      os << "*(" << elementTypeName(l.pointerType) << ')';
    if (l.elementSizeInBits)
      os << "E(" << l.elementSizeInBits << ')';
    if (l.memorySpace)
      os << "S(" << l.memorySpace << ')';
    if (!l.splitConfigs.empty()) {
      os << "SC";
      for (const SplitConfig &config : l.splitConfigs) {
        os << '(' << config.dimension << ':';
        printInts(os, config.splitIndices);
        os << ')';
      }
    }
    if (!l.physicalShape.empty())
      os << "P(" << l.physicalShape << ')';
    if (l.dynamicShapeMetadataPrefixBytes)
      os << "M(" << l.dynamicShapeMetadataPrefixBytes << ')';
  }
  os << '}';
  return out;
}

static const Attribute *findAttr(const std::vector<Attribute> &attributes,
                                 StringRef key) {
  for (const Attribute &attribute : attributes)
    if (attribute.key == key)
      return &attribute;
  return nullptr;
}

const Attribute *Instruction::attr(StringRef key) const {
  return findAttr(attributes, key);
}

const OpMetadata *Instruction::metadata() const {
  const Attribute *attribute = attr("metadata");
  return attribute && attribute->kind == AttrKind::Metadata
             ? &attribute->metadata
             : nullptr;
}

const Instruction *Computation::findInstruction(StringRef name) const {
  auto it = instructionIndex.find(name);
  return it == instructionIndex.end() ? nullptr : &instructions[it->second];
}

const Computation *Module::findComputation(StringRef name) const {
  auto it = computationIndex.find(name);
  return it == computationIndex.end() ? nullptr : &computations[it->second];
}

const Attribute *Module::attr(StringRef key) const {
  return findAttr(attributes, key);
}

std::optional<SourceLocation> Module::sourceLocation(int64_t frameId) const {
  const StackFrameIndex &index = stackFrameIndex;
  auto at = [](const auto &table, int64_t id) -> decltype(&table[0]) {
    if (id < 1 || id > static_cast<int64_t>(table.size()))
      return nullptr;
    return &table[id - 1];
  };
  const auto *frame = at(index.stackFrames, frameId);
  if (!frame)
    return std::nullopt;
  const auto *location = at(index.fileLocations, frame->fileLocationId);
  if (!location)
    return std::nullopt;
  SourceLocation result;
  if (const std::string *file = at(index.fileNames, location->fileNameId))
    result.file = *file;
  if (const std::string *function =
          at(index.functionNames, location->functionNameId))
    result.function = *function;
  result.line = location->line;
  result.column = location->column;
  return result;
}
