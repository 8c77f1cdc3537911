//===- Npy.cpp - NumPy .npy reading and writing ---------------------------===//

#include "runtime/hostio/Npy.h"

#include "runtime/hostio/FloatConversion.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <optional>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace tpuc::hostio {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

struct DescrEntry {
  absl::string_view code; // descr without the byte-order character
  DType dtype;
};

constexpr DescrEntry kDescrs[] = {
    {"f4", DType::F32}, {"f8", DType::F64}, {"f2", DType::F16},
    {"i1", DType::S8},  {"i2", DType::S16}, {"i4", DType::S32},
    {"i8", DType::S64}, {"u1", DType::U8},  {"u2", DType::U16},
    {"u4", DType::U32}, {"u8", DType::U64}, {"b1", DType::Pred},
    {"V2", DType::BF16},
};

absl::Status npyError(absl::string_view name, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(name, ": ", what));
}

absl::StatusOr<DType> descrToDType(absl::string_view descr,
                                   absl::string_view name) {
  if (descr == "bfloat16")
    return DType::BF16;
  // ml_dtypes' float8 arrays (and tpuc's f8 results): 1-byte voids, read as
  // their bytes; a reader that knows the f8 type retags them
  // (`asF8Bits`).
  if (descr == "|V1" || descr == "<V1" || descr == ">V1")
    return DType::U8;
  if (descr.size() >= 2) {
    char order = descr[0];
    absl::string_view code = descr.substr(1);
    for (const DescrEntry &entry : kDescrs) {
      if (entry.code != code)
        continue;
      // Byte order does not apply to 1-byte types or raw void bytes.
      bool singleByte = dtypeByteSize(entry.dtype) == 1 || code == "V2";
      if (order == '<' || order == '=' || (singleByte && order == '|') ||
          (singleByte && order == '>'))
        return entry.dtype;
      if (order == '>')
        return npyError(name, absl::StrCat("big-endian descr '", descr,
                                           "' is not supported"));
      break;
    }
  }
  return npyError(name, absl::StrCat("unsupported descr '", descr,
                                     "' (supported: <f4 <f8 <f2 |i1 <i2 <i4 "
                                     "<i8 |u1 <u2 <u4 <u8 |b1, <V2 for "
                                     "bf16 and |V1 for the f8 types)"));
}

std::string descrFor(DType dtype) {
  if (dtype == DType::BF16)
    return "<V2";
  if (f8Format(dtype))
    return "|V1";
  // numpy has no 4-bit integers: s4/u4 arrays are int8/uint8 ones.
  if (dtype == DType::S4)
    return "|i1";
  if (dtype == DType::U4)
    return "|u1";
  for (const DescrEntry &entry : kDescrs)
    if (entry.dtype == dtype)
      return absl::StrCat(dtypeByteSize(dtype) == 1 ? "|" : "<", entry.code);
  return "";
}

struct Header {
  std::optional<std::string> descr;
  std::optional<bool> fortranOrder;
  std::optional<std::vector<int64_t>> shape;
};

/// The header is a Python dict literal; this accepts exactly the subset
/// NumPy writes (string keys; string, bool and int-tuple values).
class HeaderParser {
public:
  HeaderParser(absl::string_view text, absl::string_view name)
      : text(text), name(name) {}

  absl::StatusOr<Header> parse() {
    Header header;
    skipSpace();
    if (!consume('{'))
      return error("header is not a dict (no '{')");
    while (true) {
      skipSpace();
      if (consume('}'))
        break;
      absl::StatusOr<std::string> key = parseString();
      if (!key.ok())
        return key.status();
      skipSpace();
      if (!consume(':'))
        return error(absl::StrCat("expected ':' after key '", *key, "'"));
      skipSpace();
      absl::Status status = parseValue(*key, header);
      if (!status.ok())
        return status;
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (consume('}'))
        break;
      return error("expected ',' or '}' in header dict");
    }
    skipSpace();
    if (pos != text.size())
      return error("unexpected text after the header dict");
    if (!header.descr)
      return error("header has no 'descr' key");
    if (!header.fortranOrder)
      return error("header has no 'fortran_order' key");
    if (!header.shape)
      return error("header has no 'shape' key");
    return header;
  }

private:
  absl::Status error(absl::string_view what) const {
    return npyError(name, absl::StrCat("bad .npy header: ", what));
  }

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  bool consume(char c) {
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }

  bool consumeWord(absl::string_view word) {
    if (text.substr(pos, word.size()) != word)
      return false;
    pos += word.size();
    return true;
  }

  absl::StatusOr<std::string> parseString() {
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      return error("expected a quoted string");
    char quote = text[pos++];
    size_t end = text.find(quote, pos);
    if (end == absl::string_view::npos)
      return error("unterminated string");
    std::string value(text.substr(pos, end - pos));
    pos = end + 1;
    return value;
  }

  absl::Status parseValue(const std::string &key, Header &header) {
    if (key == "descr") {
      if (pos < text.size() && text[pos] == '[')
        return error("structured dtypes (a list descr) are not supported");
      absl::StatusOr<std::string> descr = parseString();
      if (!descr.ok())
        return descr.status();
      header.descr = *descr;
      return absl::OkStatus();
    }
    if (key == "fortran_order") {
      if (consumeWord("True"))
        header.fortranOrder = true;
      else if (consumeWord("False"))
        header.fortranOrder = false;
      else
        return error("'fortran_order' must be True or False");
      return absl::OkStatus();
    }
    if (key == "shape")
      return parseShape(header);
    return error(absl::StrCat("unexpected key '", key, "'"));
  }

  absl::Status parseShape(Header &header) {
    if (!consume('('))
      return error("'shape' must be a tuple");
    std::vector<int64_t> shape;
    while (true) {
      skipSpace();
      if (consume(')'))
        break;
      if (pos >= text.size() || text[pos] < '0' || text[pos] > '9')
        return error("'shape' must be a tuple of non-negative integers");
      int64_t value = 0;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
        int digit = text[pos++] - '0';
        if (value > (INT64_MAX - digit) / 10)
          return error("a dimension in 'shape' overflows int64");
        value = value * 10 + digit;
      }
      consume('L'); // Python 2 long suffix
      shape.push_back(value);
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (consume(')'))
        break;
      return error("expected ',' or ')' in 'shape'");
    }
    header.shape = std::move(shape);
    return absl::OkStatus();
  }

  absl::string_view text;
  absl::string_view name;
  size_t pos = 0;
};

uint32_t readLittleEndian(const unsigned char *bytes, int count) {
  uint32_t value = 0;
  for (int i = count - 1; i >= 0; --i)
    value = (value << 8) | bytes[i];
  return value;
}

} // namespace

absl::StatusOr<HostArray> parseNpy(absl::string_view bytes,
                                   absl::string_view name) {
  if (bytes.size() < kMagicSize ||
      std::memcmp(bytes.data(), kMagic, kMagicSize) != 0)
    return npyError(name, "not a .npy file (bad magic; expected "
                          "\\x93NUMPY)");
  if (bytes.size() < kMagicSize + 2)
    return npyError(name, "file is truncated before the format version");
  auto *raw = reinterpret_cast<const unsigned char *>(bytes.data());
  int major = raw[6], minor = raw[7];
  int lengthBytes = major == 1 ? 2 : 4;
  if (major < 1 || major > 3)
    return npyError(name, absl::StrCat("unsupported .npy format version ",
                                       major, ".", minor));
  size_t headerStart = kMagicSize + 2 + lengthBytes;
  if (bytes.size() < headerStart)
    return npyError(name, "file is truncated before the header length");
  uint64_t headerLength = readLittleEndian(raw + 8, lengthBytes);
  if (bytes.size() - headerStart < headerLength)
    return npyError(name, absl::StrCat("header is truncated (header length ",
                                       headerLength, " but only ",
                                       bytes.size() - headerStart,
                                       " bytes follow)"));
  absl::StatusOr<Header> header =
      HeaderParser(bytes.substr(headerStart, headerLength), name).parse();
  if (!header.ok())
    return header.status();
  if (*header->fortranOrder)
    return npyError(name, "fortran_order=True arrays are not supported "
                          "(save a C-order array, e.g. np.ascontiguousarray)");
  absl::StatusOr<DType> dtype = descrToDType(*header->descr, name);
  if (!dtype.ok())
    return dtype.status();
  absl::StatusOr<int64_t> count = shapeElementCount(*header->shape);
  if (!count.ok())
    return npyError(name, count.status().message());
  absl::string_view data = bytes.substr(headerStart + headerLength);
  int64_t expected = *count * dtypeByteSize(*dtype);
  if (static_cast<int64_t>(data.size()) != expected)
    return npyError(
        name, absl::StrCat("data size mismatch: ",
                           shapeString(*dtype, *header->shape), " needs ",
                           expected, " bytes but the file has ", data.size()));
  Bytes elements(data.begin(), data.end());
  if (*dtype == DType::Pred)
    for (uint8_t &byte : elements)
      byte = byte != 0;
  return HostArray::fromBytes(*dtype, std::move(*header->shape),
                              std::move(elements));
}

absl::StatusOr<HostArray> readNpyFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return absl::NotFoundError(
        absl::StrCat(path, ": cannot open: ", std::strerror(errno)));
  std::ostringstream contents;
  contents << file.rdbuf();
  if (file.bad())
    return absl::DataLossError(absl::StrCat(path, ": read error"));
  return parseNpy(contents.str(), path);
}

namespace {
/// `array` (int8 or uint8) retagged as s4 or u4 after checking that every
/// element is in [-8, 7] or [0, 15]; an error names the file and the index.
absl::StatusOr<HostArray> asInt4(HostArray array, DType int4,
                                 absl::string_view path) {
  bool isSigned = int4 == DType::S4;
  DType bytes = isSigned ? DType::S8 : DType::U8;
  if (array.dtype() != bytes)
    return npyError(
        path, absl::StrCat(dtypeName(int4), " parameters are read from ",
                           isSigned ? "int8 (|i1)" : "uint8 (|u1)",
                           " arrays; this one is ",
                           shapeString(array.dtype(), array.shape())));
  int lo = isSigned ? -8 : 0, hi = isSigned ? 7 : 15;
  for (int64_t i = 0; i < array.elementCount(); ++i) {
    int value = isSigned ? static_cast<int>(static_cast<int8_t>(array.data()[i]))
                         : static_cast<int>(array.data()[i]);
    if (value < lo || value > hi)
      return npyError(path, absl::StrCat("element ", i, " is ", value,
                                         ", outside ", dtypeName(int4), "'s [",
                                         lo, ", ", hi, "]"));
  }
  return HostArray::fromBytes(
      int4, array.shape(),
      Bytes(array.data(), array.data() + array.byteSize()));
}
} // namespace

absl::StatusOr<HostArray> readNpyFileAs(const std::string &path,
                                        DType expected) {
  absl::StatusOr<HostArray> array = readNpyFile(path);
  if (!array.ok())
    return array;
  if (expected == DType::S4 || expected == DType::U4)
    return asInt4(std::move(*array), expected, path);
  if (!f8Format(expected) || array->dtype() != DType::U8)
    return array;
  return HostArray::fromBytes(
      expected, array->shape(),
      Bytes(array->data(), array->data() + array->byteSize()));
}

std::string serializeNpy(const HostArray &array,
                         const NpyWriteOptions &options) {
  bool widenBf16 =
      array.dtype() == DType::BF16 && options.bf16 == Bf16Encoding::Float32;
  std::string descr = widenBf16 ? "<f4" : descrFor(array.dtype());
  std::string shape = absl::StrJoin(array.shape(), ", ");
  if (array.rank() == 1)
    shape += ",";
  std::string header = absl::StrCat("{'descr': '", descr,
                                    "', 'fortran_order': False, 'shape': (",
                                    shape, "), }");
  // Pad with spaces and a final newline so the data starts 64-byte aligned.
  size_t preamble = header.size() + 1 + 63 > 65535 ? 12 : 10;
  size_t total = preamble + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  int major = preamble == 10 ? 1 : 2;

  std::string out(kMagic, kMagicSize);
  out.push_back(static_cast<char>(major));
  out.push_back(0);
  uint32_t length = static_cast<uint32_t>(header.size());
  for (size_t i = 0; i < preamble - 8; ++i)
    out.push_back(static_cast<char>((length >> (8 * i)) & 0xFF));
  out += header;
  if (!widenBf16) {
    out.append(reinterpret_cast<const char *>(array.data()),
               static_cast<size_t>(array.byteSize()));
    return out;
  }
  for (int64_t i = 0; i < array.elementCount(); ++i) {
    uint16_t bits = static_cast<uint16_t>(array.data()[2 * i] |
                                          (array.data()[2 * i + 1] << 8));
    uint32_t wide = floatBits(bf16BitsToF32(bits));
    for (int b = 0; b < 4; ++b)
      out.push_back(static_cast<char>((wide >> (8 * b)) & 0xFF));
  }
  return out;
}

absl::Status writeNpyFile(const std::string &path, const HostArray &array,
                          const NpyWriteOptions &options) {
  std::string bytes = serializeNpy(array, options);
  std::string tempPath = path + ".tmpXXXXXX";
  int fd = mkstemp(tempPath.data());
  if (fd < 0)
    return absl::PermissionDeniedError(absl::StrCat(
        path, ": cannot create a temporary file: ", std::strerror(errno)));
  auto fail = [&](absl::string_view what) {
    int savedErrno = errno;
    if (fd >= 0)
      close(fd);
    unlink(tempPath.c_str());
    return absl::InternalError(absl::StrCat(path, ": ", what, ": ",
                                            std::strerror(savedErrno)));
  };
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return fail("write failed");
    written += static_cast<size_t>(n);
  }
  if (fchmod(fd, 0644) != 0)
    return fail("chmod failed");
  int closeResult = close(fd);
  fd = -1;
  if (closeResult != 0)
    return fail("close failed");
  if (std::rename(tempPath.c_str(), path.c_str()) != 0)
    return fail("rename failed");
  return absl::OkStatus();
}

} // namespace tpuc::hostio
