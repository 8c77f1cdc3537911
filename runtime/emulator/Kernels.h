// Host kernels behind the MXU and the VPU, with a portable path and x86
// SIMD paths chosen at run time (CPUID), so one binary runs anywhere.
//
// Accuracy contract: every path computes each output as
//   acc = accumulate ? out : 0;  for k in order: acc = acc + lhs*rhs  (f32)
// bf16 x bf16 products are exact in f32, so a fused multiply-add rounds
// exactly like a multiply then an add: all paths are bit-identical to the
// plain reference loop (referenceMatmulBf16). The same holds for the
// elementwise kernels (IEEE add/sub/mul/div are correctly rounded).
#ifndef TPUC_RUNTIME_EMULATOR_KERNELS_H
#define TPUC_RUNTIME_EMULATOR_KERNELS_H

#include <cstdint>
#include <vector>

namespace tpuc::runtime {

enum class KernelPath { Portable, Avx2, Avx512 };
const char *kernelPathName(KernelPath path);
bool isKernelPathSupported(KernelPath path);
// The fastest supported path of this host.
KernelPath bestKernelPath();
std::vector<KernelPath> supportedKernelPaths();

// out[m x n] (+)= lhs[m x k] * rhs[k x n]; lhs and rhs are bf16 bit
// patterns, all row-major.
void matmulBf16(KernelPath path, const uint16_t *lhs, const uint16_t *rhs,
                float *out, int64_t m, int64_t k, int64_t n, bool accumulate);
// The plain triple loop the contract above is stated against.
void referenceMatmulBf16(const uint16_t *lhs, const uint16_t *rhs, float *out,
                         int64_t m, int64_t k, int64_t n, bool accumulate);

enum class BinaryOp { Add, Sub, Mul, Div };
void binaryF32(KernelPath path, BinaryOp op, const float *a, const float *b,
               float *out, int64_t n);

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_EMULATOR_KERNELS_H
