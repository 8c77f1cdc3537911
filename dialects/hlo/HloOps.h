//===- HloOps.h - hlo dialect operations ------------------------*- C++ -*-===//
#ifndef TPUC_DIALECTS_HLO_HLOOPS_H
#define TPUC_DIALECTS_HLO_HLOOPS_H

#include "dialects/hlo/HloDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "dialects/hlo/HloOps.h.inc"

namespace tpuc::hlo {
/// The direction that compares the operands swapped (`a < b` is `b > a`);
/// EQ and NE are their own.
ComparisonDirection swappedDirection(ComparisonDirection dir);
} // namespace tpuc::hlo

#endif // TPUC_DIALECTS_HLO_HLOOPS_H
