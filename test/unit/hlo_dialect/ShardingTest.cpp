//===- ShardingTest.cpp - XLA sharding text and iota replica groups -------===//

#include "dialects/hlo/Sharding.h"

#include "gtest/gtest.h"

using namespace tpuc::hlo;

namespace {

std::vector<std::vector<int64_t>> groups(llvm::StringRef text) {
  ShardingError error;
  auto result = parseIotaReplicaGroups(text, error);
  EXPECT_TRUE(result.has_value()) << error.message;
  return result.value_or(std::vector<std::vector<int64_t>>{});
}

// The expansions XLA's IotaReplicaGroupList gives (its printer writes the
// explicit list these stand for).
TEST(IotaReplicaGroups, ExpandsAsXla) {
  EXPECT_EQ(groups("[1,8]<=[8]"),
            (std::vector<std::vector<int64_t>>{{0, 1, 2, 3, 4, 5, 6, 7}}));
  EXPECT_EQ(groups("[2,4]<=[8]"),
            (std::vector<std::vector<int64_t>>{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(groups("[2,4]<=[4,2]T(1,0)"),
            (std::vector<std::vector<int64_t>>{{0, 2, 4, 6}, {1, 3, 5, 7}}));
  EXPECT_EQ(groups("[4,2]<=[2,2,2]T(2,0,1)"),
            (std::vector<std::vector<int64_t>>{{0, 2}, {4, 6}, {1, 3}, {5, 7}}));
}

TEST(IotaReplicaGroups, Errors) {
  ShardingError error;
  EXPECT_FALSE(parseIotaReplicaGroups("[2,4]<=[6]", error));
  EXPECT_EQ(error.message, "iota replica groups [2,4] need 8 ids, the iota has 6");
  EXPECT_FALSE(parseIotaReplicaGroups("[2,2]<=[2,2]T(1)", error));
  EXPECT_EQ(error.message, "the transpose T(...) must be a permutation of "
                           "the 2 reshape dimensions");
  EXPECT_FALSE(parseIotaReplicaGroups("[4]<=[4]", error));
  EXPECT_EQ(error.message,
            "iota replica groups need two dimensions [groups,size], got 1");
}

TEST(Sharding, Kinds) {
  ShardingError error;
  auto tiled = parseSharding("{devices=[2,1,2]<=[2,2]T(1,0) "
                             "last_tile_dim_replicate metadata={op_name=\"a\"}}",
                             error);
  ASSERT_TRUE(tiled) << error.message;
  EXPECT_EQ(tiled->kind, Sharding::Kind::Tiled);
  EXPECT_EQ(tiled->devices, (std::vector<int64_t>{0, 2, 1, 3}));
  EXPECT_EQ(tiled->numDataTileDims(), 2u);
  EXPECT_EQ(tiled->str(),
            "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}");
  // Device 1 holds tile (1, 0), the first copy of the replicated dimension.
  EXPECT_EQ(*tiled->tileIndexOf(1), (std::vector<int64_t>{1, 0, 0}));

  auto tuple = parseSharding("{{replicated}, {maximal device=3}, "
                             "{devices=[2,2]0,1,2,3 last_tile_dims={manual}}}",
                             error);
  ASSERT_TRUE(tuple) << error.message;
  ASSERT_EQ(tuple->elements.size(), 3u);
  EXPECT_EQ(tuple->elements[1].device, 3);
  EXPECT_EQ(tuple->elements[2].numDataTileDims(), 1u);
  EXPECT_EQ(tuple->str(), "{{replicated}, {maximal device=3}, "
                          "{devices=[2,2]0,1,2,3 last_tile_dims={manual}}}");
  EXPECT_TRUE(parseSharding("{}", error));
  EXPECT_EQ(parseSharding("{manual}", error)->str(), "{manual}");
}

TEST(Sharding, ErrorsNameTheOffset) {
  ShardingError error;
  EXPECT_FALSE(parseSharding("{devices=[2,2]0,1,2}", error));
  EXPECT_EQ(error.message, "the tile assignment [2,2] needs 4 devices, found 3");
  EXPECT_EQ(error.offset, 14u);
  EXPECT_FALSE(parseSharding("{devices=[2]0,0}", error));
  EXPECT_EQ(error.message, "device 0 is listed twice in the tile assignment");
  EXPECT_FALSE(parseSharding("{replicated} x", error));
  EXPECT_EQ(error.message, "unexpected text after the sharding");
  EXPECT_FALSE(parseSharding("{devices=[0]}", error));
  EXPECT_EQ(error.message,
            "the tile assignment dimensions must be positive, got 0");
}

} // namespace
