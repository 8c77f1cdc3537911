//===- HloLexer.cpp - Tokens of XLA's HLO text format ---------------------===//

#include "compiler/hlo_text/HloLexer.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace tpuc::hlo_text;
using llvm::StringRef;

namespace {

bool isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '.' || c == '-';
}

size_t countDigits(StringRef s, size_t at) {
  size_t n = 0;
  while (at + n < s.size() && llvm::isDigit(s[at + n]))
    ++n;
  return n;
}

// The matchers below return the length of the pattern at s[at...], 0 if it
// does not match. They mirror the regular expressions of XLA's lexer.

/// [-]?(\d+|\d+[.]\d*|\d*[.]\d+)[eE][+-]?\d+ | [-]?(\d+[.]\d*|\d*[.]\d+)
size_t matchFloat(StringRef s, size_t at) {
  size_t p = at;
  if (p < s.size() && s[p] == '-')
    ++p;
  size_t intDigits = countDigits(s, p);
  p += intDigits;
  bool dot = false;
  size_t fracDigits = 0;
  if (p < s.size() && s[p] == '.') {
    dot = true;
    fracDigits = countDigits(s, p + 1);
    if (intDigits == 0 && fracDigits == 0)
      return 0;
    p += 1 + fracDigits;
  }
  if (intDigits == 0 && fracDigits == 0)
    return 0;
  if (p < s.size() && (s[p] == 'e' || s[p] == 'E')) {
    size_t q = p + 1;
    if (q < s.size() && (s[q] == '+' || s[q] == '-'))
      ++q;
    if (size_t expDigits = countDigits(s, q))
      return q + expDigits - at;
  }
  return dot ? p - at : 0;
}

size_t matchCharClassRun(StringRef s, size_t at, StringRef chars) {
  size_t n = 0;
  while (at + n < s.size() && chars.contains(s[at + n]))
    ++n;
  return n;
}

/// [0-9bf?]{2,}_[0-9io?]{2,}->[0-9bf?]{2,}
size_t matchDimLabels(StringRef s, size_t at) {
  size_t p = at;
  size_t n = matchCharClassRun(s, p, "0123456789bf?");
  if (n < 2 || p + n >= s.size() || s[p + n] != '_')
    return 0;
  p += n + 1;
  n = matchCharClassRun(s, p, "0123456789io?");
  if (n < 2 || !s.substr(p + n).starts_with("->"))
    return 0;
  p += n + 2;
  n = matchCharClassRun(s, p, "0123456789bf?");
  if (n < 2)
    return 0;
  return p + n - at;
}

/// [0-9]+(x[0-9]+)+
size_t matchDxD(StringRef s, size_t at) {
  size_t p = at + countDigits(s, at);
  if (p == at)
    return 0;
  size_t groups = 0;
  while (p + 1 < s.size() && s[p] == 'x' && llvm::isDigit(s[p + 1])) {
    p += 1 + countDigits(s, p + 1);
    ++groups;
  }
  return groups ? p - at : 0;
}

/// [-]?[0-9]+_[-]?[0-9]+(_[0-9]+)?
size_t matchPadDim(StringRef s, size_t at) {
  size_t p = at;
  auto signedInt = [&]() {
    size_t q = p;
    if (q < s.size() && s[q] == '-')
      ++q;
    size_t n = countDigits(s, q);
    if (!n)
      return false;
    p = q + n;
    return true;
  };
  if (!signedInt() || p >= s.size() || s[p] != '_')
    return 0;
  ++p;
  if (!signedInt())
    return 0;
  if (p + 1 < s.size() && s[p] == '_' && llvm::isDigit(s[p + 1]))
    p += 1 + countDigits(s, p + 1);
  return p - at;
}

/// pad_dim (x pad_dim)*
size_t matchPad(StringRef s, size_t at) {
  size_t n = matchPadDim(s, at);
  if (!n)
    return 0;
  size_t p = at + n;
  while (p < s.size() && s[p] == 'x') {
    size_t more = matchPadDim(s, p + 1);
    if (!more)
      break;
    p += 1 + more;
  }
  return p - at;
}

/// (0x[0-9a-fA-F]+) after nan / -nan.
size_t matchNanPayload(StringRef s, size_t at) {
  if (!s.substr(at).starts_with("(0x"))
    return 0;
  size_t p = at + 3, digits = 0;
  while (p < s.size() && llvm::isHexDigit(s[p]))
    ++p, ++digits;
  if (!digits || p >= s.size() || s[p] != ')')
    return 0;
  return p + 1 - at;
}

std::string describeChar(char c) {
  if (c == '\0')
    return "NUL byte";
  if (llvm::isPrint(c))
    return std::string("character '") + c + "'";
  return "byte 0x" + llvm::utohexstr(static_cast<unsigned char>(c), false, 2);
}

} // namespace

Lexer::Lexer(StringRef buffer) : buf(buffer) {
  lineStarts.push_back(0);
  for (size_t i = 0; i < buf.size(); ++i)
    if (buf[i] == '\n')
      lineStarts.push_back(i + 1);
}

Loc Lexer::locOf(size_t offset) const {
  auto it = std::upper_bound(lineStarts.begin(), lineStarts.end(), offset);
  size_t line = static_cast<size_t>(it - lineStarts.begin());
  return Loc{static_cast<uint32_t>(line),
             static_cast<uint32_t>(offset - lineStarts[line - 1] + 1)};
}

Token Lexer::make(TokenKind kind, size_t start, size_t end) {
  pos = end;
  Token token;
  token.kind = kind;
  token.offset = start;
  token.text = buf.slice(start, end);
  token.value = token.text;
  return token;
}

Token Lexer::makeError(size_t start, size_t end, std::string message) {
  Token token = make(TokenKind::Error, start, end);
  token.message = std::move(message);
  return token;
}

Token Lexer::next() {
  while (pos < buf.size()) {
    size_t start = pos;
    char c = buf[pos];
    switch (c) {
    case ' ':
    case '\t':
    case '\n':
    case '\r':
      ++pos;
      continue;
    case '/':
      if (pos + 1 < buf.size() && buf[pos + 1] == '*') {
        size_t end = buf.find("*/", pos + 2);
        if (end == StringRef::npos)
          return makeError(start, buf.size(), "unterminated /* comment");
        pos = end + 2;
        continue;
      }
      if (pos + 1 < buf.size() && buf[pos + 1] == '/') {
        size_t end = buf.find_first_of("\r\n", pos);
        pos = end == StringRef::npos ? buf.size() : end;
        continue;
      }
      return makeError(start, start + 1, "unexpected character '/'");
    case '=':
      return make(TokenKind::Equal, start, start + 1);
    case ',':
      return make(TokenKind::Comma, start, start + 1);
    case ':':
      return make(TokenKind::Colon, start, start + 1);
    case '[':
      return make(TokenKind::LSquare, start, start + 1);
    case ']':
      return make(TokenKind::RSquare, start, start + 1);
    case '{':
      return make(TokenKind::LBrace, start, start + 1);
    case '}':
      return make(TokenKind::RBrace, start, start + 1);
    case '(':
      return make(TokenKind::LParen, start, start + 1);
    case ')':
      return make(TokenKind::RParen, start, start + 1);
    case '*':
      return make(TokenKind::Asterisk, start, start + 1);
    case '#':
      return make(TokenKind::Octothorp, start, start + 1);
    case '+':
      return make(TokenKind::Plus, start, start + 1);
    case '~':
      return make(TokenKind::Tilde, start, start + 1);
    case '<':
      if (pos + 1 < buf.size() && buf[pos + 1] == '=')
        return make(TokenKind::Leq, start, start + 2);
      return makeError(start, start + 1, "unexpected character '<'");
    case '.':
      if (buf.substr(pos).starts_with("..."))
        return make(TokenKind::Dots, start, start + 3);
      return makeError(start, start + 1, "unexpected character '.'");
    case '%': {
      size_t end = pos + 1;
      if (end >= buf.size() || !(llvm::isAlpha(buf[end]) || buf[end] == '_'))
        return makeError(start, start + 1, "expected a name after '%'");
      while (end < buf.size() && isIdentifierChar(buf[end]))
        ++end;
      Token token = make(TokenKind::Name, start, end);
      token.value = token.text.drop_front();
      return token;
    }
    case '"':
    case '\'':
      return lexString(start);
    default:
      if (llvm::isDigit(c) || c == '-' || c == '?') {
        if (c == '-' && pos + 1 < buf.size() && buf[pos + 1] == '>')
          return make(TokenKind::Arrow, start, start + 2);
        return lexNumberOrPattern(start);
      }
      if (llvm::isAlpha(c) || c == '_')
        return lexIdentifier(start);
      return makeError(start, start + 1, "unexpected " + describeChar(c));
    }
  }
  return make(TokenKind::Eof, buf.size(), buf.size());
}

Token Lexer::lexIdentifier(size_t start) {
  size_t end = start;
  while (end < buf.size() && isIdentifierChar(buf[end]))
    ++end;
  if (end < buf.size() && (buf[end] == ':' || buf[end] == '=')) {
    TokenKind kind =
        buf[end] == ':' ? TokenKind::Name : TokenKind::AttributeName;
    Token token = make(kind, start, end + 1);
    token.value = buf.slice(start, end);
    return token;
  }
  StringRef word = buf.slice(start, end);
  if (word == "nan")
    end += matchNanPayload(buf, end);
  else if (size_t n = matchDimLabels(buf, start))
    return make(TokenKind::DimLabels, start, start + n);
  return make(TokenKind::Identifier, start, end);
}

Token Lexer::lexNumberOrPattern(size_t start) {
  if (size_t n = matchFloat(buf, start))
    return make(TokenKind::Float, start, start + n);
  if (size_t n = matchDimLabels(buf, start))
    return make(TokenKind::DimLabels, start, start + n);
  if (size_t n = matchDxD(buf, start))
    return make(TokenKind::DxD, start, start + n);
  if (size_t n = matchPad(buf, start))
    return make(TokenKind::Pad, start, start + n);
  size_t digitsAt = start + (buf[start] == '-' ? 1 : 0);
  if (size_t n = countDigits(buf, digitsAt))
    return make(TokenKind::Int, start, digitsAt + n);
  StringRef rest = buf.substr(start);
  if (rest.starts_with("-inf"))
    return make(TokenKind::Float, start, start + 4);
  if (rest.starts_with("-nan"))
    return make(TokenKind::Float, start,
                start + 4 + matchNanPayload(buf, start + 4));
  if (buf[start] == '?')
    return make(TokenKind::Question, start, start + 1);
  return makeError(start, start + 1, "unexpected character '-'");
}

Token Lexer::lexString(size_t start) {
  char quote = buf[start];
  size_t p = start + 1;
  while (p < buf.size() && buf[p] != quote) {
    if (buf[p] == '\\')
      ++p;
    ++p;
  }
  if (p >= buf.size())
    return makeError(start, buf.size(), "unterminated string");
  Token token = make(TokenKind::String, start, p + 1);
  token.value = buf.slice(start + 1, p);
  return token;
}

size_t Lexer::scanBalancedBraces(size_t offset, std::string &error) const {
  int depth = 0;
  for (size_t p = offset; p < buf.size(); ++p) {
    char c = buf[p];
    if (c == '"' || c == '\'') {
      size_t q = p + 1;
      while (q < buf.size() && buf[q] != c)
        q += buf[q] == '\\' ? 2 : 1;
      if (q >= buf.size())
        break;
      p = q;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      if (--depth == 0)
        return p + 1;
    } else if (c == '\0') {
      error = "unexpected NUL byte";
      return 0;
    }
  }
  error = "unbalanced '{': no matching '}'";
  return 0;
}

bool tpuc::hlo_text::unescapeString(StringRef raw, std::string &out,
                                    size_t &errorOffset) {
  out.clear();
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    errorOffset = i;
    if (++i >= raw.size())
      return false;
    switch (raw[i]) {
    case 'n': out.push_back('\n'); break;
    case 't': out.push_back('\t'); break;
    case 'r': out.push_back('\r'); break;
    case 'a': out.push_back('\a'); break;
    case 'b': out.push_back('\b'); break;
    case 'f': out.push_back('\f'); break;
    case 'v': out.push_back('\v'); break;
    case '\\': case '\'': case '"': case '?':
      out.push_back(raw[i]);
      break;
    case 'x': {
      unsigned value = 0, digits = 0;
      while (i + 1 < raw.size() && llvm::isHexDigit(raw[i + 1]) && digits < 2)
        value = value * 16 + llvm::hexDigitValue(raw[++i]), ++digits;
      if (!digits)
        return false;
      out.push_back(static_cast<char>(value));
      break;
    }
    default: {
      if (raw[i] < '0' || raw[i] > '7')
        return false;
      unsigned value = 0, digits = 0;
      for (--i; i + 1 < raw.size() && digits < 3 && raw[i + 1] >= '0' &&
                raw[i + 1] <= '7';
           ++digits)
        value = value * 8 + (raw[++i] - '0');
      out.push_back(static_cast<char>(value & 0xFF));
      break;
    }
    }
  }
  return true;
}
