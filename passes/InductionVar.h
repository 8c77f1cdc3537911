//===- InductionVar.h - a tpu.loop induction variable's range ---*- C++ -*-===//
//
// What the scalar passes (tpuc-simplify-scalars, tpuc-schedule-bundles)
// know of a `tpu.loop` induction variable: it runs 0 .. trips - 1.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_PASSES_INDUCTIONVAR_H
#define TPUC_PASSES_INDUCTIONVAR_H

#include "dialects/tpu/TpuOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <optional>

namespace tpuc {

/// The trip count (>= 1) of the tpu.loop whose induction variable `v` is,
/// when it is one and the count is a constant.
inline std::optional<int64_t> inductionVarTrips(mlir::Value v) {
  auto arg = mlir::dyn_cast<mlir::BlockArgument>(v);
  if (!arg)
    return std::nullopt;
  auto loop = mlir::dyn_cast<tpu::LoopOp>(arg.getOwner()->getParentOp());
  if (!loop || arg != loop.getInductionVar())
    return std::nullopt;
  std::optional<int64_t> trips = mlir::getConstantIntValue(loop.getTripCount());
  if (!trips || *trips < 1)
    return std::nullopt;
  return trips;
}

} // namespace tpuc

#endif // TPUC_PASSES_INDUCTIONVAR_H
