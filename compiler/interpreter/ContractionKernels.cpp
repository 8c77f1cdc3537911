//===- ContractionKernels.cpp - dot_general and convolution ----------------===//
//
// Both ops bring their operands into a canonical layout in the accumulation
// type (f32 for f32/bf16/f16, f64 when f64 is involved, wrapping 64-bit
// integers otherwise), run one loop nest whose innermost loop is an axpy over
// contiguous output features (it vectorises), and round to the result type
// once at the end.
//
// Accumulation order, per output element, is fixed and independent of the
// thread count: dot_general sums over the contracting index k = 0..K-1
// (contracting dimensions flattened row-major); convolution sums over the
// kernel's spatial positions in row-major order, and within each over the
// input features in increasing order; both start from +0.
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Kernels.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace tpuc::interpreter {
namespace {

DType accumulationType(DType result, DType lhs, DType rhs) {
  if (!hostio::isFloatDType(result))
    return DType::S64;
  if (result == DType::F64 || lhs == DType::F64 || rhs == DType::F64)
    return DType::F64;
  return DType::F32;
}

/// Calls f(accumulator C++ type) for an accumulation type; integers wrap
/// through uint64_t.
template <typename F> void dispatchAccumulator(DType acc, F &&f) {
  if (acc == DType::F32)
    f(float{});
  else if (acc == DType::F64)
    f(double{});
  else
    f(uint64_t{});
}

template <typename A>
inline void axpy(A *__restrict out, const A *__restrict w, A a, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    out[i] += a * w[i];
}

/// Runs body(begin, end) over [0, n) split into contiguous chunks, one per
/// thread. Each index writes its own outputs, so results do not depend on
/// the thread count.
template <typename F> void parallelFor(int64_t n, int numThreads, F &&body) {
  int64_t threads = std::min<int64_t>(std::max(numThreads, 1), n);
  if (threads <= 1) {
    body(int64_t(0), n);
    return;
  }
  std::vector<std::thread> workers;
  int64_t chunk = (n + threads - 1) / threads;
  for (int64_t t = 1; t < threads; ++t)
    workers.emplace_back([&, t] {
      body(std::min(n, t * chunk), std::min(n, (t + 1) * chunk));
    });
  body(int64_t(0), std::min(n, chunk));
  for (std::thread &worker : workers)
    worker.join();
}

/// `x` with its dimensions permuted and converted to the accumulation type.
Tensor canonical(const Tensor &x, llvm::ArrayRef<int64_t> permutation,
                 DType acc) {
  return convert(transpose(x, permutation), acc);
}

llvm::SmallVector<int64_t, 6> concat(std::initializer_list<llvm::ArrayRef<int64_t>> parts) {
  llvm::SmallVector<int64_t, 6> result;
  for (llvm::ArrayRef<int64_t> part : parts)
    result.append(part.begin(), part.end());
  return result;
}

llvm::SmallVector<int64_t, 6> freeDims(int64_t rank,
                                       llvm::ArrayRef<int64_t> batch,
                                       llvm::ArrayRef<int64_t> contracting) {
  llvm::SmallVector<int64_t, 6> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(batch, d) && !llvm::is_contained(contracting, d))
      dims.push_back(d);
  return dims;
}

int64_t product(const Tensor &x, llvm::ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims)
    p *= x.dim(d);
  return p;
}

/// Returns `value` (or `fallback` when absent).
llvm::SmallVector<int64_t, 4> orDefault(std::optional<llvm::ArrayRef<int64_t>> value,
                                        size_t size, int64_t fallback) {
  if (value)
    return llvm::SmallVector<int64_t, 4>(value->begin(), value->end());
  return llvm::SmallVector<int64_t, 4>(size, fallback);
}

} // namespace

Tensor dotGeneral(const Tensor &lhs, const Tensor &rhs,
                  hlo::DotDimensionNumbersAttr dims, DType resultType,
                  llvm::ArrayRef<int64_t> resultShape, int numThreads) {
  auto lhsFree = freeDims(lhs.rank(), dims.getLhsBatch(), dims.getLhsContracting());
  auto rhsFree = freeDims(rhs.rank(), dims.getRhsBatch(), dims.getRhsContracting());
  int64_t batch = product(lhs, dims.getLhsBatch());
  int64_t m = product(lhs, lhsFree), n = product(rhs, rhsFree);
  int64_t k = product(lhs, dims.getLhsContracting());
  DType acc = accumulationType(resultType, lhs.dtype(), rhs.dtype());
  // a: [batch, m, k], b: [batch, k, n], c: [batch, m, n].
  Tensor a = canonical(lhs, concat({dims.getLhsBatch(), lhsFree, dims.getLhsContracting()}), acc);
  Tensor b = canonical(rhs, concat({dims.getRhsBatch(), dims.getRhsContracting(), rhsFree}), acc);
  Tensor c(acc, {batch, m, n});
  dispatchAccumulator(acc, [&](auto zero) {
    using A = decltype(zero);
    const A *aData = a.data<A>(), *bData = b.data<A>();
    A *cData = c.data<A>();
    parallelFor(batch * m, numThreads, [&](int64_t begin, int64_t end) {
      for (int64_t row = begin; row < end; ++row) {
        const A *bBatch = bData + (row / std::max<int64_t>(m, 1)) * k * n;
        A *out = cData + row * n;
        for (int64_t kk = 0; kk < k; ++kk)
          axpy(out, bBatch + kk * n, aData[row * k + kk], n);
      }
    });
  });
  return convert(c.reshaped(resultShape), resultType);
}

Tensor convolution(const Tensor &lhs, const Tensor &rhs, hlo::ConvolutionOp op,
                   DType resultType, llvm::ArrayRef<int64_t> resultShape,
                   int numThreads) {
  hlo::ConvDimensionNumbersAttr dn = op.getDimensionNumbers();
  size_t spatialRank = dn.getInputSpatial().size();
  auto strides = orDefault(op.getWindowStrides(), spatialRank, 1);
  auto lhsDilation = orDefault(op.getLhsDilation(), spatialRank, 1);
  auto rhsDilation = orDefault(op.getRhsDilation(), spatialRank, 1);
  auto padding = orDefault(op.getPadding(), 2 * spatialRank, 0);
  llvm::SmallVector<bool, 4> reversal(spatialRank, false);
  if (auto attr = op.getWindowReversal())
    reversal.assign(attr->begin(), attr->end());
  int64_t featureGroups = static_cast<int64_t>(op.getFeatureGroupCount());
  int64_t batchGroups = static_cast<int64_t>(op.getBatchGroupCount());

  DType acc = accumulationType(resultType, lhs.dtype(), rhs.dtype());
  // in: [N, spatial..., C], w: [kernel spatial..., I, O], out: [N', spatial'..., O].
  Tensor in = canonical(
      lhs, concat({{dn.getInputBatch()}, dn.getInputSpatial(), {dn.getInputFeature()}}), acc);
  Tensor w = canonical(rhs,
                       concat({dn.getKernelSpatial(),
                               {dn.getKernelInputFeature(), dn.getKernelOutputFeature()}}),
                       acc);
  llvm::SmallVector<int64_t, 6> outPerm =
      concat({{dn.getOutputBatch()}, dn.getOutputSpatial(), {dn.getOutputFeature()}});
  llvm::SmallVector<int64_t, 6> outShape;
  for (int64_t d : outPerm)
    outShape.push_back(resultShape[d]);
  Tensor out(acc, outShape);

  llvm::ArrayRef<int64_t> inSpatial = in.shape().slice(1, spatialRank);
  llvm::ArrayRef<int64_t> kernelSpatial = w.shape().take_front(spatialRank);
  llvm::ArrayRef<int64_t> outSpatial = out.shape().slice(1, spatialRank);
  int64_t channels = in.shape().back();
  int64_t inFeatures = w.dim(spatialRank), outFeatures = w.dim(spatialRank + 1);
  int64_t outBatch = out.dim(0);
  int64_t groups = featureGroups * batchGroups; // one of them is 1
  int64_t groupFeatures = outFeatures / groups;
  int64_t inPixels = elementCount(inSpatial), outPixels = elementCount(outSpatial);
  int64_t kernelPositions = elementCount(kernelSpatial);
  auto inSpatialStrides = rowMajorStrides(inSpatial);
  auto kernelStrides = rowMajorStrides(kernelSpatial);
  auto outSpatialStrides = rowMajorStrides(outSpatial);

  // Output pixels are processed in tiles so each kernel row, once loaded,
  // updates several pixels.
  constexpr int64_t kTile = 8;
  int64_t tiles = (outPixels + kTile - 1) / kTile;
  dispatchAccumulator(acc, [&](auto zero) {
    using A = decltype(zero);
    const A *inData = in.data<A>(), *wData = w.data<A>();
    A *outData = out.data<A>();
    parallelFor(outBatch * tiles, numThreads, [&](int64_t begin, int64_t end) {
      // inOffset[p * kernelPositions + kp]: the input pixel (times channels)
      // that kernel position kp of tile pixel p reads, or -1 for padding.
      std::vector<int64_t> inOffset(kTile * kernelPositions);
      std::vector<int64_t> weightOffset(kernelPositions);
      for (int64_t kp = 0; kp < kernelPositions; ++kp) {
        int64_t offset = 0;
        for (size_t j = 0; j < spatialRank; ++j) {
          int64_t kj = (kp / kernelStrides[j]) % kernelSpatial[j];
          if (reversal[j])
            kj = kernelSpatial[j] - 1 - kj;
          offset += kj * kernelStrides[j];
        }
        weightOffset[kp] = offset * inFeatures * outFeatures;
      }
      for (int64_t task = begin; task < end; ++task) {
        int64_t n = task / tiles;
        int64_t firstPixel = (task % tiles) * kTile;
        int64_t tilePixels = std::min(kTile, outPixels - firstPixel);
        for (int64_t p = 0; p < tilePixels; ++p) {
          for (int64_t kp = 0; kp < kernelPositions; ++kp) {
            int64_t offset = 0;
            for (size_t j = 0; j < spatialRank && offset >= 0; ++j) {
              int64_t oj = ((firstPixel + p) / outSpatialStrides[j]) % outSpatial[j];
              int64_t kj = (kp / kernelStrides[j]) % kernelSpatial[j];
              int64_t pos = oj * strides[j] + kj * rhsDilation[j] - padding[2 * j];
              if (pos < 0 || pos % lhsDilation[j] != 0 ||
                  pos / lhsDilation[j] >= inSpatial[j])
                offset = -1;
              else
                offset += pos / lhsDilation[j] * inSpatialStrides[j];
            }
            inOffset[p * kernelPositions + kp] = offset < 0 ? -1 : offset * channels;
          }
        }
        A *outTile = outData + (n * outPixels + firstPixel) * outFeatures;
        for (int64_t g = 0; g < groups; ++g) {
          // Feature groups split the input channels; batch groups split the
          // input batch. Both split the output features.
          int64_t inBatch = batchGroups > 1 ? g * outBatch + n : n;
          int64_t channelBase = featureGroups > 1 ? g * inFeatures : 0;
          int64_t featureBase = g * groupFeatures;
          const A *inBase = inData + inBatch * inPixels * channels + channelBase;
          for (int64_t kp = 0; kp < kernelPositions; ++kp) {
            const A *wBase = wData + weightOffset[kp] + featureBase;
            for (int64_t i = 0; i < inFeatures; ++i) {
              const A *wRow = wBase + i * outFeatures;
              for (int64_t p = 0; p < tilePixels; ++p) {
                int64_t offset = inOffset[p * kernelPositions + kp];
                if (offset >= 0)
                  axpy(outTile + p * outFeatures + featureBase, wRow,
                       inBase[offset + i], groupFeatures);
              }
            }
          }
        }
      }
    });
  });
  llvm::SmallVector<int64_t, 6> inverse(outPerm.size());
  for (auto [i, d] : llvm::enumerate(outPerm))
    inverse[d] = static_cast<int64_t>(i);
  return convert(transpose(out, inverse), resultType);
}

} // namespace tpuc::interpreter
