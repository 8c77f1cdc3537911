//===- ReductionKernels.cpp - reduce, reduce_window, select_and_scatter ----===//
//
// Every reduction visits the elements it combines in row-major order and
// folds them into the accumulator one at a time, starting from the init
// value, as XLA's HloEvaluator does. With a recognised binary reducer the
// accumulator lives in the compute type and is rounded to the element type
// after every step (so a bf16 sum rounds after each add, as in XLA).
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Kernels.h"
#include "compiler/interpreter/ScalarProgram.h"
#include "compiler/interpreter/ScalarOps.h"

#include "llvm/ADT/STLExtras.h"

namespace tpuc::interpreter {
namespace {

/// The window of output element `out`: calls f(inputOffset) for each window
/// element inside the (dilated, padded) input, in row-major window order.
template <typename F>
void forEachWindowElement(const Window &window, llvm::ArrayRef<int64_t> inShape,
                          llvm::ArrayRef<int64_t> inStrides,
                          llvm::ArrayRef<int64_t> out, F &&f) {
  int64_t rank = static_cast<int64_t>(inShape.size());
  if (elementCount(window.size) == 0)
    return;
  IndexCounter w(window.size);
  do {
    int64_t offset = 0;
    bool inside = true;
    for (int64_t d = 0; d < rank && inside; ++d) {
      int64_t pos = out[d] * window.stride[d] + w[d] * window.windowDilation[d] -
                    window.padLow[d];
      if (pos < 0 || pos % window.baseDilation[d] != 0) {
        inside = false;
        break;
      }
      pos /= window.baseDilation[d];
      inside = pos < inShape[d];
      offset += pos * inStrides[d];
    }
    if (inside)
      f(offset);
  } while (w.next() >= 0);
}

llvm::SmallVector<Tensor, 2> broadcastInits(llvm::ArrayRef<Tensor> inits,
                                            llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<Tensor, 2> results;
  for (const Tensor &init : inits)
    results.push_back(broadcastInDim(init, shape, {}));
  return results;
}

} // namespace

mlir::FailureOr<llvm::SmallVector<Tensor, 2>>
reduce(llvm::ArrayRef<Tensor> inputs, llvm::ArrayRef<Tensor> inits,
       llvm::ArrayRef<int64_t> dims, const Combiner &combiner) {
  llvm::ArrayRef<int64_t> inShape = inputs[0].shape();
  llvm::SmallVector<int64_t, 6> outShape;
  for (int64_t d = 0; d < static_cast<int64_t>(inShape.size()); ++d)
    if (!llvm::is_contained(dims, d))
      outShape.push_back(inShape[d]);
  llvm::SmallVector<Tensor, 2> results = broadcastInits(inits, outShape);
  if (inputs[0].numElements() == 0)
    return results;

  // The output offset of each input index: 0 stride on reduced dims.
  auto outStrides = rowMajorStrides(outShape);
  llvm::SmallVector<int64_t, 6> strides(inShape.size(), 0);
  for (int64_t d = 0, o = 0; d < static_cast<int64_t>(inShape.size()); ++d)
    if (!llvm::is_contained(dims, d))
      strides[d] = outStrides[o++];
  int64_t rank = static_cast<int64_t>(inShape.size());
  int64_t inner = rank ? inShape.back() : 1;
  int64_t innerStride = rank ? strides.back() : 0;
  llvm::SmallVector<int64_t, 6> outerShape(inShape.begin(), inShape.end());
  if (rank)
    outerShape.pop_back();

  IndexCounter outer(outerShape);
  int64_t in = 0;
  do {
    int64_t base = 0;
    for (int64_t d = 0; d + 1 < rank; ++d)
      base += outer[d] * strides[d];
    if (combiner.binary && inputs.size() == 1) {
      dispatch(inputs[0].dtype(), [&](auto traits) {
        using T = decltype(traits);
        using S = typename T::Storage;
        const S *x = inputs[0].data<S>() + in;
        S *acc = results[0].data<S>() + base;
        dispatchBinary(*combiner.binary, [&](auto op) {
          constexpr BinaryOp kOp = decltype(op)::value;
          if (innerStride == 0) {
            auto value = T::load(*acc);
            for (int64_t i = 0; i < inner; ++i)
              value = roundTo<T>(applyBinary<kOp, T>(value, T::load(x[i])));
            *acc = T::store(value);
          } else {
            for (int64_t i = 0; i < inner; ++i)
              acc[i] = T::store(applyBinary<kOp, T>(T::load(acc[i]), T::load(x[i])));
          }
        });
      });
    } else {
      for (int64_t i = 0; i < inner; ++i)
        if (mlir::failed(combineInto(results, base + i * innerStride, inputs,
                                     in + i, combiner)))
          return mlir::failure();
    }
    in += inner;
  } while (outer.next() >= 0);
  return results;
}

mlir::FailureOr<llvm::SmallVector<Tensor, 2>>
reduceWindow(llvm::ArrayRef<Tensor> inputs, llvm::ArrayRef<Tensor> inits,
             const Window &window, llvm::ArrayRef<int64_t> resultShape,
             const Combiner &combiner) {
  llvm::SmallVector<Tensor, 2> results = broadcastInits(inits, resultShape);
  if (elementCount(resultShape) == 0)
    return results;
  llvm::ArrayRef<int64_t> inShape = inputs[0].shape();
  auto inStrides = rowMajorStrides(inShape);
  IndexCounter out(resultShape);
  int64_t outOffset = 0;
  bool failed = false;
  do {
    if (combiner.binary && inputs.size() == 1) {
      dispatch(inputs[0].dtype(), [&](auto traits) {
        using T = decltype(traits);
        using S = typename T::Storage;
        const S *x = inputs[0].data<S>();
        S *acc = results[0].data<S>() + outOffset;
        dispatchBinary(*combiner.binary, [&](auto op) {
          auto value = T::load(*acc);
          forEachWindowElement(window, inShape, inStrides, out.get(),
                               [&](int64_t offset) {
                                 value = roundTo<T>(applyBinary<decltype(op)::value, T>(
                                     value, T::load(x[offset])));
                               });
          *acc = T::store(value);
        });
      });
    } else {
      forEachWindowElement(window, inShape, inStrides, out.get(),
                           [&](int64_t offset) {
                             if (!failed)
                               failed = mlir::failed(combineInto(
                                   results, outOffset, inputs, offset, combiner));
                           });
      if (failed)
        return mlir::failure();
    }
    ++outOffset;
  } while (out.next() >= 0);
  return results;
}

mlir::FailureOr<Tensor> selectAndScatter(const Tensor &operand,
                                         const Tensor &source,
                                         const Tensor &init,
                                         const Window &window,
                                         const Comparator &select,
                                         const Combiner &scatter) {
  llvm::SmallVector<Tensor, 1> result{broadcastInDim(init, operand.shape(), {})};
  if (source.numElements() == 0)
    return result[0];
  auto inStrides = rowMajorStrides(operand.shape());
  bool failed = false;
  // Whether the selected element stays selected against `candidate`.
  auto keeps = [&](int64_t selected, int64_t candidate) -> bool {
    if (select.compare) {
      return dispatch(operand.dtype(), [&](auto traits) {
        using T = decltype(traits);
        const auto *x = operand.data<typename T::Storage>();
        auto a = T::load(x[selected]), b = T::load(x[candidate]);
        return select.swapped ? applyCompare<T>(*select.compare, b, a)
                              : applyCompare<T>(*select.compare, a, b);
      });
    }
    if (select.program) {
      llvm::SmallVector<uint64_t, 32> slots;
      select.program->initSlots(slots);
      slots[0] = elementBits(operand, selected);
      slots[1] = elementBits(operand, candidate);
      select.program->run(slots.data());
      return slots[select.program->resultSlots()[0]] != 0;
    }
    Tensor args[] = {scalarAt(operand, selected), scalarAt(operand, candidate)};
    auto out = select.region(args);
    if (mlir::failed(out)) {
      failed = true;
      return true;
    }
    return (*out)[0].intAt(0) != 0;
  };
  IndexCounter s(source.shape());
  int64_t sourceOffset = 0;
  do {
    int64_t selected = -1;
    forEachWindowElement(window, operand.shape(), inStrides, s.get(),
                         [&](int64_t offset) {
                           if (failed)
                             return;
                           if (selected < 0 || !keeps(selected, offset))
                             selected = offset;
                         });
    if (failed)
      return mlir::failure();
    if (selected >= 0 &&
        mlir::failed(combineInto(result, selected, {source}, sourceOffset,
                                 scatter)))
      return mlir::failure();
    ++sourceOffset;
  } while (s.next() >= 0);
  return result[0];
}

} // namespace tpuc::interpreter
