//===- ImportCommand.cpp - `tpuc import` -----------------------------------===//

#include "driver/commands/Commands.h"
#include "driver/commands/Output.h"
#include "compiler/importer/ModuleLoader.h"

#include "mlir/IR/MLIRContext.h"

namespace cl = llvm::cl;

namespace tpuc::driver {

llvm::cl::OptionCategory &toolCategory() {
  static cl::OptionCategory category("tpuc options");
  return category;
}

namespace {
cl::SubCommand importSub(
    "import",
    "Read XLA HLO text (.hlo, .txt) or hlo-dialect MLIR (.mlir) and print it "
    "as hlo-dialect MLIR");
cl::opt<std::string> input(cl::Positional, cl::Required,
                           cl::desc("<input .hlo/.txt/.mlir>"),
                           cl::sub(importSub), cl::cat(toolCategory()));
cl::opt<std::string> output("o", cl::desc("Output file (default: stdout)"),
                            cl::value_desc("file"), cl::init("-"),
                            cl::sub(importSub), cl::cat(toolCategory()));
cl::opt<bool> debugInfo(
    "debug-info",
    cl::desc("Print locations (HLO instruction, framework op name and source "
             "line)"),
    cl::init(false), cl::sub(importSub), cl::cat(toolCategory()));

int runImport() {
  ToolContext tool;
  mlir::OwningOpRef<mlir::ModuleOp> module = loadModule(input, tool.get());
  if (!module)
    return 1;
  return writeModule(*module, output, debugInfo);
}
} // namespace

Command importCommand{importSub, runImport};

} // namespace tpuc::driver
