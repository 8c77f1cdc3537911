//===- FitCommand.cpp - `tpuc fit` -----------------------------------------===//
//
// Where does the step fit? For every target preset (or --targets), the
// compile pipeline up to the HBM plan (the same passes and the same plan as
// `tpuc compile --target=T`), then:
//  - fits / used / limit / padding at the peak, from the plan;
//  - the modeled step time and MXU utilization of the configuration that
//    fits, from code generation and a timing-only run of the emulator;
//  - where the configuration as given does not fit, the flags that would
//    make it fit (the cheaper configurations tpuc can build today: mixed
//    bfloat16, layout assignment, fusion), each with the HBM it needs.
// docs/fit.md describes the output.
//
//===----------------------------------------------------------------------===//

#include "compiler/analysis/BufferAssignment.h"
#include "driver/codegen/Codegen.h"
#include "driver/commands/Commands.h"
#include "driver/commands/Fit.h"
#include "compiler/importer/ModuleLoader.h"
#include "compiler/report/Reports.h"
#include "passes/Passes.h"
#include "runtime/emulator/EmulatorDevice.h"
#include "runtime/loader/Executable.h"
#include "runtime/loader/Layout.h"
#include "runtime/loader/Run.h"
#include "runtime/target/Targets.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <optional>

namespace cl = llvm::cl;

namespace tpuc::driver {
namespace {

enum class FitFormat { Text, Json };

cl::SubCommand fitSub(
    "fit", "Where does the step fit: per target preset, HBM used against the "
           "limit, padding, modeled step time and MXU utilization, and the "
           "flags that make it fit where it does not");
cl::opt<std::string> fitInput(cl::Positional, cl::Required,
                              cl::desc("<input .hlo/.txt/.mlir>"),
                              cl::sub(fitSub), cl::cat(toolCategory()));
cl::list<std::string> fitTargets(
    "targets", cl::desc("Target presets to try (default: every preset)"),
    cl::CommaSeparated, cl::value_desc("t1,t2,..."), cl::sub(fitSub),
    cl::cat(toolCategory()));
cl::opt<std::string> fitPrecision(
    "precision", cl::desc("The step's precision as given: f32 (as written) "
                          "or mixed_bfloat16"),
    cl::value_desc("f32|mixed_bfloat16"),
    cl::init("f32"), cl::sub(fitSub), cl::cat(toolCategory()));
cl::opt<std::string> fitLayout(
    "layout", cl::desc("The step's layouts as given: auto or preserve"),
    cl::value_desc("auto|preserve"),
    cl::init("auto"), cl::sub(fitSub), cl::cat(toolCategory()));
cl::opt<std::string> fitFusion(
    "fusion", cl::desc("Fusion as given: on or off"), cl::value_desc("on|off"),
    cl::init("on"),
    cl::sub(fitSub), cl::cat(toolCategory()));
cl::opt<bool> fitRemat(
    "remat", cl::desc("The step as given is compiled with --remat"),
    cl::sub(fitSub), cl::cat(toolCategory()));
cl::opt<bool> fitTiming(
    "timing",
    cl::desc("Model the step time of the configuration that fits (code "
             "generation and a timing-only emulator run per target; "
             "--timing=false plans memory only)"),
    cl::init(true), cl::sub(fitSub), cl::cat(toolCategory()));
cl::opt<std::string> fitBatch(
    "batch",
    cl::desc("Search the largest batch that fits each target: PARAM is the "
             "entry parameter (index, HLO name or op_name) and DIM its batch "
             "dimension; the graph is re-specialized along it "
             "(tpuc-resize-batch)"),
    cl::value_desc("PARAM:DIM"), cl::sub(fitSub), cl::cat(toolCategory()));
cl::opt<FitFormat> fitFormat(
    "report-format", cl::desc("Output format"), cl::value_desc("text|json"),
    cl::values(clEnumValN(FitFormat::Text, "text", "a table"),
               clEnumValN(FitFormat::Json, "json",
                          "one object per target (docs/fit.md)")),
    cl::init(FitFormat::Text), cl::sub(fitSub), cl::cat(toolCategory()));

int fitError(const llvm::Twine &message) {
  llvm::errs() << "tpuc fit: error: " << message << "\n";
  return 1;
}

/// The tpuc compile flags that build `config`: precision, layout and fusion
/// always, --remat when on.
std::vector<std::string> flagsFor(const CompilePipelineConfig &config) {
  std::vector<std::string> flags = {
      config.mixedBfloat16 ? "--precision=mixed_bfloat16" : "--precision=f32",
      config.assignLayouts ? "--layout=auto" : "--layout=preserve",
      config.fusion ? "--fusion=on" : "--fusion=off"};
  if (config.remat)
    flags.push_back("--remat");
  return flags;
}

/// The flags of `config` that differ from the configuration as given.
std::string flagsOf(const CompilePipelineConfig &config,
                    const CompilePipelineConfig &given) {
  std::vector<std::string> all = flagsFor(config), base = flagsFor(given);
  std::vector<std::string> changed;
  for (const std::string &flag : all)
    if (!llvm::is_contained(base, flag))
      changed.push_back(flag);
  return llvm::join(changed, " ");
}

/// Padding live at the peak: the arguments' and the peak heap's.
int64_t paddingAtPeak(const analysis::MemoryPlan &plan) {
  int64_t padding = plan.lowerBoundBytes - plan.unpaddedPeakBytes;
  for (const analysis::Allocation &a : plan.allocations)
    if (a.kind == analysis::AllocationKind::Parameter)
      padding += a.paddedBytes - a.unpaddedBytes;
  return padding;
}

/// Models one step of `module` (the fused hlo stage) on `spec` with the
/// emulator's timing model: no values are computed.
void modelStepTime(mlir::ModuleOp module, const target::TargetSpec &spec,
                   const CompilePipelineConfig &config, Measurement &m) {
  codegen::CodegenOptions options;
  options.simplify = false;
  options.dotPrecision = config.dotPrecision;
  mlir::FailureOr<exe::Executable> proto =
      codegen::compileToExecutable(module, spec, options);
  if (mlir::failed(proto)) {
    m.timingError = "code generation failed (see the diagnostics above)";
    return;
  }
  absl::StatusOr<runtime::Executable> executable =
      runtime::validateExecutable(std::move(*proto));
  if (!executable.ok()) {
    m.timingError = std::string(executable.status().message());
    return;
  }
  // Timing-only runs compute no values; the inputs only need the right
  // shapes.
  std::vector<hostio::HostArray> inputs;
  for (const exe::Parameter &p : executable->proto().parameters()) {
    std::vector<int64_t> dims(p.shape().dims().begin(),
                              p.shape().dims().end());
    absl::StatusOr<hostio::HostArray> zeros = hostio::HostArray::zeros(
        runtime::toHostDType(p.shape().dtype()), std::move(dims));
    if (!zeros.ok()) {
      m.timingError = std::string(zeros.status().message());
      return;
    }
    inputs.push_back(std::move(*zeros));
  }
  runtime::EmulatorDevice device(executable->target());
  runtime::ExecuteOptions run;
  run.functional = false;
  absl::StatusOr<runtime::RunResult> result =
      runtime::runExecutable(device, *executable, inputs, run);
  if (!result.ok()) {
    m.timingError = std::string(result.status().message());
    return;
  }
  m.stepSeconds = result->profile.seconds;
  m.cycles = result->profile.cycles;
  m.mxuUtilization = result->profile.mxuUtilization;
}

} // namespace

std::optional<Measurement> measureFit(mlir::ModuleOp module,
                                      const target::TargetSpec &spec,
                                      const CompilePipelineConfig &config,
                                      const CompilePipelineConfig &given,
                                      bool timing) {
  mlir::OwningOpRef<mlir::ModuleOp> copy = module.clone();
  mlir::PassManager pm(module.getContext());
  buildFrontEndPipeline(pm, config);
  buildFusionPipeline(pm, config);
  if (mlir::failed(pm.run(*copy)))
    return std::nullopt;
  mlir::FailureOr<analysis::MemoryPlan> plan =
      analysis::planMemory(*copy, spec);
  if (mlir::failed(plan))
    return std::nullopt;
  Measurement m;
  m.flags = flagsOf(config, given);
  m.usedBytes = plan->usedBytes();
  m.limitBytes = plan->usableBytes();
  m.reservedBytes = plan->reservedBytes;
  m.peakHeapBytes = plan->heapBytes;
  m.paddingBytes = paddingAtPeak(*plan);
  m.fits = plan->fits();
  if (timing && m.fits)
    modelStepTime(*copy, spec, config, m);
  return m;
}

namespace {

/// Each flag of tpuc compile that changes HBM use and differs from `given`,
/// alone, then all of them together.
std::vector<CompilePipelineConfig>
candidateFixes(const CompilePipelineConfig &given) {
  std::vector<CompilePipelineConfig> fixes;
  CompilePipelineConfig all = given;
  auto add = [&](auto change) {
    CompilePipelineConfig fix = given;
    change(fix);
    change(all);
    fixes.push_back(fix);
  };
  if (!given.assignLayouts)
    add([](CompilePipelineConfig &c) { c.assignLayouts = true; });
  if (!given.fusion)
    add([](CompilePipelineConfig &c) { c.fusion = true; });
  if (!given.remat)
    add([](CompilePipelineConfig &c) { c.remat = true; });
  if (!given.mixedBfloat16)
    add([](CompilePipelineConfig &c) { c.mixedBfloat16 = true; });
  if (fixes.size() > 1)
    fixes.push_back(all);
  return fixes;
}

} // namespace

std::optional<std::vector<Measurement>>
searchFixes(mlir::ModuleOp module, const target::TargetSpec &spec,
            const CompilePipelineConfig &given, bool timing) {
  std::vector<Measurement> measured;
  bool timedOne = false;
  for (const CompilePipelineConfig &fix : candidateFixes(given)) {
    std::optional<Measurement> m =
        measureFit(module, spec, fix, given, timing && !timedOne);
    if (!m)
      return std::nullopt;
    timedOne |= m->fits;
    measured.push_back(std::move(*m));
  }
  return measured;
}

namespace {

struct TargetVerdict {
  std::string target;
  Measurement given;
  std::vector<Measurement> fixes; // only where `given` does not fit
};

llvm::json::Value measurementJson(const Measurement &m) {
  llvm::json::Object o{
      {"fits", m.fits},
      {"used_bytes", m.usedBytes},
      {"capacity_bytes", m.limitBytes},
      {"reserved_bytes", m.reservedBytes},
      {"heap_bytes", m.peakHeapBytes},
      {"padding_bytes", m.paddingBytes},
      {"step_seconds", m.stepSeconds ? llvm::json::Value(*m.stepSeconds)
                                     : llvm::json::Value(nullptr)},
  };
  if (m.stepSeconds) {
    o["cycles"] = static_cast<int64_t>(m.cycles);
    o["mxu_utilization"] = m.mxuUtilization;
  }
  if (!m.timingError.empty())
    o["timing_error"] = m.timingError;
  return o;
}

void printJson(const std::vector<TargetVerdict> &verdicts) {
  llvm::json::Array targets;
  for (const TargetVerdict &v : verdicts) {
    llvm::json::Object o = std::move(*measurementJson(v.given).getAsObject());
    o["target"] = v.target;
    llvm::json::Array fixes;
    for (const Measurement &fix : v.fixes) {
      llvm::json::Object f = std::move(*measurementJson(fix).getAsObject());
      f["flags"] = fix.flags;
      fixes.push_back(std::move(f));
    }
    o["fixes"] = std::move(fixes);
    targets.push_back(std::move(o));
  }
  llvm::outs() << llvm::formatv(
      "{0:2}\n", llvm::json::Value(llvm::json::Object{
                     {"module", fitInput.getValue()},
                     {"targets", std::move(targets)}}));
}

std::string formatSeconds(const Measurement &m) {
  if (!m.stepSeconds)
    return m.timingError.empty() ? "-" : "error";
  double s = *m.stepSeconds;
  if (s >= 1)
    return llvm::formatv("{0:f2}s", s).str();
  if (s >= 1e-3)
    return llvm::formatv("{0:f2}ms", s * 1e3).str();
  return llvm::formatv("{0:f1}us", s * 1e6).str();
}

void printText(const std::vector<TargetVerdict> &verdicts,
               const CompilePipelineConfig &given) {
  llvm::raw_ostream &os = llvm::outs();
  os << "tpuc fit: " << fitInput << " as given ("
     << llvm::join(flagsFor(given), " ") << ")\n";
  os << llvm::format("%-9s %-4s %-9s %-9s %-6s %-9s %-10s %-5s %s\n",
                     "target", "fits", "used", "limit", "use", "padding",
                     "step", "MXU", "to fit");
  for (const TargetVerdict &v : verdicts) {
    const Measurement &m = v.given;
    std::string advice = "-";
    if (!m.fits) {
      advice = "no flag makes it fit (sharding: not yet)";
      for (const Measurement &fix : v.fixes)
        if (fix.fits) {
          advice = fix.flags + " (" + report::formatBytes(fix.usedBytes) +
                   ", step " + formatSeconds(fix) + ")";
          break;
        }
    }
    std::string mxu =
        m.stepSeconds ? llvm::formatv("{0:f0}%", m.mxuUtilization * 100).str()
                      : "-";
    os << llvm::format(
        "%-9s %-4s %-9s %-9s %-6s %-9s %-10s %-5s %s\n", v.target.c_str(),
        m.fits ? "yes" : "no", report::formatBytes(m.usedBytes).c_str(),
        report::formatBytes(m.limitBytes).c_str(),
        llvm::formatv("{0:f0}%", 100.0 * m.usedBytes /
                                     std::max<int64_t>(m.limitBytes, 1))
            .str()
            .c_str(),
        report::formatBytes(m.paddingBytes).c_str(),
        formatSeconds(m).c_str(), mxu.c_str(), advice.c_str());
  }
  for (const TargetVerdict &v : verdicts)
    if (!v.given.timingError.empty())
      os << v.target << ": step time not modeled: " << v.given.timingError
         << "\n";
}

/// The batch table: per target, the largest batch and the largest multiple
/// of 8 that fit, with the HBM used and the step time at each.
void printBatchText(const std::vector<std::pair<std::string, BatchFit>> &fits,
                    const BatchDimension &batch,
                    const CompilePipelineConfig &given) {
  llvm::raw_ostream &os = llvm::outs();
  os << "tpuc fit: " << fitInput << ", batch = parameter " << batch.parameter
     << " (" << batch.name << ") dimension " << batch.dimension << ", "
     << batch.size << " as written (" << llvm::join(flagsFor(given), " ")
     << ")\n";
  os << llvm::format("%-9s %-10s %-9s %-9s %-5s %-10s | %-10s %-9s %s\n",
                     "target", "max batch", "used", "limit", "use", "step",
                     "max 8k", "used", "step");
  bool extrapolated = false;
  for (const auto &[target, f] : fits) {
    if (f.maxBatch == 0) {
      os << llvm::format("%-9s %s\n", target.c_str(),
                         "does not fit at batch 1");
      continue;
    }
    auto use = [](const Measurement &m) {
      return llvm::formatv("{0:f0}%", 100.0 * m.usedBytes /
                                          std::max<int64_t>(m.limitBytes, 1))
          .str();
    };
    std::string step8 = "-", used8 = "-", max8 = "-";
    if (f.maxMultipleOf8 > 0) {
      max8 = std::to_string(f.maxMultipleOf8);
      used8 = report::formatBytes(f.atMultipleOf8.usedBytes);
      step8 = formatSeconds(f.atMultipleOf8);
    }
    extrapolated |= f.extrapolated;
    os << llvm::format(
        "%-9s %-10lld %-9s %-9s %-5s %-10s | %-10s %-9s %s\n", target.c_str(),
        static_cast<long long>(f.maxBatch),
        report::formatBytes(f.atMax.usedBytes).c_str(),
        report::formatBytes(f.atMax.limitBytes).c_str(), use(f.atMax).c_str(),
        formatSeconds(f.atMax).c_str(), max8.c_str(), used8.c_str(),
        step8.c_str());
  }
  os << "(max 8k: the largest multiple of 8 that fits";
  if (extrapolated)
    os << "; step times beyond batch " << kMaxTimedBatch
       << " are extrapolated linearly from the modeled times at "
       << kMaxTimedBatch / 2 << " and " << kMaxTimedBatch;
  os << ")\n";
}

void printBatchJson(const std::vector<std::pair<std::string, BatchFit>> &fits,
                    const BatchDimension &batch) {
  llvm::json::Array targets;
  for (const auto &[target, f] : fits) {
    auto at = [](const Measurement &m, int64_t size) {
      return llvm::json::Object{
          {"batch", size},
          {"used_bytes", m.usedBytes},
          {"step_seconds", m.stepSeconds ? llvm::json::Value(*m.stepSeconds)
                                         : llvm::json::Value(nullptr)}};
    };
    llvm::json::Object o{
        {"target", target},
        {"max_batch", f.maxBatch},
        {"used_bytes", f.maxBatch ? f.atMax.usedBytes : 0},
        {"capacity_bytes", f.atMax.limitBytes},
        {"step_seconds", f.atMax.stepSeconds
                             ? llvm::json::Value(*f.atMax.stepSeconds)
                             : llvm::json::Value(nullptr)},
        {"step_extrapolated", f.extrapolated},
        {"max_batch_multiple_of_8", f.maxMultipleOf8},
    };
    if (f.maxMultipleOf8 > 0)
      o["multiple_of_8"] = at(f.atMultipleOf8, f.maxMultipleOf8);
    if (!f.atMax.timingError.empty())
      o["timing_error"] = f.atMax.timingError;
    targets.push_back(std::move(o));
  }
  llvm::outs() << llvm::formatv(
      "{0:2}\n", llvm::json::Value(llvm::json::Object{
                     {"module", fitInput.getValue()},
                     {"parameter", static_cast<int64_t>(batch.parameter)},
                     {"parameter_name", batch.name},
                     {"dimension", batch.dimension},
                     {"batch_as_written", batch.size},
                     {"targets", std::move(targets)}}));
}

/// `tpuc fit --batch=PARAM:DIM`.
int runBatchSearch(mlir::ModuleOp module,
                   const std::vector<target::TargetSpec> &specs,
                   const CompilePipelineConfig &given) {
  llvm::StringRef spec = fitBatch;
  auto [param, dimText] = spec.rsplit(':');
  int64_t dim = 0;
  if (param.empty() || dimText.empty() || dimText.getAsInteger(10, dim))
    return fitError("--batch takes PARAM:DIM (a parameter and its batch "
                    "dimension, e.g. x:0 or 4:0), got '" + fitBatch + "'");
  // The resizing works on one function: inline the calls first.
  mlir::PassManager pm(module.getContext());
  pm.addPass(mlir::createInlinerPass());
  if (mlir::failed(pm.run(module)))
    return 1;
  mlir::FailureOr<BatchDimension> batch =
      findBatchDimension(module, param, dim);
  if (mlir::failed(batch))
    return 1;
  // A graph that hard-codes the batch fails here, before any target.
  {
    mlir::OwningOpRef<mlir::ModuleOp> copy = module.clone();
    mlir::FailureOr<BatchDimension> check =
        findBatchDimension(*copy, param, dim);
    if (mlir::failed(check) || mlir::failed(resizeBatch(*check, batch->size)))
      return 1;
  }
  std::vector<std::pair<std::string, BatchFit>> fits;
  for (const target::TargetSpec &target : specs) {
    CompilePipelineConfig config = given;
    config.target = target.machine.name();
    std::optional<BatchFit> f =
        searchBatch(module, target, config, param, dim, fitTiming);
    if (!f)
      return 1;
    fits.emplace_back(config.target, std::move(*f));
  }
  if (fitFormat == FitFormat::Json)
    printBatchJson(fits, *batch);
  else
    printBatchText(fits, *batch, given);
  return 0;
}

int runFit() {
  CompilePipelineConfig given;
  if (fitPrecision != "f32" && fitPrecision != "mixed_bfloat16")
    return fitError("--precision: '" + fitPrecision +
                    "' is not one of f32, mixed_bfloat16");
  if (fitLayout != "auto" && fitLayout != "preserve")
    return fitError("--layout: '" + fitLayout +
                    "' is not one of auto, preserve");
  if (fitFusion != "on" && fitFusion != "off")
    return fitError("--fusion: '" + fitFusion + "' is not one of on, off");
  given.mixedBfloat16 = fitPrecision == "mixed_bfloat16";
  given.assignLayouts = fitLayout == "auto";
  given.fusion = fitFusion == "on";
  given.remat = fitRemat;

  std::vector<target::TargetSpec> specs;
  if (fitTargets.empty()) {
    specs = target::targetPresets();
  } else {
    for (const std::string &name : fitTargets) {
      absl::StatusOr<target::TargetSpec> spec = target::lookupTarget(name);
      if (!spec.ok())
        return fitError("--targets: " + std::string(spec.status().message()));
      specs.push_back(*spec);
    }
  }

  ToolContext tool;
  mlir::MLIRContext &context = tool.get();
  mlir::OwningOpRef<mlir::ModuleOp> module = loadModule(fitInput, context);
  if (!module)
    return 1;
  if (fitBatch.getNumOccurrences())
    return runBatchSearch(*module, specs, given);

  std::vector<TargetVerdict> verdicts;
  for (const target::TargetSpec &spec : specs) {
    TargetVerdict verdict;
    verdict.target = spec.machine.name();
    CompilePipelineConfig config = given;
    config.target = verdict.target;
    std::optional<Measurement> m =
        measureFit(*module, spec, config, config, fitTiming);
    if (!m)
      return 1;
    verdict.given = std::move(*m);
    if (!verdict.given.fits) {
      std::optional<std::vector<Measurement>> fixes =
          searchFixes(*module, spec, config, fitTiming);
      if (!fixes)
        return 1;
      verdict.fixes = std::move(*fixes);
    }
    verdicts.push_back(std::move(verdict));
  }
  if (fitFormat == FitFormat::Json)
    printJson(verdicts);
  else
    printText(verdicts, given);
  return 0;
}

} // namespace

Command fitCommand{fitSub, runFit};

} // namespace tpuc::driver
