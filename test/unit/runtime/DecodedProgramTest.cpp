// The emulator's decoded instruction stream (runtime/emulator/
// DecodedProgram.h): every field the step loop reads equals the protobuf's,
// and a device running executables in turn runs each one's own code.
#include "runtime/emulator/DecodedProgram.h"

#include <vector>

#include "SamplePrograms.h"
#include "TestUtil.h"
#include "gtest/gtest.h"

namespace tpuc::runtime {
namespace {

using test::makeF32;
using test::values;

// A program with register and immediate operands, DMA's seven args, a
// negative immediate and instructions with and without a debug op.
ProgramBuilder operandsProgram() {
  ProgramBuilder b;
  b.scalar(exe::SMOV, 3, {imm(-4096)});
  b.setDebugOp("add.1", "jit(f)/add");
  b.scalar(exe::SADD, 5, {sreg(3, 8192), imm(7)});
  b.dma(exe::VMEM, imm(0), exe::VMEM, sreg(5, 4096), imm(512), imm(2),
        imm(1024), sreg(3, -1), imm(9));
  b.setDebugOp("");
  b.semWait(imm(9), imm(1));
  b.emit(exe::HALT);
  return b;
}

TEST(DecodedProgram, FieldsMatchTheProto) {
  absl::StatusOr<Executable> e = operandsProgram().build();
  ASSERT_TRUE(e.ok()) << e.status();
  std::vector<DecodedInstruction> code;
  decodeProgram(*e, code);
  ASSERT_EQ(static_cast<int64_t>(code.size()), e->numInstructions());
  for (int64_t pc = 0; pc < e->numInstructions(); ++pc) {
    const exe::Instruction &in = e->instruction(pc);
    const DecodedInstruction &d = code[pc];
    SCOPED_TRACE(pc);
    EXPECT_EQ(d.proto, &in);
    EXPECT_EQ(d.opcode, in.opcode());
    EXPECT_EQ(d.info, getOpcodeInfo(in.opcode()));
    EXPECT_EQ(d.debugOp, in.debug_op());
    ASSERT_EQ(d.numArgs, in.args_size());
    for (int i = 0; i < d.numArgs; ++i) {
      EXPECT_EQ(d.args[i].reg, in.args(i).reg());
      EXPECT_EQ(d.args[i].imm, in.args(i).imm());
    }
  }
  // Spot checks against what the builder was given.
  EXPECT_EQ(code[1].args[0].reg, 3u);
  EXPECT_EQ(code[1].args[0].imm, 8192);
  EXPECT_NE(code[1].debugOp, 0u);
  EXPECT_EQ(code[2].numArgs, 7);
  EXPECT_EQ(code[2].args[6].imm, 9);
  EXPECT_EQ(code[2].args[5].reg, 3u);
  EXPECT_EQ(code[2].args[5].imm, -1);
  EXPECT_EQ(code[3].debugOp, 0u);
  EXPECT_EQ(code[4].info->unit, Unit::Scalar);
}

TEST(DecodedProgram, EveryOpcodeFits) {
  for (const OpcodeInfo &info : allOpcodes())
    EXPECT_LE(info.numArgs, kMaxDecodedArgs) << info.name;
}

// Storage reused for a shorter program holds only that program.
TEST(DecodedProgram, ReusedStorageHoldsTheLatestProgram) {
  absl::StatusOr<Executable> big = operandsProgram().build();
  absl::StatusOr<Executable> small = test::scaleProgram().build();
  ASSERT_TRUE(big.ok() && small.ok());
  std::vector<DecodedInstruction> code;
  decodeProgram(*big, code);
  decodeProgram(*small, code);
  ASSERT_EQ(static_cast<int64_t>(code.size()), small->numInstructions());
  for (int64_t pc = 0; pc < small->numInstructions(); ++pc) {
    EXPECT_EQ(code[pc].proto, &small->instruction(pc));
    EXPECT_EQ(code[pc].opcode, small->instruction(pc).opcode());
  }
}

// y = x op x for f32[8,128]: programs of one buffer layout, so that one
// device runs any of them.
ProgramBuilder selfOpProgram(exe::Opcode op) {
  ProgramBuilder b;
  test::loadVregParameter(b, 0);
  b.vector(op, 1, {0, 0}, exe::F32);
  test::storeVregResult(b, 1, exe::F32, /*scratch=*/4096);
  b.emit(exe::HALT);
  return b;
}

// One device running two executables in turn (its decoded storage refilled
// by each execute) computes each one's results.
TEST(DecodedProgram, DeviceAlternatingExecutables) {
  absl::StatusOr<Executable> add = selfOpProgram(exe::VADD).build();
  absl::StatusOr<Executable> mul = selfOpProgram(exe::VMUL).build();
  ASSERT_TRUE(add.ok()) << add.status();
  ASSERT_TRUE(mul.ok()) << mul.status();
  std::vector<hostio::HostArray> x = {
      makeF32({8, 128}, std::vector<float>(8 * 128, 3))};
  EmulatorDevice device(add->target());
  for (int round = 0; round < 2; ++round) {
    for (const auto &[e, want] : {std::pair{&*add, 6.f}, {&*mul, 9.f}}) {
      absl::StatusOr<RunResult> r = runExecutable(device, *e, x);
      ASSERT_TRUE(r.ok()) << r.status();
      for (float y : values<float>(r->results[0]))
        ASSERT_EQ(y, want);
    }
  }
}

} // namespace
} // namespace tpuc::runtime
