//===- NarrowFloat.h - f16 and f8 values in f32 words -----------*- C++ -*-===//
//
// The VPU computes on f32 (and bf16); f16 and the f8 types are computed in
// f32 words holding their values, rounded to the type after each op
// (tpuc-expand-narrow-floats, docs/integers.md). NarrowFloatRounding is
// that rounding, XLA's convert f32 -> the type: to nearest even, the
// type's subnormals kept, NaN kept; overflow (and inf) to inf where the type
// has infinities (f16, f8e5m2, f8e4m3, f8e3m4), to NaN where it has none
// (the fn and fnuz types); fnuz types have no -0 (it becomes +0). It is
// built from VPU-friendly ops, once as hlo ops (the pass) and once as tpu
// ops (the code generator's convert), through `build`.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_PASSES_NARROWFLOAT_H
#define TPUC_PASSES_NARROWFLOAT_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <limits>
#include <optional>

namespace tpuc {

struct NarrowFloatRounding {
  /// reduce_precision's: the type's own exponent width where it has
  /// infinities (reduce_precision then overflows to inf exactly as the
  /// type), else f32's 8 (mantissa rounding only; the overflow is checked).
  int exponentBits;
  int mantissaBits;
  /// The smallest normal value; below it reduce_precision would flush to
  /// zero, so the subnormals are rounded as multiples of `subnormalSpacing`.
  double minNormal;
  double subnormalSpacing;
  double maxFinite;
  bool overflowToNaN;
  bool unsignedZero;

  /// The rounding to `elem` if it is f16 or an f8 type tpuc computes.
  static std::optional<NarrowFloatRounding> of(mlir::Type elem) {
    if (!mlir::isa<mlir::Float16Type, mlir::Float8E4M3FNType,
                   mlir::Float8E5M2Type, mlir::Float8E4M3Type,
                   mlir::Float8E4M3FNUZType, mlir::Float8E5M2FNUZType,
                   mlir::Float8E4M3B11FNUZType, mlir::Float8E3M4Type>(elem))
      return std::nullopt;
    using llvm::APFloat;
    const llvm::fltSemantics &sem =
        mlir::cast<mlir::FloatType>(elem).getFloatSemantics();
    NarrowFloatRounding r;
    r.mantissaBits = static_cast<int>(APFloat::semanticsPrecision(sem)) - 1;
    bool hasInf = APFloat::semanticsHasInf(sem);
    r.exponentBits =
        hasInf ? static_cast<int>(APFloat::semanticsSizeInBits(sem)) - 1 -
                     r.mantissaBits
               : 8;
    int minExponent = APFloat::semanticsMinExponent(sem);
    r.minNormal = std::ldexp(1.0, minExponent);
    r.subnormalSpacing = std::ldexp(1.0, minExponent - r.mantissaBits);
    APFloat largest = APFloat::getLargest(sem);
    bool lost;
    largest.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                    &lost);
    r.maxFinite = largest.convertToDouble();
    r.overflowToNaN = !hasInf;
    r.unsignedZero = !APFloat::getZero(sem, /*Negative=*/true).isNegative();
    return r;
  }

  /// The rounding of the f32 value `x`, built with `ops` (hlo or tpu ops):
  /// `constant(c)` (a splat for the shape of `x`), `reducePrecision(x, e,
  /// m)`, `multiply`, `roundNearestEven`, `abs`, `lessThan`, `greaterThan`,
  /// `equal` and `select` on values. The constants come before the ops
  /// that read them (the order f16 programs were built in).
  template <typename Ops> mlir::Value build(Ops &ops, mlir::Value x) const {
    mlir::Value normal = ops.reducePrecision(x, exponentBits, mantissaBits);
    mlir::Value scaled = ops.multiply(x, ops.constant(1 / subnormalSpacing));
    mlir::Value spacing = ops.constant(subnormalSpacing);
    mlir::Value subnormal =
        ops.multiply(ops.roundNearestEven(scaled), spacing);
    mlir::Value smallest = ops.constant(minNormal);
    mlir::Value tiny = ops.lessThan(ops.abs(x), smallest);
    mlir::Value r = ops.select(tiny, subnormal, normal);
    if (overflowToNaN) {
      // The fn types' NaN keeps the sign (S.1111.111), as XLA's and
      // APFloat's conversions; the fnuz types have one NaN.
      double qnan = std::numeric_limits<double>::quiet_NaN();
      mlir::Value nan = ops.constant(qnan);
      if (!unsignedZero) {
        mlir::Value negative = ops.constant(-qnan);
        mlir::Value zero = ops.constant(0.0);
        nan = ops.select(ops.lessThan(r, zero), negative, nan);
      }
      mlir::Value largest = ops.constant(maxFinite);
      r = ops.select(ops.greaterThan(ops.abs(r), largest), nan, r);
    }
    if (unsignedZero) { // -0 (also a negative value rounded to 0) is +0
      mlir::Value zero = ops.constant(0.0);
      r = ops.select(ops.equal(r, zero), zero, r);
    }
    return r;
  }
};

/// f16 or an f8 type: computed in f32 words holding its values.
inline bool isNarrowFloat(mlir::Type elem) {
  return NarrowFloatRounding::of(elem).has_value();
}

} // namespace tpuc

#endif // TPUC_PASSES_NARROWFLOAT_H
