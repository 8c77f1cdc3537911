// Layout notation, XLA's default TPU tiling, byte sizes, and targets.
#include "compiler/layout/TiledLayout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace tpuc;
using layout::TiledLayout;

namespace {

class TiledLayoutTest : public ::testing::Test {
protected:
  MLIRContext context;
  Builder b{&context};

  target::TilingRules rules(const char *name = "tpu-v3") {
    return target::lookupTarget(name)->tiling;
  }
  TiledLayout parse(llvm::StringRef text) {
    std::string error;
    FailureOr<TiledLayout> layout = layout::parseLayout(text, error);
    EXPECT_TRUE(succeeded(layout)) << text.str() << ": " << error;
    return succeeded(layout) ? *layout : TiledLayout{};
  }
  /// The shape with XLA's default tiles, e.g. "f32[3,5]{1,0:T(8,128)}".
  std::string withDefaults(RankedTensorType type, llvm::StringRef m2m,
                           const char *target = "tpu-v3") {
    TiledLayout l = parse(m2m);
    return layout::xlaShape(type,
                            layout::withDefaultTiles(type, l, rules(target)));
  }
  /// {unpadded, padded} bytes in the default tiling.
  std::pair<int64_t, int64_t> sizes(RankedTensorType type, llvm::StringRef m2m,
                                    const char *target = "tpu-v3") {
    std::string error;
    FailureOr<layout::ByteSizes> s = layout::byteSizes(
        type, layout::withDefaultTiles(type, parse(m2m), rules(target)),
        error);
    EXPECT_TRUE(succeeded(s)) << error;
    return succeeded(s) ? std::pair{s->unpadded, s->padded}
                        : std::pair<int64_t, int64_t>{-1, -1};
  }
  RankedTensorType t(llvm::ArrayRef<int64_t> shape, Type element) {
    return RankedTensorType::get(shape, element);
  }
};

TEST_F(TiledLayoutTest, ParsesAndPrintsXlaNotation) {
  for (const char *text : {"{1,0}", "{1,0:T(8,128)}", "{2,1,0:T(8,128)(2,1)}",
                           "{0:T(256)}", "{:T(256)}", "{}",
                           "{0:T(1024)(128)(2,1)}", "{0,3,2,1:T(8,128)}"})
    EXPECT_EQ(layout::printLayout(parse(text)), text);
  // The fields that do not place elements are read and dropped: a memory
  // space (S(1), after XLA's memory space assignment), element bits, a
  // nested physical shape.
  for (auto [text, printed] :
       {std::pair{"{1,0:S(1)}", "{1,0}"},
        std::pair{"{1,0:T(8,128)S(1)}", "{1,0:T(8,128)}"},
        std::pair{"{0:T(1024)E(4)S(1)}", "{0:T(1024)}"},
        std::pair{"{1,0:D(D,C)T(8,128)L(8)P(s32[2]{0})M(16)}",
                  "{1,0:T(8,128)}"}})
    EXPECT_EQ(layout::printLayout(parse(text)), printed) << text;
  TiledLayout l = parse(" { 1 , 0 : T( 8 , 128 ) ( 2 , 1 ) } ");
  EXPECT_EQ(l.minorToMajor, (llvm::SmallVector<int64_t, 4>{1, 0}));
  ASSERT_EQ(l.tiles.size(), 2u);
  EXPECT_EQ(l.tiles[1], (layout::Tile{2, 1}));
}

TEST_F(TiledLayoutTest, RejectsMalformedLayouts) {
  struct Case {
    const char *text, *error;
  } cases[] = {
      {"1,0}", "expected '{' at '1,0}'"},
      {"{1,0", "expected '}' at ''"},
      {"{1,1}", "minor_to_major {1,1} is not a permutation of 0..1"},
      {"{2,0}", "minor_to_major {2,0} is not a permutation of 0..1"},
      {"{1,0:T(8,0)}", "tile dims must be positive at ')}'"},
      {"{1,0:Q(8)}", "expected a layout field (T, D, L, #, *, E, S, SC, P or "
                     "M) at 'Q(8)}'"},
      {"{1,0:S(1}", "expected ')' at '1}'"},
      {"{1,0:T(8,128)x}", "expected a layout field (T, D, L, #, *, E, S, SC, "
                          "P or M) at 'x}'"},
      {"{1,0} junk", "unexpected text after the layout at ' junk'"},
      {"{a}", "expected a non-negative integer at 'a}'"},
  };
  for (const Case &c : cases) {
    std::string error;
    EXPECT_TRUE(failed(layout::parseLayout(c.text, error))) << c.text;
    EXPECT_EQ(error, c.error) << c.text;
  }
}

TEST_F(TiledLayoutTest, ReferenceReportShapes) {
  // s32[29360128,10]{1,0:T(8,128)}: 14.00G padded, 1.09G unpadded.
  auto oneHot = t({29360128, 10}, b.getI32Type());
  EXPECT_EQ(withDefaults(oneHot, "{1,0}"), "s32[29360128,10]{1,0:T(8,128)}");
  EXPECT_EQ(sizes(oneHot, "{1,0}"),
            (std::pair<int64_t, int64_t>{1174405120, 15032385536}));
  // The layout XLA missed: 10 padded to 16 only.
  EXPECT_EQ(sizes(oneHot, "{0,1}").second, 1879048192);
  // f32[128,256,896,18]{0,3,2,1:T(8,128)}: 2.62G / 1.97G (18 -> 24).
  auto conv = t({128, 256, 896, 18}, b.getF32Type());
  EXPECT_EQ(withDefaults(conv, "{0,3,2,1}"),
            "f32[128,256,896,18]{0,3,2,1:T(8,128)}");
  EXPECT_EQ(sizes(conv, "{0,3,2,1}"),
            (std::pair<int64_t, int64_t>{2113929216, 2818572288}));
  // The report's small operands.
  EXPECT_EQ(withDefaults(t({1, 1, 8, 18}, b.getF32Type()), "{3,2,1,0}"),
            "f32[1,1,8,18]{3,2,1,0:T(8,128)}");
  EXPECT_EQ(withDefaults(t({18}, b.getF32Type()), "{0}"), "f32[18]{0:T(256)}");
  EXPECT_EQ(sizes(t({18}, b.getF32Type()), "{0}").second, 1024);
}

TEST_F(TiledLayoutTest, EveryElementTypeOnV3) {
  struct Case {
    Type type;
    const char *shape;
    int64_t unpadded, padded;
  } cases[] = {
      {b.getF32Type(), "f32[3,5]{1,0:T(8,128)}", 60, 4096},
      {b.getI32Type(), "s32[3,5]{1,0:T(8,128)}", 60, 4096},
      {b.getIntegerType(32, false), "u32[3,5]{1,0:T(8,128)}", 60, 4096},
      {b.getBF16Type(), "bf16[3,5]{1,0:T(8,128)(2,1)}", 30, 2048},
      {b.getF16Type(), "f16[3,5]{1,0:T(8,128)(2,1)}", 30, 2048},
      {b.getI16Type(), "s16[3,5]{1,0:T(8,128)(2,1)}", 30, 2048},
      {b.getI8Type(), "s8[3,5]{1,0:T(8,128)(4,1)}", 15, 1024},
      {b.getIntegerType(8, false), "u8[3,5]{1,0:T(8,128)(4,1)}", 15, 1024},
      {b.getI1Type(), "pred[3,5]{1,0:T(8,128)(4,1)}", 15, 1024},
      {b.getI64Type(), "s64[3,5]{1,0:T(8,128)}", 120, 8192},
      {b.getF64Type(), "f64[3,5]{1,0:T(8,128)}", 120, 8192},
  };
  for (const Case &c : cases) {
    auto type = t({3, 5}, c.type);
    EXPECT_EQ(withDefaults(type, "{1,0}"), c.shape);
    EXPECT_EQ(sizes(type, "{1,0}"),
              (std::pair<int64_t, int64_t>{c.unpadded, c.padded}))
        << c.shape;
  }
}

TEST_F(TiledLayoutTest, RankZeroAndOne) {
  struct Case {
    std::vector<int64_t> dims;
    Type type;
    const char *target, *shape;
    int64_t padded;
  } cases[] = {
      {{}, b.getF32Type(), "tpu-v3", "f32[]{:T(256)}", 1024},
      {{}, b.getF32Type(), "tpu-v5e", "f32[]{:T(128)}", 512},
      {{}, b.getBF16Type(), "tpu-v3", "bf16[]{:T(512)(128)(2,1)}", 1024},
      {{}, b.getI1Type(), "tpu-v3", "pred[]{:T(1024)(128)(4,1)}", 1024},
      {{18}, b.getF32Type(), "tpu-v3", "f32[18]{0:T(256)}", 1024},
      {{300}, b.getI32Type(), "tpu-v3", "s32[300]{0:T(256)}", 2048},
      {{16}, b.getI32Type(), "tpu-v5e", "s32[16]{0:T(128)}", 512},
      {{1500}, b.getF32Type(), "tpu-v3", "f32[1500]{0:T(1024)}", 8192},
      {{6144}, b.getBF16Type(), "tpu-v5e", "bf16[6144]{0:T(1024)(128)(2,1)}",
       12288},
      {{128}, b.getBF16Type(), "tpu-v5e", "bf16[128]{0:T(256)(128)(2,1)}",
       512},
  };
  for (const Case &c : cases) {
    auto type = t(c.dims, c.type);
    const char *m2m = c.dims.empty() ? "{}" : "{0}";
    EXPECT_EQ(withDefaults(type, m2m, c.target), c.shape);
    EXPECT_EQ(sizes(type, m2m, c.target).second, c.padded) << c.shape;
  }
}

TEST_F(TiledLayoutTest, NewerTargetsTileDifferently) {
  // 16-bit types keep T(8,128)(2,1) until TPU7x, which takes the large
  // second-minor tile by default.
  for (const char *name : {"tpu-v4", "tpu-v5e", "tpu-v5p", "tpu-v6e"}) {
    EXPECT_EQ(withDefaults(t({3, 5}, b.getBF16Type()), "{1,0}", name),
              "bf16[3,5]{1,0:T(8,128)(2,1)}")
        << name;
    EXPECT_EQ(sizes(t({3, 5}, b.getBF16Type()), "{1,0}", name).second, 2048);
  }
  EXPECT_EQ(withDefaults(t({3, 5}, b.getBF16Type()), "{1,0}", "tpu7x"),
            "bf16[3,5]{1,0:T(16,128)(2,1)}");
  EXPECT_EQ(sizes(t({3, 5}, b.getBF16Type()), "{1,0}", "tpu7x").second,
            4096);
  EXPECT_EQ(withDefaults(t({3, 5}, b.getI8Type()), "{1,0}", "tpu-v4"),
            "s8[3,5]{1,0:T(8,128)(4,1)}");
  EXPECT_EQ(withDefaults(t({3, 5}, b.getI8Type()), "{1,0}", "tpu7x"),
            "s8[3,5]{1,0:T(32,128)(4,1)}");
  EXPECT_EQ(withDefaults(t({3, 5}, b.getI8Type()), "{1,0}", "tpu-v5e"),
            "s8[3,5]{1,0:T(32,128)(4,1)}");
  // A second-minor dim of 1..4 gets a 1, 2 or 4-row tile.
  EXPECT_EQ(withDefaults(t({1, 2048}, b.getF32Type()), "{1,0}", "tpu-v5e"),
            "f32[1,2048]{1,0:T(1,128)}");
  EXPECT_EQ(withDefaults(t({3, 256}, b.getF32Type()), "{1,0}", "tpu-v5e"),
            "f32[3,256]{1,0:T(4,128)}");
  EXPECT_EQ(withDefaults(t({3, 256}, b.getF32Type()), "{1,0}", "tpu-v3"),
            "f32[3,256]{1,0:T(8,128)}");
}

TEST_F(TiledLayoutTest, InvalidLayoutIsAnError) {
  std::string error;
  TiledLayout l = parse("{1,0,2:T(8,128)}");
  EXPECT_TRUE(failed(layout::byteSizes(t({3, 5}, b.getF32Type()), l, error)));
  EXPECT_EQ(error, "minor_to_major has 3 entries for rank 2");
}

TEST(TargetsTest, PresetsAndLookup) {
  absl::StatusOr<target::TargetSpec> v3 = target::lookupTarget("tpu-v3");
  ASSERT_TRUE(v3.ok());
  EXPECT_EQ(v3->machine.hbm_bytes(), 16ull << 30);
  EXPECT_EQ(v3->machine.hbm_reserved_bytes(), 530ull << 20);
  // 15.48G usable, as XLA reports.
  EXPECT_EQ(target::usableHbmBytes(v3->machine), 16624123904ull);
  EXPECT_EQ(v3->machine.mxu_rows(), 128u);
  EXPECT_EQ(target::targetPresets().size(), 7u);
  absl::StatusOr<target::TargetSpec> bad = target::lookupTarget("tpu-v9");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "unknown target 'tpu-v9'; valid targets: tpu-v2, tpu-v3, tpu-v4, "
            "tpu-v5e, tpu-v5p, tpu-v6e, tpu7x; slices: tpu-v2-8, tpu-v3-8, "
            "tpu-v3-32, tpu-v4-8, tpu-v4-32, tpu-v5e-8, tpu-v5p-8");
  // A slice name selects the preset of one of its devices.
  EXPECT_EQ(target::lookupTarget("tpu-v3-32")->machine.name(), "tpu-v3");
  ASSERT_NE(target::findSlice("tpu-v4-32"), nullptr);
  EXPECT_EQ(target::findSlice("tpu-v4-32")->devices, 16);
}

// The usable limit XLA prints, per generation (docs/targets.md), and the
// per-core view of the megacores.
TEST(TargetsTest, LimitsAndCores) {
  struct Case {
    const char *name;
    uint64_t limit, reserved;
    uint32_t cores, mxus, mxuDim;
    uint64_t vmem, smem;
  } cases[] = {
      {"tpu-v2", (8ull << 30) - (530ull << 20), 530ull << 20, 1, 1, 128,
       16 << 20, 16 << 10},
      {"tpu-v3", (16ull << 30) - (530ull << 20), 530ull << 20, 1, 2, 128,
       16 << 20, 16 << 10},
      {"tpu-v4", 30ull * (1 << 30) + (3ull << 28), 1280ull << 20, 2, 8, 128,
       16 << 20, 1 << 20},
      {"tpu-v5e", (16ull << 30) - (256ull << 20), 256ull << 20, 1, 4, 128,
       128 << 20, 1 << 20},
      {"tpu-v5p", (96ull << 30) - (266ull << 20), 266ull << 20, 2, 8, 128,
       64 << 20, 1 << 20},
      {"tpu-v6e", 33550237696ull, 260ull << 20, 1, 2, 256, 128 << 20,
       1 << 20},
      {"tpu7x", (96ull << 30) - (1280ull << 20), 1280ull << 20, 1, 4, 256,
       64 << 20, 1 << 20},
  };
  for (const Case &c : cases) {
    absl::StatusOr<target::TargetSpec> spec = target::lookupTarget(c.name);
    ASSERT_TRUE(spec.ok()) << c.name;
    const exe::Target &m = spec->machine;
    EXPECT_EQ(target::usableHbmBytes(m), c.limit) << c.name;
    EXPECT_EQ(m.hbm_reserved_bytes(), c.reserved) << c.name;
    EXPECT_EQ(target::coresPerDevice(m), c.cores) << c.name;
    EXPECT_EQ(m.mxu_count(), c.mxus) << c.name;
    EXPECT_EQ(m.mxu_rows(), c.mxuDim) << c.name;
    EXPECT_EQ(m.mxu_cols(), c.mxuDim) << c.name;
    EXPECT_EQ(m.vmem_bytes(), c.vmem) << c.name;
    EXPECT_EQ(m.smem_bytes(), c.smem) << c.name;
    // The clock and the MXUs reproduce the published peak.
    EXPECT_NEAR(2.0 * m.mxu_count() * m.mxu_rows() * m.mxu_cols() *
                    m.clock_hz() / spec->peakFlops,
                1.0, 1e-9)
        << c.name;
  }
  // Published peaks (bf16 FLOP/s per device) where no clock is published.
  EXPECT_DOUBLE_EQ(target::lookupTarget("tpu-v5p")->peakFlops, 459e12);
  EXPECT_DOUBLE_EQ(target::lookupTarget("tpu-v6e")->peakFlops, 918e12);
  EXPECT_NEAR(target::lookupTarget("tpu-v6e")->machine.clock_hz(), 3.502e9,
              1e6);
  // Without a limit, usable HBM is capacity less the reservation.
  exe::Target t = target::lookupTarget("tpu-v6e")->machine;
  t.set_hbm_limit_bytes(0);
  EXPECT_EQ(target::usableHbmBytes(t), (32ull << 30) - (260ull << 20));
}

TEST(TargetsTest, ByteSizes) {
  struct Case {
    const char *text;
    uint64_t bytes;
  } cases[] = {{"16GiB", 16ull << 30}, {"530MiB", 530ull << 20},
               {"1.5G", 3ull << 29},   {"4096", 4096},
               {"4096B", 4096},        {"2k", 2048},
               {"16GB", 16000000000},  {"1T", 1ull << 40}};
  for (const Case &c : cases) {
    absl::StatusOr<uint64_t> bytes = target::parseByteSize(c.text);
    ASSERT_TRUE(bytes.ok()) << c.text;
    EXPECT_EQ(*bytes, c.bytes) << c.text;
  }
  for (const char *bad : {"", "G", "16XB", "-1G", "1.2.3G", ".5G", "1e3",
                          "99999999999T"}) {
    absl::StatusOr<uint64_t> bytes = target::parseByteSize(bad);
    EXPECT_FALSE(bytes.ok()) << bad;
    if (!bytes.ok()) {
      EXPECT_NE(bytes.status().message().find("e.g. 16GiB, 530MiB, 1.5G"),
                std::string::npos);
    }
  }
}

} // namespace
