//===- HloParser.cpp - Parse XLA's HLO text format ------------------------===//
//
// A recursive-descent parser over the on-demand Lexer, following the grammar
// of XLA's hlo_parser.cc (as the text is printed by XLA). Every parse method
// returns false after recording the first error; nothing throws or aborts.
//
//===----------------------------------------------------------------------===//

#include "compiler/hlo_text/HloParser.h"

#include "compiler/hlo_text/HloLexer.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <tuple>

using namespace tpuc::hlo_text;
using llvm::StringRef;
using llvm::Twine;

char HloParseError::ID = 0;

void HloParseError::log(llvm::raw_ostream &os) const {
  os << bufferName << ':' << location.line << ':' << location.column << ": "
     << text;
}

std::error_code HloParseError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

namespace {

bool isOneOf(StringRef key, std::initializer_list<StringRef> keys) {
  return llvm::is_contained(keys, key);
}

bool isComputationKey(StringRef key) {
  return isOneOf(key, {"to_apply", "calls", "condition", "body",
                       "true_computation", "false_computation",
                       "branch_computations", "called_computations", "select",
                       "scatter"});
}

bool isIntListKey(StringRef key) {
  return isOneOf(
      key, {"dimensions", "dynamic_slice_sizes", "slice_sizes", "offset_dims",
            "collapsed_slice_dims", "start_index_map", "operand_batching_dims",
            "start_indices_batching_dims", "update_window_dims",
            "inserted_window_dims", "scatter_dims_to_operand_dims",
            "input_batching_dims", "scatter_indices_batching_dims",
            "lhs_batch_dims", "lhs_contracting_dims", "rhs_batch_dims",
            "rhs_contracting_dims", "fft_length", "lhs_ragged_dims",
            "rhs_group_dims"});
}

bool isIntKey(StringRef key) {
  return isOneOf(key, {"index", "iota_dimension", "index_vector_dim",
                       "feature_group_count", "batch_group_count", "k",
                       "channel_id", "exponent_bits", "mantissa_bits"});
}

bool isBoolKey(StringRef key) {
  return isOneOf(key, {"indices_are_sorted", "unique_indices", "is_stable",
                       "largest", "constrain_layout", "use_global_device_ids",
                       "is_scheduled"});
}

std::string describe(const Token &token) {
  if (token.kind == TokenKind::Eof)
    return "end of file";
  StringRef text = token.text;
  if (text.size() > 40)
    return ("'" + text.take_front(40) + "...'").str();
  return ("'" + text + "'").str();
}

/// Splits `text` on `separator` into int64 values; false on overflow.
bool splitInts(StringRef text, char separator, std::vector<int64_t> &out) {
  llvm::SmallVector<StringRef, 8> parts;
  text.split(parts, separator);
  for (StringRef part : parts) {
    int64_t value = 0;
    if (part.getAsInteger(10, value))
      return false;
    out.push_back(value);
  }
  return true;
}

class Parser {
public:
  Parser(StringRef text, StringRef bufferName)
      : lexer(text), bufferName(bufferName) {
    tok = lexer.next();
  }

  llvm::Expected<Module> run() {
    Module module;
    if (!parseModule(module))
      return llvm::make_error<HloParseError>(bufferName.str(), errorLoc,
                                             errorMessage);
    return module;
  }

private:
  //===--- Tokens and errors ---------------------------------------------===//

  void advance() {
    prevEnd = tok.offset + tok.text.size();
    tok = lexer.next();
  }

  Token peek() {
    size_t saved = lexer.position();
    Token next = lexer.next();
    lexer.reset(saved);
    return next;
  }

  bool isIdent(StringRef word) const {
    return tok.kind == TokenKind::Identifier && tok.text == word;
  }

  bool failAtLoc(Loc loc, const Twine &message) {
    if (!failed) {
      failed = true;
      errorLoc = loc;
      errorMessage = message.str();
    }
    return false;
  }

  bool failAt(size_t offset, const Twine &message) {
    return failAtLoc(lexer.locOf(offset), message);
  }

  /// "expected X, found Y" at the current token (or the lexer's error).
  bool failHere(const Twine &expected) {
    if (tok.kind == TokenKind::Error)
      return failAt(tok.offset, tok.message);
    return failAt(tok.offset, "expected " + expected + ", found " +
                                  describe(tok));
  }

  bool expect(TokenKind kind, const Twine &what) {
    if (tok.kind != kind)
      return failHere(what);
    advance();
    return true;
  }

  bool consumeIf(TokenKind kind) {
    if (tok.kind != kind)
      return false;
    advance();
    return true;
  }

  /// Consumes a balanced {...} verbatim (the current token is its '{').
  bool skipBalancedBraces() {
    std::string message;
    size_t end = lexer.scanBalancedBraces(tok.offset, message);
    if (!end)
      return failAt(tok.offset, message);
    lexer.reset(end);
    prevEnd = end;
    tok = lexer.next();
    return true;
  }

  struct DepthGuard {
    explicit DepthGuard(unsigned &depth) : depth(depth) { ++depth; }
    ~DepthGuard() { --depth; }
    bool tooDeep() const { return depth > kMaxNestingDepth; }
    unsigned &depth;
  };

  bool failTooDeep() {
    return failAt(tok.offset, "nesting is deeper than " +
                                  Twine(kMaxNestingDepth) + " levels");
  }

  //===--- Numbers ---------------------------------------------------------===//

  bool parseInt(int64_t &out, const Twine &what) {
    if (tok.kind != TokenKind::Int)
      return failHere(what);
    if (tok.text.getAsInteger(10, out))
      return failAt(tok.offset,
                    "integer " + tok.text + " does not fit in 64 bits");
    advance();
    return true;
  }

  bool parseNonNegative(int64_t &out, const Twine &what) {
    size_t offset = tok.offset;
    if (!parseInt(out, what))
      return false;
    if (out < 0)
      return failAt(offset, "expected " + what + ", found " + Twine(out));
    return true;
  }

  /// `{` int (`,` int)* `}`, possibly empty.
  bool parseIntList(std::vector<int64_t> &out, const Twine &what) {
    if (!expect(TokenKind::LBrace, "'{' to start " + what))
      return false;
    if (tok.kind != TokenKind::RBrace) {
      do {
        int64_t value = 0;
        if (!parseInt(value, "an integer in " + what))
          return false;
        out.push_back(value);
      } while (consumeIf(TokenKind::Comma));
    }
    return expect(TokenKind::RBrace, "'}' to end " + what);
  }

  /// Pad and DxD tokens: validated by the lexer, so only overflow can fail.
  bool splitToken(char separator, std::vector<int64_t> &out) {
    if (!splitInts(tok.text, separator, out))
      return failAt(tok.offset,
                    "integer in " + tok.text + " does not fit in 64 bits");
    advance();
    return true;
  }

  bool parseDouble(double &out) {
    StringRef text = tok.text;
    if (tok.kind == TokenKind::Int) {
      out = std::strtod(text.str().c_str(), nullptr);
    } else if (tok.kind == TokenKind::Float ||
               tok.kind == TokenKind::Identifier) {
      bool negative = text.consume_front("-");
      if (text == "inf") {
        out = INFINITY;
      } else if (text.starts_with("nan")) {
        out = NAN;
      } else if (tok.kind == TokenKind::Float) {
        errno = 0;
        out = std::strtod(text.str().c_str(), nullptr);
        if (errno == ERANGE && std::isinf(out))
          return failAt(tok.offset, "floating-point constant " + tok.text +
                                        " is out of range");
      } else {
        return failHere("a number");
      }
      if (negative)
        out = -out;
    } else {
      return failHere("a number");
    }
    advance();
    return true;
  }

  //===--- Shapes ----------------------------------------------------------===//

  bool isShapeStart() {
    if (tok.kind == TokenKind::LParen)
      return true;
    return tok.kind == TokenKind::Identifier && parseElementType(tok.text) &&
           peek().kind == TokenKind::LSquare;
  }

  bool parseShape(Shape &shape) {
    DepthGuard guard(depth);
    if (guard.tooDeep())
      return failTooDeep();
    size_t start = tok.offset;
    shape.loc = lexer.locOf(start);
    if (consumeIf(TokenKind::LParen)) {
      shape.elementType = ElementType::Tuple;
      if (tok.kind != TokenKind::RParen) {
        do {
          shape.tupleElements.emplace_back();
          if (!parseShape(shape.tupleElements.back()))
            return false;
        } while (consumeIf(TokenKind::Comma));
      }
      return expect(TokenKind::RParen, "')' to end the tuple shape");
    }
    std::optional<ElementType> type;
    if (tok.kind == TokenKind::Identifier)
      type = parseElementType(tok.text);
    if (!type)
      return failHere("a shape (e.g. f32[2,3] or a tuple)");
    shape.elementType = *type;
    advance();
    if (!expect(TokenKind::LSquare, "'[' after the element type"))
      return false;
    if (tok.kind != TokenKind::RSquare) {
      do {
        bool dynamic = false;
        int64_t dim;
        if (consumeIf(TokenKind::Question)) {
          dynamic = true;
          dim = kUnboundedDim;
        } else {
          dynamic = consumeIf(TokenKind::Leq);
          if (!parseNonNegative(dim, "a dimension size"))
            return false;
        }
        shape.dims.push_back(dim);
        shape.dynamicDims.push_back(dynamic);
      } while (consumeIf(TokenKind::Comma));
    }
    if (!expect(TokenKind::RSquare, "']' to end the dimensions"))
      return false;
    if ((*type == ElementType::Token || *type == ElementType::Opaque) &&
        !shape.dims.empty())
      return failAt(start, elementTypeName(*type) + " shapes have no "
                                                    "dimensions");
    int64_t count = 1;
    for (int64_t dim : shape.dims)
      if (dim > 0 && __builtin_mul_overflow(count, dim, &count))
        return failAt(start, "shape has too many elements (more than 2^63)");
    // As in XLA, '{' starts a layout only if an integer or ':' follows;
    // otherwise it is the body of a computation.
    if (tok.kind == TokenKind::LBrace) {
      TokenKind next = peek().kind;
      if (next == TokenKind::Int || next == TokenKind::Colon) {
        shape.layout.emplace();
        return parseLayout(*shape.layout, shape);
      }
    }
    return true;
  }

  bool parseParenInt(int64_t &out, const Twine &what) {
    advance(); // the letter
    return expect(TokenKind::LParen, "'(' after the layout letter") &&
           parseInt(out, what) &&
           expect(TokenKind::RParen, "')' after " + what);
  }

  bool parseParenType(ElementType &out) {
    advance(); // '#' or '*'
    if (!expect(TokenKind::LParen, "'(' before the primitive type"))
      return false;
    std::optional<ElementType> type;
    if (tok.kind == TokenKind::Identifier)
      type = parseElementType(tok.text);
    if (!type)
      return failHere("a primitive type");
    out = *type;
    advance();
    return expect(TokenKind::RParen, "')' after the primitive type");
  }

  bool parseLayout(Layout &layout, const Shape &shape) {
    size_t start = tok.offset;
    advance(); // '{'
    if (tok.kind == TokenKind::Int) {
      do {
        int64_t dim;
        if (!parseInt(dim, "a dimension number in the layout"))
          return false;
        layout.minorToMajor.push_back(dim);
      } while (consumeIf(TokenKind::Comma));
    }
    if (consumeIf(TokenKind::Colon) && !parseLayoutSuffix(layout))
      return false;
    if (!expect(TokenKind::RBrace, "'}' to end the layout"))
      return false;
    int64_t rank = shape.rank();
    if (static_cast<int64_t>(layout.minorToMajor.size()) != rank)
      return failAt(start, "layout has " +
                               Twine(layout.minorToMajor.size()) +
                               " dimensions but the shape has rank " +
                               Twine(rank));
    std::vector<bool> seen(static_cast<size_t>(rank));
    for (int64_t dim : layout.minorToMajor) {
      if (dim < 0 || dim >= rank || seen[dim])
        return failAt(start, "layout " +
                                 lexer.buffer().slice(start, prevEnd) +
                                 " is not a permutation of the dimensions "
                                 "0.." + Twine(rank - 1));
      seen[dim] = true;
    }
    return true;
  }

  bool parseLayoutSuffix(Layout &layout) {
    if (isIdent("D")) {
      advance();
      if (!expect(TokenKind::LParen, "'(' after D"))
        return false;
      if (tok.kind != TokenKind::RParen) {
        do {
          if (!isIdent("D") && !isIdent("C") && !isIdent("S") && !isIdent("H"))
            return failHere("a dimension level type (D, C, S or H)");
          std::string levelType = tok.text.str();
          advance();
          if (consumeIf(TokenKind::Plus))
            levelType += "+";
          if (consumeIf(TokenKind::Tilde))
            levelType += "~";
          layout.dimLevelTypes.push_back(levelType);
        } while (consumeIf(TokenKind::Comma));
      }
      if (!expect(TokenKind::RParen, "')' to end the dimension level types"))
        return false;
    }
    if (isIdent("T")) {
      advance();
      if (tok.kind != TokenKind::LParen)
        return failHere("'(' to start a tile");
      while (consumeIf(TokenKind::LParen)) {
        std::vector<int64_t> &tile = layout.tiles.emplace_back();
        if (tok.kind != TokenKind::RParen) {
          do {
            if (consumeIf(TokenKind::Asterisk)) {
              tile.push_back(kCombineTileDim);
              continue;
            }
            int64_t dim;
            if (!parseInt(dim, "a tile dimension"))
              return false;
            tile.push_back(dim);
          } while (consumeIf(TokenKind::Comma));
        }
        if (!expect(TokenKind::RParen, "')' to end the tile"))
          return false;
      }
    }
    if (isIdent("L") &&
        !parseParenInt(layout.tailPaddingAlignment, "an alignment"))
      return false;
    if (tok.kind == TokenKind::Octothorp && !parseParenType(layout.indexType))
      return false;
    if (tok.kind == TokenKind::Asterisk &&
        !parseParenType(layout.pointerType))
      return false;
    if (isIdent("E") &&
        !parseParenInt(layout.elementSizeInBits, "an element size in bits"))
      return false;
    if (isIdent("S") && !parseParenInt(layout.memorySpace, "a memory space"))
      return false;
    if (isIdent("SC")) {
      advance();
      if (tok.kind != TokenKind::LParen)
        return failHere("'(' to start a split config");
      while (consumeIf(TokenKind::LParen)) {
        SplitConfig &config = layout.splitConfigs.emplace_back();
        if (!parseInt(config.dimension, "a split dimension") ||
            !expect(TokenKind::Colon, "':' after the split dimension"))
          return false;
        do {
          int64_t index;
          if (!parseInt(index, "a split index"))
            return false;
          config.splitIndices.push_back(index);
        } while (consumeIf(TokenKind::Comma));
        if (!expect(TokenKind::RParen, "')' to end the split config"))
          return false;
      }
    }
    if (isIdent("P")) {
      advance();
      if (!expect(TokenKind::LParen, "'(' after P"))
        return false;
      size_t start = tok.offset;
      Shape physical;
      if (!parseShape(physical))
        return false;
      layout.physicalShape = lexer.buffer().slice(start, prevEnd).str();
      if (!expect(TokenKind::RParen, "')' to end the physical shape"))
        return false;
    }
    if (isIdent("M") && !parseParenInt(layout.dynamicShapeMetadataPrefixBytes,
                                       "a byte count"))
      return false;
    return true;
  }

  /// `{` int (`,` int)* `}` as in input_output_alias.
  bool parseShapeIndex(std::vector<int64_t> &index) {
    return parseIntList(index, "a shape index");
  }

  //===--- Literals --------------------------------------------------------===//

  bool parseLiteral(const Shape &shape, Literal &literal) {
    DepthGuard guard(depth);
    if (guard.tooDeep())
      return failTooDeep();
    literal.loc = lexer.locOf(tok.offset);
    if (shape.isTuple()) {
      literal.kind = Literal::Kind::Tuple;
      size_t start = tok.offset;
      if (!expect(TokenKind::LParen, "'(' to start a tuple literal"))
        return false;
      for (size_t i = 0; tok.kind != TokenKind::RParen; ++i) {
        if (i && !expect(TokenKind::Comma, "',' or ')' in the tuple literal"))
          return false;
        if (i >= shape.tupleElements.size())
          return failAt(start, "tuple literal has more elements than its "
                               "shape " + shape.toString());
        // Older XLA printed each element's shape before it.
        if (isShapeStart()) {
          Shape ignored;
          if (!parseShape(ignored))
            return false;
        }
        if (!parseLiteral(shape.tupleElements[i],
                          literal.tupleElements.emplace_back()))
          return false;
      }
      if (literal.tupleElements.size() != shape.tupleElements.size())
        return failAt(start, "tuple literal has " +
                                 Twine(literal.tupleElements.size()) +
                                 " elements but its shape " +
                                 shape.toString() + " has " +
                                 Twine(shape.tupleElements.size()));
      return expect(TokenKind::RParen, "')' to end the tuple literal");
    }
    if (tok.kind == TokenKind::LBrace && peek().kind == TokenKind::Dots) {
      literal.kind = Literal::Kind::Elided;
      advance();
      advance();
      return expect(TokenKind::RBrace, "'}' after '{...'");
    }
    // One value for an array shape fills it (XLA's tests write
    // `f32[3072] constant(0.3)`).
    if (shape.rank() == 0 || tok.kind != TokenKind::LBrace)
      return parseLiteralValue(shape.elementType,
                               literal.values.emplace_back());
    return parseLiteralArray(shape, 0, literal);
  }

  bool parseLiteralArray(const Shape &shape, size_t dim, Literal &literal) {
    DepthGuard guard(depth);
    if (guard.tooDeep())
      return failTooDeep();
    size_t start = tok.offset;
    if (!expect(TokenKind::LBrace, "'{' to start dimension " + Twine(dim) +
                                       " of the literal"))
      return false;
    int64_t count = 0;
    if (tok.kind != TokenKind::RBrace) {
      do {
        bool ok = dim + 1 < shape.dims.size()
                      ? parseLiteralArray(shape, dim + 1, literal)
                      : parseLiteralValue(shape.elementType,
                                          literal.values.emplace_back());
        if (!ok)
          return false;
        ++count;
      } while (consumeIf(TokenKind::Comma));
    }
    if (!expect(TokenKind::RBrace, "'}' or ',' in the literal"))
      return false;
    if (!shape.dynamicDims[dim] && count != shape.dims[dim])
      return failAt(start, "literal has " + Twine(count) +
                               " elements in dimension " + Twine(dim) +
                               " but the shape " + shape.toString() +
                               " has " + Twine(shape.dims[dim]));
    return true;
  }

  bool parseLiteralValue(ElementType type, LiteralValue &value) {
    size_t offset = tok.offset;
    StringRef typeName = elementTypeName(type);
    if (type == ElementType::Pred) {
      value.kind = LiteralValue::Kind::Bool;
      if (isIdent("true") || isIdent("false")) {
        value.boolValue = tok.text == "true";
      } else if (tok.kind == TokenKind::Int &&
                 (tok.text == "0" || tok.text == "1")) {
        value.boolValue = tok.text == "1";
      } else {
        return failHere("true or false for a pred constant");
      }
      value.intValue = value.boolValue;
      advance();
      return true;
    }
    if (int bits = integerBitWidth(type)) {
      if (tok.kind != TokenKind::Int)
        return failHere("an integer for element type " + typeName);
      bool isUnsigned = isUnsignedType(type);
      if (!tok.text.getAsInteger(10, value.intValue)) {
        value.kind = LiteralValue::Kind::Int;
        int64_t v = value.intValue;
        bool fits =
            isUnsigned ? v >= 0 && (bits == 64 || v < (int64_t(1) << bits))
                       : bits == 64 || (v >= -(int64_t(1) << (bits - 1)) &&
                                        v < (int64_t(1) << (bits - 1)));
        if (!fits)
          return failAt(offset, "integer " + tok.text + " does not fit in " +
                                    typeName);
      } else if (type == ElementType::U64 &&
                 !tok.text.getAsInteger(10, value.uintValue)) {
        value.kind = LiteralValue::Kind::UInt;
      } else {
        return failAt(offset,
                      "integer " + tok.text + " does not fit in " + typeName);
      }
      advance();
      return true;
    }
    if (isFloatType(type)) {
      value.kind = LiteralValue::Kind::Float;
      return parseDouble(value.floatValue);
    }
    if (isComplexType(type)) {
      value.kind = LiteralValue::Kind::Complex;
      return expect(TokenKind::LParen, "'(' to start a complex value") &&
             parseDouble(value.floatValue) &&
             expect(TokenKind::Comma, "',' in the complex value") &&
             parseDouble(value.imagValue) &&
             expect(TokenKind::RParen, "')' to end the complex value");
    }
    return failAt(offset, "constants of type " + typeName +
                              " cannot be written as literals");
  }

  //===--- Attributes ------------------------------------------------------===//

  /// Parses `key=value` (the current token is the AttributeName).
  bool parseAttribute(Attribute &attr, bool inModuleHeader) {
    if (tok.kind != TokenKind::AttributeName)
      return failHere("an attribute name (like dimensions=)");
    attr.key = tok.value.str();
    attr.loc = lexer.locOf(tok.offset);
    advance();
    size_t start = tok.offset;
    attr.valueLoc = lexer.locOf(start);
    if (!parseAttributeValue(attr, inModuleHeader))
      return false;
    attr.raw = lexer.buffer().slice(start, prevEnd).str();
    return true;
  }

  bool parseAttributeValue(Attribute &attr, bool inModuleHeader) {
    StringRef key = attr.key;
    if (isIntKey(key)) {
      attr.kind = AttrKind::Int;
      return parseInt(attr.intValue, "an integer for '" + key + "'");
    }
    if (isBoolKey(key)) {
      if (!isIdent("true") && !isIdent("false"))
        return failHere("true or false for '" + key + "'");
      attr.kind = AttrKind::Bool;
      attr.boolValue = tok.text == "true";
      advance();
      return true;
    }
    if (isIntListKey(key)) {
      attr.kind = AttrKind::IntList;
      return parseIntList(attr.ints, "'" + key + "'");
    }
    if (isComputationKey(key) || key == "control-predecessors") {
      attr.kind = AttrKind::Names;
      return parseNames(attr.names, key == "control-predecessors"
                                        ? "an instruction name"
                                        : "a computation name");
    }
    if (key == "operand_precision") {
      attr.kind = AttrKind::Names;
      return parseNames(attr.names, "a precision (e.g. DEFAULT)");
    }
    if ((key == "replica_groups" || key == "source_target_pairs") &&
        tok.kind == TokenKind::LBrace)
      return parseIntListList(attr);
    if (key == "window") {
      attr.kind = AttrKind::Window;
      return parseWindow(attr.window);
    }
    if (key == "padding" && tok.kind == TokenKind::Pad) {
      attr.kind = AttrKind::Padding;
      return parsePadding(attr.padding);
    }
    if (key == "slice") {
      attr.kind = AttrKind::Slice;
      return parseSlice(attr.slices);
    }
    if (key == "dim_labels") {
      attr.kind = AttrKind::DimLabels;
      return parseDimLabels(attr.dimLabels);
    }
    if (key == "metadata" && !(tok.kind == TokenKind::LBrace &&
                               peek().kind == TokenKind::LBrace)) {
      attr.kind = AttrKind::Metadata;
      return parseMetadata(attr.metadata);
    }
    if (key == "frontend_attributes") {
      attr.kind = AttrKind::StringMap;
      return parseStringMap(attr.stringMap);
    }
    if (inModuleHeader && key == "entry_computation_layout")
      return parseComputationLayout(module->entryComputationLayout.emplace());
    if (inModuleHeader && key == "input_output_alias")
      return parseInputOutputAlias(module->inputOutputAliases);
    if (inModuleHeader && key == "buffer_donor")
      return parseBufferDonor(module->bufferDonors);
    return parseGenericValue(attr);
  }

  /// A single name, or `{` names `}` (possibly empty).
  bool parseNames(std::vector<std::string> &names, const Twine &what) {
    auto parseOne = [&] {
      if (tok.kind != TokenKind::Name && tok.kind != TokenKind::Identifier)
        return failHere(what);
      names.push_back(tok.value.str());
      advance();
      return true;
    };
    if (!consumeIf(TokenKind::LBrace))
      return parseOne();
    if (tok.kind != TokenKind::RBrace) {
      do {
        if (!parseOne())
          return false;
      } while (consumeIf(TokenKind::Comma));
    }
    return expect(TokenKind::RBrace, "'}' to end the list");
  }

  bool parseIntListList(Attribute &attr) {
    attr.kind = AttrKind::IntListList;
    advance(); // '{'
    if (tok.kind != TokenKind::RBrace) {
      do {
        if (!parseIntList(attr.intLists.emplace_back(), "a group"))
          return false;
      } while (consumeIf(TokenKind::Comma));
    }
    return expect(TokenKind::RBrace, "'}' to end the groups");
  }

  /// `{` (field=value)* `}`: calls onField with the field name (the value
  /// is the current token).
  template <typename Fn> bool parseSubAttributes(const Twine &what, Fn onField) {
    if (!expect(TokenKind::LBrace, "'{' to start " + what))
      return false;
    while (tok.kind != TokenKind::RBrace) {
      if (tok.kind != TokenKind::AttributeName)
        return failHere("a field of " + what + " (name=value) or '}'");
      std::string field = tok.value.str();
      size_t fieldOffset = tok.offset;
      advance();
      if (!onField(field, fieldOffset))
        return false;
    }
    advance();
    return true;
  }

  bool parseDxDOrInt(std::vector<int64_t> &out, StringRef field,
                     size_t fieldOffset) {
    if (!out.empty())
      return failAt(fieldOffset, "duplicate window field '" + field + "'");
    if (tok.kind == TokenKind::DxD)
      return splitToken('x', out);
    int64_t value = 0;
    if (!parseInt(value, "a number or NxM... for '" + field + "'"))
      return false;
    out.push_back(value);
    return true;
  }

  bool parseWindow(std::vector<WindowDim> &window) {
    size_t start = tok.offset;
    std::vector<int64_t> size, stride, lhsDilate, rhsDilate, reversal;
    std::vector<PadDim> pad;
    bool ok = parseSubAttributes("the window", [&](StringRef field,
                                                    size_t fieldOffset) {
      if (field == "size")
        return parseDxDOrInt(size, field, fieldOffset);
      if (field == "stride")
        return parseDxDOrInt(stride, field, fieldOffset);
      if (field == "lhs_dilate")
        return parseDxDOrInt(lhsDilate, field, fieldOffset);
      if (field == "rhs_dilate")
        return parseDxDOrInt(rhsDilate, field, fieldOffset);
      if (field == "rhs_reversal")
        return parseDxDOrInt(reversal, field, fieldOffset);
      if (field == "pad") {
        if (!pad.empty())
          return failAt(fieldOffset, "duplicate window field 'pad'");
        if (tok.kind != TokenKind::Pad)
          return failHere("a window padding like 0_0x1_1");
        size_t padOffset = tok.offset;
        if (!parsePadding(pad))
          return false;
        if (llvm::any_of(pad, [](const PadDim &d) { return d.interior; }))
          return failAt(padOffset, "window padding has no interior part");
        return true;
      }
      return failAt(fieldOffset, "unknown window field '" + field + "'");
    });
    if (!ok)
      return false;
    auto checkSize = [&](size_t count, StringRef field) {
      if (count == 0 || count == size.size())
        return true;
      return failAt(start, "window field '" + field + "' has " +
                               Twine(count) + " entries but 'size' has " +
                               Twine(size.size()));
    };
    if (!checkSize(stride.size(), "stride") || !checkSize(pad.size(), "pad") ||
        !checkSize(lhsDilate.size(), "lhs_dilate") ||
        !checkSize(rhsDilate.size(), "rhs_dilate") ||
        !checkSize(reversal.size(), "rhs_reversal"))
      return false;
    for (size_t i = 0; i < size.size(); ++i) {
      WindowDim &dim = window.emplace_back();
      dim.size = size[i];
      if (!stride.empty())
        dim.stride = stride[i];
      if (!pad.empty()) {
        dim.padLow = pad[i].low;
        dim.padHigh = pad[i].high;
      }
      if (!lhsDilate.empty())
        dim.lhsDilation = lhsDilate[i];
      if (!rhsDilate.empty())
        dim.rhsDilation = rhsDilate[i];
      if (!reversal.empty())
        dim.reversal = reversal[i] == 1;
    }
    return true;
  }

  /// low_high[_interior] x ... (a Pad token).
  bool parsePadding(std::vector<PadDim> &padding) {
    llvm::SmallVector<StringRef, 8> dims;
    tok.text.split(dims, 'x');
    for (StringRef dim : dims) {
      std::vector<int64_t> values;
      if (!splitInts(dim, '_', values))
        return failAt(tok.offset,
                      "integer in " + tok.text + " does not fit in 64 bits");
      PadDim &pad = padding.emplace_back();
      pad.low = values[0];
      pad.high = values[1];
      if (values.size() == 3)
        pad.interior = values[2];
    }
    advance();
    return true;
  }

  bool parseSlice(std::vector<SliceRange> &slices) {
    if (!expect(TokenKind::LBrace, "'{' to start the slice"))
      return false;
    if (tok.kind != TokenKind::RBrace) {
      do {
        SliceRange &range = slices.emplace_back();
        if (!expect(TokenKind::LSquare, "'[' to start a slice range") ||
            !parseInt(range.start, "the slice start") ||
            !expect(TokenKind::Colon, "':' after the slice start") ||
            !parseInt(range.limit, "the slice limit"))
          return false;
        if (consumeIf(TokenKind::Colon) &&
            !parseInt(range.stride, "the slice stride"))
          return false;
        if (!expect(TokenKind::RSquare, "']' to end the slice range"))
          return false;
      } while (consumeIf(TokenKind::Comma));
    }
    return expect(TokenKind::RBrace, "'}' to end the slice");
  }

  /// One of the three parts of dim_labels; `batch`/`feature` are the
  /// letters b,f or i,o.
  bool parseDimLabelPart(StringRef part, StringRef side, char batchLetter,
                         char featureLetter, int64_t &batch, int64_t &feature,
                         std::vector<int64_t> &spatial, size_t offset) {
    size_t spatialCount = 0;
    for (char c : part)
      if (c != batchLetter && c != featureLetter && c != '?')
        ++spatialCount;
    spatial.assign(spatialCount, -1);
    std::string seen;
    for (size_t i = 0; i < part.size(); ++i) {
      char c = part[i];
      if (c == '?')
        continue;
      if (seen.find(c) != std::string::npos)
        return failAt(offset, "dimension label '" + Twine(c) +
                                  "' appears twice in the " + side +
                                  " labels '" + part + "'");
      seen.push_back(c);
      if (c == batchLetter) {
        batch = static_cast<int64_t>(i);
      } else if (c == featureLetter) {
        feature = static_cast<int64_t>(i);
      } else if (c >= '0' && c <= '9' &&
                 static_cast<size_t>(c - '0') < spatialCount) {
        spatial[c - '0'] = static_cast<int64_t>(i);
      } else {
        return failAt(offset, "the " + side + " labels '" + part +
                                  "' use '" + Twine(c) + "', expected " +
                                  Twine(batchLetter) + ", " +
                                  Twine(featureLetter) + ", ? or a spatial "
                                  "number below " + Twine(spatialCount));
      }
    }
    return true;
  }

  bool parseDimLabels(ConvDimLabels &labels) {
    if (tok.kind != TokenKind::DimLabels)
      return failHere("dimension labels like b01f_01io->b01f");
    auto [lhs, rest] = tok.text.split('_');
    auto [rhs, out] = rest.split("->");
    size_t offset = tok.offset;
    if (!parseDimLabelPart(lhs, "input", 'b', 'f', labels.inputBatch,
                           labels.inputFeature, labels.inputSpatial, offset) ||
        !parseDimLabelPart(rhs, "kernel", 'i', 'o', labels.kernelInputFeature,
                           labels.kernelOutputFeature, labels.kernelSpatial,
                           offset) ||
        !parseDimLabelPart(out, "output", 'b', 'f', labels.outputBatch,
                           labels.outputFeature, labels.outputSpatial, offset))
      return false;
    if (labels.inputSpatial.size() != labels.kernelSpatial.size() ||
        labels.inputSpatial.size() != labels.outputSpatial.size())
      return failAt(offset, "dim_labels " + tok.text +
                                " have different numbers of spatial "
                                "dimensions");
    advance();
    return true;
  }

  bool parseStringValue(std::string &out, const Twine &what) {
    if (tok.kind != TokenKind::String)
      return failHere(what);
    size_t errorOffset = 0;
    if (!unescapeString(tok.value, out, errorOffset))
      return failAt(tok.offset + 1 + errorOffset,
                    "invalid escape sequence in string");
    advance();
    return true;
  }

  bool parseMetadata(OpMetadata &metadata) {
    return parseSubAttributes("metadata", [&](StringRef field, size_t) {
      auto optionalInt = [&](std::optional<int64_t> &out) {
        int64_t value = 0;
        if (!parseInt(value, "an integer for '" + field + "'"))
          return false;
        out = value;
        return true;
      };
      if (field == "op_type")
        return parseStringValue(metadata.opType, "a string for op_type");
      if (field == "op_name")
        return parseStringValue(metadata.opName, "a string for op_name");
      if (field == "source_file")
        return parseStringValue(metadata.sourceFile,
                                "a string for source_file");
      if (field == "deduplicated_name")
        return parseStringValue(metadata.deduplicatedName,
                                "a string for deduplicated_name");
      if (field == "scheduling_name")
        return parseStringValue(metadata.schedulingName,
                                "a string for scheduling_name");
      if (field == "source_line")
        return optionalInt(metadata.sourceLine);
      if (field == "source_end_line")
        return optionalInt(metadata.sourceEndLine);
      if (field == "source_column")
        return optionalInt(metadata.sourceColumn);
      if (field == "source_end_column")
        return optionalInt(metadata.sourceEndColumn);
      if (field == "stack_frame_id")
        return optionalInt(metadata.stackFrameId);
      if (field == "profile_type")
        return parseIntList(metadata.profileType, "'profile_type'");
      Attribute other;
      size_t start = tok.offset;
      if (!parseGenericValue(other))
        return false;
      metadata.other.emplace_back(field.str(),
                                  lexer.buffer().slice(start, prevEnd).str());
      return true;
    });
  }

  /// `{` key="value" or key={json} (`,` ...)* `}`.
  bool parseStringMap(StringPairs &map) {
    if (!expect(TokenKind::LBrace, "'{' to start the attribute map"))
      return false;
    if (tok.kind != TokenKind::RBrace) {
      do {
        if (tok.kind != TokenKind::AttributeName)
          return failHere("key=\"value\" in the attribute map");
        auto &[key, value] = map.emplace_back(tok.value.str(), "");
        advance();
        if (tok.kind == TokenKind::LBrace) {
          size_t start = tok.offset;
          if (!skipBalancedBraces())
            return false;
          value = lexer.buffer().slice(start, prevEnd).str();
        } else if (!parseStringValue(value, "a string value for '" + key +
                                                "'")) {
          return false;
        }
      } while (consumeIf(TokenKind::Comma));
    }
    return expect(TokenKind::RBrace, "'}' to end the attribute map");
  }

  /// Any other value: a single token, a verbatim {...}, a run of
  /// adjacent pieces such as `[2,2]<=[4]T(1,0)` (iota replica groups), or
  /// a literal `s32[3]{0} {2, 0, 1}` (a shape, then its {...} values).
  bool parseGenericValue(Attribute &attr) {
    int pieces = 0;
    bool shape = false, literal = false;
    while (true) {
      bool adjacent = tok.offset == prevEnd;
      if (pieces == 1 && tok.kind == TokenKind::LSquare && adjacent)
        shape = attr.kind == AttrKind::Identifier;
      if (shape && !literal && !adjacent && tok.kind == TokenKind::LBrace) {
        literal = true; // the values after the shape (and its layout)
        adjacent = true;
      }
      if (pieces && (!adjacent || tok.kind == TokenKind::Comma ||
                     tok.kind == TokenKind::RBrace ||
                     tok.kind == TokenKind::RParen ||
                     tok.kind == TokenKind::RSquare ||
                     tok.kind == TokenKind::Eof ||
                     tok.kind == TokenKind::Error))
        break;
      if (!parseValuePiece(attr))
        return false;
      ++pieces;
    }
    if (pieces > 1)
      attr.kind = AttrKind::Raw;
    return true;
  }

  bool parseValuePiece(Attribute &attr) {
    switch (tok.kind) {
    case TokenKind::LBrace: {
      size_t start = tok.offset;
      if (!skipBalancedBraces())
        return false;
      attr.kind = AttrKind::Raw;
      classifyBracedInts(lexer.buffer().slice(start, prevEnd), attr);
      return true;
    }
    case TokenKind::LParen:
    case TokenKind::LSquare: {
      // Balanced over all three bracket kinds.
      int level = 0;
      do {
        if (tok.kind == TokenKind::Eof || tok.kind == TokenKind::Error)
          return failHere("a closing bracket in the attribute value");
        if (tok.kind == TokenKind::LParen || tok.kind == TokenKind::LSquare ||
            tok.kind == TokenKind::LBrace)
          ++level;
        else if (tok.kind == TokenKind::RParen ||
                 tok.kind == TokenKind::RSquare ||
                 tok.kind == TokenKind::RBrace)
          --level;
        advance();
      } while (level > 0);
      attr.kind = AttrKind::Raw;
      return true;
    }
    case TokenKind::Int:
      attr.kind =
          tok.text.getAsInteger(10, attr.intValue) ? AttrKind::Raw
                                                   : AttrKind::Int;
      advance();
      return true;
    case TokenKind::Float:
      attr.kind = AttrKind::Float;
      return parseDouble(attr.floatValue);
    case TokenKind::String:
      attr.kind = AttrKind::String;
      return parseStringValue(attr.stringValue, "a string");
    case TokenKind::DxD:
      attr.kind = AttrKind::IntList;
      return splitToken('x', attr.ints);
    case TokenKind::Identifier:
    case TokenKind::Name:
      if (isIdent("true") || isIdent("false")) {
        attr.kind = AttrKind::Bool;
        attr.boolValue = tok.text == "true";
      } else {
        attr.kind = AttrKind::Identifier;
        attr.stringValue = tok.value.str();
      }
      advance();
      return true;
    case TokenKind::Pad:
    case TokenKind::DimLabels:
    case TokenKind::Leq:
    case TokenKind::Question:
    case TokenKind::Asterisk:
    case TokenKind::Dots:
      attr.kind = AttrKind::Raw;
      advance();
      return true;
    default:
      return failHere("a value for attribute '" + attr.key + "'");
    }
  }

  /// Types `{1, 2, 3}` (and `{}`) as IntList; leaves anything else Raw.
  static void classifyBracedInts(StringRef braced, Attribute &attr) {
    StringRef inner = braced.drop_front().drop_back().trim();
    std::vector<int64_t> values;
    if (!inner.empty()) {
      llvm::SmallVector<StringRef, 8> parts;
      inner.split(parts, ',');
      for (StringRef part : parts) {
        int64_t value = 0;
        if (part.trim().getAsInteger(10, value))
          return;
        values.push_back(value);
      }
    }
    attr.kind = AttrKind::IntList;
    attr.ints = std::move(values);
  }

  //===--- Module header ---------------------------------------------------===//

  bool parseComputationLayout(ComputationLayout &layout) {
    if (!expect(TokenKind::LBrace, "'{' to start the computation layout") ||
        !expect(TokenKind::LParen, "'(' before the parameter shapes"))
      return false;
    if (tok.kind != TokenKind::RParen) {
      do {
        if (!parseShape(layout.parameters.emplace_back()))
          return false;
      } while (consumeIf(TokenKind::Comma));
    }
    return expect(TokenKind::RParen, "')' after the parameter shapes") &&
           expect(TokenKind::Arrow, "'->' before the result shape") &&
           parseShape(layout.result) &&
           expect(TokenKind::RBrace, "'}' to end the computation layout");
  }

  bool parseInputOutputAlias(std::vector<InputOutputAlias> &aliases) {
    if (!expect(TokenKind::LBrace, "'{' to start input_output_alias"))
      return false;
    while (tok.kind != TokenKind::RBrace) {
      InputOutputAlias &alias = aliases.emplace_back();
      alias.loc = lexer.locOf(tok.offset);
      if (!parseShapeIndex(alias.outputIndex) ||
          !expect(TokenKind::Colon, "':' after the output shape index") ||
          !expect(TokenKind::LParen, "'(' before the aliased parameter") ||
          !parseNonNegative(alias.parameterNumber, "a parameter number") ||
          !expect(TokenKind::Comma, "',' after the parameter number") ||
          !parseShapeIndex(alias.parameterIndex))
        return false;
      if (consumeIf(TokenKind::Comma)) {
        if (!isIdent("may-alias") && !isIdent("must-alias"))
          return failHere("may-alias or must-alias");
        alias.kind = tok.text.str();
        advance();
      }
      if (!expect(TokenKind::RParen, "')' after the aliased parameter"))
        return false;
      if (!consumeIf(TokenKind::Comma))
        break;
    }
    return expect(TokenKind::RBrace, "'}' to end input_output_alias");
  }

  bool parseBufferDonor(std::vector<BufferDonor> &donors) {
    if (!expect(TokenKind::LBrace, "'{' to start buffer_donor"))
      return false;
    while (tok.kind != TokenKind::RBrace) {
      BufferDonor &donor = donors.emplace_back();
      donor.loc = lexer.locOf(tok.offset);
      if (!expect(TokenKind::LParen, "'(' before the donor parameter") ||
          !parseNonNegative(donor.parameterNumber, "a parameter number") ||
          !expect(TokenKind::Comma, "',' after the parameter number") ||
          !parseShapeIndex(donor.parameterIndex) ||
          !expect(TokenKind::RParen, "')' after the donor parameter"))
        return false;
      if (!consumeIf(TokenKind::Comma))
        break;
    }
    return expect(TokenKind::RBrace, "'}' to end buffer_donor");
  }

  /// `int "string"` lines of FileNames / FunctionNames.
  bool parseNameTable(std::vector<std::string> &names, StringRef table) {
    while (consumeIf(TokenKind::Int))
      if (!parseStringValue(names.emplace_back(),
                            "a quoted name in " + table))
        return false;
    return true;
  }

  bool parseIntFields(const Twine &what,
                      std::initializer_list<std::pair<StringRef, int64_t *>>
                          fields) {
    return parseSubAttributes(what, [&](StringRef field, size_t offset) {
      for (const auto &[name, out] : fields)
        if (field == name)
          return parseInt(*out, "an integer for '" + field + "'");
      return failAt(offset, "unknown field '" + field + "' in " + what);
    });
  }

  bool parseStackFrameIndex(StackFrameIndex &index) {
    advance(); // FileNames
    if (!parseNameTable(index.fileNames, "FileNames"))
      return false;
    if (!isIdent("FunctionNames"))
      return failHere("'FunctionNames'");
    advance();
    if (!parseNameTable(index.functionNames, "FunctionNames"))
      return false;
    if (!isIdent("FileLocations"))
      return failHere("'FileLocations'");
    advance();
    while (consumeIf(TokenKind::Int)) {
      StackFrameIndex::FileLocation &l = index.fileLocations.emplace_back();
      if (!parseIntFields("a file location",
                          {{"file_name_id", &l.fileNameId},
                           {"function_name_id", &l.functionNameId},
                           {"line", &l.line},
                           {"end_line", &l.endLine},
                           {"column", &l.column},
                           {"end_column", &l.endColumn}}))
        return false;
    }
    if (!isIdent("StackFrames"))
      return failHere("'StackFrames'");
    advance();
    while (consumeIf(TokenKind::Int)) {
      StackFrameIndex::StackFrame &f = index.stackFrames.emplace_back();
      if (!parseIntFields("a stack frame",
                          {{"file_location_id", &f.fileLocationId},
                           {"parent_frame_id", &f.parentFrameId}}))
        return false;
    }
    return true;
  }

  //===--- Instructions, computations, module -------------------------------===//

  /// Maps `name` to the next index of `items`, or fails naming where it was
  /// first defined.
  template <typename T>
  bool defineOnce(llvm::StringMap<size_t> &table, const std::vector<T> &items,
                  const std::string &name, StringRef what, size_t offset) {
    auto [it, inserted] = table.try_emplace(name, items.size());
    if (inserted)
      return true;
    Loc previous = items[it->second].loc;
    return failAt(offset, what + " '" + name + "' is already defined at " +
                              Twine(previous.line) + ":" +
                              Twine(previous.column));
  }

  /// An operand: `name`, `shape name`, or (as XLA's parser accepts) a nested
  /// instruction `[shape] opcode(operands)` without attributes, which becomes
  /// an instruction of its own named `<opcode>.anon` (XLA's name) before the
  /// one that uses it.
  bool parseOperand(Computation &computation,
                    llvm::DenseMap<int64_t, size_t> &parameters,
                    Operand &operand) {
    DepthGuard guard(depth);
    if (guard.tooDeep())
      return failTooDeep();
    size_t start = tok.offset;
    operand.loc = lexer.locOf(start);
    if (isShapeStart() && !parseShape(operand.shape.emplace()))
      return false;
    if (tok.kind == TokenKind::Identifier &&
        peek().kind == TokenKind::LParen) {
      Instruction nested;
      nested.loc = operand.loc;
      bool shapeWritten = operand.shape.has_value();
      if (shapeWritten)
        nested.shape = std::move(*operand.shape);
      operand.shape.reset();
      if (!parseInstructionBody(computation, parameters, nested, shapeWritten,
                                /*allowAttributes=*/false))
        return false;
      operand.name = uniqueName(computation, nested.opcode + ".anon");
      nested.name = operand.name;
      computation.instructionIndex[nested.name] =
          computation.instructions.size();
      computation.instructions.push_back(std::move(nested));
      return true;
    }
    if (tok.kind == TokenKind::AttributeName)
      return failAt(tok.offset,
                    "attribute '" + tok.value + "' in an operand list: "
                    "attributes follow the ')', and a nested instruction "
                    "has none (XLA's parser takes none either)");
    if (tok.kind != TokenKind::Name && tok.kind != TokenKind::Identifier)
      return failHere("an operand name or a nested instruction");
    size_t nameOffset = tok.offset;
    operand.name = tok.value.str();
    advance();
    if (!computation.instructionIndex.count(operand.name))
      return failAt(nameOffset,
                    "use of undefined instruction '" + operand.name + "'");
    return true;
  }

  /// `base`, or `base.N` with the first N from 1 that no instruction of
  /// `computation` has (XLA's NameUniquer).
  static std::string uniqueName(const Computation &computation,
                                const std::string &base) {
    std::string name = base;
    for (int n = 1; computation.instructionIndex.count(name); ++n)
      name = base + "." + std::to_string(n);
    return name;
  }

  static void appendDim(Shape &shape, int64_t size, bool dynamic) {
    shape.dims.push_back(size);
    shape.dynamicDims.push_back(dynamic);
  }

  /// A windowed dimension's size (XLA's window_util::DilatedBound and
  /// StridedBound): the dilated, padded input over the dilated window;
  /// nothing for a window that is not positive or overflows.
  static std::optional<int64_t> windowedDim(int64_t size, const WindowDim &w) {
    if (size < 0 || w.size <= 0 || w.stride <= 0 || w.lhsDilation <= 0 ||
        w.rhsDilation <= 0)
      return std::nullopt;
    auto dilated = [](int64_t n, int64_t dilation, int64_t &out) {
      out = 0;
      return n == 0 || (!llvm::MulOverflow(n - 1, dilation, out) &&
                        !llvm::AddOverflow(out, int64_t{1}, out));
    };
    int64_t base, extent, bound;
    if (!dilated(size, w.lhsDilation, base) ||
        !dilated(w.size, w.rhsDilation, extent) ||
        llvm::AddOverflow(base, w.padLow, bound) ||
        llvm::AddOverflow(bound, w.padHigh, bound))
      return std::nullopt;
    if (bound <= 0 || extent > bound)
      return 0;
    return (bound - extent) / w.stride + 1;
  }

  /// The shape of `inst` written without one, from its operands' shapes as
  /// XLA's parser infers it (xla/service/shape_inference.cc), for the ops
  /// XLA's tests write so: elementwise ops, compare, select, clamp, tuple,
  /// get-tuple-element, after-all, while, transpose, dot, convolution, reduce,
  /// reduce-window, pad, concatenate, sort, call, conditional, map, ...
  /// The shape has no layout (the default one).
  bool inferShape(const Computation &computation, Instruction &inst) {
    std::vector<const Shape *> operands;
    for (const Operand &operand : inst.operands)
      operands.push_back(
          &computation
               .instructions[computation.instructionIndex.lookup(operand.name)]
               .shape);
    auto fail = [&](const Twine &why) {
      return failAtLoc(inst.opcodeLoc, "cannot infer the shape of '" +
                                           inst.opcode + "' left out: " + why);
    };
    auto arrayOperand = [&](size_t i) -> const Shape * {
      if (i >= operands.size() || operands[i]->isTuple() ||
          operands[i]->elementType == ElementType::Token)
        return nullptr;
      return operands[i];
    };
    auto dimsAttr = [&](StringRef key) {
      const Attribute *attr = inst.attr(key);
      return attr ? attr->ints : std::vector<int64_t>{};
    };
    Shape &shape = inst.shape;
    Loc at = shape.loc = inst.opcodeLoc;
    StringRef op = inst.opcode;
    static const llvm::StringSet<> sameAsOperand0 = {
        "abs", "negate", "copy", "exponential", "exponential-minus-one",
        "log", "log-plus-one", "sqrt", "rsqrt", "cbrt", "tanh", "logistic",
        "sign", "floor", "ceil", "round-nearest-afz", "round-nearest-even",
        "not", "cosine", "sine", "tan", "erf", "popcnt",
        "count-leading-zeros", "add", "subtract", "multiply", "divide",
        "remainder", "maximum", "minimum", "power", "atan2", "and", "or",
        "xor", "shift-left", "shift-right-arithmetic",
        "shift-right-logical", "reverse"};
    if (op == "while" || op == "optimization-barrier" ||
        op == "add-dependency" || op == "domain") {
      if (operands.empty() || (op != "add-dependency" && operands.size() != 1))
        return fail("it needs one operand");
      shape = *operands[0];
    } else if (sameAsOperand0.contains(op) || op == "select" ||
               op == "clamp") {
      const Shape *from = arrayOperand(op == "select" || op == "clamp" ? 1 : 0);
      if (!from)
        return fail("it needs an array operand");
      shape = *from;
    } else if (op == "compare" || op == "is-finite") {
      const Shape *from = arrayOperand(0);
      if (!from)
        return fail("it needs an array operand");
      shape = *from;
      shape.elementType = ElementType::Pred;
    } else if (op == "tuple") {
      shape.elementType = ElementType::Tuple;
      for (const Shape *operand : operands)
        shape.tupleElements.push_back(*operand);
    } else if (op == "get-tuple-element") {
      const Attribute *index = inst.attr("index");
      if (operands.size() != 1 || !operands[0]->isTuple() || !index ||
          index->intValue < 0 ||
          index->intValue >=
              static_cast<int64_t>(operands[0]->tupleElements.size()))
        return fail("it needs a tuple operand and an index in it");
      shape = operands[0]->tupleElements[index->intValue];
    } else if (op == "after-all") {
      shape.elementType = ElementType::Token;
    } else if (op == "transpose") {
      const Shape *from = arrayOperand(0);
      std::vector<int64_t> perm = dimsAttr("dimensions");
      if (!from || static_cast<int64_t>(perm.size()) != from->rank())
        return fail("it needs an array operand and a permutation of its "
                    "dimensions");
      shape.elementType = from->elementType;
      for (int64_t d : perm) {
        if (d < 0 || d >= from->rank())
          return fail("dimension " + Twine(d) + " is out of range");
        shape.dims.push_back(from->dims[d]);
        shape.dynamicDims.push_back(from->dynamicDims[d]);
      }
    } else if (op == "dot") {
      const Shape *lhs = arrayOperand(0), *rhs = arrayOperand(1);
      if (!lhs || !rhs)
        return fail("it needs two array operands");
      std::vector<int64_t> lb = dimsAttr("lhs_batch_dims"),
                           lc = dimsAttr("lhs_contracting_dims"),
                           rb = dimsAttr("rhs_batch_dims"),
                           rc = dimsAttr("rhs_contracting_dims");
      shape.elementType = lhs->elementType;
      auto append = [&](const Shape &from, int64_t d) {
        if (d < 0 || d >= from.rank())
          return false;
        shape.dims.push_back(from.dims[d]);
        shape.dynamicDims.push_back(from.dynamicDims[d]);
        return true;
      };
      for (int64_t d : lb)
        if (!append(*lhs, d))
          return fail("batch dimension " + Twine(d) + " is out of range");
      for (auto [from, batch, contracting] :
           {std::tuple(lhs, &lb, &lc), std::tuple(rhs, &rb, &rc)})
        for (int64_t d = 0; d < from->rank(); ++d)
          if (!llvm::is_contained(*batch, d) &&
              !llvm::is_contained(*contracting, d))
            append(*from, d);
    } else if (op == "reduce" || op == "reduce-window") {
      // N inputs, then N init values; a result per input with its init's
      // element type (the reducer's), a tuple of them when N > 1.
      size_t n = operands.size() / 2;
      if (n == 0 || operands.size() % 2)
        return fail("it needs inputs and as many init values");
      std::vector<int64_t> reduced = dimsAttr("dimensions");
      const Attribute *window = inst.attr("window");
      std::vector<Shape> results;
      for (size_t i = 0; i < n; ++i) {
        const Shape *in = arrayOperand(i), *init = arrayOperand(n + i);
        if (!in || !init)
          return fail("its operands must be arrays");
        Shape &out = results.emplace_back();
        out.elementType = init->elementType;
        if (op == "reduce") {
          for (int64_t d : reduced)
            if (d < 0 || d >= in->rank())
              return fail("dimension " + Twine(d) + " is out of range");
          for (int64_t d = 0; d < in->rank(); ++d)
            if (!llvm::is_contained(reduced, d))
              appendDim(out, in->dims[d], in->dynamicDims[d]);
          continue;
        }
        if (!window || static_cast<int64_t>(window->window.size()) !=
                           in->rank())
          return fail("it needs a window of one dimension per input "
                      "dimension");
        for (int64_t d = 0; d < in->rank(); ++d) {
          std::optional<int64_t> size = windowedDim(in->dims[d], window->window[d]);
          if (!size)
            return fail("its window is not positive or overflows in "
                        "dimension " + Twine(d));
          appendDim(out, *size, in->dynamicDims[d]);
        }
      }
      if (n == 1) {
        shape = results[0];
      } else {
        shape.elementType = ElementType::Tuple;
        shape.tupleElements = std::move(results);
      }
    } else if (op == "pad") {
      const Shape *from = arrayOperand(0);
      const Attribute *padding = inst.attr("padding");
      if (!from || !padding ||
          static_cast<int64_t>(padding->padding.size()) != from->rank())
        return fail("it needs an array operand and a padding of one "
                    "dimension per operand dimension");
      shape.elementType = from->elementType;
      for (int64_t d = 0; d < from->rank(); ++d) {
        const PadDim &p = padding->padding[d];
        int64_t size = from->dims[d];
        int64_t padded;
        if (p.interior < 0 ||
            llvm::MulOverflow(std::max<int64_t>(size - 1, 0), p.interior,
                              padded) ||
            llvm::AddOverflow(padded, size, padded) ||
            llvm::AddOverflow(padded, p.low, padded) ||
            llvm::AddOverflow(padded, p.high, padded) || padded < 0)
          return fail("dimension " + Twine(d) +
                      " pads to a negative or overflowing size");
        appendDim(shape, padded, from->dynamicDims[d]);
      }
    } else if (op == "concatenate") {
      std::vector<int64_t> dims = dimsAttr("dimensions");
      const Shape *first = arrayOperand(0);
      if (!first || dims.size() != 1 || dims[0] < 0 || dims[0] >= first->rank())
        return fail("it needs array operands and one dimension in them");
      shape = *first;
      for (size_t i = 1; i < operands.size(); ++i) {
        const Shape *next = arrayOperand(i);
        if (!next || next->rank() != first->rank())
          return fail("its operands must be arrays of one rank");
        if (llvm::AddOverflow(shape.dims[dims[0]], next->dims[dims[0]],
                              shape.dims[dims[0]]))
          return fail("the concatenated dimension overflows");
      }
    } else if (op == "convolution") {
      // XLA's InferConvolveShape: batch (over batch_group_count), the
      // kernel's output features, each spatial dimension windowed; the
      // input's element type.
      const Shape *lhs = arrayOperand(0), *rhs = arrayOperand(1);
      const Attribute *labels = inst.attr("dim_labels");
      const Attribute *window = inst.attr("window");
      if (!lhs || !rhs || !labels)
        return fail("it needs two array operands and dim_labels");
      const ConvDimLabels &l = labels->dimLabels;
      size_t spatial = l.inputSpatial.size();
      std::vector<WindowDim> dims =
          window ? window->window : std::vector<WindowDim>();
      if (l.kernelSpatial.size() != spatial ||
          l.outputSpatial.size() != spatial || dims.size() != spatial ||
          lhs->rank() != static_cast<int64_t>(spatial + 2) ||
          rhs->rank() != static_cast<int64_t>(spatial + 2))
        return fail("its operands, dim_labels and window disagree in rank");
      int64_t rank = static_cast<int64_t>(spatial + 2);
      std::vector<int64_t> positions = {l.inputBatch, l.kernelOutputFeature,
                                        l.outputBatch, l.outputFeature};
      llvm::append_range(positions, l.inputSpatial);
      llvm::append_range(positions, l.outputSpatial);
      if (llvm::any_of(positions, [&](int64_t p) { return p < 0 || p >= rank; }))
        return fail("dim_labels " + labels->raw + " do not label every "
                    "dimension");
      const Attribute *groups = inst.attr("batch_group_count");
      int64_t batchGroups = groups ? groups->intValue : 1;
      if (batchGroups <= 0)
        return fail("batch_group_count must be positive");
      shape.elementType = lhs->elementType;
      shape.dims.assign(spatial + 2, 0);
      shape.dynamicDims.assign(spatial + 2, false);
      shape.dims[l.outputBatch] = lhs->dims[l.inputBatch] / batchGroups;
      shape.dims[l.outputFeature] = rhs->dims[l.kernelOutputFeature];
      for (size_t i = 0; i < spatial; ++i) {
        std::optional<int64_t> size =
            windowedDim(lhs->dims[l.inputSpatial[i]], dims[i]);
        if (!size)
          return fail("its window is not positive or overflows in spatial "
                      "dimension " + Twine(i));
        shape.dims[l.outputSpatial[i]] = *size;
      }
    } else if (op == "replica-id" || op == "partition-id") {
      shape.elementType = ElementType::U32;
    } else if (op == "sort") {
      if (operands.empty())
        return fail("it needs operands");
      if (operands.size() == 1) {
        shape = *operands[0];
      } else {
        shape.elementType = ElementType::Tuple;
        for (const Shape *operand : operands)
          shape.tupleElements.push_back(*operand);
      }
    } else if (op == "call" || op == "conditional" || op == "map") {
      // The called computation's result (the first branch's); a map has
      // its operands' dimensions with that element type.
      const Attribute *callee = inst.attr(
          op == "conditional"
              ? (inst.attr("branch_computations") ? "branch_computations"
                                                  : "true_computation")
              : "to_apply");
      if (!callee || callee->names.empty())
        return fail("it names no computation");
      const Computation *called = module->findComputation(callee->names[0]);
      if (!called)
        return fail("computation '" + callee->names[0] +
                    "' is not defined before it");
      shape = called->hasSignature ? called->signatureResult
                                   : called->root().shape;
      if (op == "map") {
        const Shape *from = arrayOperand(0);
        if (!from || shape.isTuple())
          return fail("it needs array operands and an array result");
        ElementType type = shape.elementType;
        shape = *from;
        shape.elementType = type;
      }
    } else {
      return failAtLoc(at, "expected a shape (e.g. f32[2,3] or a tuple) "
                           "before '" +
                               inst.opcode +
                               "': tpuc infers it only for elementwise ops, "
                               "compare, select, clamp, tuple, "
                               "get-tuple-element, after-all, while, "
                               "transpose, dot, convolution, reduce, "
                               "reduce-window, pad, "
                               "concatenate, sort, call, conditional, map, "
                               "replica-id and partition-id");
    }
    shape.layout.reset();
    shape.loc = at;
    return true;
  }

  /// What follows the (optional, already parsed) shape of an instruction:
  /// opcode, operands and, unless nested, attributes; infers the shape when
  /// it was left out.
  bool parseInstructionBody(Computation &computation,
                            llvm::DenseMap<int64_t, size_t> &parameters,
                            Instruction &inst, bool shapeWritten,
                            bool allowAttributes) {
    if (tok.kind != TokenKind::Identifier)
      return failHere("an opcode");
    inst.opcode = tok.text.str();
    inst.opcodeLoc = lexer.locOf(tok.offset);
    if (!shapeWritten &&
        (inst.opcode == "parameter" || inst.opcode == "constant"))
      return failHere("a shape (e.g. f32[2,3] or a tuple) before '" +
                      inst.opcode + "'");
    advance();
    if (!expect(TokenKind::LParen, "'(' after the opcode"))
      return false;
    if (inst.opcode == "parameter") {
      size_t numberOffset = tok.offset;
      int64_t number;
      if (!parseNonNegative(number, "a parameter number"))
        return false;
      inst.parameterNumber = number;
      auto [it, inserted] =
          parameters.try_emplace(number, computation.instructions.size());
      if (!inserted)
        return failAt(numberOffset,
                      "parameter number " + Twine(number) +
                          " is already used by '" +
                          computation.instructions[it->second].name + "'");
    } else if (inst.opcode == "constant") {
      if (!parseLiteral(inst.shape, inst.literal.emplace()))
        return false;
    } else if (tok.kind != TokenKind::RParen) {
      do {
        if (!parseOperand(computation, parameters,
                          inst.operands.emplace_back()))
          return false;
      } while (consumeIf(TokenKind::Comma));
    }
    if (!expect(TokenKind::RParen, "')' or ',' after the operands"))
      return false;
    // A nested instruction has no attributes: a ',' after it is the next
    // operand's, as in XLA.
    while (allowAttributes && consumeIf(TokenKind::Comma))
      if (!parseAttribute(inst.attributes.emplace_back(), false))
        return false;
    return shapeWritten || inferShape(computation, inst);
  }

  bool parseInstruction(Computation &computation,
                        llvm::DenseMap<int64_t, size_t> &parameters,
                        std::optional<Loc> &rootLoc) {
    Instruction inst;
    size_t start = tok.offset;
    if (isIdent("ROOT")) {
      inst.isRoot = true;
      if (rootLoc)
        return failAt(start, "computation '" + computation.name +
                                 "' has more than one ROOT (the first is at " +
                                 Twine(rootLoc->line) + ":" +
                                 Twine(rootLoc->column) + ")");
      rootLoc = lexer.locOf(start);
      advance();
    }
    size_t nameOffset = tok.offset;
    inst.loc = lexer.locOf(nameOffset);
    if (tok.kind == TokenKind::AttributeName) { // `name=shape` without spaces
      inst.name = tok.value.str();
      advance();
    } else {
      if (tok.kind != TokenKind::Name && tok.kind != TokenKind::Identifier)
        return failHere("an instruction name or '}'");
      inst.name = tok.value.str();
      advance();
      if (!expect(TokenKind::Equal, "'=' after the instruction name"))
        return false;
    }
    // XLA's parser infers the shape of some ops when it is left out
    // (`ROOT t = tuple(a, b)`, `c = add(a, b)`): text `opcode(` here.
    bool shapeWritten =
        !(tok.kind == TokenKind::Identifier && peek().kind == TokenKind::LParen);
    if (shapeWritten && !parseShape(inst.shape))
      return false;
    if (!parseInstructionBody(computation, parameters, inst, shapeWritten,
                              /*allowAttributes=*/true))
      return false;
    if (const Attribute *preds = inst.attr("control-predecessors"))
      for (const std::string &name : preds->names)
        if (!computation.instructionIndex.count(name))
          return failAtLoc(preds->valueLoc,
                           "control predecessor '" + name +
                               "' is not an instruction defined before '" +
                               inst.name + "'");
    if (!defineOnce(computation.instructionIndex, computation.instructions,
                    inst.name, "instruction", nameOffset))
      return false;
    computation.instructions.push_back(std::move(inst));
    return true;
  }

  bool parseSignature(Computation &computation) {
    computation.hasSignature = true;
    advance(); // '('
    if (tok.kind != TokenKind::RParen) {
      do {
        Parameter &param = computation.signatureParams.emplace_back();
        param.loc = lexer.locOf(tok.offset);
        if (tok.kind != TokenKind::Name && tok.kind != TokenKind::Identifier)
          return failHere("a parameter name");
        bool hasColon = tok.text.ends_with(":");
        param.name = tok.value.str();
        advance();
        if (!hasColon &&
            !expect(TokenKind::Colon, "':' after the parameter name"))
          return false;
        if (!parseShape(param.shape))
          return false;
      } while (consumeIf(TokenKind::Comma));
    }
    return expect(TokenKind::RParen, "')' to end the parameter list") &&
           expect(TokenKind::Arrow, "'->' before the result shape") &&
           parseShape(computation.signatureResult);
  }

  bool parseComputation(Module &module, std::optional<Loc> &entryLoc) {
    Computation computation;
    size_t start = tok.offset;
    if (isIdent("ENTRY")) {
      if (entryLoc)
        return failAt(start, "module has more than one ENTRY computation "
                             "(the first is at " + Twine(entryLoc->line) +
                                 ":" + Twine(entryLoc->column) + ")");
      entryLoc = lexer.locOf(start);
      computation.isEntry = true;
      advance();
    }
    if (tok.kind != TokenKind::Name && tok.kind != TokenKind::Identifier)
      return failHere("a computation name");
    size_t nameOffset = tok.offset;
    computation.name = tok.value.str();
    computation.loc = lexer.locOf(nameOffset);
    advance();
    if (tok.kind == TokenKind::LParen && !parseSignature(computation))
      return false;
    if (!expect(TokenKind::LBrace, "'{' to start computation '" +
                                       computation.name + "'"))
      return false;
    llvm::DenseMap<int64_t, size_t> parameters;
    std::optional<Loc> rootLoc;
    while (tok.kind != TokenKind::RBrace) {
      if (tok.kind == TokenKind::Eof)
        return failAt(tok.offset, "unexpected end of file in computation '" +
                                      computation.name + "' (missing '}')");
      if (!parseInstruction(computation, parameters, rootLoc))
        return false;
    }
    if (computation.instructions.empty())
      return failAt(tok.offset,
                    "computation '" + computation.name + "' is empty");
    advance(); // '}'
    while (consumeIf(TokenKind::Comma))
      if (!parseAttribute(computation.attributes.emplace_back(), false))
        return false;
    // As in XLA, without ROOT the last instruction is the root.
    computation.rootIndex = computation.instructions.size() - 1;
    for (size_t i = 0; i < computation.instructions.size(); ++i)
      if (computation.instructions[i].isRoot)
        computation.rootIndex = i;
    computation.instructions[computation.rootIndex].isRoot = true;
    if (!defineOnce(module.computationIndex, module.computations,
                    computation.name, "computation", nameOffset))
      return false;
    module.computations.push_back(std::move(computation));
    return true;
  }

  bool checkComputationReferences(const Module &module) {
    for (const Computation &computation : module.computations)
      for (const Instruction &inst : computation.instructions)
        for (const Attribute &attr : inst.attributes)
          if (isComputationKey(attr.key) && attr.kind == AttrKind::Names)
            for (const std::string &name : attr.names)
              if (!module.computationIndex.count(name))
                return failAtLoc(attr.valueLoc,
                                 "unknown computation '" + name + "'");
    return true;
  }

  bool parseModule(Module &result) {
    module = &result;
    result.loc = lexer.locOf(tok.offset);
    if (isIdent("HloModule")) {
      advance();
      if (tok.kind != TokenKind::Name && tok.kind != TokenKind::Identifier)
        return failHere("the module name");
      result.name = tok.value.str();
      advance();
      while (consumeIf(TokenKind::Comma))
        if (!parseAttribute(result.attributes.emplace_back(), true))
          return false;
    } else if (isIdent("ENTRY") ||
               ((tok.kind == TokenKind::Name ||
                 tok.kind == TokenKind::Identifier) &&
                (peek().kind == TokenKind::LBrace ||
                 peek().kind == TokenKind::LParen))) {
      // As XLA's parser: computations without the header (the text starts
      // with ENTRY or `name {`) are a module named "_"; XLA's tests and
      // fusion dumps are written so.
      result.name = "_";
    } else {
      return failHere("'HloModule' or a computation at the start of the "
                      "module");
    }
    for (const Attribute &attr : result.attributes) {
      if (attr.key == "frontend_attributes")
        result.frontendAttributes = attr.stringMap;
      if (attr.key == "is_scheduled")
        result.isScheduled = attr.boolValue;
    }
    if (isIdent("FileNames") && !parseStackFrameIndex(result.stackFrameIndex))
      return false;
    std::optional<Loc> entryLoc;
    while (tok.kind != TokenKind::Eof)
      if (!parseComputation(result, entryLoc))
        return false;
    if (result.computations.empty())
      return failAt(tok.offset, "module '" + result.name +
                                    "' has no computations");
    result.entryIndex = result.computations.size() - 1;
    for (size_t i = 0; i < result.computations.size(); ++i)
      if (result.computations[i].isEntry)
        result.entryIndex = i;
    result.computations[result.entryIndex].isEntry = true;
    return checkComputationReferences(result);
  }

  Lexer lexer;
  StringRef bufferName;
  Token tok;
  size_t prevEnd = 0;
  unsigned depth = 0;
  Module *module = nullptr;
  bool failed = false;
  Loc errorLoc;
  std::string errorMessage;
};

} // namespace

llvm::Expected<Module> tpuc::hlo_text::parseHloModule(StringRef text,
                                                      StringRef bufferName) {
  return Parser(text, bufferName).run();
}

llvm::Expected<Module> tpuc::hlo_text::parseHloModuleFile(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::make_error<HloParseError>(
        path.str(), Loc{}, "cannot read file: " + buffer.getError().message());
  return parseHloModule((*buffer)->getBuffer(), path);
}
