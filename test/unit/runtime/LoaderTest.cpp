// The loader's validation: every malformed executable gives a Status naming
// the offending field or instruction, never a crash.
#include <random>

#include "SamplePrograms.h"
#include "TestUtil.h"
#include "gtest/gtest.h"
#include "runtime/loader/Executable.h"

namespace tpuc::runtime {
namespace {

using test::vregShape;

// A small valid program: copy the parameter to the result through VMEM.
ProgramBuilder validProgram() {
  ProgramBuilder b;
  b.setDebugOp("copy.1", "jit(f)/copy");
  uint32_t p = b.addParameter("x", vregShape());
  uint32_t r = b.addResult("y", vregShape());
  b.dma(exe::HBM, imm(b.parameterOffset(p)), exe::VMEM, imm(0), imm(4096), imm(1),
        imm(0), imm(0), imm(0));
  b.semWait(imm(0), imm(1));
  b.dma(exe::VMEM, imm(0), exe::HBM, imm(b.resultOffset(r)), imm(4096), imm(1),
        imm(0), imm(0), imm(0));
  b.semWait(imm(0), imm(1));
  b.emit(exe::HALT);
  return b;
}

std::string loadError(const exe::Executable &proto) {
  absl::StatusOr<Executable> e = loadExecutable(proto.SerializeAsString());
  EXPECT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(e.status().message());
}

TEST(Loader, AcceptsValidProgram) {
  ProgramBuilder b = validProgram();
  absl::StatusOr<Executable> e = loadExecutable(b.serialize());
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->numInstructions(), 5);
  EXPECT_EQ(e->parameterBytes(0), 4096);
  EXPECT_EQ(e->hbmFootprint(), 8192u);
  EXPECT_EQ(e->describeInstruction(0),
            "instruction 0 (DMA, hlo op copy.1, jit(f)/copy)");
}

TEST(Loader, RejectsGarbageAndTruncation) {
  EXPECT_EQ(loadExecutable("\xff\xff\xff").status().message(),
            "not a tpuc executable: protobuf parse failed (3 bytes)");
  EXPECT_EQ(loadExecutable("").status().message(),
            "field format_version: 0 is not supported (this runtime reads "
            "version 1)");
  // Every strict prefix of a valid file is rejected, whatever the cut.
  std::string bytes = validProgram().serialize();
  for (size_t n = 0; n < bytes.size(); ++n)
    EXPECT_FALSE(loadExecutable(bytes.substr(0, n)).ok()) << "prefix " << n;
}

TEST(Loader, RejectsWrongVersion) {
  exe::Executable e = validProgram().proto();
  e.set_format_version(2);
  EXPECT_EQ(loadError(e), "field format_version: 2 is not supported (this "
                          "runtime reads version 1)");
}

TEST(Loader, RejectsBadTarget) {
  exe::Executable e = validProgram().proto();
  e.mutable_target()->set_clock_hz(std::nan(""));
  EXPECT_EQ(loadError(e), "field target.clock_hz: nan not in [1e+06, 1e+11]");
  e = validProgram().proto();
  e.mutable_target()->set_mxu_rows(64);
  EXPECT_EQ(loadError(e), "field target.mxu_rows: 64 is not a supported MXU "
                          "size (128 or 256)");
  e = validProgram().proto();
  e.clear_target();
  EXPECT_EQ(loadError(e), "field target: missing");
}

// MXUs are square, 128x128 or 256x256, 1 to 64 of them.
TEST(Loader, AcceptsEveryMxuShape) {
  for (uint32_t d : {128u, 256u})
    for (uint32_t count : {1u, 2u, 8u, 64u}) {
      exe::Executable e = validProgram().proto();
      e.mutable_target()->set_mxu_rows(d);
      e.mutable_target()->set_mxu_cols(d);
      e.mutable_target()->set_mxu_count(count);
      absl::StatusOr<Executable> loaded =
          loadExecutable(e.SerializeAsString());
      EXPECT_TRUE(loaded.ok()) << d << "x" << d << " x " << count << ": "
                               << loaded.status();
    }
}

TEST(Loader, RefusesOtherMxuShapes) {
  struct Case {
    uint32_t rows, cols, count;
    const char *error;
  };
  const Case cases[] = {
      {512, 512, 2,
       "field target.mxu_rows: 512 is not a supported MXU size (128 or 256)"},
      {0, 0, 2,
       "field target.mxu_rows: 0 is not a supported MXU size (128 or 256)"},
      {256, 128, 2,
       "field target.mxu_cols: 128 differs from mxu_rows 256 (the MXU is a "
       "square array)"},
      {128, 128, 0, "field target.mxu_count: 0 not in [1, 64]"},
      {128, 128, 65, "field target.mxu_count: 65 not in [1, 64]"},
  };
  for (const Case &c : cases) {
    exe::Executable e = validProgram().proto();
    e.mutable_target()->set_mxu_rows(c.rows);
    e.mutable_target()->set_mxu_cols(c.cols);
    e.mutable_target()->set_mxu_count(c.count);
    EXPECT_EQ(loadError(e), c.error);
  }
}

TEST(Loader, RejectsBadBuffers) {
  exe::Executable e = validProgram().proto();
  e.mutable_buffers(1)->set_offset(100);
  EXPECT_EQ(loadError(e), "buffers[0] ('x') and buffers[1] ('y') overlap");
  // Heap buffers share addresses only in disjoint steps.
  for (int i = 0; i < 2; ++i) {
    e.mutable_buffers(i)->set_heap(true);
    e.mutable_buffers(i)->set_live_first(i == 0 ? 0 : 3);
    e.mutable_buffers(i)->set_live_last(i == 0 ? 3 : 5);
  }
  EXPECT_EQ(loadError(e), "buffers[0] ('x') and buffers[1] ('y') overlap");
  e.mutable_buffers(1)->set_live_first(4);
  EXPECT_TRUE(loadExecutable(e.SerializeAsString()).ok());
  e.mutable_buffers(0)->set_heap(false);
  EXPECT_EQ(loadError(e), "buffers[0] ('x') and buffers[1] ('y') overlap");
  e.mutable_buffers(1)->set_live_first(6);
  EXPECT_EQ(loadError(e), "buffers[1] ('y'): live_first 6 > live_last 5");
  e = validProgram().proto();
  e.mutable_buffers(1)->set_offset(16ull << 30);
  EXPECT_EQ(loadError(e), "buffers[1] ('y'): [17179869184, +4096) exceeds "
                          "usable HBM of 16624123904 bytes");
  e = validProgram().proto();
  e.mutable_buffers(0)->set_size(0);
  EXPECT_EQ(loadError(e), "buffers[0] ('x'): size is 0");
  e = validProgram().proto();
  e.mutable_buffers(0)->set_size(100);
  EXPECT_EQ(loadError(e),
            "parameters[0]: padded size 4096 exceeds buffers[0] size 100");
}

TEST(Loader, RejectsBadArrays) {
  exe::Executable e = validProgram().proto();
  e.mutable_results(0)->set_buffer(7);
  EXPECT_EQ(loadError(e), "results[0].buffer: 7 out of range (2 buffers)");
  e = validProgram().proto();
  e.mutable_results(0)->set_buffer(0);
  EXPECT_EQ(loadError(e), "results[0] and parameters[0] share buffers[0] "
                          "without an input_output_alias");
  e.add_aliases()->set_result(0); // parameter 0: now legal
  EXPECT_TRUE(validateExecutable(e).ok());
  e = validProgram().proto();
  e.add_aliases()->set_result(0);
  EXPECT_EQ(loadError(e), "aliases[0]: result 0 and parameter 0 must name the "
                          "same buffer");
  e = validProgram().proto();
  e.mutable_parameters(0)->mutable_shape()->set_dims(0, -3);
  EXPECT_EQ(loadError(e), "parameters[0].shape: dim -3 not in [0, 2^48]");
  e = validProgram().proto();
  exe::Constant *c = e.add_constants();
  *c->mutable_shape() = makeShape(exe::F32, {2}, {});
  c->set_buffer(0);
  c->set_data("abc");
  EXPECT_EQ(loadError(e), "constants[0].data: 3 bytes, expected 8");
}

TEST(Loader, RejectsBadInstructions) {
  auto withInstruction = [](int pc, auto edit) {
    exe::Executable e = validProgram().proto();
    edit(*e.mutable_instructions(pc));
    return loadError(e);
  };
  EXPECT_EQ(withInstruction(0, [](auto &in) { in.set_opcode(exe::Opcode(999)); }),
            "instruction 0: unknown opcode 999");
  EXPECT_EQ(withInstruction(0, [](auto &in) { in.mutable_args()->RemoveLast(); }),
            "instruction 0 (DMA): has 6 args, expected 7");
  EXPECT_EQ(withInstruction(0, [](auto &in) { in.mutable_args(1)->set_reg(32); }),
            "instruction 0 (DMA): args[1].reg s32 not in s0..s31");
  EXPECT_EQ(withInstruction(0, [](auto &in) { in.mutable_args(6)->set_imm(32); }),
            "instruction 0 (DMA): semaphore 32 not in [0, 32)");
  EXPECT_EQ(withInstruction(0, [](auto &in) { in.set_src_space(exe::MemorySpace(9)); }),
            "instruction 0 (DMA): invalid memory space 9");
  EXPECT_EQ(withInstruction(0, [](auto &in) { in.set_dst(3); }),
            "instruction 0 (DMA): field dst is not used by this opcode");
  EXPECT_EQ(withInstruction(1, [](auto &in) { in.set_cmp(exe::LT); }),
            "instruction 1 (SEM_WAIT): field cmp is not used by this opcode");
  EXPECT_EQ(withInstruction(1, [](auto &in) { in.set_debug_op(5); }),
            "instruction 1 (SEM_WAIT): debug_op 5 out of range (1 debug ops)");
  EXPECT_EQ(withInstruction(4, [](auto &in) {
              in.set_opcode(exe::SMOV);
              in.set_dst(40);
              in.add_args();
            }),
            "instruction 4 (SMOV): dst s40 not in s1..s31");
  EXPECT_EQ(withInstruction(4, [](auto &in) {
              in.set_opcode(exe::SMOV);
              in.add_args();
            }),
            "instruction 4 (SMOV): dst s0 not in s1..s31");
  EXPECT_EQ(withInstruction(4, [](auto &in) {
              in.set_opcode(exe::BR);
              in.set_target(99);
            }),
            "instruction 4 (BR): branch target 99 not in [0, 5)");
  EXPECT_EQ(withInstruction(4, [](auto &in) {
              in.set_opcode(exe::VADD);
              in.add_vsrc(0);
              in.add_vsrc(33);
              in.set_dtype(exe::F32);
            }),
            "instruction 4 (VADD): vsrc v33 not in v0..v31");
  EXPECT_EQ(withInstruction(4, [](auto &in) {
              in.set_opcode(exe::VEXP);
              in.add_vsrc(0);
              in.set_dtype(exe::S32);
            }),
            "instruction 4 (VEXP): dtype s32 not allowed");
  EXPECT_EQ(withInstruction(4, [](auto &in) {
              in.set_opcode(exe::VCVT);
              in.add_vsrc(0);
              in.set_dtype(exe::S32);
              in.set_src_dtype(exe::BF16);
            }),
            "instruction 4 (VCVT): conversion bf16 -> s32 not supported");
  EXPECT_EQ(withInstruction(4, [](auto &in) {
              in.set_opcode(exe::VTRANSPOSE);
              in.add_vsrc(20);
            }),
            "instruction 4 (VTRANSPOSE): the 16-register block must end by "
            "v31");
  for (int64_t rows : {0, 17})
    EXPECT_EQ(withInstruction(4,
                              [&](auto &in) {
                                in.set_opcode(exe::VTRANSPOSE_ROWS);
                                in.add_vsrc(0);
                                in.add_args()->set_imm(rows);
                              }),
              "instruction 4 (VTRANSPOSE_ROWS): args[0] must be an immediate "
              "in 1..16 (the registers written)");
  EXPECT_EQ(withInstruction(4, [](auto &in) {
              in.set_opcode(exe::VTRANSPOSE_ROWS);
              in.add_vsrc(0);
              in.add_args()->set_reg(3);
            }),
            "instruction 4 (VTRANSPOSE_ROWS): args[0] must be an immediate "
            "in 1..16 (the registers written)");
  EXPECT_EQ(withInstruction(4, [](auto &in) {
              in.set_opcode(exe::VTRANSPOSE_ROWS);
              in.set_dst(30);
              in.add_vsrc(0);
              in.add_args()->set_imm(3);
            }),
            "instruction 4 (VTRANSPOSE_ROWS): the source's 16-register block "
            "and the 3 registers written must end by v31");
  EXPECT_EQ(withInstruction(4, [](auto &in) {
              in.set_opcode(exe::MXU_LOAD_WEIGHTS);
              in.add_args();
              in.set_mxu(2);
            }),
            "instruction 4 (MXU_LOAD_WEIGHTS): mxu 2 not in [0, 2)");
}

TEST(Loader, RejectsBadControlFlow) {
  ProgramBuilder b;
  b.emit(exe::LOOP_END);
  EXPECT_EQ(b.build().status().message(),
            "instruction 0 (LOOP_END): no matching LOOP_BEGIN");
  ProgramBuilder open;
  open.loopBegin(1, imm(3));
  EXPECT_EQ(open.build().status().message(),
            "instruction 0 (LOOP_BEGIN): no matching LOOP_END");
  ProgramBuilder into; // a branch into a loop body
  into.emit(exe::BR).set_target(2);
  into.loopBegin(1, imm(3));
  into.emit(exe::NOP);
  into.loopEnd();
  EXPECT_EQ(into.build().status().message(),
            "instruction 0 (BR): branch target 2 is in a different loop body");
  ProgramBuilder deep;
  for (int i = 0; i < kMaxLoopDepth + 1; ++i)
    deep.loopBegin(1, imm(1));
  EXPECT_EQ(deep.build().status().message(),
            "instruction 16 (LOOP_BEGIN): loop nesting deeper than 16");
  ProgramBuilder empty;
  EXPECT_EQ(empty.build().status().message(),
            "field instructions: empty program");
}

// Random byte flips, insertions and truncations of valid files: the loader
// must answer (ok or InvalidArgument) without crashing, and whatever it
// accepts must run on the emulator to a result or a trap. Under ASan this
// is a small fuzzer.
TEST(Loader, SurvivesRandomMutations) {
  std::mt19937 rng(1234);
  int rejected = 0, ran = 0;
  for (const std::string &base :
       {validProgram().serialize(), test::scaleProgram().serialize(),
        test::rowSoftmaxProgram().serialize()}) {
    for (int i = 0; i < 2000; ++i) {
      std::string bytes = base;
      int edits = 1 + rng() % 4;
      for (int k = 0; k < edits; ++k) {
        size_t at = rng() % bytes.size();
        switch (rng() % 3) {
        case 0:
          bytes[at] = static_cast<char>(rng());
          break;
        case 1:
          bytes.insert(at, 1, static_cast<char>(rng()));
          break;
        default:
          bytes.resize(at + 1);
          break;
        }
      }
      absl::StatusOr<Executable> e = loadExecutable(bytes);
      if (!e.ok()) {
        ++rejected;
        EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument);
        continue;
      }
      if (e->hbmFootprint() > (64u << 20))
        continue;
      std::vector<hostio::HostArray> inputs;
      for (const exe::Parameter &p : e->proto().parameters())
        inputs.push_back(
            hostio::HostArray::zeros(
                toHostDType(p.shape().dtype()),
                {p.shape().dims().begin(), p.shape().dims().end()})
                .value());
      EmulatorDevice device(e->target());
      ExecuteOptions options;
      options.maxInstructions = 100000;
      absl::StatusOr<RunResult> r = runExecutable(device, *e, inputs, options);
      ++ran;
      EXPECT_TRUE(r.ok() ||
                  r.status().code() == absl::StatusCode::kFailedPrecondition ||
                  r.status().code() == absl::StatusCode::kInvalidArgument)
          << r.status();
    }
  }
  EXPECT_GT(rejected, 2000);
  EXPECT_GT(ran, 100);
}

} // namespace
} // namespace tpuc::runtime
