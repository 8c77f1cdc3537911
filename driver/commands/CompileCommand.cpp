//===- CompileCommand.cpp - `tpuc compile` ---------------------------------===//
//
// The whole pipeline: import, inline calls, while-loop LICM and
// simplification, mixed precision (--precision), float normalization and
// canonicalization (stage "hlo"), fusion (--fusion)
// and layout assignment (--layout; stage "fused"), HBM planning and the
// padding, memory and fusion reports, then code generation: the tpu
// dialect (stage "tpu") and the executable (stage "exe"). --data-parallel
// first splits the step over a slice's devices. -o writes the
// stage --emit names; --dump-dir writes every stage reached.
//
//===----------------------------------------------------------------------===//

#include "compiler/analysis/BufferAssignment.h"
#include "driver/codegen/Codegen.h"
#include "driver/commands/Commands.h"
#include "driver/commands/Fit.h"
#include "driver/commands/Output.h"
#include "compiler/importer/ModuleLoader.h"
#include "compiler/report/Reports.h"
#include "compiler/report/StepModel.h"
#include "compiler/serializer/Serializer.h"
#include "passes/ModuleTarget.h"
#include "passes/Passes.h"
#include "runtime/target/Targets.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace cl = llvm::cl;

namespace tpuc::driver {
namespace {

enum class LayoutMode { Preserve, Auto };
enum class ReportKind { Padding, Memory, Fusion, Step, Scaling };
enum class Precision { F32, MixedBfloat16 };
enum class FusionMode { Off, On };
enum class ReportFormat { Text, Json };
enum class Stage { Hlo, Fused, Tpu, Exe };

cl::SubCommand compileSub(
    "compile", "Compile an HLO module for a TPU target: layouts, HBM buffer "
               "assignment, padding and memory reports");
cl::opt<std::string> input(cl::Positional, cl::Required,
                           cl::desc("<input .hlo/.txt/.mlir>"),
                           cl::sub(compileSub), cl::cat(toolCategory()));
cl::opt<std::string> output(
    "o", cl::desc("Write the stage --emit names (default: the executable)"),
    cl::value_desc("file"), cl::sub(compileSub), cl::cat(toolCategory()));
cl::opt<Stage> emit(
    "emit", cl::desc("What -o writes"), cl::value_desc("hlo|fused|tpu|exe"),
    cl::values(
        clEnumValN(Stage::Hlo, "hlo",
                   "the hlo dialect after simplification and precision"),
        clEnumValN(Stage::Fused, "fused",
                   "the hlo dialect after fusion and layout assignment"),
        clEnumValN(Stage::Tpu, "tpu", "the tpu dialect (machine level)"),
        clEnumValN(Stage::Exe, "exe",
                   "the executable (binary protobuf, for tpuc-run)")),
    cl::init(Stage::Exe), cl::sub(compileSub), cl::cat(toolCategory()));
cl::opt<std::string> dumpDir(
    "dump-dir",
    cl::desc("Write the IR of every stage reached to DIR/0N-<stage>.mlir "
             "and the IR after every pass to DIR/passes/NNN-<pass>.mlir "
             "(as XLA's --xla_dump_to)"),
    cl::value_desc("dir"), cl::sub(compileSub), cl::cat(toolCategory()));
cl::opt<std::string> targetName(
    "target", cl::desc("Target preset (see 'tpuc targets')"),
    cl::value_desc("preset"),
    cl::init(target::kDefaultTarget), cl::sub(compileSub),
    cl::cat(toolCategory()));
cl::opt<std::string> hbmCapacity(
    "hbm-capacity", cl::desc("Override the target's HBM capacity (16GiB, 1.5G, "
                             "17179869184)"),
    cl::value_desc("bytes"), cl::sub(compileSub), cl::cat(toolCategory()));
cl::opt<std::string> hbmReserved(
    "hbm-reserved", cl::desc("Override the runtime-reserved HBM (530MiB)"),
    cl::value_desc("bytes"), cl::sub(compileSub), cl::cat(toolCategory()));
cl::opt<std::string> hbmLimit(
    "hbm-limit",
    cl::desc("Override the HBM a program may use (XLA's \"of 30.75G hbm\"); "
             "default: the preset's, or capacity - reserved when either is "
             "overridden"),
    cl::value_desc("bytes"), cl::sub(compileSub), cl::cat(toolCategory()));

cl::opt<std::string> vmemSize(
    "vmem", cl::desc("Override the VMEM of one core (16MiB on v2-v4)"),
    cl::value_desc("bytes"), cl::sub(compileSub), cl::cat(toolCategory()));
cl::opt<LayoutMode> layoutMode(
    "layout", cl::desc("Layout assignment"), cl::value_desc("auto|preserve"),
    cl::values(clEnumValN(LayoutMode::Preserve, "preserve",
                          "keep the layouts XLA recorded (TPU default tiles)"),
               clEnumValN(LayoutMode::Auto, "auto",
                          "choose padding-aware layouts for intermediates")),
    cl::init(LayoutMode::Auto), cl::sub(compileSub), cl::cat(toolCategory()));
cl::list<ReportKind> reports(
    "report", cl::desc("Reports to print (comma separated)"),
    cl::value_desc("padding,memory,fusion,step,scaling"),
    cl::values(clEnumValN(ReportKind::Padding, "padding",
                          "padding per buffer, with advice"),
               clEnumValN(ReportKind::Memory, "memory",
                          "HBM use in XLA's format"),
               clEnumValN(ReportKind::Fusion, "fusion",
                          "fusions, HBM traffic and peak memory with and "
                          "without fusion"),
               clEnumValN(ReportKind::Step, "step",
                          "modeled step of one device: compute, HBM and ICI "
                          "time, collective traffic per op"),
               clEnumValN(ReportKind::Scaling, "scaling",
                          "per-device HBM and modeled step on 1, 2, 4 ... "
                          "devices of the --target slice (data parallel)")),
    cl::CommaSeparated, cl::sub(compileSub), cl::cat(toolCategory()));
cl::opt<ReportFormat> reportFormat(
    "report-format", cl::desc("Report format"), cl::value_desc("text|json"),
    cl::values(clEnumValN(ReportFormat::Text, "text", "XLA-style text"),
               clEnumValN(ReportFormat::Json, "json",
                          "one JSON object (docs/reports.md)")),
    cl::init(ReportFormat::Text), cl::sub(compileSub),
    cl::cat(toolCategory()));
cl::opt<Precision> precision(
    "precision", cl::desc("Precision policy"),
    cl::value_desc("f32|mixed_bfloat16"),
    cl::values(clEnumValN(Precision::F32, "f32", "compute as written"),
               clEnumValN(Precision::MixedBfloat16, "mixed_bfloat16",
                          "Keras' mixed_bfloat16: bf16 compute and "
                          "activations, f32 variables and accumulation")),
    cl::init(Precision::F32), cl::sub(compileSub), cl::cat(toolCategory()));
cl::opt<FusionMode> fusionMode(
    "fusion", cl::desc("Fusion into hlo.fusion kernels"),
    cl::value_desc("on|off"),
    cl::values(clEnumValN(FusionMode::Off, "off", "one kernel per op"),
               clEnumValN(FusionMode::On, "on",
                          "loop, input, output and multi-output fusion")),
    cl::init(FusionMode::On), cl::sub(compileSub), cl::cat(toolCategory()));
cl::opt<DotPrecision> dotPrecision(
    "dot-precision",
    cl::desc("MXU passes for every f32 dot_general and convolution, "
             "overriding each op's precision_config: default (one bf16 "
             "pass), high (bf16x3), highest (bf16x6, f32-faithful); per-op "
             "(the default) follows each op"),
    cl::value_desc("per-op|default|high|highest"), dotPrecisionValues(),
    cl::init(DotPrecision::PerOp), cl::sub(compileSub),
    cl::cat(toolCategory()));
cl::opt<bool> remat(
    "remat",
    cl::desc("Rematerialize: when the program does not fit the target's "
             "usable HBM (after --hbm-limit/--hbm-capacity/--hbm-reserved), recompute "
             "values live across the peak instead of keeping them "
             "(XLA's HloRematerialization; docs/fit.md)"),
    cl::sub(compileSub), cl::cat(toolCategory()));
cl::opt<bool> dataParallel(
    "data-parallel",
    cl::desc("Split the step over every device of the --target slice "
             "(TPUStrategy's data parallelism, tpuc-data-parallel: "
             "non-donated parameters along dim 0, gradients all-reduced) "
             "before the rest of the pipeline; the reports are per device "
             "(docs/spmd.md)"),
    cl::sub(compileSub), cl::cat(toolCategory()));
cl::opt<std::string> memoryViewer(
    "memory-viewer", cl::desc("Write the memory viewer page (HTML)"),
    cl::value_desc("file.html"), cl::sub(compileSub), cl::cat(toolCategory()));

int fail(const llvm::Twine &message) {
  llvm::errs() << "tpuc: error: " << message << "\n";
  return 1;
}

/// The target with the command line's overrides applied.
std::optional<target::TargetSpec> selectTarget() {
  absl::StatusOr<target::TargetSpec> spec = target::lookupTarget(targetName);
  if (!spec.ok()) {
    fail(std::string(spec.status().message()));
    return std::nullopt;
  }
  exe::Target &t = spec->machine;
  for (auto [flag, text] : {std::pair{"--hbm-capacity", &hbmCapacity},
                            std::pair{"--hbm-reserved", &hbmReserved},
                            std::pair{"--hbm-limit", &hbmLimit},
                            std::pair{"--vmem", &vmemSize}}) {
    if (text->empty())
      continue;
    absl::StatusOr<uint64_t> bytes = target::parseByteSize(*text);
    if (!bytes.ok()) {
      fail(llvm::Twine(flag) + ": " + std::string(bytes.status().message()));
      return std::nullopt;
    }
    if (text == &hbmCapacity)
      t.set_hbm_bytes(*bytes);
    else if (text == &hbmReserved)
      t.set_hbm_reserved_bytes(*bytes);
    else if (text == &hbmLimit)
      t.set_hbm_limit_bytes(*bytes);
    else
      t.set_vmem_bytes(*bytes);
  }
  // The preset's limit belongs to its capacity and reservation.
  if (hbmLimit.empty() && (!hbmCapacity.empty() || !hbmReserved.empty()))
    t.set_hbm_limit_bytes(0);
  if (t.hbm_reserved_bytes() > t.hbm_bytes()) {
    fail("the reserved HBM exceeds the HBM capacity");
    return std::nullopt;
  }
  if (t.hbm_limit_bytes() > t.hbm_bytes()) {
    fail("the HBM limit exceeds the HBM capacity");
    return std::nullopt;
  }
  if (t.vmem_bytes() < (64u << 10) || t.vmem_bytes() > (256u << 20)) {
    fail("--vmem: " + vmemSize + " is outside 64KiB..256MiB (the range the "
         "loader accepts)");
    return std::nullopt;
  }
  return *spec;
}

int writeViewer(const analysis::MemoryPlan &plan,
                const report::ReportContext &context) {
  return writeFile(memoryViewer, [&](llvm::raw_ostream &os) {
    report::writeMemoryViewer(plan, context, os);
  });
}

/// Writes `module` as DIR/0N-<stage>.mlir when --dump-dir is given.
int dumpStage(Stage stage, mlir::ModuleOp module) {
  if (dumpDir.empty())
    return 0;
  static const char *const names[] = {"00-hlo", "01-fused", "02-tpu"};
  if (std::error_code error = llvm::sys::fs::create_directories(dumpDir))
    return fail("cannot create '" + dumpDir + "': " + error.message());
  llvm::SmallString<128> path(dumpDir.getValue());
  llvm::sys::path::append(path,
                          std::string(names[static_cast<int>(stage)]) + ".mlir");
  return writeModule(module, path, /*debugInfo=*/false);
}

/// --dump-dir's per-pass dumps: the module after every pass of every pass
/// manager of the command, numbered in the order the passes ran, as
/// DIR/passes/NNN-<pass argument>.mlir.
class PassDumper : public mlir::PassManager::IRPrinterConfig {
public:
  PassDumper(int &counter, int &status)
      : IRPrinterConfig(/*printModuleScope=*/true), counter(counter),
        status(status) {}
  void printAfterIfEnabled(mlir::Pass *pass, mlir::Operation *,
                           PrintCallbackFn print) override {
    llvm::SmallString<128> path(dumpDir.getValue());
    llvm::sys::path::append(path, "passes");
    if (std::error_code error = llvm::sys::fs::create_directories(path)) {
      status |= fail("cannot create '" + path + "': " + error.message());
      return;
    }
    llvm::StringRef name = pass->getArgument();
    if (name.empty())
      name = pass->getName();
    std::string number = std::to_string(counter++);
    if (number.size() < 3)
      number.insert(0, 3 - number.size(), '0');
    llvm::sys::path::append(path, number + "-" + name.str() + ".mlir");
    status |= writeFile(path, [&](llvm::raw_ostream &os) { print(os); });
  }

private:
  int &counter;
  int &status;
};

int passDumpCount = 0, passDumpStatus = 0;

/// Adds the per-pass dumps to `pm` when --dump-dir is given.
void instrument(mlir::PassManager &pm) {
  if (dumpDir.empty())
    return;
  pm.getContext()->disableMultithreading();
  pm.enableIRPrinting(
      std::make_unique<PassDumper>(passDumpCount, passDumpStatus));
}

/// Code generation options from the flags; `dumpStatus` collects the
/// --dump-dir writes of the tpu stage.
codegen::CodegenOptions codegenOptions(int &dumpStatus) {
  codegen::CodegenOptions options;
  options.simplify = false; // the front of the pipeline already did
  options.dotPrecision = dotPrecision;
  options.instrument = instrument;
  options.afterStage = [&dumpStatus](llvm::StringRef stage, mlir::ModuleOp m) {
    if (stage == "tpu")
      dumpStatus |= dumpStage(Stage::Tpu, m);
  };
  return options;
}

/// --emit=tpu: the tpu module, written to -o.
int writeTpuStage(mlir::ModuleOp module, const target::TargetSpec &spec) {
  int dumpStatus = 0;
  if (mlir::failed(codegen::lowerToTpu(module, spec, codegenOptions(dumpStatus))))
    return 1;
  if (dumpStatus || passDumpStatus)
    return 1;
  return output.empty() ? 0 : writeModule(module, output, false);
}

/// The executable of the fused module, its results named after the HLO
/// instructions the import recorded.
mlir::FailureOr<exe::Executable>
buildExecutable(mlir::ModuleOp module, const target::TargetSpec &spec,
                llvm::ArrayRef<serializer::ResultSource> resultSources) {
  int dumpStatus = 0;
  mlir::FailureOr<exe::Executable> executable =
      codegen::compileToExecutable(module, spec, codegenOptions(dumpStatus));
  if (mlir::failed(executable) || dumpStatus || passDumpStatus)
    return mlir::failure();
  for (auto [i, source] : llvm::enumerate(resultSources))
    if (!source.hloOp.empty() &&
        static_cast<int>(i) < executable->results_size()) {
      executable->mutable_results(i)->set_hlo_op(source.hloOp);
      executable->mutable_results(i)->set_op_name(source.opName);
    }
  return executable;
}

/// What the memory report says about the executable's HBM.
report::ExecutableHbm executableHbm(const exe::Executable &e) {
  report::ExecutableHbm hbm;
  hbm.usedBytes = e.hbm().used_bytes();
  hbm.argumentBytes = e.hbm().argument_bytes();
  hbm.constantBytes = e.hbm().constant_bytes();
  hbm.heapBytes = e.hbm().heap_bytes();
  hbm.plannedBuffers = e.hbm().planned_buffers();
  hbm.unplannedBuffers = e.hbm().unplanned_buffers();
  for (const exe::Buffer &b : e.buffers())
    if (b.heap() && !b.planned())
      hbm.largestUnplanned.push_back(
          {b.name(), int64_t(b.size()), b.live_first(), b.live_last()});
  llvm::stable_sort(hbm.largestUnplanned, [](const auto &x, const auto &y) {
    return x.bytes > y.bytes;
  });
  return hbm;
}

int writeExecutable(const exe::Executable &executable) {
  if (output.empty())
    return 0;
  std::string bytes;
  if (!executable.SerializeToString(&bytes))
    return fail("could not encode the executable");
  return writeFile(output, [&](llvm::raw_ostream &os) { os << bytes; });
}

/// After an out-of-memory report: what `tpuc fit` finds for the module, the
/// flags that would make it fit on this target and the presets it fits on
/// as given. Measured on the module as imported (read again).
void printFitAdvice(mlir::MLIRContext &context,
                    const target::TargetSpec &spec,
                    const CompilePipelineConfig &given) {
  if (input == "-") // standard input cannot be read twice
    return;
  mlir::OwningOpRef<mlir::ModuleOp> module = loadModule(input, context);
  if (!module)
    return;
  llvm::raw_ostream &os = llvm::errs();
  std::optional<std::vector<Measurement>> fixes =
      searchFixes(*module, spec, given, /*timing=*/false);
  if (!fixes)
    return;
  os << "tpuc fit: on " << spec.machine.name() << " (limit "
     << report::formatBytes(target::usableHbmBytes(spec.machine)) << "):\n";
  if (fixes->empty())
    os << "  no flag of tpuc compile lowers its HBM use further\n";
  for (const Measurement &fix : *fixes)
    os << "  " << fix.flags << ": needs " << report::formatBytes(fix.usedBytes)
       << (fix.fits ? ", fits" : ", does not fit") << "\n";
  std::string fitsOn;
  llvm::StringMap<int64_t> wholeBytes; // per preset, the step on one device
  for (const target::TargetSpec &preset : target::targetPresets()) {
    CompilePipelineConfig config = given;
    config.target = preset.machine.name();
    config.dataParallelDevices = 0; // one device of each preset
    std::optional<Measurement> m =
        measureFit(*module, preset, config, config, /*timing=*/false);
    if (m)
      wholeBytes[config.target] = m->usedBytes;
    if (m && m->fits)
      fitsOn += (fitsOn.empty() ? "" : ", ") + config.target;
  }
  os << "  as given, it fits on: " << (fitsOn.empty() ? "no preset" : fitsOn)
     << " (tpuc fit " << input << " for step times)\n";
  // Data parallelism: the step split over each slice (--data-parallel),
  // where that lowers the HBM of a device; the first reason it does not
  // split, otherwise.
  if (report::moduleDeviceCount(*module) > 1)
    return;
  std::string reason;
  bool splits = false;
  for (const target::SliceSpec &slice : target::slicePresets()) {
    absl::StatusOr<target::TargetSpec> device =
        target::lookupTarget(slice.device);
    if (!device.ok())
      continue;
    CompilePipelineConfig config = given;
    config.target = slice.device;
    config.memoryLimit = target::usableHbmBytes(device->machine);
    config.dataParallelDevices = slice.devices;
    std::optional<Measurement> m;
    {
      mlir::ScopedDiagnosticHandler quiet(
          &context, [&](mlir::Diagnostic &diagnostic) {
            if (reason.empty() &&
                diagnostic.getSeverity() == mlir::DiagnosticSeverity::Error)
              reason = diagnostic.str();
            return mlir::success();
          });
      m = measureFit(*module, *device, config, config, /*timing=*/false);
    }
    if (!m)
      continue;
    splits = true;
    auto whole = wholeBytes.find(slice.device);
    if (whole != wholeBytes.end() && m->usedBytes >= whole->second)
      continue;
    os << "  --target=" << slice.name << " --data-parallel: needs "
       << report::formatBytes(m->usedBytes) << " per device"
       << (m->fits ? ", fits" : ", does not fit") << "\n";
  }
  if (!splits && !reason.empty())
    os << "  --data-parallel: the step does not split (" << reason << ")\n";
}

/// The scaling table: `imported` (the module as loaded) split over 1, 2,
/// 4 ... and all devices of `slice` (tpuc-data-parallel), each through the
/// front end and fusion pipelines, planned and modeled. A count the step
/// does not split over is a row with the reason.
std::vector<report::ScalingRow>
scalingRows(mlir::ModuleOp imported, const target::TargetSpec &spec,
            const target::SliceSpec &slice,
            const CompilePipelineConfig &given) {
  std::vector<int64_t> counts;
  for (int64_t k = 1; k < slice.devices; k *= 2)
    counts.push_back(k);
  counts.push_back(slice.devices);
  std::vector<report::ScalingRow> rows;
  for (int64_t k : counts) {
    report::ScalingRow row;
    row.devices = k;
    CompilePipelineConfig config = given;
    config.dataParallelDevices = k > 1 ? k : 0;
    mlir::OwningOpRef<mlir::ModuleOp> module = imported.clone();
    std::string error;
    mlir::FailureOr<analysis::MemoryPlan> plan = mlir::failure();
    {
      mlir::ScopedDiagnosticHandler capture(
          imported.getContext(), [&](mlir::Diagnostic &diagnostic) {
            if (diagnostic.getSeverity() == mlir::DiagnosticSeverity::Error &&
                error.empty())
              error = diagnostic.str();
            return mlir::success();
          });
      mlir::PassManager pm(imported.getContext());
      buildFrontEndPipeline(pm, config);
      buildFusionPipeline(pm, config);
      if (mlir::succeeded(pm.run(*module)))
        plan = analysis::planMemory(*module, spec);
    }
    if (mlir::failed(plan)) {
      row.error = error.empty() ? "the pipeline failed" : error;
    } else {
      row.usedBytes = plan->usedBytes();
      row.fits = plan->fits();
      row.step = report::modelStep(*module, spec, &slice);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}


/// The flags that choose passes, as the pipeline's options.

CompilePipelineConfig pipelineConfig(const target::TargetSpec &spec) {
  CompilePipelineConfig config;
  config.target = spec.machine.name();
  config.mixedBfloat16 = precision == Precision::MixedBfloat16;
  config.fusion = fusionMode == FusionMode::On;
  config.assignLayouts = layoutMode == LayoutMode::Auto;
  config.dotPrecision = dotPrecision;
  config.remat = remat;
  config.memoryLimit = target::usableHbmBytes(spec.machine);
  if (dataParallel)
    if (const target::SliceSpec *slice = target::findSlice(targetName))
      config.dataParallelDevices = slice->devices;
  return config;
}

int runCompile() {
  std::optional<target::TargetSpec> spec = selectTarget();
  if (!spec)
    return 1;
  const target::SliceSpec *slice = target::findSlice(targetName);
  if (dataParallel && !slice)
    return fail("--data-parallel needs a slice target (tpuc targets lists "
                "them, e.g. tpu-v3-8); '" +
                targetName + "' is one device");
  ToolContext tool;
  mlir::MLIRContext &context = tool.get();
  mlir::OwningOpRef<mlir::ModuleOp> module = loadModule(input, context);
  if (!module)
    return 1;
  // One target for the whole pipeline: every pass reads it from the module.
  setModuleTarget(*module, *spec);
  // A slice: the lowering checks the program's device count against it.
  if (target::findSlice(targetName))
    (*module)->setAttr("tpu.slice", mlir::StringAttr::get(&context, targetName));
  // The results' HLO instructions as imported, before the passes replace
  // the values returned, written into the executable; in the hlo and fused
  // modules written (--dump-dir, --emit=hlo|fused) also kept as result
  // attributes, so that `tpuc interpret` on them names the results alike.
  std::vector<serializer::ResultSource> resultSources;
  for (auto func : module->getOps<mlir::func::FuncOp>())
    if (func.isPublic() && !func.isExternal()) {
      resultSources = serializer::entryResultSources(func);
      if (!dumpDir.empty() ||
          (!output.empty() && (emit == Stage::Hlo || emit == Stage::Fused)))
        serializer::recordResultSources(func, resultSources);
      break;
    }

  bool wantFusion = llvm::is_contained(reports, ReportKind::Fusion);
  bool wantStep = llvm::is_contained(reports, ReportKind::Step);
  bool wantScaling = llvm::is_contained(reports, ReportKind::Scaling);
  CompilePipelineConfig pipeline = pipelineConfig(*spec);
  // A global program with shardings for more than one partition is
  // partitioned first for a slice (docs/spmd.md, "The SPMD partitioner");
  // on one device its shardings say nothing (one shard is the whole array).
  bool shardedGlobal = isShardedGlobalProgram(*module);
  pipeline.spmdPartition = shardedGlobal && slice;
  if (pipeline.spmdPartition &&
      report::moduleDeviceCount(*module) != slice->devices)
    return fail(input + " is sharded for " +
                std::to_string(report::moduleDeviceCount(*module)) +
                " devices, " + slice->name + " has " +
                std::to_string(slice->devices));
  if (pipeline.spmdPartition && dataParallel)
    return fail("--data-parallel splits an unannotated step; " + input +
                " has shardings for " +
                std::to_string(report::moduleDeviceCount(*module)) +
                " partitions (the SPMD partitioner partitions it)");
  std::vector<report::ScalingRow> scaling;
  if (wantScaling) {
    if (!slice)
      return fail("--report=scaling needs a slice target (e.g. tpu-v3-8); '" +
                  targetName + "' is one device");
    if (report::moduleDeviceCount(*module) > 1)
      return fail("--report=scaling splits a single-device program; " + input +
                  " already runs on " +
                  std::to_string(report::moduleDeviceCount(*module)) +
                  " devices");
    scaling = scalingRows(*module, *spec, *slice, pipeline);
  }
  mlir::PassManager pm(&context);
  instrument(pm);
  buildFrontEndPipeline(pm, pipeline);
  if (mlir::failed(pm.run(*module)) || passDumpStatus)
    return 1;
  // The hlo stage, kept when -o or --dump-dir asks for it.
  mlir::OwningOpRef<mlir::ModuleOp> hloStage;
  if ((!output.empty() && emit == Stage::Hlo) || !dumpDir.empty())
    hloStage = module->clone();
  if (hloStage && dumpStage(Stage::Hlo, *hloStage) != 0)
    return 1;

  // The fusion report compares with the program as it was before fusion.
  mlir::OwningOpRef<mlir::ModuleOp> unfused;
  if (wantFusion)
    unfused = module->clone();
  fusion::FusionOptions fusionOptions;
  fusionOptions.vmemBudgetBytes = spec->machine.vmem_bytes();
  // The fusion report's baseline runs without fusion and without remat.
  auto runBackEnd = [&](mlir::ModuleOp m, bool fuse, bool rematerialize) {
    mlir::PassManager backEnd(&context);
    instrument(backEnd);
    CompilePipelineConfig stage = pipeline;
    stage.fusion = fuse;
    stage.remat = rematerialize;
    buildFusionPipeline(backEnd, stage);
    return backEnd.run(m);
  };
  if (mlir::failed(runBackEnd(*module, fusionMode == FusionMode::On, remat)) ||
      passDumpStatus)
    return 1;
  if (dumpStage(Stage::Fused, *module) != 0)
    return 1;

  mlir::FailureOr<analysis::MemoryPlan> plan =
      analysis::planMemory(*module, *spec);
  if (mlir::failed(plan))
    return 1;
  report::ReportContext reportContext;
  reportContext.moduleName = module->getName().value_or("module").str();
  reportContext.layoutMode =
      layoutMode == LayoutMode::Auto ? "auto" : "preserve";
  // A sharded global program compiled whole is one device's program.
  reportContext.devices = shardedGlobal && !pipeline.spmdPartition
                              ? 1
                              : report::moduleDeviceCount(*module);
  reportContext.slice = slice ? slice->name : "";

  std::optional<report::FusionSummary> fusionSummary;
  if (wantFusion) {
    mlir::OwningOpRef<mlir::ModuleOp> beforeFusion = unfused->clone();
    if (mlir::failed(runBackEnd(*beforeFusion, /*fuse=*/false,
                                /*rematerialize=*/false)))
      return 1;
    mlir::FailureOr<analysis::MemoryPlan> before =
        analysis::planMemory(*beforeFusion, *spec);
    if (mlir::failed(before))
      return 1;
    fusionSummary = report::summarizeFusion(*unfused, *module, *before, *plan,
                                            fusionOptions, spec->tiling);
    fusionSummary->precision =
        precision == Precision::MixedBfloat16 ? "mixed_bfloat16" : "f32";
  }

  bool wantPadding = llvm::is_contained(reports, ReportKind::Padding);
  bool wantMemory = llvm::is_contained(reports, ReportKind::Memory);
  // An executable is built before the reports, so that the memory report
  // can say what it uses against the plan.
  std::optional<exe::Executable> executable;
  bool wantExecutable = (!output.empty() || !dumpDir.empty()) &&
                        emit == Stage::Exe && plan->fits();
  if (wantExecutable) {
    // Code generation rewrites the module in place; the reports read the
    // plan's values, so the executable is built from a copy.
    mlir::OwningOpRef<mlir::ModuleOp> lowered = module->clone();
    mlir::FailureOr<exe::Executable> built =
        buildExecutable(*lowered, *spec, resultSources);
    if (mlir::failed(built))
      return 1;
    executable = std::move(*built);
    reportContext.executable = executableHbm(*executable);
  }
  std::optional<report::StepModel> step;
  if (wantStep)
    step = report::modelStep(*module, *spec, slice);
  if (reportFormat == ReportFormat::Json && !reports.empty()) {
    // One object: the memory report's when asked for, else the fusion
    // report's, else the module and target; the others as members.
    llvm::json::Value json =
        wantPadding || wantMemory
            ? report::reportJson(*plan, reportContext)
        : wantFusion
            ? report::fusionReportJson(*fusionSummary, reportContext)
            : llvm::json::Object{{"module", reportContext.moduleName},
                                 {"target", plan->targetName},
                                 {"slice", reportContext.slice}};
    if ((wantPadding || wantMemory) && wantFusion)
      json.getAsObject()->insert(
          {"fusion", report::fusionReportJson(*fusionSummary, reportContext)});
    if (step)
      json.getAsObject()->insert({"step", report::stepReportJson(*step)});
    if (wantScaling)
      json.getAsObject()->insert({"scaling", report::scalingJson(scaling)});
    llvm::outs() << llvm::formatv("{0:2}\n", json);
  } else {
    if (wantPadding)
      report::printPaddingReport(*plan, reportContext, llvm::outs());
    if (wantMemory)
      report::printMemoryReport(*plan, reportContext, llvm::outs());
    if (wantFusion)
      report::printFusionReport(*fusionSummary, reportContext, llvm::outs());
    if (step)
      report::printStepReport(*step, reportContext, llvm::outs());
    if (wantScaling)
      report::printScalingTable(scaling, reportContext, llvm::outs());
  }
  llvm::outs().flush();
  // The viewer is part of the diagnosis, so it is written even when the
  // program does not fit.
  if (!memoryViewer.empty() && writeViewer(*plan, reportContext) != 0)
    return 1;
  if (!plan->fits()) {
    llvm::errs() << input << ": error: "
                 << report::outOfMemoryMessage(*plan, reportContext) << "\n";
    // The memory report tells where the memory went; print it once.
    if (!wantMemory || reportFormat == ReportFormat::Json)
      report::printMemoryReport(*plan, reportContext, llvm::errs());
    printFitAdvice(context, *spec, pipeline);
    return 1;
  }
  if (output.empty() && dumpDir.empty())
    return 0;
  switch (emit) {
  case Stage::Hlo:
    return output.empty() ? 0 : writeModule(*hloStage, output, false);
  case Stage::Fused:
    return output.empty() ? 0 : writeModule(*module, output, false);
  case Stage::Tpu:
    return writeTpuStage(*module, *spec);
  case Stage::Exe:
    break;
  }
  return writeExecutable(*executable);
}

} // namespace

Command compileCommand{compileSub, runCompile};

} // namespace tpuc::driver
