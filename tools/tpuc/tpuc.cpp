//===- tpuc.cpp - the tpuc command line ------------------------------------===//
//
// tpuc SUBCOMMAND [options]. Each subcommand is a thin layer over the
// compiler/ libraries.
//
//===----------------------------------------------------------------------===//

#include "compiler/importer/ModuleLoader.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

static cl::OptionCategory tpucCategory("tpuc options");

static cl::SubCommand importCmd(
    "import",
    "Read XLA HLO text (.hlo, .txt) or hlo-dialect MLIR (.mlir) and print it "
    "as hlo-dialect MLIR");
static cl::opt<std::string> importInput(cl::Positional, cl::Required,
                                        cl::desc("<input .hlo/.txt/.mlir>"),
                                        cl::sub(importCmd),
                                        cl::cat(tpucCategory));
static cl::opt<std::string> importOutput("o", cl::desc("Output file (default: stdout)"),
                                         cl::value_desc("file"), cl::init("-"),
                                         cl::sub(importCmd),
                                         cl::cat(tpucCategory));
static cl::opt<bool> importDebugInfo(
    "debug-info",
    cl::desc("Print locations (framework op names and source lines)"),
    cl::init(false), cl::sub(importCmd), cl::cat(tpucCategory));

/// Writes `module` to `path`; on failure nothing is left behind.
static int writeModule(mlir::ModuleOp module, llvm::StringRef path,
                       bool debugInfo) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> out = mlir::openOutputFile(path, &error);
  if (!out) {
    llvm::errs() << "tpuc: error: " << error << "\n";
    return 1;
  }
  mlir::OpPrintingFlags flags;
  if (debugInfo)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  module.print(out->os(), flags);
  out->os() << "\n";
  out->keep();
  return 0;
}

static int runImport() {
  mlir::DialectRegistry registry;
  tpuc::registerInputDialects(registry);
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tpuc::loadModule(importInput, context);
  if (!module)
    return 1;
  return writeModule(*module, importOutput, importDebugInfo);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(tpucCategory);
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "tpuc (ahead-of-time compiler for TPU-like accelerators), built "
          "on LLVM/MLIR 22\n";
  });
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "tpuc: compile XLA HLO training graphs for TPU-like accelerators\n\n"
          "  tpuc import FILE [-o OUT]   read .hlo/.mlir, print hlo dialect\n\n"
          "Run 'tpuc SUBCOMMAND --help' for a subcommand's options.\n",
          &llvm::errs()))
    return 1;
  if (importCmd)
    return runImport();
  llvm::errs() << "tpuc: error: no subcommand given; run 'tpuc --help'\n";
  return 1;
}
