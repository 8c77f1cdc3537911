//===- HloLexer.h - Tokens of XLA's HLO text format -------------*- C++ -*-===//
//
// Follows XLA's hlo_lexer: identifiers may contain '.' and '-'; `name:` is a
// Name (parameter lists), `name=` an AttributeName, `%name` a Name; numbers
// are tried as float, dim labels (b01f_01io->b01f), DxD (1x3x3x1), pad
// (0_0x1_1_0) and int, in that order. Comments (/* */ and //) and
// whitespace are skipped. The lexer works on demand so the parser can take a
// balanced {...} verbatim (JSON-like backend configs).
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_HLO_TEXT_HLOLEXER_H
#define TPUC_COMPILER_HLO_TEXT_HLOLEXER_H

#include "compiler/hlo_text/HloAst.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tpuc::hlo_text {

enum class TokenKind : uint8_t {
  Eof,
  Error, // `text` is the offending input, `value` the message
  Equal,
  Comma,
  Colon,
  LSquare,
  RSquare,
  LBrace,
  RBrace,
  LParen,
  RParen,
  Arrow,    // ->
  Leq,      // <=
  Question, // ?
  Asterisk,
  Octothorp,
  Plus,
  Tilde,
  Dots, // ...
  Name,          // %foo or foo: (value: foo)
  AttributeName, // foo= (value: foo)
  Identifier,    // foo, incl. keywords, element types, inf and nan(0x..)
  Int,           // -?[0-9]+ (range checked by the parser)
  Float,         // 1.5, -2e-3, -inf, -nan(0x1)
  DimLabels,     // b01f_01io->b01f
  DxD,           // 1x3x3x1
  Pad,           // 0_0x1_1_0
  String,        // "..." or '...' (value: the text between the quotes)
};

struct Token {
  TokenKind kind = TokenKind::Eof;
  llvm::StringRef text;  // the whole spelling
  llvm::StringRef value; // see TokenKind
  size_t offset = 0;
  std::string message; // Error only
};

class Lexer {
public:
  explicit Lexer(llvm::StringRef buffer);

  Token next();
  /// The position after the last token returned.
  size_t position() const { return pos; }
  void reset(size_t offset) { pos = offset; }
  Loc locOf(size_t offset) const;
  llvm::StringRef buffer() const { return buf; }

  /// The end offset of the balanced {...} starting at `offset` (a '{'),
  /// skipping quoted strings; 0 with `error` set if it is not closed.
  size_t scanBalancedBraces(size_t offset, std::string &error) const;

private:
  Token make(TokenKind kind, size_t start, size_t end);
  Token makeError(size_t start, size_t end, std::string message);
  Token lexIdentifier(size_t start);
  Token lexNumberOrPattern(size_t start);
  Token lexString(size_t start);

  llvm::StringRef buf;
  size_t pos = 0;
  std::vector<size_t> lineStarts;
};

/// Decodes the C-style escapes of a String token's value. On a bad escape,
/// returns false and sets `errorOffset` (relative to `raw`).
bool unescapeString(llvm::StringRef raw, std::string &out,
                    size_t &errorOffset);

} // namespace tpuc::hlo_text

#endif // TPUC_COMPILER_HLO_TEXT_HLOLEXER_H
