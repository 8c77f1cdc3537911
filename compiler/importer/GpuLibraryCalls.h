//===- GpuLibraryCalls.h - XLA's cuBLAS/cuDNN custom-calls ------*- C++ -*-===//
//
// XLA's GPU backend replaces dots and convolutions by custom-calls to
// cuBLAS and cuDNN (`__cublas$gemm`, `__cublas$lt$matmul`,
// `__cudnn$convForward`, `__cudnn$convBiasActivationForward`,
// `__cudnn$convBackwardInput`, `__cudnn$convBackwardFilter`), with the
// scale, bias and activation they fuse in the call's backend_config. Its
// optimized dumps (`*.after_optimizations.txt`, `--xla_dump_to` on a GPU)
// are full of them. The importer reads each as the dot_general or
// convolution it computes plus its epilogue (docs/hlo-dialect.md).
//
//===----------------------------------------------------------------------===//
#ifndef TPUC_COMPILER_IMPORTER_GPULIBRARYCALLS_H
#define TPUC_COMPILER_IMPORTER_GPULIBRARYCALLS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tpuc::importer {

/// The activation a library call applies last.
enum class GpuActivation {
  None,
  Relu,      // max(x, 0)
  Relu6,     // clamp(0, x, 6)
  Sigmoid,   // logistic(x)
  Tanh,      // tanh(x)
  Elu,       // x > 0 ? x : exp(x) - 1
  LeakyRelu, // x > 0 ? x : alpha * x
  Gelu,      // cuBLASLt's tanh approximation
};

/// Which computation a library call is.
enum class GpuCallKind {
  Gemm,               // A, B -> dot(A, B)
  Convolution,        // input, filter -> output
  ConvBackwardInput,  // d_output, filter -> d_input
  ConvBackwardFilter, // input, d_output -> d_filter
};

/// What one library call computes:
///   gemm: D = act(alpha * dot(A, B) + beta * C + bias), with `aux` the
///         value before the activation as a second result (cuBLASLt's
///         *_AUX epilogues);
///   conv: D = act(alpha * conv(input, filter) + sideScale * side + bias)
///         (alpha is cuDNN's conv_result_scale), bias along the output's
///         feature dimension;
///   backward conv: D = alpha * the gradient of the convolution that the
///         call's window= and dim_labels= describe (the forward one: its
///         input, kernel and output labels name the dimensions of the
///         input, filter and output gradient, whichever is the result).
/// Operands: A, B (or the two convolution operands), then C when beta != 0
/// (gemm), then the bias, then (conv) the side input when given. On integer
/// operands (cuDNN's and cuBLAS's int8 calls) the contraction is exact in
/// s32 and the epilogue is computed in f32, an s8 result clamped to
/// [-128, 127] before the convert; an s32 result takes no epilogue.
struct GpuLibraryCall {
  GpuCallKind kind = GpuCallKind::Gemm;
  bool isGemm() const { return kind == GpuCallKind::Gemm; }
  double alpha = 1, beta = 0, sideScale = 0, leakyAlpha = 0;
  bool bias = false, aux = false;
  GpuActivation activation = GpuActivation::None;
  // gemm: dot_dimension_numbers and operand precisions from the config.
  llvm::SmallVector<int64_t> lhsBatch, rhsBatch, lhsContracting,
      rhsContracting;
  std::vector<std::string> precision;
};

/// Whether `target` names one of XLA's GPU library calls (those read here
/// and those rejected with a hint).
bool isGpuLibraryTarget(llvm::StringRef target);

/// Whether readGpuLibraryCall reads `target` (the others are rejected).
bool readsGpuLibraryTarget(llvm::StringRef target);

/// Reads the call `target` with `backendConfig` (the JSON text; empty when
/// the call has none). A message on a call tpuc does not read (an f8 gemm,
/// a backward or graph convolution, an unknown epilogue) or a config that
/// is not what XLA writes.
std::optional<GpuLibraryCall> readGpuLibraryCall(llvm::StringRef target,
                                                 llvm::StringRef backendConfig,
                                                 std::string &message);

} // namespace tpuc::importer

#endif // TPUC_COMPILER_IMPORTER_GPULIBRARYCALLS_H
