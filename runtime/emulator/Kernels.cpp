#include "runtime/emulator/Kernels.h"

#include <immintrin.h>

#include "runtime/hostio/FloatConversion.h"

namespace tpuc::runtime {
namespace {

using hostio::bf16BitsToF32;

// Operands widened to f32 once per call (bf16 -> f32 is exact), so the
// inner loops broadcast and load plain floats. One buffer per operand.
const float *widen(const uint16_t *bits, int64_t count, int which) {
  thread_local std::vector<float> buf[2];
  buf[which].resize(count);
  for (int64_t i = 0; i < count; ++i)
    buf[which][i] = bf16BitsToF32(bits[i]);
  return buf[which].data();
}

void matmulPortable(const uint16_t *lhs, const uint16_t *rhs, float *out,
                    int64_t m, int64_t k, int64_t n, bool accumulate) {
  const float *w = widen(rhs, k * n, 1);
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

// R rows x 16 columns per block, accumulators in 2R ymm registers.
template <int R>
__attribute__((target("avx2,fma"))) void
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
      acc[r][0] = _mm256_fmadd_ps(x, b0, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(x, b1, acc[r][1]);
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
      acc[r][0] = _mm512_fmadd_ps(x, b0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(x, b1, acc[r][1]);
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
                   int64_t width, const uint16_t *lhs, const uint16_t *rhs,
                   float *out, int64_t m, int64_t k, int64_t n,
                   bool accumulate) {
  const float *a = widen(lhs, m * k, 0);
  const float *w = widen(rhs, k * n, 1);
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

__attribute__((target("avx2"))) void binaryAvx2(BinaryOp op, const float *a,
                                                const float *b, float *out,
                                                int64_t n) {
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

} // namespace

const char *kernelPathName(KernelPath path) {
  switch (path) {
  case KernelPath::Portable:
    return "portable";
  case KernelPath::Avx2:
    return "avx2";
  case KernelPath::Avx512:
    return "avx512";
  }
  return "?";
}

bool isKernelPathSupported(KernelPath path) {
  switch (path) {
  case KernelPath::Portable:
    return true;
  case KernelPath::Avx2:
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  case KernelPath::Avx512:
    return __builtin_cpu_supports("avx512f");
  }
  return false;
}

KernelPath bestKernelPath() {
  static const KernelPath best =
      isKernelPathSupported(KernelPath::Avx512) ? KernelPath::Avx512
      : isKernelPathSupported(KernelPath::Avx2) ? KernelPath::Avx2
                                                : KernelPath::Portable;
  return best;
}

std::vector<KernelPath> supportedKernelPaths() {
  std::vector<KernelPath> paths;
  for (KernelPath p :
       {KernelPath::Portable, KernelPath::Avx2, KernelPath::Avx512})
    if (isKernelPathSupported(p))
      paths.push_back(p);
  return paths;
}

void referenceMatmulBf16(const uint16_t *lhs, const uint16_t *rhs, float *out,
                         int64_t m, int64_t k, int64_t n, bool accumulate) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float acc = accumulate ? out[i * n + j] : 0.0f;
      for (int64_t kk = 0; kk < k; ++kk)
        acc = acc + bf16BitsToF32(lhs[i * k + kk]) *
                        bf16BitsToF32(rhs[kk * n + j]);
      out[i * n + j] = acc;
    }
}

void matmulBf16(KernelPath path, const uint16_t *lhs, const uint16_t *rhs,
                float *out, int64_t m, int64_t k, int64_t n, bool accumulate) {
  if (path == KernelPath::Avx512 && isKernelPathSupported(path))
    return matmulBlocked(blockAvx512<8>, 8, blockAvx512<1>, 32, lhs, rhs, out,
                         m, k, n, accumulate);
  if (path == KernelPath::Avx2 && isKernelPathSupported(path))
    return matmulBlocked(blockAvx2<4>, 4, blockAvx2<1>, 16, lhs, rhs, out, m,
                         k, n, accumulate);
  matmulPortable(lhs, rhs, out, m, k, n, accumulate);
}

void binaryF32(KernelPath path, BinaryOp op, const float *a, const float *b,
               float *out, int64_t n) {
  if (path != KernelPath::Portable && isKernelPathSupported(KernelPath::Avx2))
    return binaryAvx2(op, a, b, out, n);
  for (int64_t i = 0; i < n; ++i)
    out[i] = apply(op, a[i], b[i]);
}

} // namespace tpuc::runtime
