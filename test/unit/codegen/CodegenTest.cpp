// compileToExecutable end to end: an MLP layer compiled, run on the
// emulator and checked against a reference that rounds the dot's operands
// to bf16 as XLA's DEFAULT precision does; determinism; the errors; and
// dots and convolutions compiled for MXUs of 128x128 and 256x256 and for 1
// to 8 of them, run on the emulator's exact kernel path: every shape of MXU
// gives the bits of the 2 x 128x128 tpu-v3 program (the MXU sums K in order
// whatever its width, and the kernels only change how the work is tiled and
// spread). test/e2e checks the tpu-v3 programs against the interpreter;
// test/e2e/mxu-targets.test runs every preset.
#include "driver/codegen/Codegen.h"
#include "dialects/hlo/HloDialect.h"
#include "dialects/tpu/TpuDialect.h"
#include "runtime/emulator/EmulatorDevice.h"
#include "runtime/hostio/RandomInputs.h"
#include "runtime/loader/Executable.h"
#include "runtime/loader/Layout.h"
#include "runtime/loader/Run.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

namespace {

using namespace tpuc;

const char *kMlp = R"mlir(
func.func @mlp(%x: tensor<16x256xf32>, %w: tensor<256x128xf32>,
               %b: tensor<128xf32>) -> tensor<16x128xf32> {
  %zero = hlo.constant dense<0.0> : tensor<16x128xf32>
  %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<16x256xf32>, tensor<256x128xf32>) -> tensor<16x128xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [1] : (tensor<128xf32>) -> tensor<16x128xf32>
  %s = hlo.add %d, %bb : tensor<16x128xf32>
  %r = hlo.maximum %s, %zero : tensor<16x128xf32>
  return %r : tensor<16x128xf32>
})mlir";

// Ragged M, K and N against both MXU widths: K = 300 is 3 tiles of 128 (an
// odd count: the second block of the last 256-wide step is past K), N = 200
// and 390 leave a 256-wide N tile half used; f32 operands split in bf16
// pieces (HIGH), a bf16 result; a batch.
const char *kDots = R"mlir(
func.func @dots(%a: tensor<40x300xbf16>, %b: tensor<300x200xbf16>,
                %c: tensor<2x24x130xf32>, %d: tensor<2x130x390xf32>,
                %e: tensor<256x512xbf16>, %f: tensor<512x384xbf16>)
    -> (tensor<40x200xf32>, tensor<2x24x390xbf16>, tensor<256x384xf32>) {
  %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<40x300xbf16>, tensor<300x200xbf16>) -> tensor<40x200xf32>
  %1 = hlo.dot_general %c, %d, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]>
       {precision_config = [#hlo<precision HIGH>, #hlo<precision HIGH>]}
      : (tensor<2x24x130xf32>, tensor<2x130x390xf32>) -> tensor<2x24x390xbf16>
  %2 = hlo.dot_general %e, %f, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<256x512xbf16>, tensor<512x384xbf16>) -> tensor<256x384xf32>
  return %0, %1, %2 : tensor<40x200xf32>, tensor<2x24x390xbf16>, tensor<256x384xf32>
})mlir";

// The implicit-GEMM kernel (stride 1 and 2, C = 200 and O = 136 ragged
// against 256, a 1x1 with 300 output features) and the weight gradient
// (several 256-pixel blocks, the last one partial; 140 output features);
// a 1x1 whose 128 rows split evenly over 8 MXUs.
const char *kConvs = R"mlir(
func.func @convs(%x: tensor<2x10x11x200xbf16>, %w: tensor<3x3x200x136xbf16>,
                 %y: tensor<3x6x7x40xf32>, %w1: tensor<1x1x40x300xf32>,
                 %g: tensor<2x24x24x8xbf16>, %dy: tensor<2x24x24x140xbf16>,
                 %z: tensor<1x8x16x64xbf16>, %w2: tensor<1x1x64x128xbf16>)
    -> (tensor<2x10x11x136xbf16>, tensor<2x5x6x136xf32>, tensor<3x6x7x300xf32>,
        tensor<3x3x8x140xf32>, tensor<1x8x16x128xf32>) {
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<2x10x11x200xbf16>, tensor<3x3x200x136xbf16>) -> tensor<2x10x11x136xbf16>
  %1 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
       : (tensor<2x10x11x200xbf16>, tensor<3x3x200x136xbf16>) -> tensor<2x5x6x136xf32>
  %2 = hlo.convolution %y, %w1, dim_labels = <"b01f_01io->b01f">
       : (tensor<3x6x7x40xf32>, tensor<1x1x40x300xf32>) -> tensor<3x6x7x300xf32>
  %3 = hlo.convolution %g, %dy, dim_labels = <"f01b_i01o->01bf"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<2x24x24x8xbf16>, tensor<2x24x24x140xbf16>) -> tensor<3x3x8x140xf32>
  %4 = hlo.convolution %z, %w2, dim_labels = <"b01f_01io->b01f">
       : (tensor<1x8x16x64xbf16>, tensor<1x1x64x128xbf16>) -> tensor<1x8x16x128xf32>
  return %0, %1, %2, %3, %4 : tensor<2x10x11x136xbf16>, tensor<2x5x6x136xf32>, tensor<3x6x7x300xf32>, tensor<3x3x8x140xf32>, tensor<1x8x16x128xf32>
})mlir";

class CodegenTest : public ::testing::Test {
protected:
  CodegenTest() {
    mlir::DialectRegistry registry;
    registry.insert<hlo::HloDialect, tpu::TpuDialect, mlir::arith::ArithDialect,
                    mlir::func::FuncDialect>();
    mlir::func::registerInlinerExtension(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    spec = *target::lookupTarget("tpu-v3");
  }
  /// Compiles `source`; on failure returns the diagnostics in `errors`.
  mlir::FailureOr<exe::Executable> compile(const char *source) {
    errors.clear();
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
      errors += d.str() + "\n";
      return mlir::success();
    });
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    if (!module)
      return mlir::failure();
    return codegen::compileToExecutable(*module, spec);
  }
  /// Compiles `source` for tpu-v3 with `count` MXUs of `d` x `d`, runs it on
  /// random inputs (seed 5) and returns the results' bytes and the MXU
  /// indices the program uses.
  void run(const char *source, uint32_t d, uint32_t count,
           std::vector<std::string> &results, std::set<uint32_t> &mxus) {
    spec = *target::lookupTarget("tpu-v3");
    spec.machine.set_mxu_rows(d);
    spec.machine.set_mxu_cols(d);
    spec.machine.set_mxu_count(count);
    mlir::FailureOr<exe::Executable> proto = compile(source);
    ASSERT_TRUE(mlir::succeeded(proto)) << errors;
    EXPECT_EQ(proto->target().mxu_rows(), d);
    EXPECT_EQ(proto->target().mxu_cols(), d);
    for (const exe::Instruction &in : proto->instructions())
      if (in.opcode() == exe::MXU_MATMUL)
        mxus.insert(in.mxu());
    absl::StatusOr<runtime::Executable> exe =
        runtime::validateExecutable(*proto);
    ASSERT_TRUE(exe.ok()) << exe.status();
    std::vector<hostio::HostArray> inputs;
    for (int i = 0; i < exe->proto().parameters_size(); ++i) {
      const exe::Shape &s = exe->proto().parameters(i).shape();
      inputs.push_back(*hostio::randomInput(
          5, i, runtime::toHostDType(s.dtype()),
          {s.dims().begin(), s.dims().end()}));
    }
    runtime::EmulatorDevice device(exe->target(),
                                   runtime::KernelPath::Portable);
    absl::StatusOr<runtime::RunResult> r =
        runtime::runExecutable(device, *exe, inputs);
    ASSERT_TRUE(r.ok()) << r.status();
    for (const hostio::HostArray &a : r->results)
      results.emplace_back(a.bytes().begin(), a.bytes().end());
  }
  void expectSameBitsOnEveryMxuShape(const char *source) {
    std::vector<std::string> want;
    std::set<uint32_t> wantMxus;
    run(source, 128, 2, want, wantMxus);
    ASSERT_FALSE(want.empty());
    EXPECT_EQ(wantMxus, (std::set<uint32_t>{0, 1}));
    for (auto [d, count] : {std::pair{256u, 1u}, {256u, 2u}, {256u, 4u},
                            {256u, 8u}, {128u, 1u}, {128u, 8u}}) {
      std::vector<std::string> got;
      std::set<uint32_t> mxus;
      run(source, d, count, got, mxus);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_TRUE(got[i] == want[i])
            << "result " << i << " differs on " << count << " x " << d << "x"
            << d;
      // Every MXU of the target computes (each program has a kernel whose
      // work splits over 8).
      EXPECT_EQ(mxus.size(), count) << count << " x " << d << "x" << d;
    }
  }
  mlir::MLIRContext context;
  target::TargetSpec spec;
  std::string errors;
};

float bf16Round(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000u;
  std::memcpy(&x, &bits, 4);
  return x;
}

std::vector<float> floats(const hostio::HostArray &a) {
  std::vector<float> v(a.elementCount());
  std::memcpy(v.data(), a.bytes().data(), v.size() * 4);
  return v;
}

TEST_F(CodegenTest, MlpLayerMatchesBf16Reference) {
  mlir::FailureOr<exe::Executable> proto = compile(kMlp);
  ASSERT_TRUE(mlir::succeeded(proto)) << errors;
  absl::StatusOr<runtime::Executable> exe = runtime::validateExecutable(*proto);
  ASSERT_TRUE(exe.ok()) << exe.status();
  std::vector<hostio::HostArray> inputs;
  std::vector<std::vector<int64_t>> shapes = {{16, 256}, {256, 128}, {128}};
  for (size_t i = 0; i < shapes.size(); ++i)
    inputs.push_back(*hostio::randomInput(7, i, hostio::DType::F32, shapes[i]));
  runtime::EmulatorDevice device(exe->target());
  absl::StatusOr<runtime::RunResult> run =
      runtime::runExecutable(device, *exe, inputs);
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->results.size(), 1u);
  std::vector<float> x = floats(inputs[0]), w = floats(inputs[1]),
                     b = floats(inputs[2]), got = floats(run->results[0]);
  // The MXU's products of bf16 values are exact; only the f32 summation
  // order may differ from this loop.
  double maxErr = 0;
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 128; ++n) {
      double acc = 0;
      for (int k = 0; k < 256; ++k)
        acc += double(bf16Round(x[m * 256 + k])) * bf16Round(w[k * 128 + n]);
      double want = std::max(acc + b[n], 0.0);
      maxErr = std::max(maxErr, std::abs(got[m * 128 + n] - want));
    }
  EXPECT_LT(maxErr, 1e-4);
}

TEST_F(CodegenTest, IsDeterministic) {
  mlir::FailureOr<exe::Executable> a = compile(kMlp), b = compile(kMlp);
  ASSERT_TRUE(mlir::succeeded(a) && mlir::succeeded(b)) << errors;
  EXPECT_EQ(a->SerializeAsString(), b->SerializeAsString());
  EXPECT_GT(a->instructions_size(), 10);
}

TEST_F(CodegenTest, UnsupportedOpIsOneErrorNamingIt) {
  mlir::FailureOr<exe::Executable> e = compile(R"mlir(
func.func @f(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %h = hlo.convert %x : (tensor<8x128xf32>) -> tensor<8x128xf16>
  %s = hlo.add %h, %h : tensor<8x128xf16>
  %t = hlo.convert %s : (tensor<8x128xf16>) -> tensor<8x128xf32>
  return %t : tensor<8x128xf32>
})mlir");
  EXPECT_TRUE(mlir::failed(e));
  EXPECT_EQ(errors, "tpuc cannot lower 'hlo.add' on f16 (tpuc-expand-narrow-floats "
                    "computes it in f32) yet\n");
}

TEST_F(CodegenTest, DotsAreBitExactOnEveryMxuShape) {
  expectSameBitsOnEveryMxuShape(kDots);
}

TEST_F(CodegenTest, ConvolutionsAreBitExactOnEveryMxuShape) {
  expectSameBitsOnEveryMxuShape(kConvs);
}

} // namespace
