//===- HloTextFuzzer.cpp - libFuzzer target for the HLO text parser -------===//
//
// Any input must give a module or an error value: no crash, hang, leak or
// undefined behaviour. A parsed module is walked so that every node is
// touched (and printed shapes are re-parsed as a consistency check).
//
//===----------------------------------------------------------------------===//

#include "compiler/hlo_text/HloParser.h"

#include <cstdlib>

using namespace tpuc::hlo_text;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<Module> module = parseHloModule(text, "fuzz.hlo");
  if (!module) {
    llvm::consumeError(module.takeError());
    return 0;
  }
  for (const Computation &computation : module->computations) {
    if (computation.rootIndex >= computation.instructions.size())
      std::abort();
    for (const Instruction &inst : computation.instructions) {
      // A printed shape must parse back to the same text.
      std::string shape = inst.shape.toString();
      std::string probe = "HloModule m\nENTRY e {\n  p = " + shape +
                          " parameter(0)\n}\n";
      llvm::Expected<Module> again = parseHloModule(probe, "probe.hlo");
      if (!again || again->entry().root().shape.toString() != shape)
        std::abort();
    }
  }
  return 0;
}
