// tpuc-run: load a tpuc executable, run it on the CPU emulator with inputs
// from .npy files or the seeded random generator, write the results as .npy
// and report the modeled time. The work is done by the runtime libraries;
// this file is the command line.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <new>
#include <fstream>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/emulator/EmulatorDevice.h"
#include "runtime/emulator/Slice.h"
#include "runtime/hostio/Npy.h"
#include "runtime/hostio/RandomInputs.h"
#include "runtime/loader/Collectives.h"
#include "runtime/loader/Run.h"
#ifdef TPUC_HAVE_MPI
#include "runtime/emulator/MpiFabric.h"
#endif
#include "runtime/emulator/Wire.h"

namespace {

using namespace tpuc;

constexpr const char *kUsage = R"(usage: tpuc-run EXE [options]

Runs the tpuc executable EXE on the CPU emulator (functional + timing model).

Inputs (one per entry parameter, in parameter order):
  --input=@FILE.npy       the next parameter's value (repeatable). f32 data
                          is rounded to nearest even for a bf16 parameter.
  --random-inputs=SEED    fill the parameters not given by --input with the
                          reproducible generator of `tpuc interpret`.
Outputs:
  --output=@FILE.npy      where to write the next result (repeatable).
  --output-dir=DIR        write every result not given by --output to
                          DIR/<name>.npy (DIR is created if missing).
  --result-names=hlo|index
                          how results are named in --output-dir and the
                          --steps lines: hlo (the default): after the HLO
                          instruction that computed each (the ROOT tuple's
                          operand, e.g. reduce_sum.10, made file-safe),
                          resultN for a result without one or when two
                          results share it; `tpuc interpret` names them the
                          same. index: result0, result1, ...
  --profile[=text|json]   print the modeled cost: cycles, seconds, flops,
                          hbm_bytes, mxu_utilization,
                          hbm_bandwidth_utilization and a per-hlo-op table.
  --trace=FILE.json       write a Chrome trace (chrome://tracing, Perfetto):
                          a "kernels" track with one event per kernel run
                          (consecutive instructions of one hlo op).
  --trace-level=kernels|instructions
                          instructions adds one track per unit (scalar,
                          dma, mxuN, vpu) with one event per instruction
                          (large: millions for a big model). Default
                          kernels.
Execution:
  --timing-only           model time only, for sizing large programs
                          quickly: the vector, MXU and DMA work whose values
                          never reach control flow is not computed, the rest
                          is (the scalar unit, loop counters and bounds,
                          branch predicates), so the cycles equal a
                          functional run's with the same inputs. Results are
                          not written. Inputs are optional: parameters not
                          given by --input or --random-inputs are zero, and
                          every branch or trip count that depends on them (or,
                          with --steps, on the previous step's uncomputed
                          results) is reported as data-dependent on stderr
                          and in --profile.
  --max-instructions=N    trap after N executed instructions (default 2^33).
  --steps=N               run N steps (default 1), a training loop: each
                          result the executable aliases to a parameter
                          (XLA's input_output_alias) is that parameter's
                          value in the next step. The parameters stay on
                          the device between steps. Prints the
                          single-element results (the loss) of the printed
                          steps, then the modeled and the host time per
                          step. The results written, --profile and --trace
                          are those of the last step.
  --print-every=K         with --steps: print steps 1, K, 2K, ... and the
                          last (default: about ten lines).
  --kernels=PATH          the host kernels of the MXU and VPU: auto (the
                          default: this host's fastest), portable, avx2,
                          avx512 or avx512-bf16. All but avx512-bf16 give
                          bit-identical results on every host; avx512-bf16
                          (auto where the CPU has it) differs within the
                          tolerance of docs/runtime.md. A path this CPU
                          lacks is an error.
  --help                  this text.

Multi-device executables (compiled for a slice, e.g. --target=tpu-v3-8;
docs/spmd.md): every device runs at once, one thread each, collectives
through the emulated ICI. --input takes either one global array per
parameter, split by the parameter's sharding (unsharded: every device gets
it whole), or one array per parameter per device, device-major (x0 w0 x1
w1 ...: device d's parameters follow device d-1's). --random-inputs gives
every device the same values. --output writes each result gathered from
the devices by its sharding (unsharded: device 0's); --output-dir=DIR
writes DIR/device<d>/<name>.npy for every device. --profile prints every
device's profile with its ICI traffic (json: "devices", the slowest
device's "cycles", the total "ici_bytes" and "per_device" profiles with
"ici_bytes" and one entry per collective: bytes, ici_bytes, wait_cycles,
cycles). --trace gives each device its own process (pid = device id).
--timing-only runs meet at the collectives too (on the arrival cycles
only), so each device's modeled time includes waiting for its group.

Under MPI (mpirun -np K tpuc-run EXE ..., Open MPI; tpuc-run built with
it): the devices are spread over the K processes in contiguous blocks
(K must divide the device count), each process runs its block's threads,
and at every collective the blocks exchange their operands and arrival
cycles, so results, profile and trace are byte-identical to one process.
Rank 0 reads the inputs and writes every file and the output; EXE must be
readable by every process. A tpuc-run built without MPI refuses to run
under mpirun.

Files are written only when the whole run succeeded (each through a
temporary file renamed into place). Exit status: 0 on success, 1 on any
error (bad flag or file, invalid executable, trap).
)";

struct Options {
  std::string executable;
  std::vector<std::string> inputs, outputs;
  bool randomInputs = false;
  uint64_t seed = 0;
  std::string outputDir, profile, trace;
  bool timingOnly = false;
  bool hloNames = true; // --result-names=hlo (the default)
  runtime::TraceLevel traceLevel = runtime::TraceLevel::Kernels;
  int64_t maxInstructions = int64_t(1) << 33;
  int64_t steps = 1, printEvery = 0;
  bool stepLoop = false; // --steps given: print the step log
  runtime::KernelPath kernels = runtime::bestKernelPath();
};

// The processes of the run: this one, or an MPI job's (mpirun -np K).
struct Processes {
  int rank = 0, size = 1;
  // Rank 0's parts[r] to rank r; returns this rank's.
  std::function<absl::StatusOr<std::string>(const std::vector<std::string> &)>
      scatter;
  // Every rank's bytes on rank 0 (by rank; empty on the others).
  std::function<absl::StatusOr<std::vector<std::string>>(const std::string &)>
      gather;
  // The collectives' transport of a rank running `local` devices.
  std::function<std::unique_ptr<runtime::IciTransport>(int64_t local)>
      transport;
};

absl::Status usageError(const std::string &message) {
  return absl::InvalidArgumentError(
      absl::StrCat(message, " (see tpuc-run --help)"));
}

// "--name=value" or "--name": sets *value and returns true if arg is --name.
bool flag(const std::string &arg, const char *name, std::string *value,
          bool *hasValue) {
  std::string prefix = absl::StrCat("--", name);
  if (arg == prefix) {
    *hasValue = false;
    return true;
  }
  if (absl::StartsWith(arg, prefix + "=")) {
    *value = arg.substr(prefix.size() + 1);
    *hasValue = true;
    return true;
  }
  return false;
}

absl::Status parseKernels(const std::string &value,
                          runtime::KernelPath *kernels) {
  if (value == "auto") {
    *kernels = runtime::bestKernelPath();
    return absl::OkStatus();
  }
  std::optional<runtime::KernelPath> path = runtime::parseKernelPath(value);
  if (!path) {
    std::string valid = "auto";
    for (runtime::KernelPath p : runtime::allKernelPaths())
      absl::StrAppend(&valid, ", ", runtime::kernelPathName(p));
    return usageError(
        absl::StrCat("--kernels takes one of ", valid, "; got '", value, "'"));
  }
  if (!runtime::isKernelPathSupported(*path)) {
    std::string supported;
    for (runtime::KernelPath p : runtime::supportedKernelPaths())
      absl::StrAppend(&supported, ", ", runtime::kernelPathName(p));
    return absl::FailedPreconditionError(
        absl::StrCat("--kernels=", value, " is not supported by this CPU (it ",
                     "supports auto", supported, ")"));
  }
  *kernels = *path;
  return absl::OkStatus();
}

absl::StatusOr<Options> parseArgs(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    bool has = false;
    auto needValue = [&](const char *name) -> absl::Status {
      if (!has || value.empty())
        return usageError(absl::StrCat("--", name, " needs a value"));
      return absl::OkStatus();
    };
    auto file = [&](std::string v) {
      return absl::StartsWith(v, "@") ? v.substr(1) : v;
    };
    if (flag(arg, "input", &value, &has)) {
      if (absl::Status s = needValue("input"); !s.ok())
        return s;
      o.inputs.push_back(file(value));
    } else if (flag(arg, "output", &value, &has)) {
      if (absl::Status s = needValue("output"); !s.ok())
        return s;
      o.outputs.push_back(file(value));
    } else if (flag(arg, "random-inputs", &value, &has)) {
      if (!has || !absl::SimpleAtoi(value, &o.seed))
        return usageError("--random-inputs needs an unsigned integer seed");
      o.randomInputs = true;
    } else if (flag(arg, "output-dir", &value, &has)) {
      if (absl::Status s = needValue("output-dir"); !s.ok())
        return s;
      o.outputDir = value;
    } else if (flag(arg, "profile", &value, &has)) {
      o.profile = has ? value : "text";
      if (o.profile != "text" && o.profile != "json")
        return usageError("--profile takes text or json");
    } else if (flag(arg, "trace", &value, &has)) {
      if (absl::Status s = needValue("trace"); !s.ok())
        return s;
      o.trace = value;
    } else if (flag(arg, "timing-only", &value, &has) && !has) {
      o.timingOnly = true;
    } else if (flag(arg, "max-instructions", &value, &has)) {
      if (!has || !absl::SimpleAtoi(value, &o.maxInstructions) ||
          o.maxInstructions <= 0)
        return usageError("--max-instructions needs a positive integer");
    } else if (flag(arg, "steps", &value, &has)) {
      if (!has || !absl::SimpleAtoi(value, &o.steps) || o.steps <= 0)
        return usageError(absl::StrCat(
            "--steps needs a positive integer, got '", value, "'"));
      o.stepLoop = true;
    } else if (flag(arg, "print-every", &value, &has)) {
      if (!has || !absl::SimpleAtoi(value, &o.printEvery) || o.printEvery <= 0)
        return usageError(absl::StrCat(
            "--print-every needs a positive integer, got '", value, "'"));
    } else if (flag(arg, "trace-level", &value, &has)) {
      if (!has || (value != "kernels" && value != "instructions"))
        return usageError(absl::StrCat(
            "--trace-level takes kernels or instructions, got '", value, "'"));
      o.traceLevel = value == "kernels" ? runtime::TraceLevel::Kernels
                                        : runtime::TraceLevel::Instructions;
    } else if (flag(arg, "result-names", &value, &has)) {
      if (!has || (value != "index" && value != "hlo"))
        return usageError(absl::StrCat(
            "--result-names takes hlo or index, got '", value, "'"));
      o.hloNames = value == "hlo";
    } else if (flag(arg, "kernels", &value, &has)) {
      if (absl::Status s = parseKernels(value, &o.kernels); !s.ok())
        return s;
    } else if (absl::StartsWith(arg, "-")) {
      return usageError(absl::StrCat("unknown option '", arg, "'"));
    } else if (o.executable.empty()) {
      o.executable = arg;
    } else {
      return usageError(absl::StrCat("unexpected argument '", arg, "'"));
    }
  }
  if (o.executable.empty())
    return usageError("no executable given");
  if (o.timingOnly && (!o.outputs.empty() || !o.outputDir.empty()))
    return usageError("--timing-only computes no results to write");
  if (o.printEvery > 0 && !o.stepLoop)
    return usageError("--print-every needs --steps");
  return o;
}

absl::StatusOr<std::vector<hostio::HostArray>>
gatherInputs(const Options &o, const runtime::Executable &e) {
  const auto &params = e.proto().parameters();
  if (o.inputs.size() > static_cast<size_t>(params.size()))
    return usageError(absl::StrCat(o.inputs.size(), " --input files for ",
                                   params.size(), " parameters"));
  if (!o.randomInputs && !o.timingOnly &&
      o.inputs.size() < static_cast<size_t>(params.size()))
    return usageError(absl::StrCat(
        "executable takes ", params.size(), " parameters, ", o.inputs.size(),
        " --input given (use --random-inputs=SEED for the rest)"));
  std::vector<hostio::HostArray> inputs;
  for (int i = 0; i < params.size(); ++i) {
    hostio::DType dtype = runtime::toHostDType(runtime::hostDType(params[i]));
    std::vector<int64_t> dims = runtime::hostDims(params[i]);
    absl::StatusOr<hostio::HostArray> a =
        i < static_cast<int>(o.inputs.size())
            ? hostio::readNpyFileAs(o.inputs[i], dtype)
        : o.randomInputs ? hostio::randomInput(o.seed, i, dtype, dims)
                         : hostio::HostArray::zeros(dtype, dims);
    if (!a.ok())
      return a.status();
    inputs.push_back(std::move(*a));
  }
  return inputs;
}

// Writes all files or none: every file goes to a temporary name first.
absl::Status writeAll(
    const std::vector<std::pair<std::string, std::string>> &files) {
  std::vector<std::string> temps;
  auto cleanup = [&] {
    for (const std::string &t : temps)
      std::remove(t.c_str());
  };
  for (const auto &[path, bytes] : files) {
    std::string temp = absl::StrCat(path, ".tmp.", getpid());
    temps.push_back(temp);
    std::ofstream out(temp, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      cleanup();
      return absl::UnavailableError(absl::StrCat("cannot write ", path));
    }
  }
  for (size_t i = 0; i < files.size(); ++i)
    if (std::rename(temps[i].c_str(), files[i].first.c_str()) != 0) {
      cleanup();
      return absl::UnavailableError(
          absl::StrCat("cannot write ", files[i].first));
    }
  return absl::OkStatus();
}

absl::Status runDevices(const Options &o, const runtime::Executable &e,
                        const Processes &world);

// Result names in the step log and --output-dir: the HLO instruction that
// computed each (resultN where it has none), or with --result-names=index
// resultN; and the single-element results the step log prints (read back
// while the loop runs, the rest stay on the device).
std::pair<std::vector<std::string>, std::vector<int>>
labelResults(const Options &o, const runtime::Executable &e) {
  const auto &results = e.proto().results();
  std::vector<std::string> names;
  if (o.hloNames)
    names = runtime::resultNames(e);
  else
    for (int i = 0; i < results.size(); ++i)
      names.push_back(absl::StrCat("result", i));
  std::vector<int> scalarResults;
  for (int i = 0; i < results.size(); ++i)
    if (runtime::elementCount(results[i].shape()) == 1)
      scalarResults.push_back(i);
  return {std::move(names), std::move(scalarResults)};
}

// The step line of `step`: the single-element results `scalarResults`
// read from `device` (none in a timing-only run), then `suffix`.
absl::Status printStep(const Options &o, int64_t step,
                       const std::vector<int> &scalarResults,
                       const std::vector<std::string> &names,
                       runtime::Device &device, const runtime::Executable &e,
                       const char *suffix) {
  std::vector<hostio::HostArray> values;
  values.reserve(scalarResults.size());
  std::vector<std::pair<int, const hostio::HostArray *>> printed;
  if (!o.timingOnly)
    for (int i : scalarResults) {
      absl::StatusOr<hostio::HostArray> a = runtime::readResult(device, e, i);
      if (!a.ok())
        return a.status();
      values.push_back(std::move(*a));
      printed.emplace_back(i, &values.back());
    }
  std::printf("%s%s\n",
              runtime::formatStepLine(step, o.steps, printed, names).c_str(),
              suffix);
  std::fflush(stdout);
  return absl::OkStatus();
}

absl::Status run(const Options &o, const Processes &world) {
  absl::StatusOr<runtime::Executable> e =
      runtime::loadExecutableFromFile(o.executable);
  if (!e.ok())
    return e.status();
  if (runtime::numDevices(e->proto()) > 1)
    return runDevices(o, *e, world);
  if (world.size > 1)
    return absl::InvalidArgumentError(absl::StrCat(
        "the executable runs on one device; mpirun -np ", world.size,
        " spreads the devices of a multi-device executable (run it without "
        "mpirun)"));
  const auto &results = e->proto().results();
  if (o.outputs.size() > static_cast<size_t>(results.size()))
    return usageError(absl::StrCat(o.outputs.size(), " --output files for ",
                                   results.size(), " results"));
  absl::StatusOr<std::vector<hostio::HostArray>> inputs = gatherInputs(o, *e);
  if (!inputs.ok())
    return inputs.status();
  runtime::EmulatorDevice device(e->target(), o.kernels);
  runtime::ExecuteOptions options;
  options.functional = !o.timingOnly;
  options.trace = !o.trace.empty();
  options.maxInstructions = o.maxInstructions;
  // --timing-only without values: the parameters are zero, and each control
  // decision that depends on them is reported.
  if (o.timingOnly && !o.randomInputs)
    for (int i = 0; i < e->proto().parameters_size(); ++i)
      options.assumedParameters.push_back(i >=
                                          static_cast<int>(o.inputs.size()));
  auto [names, scalarResults] = labelResults(o, *e);
  int64_t interval = runtime::stepPrintInterval(o.steps, o.printEvery);
  uint64_t minCycles = UINT64_MAX, maxCycles = 0;
  runtime::StepCallback afterStep =
      [&](int64_t step, const runtime::ExecutionProfile &p) -> absl::Status {
    minCycles = std::min(minCycles, p.cycles);
    maxCycles = std::max(maxCycles, p.cycles);
    if (!o.stepLoop || !runtime::isPrintedStep(step, o.steps, interval))
      return absl::OkStatus();
    return printStep(o, step, scalarResults, names, device, *e, "");
  };
  if (o.steps > 1 && e->proto().aliases_size() == 0)
    std::fprintf(stderr, "tpuc-run: note: the executable aliases no result "
                         "to a parameter, so every step computes the same "
                         "results\n");
  auto start = std::chrono::steady_clock::now();
  absl::StatusOr<runtime::RunResult> r =
      runtime::runSteps(device, *e, *inputs, o.steps, options, afterStep);
  if (!r.ok())
    return r.status();
  double hostSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  std::vector<std::pair<std::string, std::string>> files;
  for (int i = 0; i < results.size(); ++i) {
    std::string path;
    if (i < static_cast<int>(o.outputs.size()))
      path = o.outputs[i];
    else if (!o.outputDir.empty())
      path = absl::StrCat(o.outputDir, "/", names[i], ".npy");
    if (!path.empty())
      files.emplace_back(path, hostio::serializeNpy(r->results[i]));
  }
  if (!o.trace.empty())
    files.emplace_back(o.trace, runtime::traceToChromeJson(r->profile, *e, o.traceLevel));
  if (!o.outputDir.empty()) {
    // Created like `tpuc interpret` does, once the run has succeeded.
    std::error_code error;
    std::filesystem::create_directories(o.outputDir, error);
    if (error)
      return absl::InvalidArgumentError(absl::StrCat(
          "cannot create ", o.outputDir, ": ", error.message()));
  }
  if (absl::Status s = writeAll(files); !s.ok())
    return s;
  if (std::string warning = runtime::dataDependentWarning(r->profile);
      !warning.empty())
    std::fprintf(stderr, "tpuc-run: warning: %s", warning.c_str());
  if (o.profile == "json")
    std::fputs(runtime::profileToJson(r->profile).c_str(), stdout);
  else if (o.profile == "text")
    std::fputs(runtime::profileToText(r->profile).c_str(), stdout);
  if (o.stepLoop) {
    // The timing model is deterministic, so every step usually takes the
    // same cycles; a range is printed when they differ.
    double clock = e->target().clock_hz();
    std::string cycles =
        minCycles == maxCycles
            ? absl::StrCat(maxCycles, " cycles = ",
                           absl::StrFormat("%.1f", 1e6 * maxCycles / clock),
                           " us")
            : absl::StrCat(minCycles, "..", maxCycles, " cycles = ",
                           absl::StrFormat("%.1f..%.1f",
                                           1e6 * minCycles / clock,
                                           1e6 * maxCycles / clock),
                           " us");
    std::printf("modeled step time: %s on %s at %.0f MHz\n", cycles.c_str(),
                e->target().name().c_str(), clock / 1e6);
    std::printf("host wall time: %.3f ms/step (%lld steps in %.3f s, "
                "emulator, including load and read-back)\n",
                1e3 * hostSeconds / o.steps, static_cast<long long>(o.steps),
                hostSeconds);
  }
  return absl::OkStatus();
}

// Every device's parameters of a multi-device executable, from the --input
// files (global or per device) or the generator.
absl::StatusOr<std::vector<std::vector<hostio::HostArray>>>
sliceInputs(const Options &o, const runtime::Executable &e) {
  const exe::Executable &proto = e.proto();
  int64_t devices = runtime::numDevices(proto);
  int64_t partitions = runtime::numPartitions(proto);
  const auto &params = proto.parameters();
  size_t perDevice = static_cast<size_t>(params.size());
  bool global = o.inputs.size() <= perDevice;
  if (!global && o.inputs.size() != perDevice * devices)
    return usageError(absl::StrCat(
        o.inputs.size(), " --input files: give ", perDevice,
        " (global arrays) or ", perDevice * devices, " (", perDevice,
        " per device, device-major) for ", devices, " devices"));
  if (global && !o.randomInputs && !o.timingOnly &&
      o.inputs.size() < perDevice)
    return usageError(absl::StrCat(
        "executable takes ", perDevice, " parameters, ", o.inputs.size(),
        " --input given (use --random-inputs=SEED for the rest)"));
  std::vector<std::vector<hostio::HostArray>> inputs(devices);
  for (size_t i = 0; i < perDevice; ++i) {
    const exe::Parameter &param = params[static_cast<int>(i)];
    hostio::DType dtype = runtime::toHostDType(runtime::hostDType(param));
    std::vector<int64_t> dims = runtime::hostDims(param);
    std::optional<hostio::HostArray> whole;
    if (global && i < o.inputs.size()) {
      absl::StatusOr<hostio::HostArray> a =
          hostio::readNpyFileAs(o.inputs[i], dtype);
      if (!a.ok())
        return a.status();
      whole = std::move(*a);
    }
    for (int64_t d = 0; d < devices; ++d) {
      absl::StatusOr<hostio::HostArray> a =
          whole ? runtime::shardOf(*whole,
                                   param.has_sharding() ? &param.sharding()
                                                        : nullptr,
                                   partitions, d)
          : !global ? hostio::readNpyFileAs(o.inputs[d * perDevice + i], dtype)
          : o.randomInputs ? hostio::randomInput(o.seed, static_cast<int>(i),
                                                 dtype, dims)
                           : hostio::HostArray::zeros(dtype, dims);
      if (!a.ok())
        return absl::InvalidArgumentError(absl::StrCat(
            "parameter ", i, " of device ", d, ": ", a.status().message()));
      inputs[d].push_back(std::move(*a));
    }
  }
  return inputs;
}

// An error as one rank reports it to the others: "E" and the message, or
// "K" and the payload. A relayed error is Cancelled: the rank that had it
// reports it.
std::string okPart(const std::string &payload) { return "K" + payload; }
std::string errorPart(const absl::Status &s) {
  return absl::StrCat("E", s.message());
}
absl::StatusOr<std::string> payloadOf(absl::StatusOr<std::string> part) {
  if (!part.ok())
    return part.status();
  if (part->empty() || (*part)[0] != 'K')
    return absl::CancelledError(part->empty() ? "no reply from rank 0"
                                              : part->substr(1));
  return part->substr(1);
}

// Rank 0's inputs of every device to the rank that runs it (ranks run
// contiguous blocks of `local` devices); returns this rank's block.
absl::StatusOr<std::vector<std::vector<hostio::HostArray>>>
scatterInputs(const Processes &world, int64_t local,
              absl::StatusOr<std::vector<std::vector<hostio::HostArray>>> all) {
  std::vector<std::string> parts;
  for (int r = 0; r < world.size && world.rank == 0; ++r) {
    if (!all.ok()) {
      parts.push_back(errorPart(all.status()));
      continue;
    }
    std::vector<std::string> arrays;
    for (int64_t d = r * local; d < (r + 1) * local; ++d)
      for (const hostio::HostArray &a : (*all)[d])
        arrays.push_back(hostio::serializeNpy(a));
    parts.push_back(okPart(runtime::wire::packStrings(arrays)));
  }
  absl::StatusOr<std::string> mine = payloadOf(world.scatter(parts));
  if (!mine.ok())
    return mine.status();
  absl::StatusOr<std::vector<std::string>> arrays =
      runtime::wire::unpackStrings(*mine);
  if (!arrays.ok())
    return arrays.status();
  size_t params = arrays->size() / static_cast<size_t>(local);
  std::vector<std::vector<hostio::HostArray>> inputs(local);
  for (size_t i = 0; i < arrays->size(); ++i) {
    absl::StatusOr<hostio::HostArray> a =
        hostio::parseNpy((*arrays)[i], "an input from rank 0");
    if (!a.ok())
      return a.status();
    inputs[i / params].push_back(std::move(*a));
  }
  return inputs;
}

// Every rank's run on rank 0, as one run of every device; the other ranks
// get an empty result. A failed rank's error reaches rank 0: the first that
// failed for its own reason (not because another device stopped) names it.
absl::StatusOr<runtime::SliceRunResult>
gatherRuns(const Processes &world, size_t results,
           absl::StatusOr<runtime::SliceRunResult> r) {
  std::string mine;
  if (r.ok()) {
    std::vector<std::string> parts;
    for (size_t d = 0; d < r->results.size(); ++d) {
      parts.push_back(runtime::wire::packProfile(r->profiles[d]));
      for (const hostio::HostArray &a : r->results[d])
        parts.push_back(hostio::serializeNpy(a));
    }
    mine = okPart(runtime::wire::packStrings(parts));
  } else {
    mine = errorPart(r.status());
  }
  absl::StatusOr<std::vector<std::string>> all = world.gather(mine);
  if (!all.ok())
    return all.status();
  runtime::SliceRunResult out;
  std::optional<absl::Status> failed;
  for (const std::string &rank : *all) {
    absl::StatusOr<std::string> payload = payloadOf(rank);
    if (!payload.ok()) {
      bool own = payload.status().message().find("stopped") ==
                 absl::string_view::npos;
      if (!failed || (own && failed->message().find("stopped") !=
                                 absl::string_view::npos))
        failed = payload.status();
      continue;
    }
    absl::StatusOr<std::vector<std::string>> parts =
        runtime::wire::unpackStrings(*payload);
    if (!parts.ok())
      return parts.status();
    // Each device: its profile, then its results.
    for (size_t at = 0; at + results <= parts->size(); at += results + 1) {
      absl::StatusOr<runtime::ExecutionProfile> p =
          runtime::wire::unpackProfile((*parts)[at]);
      if (!p.ok())
        return p.status();
      out.profiles.push_back(std::move(*p));
      out.results.emplace_back();
      for (size_t i = 1; i <= results; ++i) {
        absl::StatusOr<hostio::HostArray> a =
            hostio::parseNpy((*parts)[at + i], "a result from another rank");
        if (!a.ok())
          return a.status();
        out.results.back().push_back(std::move(*a));
      }
    }
  }
  if (failed)
    return *failed;
  return out;
}

// Every device of a multi-device executable (docs/spmd.md), on this process
// or spread over the ranks of an MPI job.
absl::Status runDevices(const Options &o, const runtime::Executable &e,
                        const Processes &world) {
  const exe::Executable &proto = e.proto();
  int64_t devices = runtime::numDevices(proto);
  int64_t partitions = runtime::numPartitions(proto);
  const auto &results = proto.results();
  if (o.outputs.size() > static_cast<size_t>(results.size()))
    return usageError(absl::StrCat(o.outputs.size(), " --output files for ",
                                   results.size(), " results"));
  if (devices % world.size != 0)
    return absl::InvalidArgumentError(absl::StrCat(
        "the executable runs on ", devices, " devices, which do not split "
        "evenly over ", world.size, " MPI processes (use a divisor of ",
        devices, " for mpirun -np)"));
  int64_t local = devices / world.size;
  absl::StatusOr<std::vector<std::vector<hostio::HostArray>>> inputs =
      world.rank == 0 ? sliceInputs(o, e)
                      : std::vector<std::vector<hostio::HostArray>>();
  if (world.size > 1)
    inputs = scatterInputs(world, local, std::move(inputs));
  // Rank 0's error reached every rank; rank 0 reports it.
  if (!inputs.ok() && world.rank != 0 && absl::IsCancelled(inputs.status()))
    return absl::OkStatus();
  if (!inputs.ok())
    return inputs.status();
  runtime::ExecuteOptions options;
  options.functional = !o.timingOnly;
  options.trace = !o.trace.empty();
  options.maxInstructions = o.maxInstructions;
  auto [names, scalarResults] = labelResults(o, e);
  int64_t interval = runtime::stepPrintInterval(o.steps, o.printEvery);
  // Printed by the rank that runs device 0.
  runtime::SliceStepCallback afterStep =
      [&](int64_t step, const runtime::ExecutionProfile &,
          runtime::Device &device0) -> absl::Status {
    if (!o.stepLoop || !runtime::isPrintedStep(step, o.steps, interval))
      return absl::OkStatus();
    return printStep(o, step, scalarResults, names, device0, e, " (device 0)");
  };
  std::unique_ptr<runtime::IciTransport> transport;
  runtime::SlicePart part;
  if (world.size > 1) {
    transport = world.transport(local);
    part.firstDevice = world.rank * local;
    part.transport = transport.get();
  }
  absl::StatusOr<runtime::SliceRunResult> r = runtime::runSlice(
      e, *inputs, o.steps, options, o.kernels, afterStep, part);
  if (world.size > 1) {
    r = gatherRuns(world, static_cast<size_t>(results.size()), std::move(r));
    // Every rank's error reached rank 0, which reports it; the other ranks
    // end quietly (a non-zero exit would make mpirun kill rank 0 before it
    // prints).
    if (world.rank != 0)
      return absl::OkStatus();
  }
  if (!r.ok())
    return r.status();
  std::vector<std::pair<std::string, std::string>> files;
  for (int i = 0; i < results.size() && !o.timingOnly; ++i) {
    if (i < static_cast<int>(o.outputs.size())) {
      std::vector<const hostio::HostArray *> parts;
      for (int64_t d = 0; d < devices; ++d)
        parts.push_back(&r->results[d][i]);
      const exe::Result &result = results[i];
      absl::StatusOr<hostio::HostArray> a = runtime::gatherShards(
          parts, result.has_sharding() ? &result.sharding() : nullptr,
          partitions);
      if (!a.ok())
        return a.status();
      files.emplace_back(o.outputs[i], hostio::serializeNpy(*a));
    }
  }
  if (!o.outputDir.empty()) {
    for (int64_t d = 0; d < devices; ++d) {
      std::string dir = absl::StrCat(o.outputDir, "/device", d);
      std::error_code error;
      std::filesystem::create_directories(dir, error);
      if (error)
        return absl::InvalidArgumentError(
            absl::StrCat("cannot create ", dir, ": ", error.message()));
      for (int i = 0; i < results.size(); ++i)
        if (i >= static_cast<int>(o.outputs.size()))
          files.emplace_back(absl::StrCat(dir, "/", names[i], ".npy"),
                             hostio::serializeNpy(r->results[d][i]));
    }
  }
  if (!o.trace.empty())
    files.emplace_back(o.trace, runtime::sliceTraceToChromeJson(
                                    r->profiles, e, o.traceLevel));
  if (absl::Status s = writeAll(files); !s.ok())
    return s;
  if (o.profile == "json")
    std::fputs(runtime::sliceProfileToJson(r->profiles).c_str(), stdout);
  else if (o.profile == "text")
    std::fputs(runtime::sliceProfileToText(r->profiles).c_str(), stdout);
  return absl::OkStatus();
}

} // namespace

// The number of processes mpirun started, from Open MPI's environment (1
// when not under mpirun).
int mpirunProcesses() {
  const char *size = std::getenv("OMPI_COMM_WORLD_SIZE");
  int n = 1;
  if (!size || !absl::SimpleAtoi(size, &n) || n < 1)
    return 1;
  return n;
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
  Processes world;
  absl::Status status;
#ifdef TPUC_HAVE_MPI
  bool mpi = mpirunProcesses() > 1;
  if (mpi) {
    absl::StatusOr<runtime::mpi::World> w = runtime::mpi::init(&argc, &argv);
    if (!w.ok()) {
      std::fprintf(stderr, "tpuc-run: error: %s\n",
                   std::string(w.status().message()).c_str());
      return 1;
    }
    world.rank = w->rank;
    world.size = w->size;
    world.scatter = runtime::mpi::scatter;
    world.gather = runtime::mpi::gather;
    world.transport = runtime::mpi::makeTransport;
  }
#else
  if (int n = mpirunProcesses(); n > 1)
    status = absl::FailedPreconditionError(absl::StrCat(
        "started by mpirun as one of ", n, " processes, but this tpuc-run "
        "was built without MPI (install libopenmpi-dev, e.g. ./setup.sh "
        "deps, and rebuild); refusing to run ", n, " independent copies"));
#endif
  if (status.ok()) {
    absl::StatusOr<Options> options = parseArgs(argc, argv);
    // A run whose host memory runs out (the emulated HBM is backed as it is
    // touched; the DMAs in flight are indexed by page) ends with an error,
    // not an abort.
    try {
      status = options.ok() ? run(*options, world) : options.status();
    } catch (const std::bad_alloc &) {
      status = absl::ResourceExhaustedError(
          "the host ran out of memory emulating the program (its arrays, "
          "the HBM it touches and the DMAs in flight); run it on a host "
          "with more memory, or with a higher limit (ulimit -v)");
    }
  }
#ifdef TPUC_HAVE_MPI
  if (mpi)
    runtime::mpi::finalize();
#endif
  // Under mpirun, an error rank 0 reports for every rank (a run's, a bad
  // input) does not come back here on the others; the rest (arguments, the
  // executable, the device split) each rank reports, as mpirun stops the
  // job at the first that exits non-zero.
  if (!status.ok()) {
    std::fprintf(stderr, "tpuc-run: error: %s\n",
                 std::string(status.message()).c_str());
    return 1;
  }
  return 0;
}
