//===- HloCompileFuzzer.cpp - libFuzzer target: HLO text to an executable ===//
//
// Structure-aware: the seeds are valid modules (hlo_compile_corpus, written
// by test/difftest/hlogen.py, the differential tester's generator), and
// the custom mutator below changes them the way the generator varies its
// programs while keeping them well formed most of the time: one dimension
// size everywhere it occurs (so shapes stay consistent), an elementwise
// binary opcode for another, a comparison direction, an element type
// everywhere. Every fourth mutation is libFuzzer's own byte-level one, so
// malformed text still reaches the parser and the verifiers.
//
// A module that parses goes through what `tpuc compile` runs: import (the
// verifiers, the recursion check), the front end (inliner, while-loop
// simplifications, float normalization), fusion, layout assignment, the
// expansions, the lowering to the tpu dialect and the serializer (with the
// runtime's validation). Any input must end in an executable or a
// diagnostic: no crash, hang, leak or undefined behaviour.
//
//===----------------------------------------------------------------------===//

#include "compiler/hlo_text/HloParser.h"
#include "compiler/importer/HloImporter.h"
#include "compiler/importer/ModuleLoader.h"
#include "dialects/tpu/TpuDialect.h"
#include "driver/codegen/Codegen.h"
#include "passes/ModuleTarget.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include <cstring>
#include <random>
#include <regex>
#include <string>
#include <vector>

using namespace mlir;

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size,
                                   size_t maxSize);

namespace {
/// Arrays above this many elements make a compile too slow for fuzzing.
constexpr int64_t kMaxElements = 1 << 16;

bool smallArrays(ModuleOp module) {
  bool small = true;
  module.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        small &= tensor.hasStaticShape() &&
                 tensor.getNumElements() <= kMaxElements;
  });
  return small;
}

/// The words the mutator swaps, by kind: each replaced by another of its
/// own list keeps the module well typed.
const std::vector<std::vector<std::string>> &swapSets() {
  static const std::vector<std::vector<std::string>> sets = {
      {" add(", " subtract(", " multiply(", " maximum(", " minimum(",
       " divide(", " remainder(", " power(", " atan2("},
      {" exponential(", " log(", " tanh(", " negate(", " abs(", " sine(",
       " cosine(", " sqrt(", " rsqrt(", " floor(", " ceil(", " logistic("},
      {"direction=EQ", "direction=NE", "direction=LT", "direction=LE",
       "direction=GT", "direction=GE"},
      {"f32[", "bf16[", "s32["},
      {"is_stable=true", "is_stable=false"},
  };
  return sets;
}

/// Replaces every occurrence of `from` with `to`.
std::string replaceAll(std::string text, const std::string &from,
                       const std::string &to) {
  for (size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

/// One structure-preserving mutation of `text`, chosen by `rng`.
std::string mutateStructure(const std::string &text, std::minstd_rand &rng) {
  switch (rng() % 3) {
  case 0: {
    // One dimension size, everywhere it appears in a shape.
    static const std::regex dims(R"(\[([0-9,]+)\])");
    std::vector<std::string> sizes;
    for (std::sregex_iterator it(text.begin(), text.end(), dims), end;
         it != end; ++it) {
      std::string list = (*it)[1];
      for (size_t start = 0; start < list.size();) {
        size_t comma = list.find(',', start);
        sizes.push_back(list.substr(start, comma - start));
        start = comma == std::string::npos ? list.size() : comma + 1;
      }
    }
    if (sizes.empty())
      return text;
    static const char *choices[] = {"1", "2", "3", "7", "8", "9", "16",
                                    "31", "127", "128", "129", "256"};
    std::string from = sizes[rng() % sizes.size()];
    std::string to = choices[rng() % std::size(choices)];
    // Sizes inside shape brackets only: "[a,b]" -> each entry equal to from.
    std::string out;
    size_t copied = 0;
    for (std::sregex_iterator it(text.begin(), text.end(), dims), end;
         it != end; ++it) {
      out += text.substr(copied, it->position() - copied);
      std::string list = (*it)[1], rebuilt;
      for (size_t start = 0; start <= list.size();) {
        size_t comma = list.find(',', start);
        std::string entry = list.substr(start, comma - start);
        rebuilt += (entry == from ? to : entry);
        if (comma == std::string::npos)
          break;
        rebuilt += ",";
        start = comma + 1;
      }
      out += "[" + rebuilt + "]";
      copied = it->position() + it->length();
    }
    return out + text.substr(copied);
  }
  case 1: {
    // One word of a swap set at one place.
    const auto &sets = swapSets();
    const auto &set = sets[rng() % sets.size()];
    std::vector<std::pair<size_t, size_t>> places; // (offset, word index)
    for (size_t w = 0; w < set.size(); ++w)
      for (size_t at = text.find(set[w]); at != std::string::npos;
           at = text.find(set[w], at + 1))
        places.push_back({at, w});
    if (places.empty())
      return text;
    auto [at, w] = places[rng() % places.size()];
    std::string out = text;
    out.replace(at, set[w].size(), set[rng() % set.size()]);
    return out;
  }
  default: {
    // An element type everywhere (f32 <-> bf16: constants stay valid).
    if (rng() % 2)
      return replaceAll(text, "f32[", "bf16[");
    return replaceAll(text, "bf16[", "f32[");
  }
  }
}
} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  std::minstd_rand rng(seed);
  if (rng() % 4 == 0)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::string text(reinterpret_cast<const char *>(data), size);
  std::string out = mutateStructure(text, rng);
  if (out.size() > maxSize || out == text)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    tpuc::registerInputDialects(*r);
    r->insert<tpuc::tpu::TpuDialect, arith::ArithDialect>();
    return r;
  }();
  static const tpuc::target::TargetSpec *target = [] {
    auto spec = tpuc::target::lookupTarget("tpu-v3");
    return new tpuc::target::TargetSpec(*spec);
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
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module =
      tpuc::importHloModule(*parsed, "fuzz.hlo", context);
  if (!module || failed(tpuc::verifyNoRecursion(*module)) ||
      !smallArrays(*module))
    return 0;
  tpuc::setModuleTarget(*module, *target);
  tpuc::CompilePipelineConfig config;
  config.target = "tpu-v3";
  // Half the inputs (by their length) in mixed_bfloat16.
  config.mixedBfloat16 = size % 2;
  PassManager pm(&context);
  tpuc::buildFrontEndPipeline(pm, config);
  tpuc::buildFusionPipeline(pm, config);
  if (failed(pm.run(*module)))
    return 0;
  tpuc::codegen::CodegenOptions options;
  options.simplify = false;
  (void)tpuc::codegen::compileToExecutable(*module, *target, options);
  return 0;
}
