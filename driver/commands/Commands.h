//===- Commands.h - the subcommands of the tpuc CLI ------------*- C++ -*-===//
//
// Each subcommand is one .cpp in this folder: its llvm::cl::SubCommand, its
// options (declared with cl::sub(...)), and a run function returning the
// process exit code. tools/tpuc/tpuc.cpp only dispatches.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_DRIVER_COMMANDS_COMMANDS_H
#define TPUC_DRIVER_COMMANDS_COMMANDS_H

#include "llvm/Support/CommandLine.h"

namespace tpuc::driver {

/// The option category every subcommand's options belong to (so --help
/// shows them and hides LLVM's own).
llvm::cl::OptionCategory &toolCategory();

struct Command {
  llvm::cl::SubCommand &subCommand;
  int (*run)();
};

/// `tpuc import`: read .hlo/.mlir, print the hlo dialect.
extern Command importCommand;
/// `tpuc translate`: tpu dialect <-> executable.
extern Command translateCommand;
/// `tpuc interpret`: run a graph on the reference interpreter.
extern Command interpretCommand;
/// `tpuc compile`: layouts, HBM buffer assignment, padding/memory reports.
extern Command compileCommand;
/// `tpuc fit`: per target, does the step fit, how fast, and what makes it
/// fit.
extern Command fitCommand;
/// `tpuc targets`: list the target presets.
extern Command targetsCommand;
/// `tpuc ops`: the XLA op coverage table, measured on probes.
extern Command opsCommand;

} // namespace tpuc::driver

#endif // TPUC_DRIVER_COMMANDS_COMMANDS_H
