//===- tpuc.cpp - the tpuc command line ------------------------------------===//
//
// tpuc SUBCOMMAND [options]. The subcommands live in driver/commands.
//
//===----------------------------------------------------------------------===//

#include "driver/commands/Commands.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace {

// The overview of `tpuc --help`, generated from the subcommands' own
// llvm::cl declarations (name, description, every visible option and its
// help), so it lists exactly what each subcommand accepts.
std::string overview(llvm::ArrayRef<tpuc::driver::Command *> commands) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "tpuc: compile XLA HLO training graphs for TPU-like accelerators\n\n";
  for (tpuc::driver::Command *command : commands) {
    llvm::cl::SubCommand &sub = command->subCommand;
    os << "tpuc " << sub.getName();
    for (llvm::cl::Option *positional : sub.PositionalOpts)
      os << " " << positional->HelpStr;
    os << ": " << sub.getDescription() << "\n";
    // (flag name, option): an enum option spelled as flags (translate's
    // --tpu-to-executable) is one option under several names.
    llvm::SmallVector<std::pair<std::string, llvm::cl::Option *>> options;
    // cl::values registers an enum's flag names before cl::sub applies, so
    // they sit in the top level's map.
    auto isSub = [&](llvm::cl::Option *o) {
      return llvm::is_contained(o->Subs, &sub);
    };
    auto collect = [&](llvm::cl::SubCommand &from) {
      for (auto &[key, o] : from.OptionsMap) {
        std::string name = key.str();
        if (isSub(o) && o->getOptionHiddenFlag() == llvm::cl::NotHidden &&
            !key.starts_with("help") && key != "version" &&
            (key == o->ArgStr || o->ArgStr.empty()) &&
            llvm::none_of(options,
                          [&](const auto &x) { return x.first == name; }))
          options.emplace_back(name, o);
      }
    };
    collect(sub);
    collect(llvm::cl::SubCommand::getTopLevel());
    llvm::sort(options);
    for (auto &[name, o] : options) {
      std::string flag = (name.size() == 1 ? "-" : "--") + name;
      if (!o->ArgStr.empty() &&
          o->getValueExpectedFlag() == llvm::cl::ValueRequired)
        flag += "=<" + (o->ValueStr.empty() ? std::string("value")
                                            : o->ValueStr.str()) + ">";
      os << "    " << flag;
      if (flag.size() < 28)
        os.indent(28 - flag.size());
      else
        os << "\n" << std::string(32, ' ');
      os << o->HelpStr << "\n";
    }
    os << "\n";
  }
  os << "tpuc-run EXE [options]: run an executable on the CPU emulator "
        "(functional + timing); see 'tpuc-run --help'.\n\n"
        "Run 'tpuc SUBCOMMAND --help' for a subcommand's options in full.\n";
  return text;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  using tpuc::driver::Command;
  Command *commands[] = {&tpuc::driver::importCommand,
                         &tpuc::driver::interpretCommand,
                         &tpuc::driver::compileCommand,
                         &tpuc::driver::fitCommand,
                         &tpuc::driver::targetsCommand,
                         &tpuc::driver::translateCommand,
                         &tpuc::driver::opsCommand};
  llvm::cl::HideUnrelatedOptions(tpuc::driver::toolCategory());
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "tpuc (ahead-of-time compiler for TPU-like accelerators), built "
          "on LLVM/MLIR 22\n";
  });
  std::string text = overview(commands);
  if (!llvm::cl::ParseCommandLineOptions(argc, argv, text, &llvm::errs()))
    return 1;
  for (Command *command : commands)
    if (command->subCommand)
      return command->run();
  llvm::errs() << "tpuc: error: no subcommand given; run 'tpuc --help'\n";
  return 1;
}
