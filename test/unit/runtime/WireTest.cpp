// The bytes a run spread over MPI processes sends between them
// (runtime/emulator/Wire.h): every profile field survives the round trip,
// and truncated or padded bytes are an error, not a crash.
#include "runtime/emulator/Wire.h"

#include "gtest/gtest.h"

namespace tpuc::runtime {
namespace {

ExecutionProfile sampleProfile() {
  ExecutionProfile p;
  p.cycles = 123456789;
  p.seconds = 0.125;
  p.flops = 3.5e9;
  p.hbmBytes = 1 << 20;
  p.hbmUsedBytes = 4096;
  p.hbmPlannedBytes = 2048;
  p.mxuUtilization = 0.25;
  p.hbmBandwidthUtilization = 0.75;
  p.instructionsExecuted = 77;
  p.ops.push_back({"dot.3", "jit(f)/dot", 12, 900, 1e6, 512});
  p.timingOnly = true;
  p.controlInstructions = 5;
  p.controlRestarts = 1;
  p.dataDependent.push_back(
      {40, "trip count", "while.2", "w", {"x", "previous step"}, 3, 30});
  p.trace.push_back({Unit::Mxu, 2, 17, 100, 164});
  p.device = 6;
  p.iciBytes = 7168;
  p.collectives.push_back({37, "ALL_REDUCE", "r", 8, 4096, 7168, 25, 13202});
  return p;
}

TEST(Wire, ProfileRoundTrip) {
  ExecutionProfile p = sampleProfile();
  std::string bytes = wire::packProfile(p);
  absl::StatusOr<ExecutionProfile> q = wire::unpackProfile(bytes);
  ASSERT_TRUE(q.ok()) << q.status();
  // The renderings cover every field but the trace; the trace by hand.
  EXPECT_EQ(profileToJson(*q), profileToJson(p));
  EXPECT_EQ(profileToText(*q), profileToText(p));
  EXPECT_EQ(q->device, 6);
  EXPECT_EQ(q->iciBytes, 7168u);
  ASSERT_EQ(q->trace.size(), 1u);
  EXPECT_EQ(q->trace[0].unit, Unit::Mxu);
  EXPECT_EQ(q->trace[0].unitIndex, 2);
  EXPECT_EQ(q->trace[0].end, 164u);
  ASSERT_EQ(q->dataDependent.size(), 1u);
  EXPECT_EQ(q->dataDependent[0].dependsOn[1], "previous step");
  ASSERT_EQ(q->collectives.size(), 1u);
  EXPECT_EQ(q->collectives[0].waitCycles, 25u);
  EXPECT_EQ(wire::packProfile(*q), bytes);
}

TEST(Wire, MalformedBytesAreAnError) {
  std::string bytes = wire::packProfile(sampleProfile());
  for (size_t cut : {size_t(0), size_t(5), bytes.size() / 2, bytes.size() - 1})
    EXPECT_FALSE(wire::unpackProfile(bytes.substr(0, cut)).ok()) << cut;
  absl::StatusOr<ExecutionProfile> padded = wire::unpackProfile(bytes + "x");
  ASSERT_FALSE(padded.ok());
  EXPECT_EQ(padded.status().message(),
            "malformed profile from another process");
}

TEST(Wire, Strings) {
  std::vector<std::string> parts = {"", "abc", std::string("\0\1", 2)};
  absl::StatusOr<std::vector<std::string>> back =
      wire::unpackStrings(wire::packStrings(parts));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, parts);
  EXPECT_TRUE(wire::unpackStrings(wire::packStrings({})).ok());
  // A count far beyond the bytes is rejected before any allocation.
  EXPECT_FALSE(wire::unpackStrings(std::string(8, '\xff')).ok());
}

} // namespace
} // namespace tpuc::runtime
