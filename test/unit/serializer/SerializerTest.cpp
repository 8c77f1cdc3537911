// The serializer's placement decisions, checked on the proto directly.
#include "compiler/serializer/Serializer.h"
#include "dialects/tpu/TpuDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

namespace {

class SerializerTest : public ::testing::Test {
protected:
  SerializerTest() {
    context.loadDialect<tpuc::tpu::TpuDialect, mlir::arith::ArithDialect,
                        mlir::func::FuncDialect>();
  }
  // Parses and serializes `source`; fails the test on any error.
  tpuc::exe::Executable serialize(const char *source) {
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    mlir::FailureOr<tpuc::exe::Executable> executable =
        tpuc::serializer::serializeModule(*module);
    EXPECT_TRUE(mlir::succeeded(executable));
    return mlir::succeeded(executable) ? *executable : tpuc::exe::Executable();
  }
  mlir::MLIRContext context;
};

TEST_F(SerializerTest, ReturnedArgumentAliasesItsParameter) {
  tpuc::exe::Executable e = serialize(R"mlir(
    func.func @f(%a: memref<8x128xf32, #tpu.memory_space<hbm>>)
        -> memref<8x128xf32, #tpu.memory_space<hbm>> {
      return %a : memref<8x128xf32, #tpu.memory_space<hbm>>
    })mlir");
  ASSERT_EQ(e.results_size(), 1);
  EXPECT_EQ(e.results(0).buffer(), e.parameters(0).buffer());
  ASSERT_EQ(e.aliases_size(), 1);
  EXPECT_EQ(e.aliases(0).parameter(), 0u);
  EXPECT_EQ(e.buffers_size(), 1);
}

TEST_F(SerializerTest, VmemBuffersArePageAlignedInProgramOrder) {
  tpuc::exe::Executable e = serialize(R"mlir(
    func.func @f() {
      %c0 = arith.constant 0 : index
      %small = tpu.alloc : memref<8x128xbf16, #tpu.memory_space<vmem>>
      %next = tpu.alloc : memref<8x128xf32, #tpu.memory_space<vmem>>
      %v = tpu.vlane_id : vector<8x128xi32>
      %f = tpu.vcvt %v : vector<8x128xi32> to vector<8x128xf32>
      tpu.vstore %f, %small[%c0] : vector<8x128xf32>, memref<8x128xbf16, #tpu.memory_space<vmem>>
      tpu.vstore %f, %next[%c0] : vector<8x128xf32>, memref<8x128xf32, #tpu.memory_space<vmem>>
      return
    })mlir");
  ASSERT_EQ(e.instructions_size(), 5);
  EXPECT_EQ(e.instructions(2).opcode(), tpuc::exe::VST);
  EXPECT_EQ(e.instructions(2).args(0).imm(), 0);
  EXPECT_EQ(e.instructions(2).dtype(), tpuc::exe::BF16);
  // 2 KiB of bf16, then the next buffer on the next 4 KiB page.
  EXPECT_EQ(e.instructions(3).args(0).imm(), 4096);
  EXPECT_EQ(e.instructions(4).opcode(), tpuc::exe::HALT);
}

TEST_F(SerializerTest, ValuesUsedInALoopLiveToItsEnd) {
  tpuc::exe::Executable e = serialize(R"mlir(
    func.func @f() {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %m = tpu.alloc : memref<8x128xi32, #tpu.memory_space<vmem>>
      %outside = tpu.vlane_id : vector<8x128xi32>
      tpu.loop %i = 0 to %c4 {
        %inside = tpu.vsublane_id : vector<8x128xi32>
        %sum = tpu.vadd %outside, %inside : vector<8x128xi32>
        tpu.vstore %sum, %m[%c0] : vector<8x128xi32>, memref<8x128xi32, #tpu.memory_space<vmem>>
      }
      return
    })mlir");
  ASSERT_EQ(e.instructions_size(), 7);
  EXPECT_EQ(e.instructions(1).opcode(), tpuc::exe::LOOP_BEGIN);
  EXPECT_EQ(e.instructions(1).dst(), 1u);
  EXPECT_EQ(e.instructions(1).args(0).imm(), 4);
  // %outside (v0) is read on every iteration, so %inside and %sum never
  // take its register.
  EXPECT_EQ(e.instructions(0).dst(), 0u);
  EXPECT_NE(e.instructions(2).dst(), 0u);
  EXPECT_NE(e.instructions(3).dst(), 0u);
  EXPECT_EQ(e.instructions(5).opcode(), tpuc::exe::LOOP_END);
}

TEST_F(SerializerTest, TransposeGetsConsecutiveRegisters) {
  std::string source = "func.func @f() {\n";
  for (int i = 15; i >= 0; --i) // defined in reverse: sources not in order
    source +=
        "  %v" + std::to_string(i) + " = tpu.vlane_id : vector<8x128xi32>\n";
  source += "  %t:16 = tpu.vtranspose %v0";
  for (int i = 1; i < 16; ++i)
    source += ", %v" + std::to_string(i);
  source += " : vector<8x128xi32>\n  return\n}\n";
  tpuc::exe::Executable e = serialize(source.c_str());
  // 16 VLANE_ID (v15 first, in v0), 16 VMOV into a block in source order,
  // VTRANSPOSE in place, HALT.
  ASSERT_EQ(e.instructions_size(), 34);
  const tpuc::exe::Instruction &t = e.instructions(32);
  EXPECT_EQ(t.opcode(), tpuc::exe::VTRANSPOSE);
  EXPECT_EQ(t.vsrc(0), 16u);
  EXPECT_EQ(t.dst(), 16u);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(e.instructions(16 + i).opcode(), tpuc::exe::VMOV);
    EXPECT_EQ(e.instructions(16 + i).dst(), 16u + i);
    EXPECT_EQ(e.instructions(16 + i).vsrc(0), 15u - i);
  }
}

} // namespace
