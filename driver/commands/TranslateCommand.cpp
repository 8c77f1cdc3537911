//===- TranslateCommand.cpp - `tpuc translate`
//-----------------------------===//
//
// --tpu-to-executable: a tpu-dialect module -> a binary executable.
// --executable-to-text: an executable (binary, or text proto) -> a listing.
//
//===----------------------------------------------------------------------===//

#include "driver/commands/Commands.h"
#include "driver/commands/Output.h"
#include "compiler/serializer/Serializer.h"
#include "dialects/tpu/TpuDialect.h"
#include "runtime/loader/Executable.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

namespace tpuc::driver {
namespace {
enum class Direction { None, ToExecutable, ToText };

cl::SubCommand
    translateSub("translate",
                 "Serialize a tpu-dialect module to an executable, or print "
                 "an executable as text");
cl::opt<Direction> direction(
    cl::desc("Translation:"), cl::init(Direction::None),
    cl::values(clEnumValN(Direction::ToExecutable, "tpu-to-executable",
                          "tpu dialect (.mlir) -> executable (binary proto)"),
               clEnumValN(Direction::ToText, "executable-to-text",
                          "executable -> readable listing")),
    cl::sub(translateSub), cl::cat(toolCategory()));
cl::opt<std::string> input(cl::Positional, cl::Required, cl::desc("<input>"),
                           cl::sub(translateSub), cl::cat(toolCategory()));
cl::opt<std::string> output("o", cl::desc("Output file (default: stdout)"),
                            cl::value_desc("file"), cl::init("-"),
                            cl::sub(translateSub), cl::cat(toolCategory()));

int toExecutable() {
  mlir::DialectRegistry registry;
  registry.insert<tpu::TpuDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect>();
  mlir::MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = mlir::openInputFile(input, &error);
  if (!file) {
    llvm::errs() << "tpuc: error: " << error << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;
  mlir::FailureOr<exe::Executable> executable =
      serializer::serializeModule(*module);
  if (mlir::failed(executable))
    return 1;
  std::string bytes;
  if (!executable->SerializeToString(&bytes)) {
    llvm::errs() << "tpuc: error: could not encode the executable\n";
    return 1;
  }
  return writeFile(output, [&](llvm::raw_ostream &os) { os << bytes; });
}

int toText() {
  absl::StatusOr<runtime::Executable> executable =
      runtime::loadExecutableFromFile(input);
  if (!executable.ok()) {
    llvm::errs() << "tpuc: error: " << input << ": "
                 << std::string(executable.status().message()) << "\n";
    return 1;
  }
  return writeFile(output, [&](llvm::raw_ostream &os) {
    os << serializer::printExecutable(executable->proto());
  });
}

int runTranslate() {
  switch (direction) {
  case Direction::ToExecutable:
    return toExecutable();
  case Direction::ToText:
    return toText();
  case Direction::None:
    break;
  }
  llvm::errs() << "tpuc: error: translate needs --tpu-to-executable or "
                  "--executable-to-text\n";
  return 1;
}
} // namespace

Command translateCommand{translateSub, runTranslate};

} // namespace tpuc::driver
