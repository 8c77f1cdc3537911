#include "runtime/emulator/Kernels.h"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "runtime/hostio/FloatConversion.h"

namespace tpuc::runtime {
namespace {

using hostio::bf16BitsToF32;

// The lhs widened to f32 once per call (bf16 -> f32 is exact), so the
// inner loops broadcast plain floats.
const float *widenLhs(const uint16_t *bits, int64_t count) {
  thread_local std::vector<float> buf;
  buf.resize(count);
  for (int64_t i = 0; i < count; ++i)
    buf[i] = bf16BitsToF32(bits[i]);
  return buf.data();
}

void matmulPortable(const uint16_t *lhs, const float *w, float *out, int64_t m,
                    int64_t k, int64_t n, bool accumulate) {
  for (int64_t i = 0; i < m; ++i) {
    float *row = out + i * n;
    if (!accumulate)
      for (int64_t j = 0; j < n; ++j)
        row[j] = 0;
    // i-k-j order: each output still accumulates in k order.
    for (int64_t kk = 0; kk < k; ++kk) {
      float a = bf16BitsToF32(lhs[i * k + kk]);
      const float *wrow = w + kk * n;
      for (int64_t j = 0; j < n; ++j)
        row[j] = row[j] + a * wrow[j];
    }
  }
}

// Scalar tail shared by the SIMD paths: columns [j0, n) of row i.
void matmulTail(const float *a, const float *w, float *out, int64_t i,
                int64_t j0, int64_t k, int64_t n, bool accumulate) {
  for (int64_t j = j0; j < n; ++j) {
    float acc = accumulate ? out[i * n + j] : 0.0f;
    for (int64_t kk = 0; kk < k; ++kk)
      acc = acc + a[i * k + kk] * w[kk * n + j];
    out[i * n + j] = acc;
  }
}

// R rows x 16 columns per block, accumulators in 2R ymm registers. A
// multiply then an add (not an FMA): the reference rounds the product.
template <int R>
__attribute__((target("avx2"))) void
blockAvx2(const float *a, const float *w, float *out, int64_t i, int64_t j,
          int64_t k, int64_t n, bool accumulate) {
  __m256 acc[R][2];
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < 2; ++c)
      acc[r][c] = accumulate ? _mm256_loadu_ps(out + (i + r) * n + j + 8 * c)
                             : _mm256_setzero_ps();
  for (int64_t kk = 0; kk < k; ++kk) {
    __m256 b0 = _mm256_loadu_ps(w + kk * n + j);
    __m256 b1 = _mm256_loadu_ps(w + kk * n + j + 8);
    for (int r = 0; r < R; ++r) {
      __m256 x = _mm256_broadcast_ss(a + (i + r) * k + kk);
      acc[r][0] = _mm256_add_ps(acc[r][0], _mm256_mul_ps(x, b0));
      acc[r][1] = _mm256_add_ps(acc[r][1], _mm256_mul_ps(x, b1));
    }
  }
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < 2; ++c)
      _mm256_storeu_ps(out + (i + r) * n + j + 8 * c, acc[r][c]);
}

// R rows x 32 columns per block, accumulators in 2R zmm registers.
template <int R>
__attribute__((target("avx512f"))) void
blockAvx512(const float *a, const float *w, float *out, int64_t i, int64_t j,
            int64_t k, int64_t n, bool accumulate) {
  __m512 acc[R][2];
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < 2; ++c)
      acc[r][c] = accumulate ? _mm512_loadu_ps(out + (i + r) * n + j + 16 * c)
                             : _mm512_setzero_ps();
  for (int64_t kk = 0; kk < k; ++kk) {
    __m512 b0 = _mm512_loadu_ps(w + kk * n + j);
    __m512 b1 = _mm512_loadu_ps(w + kk * n + j + 16);
    for (int r = 0; r < R; ++r) {
      __m512 x = _mm512_set1_ps(a[(i + r) * k + kk]);
      acc[r][0] = _mm512_add_ps(acc[r][0], _mm512_mul_ps(x, b0));
      acc[r][1] = _mm512_add_ps(acc[r][1], _mm512_mul_ps(x, b1));
    }
  }
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < 2; ++c)
      _mm512_storeu_ps(out + (i + r) * n + j + 16 * c, acc[r][c]);
}

using BlockFn = void (*)(const float *, const float *, float *, int64_t,
                         int64_t, int64_t, int64_t, bool);

// Tiles the output into `rows`-row (then 1-row) blocks of `width` columns;
// the register budget of each ISA sets `rows`.
void matmulBlocked(BlockFn blockRows, int64_t rows, BlockFn block1,
                   int64_t width, const uint16_t *lhs, const float *w,
                   float *out, int64_t m, int64_t k, int64_t n,
                   bool accumulate) {
  const float *a = widenLhs(lhs, m * k);
  int64_t fullCols = n / width * width;
  int64_t i = 0;
  for (; i + rows <= m; i += rows)
    for (int64_t j = 0; j < fullCols; j += width)
      blockRows(a, w, out, i, j, k, n, accumulate);
  for (; i < m; ++i)
    for (int64_t j = 0; j < fullCols; j += width)
      block1(a, w, out, i, j, k, n, accumulate);
  for (int64_t r = 0; r < m; ++r)
    matmulTail(a, w, out, r, fullCols, k, n, accumulate);
}

// --- Avx512Bf16 ------------------------------------------------------------
//
// VDPBF16PS takes, per f32 lane, a pair of bf16 values of each operand
// (low half: even k, high half: odd k). The rhs is packed into panels of
// kPanel columns; in panel q, word p * kPanel + c holds
// rhs[2p][q * kPanel + c] | rhs[2p + 1][q * kPanel + c] << 16, zero past k
// and n. A block streams one panel (contiguous) against kBf16Rows lhs rows,
// whose pairs are broadcast straight from the row-major lhs.
constexpr int64_t kPanel = 64; // 4 zmm of 16 pairs
constexpr int kBf16Rows = 6;   // 6 x 4 = 24 accumulators

int64_t pairCount(int64_t k) { return (k + 1) / 2; }

void packPairs(const uint16_t *rhs, int64_t k, int64_t n, uint32_t *out) {
  int64_t pairs = pairCount(k);
  for (int64_t q = 0; q * kPanel < n; ++q)
    for (int64_t p = 0; p < pairs; ++p) {
      if ((q + 1) * kPanel <= n && 2 * p + 1 < k) {
        // A whole panel row of two present rows: no padding.
        const uint16_t *lo = rhs + 2 * p * n + q * kPanel, *hi = lo + n;
        for (int64_t c = 0; c < kPanel; ++c)
          out[c] = uint32_t(lo[c]) | uint32_t(hi[c]) << 16;
        out += kPanel;
        continue;
      }
      for (int64_t c = 0; c < kPanel; ++c) {
        int64_t j = q * kPanel + c;
        uint32_t lo = j < n ? rhs[2 * p * n + j] : 0;
        uint32_t hi = j < n && 2 * p + 1 < k ? rhs[(2 * p + 1) * n + j] : 0;
        *out++ = lo | hi << 16;
      }
    }
}

// Rows [i, i + R) x columns [j, j + kPanel) (masked at n); lhs rows have
// `stride` (even) elements, `pairs` pairs of them used.
template <int R>
__attribute__((target("avx512f,avx512bf16"))) void
blockBf16(const uint16_t *lhs, int64_t stride, const uint32_t *panel,
          int64_t pairs, float *out, int64_t i, int64_t j, int64_t n,
          bool accumulate) {
  __mmask16 mask[4];
  for (int c = 0; c < 4; ++c) {
    int64_t left = n - j - 16 * c;
    mask[c] = left >= 16 ? 0xFFFF : left <= 0 ? 0 : (1u << left) - 1;
  }
  __m512 acc[R][4];
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < 4; ++c)
      acc[r][c] =
          accumulate
              ? _mm512_maskz_loadu_ps(mask[c], out + (i + r) * n + j + 16 * c)
              : _mm512_setzero_ps();
  const uint16_t *a = lhs + i * stride;
  for (int64_t p = 0; p < pairs; ++p) {
    const uint32_t *bp = panel + p * kPanel;
    __m512bh b[4];
    for (int c = 0; c < 4; ++c)
      b[c] = (__m512bh)_mm512_loadu_si512(bp + 16 * c);
    for (int r = 0; r < R; ++r) {
      uint32_t word;
      std::memcpy(&word, a + r * stride + 2 * p, 4);
      __m512bh x = (__m512bh)_mm512_set1_epi32(static_cast<int>(word));
      for (int c = 0; c < 4; ++c)
        acc[r][c] = _mm512_dpbf16_ps(acc[r][c], x, b[c]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < 4; ++c)
      _mm512_mask_storeu_ps(out + (i + r) * n + j + 16 * c, mask[c], acc[r][c]);
}

using Bf16BlockFn = void (*)(const uint16_t *, int64_t, const uint32_t *,
                             int64_t, float *, int64_t, int64_t, int64_t, bool);

template <int... R>
constexpr std::array<Bf16BlockFn, sizeof...(R)>
bf16Blocks(std::integer_sequence<int, R...>) {
  return {blockBf16<R + 1>...};
}
// kBf16BlockFns[r - 1] handles r rows.
constexpr std::array<Bf16BlockFn, kBf16Rows> kBf16BlockFns =
    bf16Blocks(std::make_integer_sequence<int, kBf16Rows>());

void matmulBf16Pairs(const uint32_t *packed, const uint16_t *lhs, float *out,
                     int64_t m, int64_t k, int64_t n, bool accumulate) {
  // An odd k reads a zero past each row: pad the rows to an even length.
  int64_t stride = k;
  if (k % 2) {
    thread_local std::vector<uint16_t> padded;
    stride = k + 1;
    padded.assign(m * stride, 0);
    for (int64_t i = 0; i < m; ++i)
      std::memcpy(&padded[i * stride], lhs + i * k, k * sizeof(uint16_t));
    lhs = padded.data();
  }
  int64_t pairs = pairCount(k);
  for (int64_t j = 0; j < n; j += kPanel) {
    const uint32_t *panel = packed + j / kPanel * pairs * kPanel;
    for (int64_t i = 0; i < m; i += kBf16Rows) {
      int64_t rows = std::min<int64_t>(kBf16Rows, m - i);
      kBf16BlockFns[rows - 1](lhs, stride, panel, pairs, out, i, j, n,
                              accumulate);
    }
  }
}

float apply(BinaryOp op, float a, float b) {
  switch (op) {
  case BinaryOp::Add:
    return a + b;
  case BinaryOp::Sub:
    return a - b;
  case BinaryOp::Mul:
    return a * b;
  case BinaryOp::Div:
    return a / b;
  }
  return 0;
}

__attribute__((target("avx2"))) void
binaryAvx2(BinaryOp op, const float *a, const float *b, float *out, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 x = _mm256_loadu_ps(a + i), y = _mm256_loadu_ps(b + i), r;
    switch (op) {
    case BinaryOp::Add:
      r = _mm256_add_ps(x, y);
      break;
    case BinaryOp::Sub:
      r = _mm256_sub_ps(x, y);
      break;
    case BinaryOp::Mul:
      r = _mm256_mul_ps(x, y);
      break;
    default:
      r = _mm256_div_ps(x, y);
      break;
    }
    _mm256_storeu_ps(out + i, r);
  }
  for (; i < n; ++i)
    out[i] = apply(op, a[i], b[i]);
}

// The bf16 row conversions, written once as plain loops and compiled for
// each ISA below (the same integer operations, so the same bits).
inline __attribute__((always_inline)) void
widenLoop(const uint8_t *in, uint32_t *out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    uint16_t b;
    std::memcpy(&b, in + 2 * i, 2);
    out[i] = static_cast<uint32_t>(b) << 16;
  }
}

inline __attribute__((always_inline)) void
narrowLoop(const uint32_t *in, uint8_t *out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    uint32_t bits = in[i];
    // hostio::f32ToBf16Bits without branches: a NaN keeps its sign and high
    // payload and is made quiet; otherwise round half to even.
    uint32_t quiet = (bits >> 16) | 0x0040u;
    uint32_t rounded = (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
    uint16_t b = static_cast<uint16_t>(
        (bits & 0x7FFFFFFFu) > 0x7F800000u ? quiet : rounded);
    std::memcpy(out + 2 * i, &b, 2);
  }
}

__attribute__((target("avx2"))) void widenAvx2(const uint8_t *in,
                                               uint32_t *out, int64_t n) {
  widenLoop(in, out, n);
}
__attribute__((target("avx2"))) void narrowAvx2(const uint32_t *in,
                                                uint8_t *out, int64_t n) {
  narrowLoop(in, out, n);
}

// The 8x8 block of 32-bit elements at `src` (row pitch `n`), transposed
// into r[0..7] (r[i] is column i).
__attribute__((target("avx2"), always_inline)) inline void
loadTransposed8x8(const uint32_t *src, int64_t n, __m256 r[8]) {
  __m256 x[8], y[8];
  for (int i = 0; i < 8; ++i)
    x[i] = _mm256_loadu_ps(reinterpret_cast<const float *>(src + i * n));
  for (int i = 0; i < 8; i += 2) {
    y[i] = _mm256_unpacklo_ps(x[i], x[i + 1]);
    y[i + 1] = _mm256_unpackhi_ps(x[i], x[i + 1]);
  }
  for (int i = 0; i < 8; i += 4)
    for (int h = 0; h < 2; ++h) {
      x[i + 2 * h] = _mm256_shuffle_ps(y[i + h], y[i + h + 2], 0x44);
      x[i + 2 * h + 1] = _mm256_shuffle_ps(y[i + h], y[i + h + 2], 0xEE);
    }
  for (int i = 0; i < 4; ++i) {
    r[i] = _mm256_permute2f128_ps(x[i], x[i + 4], 0x20);
    r[i + 4] = _mm256_permute2f128_ps(x[i], x[i + 4], 0x31);
  }
}

__attribute__((target("avx2"))) inline void
storeRows8(uint32_t *dst, int64_t n, const __m256 r[8]) {
  for (int i = 0; i < 8; ++i)
    _mm256_storeu_ps(reinterpret_cast<float *>(dst + i * n), r[i]);
}

// Blocks (i, j) and (j, i) are both read before either is written, so
// src == dst works.
__attribute__((target("avx2"))) void
transposeAvx2(const uint32_t *src, uint32_t *dst, int64_t n) {
  for (int64_t i = 0; i < n; i += 8)
    for (int64_t j = i; j < n; j += 8) {
      __m256 a[8], b[8];
      loadTransposed8x8(src + i * n + j, n, a);
      loadTransposed8x8(src + j * n + i, n, b);
      storeRows8(dst + j * n + i, n, a);
      storeRows8(dst + i * n + j, n, b);
    }
}

// The 16x16 block of 32-bit elements at `src` (row pitch `n`), transposed
// into r[0..15] (r[c] is column c): the AVX2 block's two in-lane steps,
// then a 4x4 transpose of 128-bit lanes in two rounds of shuffle_f32x4.
__attribute__((target("avx512f"), always_inline)) inline void
loadTransposed16x16(const uint32_t *src, int64_t n, __m512 r[16]) {
  __m512 x[16], y[16];
  for (int i = 0; i < 16; ++i)
    x[i] = _mm512_loadu_ps(src + i * n);
  for (int i = 0; i < 16; i += 2) {
    y[i] = _mm512_unpacklo_ps(x[i], x[i + 1]);
    y[i + 1] = _mm512_unpackhi_ps(x[i], x[i + 1]);
  }
  // x[4g + j], lane k: column 4k + j of rows 4g..4g+3.
  for (int i = 0; i < 16; i += 4)
    for (int h = 0; h < 2; ++h) {
      x[i + 2 * h] = _mm512_shuffle_ps(y[i + h], y[i + h + 2], 0x44);
      x[i + 2 * h + 1] = _mm512_shuffle_ps(y[i + h], y[i + h + 2], 0xEE);
    }
  for (int j = 0; j < 4; ++j) {
    // Lanes (g, k) as [g0k0 g0k1 g1k0 g1k1] and so on, then r[4k + j]
    // gathers lane k of every g.
    __m512 t0 = _mm512_shuffle_f32x4(x[j], x[4 + j], 0x44);
    __m512 t1 = _mm512_shuffle_f32x4(x[j], x[4 + j], 0xEE);
    __m512 t2 = _mm512_shuffle_f32x4(x[8 + j], x[12 + j], 0x44);
    __m512 t3 = _mm512_shuffle_f32x4(x[8 + j], x[12 + j], 0xEE);
    r[j] = _mm512_shuffle_f32x4(t0, t2, 0x88);
    r[4 + j] = _mm512_shuffle_f32x4(t0, t2, 0xDD);
    r[8 + j] = _mm512_shuffle_f32x4(t1, t3, 0x88);
    r[12 + j] = _mm512_shuffle_f32x4(t1, t3, 0xDD);
  }
}

__attribute__((target("avx512f"))) inline void
storeRows16(uint32_t *dst, int64_t n, const __m512 r[16]) {
  for (int i = 0; i < 16; ++i)
    _mm512_storeu_ps(dst + i * n, r[i]);
}

// Rows [0, rows) of the transpose (columns [0, rows) of `src`), rows a
// multiple of 8, through `out` (rows x n): src may be dst.
__attribute__((target("avx2"))) void
transposeRowsAvx2(const uint32_t *src, uint32_t *out, int64_t n,
                  int64_t rows) {
  for (int64_t i = 0; i < rows; i += 8)
    for (int64_t j = 0; j < n; j += 8) {
      __m256 a[8];
      loadTransposed8x8(src + j * n + i, n, a);
      storeRows8(out + i * n + j, n, a);
    }
}

// As transposeAvx2, in 16x16 blocks.
__attribute__((target("avx512f"))) void
transposeAvx512(const uint32_t *src, uint32_t *dst, int64_t n) {
  for (int64_t i = 0; i < n; i += 16)
    for (int64_t j = i; j < n; j += 16) {
      __m512 a[16], b[16];
      loadTransposed16x16(src + i * n + j, n, a);
      loadTransposed16x16(src + j * n + i, n, b);
      storeRows16(dst + j * n + i, n, a);
      storeRows16(dst + i * n + j, n, b);
    }
}

} // namespace

const char *kernelPathName(KernelPath path) {
  switch (path) {
  case KernelPath::Portable:
    return "portable";
  case KernelPath::Avx2:
    return "avx2";
  case KernelPath::Avx512:
    return "avx512";
  case KernelPath::Avx512Bf16:
    return "avx512-bf16";
  }
  return "?";
}

std::vector<KernelPath> allKernelPaths() {
  return {KernelPath::Portable, KernelPath::Avx2, KernelPath::Avx512,
          KernelPath::Avx512Bf16};
}

std::optional<KernelPath> parseKernelPath(std::string_view name) {
  for (KernelPath p : allKernelPaths())
    if (name == kernelPathName(p))
      return p;
  return std::nullopt;
}

bool isKernelPathSupported(KernelPath path) {
  switch (path) {
  case KernelPath::Portable:
    return true;
  case KernelPath::Avx2:
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  case KernelPath::Avx512:
    return __builtin_cpu_supports("avx512f");
  case KernelPath::Avx512Bf16:
    return __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512bf16");
  }
  return false;
}

bool isKernelPathExact(KernelPath path) {
  return path != KernelPath::Avx512Bf16;
}

KernelPath bestKernelPath() {
  static const KernelPath best = supportedKernelPaths().back();
  return best;
}

std::vector<KernelPath> supportedKernelPaths() {
  std::vector<KernelPath> paths;
  for (KernelPath p : allKernelPaths())
    if (isKernelPathSupported(p))
      paths.push_back(p);
  return paths;
}

PackedRhs::PackedRhs(KernelPath path, const uint16_t *rhs, int64_t k,
                     int64_t n) {
  pack(path, rhs, k, n);
}

void PackedRhs::pack(KernelPath path, const uint16_t *rhs, int64_t k,
                     int64_t n) {
  packWhole(path, rhs, k, n);
  packTrimmed(rhs);
}

namespace {

// The columns a kernel path computes together: a trimmed width is rounded
// up to them, so the trimmed matmul runs the same SIMD code per output as
// the whole one (never the scalar tail).
int64_t columnBlock(KernelPath path) {
  switch (path) {
  case KernelPath::Avx512Bf16:
    return kPanel;
  case KernelPath::Avx512:
    return 32;
  case KernelPath::Avx2:
    return 16;
  case KernelPath::Portable:
    return 1;
  }
  return 1;
}

bool isZeroBf16(uint16_t bits) { return (bits & 0x7FFF) == 0; }
uint32_t f32Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// The per-row tests of matmulTrimmed, each a count over the whole row
// with no early exit and no branch per element, so the compiler
// vectorises them (a row is 128 values, the test almost always passes).
bool allFiniteBf16(const uint16_t *bits, int64_t n) {
  uint32_t bad = 0;
  for (int64_t i = 0; i < n; ++i)
    bad |= (bits[i] & 0x7F80u) == 0x7F80u;
  return !bad;
}
// A result that a skipped +-0 product could have changed: -0 or NaN.
bool anySignedZeroOrNan(const float *f, int64_t n) {
  uint32_t bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    uint32_t b = f32Bits(f[i]);
    bad |= (b == 0x80000000u) | ((b & 0x7FFFFFFFu) > 0x7F800000u);
  }
  return bad;
}
// Initial values that adding +-0 products leaves as they are on every path:
// +0 (a sum of zeros is -0 only if all are), normal numbers or infinities.
bool allKeepUnderZeroes(const float *f, int64_t n) {
  uint32_t bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    uint32_t b = f32Bits(f[i]), magnitude = b & 0x7FFFFFFFu;
    bad |= (b != 0) &
           ((magnitude < 0x00800000u) | (magnitude > 0x7F800000u));
  }
  return !bad;
}

} // namespace

void PackedRhs::packTrimmed(const uint16_t *rhs) {
  trim_ = false;
  // Scanned from the ends: unpadded weights stop at their last element.
  auto zeroRow = [&](int64_t r) {
    uint16_t bits = 0; // a plain OR, which the compiler vectorises
    for (int64_t c = 0; c < n_; ++c)
      bits |= rhs[r * n_ + c];
    return isZeroBf16(bits);
  };
  int64_t usedK = k_, usedN = n_;
  while (usedK > 0 && zeroRow(usedK - 1))
    --usedK;
  auto lastColumnUsed = [&] {
    for (int64_t r = 0; r < usedK; ++r)
      if (!isZeroBf16(rhs[r * n_ + n_ - 1]))
        return true;
    return false;
  };
  if (usedK > 0 && !lastColumnUsed()) {
    // Each column's bits ORed over the used rows (a vectorised OR per row,
    // not a branch per element), then scanned from the end.
    columnBits_.assign(n_, 0);
    for (int64_t r = 0; r < usedK; ++r)
      for (int64_t c = 0; c < n_; ++c)
        columnBits_[c] |= rhs[r * n_ + c];
    while (usedN > 0 && isZeroBf16(columnBits_[usedN - 1]))
      --usedN;
  }
  // Whole pairs on Avx512Bf16 (a pair is one step of its own rounding).
  int64_t kStep = path_ == KernelPath::Avx512Bf16 ? 2 : 1;
  int64_t block = columnBlock(path_);
  usedK = std::min(k_, (usedK + kStep - 1) / kStep * kStep);
  usedN = std::min(n_, (usedN + block - 1) / block * block);
  // Worth the copies in and out only if it saves a quarter of the work.
  if (usedK == 0 || usedN == 0 || 4 * usedK * usedN > 3 * k_ * n_)
    return;
  trimScratch_.resize(usedK * usedN);
  for (int64_t r = 0; r < usedK; ++r)
    std::memcpy(&trimScratch_[r * usedN], rhs + r * n_,
                usedN * sizeof(uint16_t));
  if (!trimmed_)
    trimmed_ = std::make_unique<PackedRhs>();
  trimmed_->packWhole(path_, trimScratch_.data(), usedK, usedN);
  trim_ = true;
}

void PackedRhs::packWhole(KernelPath path, const uint16_t *rhs, int64_t k,
                          int64_t n) {
  path_ = isKernelPathSupported(path) ? path : KernelPath::Portable;
  k_ = k;
  n_ = n;
  if (path_ == KernelPath::Avx512Bf16) {
    pairs_.resize((n + kPanel - 1) / kPanel * kPanel * pairCount(k));
    packPairs(rhs, k, n, pairs_.data());
    return;
  }
  wide_.resize(k * n);
  for (int64_t i = 0; i < k * n; ++i)
    wide_[i] = bf16BitsToF32(rhs[i]);
}

void matmulWhole(const PackedRhs &rhs, const uint16_t *lhs, float *out,
                 int64_t m, bool accumulate);
void matmulTrimmed(const PackedRhs &rhs, const uint16_t *lhs, float *out,
                   int64_t m, bool accumulate);

void matmulBf16(const PackedRhs &rhs, const uint16_t *lhs, float *out,
                int64_t m, bool accumulate) {
  if (rhs.trim_)
    return matmulTrimmed(rhs, lhs, out, m, accumulate);
  matmulWhole(rhs, lhs, out, m, accumulate);
}

void matmulTrimmed(const PackedRhs &rhs, const uint16_t *lhs, float *out,
                   int64_t m, bool accumulate) {
  const PackedRhs &t = *rhs.trimmed_;
  int64_t k = rhs.k_, n = rhs.n_, tk = t.k_, tn = t.n_;
  thread_local std::vector<uint16_t> a;
  thread_local std::vector<float> o;
  a.resize(m * tk);
  o.resize(m * tn);
  for (int64_t i = 0; i < m; ++i) {
    std::memcpy(&a[i * tk], lhs + i * k, tk * sizeof(uint16_t));
    if (accumulate)
      std::memcpy(&o[i * tn], out + i * n, tn * sizeof(float));
  }
  matmulWhole(t, a.data(), o.data(), m, accumulate);
  for (int64_t i = 0; i < m; ++i) {
    const uint16_t *lhsRow = lhs + i * k;
    float *outRow = out + i * n;
    const float *got = &o[i * tn];
    bool exact = allFiniteBf16(lhsRow, k) && !anySignedZeroOrNan(got, tn) &&
                 (!accumulate || allKeepUnderZeroes(outRow + tn, n - tn));
    if (!exact) {
      // Each output is computed alone: this row multiplied whole is what
      // the whole matmul gives it.
      matmulWhole(rhs, lhsRow, outRow, 1, accumulate);
      continue;
    }
    std::memcpy(outRow, got, tn * sizeof(float));
    if (!accumulate)
      std::fill(outRow + tn, outRow + n, 0.0f);
  }
}

void matmulWhole(const PackedRhs &rhs, const uint16_t *lhs, float *out,
                 int64_t m, bool accumulate) {
  int64_t k = rhs.k_, n = rhs.n_;
  const float *w = rhs.wide_.data();
  switch (rhs.path_) {
  case KernelPath::Avx512Bf16:
    return matmulBf16Pairs(rhs.pairs_.data(), lhs, out, m, k, n, accumulate);
  case KernelPath::Avx512:
    return matmulBlocked(blockAvx512<8>, 8, blockAvx512<1>, 32, lhs, w, out, m,
                         k, n, accumulate);
  case KernelPath::Avx2:
    return matmulBlocked(blockAvx2<4>, 4, blockAvx2<1>, 16, lhs, w, out, m, k,
                         n, accumulate);
  case KernelPath::Portable:
    return matmulPortable(lhs, w, out, m, k, n, accumulate);
  }
}

void matmulBf16(KernelPath path, const uint16_t *lhs, const uint16_t *rhs,
                float *out, int64_t m, int64_t k, int64_t n, bool accumulate) {
  matmulBf16(PackedRhs(path, rhs, k, n), lhs, out, m, accumulate);
}

void referenceMatmulBf16(const uint16_t *lhs, const uint16_t *rhs, float *out,
                         int64_t m, int64_t k, int64_t n, bool accumulate) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float acc = accumulate ? out[i * n + j] : 0.0f;
      for (int64_t kk = 0; kk < k; ++kk)
        acc = acc +
              bf16BitsToF32(lhs[i * k + kk]) * bf16BitsToF32(rhs[kk * n + j]);
      out[i * n + j] = acc;
    }
}

std::vector<double> matmulBf16Tolerance(KernelPath path, const uint16_t *lhs,
                                        const uint16_t *rhs, const float *init,
                                        int64_t m, int64_t k, int64_t n,
                                        bool accumulate) {
  std::vector<double> bound(m * n, 0.0);
  if (isKernelPathExact(path))
    return bound;
  const double u = std::ldexp(1.0, -24), minNormal = std::ldexp(1.0, -126);
  const double gamma = k * u / (1 - k * u);
  auto subnormal = [&](uint16_t bits) {
    return (bits & 0x7F80) == 0 && (bits & 0x7F) != 0;
  };
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double magnitudes = accumulate ? std::fabs(init[i * n + j]) : 0.0;
      double flushed = 0;
      for (int64_t kk = 0; kk < k; ++kk) {
        uint16_t a = lhs[i * k + kk], b = rhs[kk * n + j];
        double product =
            std::fabs(double(bf16BitsToF32(a)) * double(bf16BitsToF32(b)));
        magnitudes += product;
        if (subnormal(a) || subnormal(b))
          flushed += product;
      }
      bound[i * n + j] =
          2 * gamma * magnitudes + flushed + (3.0 * k + 3) * minNormal;
    }
  return bound;
}

void widenBf16(KernelPath path, const uint8_t *in, uint32_t *out, int64_t n) {
  if (path != KernelPath::Portable && isKernelPathSupported(KernelPath::Avx2))
    return widenAvx2(in, out, n);
  widenLoop(in, out, n);
}

void narrowToBf16(KernelPath path, const uint32_t *in, uint8_t *out,
                  int64_t n) {
  if (path != KernelPath::Portable && isKernelPathSupported(KernelPath::Avx2))
    return narrowAvx2(in, out, n);
  narrowLoop(in, out, n);
}

void binaryF32(KernelPath path, BinaryOp op, const float *a, const float *b,
               float *out, int64_t n) {
  if (path != KernelPath::Portable && isKernelPathSupported(KernelPath::Avx2))
    return binaryAvx2(op, a, b, out, n);
  for (int64_t i = 0; i < n; ++i)
    out[i] = apply(op, a[i], b[i]);
}

void transpose32Rows(KernelPath path, const uint32_t *src, uint32_t *dst,
                     int64_t n, int64_t rows) {
  if (rows >= n)
    return transpose32(path, src, dst, n);
  // The rows are computed apart and then copied: dst may be src, whose
  // columns [0, rows) are read from every row.
  thread_local std::vector<uint32_t> out;
  out.resize(rows * n);
  if (n % 8 == 0 && rows % 8 == 0 && path != KernelPath::Portable &&
      isKernelPathSupported(KernelPath::Avx2)) {
    transposeRowsAvx2(src, out.data(), n, rows);
  } else {
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < n; ++j)
        out[i * n + j] = src[j * n + i];
  }
  std::memcpy(dst, out.data(), rows * n * sizeof(uint32_t));
}

void transpose32(KernelPath path, const uint32_t *src, uint32_t *dst,
                 int64_t n) {
  if (n % 16 == 0 && (path == KernelPath::Avx512 ||
                      path == KernelPath::Avx512Bf16) &&
      isKernelPathSupported(KernelPath::Avx512))
    return transposeAvx512(src, dst, n);
  if (n % 8 == 0 && path != KernelPath::Portable &&
      isKernelPathSupported(KernelPath::Avx2))
    return transposeAvx2(src, dst, n);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i; j < n; ++j) {
      uint32_t a = src[i * n + j], b = src[j * n + i];
      dst[j * n + i] = a;
      dst[i * n + j] = b;
    }
}

} // namespace tpuc::runtime
