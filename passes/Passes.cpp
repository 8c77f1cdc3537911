//===- Passes.cpp - tpuc's pass pipelines and their registration ----------===//
//
// `tpuc compile` is these pipelines run in order, with the HBM plan and the
// reports computed between the fusion stage and the lowering. They are
// registered for tpuc-opt, so `tpuc-opt --tpuc-compile-pipeline` replays
// what `tpuc compile --emit=tpu` does to an imported module.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace tpuc {
namespace {
#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

enum class Precision { F32, MixedBfloat16 };
enum class Layout { Auto, Preserve };

/// tpuc-compile-pipeline's options: tpuc compile's flags of the same names.
struct CompilePipelineOptions
    : public mlir::PassPipelineOptions<CompilePipelineOptions> {
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("Target preset (tpuc targets)"),
                             llvm::cl::init("tpu-v3")};
  Option<Precision> precision{
      *this, "precision", llvm::cl::desc("Floating-point policy"),
      llvm::cl::values(clEnumValN(Precision::F32, "f32", "compute as written"),
                       clEnumValN(Precision::MixedBfloat16, "mixed_bfloat16",
                                  "bf16 compute, f32 accumulation")),
      llvm::cl::init(Precision::F32)};
  Option<bool> fusion{*this, "fusion",
                      llvm::cl::desc("Fuse ops into hlo.fusion kernels"),
                      llvm::cl::init(true)};
  Option<Layout> layout{
      *this, "layout", llvm::cl::desc("Layout assignment"),
      llvm::cl::values(clEnumValN(Layout::Auto, "auto", "assign layouts"),
                       clEnumValN(Layout::Preserve, "preserve",
                                  "keep the module's")),
      llvm::cl::init(Layout::Auto)};
  Option<int64_t> memoryLimit{
      *this, "memory-limit",
      llvm::cl::desc("With remat: the HBM bytes the program may use (0: the "
                     "target's usable HBM)"),
      llvm::cl::init(0)};
  Option<bool> remat{*this, "remat",
                     llvm::cl::desc("Rematerialize until the plan fits the "
                                    "target's usable HBM"),
                     llvm::cl::init(false)};
  Option<DotPrecision> dotPrecision{
      *this, "dot-precision",
      llvm::cl::desc("The MXU passes of every f32 dot and convolution "
                     "(per-op: each op's precision_config)"),
      dotPrecisionValues(), llvm::cl::init(DotPrecision::PerOp)};
};

} // namespace

void buildSimplifyPipeline(mlir::OpPassManager &pm) {
  pm.addPass(mlir::createInlinerPass());
  pm.addPass(createHoistWhileInvariants());
  pm.addPass(createSimplifyWhileLoops());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createCanonicalizerPass());
}

void buildFrontEndPipeline(mlir::OpPassManager &pm,
                           const CompilePipelineConfig &config) {
  SetTargetOptions target;
  target.targetName = config.target;
  pm.addPass(createSetTarget(target));
  // Before the inliner: an rng's seed is its position in the module as
  // imported, as the interpreter numbers it.
  pm.addPass(createExpandRng());
  pm.addPass(mlir::createInlinerPass());
  if (config.dataParallelDevices > 0) {
    DataParallelOptions split;
    split.numDevices = config.dataParallelDevices;
    pm.addPass(createDataParallel(split));
  }
  if (config.spmdPartition) {
    pm.addPass(createShardingPropagation());
    pm.addPass(createSpmdPartition());
  }
  pm.addPass(createHoistWhileInvariants());
  pm.addPass(createSimplifyWhileLoops());
  if (config.mixedBfloat16)
    pm.addPass(createMixedPrecision());
  FloatNormalizationOptions normalization;
  normalization.targetName = config.target;
  pm.addPass(createFloatNormalization(normalization));
  // Integer dots and convolutions as exact bf16 contractions on the MXU
  // (after the bf16 policy, which must not touch their f32 sums).
  pm.addPass(createExpandIntegerContractions());
  // 8- and 16-bit integers in s32, then 64-bit ones on 32-bit words,
  // before fusion and layouts (64-bit ops are checked after the expansions).
  pm.addPass(createExpandNarrowInts());
  // f16 and f8 in f32, rounded after each op (after the bf16 policy, which
  // rewrites f32 only, so f16 and f8 values keep their types).
  pm.addPass(createExpandNarrowFloats());
  // Reduces the kernel lacks (argmax) as elementwise trees the fusion
  // planner sees, with their s64 indices expanded next.
  pm.addPass(createExpandVariadicReduce());
  ExpandX64Options x64;
  x64.check = false;
  pm.addPass(createExpandX64(x64));
  // Folds the convert pairs the precision passes leave; without them the
  // program stays as imported (the reports reproduce XLA's).
  // No CSE here: the fusion planner does not yet duplicate a cheap
  // producer into each of its consumers as XLA's does, so merging two
  // converts of one array would materialize it (layer_norm: +25% fused
  // HBM traffic).
  if (config.mixedBfloat16 || config.fusion)
    pm.addPass(mlir::createCanonicalizerPass());
}

void buildExpansionPipeline(mlir::OpPassManager &pm,
                            const CompilePipelineConfig &config) {
  // Rewrite dots and reductions into the canonical forms the kernels
  // take (XLA's DotDecomposer and reduction layout normalization).
  // No canonicalizer after them: it would fold the inserted transposes
  // back into the dots (FoldTransposeIntoDot).
  // Math functions into the arithmetic the VPU has (one loop kernel each).
  // Fusions that read entry arguments of permuted layouts compute in their
  // physical order (before the reductions take their kernel forms).
  pm.addPass(createNormalizeLayouts());
  // XLA's CholeskyExpander and TriangularSolveExpander (the first emits
  // triangular solves for the second).
  pm.addPass(createExpandCholesky());
  pm.addPass(createExpandTriangularSolve());
  // Random bits on 32-bit words (one kernel per op: fused, the rounds run
  // out of vector registers), then no 64-bit integer may remain.
  // (rng already expanded in the front end; again for modules lowered
  // without it.)
  pm.addPass(createExpandRng());
  pm.addPass(createExpandRngBitGenerator());
  // (Again for modules lowered without the front end.)
  pm.addPass(createExpandVariadicReduce());
  pm.addPass(createExpandX64());
  pm.addPass(createExpandMath());
  pm.addPass(createDecomposeDots());
  pm.addPass(createDecomposeReductions());
  pm.addPass(createCanonicalizeConvolutions());
  pm.addPass(createExpandSelectAndScatter());
  pm.addPass(createExpandReduceWindow());
  pm.addPass(createSortAlongMinor());
  SplitConvolutionPrecisionOptions split;
  split.dotPrecision = config.dotPrecision;
  pm.addPass(createSplitConvolutionPrecision(split));
}

void buildFusionPipeline(mlir::OpPassManager &pm,
                         const CompilePipelineConfig &config) {
  // Small and integer dots as multiply + reduce, before the planner fuses
  // them (one input fusion each).
  StrengthReduceDotsOptions smallDots;
  smallDots.targetName = config.target;
  pm.addPass(createStrengthReduceDots(smallDots));
  if (config.fusion) {
    FuseOptions fuse;
    fuse.targetName = config.target;
    pm.addPass(createFuse(fuse));
  }
  // Donated outputs after their parameters' reads, so they can be written
  // in place (the memory plan then counts no copy either).
  pm.addPass(createScheduleDonations());
  if (config.assignLayouts) {
    AssignLayoutsOptions layouts;
    layouts.targetName = config.target;
    pm.addPass(createAssignLayouts(layouts));
  }
  if (config.remat) {
    RematerializeOptions remat;
    remat.targetName = config.target;
    remat.memoryLimit = config.memoryLimit;
    pm.addPass(createRematerialize(remat));
  }
  // The program the code generator lowers, so that the memory plan (the
  // reports, the executable's HBM placement) is of that program.
  buildExpansionPipeline(pm, config);
}

void buildLoweringPipeline(mlir::OpPassManager &pm,
                           const CompilePipelineConfig &config) {
  // Again for modules that did not come through the fusion pipeline (a
  // no-op on those that did).
  StrengthReduceDotsOptions smallDots;
  smallDots.targetName = config.target;
  pm.addPass(createStrengthReduceDots(smallDots));
  buildExpansionPipeline(pm, config);
  AssignBuffersOptions assign;
  assign.targetName = config.target;
  pm.addPass(createAssignBuffers(assign));
  ConvertHloToTpuOptions convert;
  convert.targetName = config.target;
  convert.dotPrecision = config.dotPrecision;
  pm.addPass(createConvertHloToTpu(convert));
  // VMEM placement and the overlap across kernels read the conversion's
  // step marks and constant DMA offsets: before the cleanup.
  AllocateVmemOptions vmem;
  vmem.targetName = config.target;
  pm.addPass(createAllocateVmem(vmem));
  OverlapKernelsOptions overlap;
  overlap.targetName = config.target;
  pm.addPass(createOverlapKernels(overlap));
  pm.addPass(createSimplifyScalars());
  // The kernels compute each address where they need it: the same tile
  // index, division or product several times per tile, and values no
  // instruction reads (a broadcast source's column when it spreads by
  // row). The canonicalizer's folding and dead-code removal, then
  // tpuc-cse-scalars, leave one scalar instruction per distinct value (tpu
  // ops with memory or machine effects are kept in order).
  mlir::GreedyRewriteConfig cleanup;
  cleanup.setRegionSimplificationLevel(
      mlir::GreedySimplifyRegionLevel::Disabled);
  pm.addPass(mlir::createCanonicalizerPass(cleanup));
  pm.addPass(createCseScalars());
  pm.addPass(createScheduleBundles());
}

void buildCompilePipeline(mlir::OpPassManager &pm,
                          const CompilePipelineConfig &config) {
  buildFrontEndPipeline(pm, config);
  buildFusionPipeline(pm, config);
  buildLoweringPipeline(pm, config);
}

void registerPasses() {
  registerTPUCPasses();
  mlir::PassPipelineRegistration<>(
      "tpuc-simplify",
      "Inline, while-loop LICM and simplification, CSE, canonicalize (the "
      "graph simplifications code generation starts with)",
      buildSimplifyPipeline);
  mlir::PassPipelineRegistration<CompilePipelineOptions>(
      "tpuc-compile-pipeline",
      "The passes of `tpuc compile --emit=tpu`: the front end (inline, "
      "while-loop simplification, precision, float normalization), fusion "
      "and layout assignment, then the decompositions and the lowering to "
      "the tpu dialect",
      [](mlir::OpPassManager &pm, const CompilePipelineOptions &options) {
        CompilePipelineConfig config;
        config.target = options.target;
        config.mixedBfloat16 = options.precision == Precision::MixedBfloat16;
        config.fusion = options.fusion;
        config.assignLayouts = options.layout == Layout::Auto;
        config.dotPrecision = options.dotPrecision;
        config.remat = options.remat;
        config.memoryLimit = options.memoryLimit;
        buildCompilePipeline(pm, config);
      });
}

} // namespace tpuc
