// tpuc-bench-emulator: functional emulation against the reference
// interpreter on the same graphs, side by side in one run:
//   build/bin/tpuc-bench-emulator [--benchmark_filter=resnet50]
// Each graph is compiled as `tpuc compile` does by default (front end,
// fusion and layouts, code generation for tpu-v3) and gets the inputs of
// `--random-inputs=1`. Every iteration then evaluates it with the
// interpreter (`tpuc interpret`'s evaluation: interpreter::interpret with
// its default threads) and emulates it with the default kernel path:
// inference graphs as `tpuc-run` does (runExecutable: a new device, loading
// the inputs, executing and reading back every result), the training
// demo's steps as a step of `tpuc-run --steps` does (one execute on a
// device loaded once). Parsing, compiling and input generation are outside
// both timings. Counters: interp_ms and emu_ms (mean wall time per
// iteration), emu_over_interp (their ratio), and interp_cpu_ms and
// emu_cpu_ms (CPU time of every thread: the interpreter runs dots and
// convolutions on every hardware thread, the emulator on one; on a shared
// machine these are the steadier figures). No assertions: the figures of
// docs/performance.md ("Emulator speed") come from this binary.
// The graphs are the resnet50 corpus graph, the training demo's MLP and CNN
// steps (examples/), the layer_norm corpus graph and a 512^3 f32 matmul.
#include "driver/codegen/Codegen.h"
#include "compiler/importer/ModuleLoader.h"
#include "compiler/interpreter/Interpreter.h"
#include "passes/Passes.h"
#include "runtime/emulator/EmulatorDevice.h"
#include "runtime/hostio/RandomInputs.h"
#include "runtime/loader/Executable.h"
#include "runtime/loader/Layout.h"
#include "runtime/loader/Run.h"
#include "runtime/target/Targets.h"

#include "benchmark/benchmark.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

namespace tpuc {
namespace {

constexpr uint64_t kSeed = 1;

const char *kMatmulSource = R"mlir(
func.func @mm(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %d = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  return %d : tensor<512x512xf32>
})mlir";

struct Graph {
  const char *name;
  const char *path; // under the source tree; nullptr: kMatmulSource
  int64_t iterations;
  // A training step: timed as a step of `tpuc-run --steps` (one device,
  // inputs loaded once, one execute per iteration) against one evaluation.
  // Otherwise as a whole `tpuc-run` (a new device, load, execute, read).
  bool step;
};

const Graph kGraphs[] = {
    {"resnet50", "test/Inputs/corpus/hlo/resnet50_keras_jax_f32.hlo", 3,
     false},
    {"mlp_train_step", "examples/mlp_train_step.hlo", 50, true},
    {"cnn_train_step", "examples/cnn_train_step.hlo", 50, true},
    {"layer_norm", "test/Inputs/corpus/hlo/layer_norm_1x4096x768_bf16.hlo", 5,
     false},
    {"matmul_512_f32", nullptr, 10, false},
};

mlir::func::FuncOp entryOf(mlir::ModuleOp module) {
  for (auto func : module.getOps<mlir::func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      return func;
  return nullptr;
}

// What one iteration needs, prepared once per graph.
struct Prepared {
  std::vector<interpreter::Tensor> interpreterArgs;
  std::optional<runtime::Executable> executable;
  std::vector<hostio::HostArray> emulatorInputs;
};

// Loads `graph`, draws its inputs and compiles it; an error message or "".
std::string prepare(mlir::MLIRContext &context, const Graph &graph,
                    mlir::OwningOpRef<mlir::ModuleOp> &module,
                    Prepared &out) {
  if (graph.path) {
    llvm::SmallString<256> path(TPUC_SOURCE_DIR);
    llvm::sys::path::append(path, graph.path);
    module = loadModule(path, context);
  } else {
    module = mlir::parseSourceString<mlir::ModuleOp>(kMatmulSource, &context);
  }
  if (!module)
    return "cannot load the graph";
  mlir::func::FuncOp entry = entryOf(*module);
  if (!entry)
    return "no public function";
  for (auto [i, type] : llvm::enumerate(entry.getFunctionType().getInputs())) {
    std::optional<interpreter::TensorSpec> spec =
        interpreter::tensorSpecOf(type);
    if (!spec)
      return "a parameter the interpreter cannot take";
    absl::StatusOr<hostio::HostArray> array = hostio::randomInput(
        kSeed, i, spec->dtype, {spec->shape.begin(), spec->shape.end()});
    if (!array.ok())
      return std::string(array.status().message());
    out.interpreterArgs.push_back(interpreter::Tensor::fromHostArray(*array));
  }

  // `tpuc compile GRAPH` on a clone (the interpreter runs the original).
  mlir::OwningOpRef<mlir::ModuleOp> compiled = module->clone();
  absl::StatusOr<target::TargetSpec> spec = target::lookupTarget("tpu-v3");
  if (!spec.ok())
    return std::string(spec.status().message());
  CompilePipelineConfig config;
  mlir::PassManager frontEnd(&context), fusion(&context);
  buildFrontEndPipeline(frontEnd, config);
  buildFusionPipeline(fusion, config);
  if (mlir::failed(frontEnd.run(*compiled)) ||
      mlir::failed(fusion.run(*compiled)))
    return "the compile pipeline failed";
  codegen::CodegenOptions options;
  options.simplify = false;
  mlir::FailureOr<exe::Executable> proto =
      codegen::compileToExecutable(*compiled, *spec, options);
  if (mlir::failed(proto))
    return "code generation failed";
  absl::StatusOr<runtime::Executable> executable =
      runtime::validateExecutable(std::move(*proto));
  if (!executable.ok())
    return std::string(executable.status().message());
  // tpuc-run --random-inputs=1: the same generator, the parameter's type.
  for (auto [i, p] : llvm::enumerate(executable->proto().parameters())) {
    absl::StatusOr<hostio::HostArray> array = hostio::randomInput(
        kSeed, i, runtime::toHostDType(p.shape().dtype()),
        {p.shape().dims().begin(), p.shape().dims().end()});
    if (!array.ok())
      return std::string(array.status().message());
    out.emulatorInputs.push_back(std::move(*array));
  }
  out.executable = std::move(*executable);
  return "";
}

// Wall and CPU (every thread of the process) milliseconds of a part.
struct Clock {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  double cpu = cpuMs();
  static double cpuMs() {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
  }
  void addTo(double &wallMs, double &cpuMsTotal) const {
    wallMs += std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - wall)
                  .count();
    cpuMsTotal += cpuMs() - cpu;
  }
};

void BM_EmulatorVsInterpreter(benchmark::State &state, const Graph *graph) {
  ToolContext tool;
  mlir::MLIRContext &context = tool.get();
  mlir::OwningOpRef<mlir::ModuleOp> module;
  Prepared prepared;
  if (std::string error = prepare(context, *graph, module, prepared);
      !error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  mlir::func::FuncOp entry = entryOf(*module);
  const runtime::Executable &executable = *prepared.executable;
  runtime::EmulatorDevice stepDevice(executable.target());
  if (graph->step) {
    if (absl::Status s = runtime::loadInputs(stepDevice, executable,
                                             prepared.emulatorInputs);
        !s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
      return;
    }
  }
  double interpMs = 0, emuMs = 0, interpCpuMs = 0, emuCpuMs = 0;
  int64_t instructions = 0;
  for (auto _ : state) {
    Clock interpClock;
    auto results = interpreter::interpret(entry, prepared.interpreterArgs);
    interpClock.addTo(interpMs, interpCpuMs);
    if (mlir::failed(results)) {
      state.SkipWithError("the interpreter failed");
      return;
    }
    Clock emuClock;
    absl::StatusOr<runtime::ExecutionProfile> profile;
    if (graph->step) {
      profile = stepDevice.execute(executable, {});
    } else {
      runtime::EmulatorDevice device(executable.target());
      absl::StatusOr<runtime::RunResult> run =
          runtime::runExecutable(device, executable, prepared.emulatorInputs);
      if (run.ok())
        profile = std::move(run->profile);
      else
        profile = run.status();
    }
    emuClock.addTo(emuMs, emuCpuMs);
    if (!profile.ok()) {
      state.SkipWithError(std::string(profile.status().message()).c_str());
      return;
    }
    instructions = profile->instructionsExecuted;
  }
  double n = static_cast<double>(state.iterations());
  state.counters["interp_ms"] = interpMs / n;
  state.counters["emu_ms"] = emuMs / n;
  state.counters["emu_over_interp"] = emuMs / interpMs;
  state.counters["interp_cpu_ms"] = interpCpuMs / n;
  state.counters["emu_cpu_ms"] = emuCpuMs / n;
  state.counters["instructions"] = static_cast<double>(instructions);
  state.SetLabel(runtime::kernelPathName(runtime::bestKernelPath()));
}

} // namespace
} // namespace tpuc

int main(int argc, char **argv) {
  for (const tpuc::Graph &graph : tpuc::kGraphs)
    benchmark::RegisterBenchmark(
        (std::string("BM_EmulatorVsInterpreter/") + graph.name).c_str(),
        tpuc::BM_EmulatorVsInterpreter, &graph)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(graph.iterations);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
