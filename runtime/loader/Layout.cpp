#include "runtime/loader/Layout.h"

#include <cstring>
#include <limits>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "runtime/hostio/FloatConversion.h"

namespace tpuc::runtime {
namespace {

constexpr int kMaxRank = 16;
// Keeps every intermediate of the tiling arithmetic far from overflow.
constexpr int64_t kMaxDim = int64_t(1) << 48;

// Physical order (major to minor) of the logical dims.
std::vector<int> physicalOrder(const exe::Shape &shape) {
  int rank = shape.dims_size();
  std::vector<int> order(rank);
  const auto &m2m = shape.layout().minor_to_major();
  for (int i = 0; i < rank; ++i)
    order[i] = m2m.empty() ? i : static_cast<int>(m2m[rank - 1 - i]);
  return order;
}

// Maps a physical index (major to minor, in `idx`, sized like the physical
// dims) through the tiles, producing the tiled index and dims. Used both
// for sizes (idx all zero) and for element offsets.
void applyTiles(const exe::Layout &layout, std::vector<int64_t> &dims,
                std::vector<int64_t> &idx) {
  for (const exe::Tile &tile : layout.tiles()) {
    int k = tile.dims_size();
    while (static_cast<int>(dims.size()) < k) {
      dims.insert(dims.begin(), 1);
      idx.insert(idx.begin(), 0);
    }
    size_t first = dims.size() - k;
    std::vector<int64_t> innerDims, innerIdx;
    for (int i = 0; i < k; ++i) {
      int64_t t = tile.dims(i);
      int64_t d = dims[first + i];
      dims[first + i] = (d + t - 1) / t;
      innerDims.push_back(t);
      innerIdx.push_back(idx[first + i] % t);
      idx[first + i] /= t;
    }
    dims.insert(dims.end(), innerDims.begin(), innerDims.end());
    idx.insert(idx.end(), innerIdx.begin(), innerIdx.end());
  }
}

// Calls fn(hostElementIndex, deviceElementIndex, count) for every run of
// `count` elements that are consecutive on both sides (along the minor
// logical dim, e.g. the 128 lanes of a tile row), covering every element.
//
// Every tiled coordinate comes from exactly one logical dim (i / t or i % t
// of it), so the device offset is a sum of per-dim terms: table[d][i] is
// the offset of the element whose only non-zero index is i in dim d.
template <typename Fn>
void forEachRun(const exe::Shape &shape, Fn fn) {
  int rank = shape.dims_size();
  if (elementCount(shape) == 0)
    return;
  std::vector<int> order = physicalOrder(shape);
  std::vector<int64_t> tiled, idx;
  std::vector<std::vector<int64_t>> table(rank);
  for (int p = 0; p < rank; ++p) {
    int d = order[p];
    for (int64_t i = 0; i < shape.dims(d); ++i) {
      tiled.clear();
      idx.assign(rank, 0);
      for (int q : order)
        tiled.push_back(shape.dims(q));
      idx[p] = i;
      applyTiles(shape.layout(), tiled, idx);
      int64_t offset = 0;
      for (size_t k = 0; k < tiled.size(); ++k)
        offset = offset * tiled[k] + idx[k];
      table[d].push_back(offset);
    }
  }
  if (rank == 0) {
    fn(0, 0, 1);
    return;
  }
  // The minor dim's runs: (first index, device offset, length).
  struct Run {
    int64_t first, offset, length;
  };
  std::vector<Run> runs;
  const std::vector<int64_t> &minor = table[rank - 1];
  for (int64_t i = 0; i < static_cast<int64_t>(minor.size()); ++i)
    if (!runs.empty() && minor[i] == runs.back().offset + runs.back().length)
      ++runs.back().length;
    else
      runs.push_back({i, minor[i], 1});
  // Row-major odometer over all but the last logical dim.
  std::vector<int64_t> logical(rank, 0);
  int64_t host = 0;
  while (true) {
    int64_t base = 0;
    for (int d = 0; d < rank - 1; ++d)
      base += table[d][logical[d]];
    for (const Run &run : runs)
      fn(host + run.first, base + run.offset, run.length);
    host += static_cast<int64_t>(minor.size());
    int d = rank - 2;
    for (; d >= 0; --d) {
      if (++logical[d] < shape.dims(d))
        break;
      logical[d] = 0;
    }
    if (d < 0)
      return;
  }
}

// Calls fn(hostElementIndex, deviceElementIndex) for every element.
template <typename Fn>
void forEachElement(const exe::Shape &shape, Fn fn) {
  forEachRun(shape, [&](int64_t host, int64_t device, int64_t count) {
    for (int64_t k = 0; k < count; ++k)
      fn(host + k, device + k);
  });
}

absl::Status checkConvertible(exe::DType host, exe::DType device) {
  if (host == device || (host == exe::F32 && device == exe::BF16) ||
      (host == exe::BF16 && device == exe::F32) ||
      (isWordHostType(host) && device == exe::S32) ||
      (isFloatWordHostType(host) && device == exe::F32) ||
      (host == exe::S64 && device == exe::S32) ||
      (host == exe::U64 && device == exe::U32))
    return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("cannot convert host ", dtypeName(host), " to device ",
                   dtypeName(device)));
}

// Copies every element of `shape` from `src` (element type `from`, indexed
// by `srcIndex(h, d)`) to `dst` (type `to`, `dstIndex(h, d)`), for element
// types checked by checkConvertible. The conversion is chosen once, so the
// per-element work is one rounding, and an array of one type on both sides
// is copied a run of consecutive elements (a tile row) at a time.
template <typename SrcIndex, typename DstIndex>
void convertElements(const exe::Shape &shape, exe::DType from,
                     const uint8_t *src, exe::DType to, uint8_t *dst,
                     SrcIndex srcIndex, DstIndex dstIndex) {
  auto copy = [&](auto bytes) {
    constexpr int64_t n = decltype(bytes)::value;
    forEachRun(shape, [&](int64_t h, int64_t d, int64_t count) {
      std::memcpy(dst + dstIndex(h, d) * n, src + srcIndex(h, d) * n,
                  count * n);
    });
  };
  // s64/u64 over 32-bit words: element h of the planar words [2, d...]
  // (row-major over the device's dims) is word h / n of host element h % n,
  // the host's 32-bit word 2 (h % n) + h / n (little-endian).
  if (from != to && (isX64HostType(from) || isX64HostType(to))) {
    int64_t n = elementCount(shape) / 2;
    auto word = [n](int64_t h) { return 2 * (h % n) + h / n; };
    bool in = isX64HostType(from);
    forEachElement(shape, [&](int64_t h, int64_t d) {
      if (in)
        std::memcpy(dst + dstIndex(h, d) * 4, src + word(srcIndex(h, d)) * 4,
                    4);
      else
        std::memcpy(dst + word(dstIndex(h, d)) * 4, src + srcIndex(h, d) * 4,
                    4);
    });
    return;
  }
  if (from == to) {
    switch (elementBytes(from)) {
    case 1:
      return copy(std::integral_constant<int64_t, 1>());
    case 2:
      return copy(std::integral_constant<int64_t, 2>());
    case 4:
      return copy(std::integral_constant<int64_t, 4>());
    default:
      return copy(std::integral_constant<int64_t, 8>());
    }
  }
  // pred: host bytes, device 0/1 words; any nonzero word reads as true.
  if (from == exe::PRED || to == exe::PRED) {
    forEachElement(shape, [&](int64_t h, int64_t d) {
      if (from == exe::PRED) {
        int32_t w = src[srcIndex(h, d)] != 0;
        std::memcpy(dst + dstIndex(h, d) * 4, &w, 4);
      } else {
        int32_t w;
        std::memcpy(&w, src + srcIndex(h, d) * 4, 4);
        dst[dstIndex(h, d)] = w != 0;
      }
    });
    return;
  }
  // s4/u4 (a byte each on the host), s8/u8/s16/u16: extended into s32 words; the words' low bits back.
  if (isWordHostType(from) || isWordHostType(to)) {
    bool in = isWordHostType(from);
    exe::DType narrow = in ? from : to;
    int64_t n = elementBytes(narrow);
    bool isSigned =
        narrow == exe::S4 || narrow == exe::S8 || narrow == exe::S16;
    forEachElement(shape, [&](int64_t h, int64_t d) {
      if (in) {
        uint32_t bits = 0;
        std::memcpy(&bits, src + srcIndex(h, d) * n, n); // little-endian
        int32_t w = isSigned && n == 1   ? static_cast<int8_t>(bits)
                    : isSigned && n == 2 ? static_cast<int16_t>(bits)
                                         : static_cast<int32_t>(bits);
        std::memcpy(dst + dstIndex(h, d) * 4, &w, 4);
      } else {
        std::memcpy(dst + dstIndex(h, d) * n, src + srcIndex(h, d) * 4, n);
      }
    });
    return;
  }
  // f16 and the f8 types: f32 words holding the value (exact both ways for
  // their values).
  if (isFloatWordHostType(from) || isFloatWordHostType(to)) {
    bool in = isFloatWordHostType(from);
    exe::DType narrow = in ? from : to;
    int64_t n = elementBytes(narrow);
    const hostio::F8Format *f8 = hostio::f8Format(toHostDType(narrow));
    forEachElement(shape, [&](int64_t h, int64_t d) {
      uint16_t bits = 0; // little-endian: the low n bytes
      float f;
      if (in) {
        std::memcpy(&bits, src + srcIndex(h, d) * n, n);
        f = f8 ? hostio::f8BitsToF32(static_cast<uint8_t>(bits), *f8)
               : hostio::f16BitsToF32(bits);
        std::memcpy(dst + dstIndex(h, d) * 4, &f, 4);
      } else {
        std::memcpy(&f, src + srcIndex(h, d) * 4, 4);
        bits = f8 ? hostio::f32ToF8Bits(f, *f8) : hostio::f32ToF16Bits(f);
        std::memcpy(dst + dstIndex(h, d) * n, &bits, n);
      }
    });
    return;
  }
  if (from == exe::F32) {
    forEachElement(shape, [&](int64_t h, int64_t d) {
      float f;
      std::memcpy(&f, src + srcIndex(h, d) * 4, 4);
      uint16_t b = hostio::f32ToBf16Bits(f);
      std::memcpy(dst + dstIndex(h, d) * 2, &b, 2);
    });
    return;
  }
  forEachElement(shape, [&](int64_t h, int64_t d) {
    uint16_t b;
    std::memcpy(&b, src + srcIndex(h, d) * 2, 2);
    float f = hostio::bf16BitsToF32(b);
    std::memcpy(dst + dstIndex(h, d) * 4, &f, 4);
  });
}

absl::Status checkSizes(const exe::Shape &device, exe::DType hostType,
                        size_t hostSize, size_t deviceSize) {
  if (absl::Status s = checkConvertible(hostType, device.dtype()); !s.ok())
    return s;
  absl::StatusOr<int64_t> padded = paddedByteSize(device);
  if (!padded.ok())
    return padded.status();
  bool words = isX64HostType(hostType) && hostType != device.dtype();
  if (words && (device.dims_size() == 0 || device.dims(0) != 2))
    return absl::InvalidArgumentError(absl::StrCat(
        "host ", dtypeName(hostType),
        " needs a device array of its 32-bit words [2, ...]"));
  // An s64/u64 array's 32-bit words are the device's elements.
  int64_t hostBytes =
      elementCount(device) * elementBytes(words ? device.dtype() : hostType);
  if (static_cast<int64_t>(hostSize) != hostBytes)
    return absl::InvalidArgumentError(
        absl::StrCat("host array has ", hostSize, " bytes, expected ",
                     hostBytes));
  if (static_cast<int64_t>(deviceSize) != *padded)
    return absl::InvalidArgumentError(absl::StrCat(
        "device array has ", deviceSize, " bytes, expected ", *padded));
  return absl::OkStatus();
}

} // namespace

namespace {
// Every device element type: its size, its XLA name and its host type.
struct DTypeInfo {
  exe::DType device;
  int64_t bytes;
  const char *name;
  hostio::DType host;
};

constexpr DTypeInfo kDTypes[] = {
    {exe::F32, 4, "f32", hostio::DType::F32},
    {exe::BF16, 2, "bf16", hostio::DType::BF16},
    {exe::S32, 4, "s32", hostio::DType::S32},
    {exe::PRED, 1, "pred", hostio::DType::Pred},
    {exe::F16, 2, "f16", hostio::DType::F16},
    {exe::F64, 8, "f64", hostio::DType::F64},
    {exe::S4, 1, "s4", hostio::DType::S4},
    {exe::U4, 1, "u4", hostio::DType::U4},
    {exe::S8, 1, "s8", hostio::DType::S8},
    {exe::S16, 2, "s16", hostio::DType::S16},
    {exe::S64, 8, "s64", hostio::DType::S64},
    {exe::U8, 1, "u8", hostio::DType::U8},
    {exe::U16, 2, "u16", hostio::DType::U16},
    {exe::U32, 4, "u32", hostio::DType::U32},
    {exe::U64, 8, "u64", hostio::DType::U64},
    {exe::F8E4M3FN, 1, "f8e4m3fn", hostio::DType::F8E4M3FN},
    {exe::F8E5M2, 1, "f8e5m2", hostio::DType::F8E5M2},
    {exe::F8E4M3, 1, "f8e4m3", hostio::DType::F8E4M3},
    {exe::F8E4M3FNUZ, 1, "f8e4m3fnuz", hostio::DType::F8E4M3FNUZ},
    {exe::F8E5M2FNUZ, 1, "f8e5m2fnuz", hostio::DType::F8E5M2FNUZ},
    {exe::F8E4M3B11FNUZ, 1, "f8e4m3b11fnuz", hostio::DType::F8E4M3B11FNUZ},
    {exe::F8E3M4, 1, "f8e3m4", hostio::DType::F8E3M4},
};

const DTypeInfo *findDType(exe::DType dtype) {
  for (const DTypeInfo &info : kDTypes)
    if (info.device == dtype)
      return &info;
  return nullptr;
}
} // namespace

int64_t elementBytes(exe::DType dtype) {
  const DTypeInfo *info = findDType(dtype);
  return info ? info->bytes : 0;
}

bool isFloatWordHostType(exe::DType host) {
  return host == exe::F16 || hostio::f8Format(toHostDType(host));
}

bool isX64HostType(exe::DType host) {
  return host == exe::S64 || host == exe::U64;
}

bool isWordHostType(exe::DType host) {
  return host == exe::PRED || host == exe::S4 || host == exe::U4 ||
         host == exe::S8 || host == exe::U8 || host == exe::S16 ||
         host == exe::U16;
}

const char *dtypeName(exe::DType dtype) {
  const DTypeInfo *info = findDType(dtype);
  return info ? info->name : "invalid";
}

hostio::DType toHostDType(exe::DType dtype) {
  const DTypeInfo *info = findDType(dtype);
  return info ? info->host : hostio::DType::F32;
}

absl::StatusOr<exe::DType> toDeviceDType(hostio::DType dtype) {
  for (const DTypeInfo &info : kDTypes)
    if (info.host == dtype)
      return info.device;
  return absl::InvalidArgumentError(absl::StrCat(
      "element type ", hostio::dtypeName(dtype), " has no device type"));
}

absl::Status validateShape(const exe::Shape &shape) {
  if (elementBytes(shape.dtype()) == 0)
    return absl::InvalidArgumentError(
        absl::StrCat("invalid dtype ", static_cast<int>(shape.dtype())));
  int rank = shape.dims_size();
  if (rank > kMaxRank)
    return absl::InvalidArgumentError(
        absl::StrCat("rank ", rank, " exceeds ", kMaxRank));
  for (int64_t d : shape.dims())
    if (d < 0 || d > kMaxDim)
      return absl::InvalidArgumentError(
          absl::StrCat("dim ", d, " not in [0, 2^48]"));
  const auto &m2m = shape.layout().minor_to_major();
  if (!m2m.empty()) {
    if (m2m.size() != rank)
      return absl::InvalidArgumentError(
          absl::StrCat("minor_to_major has ", m2m.size(),
                       " entries for rank ", rank));
    std::vector<bool> seen(rank, false);
    for (int64_t d : m2m) {
      if (d < 0 || d >= rank || seen[d])
        return absl::InvalidArgumentError(
            "minor_to_major is not a permutation of the dims");
      seen[d] = true;
    }
  }
  if (shape.layout().tiles_size() > 4)
    return absl::InvalidArgumentError("more than 4 tiles");
  for (const exe::Tile &tile : shape.layout().tiles()) {
    if (tile.dims_size() == 0 || tile.dims_size() > kMaxRank)
      return absl::InvalidArgumentError("tile must have 1 to 16 dims");
    for (int64_t t : tile.dims())
      if (t <= 0 || t > (1 << 20))
        return absl::InvalidArgumentError(
            absl::StrCat("tile dim ", t, " not in [1, 2^20]"));
  }
  // Bound the padded size so that every later product fits in int64.
  int64_t bytes = elementBytes(shape.dtype());
  std::vector<int64_t> dims, idx;
  for (int p : physicalOrder(shape))
    dims.push_back(shape.dims(p));
  idx.assign(dims.size(), 0);
  applyTiles(shape.layout(), dims, idx);
  for (int64_t d : dims)
    if (__builtin_mul_overflow(bytes, d, &bytes))
      return absl::InvalidArgumentError("padded size overflows 64 bits");
  return absl::OkStatus();
}

int64_t elementCount(const exe::Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape.dims())
    n *= d;
  return n;
}

absl::StatusOr<std::vector<int64_t>> tiledDims(const exe::Shape &shape) {
  if (absl::Status s = validateShape(shape); !s.ok())
    return s;
  std::vector<int64_t> dims, idx;
  for (int p : physicalOrder(shape))
    dims.push_back(shape.dims(p));
  idx.assign(dims.size(), 0);
  applyTiles(shape.layout(), dims, idx);
  return dims;
}

absl::StatusOr<int64_t> paddedByteSize(const exe::Shape &shape) {
  absl::StatusOr<std::vector<int64_t>> dims = tiledDims(shape);
  if (!dims.ok())
    return dims.status();
  int64_t bytes = elementBytes(shape.dtype());
  for (int64_t d : *dims)
    bytes *= d; // validateShape bounded this product.
  return bytes;
}

absl::Status hostToDevice(const exe::Shape &device, exe::DType hostType,
                          absl::Span<const uint8_t> hostBytes,
                          absl::Span<uint8_t> deviceBytes) {
  if (absl::Status s =
          checkSizes(device, hostType, hostBytes.size(), deviceBytes.size());
      !s.ok())
    return s;
  // Padding is zero; a layout without any is written whole below (no
  // first pass over hundreds of MB of weights).
  if (static_cast<int64_t>(deviceBytes.size()) !=
      elementCount(device) * elementBytes(device.dtype()))
    std::memset(deviceBytes.data(), 0, deviceBytes.size());
  convertElements(
      device, hostType, hostBytes.data(), device.dtype(), deviceBytes.data(),
      [](int64_t h, int64_t) { return h; }, [](int64_t, int64_t d) { return d; });
  return absl::OkStatus();
}

absl::Status deviceToHost(const exe::Shape &device, exe::DType hostType,
                          absl::Span<const uint8_t> deviceBytes,
                          absl::Span<uint8_t> hostBytes) {
  if (absl::Status s =
          checkSizes(device, hostType, hostBytes.size(), deviceBytes.size());
      !s.ok())
    return s;
  convertElements(
      device, device.dtype(), deviceBytes.data(), hostType, hostBytes.data(),
      [](int64_t, int64_t d) { return d; }, [](int64_t h, int64_t) { return h; });
  return absl::OkStatus();
}

} // namespace tpuc::runtime
