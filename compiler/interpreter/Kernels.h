//===- Kernels.h - the interpreter's per-op kernels -------------*- C++ -*-===//
//
// One function per hlo op (or family of ops), on Tensors. Attributes are read
// from the op where they are structured (dimension numbers, windows); the op
// is never used for anything else. Kernels that run a computation (reduce,
// scatter, sort ...) take it as a Combiner: a recognised single binary op
// (evaluated inline, the fast path), the region compiled to a
// ScalarProgram, or else a callback that interprets the region on rank-0
// tensors.
//
// Private to compiler/interpreter; the public API is Interpreter.h.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_INTERPRETER_KERNELS_H
#define TPUC_COMPILER_INTERPRETER_KERNELS_H

#include "compiler/interpreter/Tensor.h"
#include "dialects/hlo/HloOps.h"

#include <functional>
#include <memory>

namespace tpuc::interpreter {

enum class UnaryOp {
  Abs, Ceil, Cosine, Exp, Expm1, Floor, Log, Log1p, Logistic, Negate, Not,
  RoundNearestEven, Rsqrt, Sign, Sine, Sqrt, Tanh, Tan, Cbrt, Erf,
  RoundNearestAfz, Acos, Acosh, Asin, Asinh, Atan, Atanh, Cosh, Sinh,
  Popcnt, Clz,
};
enum class BinaryOp {
  Add, Subtract, Multiply, Divide, Remainder, Maximum, Minimum, Power, Atan2,
  And, Or, Xor, ShiftLeft, ShiftRightArithmetic, ShiftRightLogical, Mulhi,
};

struct CompareSpec {
  hlo::ComparisonDirection direction = hlo::ComparisonDirection::EQ;
  bool totalOrder = false;    ///< TOTALORDER on floats.
  bool forceSigned = false;   ///< SIGNED on an unsigned type.
  bool forceUnsigned = false; ///< UNSIGNED on a signed type.
};

class ScalarProgram;

/// Runs a region on rank-0 tensors; on failure it has emitted a diagnostic.
using ScalarComputation = std::function<mlir::FailureOr<
    llvm::SmallVector<Tensor, 2>>(llvm::ArrayRef<Tensor>)>;

/// A computation that combines (acc..., x...) into acc...: `binary` when the
/// region is exactly `return op(arg0, arg1)`.
struct Combiner {
  std::optional<BinaryOp> binary;
  ScalarComputation region;
  std::shared_ptr<const ScalarProgram> program;
};

/// A sort comparator: `compare` when the region is exactly
/// `return compare(arg[2k], arg[2k+1])` (or with the arguments swapped).
struct Comparator {
  std::optional<CompareSpec> compare;
  int64_t keyOperand = 0;
  bool swapped = false;
  ScalarComputation region;
  std::shared_ptr<const ScalarProgram> program;
};

/// Window of reduce_window / select_and_scatter (one entry per dimension).
struct Window {
  llvm::SmallVector<int64_t, 4> size, stride, padLow, padHigh, baseDilation,
      windowDilation;
};

// Helpers shared by the kernels (DataMovementKernels.cpp).
/// Element `index` of `t` as a rank-0 tensor.
Tensor scalarAt(const Tensor &t, int64_t index);
/// Writes rank-0 `scalar` into element `index` of `t`.
void storeScalar(Tensor &t, int64_t index, const Tensor &scalar);
/// A copy with its own storage (for kernels that update in place).
Tensor copyOf(const Tensor &t);
/// results[i][index] = combine(results..[index], updates..[updateIndex]).
mlir::LogicalResult combineInto(llvm::MutableArrayRef<Tensor> results,
                                int64_t index, llvm::ArrayRef<Tensor> updates,
                                int64_t updateIndex, const Combiner &combiner);

// Elementwise (ElementwiseKernels.cpp).
Tensor unary(UnaryOp op, const Tensor &x);
Tensor isFinite(const Tensor &x);
Tensor binary(BinaryOp op, const Tensor &a, const Tensor &b);
Tensor compare(CompareSpec spec, const Tensor &a, const Tensor &b);
/// `pred` may be rank 0.
Tensor select(const Tensor &pred, const Tensor &onTrue, const Tensor &onFalse);
/// `min` and `max` may be rank 0.
Tensor clamp(const Tensor &min, const Tensor &x, const Tensor &max);
Tensor convert(const Tensor &x, DType to);
/// XLA's reduce-precision: round to `exponentBits`/`mantissaBits`, keep
/// the type.
Tensor reducePrecision(const Tensor &x, int exponentBits, int mantissaBits);
/// result[i] = computation(inputs..[i]); the combiner's region takes one
/// rank-0 tensor per input.
mlir::FailureOr<Tensor> map(llvm::ArrayRef<Tensor> inputs, DType resultType,
                            const Combiner &computation);
Tensor bitcastConvert(const Tensor &x, DType to, llvm::ArrayRef<int64_t> shape);
Tensor iota(DType dtype, llvm::ArrayRef<int64_t> shape, int64_t dimension);

// Data movement (DataMovementKernels.cpp).
Tensor broadcastInDim(const Tensor &x, llvm::ArrayRef<int64_t> shape,
                      llvm::ArrayRef<int64_t> dims);
Tensor transpose(const Tensor &x, llvm::ArrayRef<int64_t> permutation);
Tensor reverse(const Tensor &x, llvm::ArrayRef<int64_t> dims);
Tensor slice(const Tensor &x, llvm::ArrayRef<int64_t> start,
             llvm::ArrayRef<int64_t> limit, llvm::ArrayRef<int64_t> strides);
/// Start indices are clamped so the slice lies inside `x` (XLA).
Tensor dynamicSlice(const Tensor &x, llvm::ArrayRef<int64_t> starts,
                    llvm::ArrayRef<int64_t> sizes);
Tensor dynamicUpdateSlice(const Tensor &x, const Tensor &update,
                          llvm::ArrayRef<int64_t> starts);
Tensor concatenate(llvm::ArrayRef<Tensor> inputs, int64_t dimension);
Tensor pad(const Tensor &x, const Tensor &value, llvm::ArrayRef<int64_t> low,
           llvm::ArrayRef<int64_t> high, llvm::ArrayRef<int64_t> interior);
Tensor gather(const Tensor &operand, const Tensor &indices,
              hlo::GatherDimensionNumbersAttr dims,
              llvm::ArrayRef<int64_t> sliceSizes,
              llvm::ArrayRef<int64_t> resultShape);
mlir::FailureOr<llvm::SmallVector<Tensor, 2>>
scatter(llvm::ArrayRef<Tensor> inputs, const Tensor &indices,
        llvm::ArrayRef<Tensor> updates, hlo::ScatterDimensionNumbersAttr dims,
        const Combiner &combiner);
mlir::FailureOr<llvm::SmallVector<Tensor, 2>>
sort(llvm::ArrayRef<Tensor> inputs, int64_t dimension,
     const Comparator &comparator);
/// Values and s32 indices of the k largest (smallest) along the last
/// dimension; ties keep the lower index first.
llvm::SmallVector<Tensor, 2> topK(const Tensor &x, int64_t k, bool largest);

// Linear algebra (LinearAlgebraKernels.cpp), per matrix of the batch.
/// The Cholesky factor in the `lower` (else upper) triangle, zeros in the
/// other; NaN from a non-positive-definite matrix's first failing column.
Tensor cholesky(const Tensor &a, bool lower);
/// x with op(a) x = b (leftSide) or x op(a) = b; op(a) = a or a^T.
Tensor triangularSolve(const Tensor &a, const Tensor &b, bool leftSide,
                       bool lower, bool unitDiagonal, bool transposeA);

// Random bits (RandomKernels.cpp).
/// XLA's rng-bit-generator: (new state, random bits of `outType[shape]`)
/// from a verified u64[n] state.
llvm::SmallVector<Tensor, 2> rngBitGenerator(const Tensor &state,
                                             hlo::RngAlgorithm algorithm,
                                             DType outType,
                                             llvm::ArrayRef<int64_t> shape);
/// XLA's rng as its RngExpander builds it: numbers of `outType[shape]`
/// between the scalars a and b (UNIFORM) or with mean a and deviation b
/// (NORMAL) from Philox-4x32 bits keyed by `key` at the 128-bit counter
/// (counterLow, counterHigh).
Tensor rng(hlo::RngDistribution distribution, const Tensor &a,
           const Tensor &b, DType outType, llvm::ArrayRef<int64_t> shape,
           uint64_t key, uint64_t counterLow, uint64_t counterHigh);

// Reductions (ReductionKernels.cpp).
mlir::FailureOr<llvm::SmallVector<Tensor, 2>>
reduce(llvm::ArrayRef<Tensor> inputs, llvm::ArrayRef<Tensor> inits,
       llvm::ArrayRef<int64_t> dims, const Combiner &combiner);
mlir::FailureOr<llvm::SmallVector<Tensor, 2>>
reduceWindow(llvm::ArrayRef<Tensor> inputs, llvm::ArrayRef<Tensor> inits,
             const Window &window, llvm::ArrayRef<int64_t> resultShape,
             const Combiner &combiner);
mlir::FailureOr<Tensor> selectAndScatter(const Tensor &operand,
                                         const Tensor &source,
                                         const Tensor &init,
                                         const Window &window,
                                         const Comparator &select,
                                         const Combiner &scatter);

// Contractions (ContractionKernels.cpp); `numThreads` >= 1.
Tensor dotGeneral(const Tensor &lhs, const Tensor &rhs,
                  hlo::DotDimensionNumbersAttr dims, DType resultType,
                  llvm::ArrayRef<int64_t> resultShape, int numThreads);
Tensor convolution(const Tensor &lhs, const Tensor &rhs, hlo::ConvolutionOp op,
                   DType resultType, llvm::ArrayRef<int64_t> resultShape,
                   int numThreads);

} // namespace tpuc::interpreter

#endif // TPUC_COMPILER_INTERPRETER_KERNELS_H
