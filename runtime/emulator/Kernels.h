// Host kernels behind the MXU and the VPU, with a portable path and x86
// SIMD paths chosen at run time (CPUID), so one binary runs anywhere.
//
// Accuracy contract of matmulBf16, per output with c its initial value
// (accumulate ? out : 0), a_k b_k the bf16 x bf16 products and K = k:
//
// * Exact paths (Portable, Avx2, Avx512) compute
//     acc = c;  for k in order: acc = acc + a_k * b_k  (f32, round to even)
//   bit for bit like the plain reference loop (referenceMatmulBf16). A
//   product is computed exactly and rounded once on its own before the add
//   (the SIMD paths use a multiply then an add, never a fused multiply-add,
//   which would differ when a product is below 2^-133 and so not exact in
//   f32). The elementwise kernels are bit-identical too (IEEE add/sub/mul/
//   div are correctly rounded).
//
// * Avx512Bf16 uses VDPBF16PS, which adds two products per step in its own
//   order and rounding, treats subnormal inputs (bf16 and the f32
//   accumulator) as zero and flushes subnormal results to zero. Where the
//   reference result and every partial sum are finite,
//     |got - reference| <= 2 g_K (|c| + sum_k |a_k b_k|)
//                          + sum_{k: a_k or b_k subnormal} |a_k b_k|
//                          + (3K + 3) 2^-126,
//   g_K = K u / (1 - K u), u = 2^-24: both results are a recursive f32 sum
//   of the same K + 1 terms (error <= g_K times the sum of magnitudes
//   each), the flushed subnormal inputs drop their products, and each
//   of the K/2 + 1 steps flushes at most five values below 2^-126 (the
//   accumulator, two products, two sums). matmulBf16Tolerance computes the
//   bound. Inf and NaN inputs give Inf or NaN on both, not always the same.
#ifndef TPUC_RUNTIME_EMULATOR_KERNELS_H
#define TPUC_RUNTIME_EMULATOR_KERNELS_H

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace tpuc::runtime {

enum class KernelPath { Portable, Avx2, Avx512, Avx512Bf16 };
// "portable", "avx2", "avx512", "avx512-bf16".
const char *kernelPathName(KernelPath path);
std::optional<KernelPath> parseKernelPath(std::string_view name);
// Every path, supported here or not, slowest first (the order above).
std::vector<KernelPath> allKernelPaths();
bool isKernelPathSupported(KernelPath path);
// Whether `path` is bit-identical to the reference (see above).
bool isKernelPathExact(KernelPath path);
// The fastest supported path of this host: Avx512Bf16, else Avx512, else
// Avx2, else Portable. Not necessarily exact; pick an exact path for
// bit-reproducible results across hosts.
KernelPath bestKernelPath();
std::vector<KernelPath> supportedKernelPaths();

// The rhs (weights) of matmulBf16 in the layout its path wants, prepared
// once for many matmuls (the emulator packs at MXU_LOAD_WEIGHTS). An
// unsupported path packs for, and runs, the portable kernel.
//
// Weights padded with zero rows and columns (a convolution's K = 27 and
// N = 16 on a 128 x 128 MXU) also get a trimmed copy without the trailing
// all-zero rows and columns (rounded up to the path's pair and column
// block), and matmulBf16 multiplies only that. Bit for bit the same: a
// skipped product is +-0 (its lhs value finite), which leaves the
// accumulator unchanged unless that is -0 or NaN (or, on Avx512Bf16,
// subnormal, which its steps flush); a skipped column's output is +0, or
// keeps its initial value when that is +0, a normal number or an infinity. A
// row where any of that does not hold (an Inf or NaN in its lhs, a -0 or
// NaN result, another initial value in a skipped column) is multiplied
// whole instead.
class PackedRhs {
public:
  PackedRhs() = default;
  // rhs: k x n bf16 bit patterns, row-major.
  PackedRhs(KernelPath path, const uint16_t *rhs, int64_t k, int64_t n);
  // The same, reusing this object's storage (no allocation once it has held
  // a k x n rhs).
  void pack(KernelPath path, const uint16_t *rhs, int64_t k, int64_t n);
  KernelPath path() const { return path_; }
  int64_t k() const { return k_; }
  int64_t n() const { return n_; }

  // The trimmed weights' rows and columns (k() and n() if none trimmed).
  int64_t usedK() const { return trim_ ? trimmed_->k_ : k_; }
  int64_t usedN() const { return trim_ ? trimmed_->n_ : n_; }

private:
  friend void matmulBf16(const PackedRhs &rhs, const uint16_t *lhs, float *out,
                         int64_t m, bool accumulate);
  friend void matmulWhole(const PackedRhs &rhs, const uint16_t *lhs,
                          float *out, int64_t m, bool accumulate);
  friend void matmulTrimmed(const PackedRhs &rhs, const uint16_t *lhs,
                            float *out, int64_t m, bool accumulate);
  void packWhole(KernelPath path, const uint16_t *rhs, int64_t k, int64_t n);
  void packTrimmed(const uint16_t *rhs);
  KernelPath path_ = KernelPath::Portable;
  int64_t k_ = 0, n_ = 0;
  // Exact paths: rhs widened to f32, row-major. Avx512Bf16: see packPairs.
  std::vector<float> wide_;
  std::vector<uint32_t> pairs_;
  // The weights without their zero padding, if trim_ (trimming it pays);
  // kept for reuse otherwise.
  bool trim_ = false;
  std::unique_ptr<PackedRhs> trimmed_;
  std::vector<uint16_t> trimScratch_;
  std::vector<uint16_t> columnBits_; // packTrimmed's OR of each column
};

// out[m x n] (+)= lhs[m x k] * rhs[k x n]; lhs and rhs are bf16 bit
// patterns, all row-major.
void matmulBf16(const PackedRhs &rhs, const uint16_t *lhs, float *out,
                int64_t m, bool accumulate);
void matmulBf16(KernelPath path, const uint16_t *lhs, const uint16_t *rhs,
                float *out, int64_t m, int64_t k, int64_t n, bool accumulate);
// The plain triple loop the contract above is stated against.
void referenceMatmulBf16(const uint16_t *lhs, const uint16_t *rhs, float *out,
                         int64_t m, int64_t k, int64_t n, bool accumulate);
// The contract's bound on |matmulBf16(path) - reference| per output (all
// zero for an exact path); `init` holds the initial out (ignored unless
// accumulate).
std::vector<double> matmulBf16Tolerance(KernelPath path, const uint16_t *lhs,
                                        const uint16_t *rhs, const float *init,
                                        int64_t m, int64_t k, int64_t n,
                                        bool accumulate);

enum class BinaryOp { Add, Sub, Mul, Div };
// out = a OP b elementwise, bit-identical on every path (the SIMD paths
// all run the AVX2 loop).
void binaryF32(KernelPath path, BinaryOp op, const float *a, const float *b,
               float *out, int64_t n);

// The VPU's bf16 loads and stores of a VMEM row (VLD / VST with dtype bf16):
// widenBf16 puts each bf16 in the high half of a 32-bit lane (exact);
// narrowToBf16 rounds each f32 lane to nearest even, a NaN kept quiet
// (hostio::f32ToBf16Bits). `in` / `out` are VMEM bytes with no alignment.
// Bit-identical on every path.
void widenBf16(KernelPath path, const uint8_t *in, uint32_t *out, int64_t n);
void narrowToBf16(KernelPath path, const uint32_t *in, uint8_t *out,
                  int64_t n);

// dst = the transpose of the n x n row-major matrix src of 32-bit elements;
// src and dst are the same array or do not overlap. Data movement only, so
// the same bits on every path (the AVX-512 paths want n % 16 == 0, else
// they take AVX2's; AVX2 wants n % 8 == 0, else the plain loop).
void transpose32(KernelPath path, const uint32_t *src, uint32_t *dst,
                 int64_t n);

// Rows [0, rows) of that transpose only (VTRANSPOSE_ROWS): dst's other rows
// are left as they are; src may be dst. The same bits on every path.
void transpose32Rows(KernelPath path, const uint32_t *src, uint32_t *dst,
                     int64_t n, int64_t rows);

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_EMULATOR_KERNELS_H
