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

namespace tpuc::tpu {

/// `unsigned` (dtype U32) reads i32 registers only: the error of an op
/// whose `isUnsigned` flag is set on a first operand of another type.
mlir::LogicalResult verifyUnsignedOnI32(mlir::Operation *op, bool isUnsigned);

/// The trait of the ops with `unsigned` (Tpu_UnsignedOnI32 in TpuOps.td).
template <typename ConcreteType>
class UnsignedOnI32
    : public mlir::OpTrait::TraitBase<ConcreteType, UnsignedOnI32> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyUnsignedOnI32(op,
                               mlir::cast<ConcreteType>(op).getIsUnsigned());
  }
};

} // namespace tpuc::tpu

#define GET_OP_CLASSES
#include "dialects/tpu/TpuOps.h.inc"

#endif // TPUC_DIALECTS_TPU_TPUOPS_H
