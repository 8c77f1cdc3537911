//===- tpuc-opt.cpp - the tpuc pass driver ---------------------------------===//
//
// MlirOptMain with tpuc's dialects and passes and the upstream ones we use.
//
//===----------------------------------------------------------------------===//

#include "dialects/hlo/HloDialect.h"
#include "dialects/tpu/TpuDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "passes/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<tpuc::hlo::HloDialect, tpuc::tpu::TpuDialect,
                  mlir::arith::ArithDialect, mlir::func::FuncDialect>();
  mlir::func::registerInlinerExtension(registry);
  mlir::registerTransformsPasses();
  tpuc::registerPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tpuc optimizer driver\n", registry));
}
