//===- OptionalArrays.h - optional window attributes with defaults -*- C++
//-*-===//
//
// XLA's window attributes (strides, padding, dilations) are optional on
// the hlo ops; the rewrite passes read them with their defaults filled in.
//
//===----------------------------------------------------------------------===//
#ifndef TPUC_PASSES_OPTIONALARRAYS_H
#define TPUC_PASSES_OPTIONALARRAYS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tpuc {

/// `a`, or `n` copies of `fill` when the attribute is absent.
inline llvm::SmallVector<int64_t>
orDefault(std::optional<llvm::ArrayRef<int64_t>> a, int64_t n, int64_t fill) {
  if (a)
    return llvm::SmallVector<int64_t>(a->begin(), a->end());
  return llvm::SmallVector<int64_t>(n, fill);
}

} // namespace tpuc

#endif // TPUC_PASSES_OPTIONALARRAYS_H
