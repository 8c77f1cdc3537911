// tpuc-bench-codegen: matmuls compiled by tpuc-convert-hlo-to-tpu (not the
// hand-written program of tpuc-bench-runtime), timing only: the modeled
// cycles against the MXU roofline, on tpu-v3 (BM_CompiledMatmul) and on
// every preset (BM_Matmul4096EveryTarget). The figures of docs/codegen.md
// ("Figures") and docs/performance.md come from
//   build/bin/tpuc-bench-codegen --benchmark_filter=Compiled
// Args: n (an [n,n] x [n,n] matmul), element type (0 bf16, 1 f32), and
// for f32 the MXU passes per product (--dot-precision 0 default, 1 high,
// 2 highest).
#include "driver/codegen/Codegen.h"
#include "dialects/hlo/HloDialect.h"
#include "dialects/tpu/TpuDialect.h"
#include "runtime/emulator/EmulatorDevice.h"
#include "runtime/loader/Executable.h"
#include "runtime/loader/Layout.h"
#include "runtime/loader/Run.h"
#include "runtime/target/Targets.h"

#include "benchmark/benchmark.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

#include <string>

namespace tpuc {
namespace {

std::string matmulSource(int64_t n, const std::string &elem) {
  return llvm::formatv(R"mlir(
func.func @mm(%a: tensor<{0}x{0}x{1}>, %b: tensor<{0}x{0}x{1}>) -> tensor<{0}x{0}xf32> {{
  %d = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<{0}x{0}x{1}>, tensor<{0}x{0}x{1}>) -> tensor<{0}x{0}xf32>
  return %d : tensor<{0}x{0}xf32>
})mlir",
                       n, elem)
      .str();
}

// Compiles the n^3 matmul for `spec` and runs it timing-only; false (after
// SkipWithError) when that fails.
bool timeMatmul(benchmark::State &state, const target::TargetSpec &spec,
                int64_t n, bool f32, DotPrecision precision,
                runtime::ExecutionProfile &profile) {
  mlir::DialectRegistry registry;
  registry.insert<hlo::HloDialect, tpu::TpuDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect>();
  mlir::func::registerInlinerExtension(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(
          matmulSource(n, f32 ? "f32" : "bf16"), &context);
  codegen::CodegenOptions options;
  options.dotPrecision = precision;
  mlir::FailureOr<exe::Executable> proto =
      codegen::compileToExecutable(*module, spec, options);
  if (failed(proto)) {
    state.SkipWithError("compilation failed");
    return false;
  }
  absl::StatusOr<runtime::Executable> e = runtime::validateExecutable(*proto);
  if (!e.ok()) {
    state.SkipWithError(std::string(e.status().message()).c_str());
    return false;
  }
  runtime::ExecuteOptions execute;
  execute.functional = false;
  for (auto _ : state) {
    runtime::EmulatorDevice device(e->target());
    std::vector<hostio::HostArray> inputs;
    for (const exe::Parameter &p : e->proto().parameters())
      inputs.push_back(hostio::HostArray::zeros(
                           runtime::toHostDType(p.shape().dtype()),
                           {p.shape().dims().begin(), p.shape().dims().end()})
                           .value());
    absl::StatusOr<runtime::RunResult> r =
        runtime::runExecutable(device, *e, inputs, execute);
    if (!r.ok()) {
      state.SkipWithError(std::string(r.status().message()).c_str());
      return false;
    }
    profile = r->profile;
  }
  return true;
}

// The counters of an n^3 matmul: modeled cycles against the MXU roofline
// of the target (mxu_count D x D arrays, one MAC per cell per cycle).
void setMatmulCounters(benchmark::State &state, const exe::Target &t,
                       int64_t n, const runtime::ExecutionProfile &profile) {
  double macs = double(n) * n * n;
  double peakMacsPerCycle =
      double(t.mxu_rows()) * t.mxu_cols() * t.mxu_count();
  state.counters["cycles"] = double(profile.cycles);
  state.counters["roofline_cycles"] = macs / peakMacsPerCycle;
  // Useful MACs over the peak: extra bf16 passes count as overhead.
  state.counters["mxu_util"] = macs / peakMacsPerCycle / double(profile.cycles);
  state.counters["instructions"] = double(profile.instructionsExecuted);
}

void BM_CompiledMatmul(benchmark::State &state) {
  int64_t n = state.range(0);
  bool f32 = state.range(1) == 1;
  static const char *const names[] = {"default", "high", "highest"};
  static const DotPrecision precisions[] = {
      DotPrecision::Default, DotPrecision::High, DotPrecision::Highest};
  DotPrecision precision = precisions[state.range(2)];
  target::TargetSpec spec = *target::lookupTarget("tpu-v3");
  runtime::ExecutionProfile profile;
  if (!timeMatmul(state, spec, n, f32, precision, profile))
    return;
  state.SetLabel(std::string(f32 ? "f32 " : "bf16 ") + names[state.range(2)]);
  setMatmulCounters(state, spec.machine, n, profile);
}
BENCHMARK(BM_CompiledMatmul)
    ->Args({1024, 0, 0})
    ->Args({4096, 0, 0})
    ->Args({1024, 1, 0})
    ->Args({1024, 1, 1})
    ->Args({1024, 1, 2})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// The 4096^3 bf16 matmul on every target preset (arg: the preset's index
// in generation order; the label names it and its MXUs), side by side:
//   build/bin/tpuc-bench-codegen --benchmark_filter=EveryTarget
void BM_Matmul4096EveryTarget(benchmark::State &state) {
  const target::TargetSpec &spec = target::targetPresets()[state.range(0)];
  runtime::ExecutionProfile profile;
  if (!timeMatmul(state, spec, 4096, false, DotPrecision::Default, profile))
    return;
  const exe::Target &t = spec.machine;
  state.SetLabel(t.name() + " " + std::to_string(t.mxu_count()) + "x" +
                 std::to_string(t.mxu_rows()) + "x" +
                 std::to_string(t.mxu_cols()) + " MXUs");
  setMatmulCounters(state, t, 4096, profile);
}
BENCHMARK(BM_Matmul4096EveryTarget)
    ->DenseRange(0, int64_t(target::targetPresets().size()) - 1)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

} // namespace
} // namespace tpuc

BENCHMARK_MAIN();
