// compileToExecutable end to end: an MLP layer compiled, run on the
// emulator and checked against a reference that rounds the dot's operands
// to bf16 as XLA's DEFAULT precision does; determinism; and the errors.
#include "compiler/codegen/Codegen.h"
#include "dialects/hlo/HloDialect.h"
#include "dialects/tpu/TpuDialect.h"
#include "runtime/emulator/EmulatorDevice.h"
#include "runtime/hostio/RandomInputs.h"
#include "runtime/loader/Executable.h"
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
  %t = hlo.cosine %x : tensor<8x128xf32>
  return %t : tensor<8x128xf32>
})mlir");
  EXPECT_TRUE(mlir::failed(e));
  EXPECT_EQ(errors, "tpuc cannot lower 'hlo.cosine' yet\n");
}

} // namespace
