//===- Output.cpp - writing tpuc's output files ---------------------------===//

#include "driver/commands/Output.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace tpuc::driver {

int writeFile(llvm::StringRef path,
              llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::string error;
  // ToolOutputFile deletes the file unless keep() is called.
  std::unique_ptr<llvm::ToolOutputFile> out =
      mlir::openOutputFile(path, &error);
  if (!out) {
    llvm::errs() << "tpuc: error: " << error << "\n";
    return 1;
  }
  write(out->os());
  out->os().flush();
  if (out->os().has_error()) {
    llvm::errs() << "tpuc: error: could not write '" << path << "'\n";
    out->os().clear_error();
    return 1;
  }
  out->keep();
  return 0;
}

int writeModule(mlir::ModuleOp module, llvm::StringRef path, bool debugInfo) {
  mlir::OpPrintingFlags flags;
  if (debugInfo)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  return writeFile(path, [&](llvm::raw_ostream &os) {
    module.print(os, flags);
    os << "\n";
  });
}

} // namespace tpuc::driver
