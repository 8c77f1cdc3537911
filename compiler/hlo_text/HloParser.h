//===- HloParser.h - Parse XLA's HLO text format ----------------*- C++ -*-===//
//
// Parses the text XLA prints (HloModule::ToString, --xla_dump_to dumps) into
// the AST of HloAst.h. Errors are values: the first problem found, with the
// 1-based line:column where it is, never a crash. Parsing is linear in the
// input; nesting is limited to kMaxNestingDepth.
//
// Example: walk the entry computation's root.
//
//   llvm::Expected<Module> module = parseHloModuleFile("model.hlo");
//   if (!module) {
//     llvm::errs() << llvm::toString(module.takeError()) << "\n";
//     return 1;
//   }
//   const Instruction &root = module->entry().root();
//   llvm::outs() << root.opcode << " " << root.shape.toString() << "\n";
//   for (const Operand &operand : root.operands)
//     llvm::outs() << "  operand " << operand.name << "\n";
//   if (const Attribute *window = root.attr("window"))
//     for (const WindowDim &dim : window->window)
//       llvm::outs() << dim.size << " stride " << dim.stride << "\n";
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_HLO_TEXT_HLOPARSER_H
#define TPUC_COMPILER_HLO_TEXT_HLOPARSER_H

#include "compiler/hlo_text/HloAst.h"

#include "llvm/Support/Error.h"

#include <string>

namespace tpuc::hlo_text {

constexpr unsigned kMaxNestingDepth = 256;

/// A parse failure: `bufferName:line:col: message`.
class HloParseError : public llvm::ErrorInfo<HloParseError> {
public:
  static char ID;
  HloParseError(std::string bufferName, Loc loc, std::string message)
      : bufferName(std::move(bufferName)), location(loc),
        text(std::move(message)) {}

  const std::string &getBufferName() const { return bufferName; }
  Loc getLoc() const { return location; }
  const std::string &getMessage() const { return text; }

  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::string bufferName;
  Loc location;
  std::string text;
};

/// Parses HLO module text; `bufferName` names it in errors.
llvm::Expected<Module> parseHloModule(llvm::StringRef text,
                                      llvm::StringRef bufferName = "<hlo>");
/// Reads and parses a file ("-" is stdin).
llvm::Expected<Module> parseHloModuleFile(llvm::StringRef path);

} // namespace tpuc::hlo_text

#endif // TPUC_COMPILER_HLO_TEXT_HLOPARSER_H
