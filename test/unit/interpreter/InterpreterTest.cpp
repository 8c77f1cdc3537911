//===- InterpreterTest.cpp - the reference interpreter, op by op ----------===//
//
// Each test runs a small hlo-dialect function and compares with values
// computed by hand from XLA's semantics.
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Interpreter.h"
#include "dialects/hlo/HloDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace tpuc::interpreter;
using tpuc::hostio::f32ToBf16Bits;
using tpuc::hostio::f32ToF16Bits;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

template <typename S>
Tensor make(DType dtype, llvm::ArrayRef<int64_t> shape, std::vector<S> values) {
  Tensor t(dtype, shape);
  EXPECT_EQ(static_cast<int64_t>(values.size() * sizeof(S)), t.byteSize());
  std::memcpy(t.bytes(), values.data(), t.byteSize());
  return t;
}
Tensor f32(llvm::ArrayRef<int64_t> shape, std::vector<float> v) {
  return make(DType::F32, shape, v);
}
Tensor s32(llvm::ArrayRef<int64_t> shape, std::vector<int32_t> v) {
  return make(DType::S32, shape, v);
}
Tensor bf16(llvm::ArrayRef<int64_t> shape, std::vector<float> v) {
  std::vector<uint16_t> bits;
  for (float x : v)
    bits.push_back(f32ToBf16Bits(x));
  return make(DType::BF16, shape, bits);
}

std::vector<double> values(const Tensor &t) {
  std::vector<double> out;
  for (int64_t i = 0; i < t.numElements(); ++i)
    out.push_back(t.doubleAt(i));
  return out;
}
std::vector<int64_t> ints(const Tensor &t) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < t.numElements(); ++i)
    out.push_back(t.intAt(i));
  return out;
}
using D = std::vector<double>;
using I = std::vector<int64_t>;

class InterpreterTest : public ::testing::Test {
protected:
  InterpreterTest() {
    context.loadDialect<tpuc::hlo::HloDialect, mlir::func::FuncDialect>();
  }

  /// Runs @main of `source` on `args`; failures (with the diagnostic text in
  /// `lastError`) return no results.
  std::vector<Tensor> run(const char *source, std::vector<Tensor> args) {
    lastError.clear();
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
      lastError += d.str();
      return mlir::success();
    });
    module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    EXPECT_TRUE(module) << lastError;
    if (!module)
      return {};
    auto func = module->lookupSymbol<mlir::func::FuncOp>("main");
    InterpreterOptions options;
    options.numThreads = 2;
    auto results = interpret(func, args, options);
    if (mlir::failed(results))
      return {};
    return std::vector<Tensor>(results->begin(), results->end());
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string lastError;
};

TEST_F(InterpreterTest, F32Elementwise) {
  auto r = run(R"(
    func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi1>) {
      %0 = hlo.divide %a, %b : tensor<4xf32>
      %1 = hlo.maximum %a, %b : tensor<4xf32>
      %2 = hlo.round_nearest_even %a : tensor<4xf32>
      %3 = hlo.sign %a : tensor<4xf32>
      %4 = hlo.remainder %a, %b : tensor<4xf32>
      %5 = hlo.is_finite %0 : (tensor<4xf32>) -> tensor<4xi1>
      return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi1>
    })",
               {f32({4}, {2.5f, -3.5f, kNaN, 0.5f}), f32({4}, {0.0f, 2.0f, 1.0f, kNaN})});
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(values(r[0])[0], kInf);
  EXPECT_EQ(values(r[0])[1], -1.75);
  EXPECT_TRUE(std::isnan(values(r[1])[2])); // max propagates NaN either side
  EXPECT_TRUE(std::isnan(values(r[1])[3]));
  EXPECT_EQ(values(r[1])[1], 2.0);
  EXPECT_EQ(values(r[2])[0], 2.0); // ties to even
  EXPECT_EQ(values(r[2])[1], -4.0);
  EXPECT_EQ(values(r[2])[3], 0.0);
  EXPECT_EQ(values(r[3])[0], 1.0);
  EXPECT_EQ(values(r[3])[1], -1.0);
  EXPECT_TRUE(std::isnan(values(r[3])[2]));
  EXPECT_EQ(values(r[4])[1], -1.5); // sign of the dividend
  EXPECT_EQ(ints(r[5]), (I{0, 1, 0, 0}));
}

TEST_F(InterpreterTest, Bf16RoundsAfterEveryOp) {
  // 1 + 2^-8 is a tie between 1 and 1 + 2^-7: even gives 1. From 1 + 2^-7
  // the tie goes up to 1 + 2^-6.
  auto r = run(R"(
    func.func @main(%a: tensor<2xbf16>, %b: tensor<2xbf16>) -> (tensor<2xbf16>, tensor<2xbf16>) {
      %0 = hlo.add %a, %b : tensor<2xbf16>
      %1 = hlo.add %0, %b : tensor<2xbf16>
      return %0, %1 : tensor<2xbf16>, tensor<2xbf16>
    })",
               {bf16({2}, {1.0f, 1.0078125f}), bf16({2}, {0.00390625f, 0.00390625f})});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(values(r[0]), (D{1.0, 1.015625}));
  EXPECT_EQ(values(r[1]), (D{1.0, 1.015625}));
}

TEST_F(InterpreterTest, S32WrapsAndDividesTowardZero) {
  const int32_t min = std::numeric_limits<int32_t>::min();
  const int32_t max = std::numeric_limits<int32_t>::max();
  auto r = run(R"(
    func.func @main(%a: tensor<5xi32>, %b: tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>) {
      %0 = hlo.add %a, %b : tensor<5xi32>
      %1 = hlo.divide %a, %b : tensor<5xi32>
      %2 = hlo.remainder %a, %b : tensor<5xi32>
      %3 = hlo.multiply %a, %a : tensor<5xi32>
      %4 = hlo.power %b, %b : tensor<5xi32>
      return %0, %1, %2, %3, %4 : tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>
    })",
               {s32({5}, {max, -7, 7, 5, min}), s32({5}, {1, 2, -2, 0, -1})});
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(ints(r[0]), (I{min, -5, 5, 5, max}));
  EXPECT_EQ(ints(r[1]), (I{max, -3, -3, -1, min})); // x/0 = -1, MIN/-1 = MIN
  EXPECT_EQ(ints(r[2]), (I{0, -1, 1, 5, 0}));       // x%0 = x, MIN%-1 = 0
  EXPECT_EQ(ints(r[3]), (I{1, 49, 49, 25, 0}));     // MAX*MAX wraps to 1
  EXPECT_EQ(ints(r[4]), (I{1, 4, 0, 1, 0}));        // (-2)^-2 = 0, 0^0 = 1
}

TEST_F(InterpreterTest, UnsignedWrapAndCompare) {
  auto r = run(R"(
    func.func @main(%a: tensor<3xui8>, %b: tensor<3xui8>, %c: tensor<2xui32>, %d: tensor<2xui32>) -> (tensor<3xui8>, tensor<3xi1>, tensor<2xui32>, tensor<3xui8>) {
      %0 = hlo.add %a, %b : tensor<3xui8>
      %1 = hlo.compare LT, %a, %b : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xi1>
      %2 = hlo.divide %c, %d : tensor<2xui32>
      %3 = hlo.subtract %b, %a : tensor<3xui8>
      return %0, %1, %2, %3 : tensor<3xui8>, tensor<3xi1>, tensor<2xui32>, tensor<3xui8>
    })",
               {make<uint8_t>(DType::U8, {3}, {200, 1, 255}),
                make<uint8_t>(DType::U8, {3}, {100, 2, 1}),
                make<uint32_t>(DType::U32, {2}, {7, 4000000000u}),
                make<uint32_t>(DType::U32, {2}, {0, 3})});
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(ints(r[0]), (I{44, 3, 0}));
  EXPECT_EQ(ints(r[1]), (I{0, 1, 0})); // 255 is not below 1 unsigned
  EXPECT_EQ(ints(r[2]), (I{0xFFFFFFFFll, 1333333333}));
  EXPECT_EQ(ints(r[3]), (I{156, 1, 2}));
}

// s4/u4 (XLA's int4 types) are bytes holding the value extended; every
// result wraps to 4 bits, as XLA computes with ml_dtypes' int4 types.
TEST_F(InterpreterTest, Int4WrapsToFourBits) {
  auto r = run(R"(
    func.func @main(%a: tensor<6xi4>, %b: tensor<6xi4>, %u: tensor<6xui4>, %v: tensor<6xui4>) -> (tensor<6xi4>, tensor<6xi4>, tensor<6xi4>, tensor<6xi4>, tensor<6xui4>, tensor<6xui4>, tensor<6xi4>, tensor<6xi1>, tensor<6xi4>, tensor<6xi4>) {
      %0 = hlo.add %a, %b : tensor<6xi4>
      %1 = hlo.multiply %a, %b : tensor<6xi4>
      %2 = hlo.divide %a, %b : tensor<6xi4>
      %3 = hlo.abs %a : tensor<6xi4>
      %4 = hlo.subtract %u, %v : tensor<6xui4>
      %5 = hlo.shift_right_arithmetic %u, %v : tensor<6xui4>
      %6 = hlo.count_leading_zeros %a : tensor<6xi4>
      %7 = hlo.compare LT, %a, %b, UNSIGNED : (tensor<6xi4>, tensor<6xi4>) -> tensor<6xi1>
      %8 = hlo.power %a, %b : tensor<6xi4>
      %9 = hlo.mulhi %a, %b : tensor<6xi4>
      return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<6xi4>, tensor<6xi4>, tensor<6xi4>, tensor<6xi4>, tensor<6xui4>, tensor<6xui4>, tensor<6xi4>, tensor<6xi1>, tensor<6xi4>, tensor<6xi4>
    })",
               {make<int8_t>(DType::S4, {6}, {7, -8, -8, 5, -1, 3}),
                make<int8_t>(DType::S4, {6}, {1, -1, 0, 3, 2, 2}),
                make<uint8_t>(DType::U4, {6}, {0, 15, 8, 9, 1, 12}),
                make<uint8_t>(DType::U4, {6}, {1, 15, 1, 3, 4, 2})});
  ASSERT_EQ(r.size(), 10u) << lastError;
  EXPECT_EQ(ints(r[0]), (I{-8, 7, -8, -8, 1, 5}));  // 8, -9, 8 wrap
  EXPECT_EQ(ints(r[1]), (I{7, -8, 0, -1, -2, 6}));  // 8, 15 wrap
  EXPECT_EQ(ints(r[2]), (I{7, -8, -1, 1, 0, 1}));   // -8/-1 = -8, x/0 = -1
  EXPECT_EQ(ints(r[3]), (I{7, -8, -8, 5, 1, 3}));   // abs(-8) wraps
  EXPECT_EQ(ints(r[4]), (I{15, 0, 7, 6, 13, 10}));  // 0 - 1 wraps to 15
  // 1000 >> 1 (sign bit of 4) = 1100; 1001 >> 3 = 1111; 1 >> 4+: 0; 1100 >> 2 = 1111
  EXPECT_EQ(ints(r[5]), (I{0, 15, 12, 15, 0, 15}));
  EXPECT_EQ(ints(r[6]), (I{1, 0, 0, 1, 0, 2}));     // leading zeros of 4 bits
  // Unsigned: 7 < 1? no; 8 < 15; 8 < 0? no; 5 < 3? no; 15 < 2? no; 3 < 2? no
  EXPECT_EQ(ints(r[7]), (I{0, 1, 0, 0, 0, 0}));
  // 7^1; (-8)^-1 = 0; (-8)^0 = 1; 5^3 = 125 = 0x7D -> -3; 1; 9 -> -7
  EXPECT_EQ(ints(r[8]), (I{7, 0, 1, -3, 1, -7}));
  // The high 4 bits of the 8-bit product: 7, 8 -> 0; 0; 0; 15 -> 0; -2 -> -1; 6 -> 0
  EXPECT_EQ(ints(r[9]), (I{0, 0, 0, 0, -1, 0}));
}

TEST_F(InterpreterTest, Int4Converts) {
  auto r = run(R"(
    func.func @main(%f: tensor<7xf32>, %i: tensor<7xi32>, %a: tensor<7xi4>) -> (tensor<7xi4>, tensor<7xui4>, tensor<7xi4>, tensor<7xui4>, tensor<7xf32>, tensor<7xi32>) {
      %0 = hlo.convert %f : (tensor<7xf32>) -> tensor<7xi4>
      %1 = hlo.convert %f : (tensor<7xf32>) -> tensor<7xui4>
      %2 = hlo.convert %i : (tensor<7xi32>) -> tensor<7xi4>
      %3 = hlo.convert %a : (tensor<7xi4>) -> tensor<7xui4>
      %4 = hlo.convert %a : (tensor<7xi4>) -> tensor<7xf32>
      %5 = hlo.convert %3 : (tensor<7xui4>) -> tensor<7xi32>
      return %0, %1, %2, %3, %4, %5 : tensor<7xi4>, tensor<7xui4>, tensor<7xi4>, tensor<7xui4>, tensor<7xf32>, tensor<7xi32>
    })",
               {f32({7}, {7.9f, -8.5f, 100.0f, -0.9f, kNaN, 15.5f, -kInf}),
                s32({7}, {17, -9, 8, -16, 15, 255, -1}),
                make<int8_t>(DType::S4, {7}, {-8, -1, 0, 1, 7, -5, 3})});
  ASSERT_EQ(r.size(), 6u) << lastError;
  // Truncated toward zero, saturated; NaN is 0.
  EXPECT_EQ(ints(r[0]), (I{7, -8, 7, 0, 0, 7, -8}));
  EXPECT_EQ(ints(r[1]), (I{7, 0, 15, 0, 0, 15, 0}));
  EXPECT_EQ(ints(r[2]), (I{1, 7, -8, 0, -1, -1, -1})); // the low 4 bits
  EXPECT_EQ(ints(r[3]), (I{8, 15, 0, 1, 7, 11, 3}));
  EXPECT_EQ(values(r[4]), (D{-8, -1, 0, 1, 7, -5, 3}));
  EXPECT_EQ(ints(r[5]), (I{8, 15, 0, 1, 7, 11, 3})); // zero-extended
  // Every byte holds the value extended: u4 bytes are 0..15.
  for (int64_t i = 0; i < 7; ++i)
    EXPECT_LE(r[3].data<uint8_t>()[i], 15);
}

TEST_F(InterpreterTest, PredLogic) {
  auto r = run(R"(
    func.func @main(%a: tensor<4xi1>, %b: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
      %0 = hlo.and %a, %b : tensor<4xi1>
      %1 = hlo.xor %a, %b : tensor<4xi1>
      %2 = hlo.not %a : tensor<4xi1>
      return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
    })",
               {make<uint8_t>(DType::Pred, {4}, {0, 0, 1, 1}),
                make<uint8_t>(DType::Pred, {4}, {0, 1, 0, 1})});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(ints(r[0]), (I{0, 0, 0, 1}));
  EXPECT_EQ(ints(r[1]), (I{0, 1, 1, 0}));
  EXPECT_EQ(ints(r[2]), (I{1, 1, 0, 0}));
}

TEST_F(InterpreterTest, ConvertSaturatesTruncatesAndRounds) {
  auto r = run(R"(
    func.func @main(%a: tensor<6xf32>, %i: tensor<3xi32>) -> (tensor<6xi32>, tensor<6xui8>, tensor<6xbf16>, tensor<3xi1>, tensor<3xf16>) {
      %0 = hlo.convert %a : (tensor<6xf32>) -> tensor<6xi32>
      %1 = hlo.convert %a : (tensor<6xf32>) -> tensor<6xui8>
      %2 = hlo.convert %a : (tensor<6xf32>) -> tensor<6xbf16>
      %3 = hlo.convert %i : (tensor<3xi32>) -> tensor<3xi1>
      %4 = hlo.convert %i : (tensor<3xi32>) -> tensor<3xf16>
      return %0, %1, %2, %3, %4 : tensor<6xi32>, tensor<6xui8>, tensor<6xbf16>, tensor<3xi1>, tensor<3xf16>
    })",
               {f32({6}, {2.7f, -2.7f, kNaN, 1e10f, -1e10f, 1.00390625f}),
                s32({3}, {0, -3, 2049})});
  ASSERT_EQ(r.size(), 5u);
  const int64_t max = std::numeric_limits<int32_t>::max();
  const int64_t min = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(ints(r[0]), (I{2, -2, 0, max, min, 1}));
  EXPECT_EQ(ints(r[1]), (I{2, 0, 0, 255, 0, 1}));
  EXPECT_EQ(values(r[2])[0], 2.703125); // RNE to 8 significant bits
  EXPECT_EQ(values(r[2])[5], 1.0);      // tie to even
  EXPECT_EQ(ints(r[3]), (I{0, 1, 1}));
  EXPECT_EQ(values(r[4]), (D{0.0, -3.0, 2048.0})); // 2049 ties to even in f16
}

TEST_F(InterpreterTest, CompareFloatVersusTotalOrder) {
  auto r = run(R"(
    func.func @main(%a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>) {
      %0 = hlo.compare LT, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
      %1 = hlo.compare LT, %a, %b, TOTALORDER : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
      %2 = hlo.compare NE, %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
      return %0, %1, %2 : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>
    })",
               {f32({3}, {-0.0f, 1.0f, -kNaN}), f32({3}, {0.0f, kNaN, -kInf})});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(ints(r[0]), (I{0, 0, 0}));
  EXPECT_EQ(ints(r[1]), (I{1, 1, 1})); // -0 < +0, 1 < NaN, -NaN < -inf
  EXPECT_EQ(ints(r[2]), (I{0, 1, 1}));
}

TEST_F(InterpreterTest, F16AndF64) {
  auto r = run(R"(
    func.func @main(%a: tensor<1xf16>, %b: tensor<1xf64>) -> (tensor<1xf16>, tensor<1xf64>) {
      %0 = hlo.add %a, %a : tensor<1xf16>
      %1 = hlo.multiply %0, %0 : tensor<1xf16>
      %2 = hlo.divide %b, %b : tensor<1xf64>
      %3 = hlo.sqrt %b : tensor<1xf64>
      return %1, %3 : tensor<1xf16>, tensor<1xf64>
    })",
               {make<uint16_t>(DType::F16, {1}, {f32ToF16Bits(200.0f)}),
                make<double>(DType::F64, {1}, {2.0})});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(values(r[0])[0], kInf); // 400*400 overflows f16
  EXPECT_EQ(values(r[1])[0], std::sqrt(2.0));
}

TEST_F(InterpreterTest, DotGeneralBatchAndTwoContractingDims) {
  // lhs [b=2, 2, 2], rhs [b=2, 2, 2, n=1]: out[b][n] = sum_ij lhs[b,i,j]*rhs[b,i,j,n].
  auto r = run(R"(
    func.func @main(%a: tensor<2x2x2xf32>, %b: tensor<2x2x2x1xf32>) -> tensor<2x1xf32> {
      %0 = hlo.dot_general %a, %b, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [1, 2], rhs_contracting = [1, 2]> : (tensor<2x2x2xf32>, tensor<2x2x2x1xf32>) -> tensor<2x1xf32>
      return %0 : tensor<2x1xf32>
    })",
               {f32({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}),
                f32({2, 2, 2, 1}, {1, 1, 1, 1, 1, 0, 0, 2})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(values(r[0]), (D{10, 21}));
}

TEST_F(InterpreterTest, Bf16DotAccumulatesInF32AndRoundsOnce) {
  // 1 + 2^-8 + 2^-8 = 1 + 2^-7 exactly; rounding per step would give 1.
  auto r = run(R"(
    func.func @main(%a: tensor<1x3xbf16>, %b: tensor<3x1xbf16>) -> tensor<1x1xbf16> {
      %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<1x3xbf16>, tensor<3x1xbf16>) -> tensor<1x1xbf16>
      return %0 : tensor<1x1xbf16>
    })",
               {bf16({1, 3}, {1.0f, 0.00390625f, 0.00390625f}), bf16({3, 1}, {1, 1, 1})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(values(r[0]), (D{1.0078125}));
}

TEST_F(InterpreterTest, ConvolutionGroupsDilationPadding) {
  // Channel 0 convolves with [1, 1], channel 1 with [1, -1]; the kernel is
  // dilated by 2 and the input padded by 1 on each side.
  auto r = run(R"(
    func.func @main(%x: tensor<1x5x2xf32>, %w: tensor<2x1x2xf32>) -> tensor<1x5x2xf32> {
      %0 = hlo.convolution %x, %w, dim_labels = <"b0f_0io->b0f"> {padding = array<i64: 1, 1>, rhs_dilation = array<i64: 2>, feature_group_count = 2 : i64} : (tensor<1x5x2xf32>, tensor<2x1x2xf32>) -> tensor<1x5x2xf32>
      return %0 : tensor<1x5x2xf32>
    })",
               {f32({1, 5, 2}, {1, 10, 2, 20, 3, 30, 4, 40, 5, 50}),
                f32({2, 1, 2}, {1, 1, 1, -1})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(values(r[0]), (D{2, -20, 4, -20, 6, -20, 8, -20, 4, 40}));
}

TEST_F(InterpreterTest, ConvolutionLhsDilationReversalAndLayout) {
  // Transposed convolution: [1,2,3] dilated to [1,0,2,0,3], kernel [1,10]
  // reversed to [10,1]; feature-major layouts on both sides.
  auto r = run(R"(
    func.func @main(%x: tensor<1x1x3xf32>, %w: tensor<1x1x2xf32>) -> tensor<1x1x4xf32> {
      %0 = hlo.convolution %x, %w, dim_labels = <"bf0_oi0->bf0"> {lhs_dilation = array<i64: 2>, window_reversal = array<i1: true>} : (tensor<1x1x3xf32>, tensor<1x1x2xf32>) -> tensor<1x1x4xf32>
      return %0 : tensor<1x1x4xf32>
    })",
               {f32({1, 1, 3}, {1, 2, 3}), f32({1, 1, 2}, {1, 10})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(values(r[0]), (D{10, 2, 20, 3}));
}

TEST_F(InterpreterTest, ConvolutionBatchGroups) {
  // Two input batches, two output features: feature g sees only batch g.
  auto r = run(R"(
    func.func @main(%x: tensor<2x2x1xf32>, %w: tensor<1x1x2xf32>) -> tensor<1x2x2xf32> {
      %0 = hlo.convolution %x, %w, dim_labels = <"b0f_0io->b0f"> {batch_group_count = 2 : i64} : (tensor<2x2x1xf32>, tensor<1x1x2xf32>) -> tensor<1x2x2xf32>
      return %0 : tensor<1x2x2xf32>
    })",
               {f32({2, 2, 1}, {1, 2, 3, 4}), f32({1, 1, 2}, {10, 100})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(values(r[0]), (D{10, 300, 20, 400}));
}

TEST_F(InterpreterTest, GatherClampsAndBatches) {
  auto r = run(R"(
    func.func @main(%t: tensor<3x2xf32>, %i: tensor<3x1xi32>, %u: tensor<2x3xf32>, %j: tensor<2x1xi32>) -> (tensor<3x2xf32>, tensor<2xf32>) {
      %0 = hlo.gather %t, %i, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 2] : (tensor<3x2xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
      %1 = hlo.gather %u, %j, dims = <collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, sizes = [1, 1] : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2xf32>
      return %0, %1 : tensor<3x2xf32>, tensor<2xf32>
    })",
               {f32({3, 2}, {0, 1, 10, 11, 20, 21}), s32({3, 1}, {2, 0, 7}),
                f32({2, 3}, {0, 1, 2, 10, 11, 12}), s32({2, 1}, {2, 0})});
  ASSERT_EQ(r.size(), 2u) << lastError;
  EXPECT_EQ(values(r[0]), (D{20, 21, 0, 1, 20, 21})); // 7 clamps to 2
  EXPECT_EQ(values(r[1]), (D{2, 10}));
}

TEST_F(InterpreterTest, ScatterAddsDuplicatesAndSkipsOutOfBounds) {
  auto r = run(R"(
    func.func @main(%t: tensor<4xf32>, %i: tensor<3x1xi32>, %u: tensor<3xf32>) -> tensor<4xf32> {
      %0 = hlo.scatter(%t) at %i updates(%u), dims = <inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<4xf32>, tensor<3x1xi32>, tensor<3xf32>) -> tensor<4xf32> {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      }
      return %0 : tensor<4xf32>
    })",
               {f32({4}, {1, 1, 1, 1}), s32({3, 1}, {1, 1, 4}), f32({3}, {10, 20, 30})});
  ASSERT_EQ(r.size(), 1u) << lastError;
  EXPECT_EQ(values(r[0]), (D{1, 31, 1, 1}));
}

TEST_F(InterpreterTest, ScatterRegionReplaces) {
  auto r = run(R"(
    func.func @main(%t: tensor<2x2xi32>, %i: tensor<1xi32>, %u: tensor<1x2xi32>) -> tensor<2x2xi32> {
      %0 = hlo.scatter(%t) at %i updates(%u), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<2x2xi32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<2x2xi32> {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        hlo.return %b : tensor<i32>
      }
      return %0 : tensor<2x2xi32>
    })",
               {s32({2, 2}, {1, 2, 3, 4}), s32({1}, {1}), s32({1, 2}, {7, 8})});
  ASSERT_EQ(r.size(), 1u) << lastError;
  EXPECT_EQ(ints(r[0]), (I{1, 2, 7, 8}));
}

TEST_F(InterpreterTest, ReduceWindowPaddingStrideAndBaseDilation) {
  auto r = run(R"(
    func.func @main(%x: tensor<5xf32>, %y: tensor<3xf32>) -> (tensor<3xf32>, tensor<4xf32>) {
      %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
      %zero = hlo.constant dense<0.0> : tensor<f32>
      %0 = hlo.reduce_window(%x) init(%ninf) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>, padding = array<i64: 1, 0>} : (tensor<5xf32>, tensor<f32>) -> tensor<3xf32> {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      }
      %1 = hlo.reduce_window(%y) init(%zero) {window_dimensions = array<i64: 2>, base_dilations = array<i64: 2>} : (tensor<3xf32>, tensor<f32>) -> tensor<4xf32> {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      }
      return %0, %1 : tensor<3xf32>, tensor<4xf32>
    })",
               {f32({5}, {1, 2, 3, 4, 5}), f32({3}, {1, 2, 3})});
  ASSERT_EQ(r.size(), 2u) << lastError;
  EXPECT_EQ(values(r[0]), (D{1, 3, 5}));
  EXPECT_EQ(values(r[1]), (D{1, 2, 2, 3}));
}

TEST_F(InterpreterTest, SelectAndScatter) {
  auto r = run(R"(
    func.func @main(%x: tensor<4xf32>, %s: tensor<2xf32>) -> tensor<4xf32> {
      %zero = hlo.constant dense<0.0> : tensor<f32>
      %0 = hlo.select_and_scatter %x, %s, %zero {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32> select {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %c = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
        hlo.return %c : tensor<i1>
      } scatter {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %t = hlo.add %a, %b : tensor<f32>
        hlo.return %t : tensor<f32>
      }
      return %0 : tensor<4xf32>
    })",
               {f32({4}, {1, 5, 4, 4}), f32({2}, {10, 20})});
  ASSERT_EQ(r.size(), 1u) << lastError;
  EXPECT_EQ(values(r[0]), (D{0, 10, 20, 0})); // GE keeps the first of a tie
}

TEST_F(InterpreterTest, SortIsStableWithFastAndRegionComparators) {
  const char *source = R"(
    func.func @main(%k: tensor<4xi32>, %v: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) {
      %0:2 = hlo.sort(%k, %v) dim = 0 {is_stable = true} : (tensor<4xi32>, tensor<4xf32>) -> (tensor<4xi32>, tensor<4xf32>) {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
        %lt = hlo.compare LT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
        hlo.return %lt : tensor<i1>
      }
      %1:2 = hlo.sort(%k, %v) dim = 0 {is_stable = true} : (tensor<4xi32>, tensor<4xf32>) -> (tensor<4xi32>, tensor<4xf32>) {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
        %na = hlo.negate %a : tensor<i32>
        %nb = hlo.negate %b : tensor<i32>
        %lt = hlo.compare LT, %na, %nb : (tensor<i32>, tensor<i32>) -> tensor<i1>
        hlo.return %lt : tensor<i1>
      }
      return %0#0, %0#1, %1#1 : tensor<4xi32>, tensor<4xf32>, tensor<4xf32>
    })";
  auto r = run(source, {s32({4}, {3, 1, 3, 1}), f32({4}, {0, 1, 2, 3})});
  ASSERT_EQ(r.size(), 3u) << lastError;
  EXPECT_EQ(ints(r[0]), (I{1, 1, 3, 3}));
  EXPECT_EQ(values(r[1]), (D{1, 3, 0, 2}));
  EXPECT_EQ(values(r[2]), (D{0, 2, 1, 3})); // descending, still stable
}

TEST_F(InterpreterTest, TopK) {
  auto r = run(R"(
    func.func @main(%x: tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xi32>) {
      %v, %i = hlo.topk %x, k = 2 : (tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xi32>)
      return %v, %i : tensor<2x2xf32>, tensor<2x2xi32>
    })",
               {f32({2, 4}, {1, 4, 2, 4, -1, -3, -2, 0})});
  ASSERT_EQ(r.size(), 2u) << lastError;
  EXPECT_EQ(values(r[0]), (D{4, 4, 0, -1}));
  EXPECT_EQ(ints(r[1]), (I{1, 3, 3, 0}));
}

TEST_F(InterpreterTest, VariadicReduceArgmaxRunsTheRegion) {
  auto r = run(R"(
    func.func @main(%x: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> (tensor<2xf32>, tensor<2xi32>) {
      %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
      %zero = hlo.constant dense<0> : tensor<i32>
      %0:2 = hlo.reduce(%x, %i) init(%ninf, %zero) dims = [1] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>) {
      ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
        %gt = hlo.compare GT, %bv, %av : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %v = hlo.select %gt, %bv, %av : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
        %j = hlo.select %gt, %bi, %ai : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
        hlo.return %v, %j : tensor<f32>, tensor<i32>
      }
      return %0#0, %0#1 : tensor<2xf32>, tensor<2xi32>
    })",
               {f32({2, 3}, {1, 7, 3, 9, 2, 9}), s32({2, 3}, {0, 1, 2, 0, 1, 2})});
  ASSERT_EQ(r.size(), 2u) << lastError;
  EXPECT_EQ(values(r[0]), (D{7, 9}));
  EXPECT_EQ(ints(r[1]), (I{1, 0}));
}

TEST_F(InterpreterTest, WhileAndConditional) {
  auto r = run(R"(
    func.func @main(%n: tensor<i32>, %b: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
      %zero = hlo.constant dense<0> : tensor<i32>
      %one = hlo.constant dense<1> : tensor<i32>
      %w:2 = hlo.while(%zero, %zero) : tensor<i32>, tensor<i32> cond {
      ^bb0(%i: tensor<i32>, %s: tensor<i32>):
        %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
        hlo.return %c : tensor<i1>
      } do {
      ^bb0(%i: tensor<i32>, %s: tensor<i32>):
        %i1 = hlo.add %i, %one : tensor<i32>
        %s1 = hlo.add %s, %i : tensor<i32>
        hlo.return %i1, %s1 : tensor<i32>, tensor<i32>
      }
      %c = hlo.conditional %b (%n, %n) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32> {
      ^bb0(%x: tensor<i32>):
        %y = hlo.negate %x : tensor<i32>
        hlo.return %y : tensor<i32>
      }, {
      ^bb0(%x: tensor<i32>):
        %y = hlo.add %x, %x : tensor<i32>
        hlo.return %y : tensor<i32>
      }
      return %w#1, %c : tensor<i32>, tensor<i32>
    })",
               {s32({}, {5}), s32({}, {7})});
  ASSERT_EQ(r.size(), 2u) << lastError;
  EXPECT_EQ(ints(r[0]), (I{10})); // 0+1+2+3+4
  EXPECT_EQ(ints(r[1]), (I{10})); // index 7 is out of range: last branch
}

TEST_F(InterpreterTest, ShapeOps) {
  auto r = run(R"(
    func.func @main(%x: tensor<2x3xi32>, %p: tensor<3xi32>) -> (tensor<3x2xi32>, tensor<2x3xi32>, tensor<1x2xi32>, tensor<5xi32>, tensor<2x2xi32>, tensor<2x3xi32>, tensor<2x2x3xi32>, tensor<4x3xi32>) {
      %nine = hlo.constant dense<9> : tensor<i32>
      %big = hlo.constant dense<5> : tensor<i32>
      %zero = hlo.constant dense<0> : tensor<i32>
      %0 = hlo.transpose %x, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
      %1 = hlo.reverse %x, dims = [1] : tensor<2x3xi32>
      %2 = hlo.slice %x [1:2:1, 0:3:2] : (tensor<2x3xi32>) -> tensor<1x2xi32>
      %3 = hlo.pad %p, %nine, low = [-1], high = [1], interior = [1] : (tensor<3xi32>, tensor<i32>) -> tensor<5xi32>
      %4 = hlo.dynamic_slice %x, [%zero, %big], sizes = [2, 2] : (tensor<2x3xi32>, tensor<i32>, tensor<i32>) -> tensor<2x2xi32>
      %u = hlo.constant dense<[[7, 8]]> : tensor<1x2xi32>
      %5 = hlo.dynamic_update_slice %x, %u, [%big, %zero] : (tensor<2x3xi32>, tensor<1x2xi32>, tensor<i32>, tensor<i32>) -> tensor<2x3xi32>
      %6 = hlo.broadcast_in_dim %p, dims = [2] : (tensor<3xi32>) -> tensor<2x2x3xi32>
      %7 = hlo.concatenate(%x, %x) dim = 0 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<4x3xi32>
      return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<3x2xi32>, tensor<2x3xi32>, tensor<1x2xi32>, tensor<5xi32>, tensor<2x2xi32>, tensor<2x3xi32>, tensor<2x2x3xi32>, tensor<4x3xi32>
    })",
               {s32({2, 3}, {1, 2, 3, 4, 5, 6}), s32({3}, {1, 2, 3})});
  ASSERT_EQ(r.size(), 8u) << lastError;
  EXPECT_EQ(ints(r[0]), (I{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(ints(r[1]), (I{3, 2, 1, 6, 5, 4}));
  EXPECT_EQ(ints(r[2]), (I{4, 6}));
  EXPECT_EQ(ints(r[3]), (I{9, 2, 9, 3, 9}));
  EXPECT_EQ(ints(r[4]), (I{2, 3, 5, 6})); // start 5 clamps to 1
  EXPECT_EQ(ints(r[5]), (I{1, 2, 3, 7, 8, 6}));
  EXPECT_EQ(ints(r[6]), (I{1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(ints(r[7]), (I{1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6}));
}

TEST_F(InterpreterTest, ReduceBf16RoundsEachStep) {
  // 1 + 2^-8 rounds back to 1 four times in bf16; the f32 sum does not.
  auto r = run(R"(
    func.func @main(%x: tensor<5xbf16>) -> (tensor<bf16>, tensor<f32>) {
      %z = hlo.constant dense<0.0> : tensor<bf16>
      %zf = hlo.constant dense<0.0> : tensor<f32>
      %0 = hlo.reduce(%x) init(%z) dims = [0] : (tensor<5xbf16>, tensor<bf16>) -> tensor<bf16> {
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = hlo.add %a, %b : tensor<bf16>
        hlo.return %s : tensor<bf16>
      }
      %xf = hlo.convert %x : (tensor<5xbf16>) -> tensor<5xf32>
      %1 = hlo.reduce(%xf) init(%zf) dims = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<f32> {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      }
      return %0, %1 : tensor<bf16>, tensor<f32>
    })",
               {bf16({5}, {1, 0.00390625f, 0.00390625f, 0.00390625f, 0.00390625f})});
  ASSERT_EQ(r.size(), 2u) << lastError;
  EXPECT_EQ(values(r[0]), (D{1.0}));
  EXPECT_EQ(values(r[1]), (D{1.015625}));
}

TEST_F(InterpreterTest, WrongArgumentsNameTheParameter) {
  const char *source = R"(
    func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
      return %a : tensor<2x3xf32>
    })";
  EXPECT_TRUE(run(source, {f32({3, 2}, {1, 2, 3, 4, 5, 6})}).empty());
  EXPECT_NE(lastError.find("parameter 0 expects f32[2,3] but the input is f32[3,2]"),
            std::string::npos)
      << lastError;
  EXPECT_TRUE(run(source, {}).empty());
  EXPECT_NE(lastError.find("@main has 1 parameters but 0 inputs were given"),
            std::string::npos)
      << lastError;
}

} // namespace
