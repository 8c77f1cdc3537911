//===- Codegen.cpp - hlo module to executable -----------------------------===//

#include "driver/codegen/Codegen.h"

#include "compiler/serializer/Serializer.h"
#include "passes/ModuleTarget.h"
#include "passes/Passes.h"


namespace tpuc::codegen {

void buildHloToTpuPipeline(mlir::OpPassManager &pm,
                           const target::TargetSpec &target,
                           const CodegenOptions &options) {
  if (options.simplify)
    buildSimplifyPipeline(pm);
  CompilePipelineConfig lowering;
  lowering.target = target.machine.name();
  lowering.dotPrecision = options.dotPrecision;
  buildLoweringPipeline(pm, lowering);
}

mlir::LogicalResult lowerToTpu(mlir::ModuleOp module,
                               const target::TargetSpec &target,
                               const CodegenOptions &options) {
  mlir::MLIRContext *context = module.getContext();
  setModuleTarget(module, target);
  if (options.simplify) {
    mlir::PassManager simplify(context);
    if (options.instrument)
      options.instrument(simplify);
    buildSimplifyPipeline(simplify);
    if (mlir::failed(simplify.run(module)))
      return mlir::failure();
  }
  if (options.afterStage)
    options.afterStage("hlo", module);
  mlir::PassManager lower(context);
  if (options.instrument)
    options.instrument(lower);
  CodegenOptions noSimplify = options;
  noSimplify.simplify = false;
  buildHloToTpuPipeline(lower, target, noSimplify);
  if (mlir::failed(lower.run(module)))
    return mlir::failure();
  if (options.afterStage)
    options.afterStage("tpu", module);
  return mlir::success();
}

mlir::FailureOr<exe::Executable>
compileToExecutable(mlir::ModuleOp module, const target::TargetSpec &target,
                    const CodegenOptions &options) {
  if (mlir::failed(lowerToTpu(module, target, options)))
    return mlir::failure();
  return serializer::serializeModule(module);
}

} // namespace tpuc::codegen
