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

#endif // TPUC_DIALECTS_HLO_HLODIALECT_H
