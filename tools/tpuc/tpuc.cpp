//===- tpuc.cpp - the tpuc command line ------------------------------------===//
//
// tpuc SUBCOMMAND [options]. The subcommands live in compiler/driver.
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Commands.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

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
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv,
          "tpuc: compile XLA HLO training graphs for TPU-like accelerators\n\n"
          "  tpuc import FILE [-o OUT]   read .hlo/.mlir, print hlo dialect\n"
          "  tpuc interpret FILE [--input=@a.npy ...|--random-inputs=SEED]\n"
          "      [--output-dir=DIR]      run it on the reference interpreter\n"
          "  tpuc compile FILE [--target=T] [--layout=preserve|auto]\n"
          "      [--report=padding,memory] [--report-format=text|json]\n"
          "      [--memory-viewer=F.html] [-o OUT]\n"
          "                              fit in HBM? padding and memory "
          "reports\n"
          "  tpuc targets                list the target presets\n"
          "  tpuc ops                    XLA op coverage (import, interpret, "
          "compile)\n"
          "  tpuc translate --tpu-to-executable FILE.mlir -o OUT.tpx\n"
          "  tpuc translate --executable-to-text FILE.tpx [-o OUT]\n"
          "                              tpu dialect <-> executable\n\n"
          "Run 'tpuc SUBCOMMAND --help' for a subcommand's options.\n",
          &llvm::errs()))
    return 1;
  for (Command *command : commands)
    if (command->subCommand)
      return command->run();
  llvm::errs() << "tpuc: error: no subcommand given; run 'tpuc --help'\n";
  return 1;
}
