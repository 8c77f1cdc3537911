//===- Sharding.cpp - XLA shardings and replica groups --------------------===//

#include "dialects/hlo/Sharding.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <numeric>

using namespace tpuc::hlo;
using llvm::StringRef;

std::vector<int64_t> IotaDevices::expand() const {
  int64_t count = 1;
  for (int64_t dim : reshapeDims)
    count *= dim;
  std::vector<int64_t> perm = transposePerm;
  if (perm.empty()) {
    perm.resize(reshapeDims.size());
    std::iota(perm.begin(), perm.end(), 0);
  }
  // Strides of the reshaped iota; output dimension k walks input dimension
  // perm[k].
  size_t rank = reshapeDims.size();
  std::vector<int64_t> strides(rank, 1);
  for (size_t i = rank; i-- > 1;)
    strides[i - 1] = strides[i] * reshapeDims[i];
  std::vector<int64_t> out;
  out.reserve(count);
  std::vector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t value = 0;
    for (size_t k = 0; k < rank; ++k)
      value += index[k] * strides[perm[k]];
    out.push_back(value);
    for (size_t k = rank; k-- > 0;) {
      if (++index[k] < reshapeDims[perm[k]])
        break;
      index[k] = 0;
    }
  }
  return out;
}

size_t Sharding::numDataTileDims() const {
  size_t trailing = lastTileDims.size() + (lastTileDimReplicate ? 1 : 0);
  return tileDims.size() >= trailing ? tileDims.size() - trailing : 0;
}

std::optional<std::vector<int64_t>>
Sharding::tileIndexOf(int64_t target) const {
  auto it = llvm::find(devices, target);
  if (it == devices.end())
    return std::nullopt;
  int64_t linear = it - devices.begin();
  std::vector<int64_t> index(tileDims.size());
  for (size_t i = tileDims.size(); i-- > 0;) {
    index[i] = linear % tileDims[i];
    linear /= tileDims[i];
  }
  return index;
}

std::string Sharding::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  switch (kind) {
  case Kind::Replicated:
    return "{replicated}";
  case Kind::Manual:
    return "{manual}";
  case Kind::Unknown:
    return "{unknown}";
  case Kind::Maximal:
    os << "{maximal device=" << device << "}";
    return text;
  case Kind::Tuple:
    os << "{";
    llvm::interleave(
        elements, os, [&](const Sharding &s) { os << s.str(); }, ", ");
    os << "}";
    return text;
  case Kind::Tiled:
    break;
  }
  os << "{devices=[" << llvm::join(llvm::map_range(tileDims, [](int64_t d) {
                                     return std::to_string(d);
                                   }),
                                   ",")
     << "]";
  if (iota) {
    os << "<=[" << llvm::join(llvm::map_range(iota->reshapeDims,
                                              [](int64_t d) {
                                                return std::to_string(d);
                                              }),
                              ",")
       << "]";
    if (!iota->transposePerm.empty())
      os << "T(" << llvm::join(llvm::map_range(iota->transposePerm,
                                               [](int64_t d) {
                                                 return std::to_string(d);
                                               }),
                               ",")
         << ")";
  } else {
    os << llvm::join(
        llvm::map_range(devices, [](int64_t d) { return std::to_string(d); }),
        ",");
  }
  if (lastTileDimReplicate)
    os << " last_tile_dim_replicate";
  if (!lastTileDims.empty())
    os << " last_tile_dims={" << llvm::join(lastTileDims, ", ") << "}";
  os << "}";
  return text;
}

namespace {

/// A cursor over the text with XLA-style small-token helpers.
class Parser {
public:
  Parser(StringRef text, ShardingError &error) : text(text), error(error) {}

  bool fail(const llvm::Twine &message) {
    if (!failed) {
      error.message = message.str();
      error.offset = pos;
    }
    failed = true;
    return false;
  }
  void skipSpace() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool peek(StringRef token) {
    skipSpace();
    return text.substr(pos).starts_with(token);
  }
  bool consume(StringRef token) {
    if (!peek(token))
      return false;
    pos += token.size();
    return true;
  }
  bool expect(StringRef token, const llvm::Twine &what) {
    if (consume(token))
      return true;
    return fail("expected " + what);
  }
  bool atEnd() {
    skipSpace();
    return pos >= text.size();
  }
  bool parseInt(int64_t &value, const llvm::Twine &what) {
    skipSpace();
    size_t start = pos;
    if (pos < text.size() && text[pos] == '-')
      ++pos;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])))
      ++pos;
    if (text.substr(start, pos - start).getAsInteger(10, value)) {
      pos = start;
      return fail("expected " + what);
    }
    return true;
  }
  /// `[a,b,...]` (non-empty, each > 0 unless `allowZero`).
  bool parseDims(std::vector<int64_t> &dims, const llvm::Twine &what) {
    if (!expect("[", "'[' to start " + what))
      return false;
    do {
      int64_t value = 0;
      size_t at = (skipSpace(), pos);
      if (!parseInt(value, "an integer in " + what))
        return false;
      if (value <= 0) {
        pos = at;
        return fail(what + " must be positive, got " + llvm::Twine(value));
      }
      dims.push_back(value);
    } while (consume(","));
    return expect("]", "']' to end " + what);
  }
  /// `<=[dims]` or `<=[dims]T(perm)` after the tile/group dimensions.
  bool parseIota(IotaDevices &iota) {
    if (!parseDims(iota.reshapeDims, "the iota reshape dimensions"))
      return false;
    if (consume("T(")) {
      do {
        int64_t value = 0;
        if (!parseInt(value, "a dimension in the transpose T(...)"))
          return false;
        iota.transposePerm.push_back(value);
      } while (consume(","));
      if (!expect(")", "')' to end the transpose"))
        return false;
      std::vector<int64_t> sorted = iota.transposePerm;
      llvm::sort(sorted);
      for (size_t i = 0; i < sorted.size(); ++i)
        if (sorted[i] != static_cast<int64_t>(i) ||
            sorted.size() != iota.reshapeDims.size())
          return fail("the transpose T(...) must be a permutation of the " +
                      llvm::Twine(iota.reshapeDims.size()) +
                      " reshape dimensions");
    }
    return true;
  }
  /// Skips `metadata={...}` (balanced braces).
  bool skipMetadata() {
    if (!expect("{", "'{' after metadata="))
      return false;
    int depth = 1;
    bool inString = false;
    while (pos < text.size() && depth > 0) {
      char c = text[pos++];
      if (inString) {
        if (c == '\\')
          ++pos;
        else if (c == '"')
          inString = false;
      } else if (c == '"') {
        inString = true;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}') {
        --depth;
      }
    }
    return depth == 0 || fail("unterminated metadata={...}");
  }

  bool parseSharding(Sharding &sharding) {
    if (!expect("{", "'{' to start a sharding"))
      return false;
    skipSpace();
    if (peek("{") || peek("}")) {
      // A tuple sharding: {{...}, {...}} or {} for an empty tuple.
      sharding.kind = Sharding::Kind::Tuple;
      if (consume("}"))
        return true;
      do {
        if (!parseSharding(sharding.elements.emplace_back()))
          return false;
      } while (consume(","));
      return expect("}", "'}' to end the tuple sharding");
    }
    if (consume("replicated")) {
      sharding.kind = Sharding::Kind::Replicated;
    } else if (consume("manual")) {
      sharding.kind = Sharding::Kind::Manual;
    } else if (consume("unknown")) {
      sharding.kind = Sharding::Kind::Unknown;
    } else if (consume("maximal")) {
      sharding.kind = Sharding::Kind::Maximal;
      if (!expect("device=", "'device=' after maximal") ||
          !parseInt(sharding.device, "a device number"))
        return false;
      if (sharding.device < 0)
        return fail("device numbers are non-negative");
    } else if (consume("devices=")) {
      sharding.kind = Sharding::Kind::Tiled;
      if (!parseTiled(sharding))
        return false;
    } else {
      return fail("expected replicated, maximal, manual, unknown, devices= "
                  "or a tuple sharding");
    }
    while (!peek("}")) {
      if (consume("last_tile_dim_replicate")) {
        if (sharding.kind != Sharding::Kind::Tiled)
          return fail("last_tile_dim_replicate needs devices=");
        sharding.lastTileDimReplicate = true;
      } else if (consume("last_tile_dims=")) {
        if (sharding.kind != Sharding::Kind::Tiled)
          return fail("last_tile_dims needs devices=");
        if (!expect("{", "'{' after last_tile_dims="))
          return false;
        do {
          if (consume("manual"))
            sharding.lastTileDims.push_back("manual");
          else if (consume("replicated"))
            sharding.lastTileDims.push_back("replicated");
          else
            return fail("expected manual or replicated in last_tile_dims");
        } while (consume(","));
        if (!expect("}", "'}' to end last_tile_dims"))
          return false;
      } else if (consume("metadata=")) {
        if (!skipMetadata())
          return false;
      } else {
        return fail("unexpected text in the sharding");
      }
    }
    pos += 1; // '}'
    if (sharding.kind == Sharding::Kind::Tiled) {
      size_t trailing = sharding.lastTileDims.size() +
                        (sharding.lastTileDimReplicate ? 1 : 0);
      if (trailing > sharding.tileDims.size())
        return fail("the tile assignment has " +
                    llvm::Twine(sharding.tileDims.size()) +
                    " dimensions, fewer than its " + llvm::Twine(trailing) +
                    " subgroup dimensions");
    }
    return true;
  }

  bool parseTiled(Sharding &sharding) {
    if (!parseDims(sharding.tileDims, "the tile assignment dimensions"))
      return false;
    int64_t count = 1;
    for (int64_t dim : sharding.tileDims)
      count *= dim;
    size_t listStart = (skipSpace(), pos);
    if (consume("<=")) {
      IotaDevices &iota = sharding.iota.emplace();
      if (!parseIota(iota))
        return false;
      sharding.devices = iota.expand();
    } else {
      do {
        int64_t device = 0;
        if (!parseInt(device, "a device number"))
          return false;
        sharding.devices.push_back(device);
      } while (consume(","));
    }
    if (static_cast<int64_t>(sharding.devices.size()) != count) {
      pos = listStart;
      return fail("the tile assignment [" +
                  llvm::join(llvm::map_range(sharding.tileDims,
                                             [](int64_t d) {
                                               return std::to_string(d);
                                             }),
                             ",") +
                  "] needs " + llvm::Twine(count) + " devices, found " +
                  llvm::Twine(sharding.devices.size()));
    }
    llvm::SmallSet<int64_t, 16> seen;
    for (int64_t device : sharding.devices)
      if (device < 0 || !seen.insert(device).second) {
        pos = listStart;
        return fail("device " + llvm::Twine(device) +
                    (device < 0 ? " is negative" : " is listed twice") +
                    " in the tile assignment");
      }
    return true;
  }

  StringRef text;
  size_t pos = 0;
  ShardingError &error;
  bool failed = false;
};

} // namespace

std::optional<Sharding> tpuc::hlo::parseSharding(StringRef text,
                                                 ShardingError &error) {
  Parser parser(text, error);
  Sharding sharding;
  if (!parser.parseSharding(sharding))
    return std::nullopt;
  if (!parser.atEnd()) {
    parser.fail("unexpected text after the sharding");
    return std::nullopt;
  }
  return sharding;
}

std::optional<std::vector<std::vector<int64_t>>>
tpuc::hlo::parseIotaReplicaGroups(StringRef text, ShardingError &error) {
  Parser parser(text, error);
  std::vector<int64_t> shape;
  IotaDevices iota;
  if (!parser.parseDims(shape, "the replica group dimensions [groups,size]"))
    return std::nullopt;
  if (shape.size() != 2) {
    parser.pos = 0;
    parser.fail("iota replica groups need two dimensions [groups,size], got " +
                llvm::Twine(shape.size()));
    return std::nullopt;
  }
  if (!parser.expect("<=", "'<=' in the iota replica groups") ||
      !parser.parseIota(iota))
    return std::nullopt;
  if (!parser.atEnd()) {
    parser.fail("unexpected text after the replica groups");
    return std::nullopt;
  }
  std::vector<int64_t> ids = iota.expand();
  if (static_cast<int64_t>(ids.size()) != shape[0] * shape[1]) {
    parser.pos = 0;
    parser.fail("iota replica groups [" + llvm::Twine(shape[0]) + "," +
                llvm::Twine(shape[1]) + "] need " +
                llvm::Twine(shape[0] * shape[1]) + " ids, the iota has " +
                llvm::Twine(ids.size()));
    return std::nullopt;
  }
  std::vector<std::vector<int64_t>> groups(shape[0]);
  for (int64_t g = 0; g < shape[0]; ++g)
    groups[g].assign(ids.begin() + g * shape[1],
                     ids.begin() + (g + 1) * shape[1]);
  return groups;
}
