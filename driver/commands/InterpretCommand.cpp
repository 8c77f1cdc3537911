//===- InterpretCommand.cpp - `tpuc interpret`
//-----------------------------===//
//
// Runs a graph on the reference interpreter: inputs from .npy files or the
// seeded generator shared with tpuc-run, results to .npy files or a summary
// on stdout. Every input problem is reported before anything is computed,
// and no output file is left behind on failure. --steps runs a training
// loop: the results the module's input_output_alias maps to parameters are
// those parameters in the next step.
//
//===----------------------------------------------------------------------===//

#include "driver/commands/Commands.h"
#include "compiler/importer/ModuleLoader.h"
#include "compiler/interpreter/Interpreter.h"
#include "compiler/serializer/Serializer.h"
#include "dialects/hlo/HloDialect.h"
#include "runtime/hostio/Npy.h"
#include "runtime/hostio/RandomInputs.h"
#include "runtime/loader/Run.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace cl = llvm::cl;
using tpuc::interpreter::Tensor;
using tpuc::interpreter::TensorSpec;

namespace tpuc::driver {
namespace {
cl::SubCommand interpretSub(
    "interpret",
    "Run a graph (.hlo or hlo-dialect .mlir) on the reference interpreter");
cl::opt<std::string> input(cl::Positional, cl::Required,
                           cl::desc("<input .hlo/.txt/.mlir>"),
                           cl::sub(interpretSub), cl::cat(toolCategory()));
cl::list<std::string>
    inputFiles("input",
               cl::desc("A parameter's value as @file.npy (one per parameter, "
                        "in order)"),
               cl::value_desc("@file.npy"), cl::sub(interpretSub),
               cl::cat(toolCategory()));
cl::opt<uint64_t> randomSeed(
    "random-inputs",
    cl::desc("Fill every parameter from this seed (the generator of "
             "docs/host-arrays.md, as tpuc-run does)"),
    cl::value_desc("seed"), cl::sub(interpretSub), cl::cat(toolCategory()));
cl::list<std::string>
    outputFiles("output",
                cl::desc("Write a result to @file.npy (one per result, in "
                         "order)"),
                cl::value_desc("@file.npy"), cl::sub(interpretSub),
                cl::cat(toolCategory()));
cl::opt<std::string> outputDir(
    "output-dir",
    cl::desc("Write the results to DIR/<name>.npy, named as --result-names "
             "says"),
    cl::value_desc("dir"), cl::sub(interpretSub), cl::cat(toolCategory()));
enum class ResultNames { Index, Hlo };
cl::opt<ResultNames> resultNaming(
    "result-names",
    cl::desc("How results are named in --output-dir and the --steps lines: "
             "hlo (the default): after the HLO instruction that computed "
             "each (the ROOT tuple's operand, e.g. reduce_sum.10), "
             "result<i> for one without a name or whose name another result "
             "shares, as tpuc-run names them; index: result0, result1, ..."),
    cl::value_desc("hlo|index"),
    cl::values(clEnumValN(ResultNames::Hlo, "hlo",
                          "the HLO instruction's name (result<i> fallback)"),
               clEnumValN(ResultNames::Index, "index", "result<i>")),
    cl::init(ResultNames::Hlo), cl::sub(interpretSub),
    cl::cat(toolCategory()));
cl::opt<std::string>
    functionName("function",
                 cl::desc("The function to run (default: the public one)"),
                 cl::value_desc("name"), cl::sub(interpretSub),
                 cl::cat(toolCategory()));
cl::opt<int> threads("threads",
                     cl::desc("Threads for dot and convolution (default: all "
                              "hardware threads; results do not depend on it)"),
                     cl::init(0), cl::sub(interpretSub),
                     cl::cat(toolCategory()));

cl::opt<uint64_t> maxOps(
    "max-ops",
    cl::desc("Stop with an error after evaluating N ops, counting every op "
             "of every loop trip and region (default 10^9; 0: no limit)"),
    cl::value_desc("N"), cl::init(1000000000), cl::sub(interpretSub),
    cl::cat(toolCategory()));

cl::opt<int64_t> steps(
    "steps",
    cl::desc("Run the entry N times, a training loop: each result that the "
             "module's input_output_alias maps to a parameter is that "
             "parameter's value in the next step. Prints the single-element "
             "results (the loss) of the printed steps; the results written "
             "are the last step's"),
    cl::value_desc("N"), cl::init(1), cl::sub(interpretSub),
    cl::cat(toolCategory()));
cl::opt<int64_t> printEvery(
    "print-every",
    cl::desc("With --steps: print steps 1, K, 2K, ... and the last (default: "
             "about ten lines)"),
    cl::value_desc("K"), cl::init(0), cl::sub(interpretSub),
    cl::cat(toolCategory()));

cl::opt<int64_t> replicaCount(
    "replica-count",
    cl::desc("Run on R replicas (default: the module's replica_count, else "
             "1); with --num-partitions, R x P devices run at once and "
             "collectives exchange values between them (docs/spmd.md)"),
    cl::value_desc("R"), cl::init(0), cl::sub(interpretSub),
    cl::cat(toolCategory()));
cl::opt<int64_t> numPartitions(
    "num-partitions",
    cl::desc("Run on P partitions (default: the module's num_partitions, "
             "else 1). With several devices, --input takes one file per "
             "parameter (a global array, split by the parameter's sharding; "
             "unsharded parameters go whole to every device) or one per "
             "parameter per device (device-major); --output gathers each "
             "result by its sharding (unsharded: device 0's); --output-dir "
             "writes DIR/device<d>/result<i>.npy; without them each device's "
             "results are printed"),
    cl::value_desc("P"), cl::init(0), cl::sub(interpretSub),
    cl::cat(toolCategory()));

int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "tpuc interpret") << message << "\n";
  return 1;
}

/// "@a.npy" -> "a.npy".
std::string filePath(llvm::StringRef value) {
  return value.starts_with("@") ? value.drop_front().str() : value.str();
}

mlir::func::FuncOp findEntry(mlir::ModuleOp module, std::string &error) {
  if (!functionName.empty()) {
    auto func = module.lookupSymbol<mlir::func::FuncOp>(functionName);
    if (!func)
      error = "no function named '" + functionName + "'";
    return func;
  }
  mlir::func::FuncOp entry;
  for (auto func : module.getOps<mlir::func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal())
      continue;
    if (entry) {
      error = "more than one public function; choose one with --function";
      return nullptr;
    }
    entry = func;
  }
  if (!entry)
    error = "no public function to run; choose one with --function";
  return entry;
}

/// The arguments, from files or the generator; checked against the entry's
/// parameters with the index, expected type and file in any error.
bool makeInputs(mlir::func::FuncOp entry, std::vector<Tensor> &args) {
  mlir::FunctionType type = entry.getFunctionType();
  unsigned count = type.getNumInputs();
  bool random = randomSeed.getNumOccurrences() > 0;
  if (random && !inputFiles.empty())
    return fail("--input and --random-inputs exclude each other"), false;
  if (!random && inputFiles.size() != count)
    return fail("@" + entry.getSymName() + " has " + llvm::Twine(count) +
                " parameters but " + llvm::Twine(inputFiles.size()) +
                " --input files were given"),
           false;
  for (unsigned i = 0; i < count; ++i) {
    std::optional<TensorSpec> spec = interpreter::tensorSpecOf(type.getInput(i));
    if (!spec) {
      std::string typeText;
      llvm::raw_string_ostream os(typeText);
      os << type.getInput(i);
      return fail("parameter " + llvm::Twine(i) + " has type " + typeText +
                  ", which the interpreter cannot take as input"),
             false;
    }
    absl::StatusOr<hostio::HostArray> array =
        random ? hostio::randomInput(
                     randomSeed, i, spec->dtype,
                     std::vector<int64_t>(spec->shape.begin(), spec->shape.end()))
               : hostio::readNpyFileAs(filePath(inputFiles[i]), spec->dtype);
    if (!array.ok())
      return fail(std::string(array.status().message())), false;
    if (array->dtype() != spec->dtype ||
        llvm::ArrayRef<int64_t>(array->shape()) != llvm::ArrayRef(spec->shape))
      return fail("parameter " + llvm::Twine(i) + " expects " + spec->str() +
                  " but " + filePath(inputFiles[i]) + " holds " +
                  array->typeString()),
             false;
    args.push_back(Tensor::fromHostArray(*array));
  }
  return true;
}

/// Result -> parameter pairs from the module's `hlo.input_output_alias`
/// (the importer's record of XLA's input_output_alias; the hlo dialect
/// verified that each result exists and has its parameter's type).
bool stepFeedback(mlir::ModuleOp module,
                  std::vector<std::pair<unsigned, unsigned>> &feedback) {
  for (hlo::InputOutputAliasAttr alias : hlo::getInputOutputAliases(module)) {
    if (!alias.isWholeParameter())
      return fail("--steps takes input_output_alias entries of the form "
                  "{i}: (p, {}); this module has a nested one"),
             false;
    feedback.emplace_back(alias.getResultNumber(), alias.getParameterNumber());
  }
  return true;
}

void printSummary(llvm::raw_ostream &os, unsigned index, const Tensor &t) {
  os << "result " << index << ": " << t.typeString() << "\n  values:";
  int64_t shown = std::min<int64_t>(t.numElements(), 8);
  for (int64_t i = 0; i < shown; ++i) {
    if (hostio::isFloatDType(t.dtype()))
      os << " " << llvm::format("%g", t.doubleAt(i));
    else if (t.dtype() == hostio::DType::U64) // intAt is signed
      os << " " << static_cast<uint64_t>(t.intAt(i));
    else
      os << " " << t.intAt(i);
  }
  if (shown < t.numElements())
    os << " ...";
  os << "\n";
  if (t.numElements() == 0)
    return;
  double lo = t.doubleAt(0), hi = lo, sum = 0;
  int64_t nans = 0;
  for (int64_t i = 0; i < t.numElements(); ++i) {
    double v = t.doubleAt(i);
    if (std::isnan(v)) {
      ++nans;
      continue;
    }
    lo = std::isnan(lo) ? v : std::min(lo, v);
    hi = std::isnan(hi) ? v : std::max(hi, v);
    sum += v;
  }
  os << llvm::format("  min %g  max %g  mean %g", lo, hi,
                     sum / std::max<int64_t>(1, t.numElements() - nans));
  if (nans)
    os << "  nan " << nans;
  os << "\n";
}

/// The names of the entry's results: result<i>, or with --result-names=hlo
/// the HLO instruction that computed each, as tpuc-run names the results of
/// the compiled program (runtime::resultNames).
std::vector<std::string> resultNamesOf(mlir::func::FuncOp entry) {
  std::vector<std::string> hloOps(entry.getNumResults());
  if (resultNaming == ResultNames::Hlo)
    for (auto [i, source] :
         llvm::enumerate(serializer::entryResultSources(entry)))
      hloOps[i] = source.hloOp;
  return runtime::resultNames(hloOps);
}

/// `step K/N: <name>=<value>` for the single-element results.
void printStepLine(int64_t step, llvm::ArrayRef<Tensor> results,
                   const std::vector<std::string> &names) {
  std::vector<hostio::HostArray> scalars;
  scalars.reserve(results.size());
  std::vector<std::pair<int, const hostio::HostArray *>> printed;
  for (auto [i, result] : llvm::enumerate(results))
    if (result.numElements() == 1) {
      scalars.push_back(result.toHostArray());
      printed.emplace_back(i, &scalars.back());
    }
  llvm::outs() << runtime::formatStepLine(step, steps, printed, names)
               << "\n";
  llvm::outs().flush();
}

/// The sharding text of argument or result `index` ("{replicated}" when
/// none is given).
std::string shardingOf(mlir::func::FuncOp entry, unsigned index, bool result) {
  auto attr = result ? entry.getResultAttrOfType<mlir::StringAttr>(
                           index, "hlo.sharding")
                     : entry.getArgAttrOfType<mlir::StringAttr>(
                           index, "hlo.sharding");
  return attr ? attr.getValue().str() : "{replicated}";
}

/// Every device's arguments: from per-parameter global files split by the
/// parameters' shardings, from per-device files, or from the generator
/// (every device draws the same values for a parameter).
bool makeDeviceInputs(mlir::func::FuncOp entry,
                      const interpreter::DeviceGrid &grid,
                      std::vector<std::vector<Tensor>> &args) {
  mlir::FunctionType type = entry.getFunctionType();
  size_t count = type.getNumInputs();
  int64_t devices = grid.numDevices();
  bool random = randomSeed.getNumOccurrences() > 0;
  if (random && !inputFiles.empty())
    return fail("--input and --random-inputs exclude each other"), false;
  bool perDevice = inputFiles.size() == count * devices && count > 0;
  if (!random && !perDevice && inputFiles.size() != count)
    return fail("@" + entry.getSymName() + " has " + llvm::Twine(count) +
                " parameters and the run has " + llvm::Twine(devices) +
                " devices: give " + llvm::Twine(count) +
                " --input files (global arrays) or " +
                llvm::Twine(count * devices) + " (one per parameter per "
                "device, device-major), not " + llvm::Twine(inputFiles.size())),
           false;
  args.assign(devices, {});
  for (int64_t d = 0; d < devices; ++d) {
    for (size_t i = 0; i < count; ++i) {
      std::optional<TensorSpec> spec =
          interpreter::tensorSpecOf(type.getInput(i));
      if (!spec)
        return fail("parameter " + llvm::Twine(i) +
                    " is not an array the interpreter can take as input"),
               false;
      std::vector<int64_t> shape(spec->shape.begin(), spec->shape.end());
      std::string path =
          random ? "" : filePath(inputFiles[perDevice ? d * count + i : i]);
      absl::StatusOr<hostio::HostArray> array =
          random ? hostio::randomInput(randomSeed, i, spec->dtype, shape)
                 : hostio::readNpyFileAs(path, spec->dtype);
      if (!array.ok())
        return fail(std::string(array.status().message())), false;
      Tensor value = Tensor::fromHostArray(*array);
      if (!random && !perDevice) {
        std::string error;
        std::optional<Tensor> shard = interpreter::shardOf(
            value, shardingOf(entry, i, false), d % grid.numPartitions, error);
        if (!shard)
          return fail("parameter " + llvm::Twine(i) + " (" + path +
                      "): " + error),
                 false;
        value = *shard;
      }
      if (value.dtype() != spec->dtype ||
          value.shape() != llvm::ArrayRef<int64_t>(spec->shape))
        return fail("parameter " + llvm::Twine(i) + " of device " +
                    llvm::Twine(d) + " expects " + spec->str() + " but " +
                    (path.empty() ? std::string("the input") : path) +
                    " gives " + value.typeString()),
               false;
      args[d].push_back(value);
    }
  }
  return true;
}

int runDevices(mlir::func::FuncOp entry, const interpreter::DeviceGrid &grid,
               const std::vector<std::pair<unsigned, unsigned>> &feedback,
               const interpreter::InterpreterOptions &options) {
  std::vector<std::vector<Tensor>> args;
  if (!makeDeviceInputs(entry, grid, args))
    return 1;
  std::vector<llvm::SmallVector<Tensor>> results;
  std::vector<std::string> names = resultNamesOf(entry);
  for (int64_t step = 1; step <= steps; ++step) {
    auto stepResults = interpreter::interpretDevices(entry, grid, args, options);
    if (mlir::failed(stepResults))
      return 1;
    results = std::move(*stepResults);
    // Device 0's single-element results (a replicated loss is every
    // device's).
    if (steps.getNumOccurrences() &&
        runtime::isPrintedStep(step, steps,
                               runtime::stepPrintInterval(steps, printEvery)))
      printStepLine(step, results[0], names);
    for (size_t d = 0; d < results.size(); ++d)
      for (auto [result, param] : feedback)
        args[d][param] = results[d][result];
  }
  unsigned numResults = entry.getFunctionType().getNumResults();
  if (!outputDir.empty()) {
    std::vector<std::string> written;
    for (size_t d = 0; d < results.size(); ++d) {
      llvm::SmallString<128> dir(outputDir);
      llvm::sys::path::append(dir, "device" + llvm::Twine(d));
      if (std::error_code ec = llvm::sys::fs::create_directories(dir))
        return fail("cannot create '" + dir + "': " + ec.message());
      for (unsigned i = 0; i < numResults; ++i) {
        llvm::SmallString<128> path(dir);
        llvm::sys::path::append(path, names[i] + ".npy");
        absl::Status status =
            hostio::writeNpyFile(path.str().str(), results[d][i].toHostArray());
        if (!status.ok()) {
          for (const std::string &done : written)
            llvm::sys::fs::remove(done);
          return fail(std::string(status.message()));
        }
        written.push_back(path.str().str());
      }
    }
    return 0;
  }
  if (!outputFiles.empty()) {
    std::vector<hostio::HostArray> globals;
    for (unsigned i = 0; i < numResults; ++i) {
      // A result's parts: one per partition, from replica 0.
      std::vector<Tensor> parts;
      for (int64_t p = 0; p < grid.numPartitions; ++p)
        parts.push_back(results[p][i]);
      std::string error;
      std::optional<Tensor> global =
          interpreter::gatherShards(parts, shardingOf(entry, i, true), error);
      if (!global)
        return fail("result " + llvm::Twine(i) + ": " + error);
      globals.push_back(global->toHostArray());
    }
    for (unsigned i = 0; i < numResults; ++i) {
      absl::Status status =
          hostio::writeNpyFile(filePath(outputFiles[i]), globals[i]);
      if (!status.ok()) {
        for (unsigned j = 0; j < i; ++j)
          llvm::sys::fs::remove(filePath(outputFiles[j]));
        return fail(std::string(status.message()));
      }
    }
    return 0;
  }
  for (size_t d = 0; d < results.size(); ++d) {
    llvm::outs() << "device " << d << " (replica " << d / grid.numPartitions
                 << ", partition " << d % grid.numPartitions << ")\n";
    for (auto [i, result] : llvm::enumerate(results[d]))
      printSummary(llvm::outs(), i, result);
  }
  return 0;
}

int runInterpret() {
  if (!outputFiles.empty() && !outputDir.empty())
    return fail("--output and --output-dir exclude each other");
  ToolContext tool;
  mlir::MLIRContext &context = tool.get();
  mlir::OwningOpRef<mlir::ModuleOp> module = loadModule(input, context);
  if (!module)
    return 1;
  std::string error;
  mlir::func::FuncOp entry = findEntry(*module, error);
  if (!entry)
    return fail(error);
  unsigned numResults = entry.getFunctionType().getNumResults();
  if (!outputFiles.empty() && outputFiles.size() != numResults)
    return fail("@" + entry.getSymName() + " has " + llvm::Twine(numResults) +
                " results but " + llvm::Twine(outputFiles.size()) +
                " --output files were given");
  if (steps < 1)
    return fail("--steps needs a positive integer, got " + llvm::Twine(steps));
  if (printEvery < 0 || (printEvery > 0 && steps.getNumOccurrences() == 0))
    return fail(printEvery < 0 ? "--print-every needs a positive integer"
                               : "--print-every needs --steps");
  std::vector<std::pair<unsigned, unsigned>> feedback;
  if (!stepFeedback(*module, feedback))
    return 1;
  interpreter::InterpreterOptions options;
  options.numThreads = threads;
  options.maxOps = maxOps;

  // The device grid: the flags, else the module's counts.
  interpreter::DeviceGrid grid;
  auto moduleCount = [&](llvm::StringRef name) -> int64_t {
    auto attr = (*module)->getAttrOfType<mlir::IntegerAttr>(name);
    return attr ? attr.getInt() : 1;
  };
  if (replicaCount.getNumOccurrences() && replicaCount < 1)
    return fail("--replica-count needs a positive integer");
  if (numPartitions.getNumOccurrences() && numPartitions < 1)
    return fail("--num-partitions needs a positive integer");
  grid.replicaCount = replicaCount.getNumOccurrences()
                          ? replicaCount
                          : moduleCount("hlo.replica_count");
  grid.numPartitions = numPartitions.getNumOccurrences()
                           ? numPartitions
                           : moduleCount("hlo.num_partitions");
  // One thread per device: a bound keeps a typo from starting millions.
  constexpr int64_t kMaxDevices = 4096;
  if (grid.replicaCount > kMaxDevices || grid.numPartitions > kMaxDevices ||
      grid.numDevices() > kMaxDevices)
    return fail("the run would have " + llvm::Twine(grid.replicaCount) +
                " x " + llvm::Twine(grid.numPartitions) +
                " devices; the interpreter runs at most " +
                llvm::Twine(kMaxDevices));
  if (grid.numDevices() > 1)
    return runDevices(entry, grid, feedback, options);

  std::vector<Tensor> args;
  if (!makeInputs(entry, args))
    return 1;
  bool stepLog = steps.getNumOccurrences() > 0;
  if (steps > 1 && feedback.empty())
    llvm::WithColor::note(llvm::errs(), "tpuc interpret")
        << "the module has no input_output_alias, so every step computes "
           "the same results\n";
  int64_t interval = runtime::stepPrintInterval(steps, printEvery);
  std::vector<std::string> names = resultNamesOf(entry);
  auto start = std::chrono::steady_clock::now();
  std::optional<llvm::SmallVector<Tensor>> results;
  for (int64_t step = 1; step <= steps; ++step) {
    auto stepResults = interpreter::interpret(entry, args, options);
    if (mlir::failed(stepResults))
      return 1;
    results = std::move(*stepResults);
    if (stepLog && runtime::isPrintedStep(step, steps, interval))
      printStepLine(step, *results, names);
    for (auto [result, param] : feedback)
      args[param] = (*results)[result];
  }
  if (stepLog && steps > 1) {
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    llvm::outs() << llvm::format(
        "host wall time: %.3f ms/step (%lld steps in %.3f s, interpreter)\n",
        1e3 * seconds / steps, static_cast<long long>(steps), seconds);
  }

  std::vector<std::string> paths;
  if (!outputDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
      return fail("cannot create '" + outputDir + "': " + ec.message());
    for (unsigned i = 0; i < results->size(); ++i) {
      llvm::SmallString<128> path(outputDir);
      llvm::sys::path::append(path, names[i] + ".npy");
      paths.push_back(path.str().str());
    }
  } else {
    for (const std::string &file : outputFiles)
      paths.push_back(filePath(file));
  }
  if (paths.empty()) {
    for (auto [i, result] : llvm::enumerate(*results))
      printSummary(llvm::outs(), i, result);
    return 0;
  }
  for (auto [i, path] : llvm::enumerate(paths)) {
    absl::Status status = hostio::writeNpyFile(path, (*results)[i].toHostArray());
    if (!status.ok()) {
      // All or nothing: remove the results already written.
      for (size_t j = 0; j < i; ++j)
        llvm::sys::fs::remove(paths[j]);
      return fail(std::string(status.message()));
    }
  }
  return 0;
}
} // namespace

Command interpretCommand{interpretSub, runInterpret};

} // namespace tpuc::driver
