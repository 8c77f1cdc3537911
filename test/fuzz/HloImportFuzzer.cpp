//===- HloImportFuzzer.cpp - libFuzzer target: HLO text to interpreted IR ===//
//
// Past the parser: a module that parses is imported (dialect verifiers,
// the recursion check), simplified by the inliner and the canonicalizer
// (the hlo folders and patterns), and, when its arrays are small, run on
// the reference interpreter with zero inputs and a step budget. Any input
// must end in a module or a diagnostic: no crash, hang, leak or undefined
// behaviour. Seeds: hlo_text_corpus, dictionary: hlo_text.dict.
//
//===----------------------------------------------------------------------===//

#include "compiler/hlo_text/HloParser.h"
#include "compiler/importer/HloImporter.h"
#include "compiler/importer/ModuleLoader.h"
#include "compiler/interpreter/Interpreter.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include <vector>

using namespace mlir;

namespace {
/// Whether every array the module holds is small enough to interpret
/// within the fuzzer's time and memory limits.
bool smallArrays(ModuleOp module) {
  bool small = true;
  module.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        small &= tensor.getNumElements() <= (1 << 14);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (auto tensor = dyn_cast<RankedTensorType>(arg.getType()))
            small &= tensor.getNumElements() <= (1 << 14);
  });
  return small;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    tpuc::registerInputDialects(*r);
    return r;
  }();
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<tpuc::hlo_text::Module> parsed =
      tpuc::hlo_text::parseHloModule(text, "fuzz.hlo");
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return 0;
  }
  MLIRContext context(*registry);
  context.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler quiet(&context, [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module =
      tpuc::importHloModule(*parsed, "fuzz.hlo", context);
  if (!module || failed(tpuc::verifyNoRecursion(*module)))
    return 0;
  PassManager pm(&context);
  pm.addPass(createInlinerPass());
  pm.addPass(createCanonicalizerPass());
  if (failed(pm.run(*module)) || !smallArrays(*module))
    return 0;
  for (auto func : module->getOps<func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal())
      continue;
    std::vector<tpuc::interpreter::Tensor> args;
    for (Type type : func.getArgumentTypes()) {
      std::optional<tpuc::interpreter::TensorSpec> spec =
          tpuc::interpreter::tensorSpecOf(type);
      if (!spec)
        return 0;
      args.emplace_back(spec->dtype, spec->shape); // zeros
    }
    tpuc::interpreter::InterpreterOptions options;
    options.numThreads = 1;
    options.maxOps = 100000;
    (void)tpuc::interpreter::interpret(func, args, options);
  }
  return 0;
}
