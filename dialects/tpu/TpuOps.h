//===- TpuOps.h - tpu dialect operations ------------------------*- C++ -*-===//
#ifndef TPUC_DIALECTS_TPU_TPUOPS_H
#define TPUC_DIALECTS_TPU_TPUOPS_H

#include "dialects/tpu/TpuDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "dialects/tpu/TpuOps.h.inc"

#endif // TPUC_DIALECTS_TPU_TPUOPS_H
