//===- ExpandEach.h - rewrite every op of a kind, one at a time -*- C++ -*-===//
//
// What the expansion passes (tpuc-expand-reduce-window,
// tpuc-expand-variadic-reduce, tpuc-decompose-reductions, ...) do in
// runOnOperation: collect the ops of one kind a pass rewrites, then rewrite
// each in turn, stopping at the first that fails.
//
//===----------------------------------------------------------------------===//
#ifndef TPUC_PASSES_EXPANDEACH_H
#define TPUC_PASSES_EXPANDEACH_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace tpuc {

/// Applies `expand` to every `OpT` under `root` that `select` picks. The ops
/// are collected first (in post-order), so `expand` may erase its op and
/// create others; a failure (`expand` emitted the diagnostic) stops it.
template <typename OpT>
mlir::LogicalResult
expandEach(mlir::Operation *root, llvm::function_ref<bool(OpT)> select,
           llvm::function_ref<mlir::LogicalResult(OpT)> expand) {
  llvm::SmallVector<OpT> ops;
  root->walk([&](OpT op) {
    if (select(op))
      ops.push_back(op);
  });
  for (OpT op : ops)
    if (mlir::failed(expand(op)))
      return mlir::failure();
  return mlir::success();
}

/// Applies `expand` to every `OpT` under `root`.
template <typename OpT>
mlir::LogicalResult
expandEach(mlir::Operation *root,
           llvm::function_ref<mlir::LogicalResult(OpT)> expand) {
  return expandEach<OpT>(
      root, [](OpT) { return true; }, expand);
}

} // namespace tpuc

#endif // TPUC_PASSES_EXPANDEACH_H
