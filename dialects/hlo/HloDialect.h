//===- HloDialect.h - the hlo dialect and its attributes --------*- C++ -*-===//
#ifndef TPUC_DIALECTS_HLO_HLODIALECT_H
#define TPUC_DIALECTS_HLO_HLODIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "dialects/hlo/HloEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/hlo/HloAttrs.h.inc"

#include "dialects/hlo/HloDialect.h.inc"

namespace tpuc::hlo {

/// The module attribute recording XLA's input_output_alias: an array of
/// #hlo.alias, verified by the dialect against the entry function.
inline constexpr llvm::StringLiteral kInputOutputAliasAttrName =
    "hlo.input_output_alias";

/// The entry function of a module: the public function with a body (`main`
/// when there are several); null when there is none.
mlir::func::FuncOp entryFunction(mlir::ModuleOp module);

/// The module's input_output_alias entries in order; empty when it has none.
/// The dialect verified them: result and parameter exist, types are equal,
/// nothing is aliased twice.
llvm::SmallVector<InputOutputAliasAttr>
getInputOutputAliases(mlir::ModuleOp module);

/// An input_output_alias entry and the op of the entry function computing
/// the output it donates the parameter's buffer to (a variable update).
struct AliasProducer {
  InputOutputAliasAttr alias;
  mlir::Operation *producer;
};

/// The module's input_output_alias entries in order, each with the op
/// defining the value the entry function returns as the aliased output;
/// entries whose output is not computed by an op (a parameter returned) are
/// left out.
llvm::SmallVector<AliasProducer> aliasProducers(mlir::ModuleOp module);

} // namespace tpuc::hlo

#endif // TPUC_DIALECTS_HLO_HLODIALECT_H
