//===- ModuleLoader.cpp - read a graph from .hlo text or .mlir ------------===//

#include "compiler/importer/ModuleLoader.h"

#include "compiler/hlo_text/HloParser.h"
#include "compiler/importer/HloImporter.h"
#include "dialects/hlo/HloDialect.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
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

LogicalResult verifyNoRecursion(ModuleOp module) {
  // Depth-first over the functions; a call to a function still on the
  // stack closes a cycle. Iterative, so a deep call chain cannot overflow.
  enum class State { New, Active, Done };
  llvm::DenseMap<Operation *, State> state;
  SymbolTableCollection symbols;
  auto callees = [&](func::FuncOp func) {
    SmallVector<std::pair<CallOpInterface, func::FuncOp>> list;
    func.walk([&](CallOpInterface call) {
      auto symbol = dyn_cast_if_present<SymbolRefAttr>(
          call.getCallableForCallee());
      if (!symbol)
        return;
      if (auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
              call, symbol))
        list.push_back({call, callee});
    });
    return list;
  };
  struct Frame {
    func::FuncOp func;
    SmallVector<std::pair<CallOpInterface, func::FuncOp>> calls;
    size_t next = 0;
  };
  for (auto root : module.getOps<func::FuncOp>()) {
    if (state.lookup(root) != State::New)
      continue;
    SmallVector<Frame> stack;
    stack.push_back({root, callees(root)});
    state[root] = State::Active;
    while (!stack.empty()) {
      Frame &frame = stack.back();
      if (frame.next == frame.calls.size()) {
        state[frame.func] = State::Done;
        stack.pop_back();
        continue;
      }
      auto [call, callee] = frame.calls[frame.next++];
      State calleeState = state.lookup(callee);
      if (calleeState == State::Active) {
        // The cycle: callee -> ... -> frame.func -> callee.
        std::string path;
        bool inCycle = false;
        for (Frame &f : stack) {
          inCycle |= f.func == callee;
          if (inCycle)
            path += "@" + f.func.getSymName().str() + " -> ";
        }
        path += "@" + callee.getSymName().str();
        return call->emitError()
               << "recursive call to @" << callee.getSymName() << " (" << path
               << "): XLA computations cannot be recursive";
      }
      if (calleeState == State::New) {
        state[callee] = State::Active;
        stack.push_back({callee, callees(callee)});
      }
    }
  }
  return success();
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
    OwningOpRef<ModuleOp> module = importHloModule(*parsed, path, context);
    if (!module || failed(verifyNoRecursion(*module)))
      return nullptr;
    return module;
  }
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module || failed(verify(*module)) || failed(verifyNoRecursion(*module)))
    return nullptr;
  return module;
}

} // namespace tpuc
