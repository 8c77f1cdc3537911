//===- ModuleLoader.cpp - read a graph from .hlo text or .mlir ------------===//

#include "compiler/importer/ModuleLoader.h"

#include "compiler/hlo_text/HloParser.h"
#include "compiler/importer/HloImporter.h"
#include "dialects/hlo/HloDialect.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace tpuc {

void registerInputDialects(DialectRegistry &registry) {
  registry.insert<hlo::HloDialect, func::FuncDialect>();
  func::registerInlinerExtension(registry);
}

static DialectRegistry inputRegistry() {
  DialectRegistry registry;
  registerInputDialects(registry);
  return registry;
}

ToolContext::ToolContext()
    : context(inputRegistry()), handler(sourceMgr, &context) {
  // A diagnostic names the op's source line; the op's IR would only be
  // noise for users (tpuc-opt keeps MLIR's default).
  context.printOpOnDiagnostic(false);
}

bool isHloText(llvm::StringRef path) {
  return path.ends_with(".hlo") || path.ends_with(".txt") ||
         path.ends_with(".hlo.txt");
}

OwningOpRef<ModuleOp> loadModule(llvm::StringRef path, MLIRContext &context) {
  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(path, &message);
  if (!buffer) {
    emitError(UnknownLoc::get(&context)) << message;
    return nullptr;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  // Diagnostics while reading point into the file (file:line:col + caret).
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  if (isHloText(path)) {
    StringRef text = sourceMgr.getMemoryBuffer(1)->getBuffer();
    llvm::Expected<hlo_text::Module> parsed =
        hlo_text::parseHloModule(text, path);
    if (!parsed) {
      llvm::handleAllErrors(
          parsed.takeError(),
          [&](const hlo_text::HloParseError &error) {
            emitError(FileLineColLoc::get(&context, path, error.getLoc().line,
                                          error.getLoc().column))
                << error.getMessage();
          },
          [&](const llvm::ErrorInfoBase &error) {
            emitError(FileLineColLoc::get(&context, path, 0, 0))
                << error.message();
          });
      return nullptr;
    }
    return importHloModule(*parsed, path, context);
  }
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module || failed(verify(*module)))
    return nullptr;
  return module;
}

} // namespace tpuc
