//===- LinearAlgebraKernels.cpp - cholesky, triangular_solve --------------===//
//
// Per matrix of the batch, in f64 (the oracle's accuracy, rounded once to
// the element type): the unblocked Cholesky-Banachiewicz factorization and
// forward/back substitution. XLA's expanders compute the same values with
// blocked algorithms in the element type, so they agree within its
// rounding. Only the triangle an op reads is read. A matrix whose
// factorization meets a NaN pivot (not positive definite) is all NaN, as
// XLA's expansion makes it.
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tpuc::interpreter {
namespace {

std::vector<double> toDoubles(const Tensor &t) {
  std::vector<double> out(t.numElements());
  for (int64_t i = 0; i < t.numElements(); ++i)
    out[i] = t.doubleAt(i);
  return out;
}

Tensor fromDoubles(DType dtype, llvm::ArrayRef<int64_t> shape,
                   llvm::ArrayRef<double> values) {
  Tensor out(dtype, shape);
  dispatch(dtype, [&](auto traits) {
    using T = decltype(traits);
    auto *data = out.data<typename T::Storage>();
    for (size_t i = 0; i < values.size(); ++i)
      data[i] = T::store(static_cast<typename T::Compute>(values[i]));
  });
  return out;
}

} // namespace

Tensor cholesky(const Tensor &a, bool lower) {
  int64_t n = a.dim(a.rank() - 1);
  int64_t batch = n == 0 ? 0 : a.numElements() / (n * n);
  std::vector<double> in = toDoubles(a), out(in.size(), 0.0);
  // Element (i, j) of the lower factor L; upper reads and writes U = L^T.
  auto at = [&](std::vector<double> &m, int64_t base, int64_t i,
                int64_t j) -> double & {
    return lower ? m[base + i * n + j] : m[base + j * n + i];
  };
  for (int64_t b = 0; b < batch; ++b) {
    int64_t base = b * n * n;
    bool failed = false;
    for (int64_t j = 0; j < n; ++j) {
      double diag = at(in, base, j, j);
      for (int64_t k = 0; k < j; ++k)
        diag -= at(out, base, j, k) * at(out, base, j, k);
      double root = diag >= 0 ? std::sqrt(diag)
                              : std::numeric_limits<double>::quiet_NaN();
      failed |= std::isnan(root);
      at(out, base, j, j) = root;
      for (int64_t i = j + 1; i < n; ++i) {
        double v = at(in, base, i, j);
        for (int64_t k = 0; k < j; ++k)
          v -= at(out, base, i, k) * at(out, base, j, k);
        at(out, base, i, j) = v / root;
      }
    }
    // XLA's CholeskyExpander: a NaN pivot anywhere makes the whole matrix
    // NaN (both triangles).
    if (failed)
      std::fill(out.begin() + base, out.begin() + base + n * n,
                std::numeric_limits<double>::quiet_NaN());
  }
  return fromDoubles(a.dtype(), a.shape(), out);
}

Tensor triangularSolve(const Tensor &a, const Tensor &b, bool leftSide,
                       bool lower, bool unitDiagonal, bool transposeA) {
  int64_t rank = b.rank();
  int64_t m = a.dim(rank - 1);
  int64_t rows = b.dim(rank - 2), cols = b.dim(rank - 1);
  int64_t batch = rows * cols == 0 ? 0 : b.numElements() / (rows * cols);
  std::vector<double> av = toDoubles(a), x = toDoubles(b);
  for (int64_t p = 0; p < batch; ++p) {
    const double *am = av.data() + p * m * m;
    double *xm = x.data() + p * rows * cols;
    // op(a)(i, k), reading only a's stored triangle.
    auto opA = [&](int64_t i, int64_t k) {
      if (i == k && unitDiagonal)
        return 1.0;
      int64_t r = transposeA ? k : i, c = transposeA ? i : k;
      if (lower ? c > r : c < r)
        return 0.0;
      return am[r * m + c];
    };
    // op(a) is lower triangular when exactly one of lower/transpose holds.
    bool opLower = lower != transposeA;
    // Left: op(a) X = B, column by column. Right: X op(a) = B, i.e.
    // op(a)^T X^T = B^T, row by row; op(a)^T is lower iff op(a) is upper.
    bool forward = leftSide ? opLower : !opLower;
    int64_t systems = leftSide ? cols : rows;
    for (int64_t s = 0; s < systems; ++s) {
      auto xAt = [&](int64_t i) -> double & {
        return leftSide ? xm[i * cols + s] : xm[s * cols + i];
      };
      auto coef = [&](int64_t i, int64_t k) {
        return leftSide ? opA(i, k) : opA(k, i);
      };
      for (int64_t step = 0; step < m; ++step) {
        int64_t i = forward ? step : m - 1 - step;
        double v = xAt(i);
        if (forward) {
          for (int64_t k = 0; k < i; ++k)
            v -= coef(i, k) * xAt(k);
        } else {
          for (int64_t k = i + 1; k < m; ++k)
            v -= coef(i, k) * xAt(k);
        }
        xAt(i) = v / coef(i, i);
      }
    }
  }
  return fromDoubles(b.dtype(), b.shape(), x);
}

} // namespace tpuc::interpreter
