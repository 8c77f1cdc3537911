// The step loop (runSteps): aliased results are the next step's parameters
// without leaving the device, and the step log that `tpuc interpret --steps`
// and `tpuc-run --steps` print.
#include <vector>

#include "SamplePrograms.h"
#include "TestUtil.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace tpuc::runtime {
namespace {

using namespace test;

std::vector<hostio::HostArray> sgdInputs(float w, float g) {
  return {makeF32({8, 128}, std::vector<float>(8 * 128, w)),
          makeF32({8, 128}, std::vector<float>(8 * 128, g))};
}

TEST(StepLoop, AliasedResultFeedsTheNextStep) {
  absl::StatusOr<Executable> e = sgdStepProgram().build();
  ASSERT_TRUE(e.ok()) << e.status();
  EmulatorDevice device(e->target());
  std::vector<float> losses;
  std::vector<uint64_t> cycles;
  absl::StatusOr<RunResult> r = runSteps(
      device, *e, sgdInputs(1, 1), 5, {},
      [&](int64_t step, const ExecutionProfile &profile) -> absl::Status {
        EXPECT_EQ(step, static_cast<int64_t>(losses.size()) + 1);
        absl::StatusOr<hostio::HostArray> loss = readResult(device, *e, 1);
        if (!loss.ok())
          return loss.status();
        losses.push_back(values<float>(*loss)[0]);
        cycles.push_back(profile.cycles);
        return absl::OkStatus();
      });
  ASSERT_TRUE(r.ok()) << r.status();
  // loss_k = w_k[0,0] = 1 - 0.25 (k - 1): every step saw the previous update.
  EXPECT_EQ(losses, (std::vector<float>{1, 0.75f, 0.5f, 0.25f, 0}));
  for (float w : values<float>(r->results[0]))
    ASSERT_EQ(w, -0.25f);
  EXPECT_EQ(values<float>(r->results[1])[0], 0.f);
  // The timing model is deterministic: every step costs the same.
  for (uint64_t c : cycles)
    EXPECT_EQ(c, cycles[0]);
  EXPECT_EQ(r->profile.cycles, cycles[0]);
}

// N steps on one device equal N single runs on fresh devices with each
// aliased result fed back by hand, bit for bit.
TEST(StepLoop, MatchesRunsChainedOnTheHost) {
  absl::StatusOr<Executable> e = sgdStepProgram().build();
  ASSERT_TRUE(e.ok()) << e.status();
  std::vector<hostio::HostArray> inputs = sgdInputs(0.3f, 0.7f);
  EmulatorDevice device(e->target());
  absl::StatusOr<RunResult> loop = runSteps(device, *e, inputs, 3, {});
  ASSERT_TRUE(loop.ok()) << loop.status();
  absl::StatusOr<RunResult> single;
  for (int step = 0; step < 3; ++step) {
    EmulatorDevice fresh(e->target());
    single = runExecutable(fresh, *e, inputs);
    ASSERT_TRUE(single.ok()) << single.status();
    inputs[0] = single->results[0];
  }
  EXPECT_EQ(loop->results[0], single->results[0]);
  EXPECT_EQ(loop->results[1], single->results[1]);
}

// Without aliases every step computes the same results.
TEST(StepLoop, WithoutAliasesEveryStepIsTheSame) {
  absl::StatusOr<Executable> e = scaleProgram().build();
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->proto().aliases_size(), 0);
  std::vector<hostio::HostArray> inputs = {
      makeF32({8, 128}, std::vector<float>(8 * 128, 3))};
  EmulatorDevice device(e->target());
  absl::StatusOr<RunResult> r = runSteps(device, *e, inputs, 4, {});
  ASSERT_TRUE(r.ok()) << r.status();
  for (float y : values<float>(r->results[0]))
    ASSERT_EQ(y, 7.f);
}

TEST(StepLoop, Errors) {
  absl::StatusOr<Executable> e = sgdStepProgram().build();
  ASSERT_TRUE(e.ok()) << e.status();
  EmulatorDevice device(e->target());
  absl::StatusOr<RunResult> r = runSteps(device, *e, sgdInputs(1, 1), 0, {});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(), "the step count must be at least 1, got 0");

  // An error from the callback stops the loop and is returned.
  int calls = 0;
  r = runSteps(device, *e, sgdInputs(1, 1), 10, {},
               [&](int64_t step, const ExecutionProfile &) {
                 ++calls;
                 return step == 2 ? absl::CancelledError("stop")
                                  : absl::OkStatus();
               });
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(r.status(), absl::CancelledError("stop"));

  // A trap names the step.
  ExecuteOptions tight;
  tight.maxInstructions = 3;
  r = runSteps(device, *e, sgdInputs(1, 1), 2, tight);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StartsWith(r.status().message(), "step 1: ")) << r.status();

  EXPECT_EQ(readResult(device, *e, 2).status().code(),
            absl::StatusCode::kOutOfRange);
}

TEST(StepLog, PrintedSteps) {
  // Default: about ten lines, the first and the last always.
  EXPECT_EQ(stepPrintInterval(100, 0), 10);
  EXPECT_EQ(stepPrintInterval(7, 0), 1);
  EXPECT_EQ(stepPrintInterval(101, 0), 11);
  EXPECT_EQ(stepPrintInterval(100, 25), 25);
  std::vector<int64_t> printed;
  for (int64_t step = 1; step <= 100; ++step)
    if (isPrintedStep(step, 100, 25))
      printed.push_back(step);
  EXPECT_EQ(printed, (std::vector<int64_t>{1, 25, 50, 75, 100}));
  printed.clear();
  for (int64_t step = 1; step <= 23; ++step)
    if (isPrintedStep(step, 23, stepPrintInterval(23, 0)))
      printed.push_back(step);
  EXPECT_EQ(printed, (std::vector<int64_t>{1, 3, 6, 9, 12, 15, 18, 21, 23}));
}

TEST(StepLog, Line) {
  hostio::HostArray loss = makeF32({}, {2.302585093f});
  hostio::HostArray count = *hostio::HostArray::zeros(hostio::DType::S32, {1});
  EXPECT_EQ(formatStepLine(10, 100, {{4, &loss}, {5, &count}}),
            "step 10/100: result4=2.302585 result5=0");
  EXPECT_EQ(formatStepLine(1, 1, {}), "step 1/1:");
  // Every element type: integers sign-extended or not, bf16 with its digits.
  auto one = [](hostio::DType dtype, hostio::Bytes bytes) {
    return *hostio::HostArray::fromBytes(dtype, {}, bytes);
  };
  hostio::HostArray s8 = one(hostio::DType::S8, {0xfe});
  hostio::HostArray u16 = one(hostio::DType::U16, {0xfe, 0xff});
  hostio::HostArray s64 =
      one(hostio::DType::S64, {0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff});
  hostio::HostArray pred = one(hostio::DType::Pred, {1});
  hostio::HostArray bf16 = one(hostio::DType::BF16, {0x49, 0x40}); // 3.140625
  EXPECT_EQ(formatStepLine(
                2, 3, {{0, &s8}, {1, &u16}, {2, &s64}, {3, &pred}, {4, &bf16}}),
            "step 2/3: result0=-2 result1=65534 result2=-3 result3=true "
            "result4=3.141");
}

TEST(StepLog, NamedLine) {
  hostio::HostArray loss = makeF32({}, {2.5f});
  EXPECT_EQ(formatStepLine(3, 9, {{1, &loss}}, {"sub.14", "loss"}),
            "step 3/9: loss=2.5");
  // Past the names: the index.
  EXPECT_EQ(formatStepLine(3, 9, {{2, &loss}}, {"a", "b"}),
            "step 3/9: result2=2.5");
}

TEST(ResultNames, FileSafeUniqueWithFallback) {
  ProgramBuilder p;
  const char *hloOps[] = {"loss", "neg.48", "a/b c", "", "dup", "dup", "..",
                          "result1"};
  for (const char *op : hloOps) {
    uint32_t r = p.addResult("r", vregShape());
    p.proto().mutable_results(r)->set_hlo_op(op);
  }
  p.emit(exe::HALT);
  absl::StatusOr<Executable> e = p.build();
  ASSERT_TRUE(e.ok()) << e.status();
  // Without an HLO instruction, the result's own name ("r").
  EXPECT_EQ(resultNames(*e),
            (std::vector<std::string>{"loss", "neg.48", "a_b_c", "r",
                                      "result4", "result5", "result6",
                                      "result7"}));
}

TEST(ResultNames, FromInstructionNames) {
  // What tpuc interpret passes: one HLO instruction name per result.
  EXPECT_EQ(resultNames(std::vector<std::string>{"sub.85", "", "x:y",
                                                 "while.8", "while.8"}),
            (std::vector<std::string>{"sub.85", "result1", "x_y", "result3",
                                      "result4"}));
}

} // namespace
} // namespace tpuc::runtime
