//===- DataMovementKernels.cpp - shape ops, gather, scatter, sort ----------===//
//
// Most shape ops are one strided copy: the destination is visited in
// row-major order and the source offset is an affine function of the index
// (a base and one stride per dimension; 0 broadcasts, negative reverses), so
// the inner loop is a plain strided copy with no per-element index vectors.
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Kernels.h"
#include "compiler/interpreter/ScalarProgram.h"
#include "compiler/interpreter/ScalarOps.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace tpuc::interpreter {
namespace {

template <typename E>
void stridedCopyTyped(llvm::ArrayRef<int64_t> shape, const uint8_t *src,
                      int64_t srcBase, llvm::ArrayRef<int64_t> srcStrides,
                      uint8_t *dst, int64_t dstBase,
                      llvm::ArrayRef<int64_t> dstStrides) {
  const E *in = reinterpret_cast<const E *>(src);
  E *out = reinterpret_cast<E *>(dst);
  int64_t rank = static_cast<int64_t>(shape.size());
  if (rank == 0) {
    out[dstBase] = in[srcBase];
    return;
  }
  if (elementCount(shape) == 0)
    return;
  int64_t inner = shape.back(), srcStep = srcStrides.back(),
          dstStep = dstStrides.back();
  llvm::SmallVector<int64_t, 6> outer(shape.drop_back());
  IndexCounter counter(outer);
  do {
    int64_t s = srcBase, d = dstBase;
    for (int64_t i = 0; i < rank - 1; ++i) {
      s += counter[i] * srcStrides[i];
      d += counter[i] * dstStrides[i];
    }
    for (int64_t i = 0; i < inner; ++i)
      out[d + i * dstStep] = in[s + i * srcStep];
  } while (counter.next() >= 0);
}

/// Copies the box `shape` from src (offset srcBase + sum idx*srcStrides) to
/// dst (offset dstBase + sum idx*dstStrides); offsets are in elements.
void stridedCopy(int64_t elementSize, llvm::ArrayRef<int64_t> shape,
                 const uint8_t *src, int64_t srcBase,
                 llvm::ArrayRef<int64_t> srcStrides, uint8_t *dst,
                 int64_t dstBase, llvm::ArrayRef<int64_t> dstStrides) {
  switch (elementSize) {
  case 1:
    return stridedCopyTyped<uint8_t>(shape, src, srcBase, srcStrides, dst,
                                     dstBase, dstStrides);
  case 2:
    return stridedCopyTyped<uint16_t>(shape, src, srcBase, srcStrides, dst,
                                      dstBase, dstStrides);
  case 4:
    return stridedCopyTyped<uint32_t>(shape, src, srcBase, srcStrides, dst,
                                      dstBase, dstStrides);
  default:
    return stridedCopyTyped<uint64_t>(shape, src, srcBase, srcStrides, dst,
                                      dstBase, dstStrides);
  }
}

int64_t elementSize(const Tensor &t) { return hostio::dtypeByteSize(t.dtype()); }

/// A fresh tensor whose elements are read from `x` at an affine offset.
Tensor gatherAffine(const Tensor &x, llvm::ArrayRef<int64_t> shape,
                    int64_t base, llvm::ArrayRef<int64_t> strides) {
  Tensor result(x.dtype(), shape);
  stridedCopy(elementSize(x), shape, x.bytes(), base, strides, result.bytes(),
              0, rowMajorStrides(shape));
  return result;
}

} // namespace

Tensor scalarAt(const Tensor &t, int64_t index) {
  Tensor scalar(t.dtype(), {});
  int64_t size = elementSize(t);
  std::memcpy(scalar.bytes(), t.bytes() + index * size, size);
  return scalar;
}

void storeScalar(Tensor &t, int64_t index, const Tensor &scalar) {
  int64_t size = elementSize(t);
  std::memcpy(t.bytes() + index * size, scalar.bytes(), size);
}

Tensor copyOf(const Tensor &t) {
  Tensor result(t.dtype(), t.shape());
  std::memcpy(result.bytes(), t.bytes(), t.byteSize());
  return result;
}

/// Applies the combiner to element `index` of `results` and element
/// `updateIndex` of `updates`, in place.
mlir::LogicalResult combineInto(llvm::MutableArrayRef<Tensor> results,
                                int64_t index, llvm::ArrayRef<Tensor> updates,
                                int64_t updateIndex, const Combiner &combiner) {
  if (combiner.binary) {
    dispatch(results[0].dtype(), [&](auto traits) {
      using T = decltype(traits);
      using S = typename T::Storage;
      S *acc = results[0].data<S>();
      const S *x = updates[0].data<S>();
      dispatchBinary(*combiner.binary, [&](auto op) {
        acc[index] = T::store(applyBinary<decltype(op)::value, T>(
            T::load(acc[index]), T::load(x[updateIndex])));
      });
    });
    return mlir::success();
  }
  if (combiner.program) {
    llvm::SmallVector<uint64_t, 32> slots;
    combiner.program->initSlots(slots);
    size_t n = results.size();
    for (size_t i = 0; i < n; ++i) {
      slots[i] = elementBits(results[i], index);
      slots[n + i] = elementBits(updates[i], updateIndex);
    }
    combiner.program->run(slots.data());
    for (auto [r, slot] : llvm::zip(results, combiner.program->resultSlots()))
      storeElementBits(r, index, slots[slot]);
    return mlir::success();
  }
  llvm::SmallVector<Tensor, 4> args;
  for (const Tensor &r : results)
    args.push_back(scalarAt(r, index));
  for (const Tensor &u : updates)
    args.push_back(scalarAt(u, updateIndex));
  auto out = combiner.region(args);
  if (mlir::failed(out))
    return mlir::failure();
  for (auto [r, v] : llvm::zip(results, *out))
    storeScalar(r, index, v);
  return mlir::success();
}

Tensor broadcastInDim(const Tensor &x, llvm::ArrayRef<int64_t> shape,
                      llvm::ArrayRef<int64_t> dims) {
  llvm::SmallVector<int64_t, 6> strides(shape.size(), 0);
  auto inStrides = rowMajorStrides(x.shape());
  for (auto [i, d] : llvm::enumerate(dims))
    strides[d] = x.dim(i) == 1 ? 0 : inStrides[i];
  return gatherAffine(x, shape, 0, strides);
}

Tensor transpose(const Tensor &x, llvm::ArrayRef<int64_t> permutation) {
  auto inStrides = rowMajorStrides(x.shape());
  llvm::SmallVector<int64_t, 6> shape, strides;
  for (int64_t p : permutation) {
    shape.push_back(x.dim(p));
    strides.push_back(inStrides[p]);
  }
  return gatherAffine(x, shape, 0, strides);
}

Tensor reverse(const Tensor &x, llvm::ArrayRef<int64_t> dims) {
  auto strides = rowMajorStrides(x.shape());
  int64_t base = 0;
  for (int64_t d : dims) {
    base += (x.dim(d) - 1) * strides[d];
    strides[d] = -strides[d];
  }
  return gatherAffine(x, x.shape(), base, strides);
}

Tensor slice(const Tensor &x, llvm::ArrayRef<int64_t> start,
             llvm::ArrayRef<int64_t> limit, llvm::ArrayRef<int64_t> steps) {
  auto inStrides = rowMajorStrides(x.shape());
  llvm::SmallVector<int64_t, 6> shape, strides;
  int64_t base = 0;
  for (int64_t d = 0; d < x.rank(); ++d) {
    shape.push_back((limit[d] - start[d] + steps[d] - 1) / steps[d]);
    strides.push_back(inStrides[d] * steps[d]);
    base += start[d] * inStrides[d];
  }
  return gatherAffine(x, shape, base, strides);
}

Tensor dynamicSlice(const Tensor &x, llvm::ArrayRef<int64_t> starts,
                    llvm::ArrayRef<int64_t> sizes) {
  auto strides = rowMajorStrides(x.shape());
  int64_t base = 0;
  for (int64_t d = 0; d < x.rank(); ++d)
    base += std::clamp<int64_t>(starts[d], 0, x.dim(d) - sizes[d]) * strides[d];
  return gatherAffine(x, sizes, base, strides);
}

Tensor dynamicUpdateSlice(const Tensor &x, const Tensor &update,
                          llvm::ArrayRef<int64_t> starts) {
  Tensor result = copyOf(x);
  auto strides = rowMajorStrides(x.shape());
  int64_t base = 0;
  for (int64_t d = 0; d < x.rank(); ++d)
    base += std::clamp<int64_t>(starts[d], 0, x.dim(d) - update.dim(d)) *
            strides[d];
  stridedCopy(elementSize(x), update.shape(), update.bytes(), 0,
              rowMajorStrides(update.shape()), result.bytes(), base, strides);
  return result;
}

Tensor concatenate(llvm::ArrayRef<Tensor> inputs, int64_t dimension) {
  llvm::SmallVector<int64_t, 6> shape(inputs[0].shape());
  shape[dimension] = 0;
  for (const Tensor &t : inputs)
    shape[dimension] += t.dim(dimension);
  Tensor result(inputs[0].dtype(), shape);
  auto strides = rowMajorStrides(shape);
  int64_t offset = 0;
  for (const Tensor &t : inputs) {
    stridedCopy(elementSize(t), t.shape(), t.bytes(), 0,
                rowMajorStrides(t.shape()), result.bytes(),
                offset * strides[dimension], strides);
    offset += t.dim(dimension);
  }
  return result;
}

Tensor pad(const Tensor &x, const Tensor &value, llvm::ArrayRef<int64_t> low,
           llvm::ArrayRef<int64_t> high, llvm::ArrayRef<int64_t> interior) {
  llvm::SmallVector<int64_t, 6> shape;
  for (int64_t d = 0; d < x.rank(); ++d) {
    int64_t dilated = x.dim(d) == 0 ? 0 : (x.dim(d) - 1) * (interior[d] + 1) + 1;
    shape.push_back(std::max<int64_t>(0, low[d] + dilated + high[d]));
  }
  Tensor result = broadcastInDim(value, shape, {});
  // Input index i lands at low + i*(interior+1); copy the box of inputs that
  // land inside the result (negative padding cuts some off).
  auto outStrides = rowMajorStrides(shape);
  auto inStrides = rowMajorStrides(x.shape());
  llvm::SmallVector<int64_t, 6> box, dstStrides;
  int64_t srcBase = 0, dstBase = 0;
  for (int64_t d = 0; d < x.rank(); ++d) {
    int64_t step = interior[d] + 1;
    int64_t first = low[d] >= 0 ? 0 : (-low[d] + step - 1) / step;
    int64_t last = x.dim(d) - 1; // the last input index inside the result
    if (x.dim(d) > 0 && low[d] + last * step >= shape[d])
      last = (shape[d] - 1 - low[d]) >= 0
                 ? (shape[d] - 1 - low[d]) / step
                 : -1;
    box.push_back(std::max<int64_t>(0, last - first + 1));
    srcBase += first * inStrides[d];
    dstBase += (low[d] + first * step) * outStrides[d];
    dstStrides.push_back(outStrides[d] * step);
  }
  if (elementCount(box) > 0)
    stridedCopy(elementSize(x), box, x.bytes(), srcBase, inStrides,
                result.bytes(), dstBase, dstStrides);
  return result;
}

namespace {
/// XLA's gather/scatter indexing: the operand window of one element of the
/// gather result (scatter updates), i.e. its start index read from
/// `indices` (plus batching dims) and its offset inside the window.
class WindowIndexing {
public:
  WindowIndexing(const Tensor &operand, const Tensor &indices,
                 int64_t indexVectorDim, llvm::ArrayRef<int64_t> windowDims,
                 llvm::ArrayRef<int64_t> droppedDims,
                 llvm::ArrayRef<int64_t> operandBatchingDims,
                 llvm::ArrayRef<int64_t> indicesBatchingDims,
                 llvm::ArrayRef<int64_t> startIndexMap)
      : indices(indices), windowDims(windowDims),
        operandBatchingDims(operandBatchingDims),
        indicesBatchingDims(indicesBatchingDims), startIndexMap(startIndexMap),
        operandStrides(rowMajorStrides(operand.shape())),
        indexStrides(rowMajorStrides(indices.shape())) {
    indexVectorStride =
        indexVectorDim < indices.rank() ? indexStrides[indexVectorDim] : 0;
    for (int64_t d = 0; d < operand.rank(); ++d)
      if (!llvm::is_contained(droppedDims, d) &&
          !llvm::is_contained(operandBatchingDims, d))
        windowOperandDims.push_back(d);
    // The element's non-window dims are the index dims but the vector dim.
    for (int64_t d = 0; d < indices.rank(); ++d)
      if (d != indexVectorDim)
        indexBatchDims.push_back(d);
  }

  /// The start of the window of the element at `position` (unclamped).
  void start(llvm::ArrayRef<int64_t> position,
             llvm::SmallVectorImpl<int64_t> &start) const {
    int64_t indexBase = 0, batch = 0;
    llvm::SmallVector<int64_t, 6> batchIndex(indices.rank(), 0);
    for (int64_t d = 0; d < static_cast<int64_t>(position.size()); ++d) {
      if (llvm::is_contained(windowDims, d))
        continue;
      int64_t indexDim = indexBatchDims[batch++];
      batchIndex[indexDim] = position[d];
      indexBase += position[d] * indexStrides[indexDim];
    }
    std::fill(start.begin(), start.end(), 0);
    for (auto [k, operandDim] : llvm::enumerate(startIndexMap))
      start[operandDim] = indices.intAt(indexBase + k * indexVectorStride);
    for (auto [operandDim, indexDim] :
         llvm::zip(operandBatchingDims, indicesBatchingDims))
      start[operandDim] = batchIndex[indexDim];
  }

  /// The offset (in operand elements) of `position` inside its window.
  int64_t windowOffset(llvm::ArrayRef<int64_t> position) const {
    int64_t offset = 0;
    for (auto [k, operandDim] : llvm::enumerate(windowOperandDims))
      offset += position[windowDims[k]] * operandStrides[operandDim];
    return offset;
  }

  const Tensor &indices;
  llvm::ArrayRef<int64_t> windowDims, operandBatchingDims, indicesBatchingDims,
      startIndexMap;
  llvm::SmallVector<int64_t, 6> operandStrides, indexStrides, windowOperandDims,
      indexBatchDims;
  int64_t indexVectorStride;
};
} // namespace

Tensor gather(const Tensor &operand, const Tensor &indices,
              hlo::GatherDimensionNumbersAttr dims,
              llvm::ArrayRef<int64_t> sliceSizes,
              llvm::ArrayRef<int64_t> resultShape) {
  Tensor result(operand.dtype(), resultShape);
  WindowIndexing indexing(operand, indices, dims.getIndexVectorDim(),
                          dims.getOffsetDims(), dims.getCollapsedSliceDims(),
                          dims.getOperandBatchingDims(),
                          dims.getStartIndicesBatchingDims(),
                          dims.getStartIndexMap());
  if (result.numElements() == 0)
    return result;
  int64_t size = elementSize(operand);
  llvm::SmallVector<int64_t, 6> start(operand.rank());
  IndexCounter out(resultShape);
  int64_t linear = 0;
  do {
    indexing.start(out.get(), start);
    int64_t offset = indexing.windowOffset(out.get());
    for (int64_t d = 0; d < operand.rank(); ++d)
      offset += std::clamp<int64_t>(start[d], 0, operand.dim(d) - sliceSizes[d]) *
                indexing.operandStrides[d];
    std::memcpy(result.bytes() + linear * size, operand.bytes() + offset * size,
                size);
    ++linear;
  } while (out.next() >= 0);
  return result;
}

mlir::FailureOr<llvm::SmallVector<Tensor, 2>>
scatter(llvm::ArrayRef<Tensor> inputs, const Tensor &indices,
        llvm::ArrayRef<Tensor> updates, hlo::ScatterDimensionNumbersAttr dims,
        const Combiner &combiner) {
  llvm::SmallVector<Tensor, 2> results;
  for (const Tensor &t : inputs)
    results.push_back(copyOf(t));
  const Tensor &operand = inputs[0];
  const Tensor &update = updates[0];
  WindowIndexing indexing(operand, indices, dims.getIndexVectorDim(),
                          dims.getUpdateWindowDims(), dims.getInsertedWindowDims(),
                          dims.getInputBatchingDims(),
                          dims.getScatterIndicesBatchingDims(),
                          dims.getScatterDimsToOperandDims());
  // The window's extent in each operand dim (1 for inserted/batching dims).
  llvm::SmallVector<int64_t, 6> windowSize(operand.rank(), 1);
  for (auto [k, operandDim] : llvm::enumerate(indexing.windowOperandDims))
    windowSize[operandDim] = update.dim(dims.getUpdateWindowDims()[k]);
  if (update.numElements() == 0)
    return results;
  llvm::SmallVector<int64_t, 6> start(operand.rank());
  IndexCounter u(update.shape());
  int64_t linear = 0;
  do {
    indexing.start(u.get(), start);
    // As XLA's backends: a window that does not fit entirely is skipped.
    bool inBounds = true;
    int64_t offset = indexing.windowOffset(u.get());
    for (int64_t d = 0; d < operand.rank(); ++d) {
      inBounds &= start[d] >= 0 && start[d] <= operand.dim(d) - windowSize[d];
      offset += start[d] * indexing.operandStrides[d];
    }
    if (inBounds &&
        mlir::failed(combineInto(results, offset, updates, linear, combiner)))
      return mlir::failure();
    ++linear;
  } while (u.next() >= 0);
  return results;
}

mlir::FailureOr<llvm::SmallVector<Tensor, 2>>
sort(llvm::ArrayRef<Tensor> inputs, int64_t dimension,
     const Comparator &comparator) {
  llvm::ArrayRef<int64_t> shape = inputs[0].shape();
  int64_t n = shape[dimension];
  int64_t stride = rowMajorStrides(shape)[dimension];
  llvm::SmallVector<Tensor, 2> results;
  for (const Tensor &t : inputs)
    results.push_back(Tensor(t.dtype(), shape));
  llvm::SmallVector<int64_t, 6> outerShape(shape);
  outerShape[dimension] = 1;
  if (elementCount(shape) == 0)
    return results;

  std::vector<int64_t> order(n), offsets(n);
  bool failed = false;
  auto regionLess = [&](int64_t a, int64_t b) {
    if (failed)
      return false;
    llvm::SmallVector<Tensor, 4> args;
    for (const Tensor &t : inputs) {
      args.push_back(scalarAt(t, offsets[a]));
      args.push_back(scalarAt(t, offsets[b]));
    }
    auto out = comparator.region(args);
    if (mlir::failed(out)) {
      failed = true;
      return false;
    }
    return (*out)[0].intAt(0) != 0;
  };

  IndexCounter outer(outerShape);
  do {
    int64_t base = 0;
    auto strides = rowMajorStrides(shape);
    for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
      base += outer[d] * strides[d];
    for (int64_t i = 0; i < n; ++i) {
      order[i] = i;
      offsets[i] = base + i * stride;
    }
    // Always stable: a valid (and deterministic) implementation of an
    // unstable sort too.
    if (comparator.compare) {
      const Tensor &key = inputs[comparator.keyOperand];
      dispatch(key.dtype(), [&](auto traits) {
        using T = decltype(traits);
        std::vector<typename T::Compute> values(n);
        const auto *data = key.data<typename T::Storage>();
        for (int64_t i = 0; i < n; ++i)
          values[i] = T::load(data[offsets[i]]);
        CompareSpec spec = *comparator.compare;
        bool swapped = comparator.swapped;
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
          return swapped ? applyCompare<T>(spec, values[b], values[a])
                         : applyCompare<T>(spec, values[a], values[b]);
        });
      });
    } else if (comparator.program) {
      const ScalarProgram &program = *comparator.program;
      llvm::SmallVector<uint64_t, 32> slots;
      program.initSlots(slots);
      unsigned resultSlot = program.resultSlots()[0];
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        for (size_t i = 0; i < inputs.size(); ++i) {
          slots[2 * i] = elementBits(inputs[i], offsets[a]);
          slots[2 * i + 1] = elementBits(inputs[i], offsets[b]);
        }
        program.run(slots.data());
        return slots[resultSlot] != 0;
      });
    } else {
      std::stable_sort(order.begin(), order.end(), regionLess);
      if (failed)
        return mlir::failure();
    }
    for (auto [input, result] : llvm::zip(inputs, results)) {
      int64_t size = elementSize(input);
      for (int64_t i = 0; i < n; ++i)
        std::memcpy(result.bytes() + offsets[i] * size,
                    input.bytes() + offsets[order[i]] * size, size);
    }
  } while (outer.next() >= 0);
  return results;
}

llvm::SmallVector<Tensor, 2> topK(const Tensor &x, int64_t k, bool largest) {
  int64_t n = x.rank() == 0 ? 1 : x.shape().back();
  int64_t rows = n == 0 ? 0 : x.numElements() / n;
  llvm::SmallVector<int64_t, 6> shape(x.shape());
  if (!shape.empty())
    shape.back() = k;
  Tensor values(x.dtype(), shape), indices(DType::S32, shape);
  dispatch(x.dtype(), [&](auto traits) {
    using T = decltype(traits);
    using S = typename T::Storage;
    CompareSpec spec;
    spec.direction = largest ? hlo::ComparisonDirection::GT
                             : hlo::ComparisonDirection::LT;
    spec.totalOrder = true;
    std::vector<int64_t> order(n);
    const S *in = x.data<S>();
    for (int64_t r = 0; r < rows; ++r) {
      const S *row = in + r * n;
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        return applyCompare<T>(spec, T::load(row[a]), T::load(row[b]));
      });
      for (int64_t i = 0; i < k; ++i) {
        values.data<S>()[r * k + i] = row[order[i]];
        indices.data<int32_t>()[r * k + i] = static_cast<int32_t>(order[i]);
      }
    }
  });
  return {values, indices};
}

} // namespace tpuc::interpreter
