// Collectives placed on the slice's torus (runtime/emulator/Torus.h,
// placeCollective in Ici.h): chip coordinates with x fastest, hops the
// shorter way round a torus, links shared by concurrent transfers.
#include "runtime/emulator/Torus.h"

#include "runtime/emulator/Ici.h"
#include "gtest/gtest.h"

namespace tpuc::runtime {
namespace {

// tpu-v3-8: 2 x 2 chips (a mesh), 2 cores per chip.
Torus v3_8() { return Torus{{2, 2}, false, 2}; }

TEST(Torus, Hops) {
  Torus t = v3_8();
  EXPECT_EQ(t.hops(0, 1), 0); // the cores of chip (0,0)
  EXPECT_EQ(t.hops(1, 2), 1); // chip (0,0) -> (1,0)
  EXPECT_EQ(t.hops(3, 4), 2); // chip (1,0) -> (0,1)
  EXPECT_EQ(t.hops(0, 7), 2);
  // A ring of 8 chips: the shorter way round a torus, not round a mesh.
  Torus ring{{8}, true, 1}, line{{8}, false, 1};
  EXPECT_EQ(ring.hops(0, 7), 1);
  EXPECT_EQ(line.hops(0, 7), 7);
  EXPECT_EQ(ring.hops(1, 5), 4);
  // 4 x 4 torus: (1,0) -> (3,3) is 2 + 1 hops.
  Torus t44{{4, 4}, true, 1};
  EXPECT_EQ(t44.hops(1, 15), 3);
}

TEST(Torus, RoutesAreDimensionOrderedAndCountLinks) {
  Torus t = v3_8();
  EXPECT_TRUE(t.route(0, 1).empty());
  EXPECT_EQ(t.route(3, 4).size(), 2u);
  // Two transfers out of chip (0,0) along +x share its link; opposite
  // directions do not.
  EXPECT_EQ(maxLinkLoad(t, {{0, 2}, {1, 3}}), 2);
  EXPECT_EQ(maxLinkLoad(t, {{0, 2}, {2, 0}}), 1);
  EXPECT_EQ(maxLinkLoad(t, {}), 1);
}

exe::Collective groupOf(std::vector<std::vector<uint32_t>> groups) {
  exe::Collective c;
  for (const auto &g : groups) {
    exe::ReplicaGroup *r = c.add_groups();
    for (uint32_t d : g)
      r->add_devices(d);
  }
  return c;
}

TEST(Torus, PlaceCollective) {
  Torus t = v3_8();
  // All 8 devices in id order: the ring's chip (1,0) -> (0,1) and
  // (1,1) -> (0,0) edges take 2 hops; no link carries two edges.
  exe::Collective all = groupOf({{0, 1, 2, 3, 4, 5, 6, 7}});
  IciPlacement p = placeCollective(exe::ALL_REDUCE, all, 0, t);
  EXPECT_EQ(p.hops, 2);
  EXPECT_EQ(p.linkLoad, 1);
  // A snake order is a ring of one-hop links.
  exe::Collective snake = groupOf({{0, 1, 2, 3, 6, 7, 4, 5}});
  EXPECT_EQ(placeCollective(exe::ALL_REDUCE, snake, 0, t).hops, 1);
  // Groups of the two cores of each chip use no link: one hop of latency.
  exe::Collective cores = groupOf({{0, 1}, {2, 3}, {4, 5}, {6, 7}});
  p = placeCollective(exe::ALL_REDUCE, cores, 4, t);
  EXPECT_EQ(p.hops, 1);
  EXPECT_EQ(p.linkLoad, 1);
  // {0,2} and {1,3}: both rings cross chip (0,0)'s +x link.
  exe::Collective across = groupOf({{0, 2}, {1, 3}, {4, 6}, {5, 7}});
  EXPECT_EQ(placeCollective(exe::ALL_GATHER, across, 0, t).linkLoad, 2);
  // A broadcast's latency is its whole chain's: 0 -> 2 -> 4 is 1 + 2 hops.
  exe::Collective chain = groupOf({{0, 2, 4}});
  EXPECT_EQ(placeCollective(exe::COLLECTIVE_BROADCAST, chain, 2, t).hops, 3);
  // A permute: the device's own transfer.
  exe::Collective permute;
  for (auto [s, d] : {std::pair{0, 7}, std::pair{2, 3}}) {
    exe::SourceTarget *p2 = permute.add_pairs();
    p2->set_source(s);
    p2->set_target(d);
  }
  EXPECT_EQ(placeCollective(exe::COLLECTIVE_PERMUTE, permute, 7, t).hops, 2);
  EXPECT_EQ(placeCollective(exe::COLLECTIVE_PERMUTE, permute, 3, t).hops, 1);
  // Without a topology: one hop, no sharing.
  p = placeCollective(exe::ALL_REDUCE, all, 0, Torus{});
  EXPECT_EQ(p.hops, 1);
  EXPECT_EQ(p.linkLoad, 1);
}

TEST(Torus, CostUsesPlacement) {
  IciLinks links;
  links.bytesPerSecondPerLink = 82e9;
  links.hopLatencySeconds = 1e-6;
  // docs/runtime.md: 8-device all-reduce of 8 KiB, 14 steps at 940 MHz.
  EXPECT_EQ(
      collectiveCost(exe::ALL_REDUCE, 8, 8192, false, links, 940e6).cycles,
      13243u);
  // Two hops per step: 14 x (2 us + 1024 B / 164 GB/s).
  EXPECT_EQ(
      collectiveCost(exe::ALL_REDUCE, 8, 8192, false, links, 940e6, {2, 1})
          .cycles,
      26403u);
  // A link shared by two transfers halves the bandwidth: a 1 MiB
  // collective-permute takes 1 us + 2 x 1 MiB / 82 GB/s.
  EXPECT_EQ(collectiveCost(exe::COLLECTIVE_PERMUTE, 2, 1 << 20, true, links,
                           1e9, {1, 2})
                .cycles,
            26576u);
}

} // namespace
} // namespace tpuc::runtime
