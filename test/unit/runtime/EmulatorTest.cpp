// Per-instruction semantics, every trap, and the timing model with
// hand-computed cycle counts.
#include <cmath>
#include <cstring>
#include <random>
#include <tuple>

#include "TestUtil.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "runtime/hostio/FloatConversion.h"
#include "runtime/loader/Isa.h"

namespace tpuc::runtime {
namespace {

using namespace test;

// Runs `b` (which must end by storing one vreg result) and returns result 0.
template <typename T>
std::vector<T> runVreg(const ProgramBuilder &b,
                       const std::vector<hostio::HostArray> &inputs = {}) {
  absl::StatusOr<RunResult> r = runProgram(b, inputs);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok())
    return {};
  return values<T>(r->results[0]);
}

std::string trapMessage(const ProgramBuilder &b,
                        const std::vector<hostio::HostArray> &inputs = {}) {
  absl::StatusOr<RunResult> r = runProgram(b, inputs);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  return std::string(r.status().message());
}

// s1 = a OP b (with cmp for SCMP), splatted and returned.
int32_t scalarResult(exe::Opcode op, int64_t a, int64_t b,
                     exe::CmpKind cmp = exe::CMP_INVALID) {
  ProgramBuilder p;
  p.scalar(exe::SMOV, 2, {imm(a)});
  p.scalar(op, 1, {sreg(2), imm(b)}).set_cmp(cmp);
  p.vector(exe::VSPLAT, 0, {}, exe::DTYPE_INVALID, {sreg(1)});
  storeVregResult(p, 0, exe::S32);
  return runVreg<int32_t>(p)[0];
}

TEST(Scalar, Arithmetic) {
  EXPECT_EQ(scalarResult(exe::SADD, 7, -3), 4);
  EXPECT_EQ(scalarResult(exe::SSUB, 7, 10), -3);
  EXPECT_EQ(scalarResult(exe::SMUL, -6, 7), -42);
  EXPECT_EQ(scalarResult(exe::SDIV, -7, 2), -3);
  EXPECT_EQ(scalarResult(exe::SREM, -7, 2), -1);
  EXPECT_EQ(scalarResult(exe::SAND, 12, 10), 8);
  EXPECT_EQ(scalarResult(exe::SOR, 12, 10), 14);
  EXPECT_EQ(scalarResult(exe::SXOR, 12, 10), 6);
  EXPECT_EQ(scalarResult(exe::SSHL, 3, 4), 48);
  EXPECT_EQ(scalarResult(exe::SSHR, -16, 2), -4);
  EXPECT_EQ(scalarResult(exe::SMIN, -2, 5), -2);
  EXPECT_EQ(scalarResult(exe::SMAX, -2, 5), 5);
  EXPECT_EQ(scalarResult(exe::SCMP, 3, 4, exe::LT), 1);
  EXPECT_EQ(scalarResult(exe::SCMP, 3, 4, exe::GE), 0);
  EXPECT_EQ(scalarResult(exe::SCMP, 4, 4, exe::EQ), 1);
  EXPECT_EQ(scalarResult(exe::SCMP, 4, 4, exe::NE), 0);
}

TEST(Scalar, SmemLoadStore) {
  ProgramBuilder p;
  p.scalar(exe::SST, 0, {imm(-5), imm(8)});
  p.scalar(exe::SLD, 3, {imm(8)});
  p.vector(exe::VSPLAT, 0, {}, exe::DTYPE_INVALID, {sreg(3, 1)});
  storeVregResult(p, 0, exe::S32);
  EXPECT_EQ(runVreg<int32_t>(p)[5], -4);
}

TEST(Scalar, LoopsAndBranches) {
  // s3 = sum of i*j over a 4x5 nest, skipping j == 2 with a branch.
  ProgramBuilder p;
  p.scalar(exe::SMOV, 3, {imm(0)});
  p.loopBegin(1, imm(4));
  p.loopBegin(2, imm(5));
  p.scalar(exe::SCMP, 4, {sreg(2), imm(2)}).set_cmp(exe::EQ);
  int64_t branch = p.pc();
  p.emit(exe::BRNZ).add_args()->set_reg(4);
  p.scalar(exe::SMUL, 5, {sreg(1), sreg(2)});
  p.scalar(exe::SADD, 3, {sreg(3), sreg(5)});
  p.proto().mutable_instructions(branch)->set_target(p.pc());
  p.loopEnd();
  p.loopEnd();
  p.loopBegin(6, imm(0)); // zero trip: the body never runs
  p.scalar(exe::SMOV, 3, {imm(-1)});
  p.loopEnd();
  p.vector(exe::VSPLAT, 0, {}, exe::DTYPE_INVALID, {sreg(3)});
  storeVregResult(p, 0, exe::S32);
  // sum_i i * (0+1+3+4) = 6 * 8 = 48
  EXPECT_EQ(runVreg<int32_t>(p)[0], 48);
}

// v2 = v0 OP v1 on two input vregs.
std::vector<uint32_t> vectorBinary(exe::Opcode op, exe::DType dtype,
                                   const hostio::HostArray &a,
                                   const hostio::HostArray &b,
                                   exe::CmpKind cmp = exe::CMP_INVALID) {
  ProgramBuilder p;
  loadVregParameter(p, 0, dtype == exe::F32 ? exe::F32 : exe::S32, 0);
  loadVregParameter(p, 1, dtype == exe::F32 ? exe::F32 : exe::S32, 4096);
  p.vector(op, 2, {0, 1}, dtype).set_cmp(cmp);
  storeVregResult(p, 2, op == exe::VCMP ? exe::S32 : dtype, 8192);
  return runVreg<uint32_t>(p, {a, b});
}

std::vector<float> ramp(float scale, float offset) {
  std::vector<float> v(kVregElements);
  for (int i = 0; i < kVregElements; ++i)
    v[i] = scale * i + offset;
  return v;
}

TEST(Vector, F32Arithmetic) {
  std::vector<float> a = ramp(0.5f, -100), b = ramp(-0.25f, 3);
  b[7] = NAN;
  auto x = makeF32({8, 128}, a), y = makeF32({8, 128}, b);
  auto check = [&](exe::Opcode op, auto ref) {
    std::vector<uint32_t> out = vectorBinary(op, exe::F32, x, y);
    ASSERT_EQ(out.size(), kVregElements);
    for (int i = 0; i < kVregElements; ++i) {
      float want = ref(a[i], b[i]);
      if (std::isnan(want))
        EXPECT_TRUE(std::isnan(bitsF32(out[i]))) << i;
      else
        EXPECT_EQ(bitsF32(out[i]), want) << exe::Opcode_Name(op) << " " << i;
    }
  };
  check(exe::VADD, [](float p, float q) { return p + q; });
  check(exe::VSUB, [](float p, float q) { return p - q; });
  check(exe::VMUL, [](float p, float q) { return p * q; });
  check(exe::VDIV, [](float p, float q) { return p / q; });
  // max/min propagate NaN (element 7).
  check(exe::VMAX, [](float p, float q) {
    return std::isnan(q) ? NAN : std::max(p, q);
  });
  check(exe::VMIN, [](float p, float q) {
    return std::isnan(q) ? NAN : std::min(p, q);
  });
}

TEST(Vector, S32ArithmeticAndCompare) {
  std::vector<int32_t> a(kVregElements), b(kVregElements);
  for (int i = 0; i < kVregElements; ++i) {
    a[i] = i - 500;
    b[i] = (i % 7) - 3;
  }
  a[0] = INT32_MIN;
  b[0] = -1;
  auto x = makeS32({8, 128}, a), y = makeS32({8, 128}, b);
  std::vector<uint32_t> div = vectorBinary(exe::VDIV, exe::S32, x, y);
  EXPECT_EQ(int32_t(div[0]), INT32_MIN); // XLA: INT_MIN / -1 = INT_MIN
  EXPECT_EQ(int32_t(div[3]), -1);        // b[3] == 0: XLA gives -1
  EXPECT_EQ(int32_t(div[1]), (1 - 500) / -2);
  std::vector<uint32_t> add = vectorBinary(exe::VADD, exe::S32, x, y);
  EXPECT_EQ(int32_t(add[0]), INT32_MAX); // wraps
  std::vector<uint32_t> lt = vectorBinary(exe::VCMP, exe::S32, x, y, exe::LT);
  for (int i = 1; i < kVregElements; ++i)
    EXPECT_EQ(lt[i], a[i] < b[i] ? 1u : 0u) << i;
}

TEST(Vector, SelectUnaryConvert) {
  std::vector<float> a = ramp(0.01f, 0.5f);
  ProgramBuilder p;
  loadVregParameter(p, 0, exe::F32);
  p.vector(exe::VLANE_ID, 1, {});
  p.vector(exe::VSUBLANE_ID, 2, {});
  p.vector(exe::VCMP, 3, {1, 2}, exe::S32).set_cmp(exe::LT); // lane < sublane
  p.vector(exe::VEXP, 4, {0}, exe::F32);
  p.vector(exe::VRSQRT, 5, {0}, exe::F32);
  p.vector(exe::VSEL, 6, {3, 4, 5});
  storeVregResult(p, 6, exe::F32, 4096, 1);
  p.vector(exe::VTANH, 7, {0}, exe::F32);
  storeVregResult(p, 7, exe::F32, 8192, 2);
  p.vector(exe::VCVT, 8, {0}, exe::BF16).set_src_dtype(exe::F32);
  storeVregResult(p, 8, exe::F32, 12288, 3);
  p.vector(exe::VCVT, 9, {4}, exe::S32).set_src_dtype(exe::F32);
  storeVregResult(p, 9, exe::S32, 16384, 4);
  absl::StatusOr<RunResult> r = runProgram(p, {makeF32({8, 128}, a)});
  ASSERT_TRUE(r.ok()) << r.status();
  auto sel = values<float>(r->results[0]), tanh = values<float>(r->results[1]),
       bf = values<float>(r->results[2]);
  auto trunc = values<int32_t>(r->results[3]);
  for (int i = 0; i < kVregElements; ++i) {
    int lane = i % 128, sublane = i / 128;
    EXPECT_EQ(sel[i], lane < sublane ? std::exp(a[i]) : 1.0f / std::sqrt(a[i]));
    EXPECT_EQ(tanh[i], std::tanh(a[i]));
    EXPECT_EQ(bf[i], hostio::roundToBf16(a[i]));
    EXPECT_EQ(trunc[i], static_cast<int32_t>(std::exp(a[i])));
  }
}

// XLA's shifts: the amount is unsigned, and one of at least 32 shifts every
// bit out (0, or the sign for an arithmetic right shift); popcnt and clz
// of 0 and -1.
TEST(Vector, ShiftsAndBitCounts) {
  std::vector<int32_t> x(kVregElements, 0), amount(kVregElements, 0);
  const int32_t xs[] = {-8, -8, -8, -8, 0x40000001, 5, 0, -1};
  const int32_t amounts[] = {0, 31, 32, -1, 1, 33, 0, 0};
  for (int i = 0; i < 8; ++i) {
    x[i] = xs[i];
    amount[i] = amounts[i];
  }
  ProgramBuilder p;
  loadVregParameter(p, 0, exe::S32, 0, 30);
  loadVregParameter(p, 1, exe::S32, 4096, 29);
  p.vector(exe::VSHL, 2, {0, 1}, exe::S32);
  p.vector(exe::VSHRL, 3, {0, 1}, exe::S32);
  p.vector(exe::VSHRA, 4, {0, 1}, exe::S32);
  p.vector(exe::VPOPCNT, 5, {0}, exe::S32);
  p.vector(exe::VCLZ, 6, {0}, exe::S32);
  for (uint32_t v = 2; v <= 6; ++v)
    storeVregResult(p, v, exe::S32, 8192 + 4096 * v, v);
  absl::StatusOr<RunResult> r =
      runProgram(p, {makeS32({8, 128}, x), makeS32({8, 128}, amount)});
  ASSERT_TRUE(r.ok()) << r.status();
  auto shl = values<int32_t>(r->results[0]),
       shrl = values<int32_t>(r->results[1]),
       shra = values<int32_t>(r->results[2]),
       popcnt = values<int32_t>(r->results[3]),
       clz = values<int32_t>(r->results[4]);
  const int32_t wantShl[] = {-8, 0, 0, 0, int32_t(0x80000002u), 0};
  const int32_t wantShrl[] = {-8, 1, 0, 0, 0x20000000, 0};
  const int32_t wantShra[] = {-8, -1, -1, -1, 0x20000000, 0};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(shl[i], wantShl[i]) << i;
    EXPECT_EQ(shrl[i], wantShrl[i]) << i;
    EXPECT_EQ(shra[i], wantShra[i]) << i;
  }
  EXPECT_EQ(popcnt[6], 0);
  EXPECT_EQ(popcnt[7], 32);
  EXPECT_EQ(popcnt[4], 2);
  EXPECT_EQ(clz[6], 32);
  EXPECT_EQ(clz[7], 0);
  EXPECT_EQ(clz[4], 1);
}

TEST(Vector, ReducePrecisionNeedsAnExponentBit) {
  ProgramBuilder p;
  p.vsplatF32(0, 1.5f);
  p.vector(exe::VREDUCE_PRECISION, 1, {0}, exe::F32, {imm(0), imm(10)});
  absl::StatusOr<RunResult> r = runProgram(p);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "trap at instruction 1 (VREDUCE_PRECISION): reduce-precision to 0 "
            "exponent and 10 mantissa bits (needs >= 1 and >= 0)");
}

// Registers first..first+15 hold a 128x128 block whose row r is
// r*1000 + column (scratch and scratch+1 are overwritten).
void fillTransposeBlock(ProgramBuilder &p, uint32_t first, uint32_t scratch) {
  uint32_t row = scratch, col = scratch + 1;
  for (int r = 0; r < kTransposeRegs; ++r) {
    p.vector(exe::VSUBLANE_ID, row, {});
    p.vector(exe::VSPLAT, col, {}, exe::DTYPE_INVALID, {imm(8 * r)});
    p.vector(exe::VADD, row, {row, col}, exe::S32); // row index
    p.vector(exe::VSPLAT, col, {}, exe::DTYPE_INVALID, {imm(1000)});
    p.vector(exe::VMUL, row, {row, col}, exe::S32);
    p.vector(exe::VLANE_ID, col, {});
    p.vector(exe::VADD, first + r, {row, col}, exe::S32);
  }
}

TEST(Vector, ReduceBroadcastTranspose) {
  std::vector<float> a = ramp(1, 0);
  ProgramBuilder p;
  loadVregParameter(p, 0, exe::F32);
  p.vector(exe::VREDUCE_LANES, 1, {0}, exe::F32).set_reduce(exe::REDUCE_SUM);
  storeVregResult(p, 1, exe::F32, 4096, 1);
  p.vector(exe::VREDUCE_SUBLANES, 2, {0}, exe::F32).set_reduce(exe::REDUCE_MAX);
  storeVregResult(p, 2, exe::F32, 8192, 2);
  p.vector(exe::VBCAST_LANE, 3, {0}, exe::DTYPE_INVALID, {imm(5)});
  storeVregResult(p, 3, exe::F32, 12288, 3);
  p.vector(exe::VBCAST_SUBLANE, 4, {0}, exe::DTYPE_INVALID, {imm(6)});
  storeVregResult(p, 4, exe::F32, 16384, 4);
  // Transpose a 128x128 block: v16..v31 hold rows; row r = r*1000 + col.
  fillTransposeBlock(p, 16, 8);
  p.vector(exe::VTRANSPOSE, 0, {16});
  storeVregResult(p, 1, exe::S32, 20480, 5); // rows 8..15 of the transpose
  absl::StatusOr<RunResult> r = runProgram(p, {makeF32({8, 128}, a)});
  ASSERT_TRUE(r.ok()) << r.status();
  auto sum = values<float>(r->results[0]), mx = values<float>(r->results[1]),
       lane = values<float>(r->results[2]), sub = values<float>(r->results[3]);
  auto tr = values<int32_t>(r->results[4]);
  for (int i = 0; i < kVregElements; ++i) {
    int s = i / 128, l = i % 128;
    EXPECT_EQ(sum[i], 128.0f * 128 * s + 127 * 64); // sum of one row
    EXPECT_EQ(mx[i], 7 * 128 + l);
    EXPECT_EQ(lane[i], s * 128 + 5);
    EXPECT_EQ(sub[i], 6 * 128 + l);
    // transpose row 8+s, column l = original (l, 8+s)
    EXPECT_EQ(tr[i], l * 1000 + 8 + s);
  }
}

TEST(Vector, TransposeBetweenOverlappingAndDisjointBlocks) {
  // v8..v23 hold rows 0..127 (row r = r*1000 + col); transposed into
  // v12..v27 (overlapping its source, above it), then v12..v27 into v0..v15
  // (overlapping, below), then v0..v15 into v16..v31 (disjoint).
  ProgramBuilder p;
  fillTransposeBlock(p, 8, 0);
  p.vector(exe::VTRANSPOSE, 12, {8});
  storeVregResult(p, 13, exe::S32, 4096, 1); // transpose rows 8..15
  p.vector(exe::VTRANSPOSE, 0, {12});
  storeVregResult(p, 2, exe::S32, 8192, 2); // original rows 16..23
  p.vector(exe::VTRANSPOSE, 16, {0});
  storeVregResult(p, 19, exe::S32, 12288, 3); // transpose rows 24..31
  absl::StatusOr<RunResult> r = runProgram(p);
  ASSERT_TRUE(r.ok()) << r.status();
  auto once = values<int32_t>(r->results[0]),
       twice = values<int32_t>(r->results[1]),
       thrice = values<int32_t>(r->results[2]);
  for (int i = 0; i < kVregElements; ++i) {
    int s = i / 128, l = i % 128;
    EXPECT_EQ(once[i], l * 1000 + 8 + s);
    EXPECT_EQ(twice[i], (16 + s) * 1000 + l);
    EXPECT_EQ(thrice[i], l * 1000 + 24 + s);
  }
}

TEST(Vector, TransposeRowsWritesOnlyItsRegisters) {
  // v8..v23 hold rows 0..127 (row r = r*1000 + col), v0..v7 the splat 7.
  // VTRANSPOSE_ROWS writes 3 registers into v0 (disjoint: v3 keeps its
  // 7s), then 2 in place at v8 (v10 keeps original rows 16..23).
  ProgramBuilder p;
  fillTransposeBlock(p, 8, 0);
  for (int r = 0; r < 8; ++r)
    p.vector(exe::VSPLAT, r, {}, exe::DTYPE_INVALID, {imm(7)});
  p.vector(exe::VTRANSPOSE_ROWS, 0, {8}, exe::DTYPE_INVALID, {imm(3)});
  storeVregResult(p, 2, exe::S32, 4096, 1);  // transpose rows 16..23
  storeVregResult(p, 3, exe::S32, 8192, 2);  // not written: 7
  p.vector(exe::VTRANSPOSE_ROWS, 8, {8}, exe::DTYPE_INVALID, {imm(2)});
  storeVregResult(p, 9, exe::S32, 12288, 3);  // transpose rows 8..15
  storeVregResult(p, 10, exe::S32, 16384, 4); // original rows 16..23
  absl::StatusOr<RunResult> r = runProgram(p);
  ASSERT_TRUE(r.ok()) << r.status();
  auto rows16 = values<int32_t>(r->results[0]),
       kept = values<int32_t>(r->results[1]),
       rows8 = values<int32_t>(r->results[2]),
       original = values<int32_t>(r->results[3]);
  for (int i = 0; i < kVregElements; ++i) {
    int s = i / 128, l = i % 128;
    EXPECT_EQ(rows16[i], l * 1000 + 16 + s);
    EXPECT_EQ(kept[i], 7);
    EXPECT_EQ(rows8[i], l * 1000 + 8 + s);
    EXPECT_EQ(original[i], (16 + s) * 1000 + l);
  }
}

// The VPU's lane loops are compiled for the baseline ISA and for AVX2
// (Machine::computeLanes): every lane operation, on every dtype it takes,
// gives the same bits on every kernel path. The operands hold the special
// f32 values (NaN with payloads, infinities, zeros, subnormals, the
// largest finite values, halfway cases of bf16 rounding), s32 extremes and
// shift amounts, then random bits. Which NaN an f32 result carries is
// open (IEEE 754 leaves it unspecified, and the compiler may commute an
// add), so an f32 NaN matches any NaN; every other result bit for bit.
TEST(Vector, LaneLoopsSameBitsOnEveryKernelPath) {
  std::vector<uint32_t> special = {
      0x7FC00000, 0xFFC00001, 0x7F800001, 0x7F800000, 0xFF800000, 0x00000000,
      0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF,
      0x3F808000, 0x3F818000, 0x4F000000, 0xCF000001, 0x4F800000, 0x80000001,
      0x7FFFFFFF, 0xFFFFFFFF, 0x0000001F, 0x00000020, 0x3F800000, 0xBF800000};
  auto isNanBits = [](uint32_t b) { return (b & 0x7FFFFFFFu) > 0x7F800000u; };
  std::mt19937 rng(20);
  std::vector<int32_t> x(kVregElements), y(kVregElements);
  for (int i = 0; i < kVregElements; ++i) {
    x[i] = static_cast<int32_t>(i < int(special.size()) ? special[i] : rng());
    y[i] = static_cast<int32_t>(special[(i * 7 + 3) % special.size()]);
    if (i >= 256)
      y[i] = static_cast<int32_t>(rng());
  }
  ProgramBuilder p;
  loadVregParameter(p, 0, exe::S32, 0, 30);
  loadVregParameter(p, 1, exe::S32, 4096, 29);
  using exe::Opcode;
  // Each operation writes v2, stored as result r (instruction 6 + 4r);
  // f32Result[r]: its lanes are f32.
  std::vector<bool> f32Result;
  auto result = [&](exe::DType t) {
    storeVregResult(p, 2, exe::S32, 8192);
    f32Result.push_back(t == exe::F32);
  };
  auto allowed = [](Opcode op, exe::DType t) {
    return (getOpcodeInfo(op)->dtypes & dtypeBit(t)) != 0;
  };
  for (exe::DType t : {exe::F32, exe::S32, exe::U32}) {
    for (Opcode op : {exe::VADD, exe::VSUB, exe::VMUL, exe::VDIV, exe::VMAX,
                      exe::VMIN, exe::VREM, exe::VMULHI, exe::VAND, exe::VOR,
                      exe::VXOR, exe::VSHL, exe::VSHRL, exe::VSHRA})
      if (allowed(op, t)) {
        p.vector(op, 2, {0, 1}, t);
        result(t);
      }
    for (exe::CmpKind k :
         {exe::EQ, exe::NE, exe::LT, exe::LE, exe::GT, exe::GE}) {
      if (!allowed(exe::VCMP, t))
        continue;
      p.vector(exe::VCMP, 2, {0, 1}, t).set_cmp(k);
      result(exe::S32); // 0 or 1
    }
    for (exe::ReduceKind k :
         {exe::REDUCE_SUM, exe::REDUCE_MAX, exe::REDUCE_MIN}) {
      if (!allowed(exe::VREDUCE_LANES, t))
        continue;
      p.vector(exe::VREDUCE_LANES, 2, {0}, t).set_reduce(k);
      result(t);
      p.vector(exe::VREDUCE_SUBLANES, 2, {1}, t).set_reduce(k);
      result(t);
    }
  }
  for (Opcode op : {exe::VNEG, exe::VABS, exe::VEXP, exe::VLOG, exe::VTANH,
                    exe::VRSQRT, exe::VSQRT, exe::VRCP, exe::VFLOOR, exe::VCEIL,
                    exe::VROUND_AFZ, exe::VROUND_EVEN, exe::VPOPCNT,
                    exe::VCLZ})
    for (exe::DType t : {exe::F32, exe::S32, exe::U32})
      if (allowed(op, t)) {
        p.vector(op, 2, {0}, t);
        result(t);
      }
  for (exe::DType from : {exe::F32, exe::BF16, exe::S32, exe::U32})
    for (exe::DType to : {exe::F32, exe::BF16, exe::S32, exe::U32}) {
      // VCVT converts to or from f32.
      if ((from == exe::F32) == (to == exe::F32) || !allowed(exe::VCVT, to) ||
          !(getOpcodeInfo(exe::VCVT)->srcDtypes & dtypeBit(from)))
        continue;
      p.vector(exe::VCVT, 2, {0}, to).set_src_dtype(from);
      result(to);
    }
  p.vector(exe::VREDUCE_PRECISION, 2, {0}, exe::F32, {imm(5), imm(10)});
  result(exe::F32);
  p.vector(exe::VSEL, 2, {1, 0, 1});
  result(exe::S32);
  p.vector(exe::VBCAST_LANE, 2, {0}, exe::DTYPE_INVALID, {imm(77)});
  result(exe::S32);
  p.vector(exe::VBCAST_SUBLANE, 2, {0}, exe::DTYPE_INVALID, {imm(5)});
  result(exe::S32);
  absl::StatusOr<Executable> e = p.build();
  ASSERT_TRUE(e.ok()) << e.status();
  std::vector<hostio::HostArray> inputs = {makeS32({8, 128}, x),
                                           makeS32({8, 128}, y)};
  EmulatorDevice portable(e->target(), KernelPath::Portable);
  absl::StatusOr<RunResult> want = runExecutable(portable, *e, inputs);
  ASSERT_TRUE(want.ok()) << want.status();
  ASSERT_EQ(want->results.size(), 88u); // every operation above ran
  for (KernelPath path : supportedKernelPaths()) {
    EmulatorDevice device(e->target(), path);
    absl::StatusOr<RunResult> got = runExecutable(device, *e, inputs);
    ASSERT_TRUE(got.ok()) << got.status();
    for (size_t r = 0; r < want->results.size(); ++r) {
      std::vector<uint32_t> g = values<uint32_t>(got->results[r]),
                            w = values<uint32_t>(want->results[r]);
      for (int i = 0; i < kVregElements; ++i)
        ASSERT_TRUE(g[i] == w[i] || (f32Result[r] && isNanBits(g[i]) &&
                                     isNanBits(w[i])))
            << kernelPathName(path) << ": result " << r << " ("
            << exe::Opcode_Name(e->instruction(6 + 4 * r).opcode())
            << ") lane " << i << ": " << g[i] << " vs " << w[i];
    }
  }
}

TEST(Vector, Bf16LoadStoreWithStride) {
  // Store a vreg as bf16 rows 512 bytes apart, load it back widened.
  std::vector<float> a = ramp(1.0f / 3, 1);
  ProgramBuilder p;
  loadVregParameter(p, 0, exe::F32);
  p.vst(0, imm(8192), exe::BF16, imm(512));
  p.vld(1, imm(8192), exe::BF16, imm(512));
  storeVregResult(p, 1, exe::F32, 4096, 1);
  std::vector<float> out = runVreg<float>(p, {makeF32({8, 128}, a)});
  ASSERT_EQ(out.size(), kVregElements);
  for (int i = 0; i < kVregElements; ++i)
    EXPECT_EQ(out[i], hostio::roundToBf16(a[i]));
}

TEST(Dma, StridedGatherAndSemaphores) {
  // Gather the 8 rows of a vreg in reverse order, 2 DMAs on one semaphore.
  std::vector<float> a = ramp(1, 0);
  ProgramBuilder p;
  uint32_t param = p.addParameter("x", vregShape());
  uint64_t hbm = p.parameterOffset(param);
  p.dma(exe::HBM, imm(hbm + 7 * 512), exe::VMEM, imm(0), imm(512), imm(4),
        imm(-512), imm(512), imm(3));
  p.dma(exe::HBM, imm(hbm + 3 * 512), exe::VMEM, imm(2048), imm(512), imm(4),
        imm(-512), imm(512), imm(3));
  p.semWait(imm(3), imm(2));
  p.vld(0, imm(0), exe::F32);
  storeVregResult(p, 0, exe::F32, 4096, 1);
  std::vector<float> out = runVreg<float>(p, {makeF32({8, 128}, a)});
  ASSERT_EQ(out.size(), kVregElements);
  for (int i = 0; i < kVregElements; ++i)
    EXPECT_EQ(out[i], a[(7 - i / 128) * 128 + i % 128]);
}

// Every element of `got` within the Avx512Bf16 contract's bound of `want`.
void expectWithin(const std::vector<float> &got, const std::vector<float> &want,
                  const std::vector<double> &bound, const std::string &what) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_LE(std::fabs(double(got[i]) - want[i]), bound[i])
        << what << " element " << i << ": " << got[i] << " vs " << want[i];
}

std::vector<uint16_t> toBf16(const std::vector<float> &values) {
  std::vector<uint16_t> bits(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    bits[i] = hostio::f32ToBf16Bits(values[i]);
  return bits;
}

// Runs `e` on `inputs` with every kernel path: the one result is `want`
// exactly on the exact paths, within the contract's bound for the m x k x n
// product of `lhs` and `rhs` (bf16 bits) on the others.
void expectMatmulOnEveryPath(const Executable &e,
                             std::vector<hostio::HostArray> inputs,
                             const std::vector<float> &want,
                             const std::vector<uint16_t> &lhs,
                             const std::vector<uint16_t> &rhs, int64_t m,
                             int64_t k, int64_t n) {
  for (KernelPath path : supportedKernelPaths()) {
    EmulatorDevice device(e.target(), path);
    absl::StatusOr<RunResult> r = runExecutable(device, e, inputs, {});
    ASSERT_TRUE(r.ok()) << r.status();
    std::vector<float> out = values<float>(r->results[0]);
    if (isKernelPathExact(path))
      EXPECT_EQ(out, want) << kernelPathName(path);
    else
      expectWithin(out, want,
                   matmulBf16Tolerance(path, lhs.data(), rhs.data(), nullptr,
                                       m, k, n, false),
                   kernelPathName(path));
  }
}

TEST(Mxu, MatmulMatchesReferenceOnEveryPath) {
  // lhs 16x128 and weights 128x128 in bf16 from f32 parameters converted by
  // the loader; product compared with the reference kernel, exactly on the
  // exact paths.
  std::vector<float> lhs(16 * 128), w(128 * 128);
  for (size_t i = 0; i < lhs.size(); ++i)
    lhs[i] = std::sin(0.1f * i);
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = std::cos(0.37f * i);
  ProgramBuilder p;
  uint32_t pl = p.addParameter("lhs", makeShape(exe::BF16, {16, 128}, {{8, 128}}));
  uint32_t pw = p.addParameter("w", makeShape(exe::BF16, {128, 128}, {{8, 128}}));
  uint32_t res = p.addResult("out", makeShape(exe::F32, {16, 128}, {{8, 128}}));
  p.dma(exe::HBM, imm(p.parameterOffset(pl)), exe::VMEM, imm(0), imm(4096),
        imm(1), imm(0), imm(0), imm(0));
  p.dma(exe::HBM, imm(p.parameterOffset(pw)), exe::VMEM, imm(65536),
        imm(32768), imm(1), imm(0), imm(0), imm(0));
  p.semWait(imm(0), imm(2));
  p.mxuLoadWeights(1, imm(65536));
  p.mxuMatmul(1, imm(0), imm(131072), imm(16), false);
  p.mxuMatmul(1, imm(0), imm(131072), imm(16), true); // accumulate: 2x
  p.dma(exe::VMEM, imm(131072), exe::HBM,
        imm(p.resultOffset(res)), imm(8192),
        imm(1), imm(0), imm(0), imm(0));
  p.semWait(imm(0), imm(1));
  absl::StatusOr<Executable> e = p.build();
  ASSERT_TRUE(e.ok()) << e.status();
  std::vector<uint16_t> lb = toBf16(lhs), wb = toBf16(w);
  std::vector<float> want(16 * 128);
  referenceMatmulBf16(lb.data(), wb.data(), want.data(), 16, 128, 128, false);
  referenceMatmulBf16(lb.data(), wb.data(), want.data(), 16, 128, 128, true);
  // The two matmuls sum one 256-term dot product: [lhs lhs] x [w; w].
  std::vector<uint16_t> lb2(16 * 256), wb2(256 * 128);
  for (int i = 0; i < 16; ++i)
    for (int kk = 0; kk < 256; ++kk)
      lb2[i * 256 + kk] = lb[i * 128 + kk % 128];
  for (int kk = 0; kk < 256; ++kk)
    for (int j = 0; j < 128; ++j)
      wb2[kk * 128 + j] = wb[kk % 128 * 128 + j];
  expectMatmulOnEveryPath(*e, {makeF32({16, 128}, lhs), makeF32({128, 128}, w)},
                          want, lb2, wb2, 16, 256, 128);
}

TEST(Mxu, RowSplitOverHostThreadsChangesNoBit) {
  // 520 rows (parts of 128+ rows on up to 4 threads, the last one short),
  // accumulated twice; every path, 1 to 4 host threads: the same bits, and
  // on an exact path the reference's.
  constexpr int64_t kRows = 520;
  std::vector<float> lhs(kRows * 128), w(128 * 128);
  for (size_t i = 0; i < lhs.size(); ++i)
    lhs[i] = std::sin(0.013f * i) * 3;
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = std::cos(0.37f * i);
  ProgramBuilder p;
  uint32_t pl =
      p.addParameter("lhs", makeShape(exe::BF16, {kRows, 128}, {{8, 128}}));
  uint32_t pw = p.addParameter("w", makeShape(exe::BF16, {128, 128}, {{8, 128}}));
  uint32_t res =
      p.addResult("out", makeShape(exe::F32, {kRows, 128}, {{8, 128}}));
  p.dma(exe::HBM, imm(p.parameterOffset(pl)), exe::VMEM, imm(0),
        imm(kRows * 256), imm(1), imm(0), imm(0), imm(0));
  p.dma(exe::HBM, imm(p.parameterOffset(pw)), exe::VMEM, imm(1 << 20),
        imm(32768), imm(1), imm(0), imm(0), imm(0));
  p.semWait(imm(0), imm(2));
  p.mxuLoadWeights(0, imm(1 << 20));
  p.mxuMatmul(0, imm(0), imm(2 << 20), imm(kRows), false);
  p.mxuMatmul(0, imm(0), imm(2 << 20), imm(kRows), true);
  p.dma(exe::VMEM, imm(2 << 20), exe::HBM, imm(p.resultOffset(res)),
        imm(kRows * 512), imm(1), imm(0), imm(0), imm(0));
  p.semWait(imm(0), imm(1));
  absl::StatusOr<Executable> e = p.build();
  ASSERT_TRUE(e.ok()) << e.status();
  std::vector<uint16_t> lb = toBf16(lhs), wb = toBf16(w);
  std::vector<float> want(kRows * 128);
  referenceMatmulBf16(lb.data(), wb.data(), want.data(), kRows, 128, 128,
                      false);
  referenceMatmulBf16(lb.data(), wb.data(), want.data(), kRows, 128, 128,
                      true);
  for (KernelPath path : supportedKernelPaths()) {
    std::vector<float> first;
    for (int threads = 1; threads <= 4; ++threads) {
      EmulatorDevice device(e->target(), path);
      ExecuteOptions options;
      options.hostThreads = threads;
      absl::StatusOr<RunResult> r = runExecutable(
          device, *e, {makeF32({kRows, 128}, lhs), makeF32({128, 128}, w)},
          options);
      ASSERT_TRUE(r.ok()) << r.status();
      std::vector<float> got = values<float>(r->results[0]);
      if (threads == 1)
        first = got;
      EXPECT_EQ(got, first) << kernelPathName(path) << ", " << threads
                            << " threads";
      if (isKernelPathExact(path)) {
        EXPECT_EQ(got, want) << kernelPathName(path);
      }
    }
  }
}

TEST(Mxu, Matmul256ReadsAndWritesLaneBlocks) {
  // A 256x256 MXU: lhs 16x256, weights 256x256 and the result in lane
  // blocks of 128 columns (docs/isa.md, "MXU"), gathered from and scattered
  // to T(8,128) HBM arrays by one DMA per block.
  std::vector<float> lhs(16 * 256), w(256 * 256);
  for (size_t i = 0; i < lhs.size(); ++i)
    lhs[i] = std::sin(0.1f * i);
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = std::cos(0.37f * i);
  exe::Target target = tpuV3Target();
  target.set_mxu_rows(256);
  target.set_mxu_cols(256);
  ProgramBuilder p(target);
  uint32_t pl = p.addParameter("lhs", makeShape(exe::BF16, {16, 256}, {{8, 128}}));
  uint32_t pw = p.addParameter("w", makeShape(exe::BF16, {256, 256}, {{8, 128}}));
  uint32_t res = p.addResult("out", makeShape(exe::F32, {16, 256}, {{8, 128}}));
  for (int j = 0; j < 2; ++j) {
    p.dma(exe::HBM, imm(p.parameterOffset(pl) + j * 2048), exe::VMEM,
          imm(j * 4096), imm(2048), imm(2), imm(4096), imm(2048), imm(0));
    p.dma(exe::HBM, imm(p.parameterOffset(pw) + j * 2048), exe::VMEM,
          imm(65536 + j * 65536), imm(2048), imm(32), imm(4096), imm(2048),
          imm(0));
  }
  p.semWait(imm(0), imm(4));
  p.mxuLoadWeights(0, imm(65536));
  p.mxuMatmul(0, imm(0), imm(262144), imm(16), false);
  for (int j = 0; j < 2; ++j)
    p.dma(exe::VMEM, imm(262144 + j * 8192), exe::HBM,
          imm(p.resultOffset(res) + j * 4096), imm(4096), imm(2), imm(4096),
          imm(8192), imm(0));
  p.semWait(imm(0), imm(2));
  absl::StatusOr<Executable> e = p.build();
  ASSERT_TRUE(e.ok()) << e.status();
  std::vector<uint16_t> lb = toBf16(lhs), wb = toBf16(w);
  std::vector<float> want(16 * 256);
  referenceMatmulBf16(lb.data(), wb.data(), want.data(), 16, 256, 256, false);
  expectMatmulOnEveryPath(*e, {makeF32({16, 256}, lhs), makeF32({256, 256}, w)},
                          want, lb, wb, 16, 256, 256);
}

struct MatmulCase {
  int64_t m, k, n;
  std::vector<uint16_t> lhs, rhs;
  std::vector<float> init;
};

// Random bf16 operands and f32 initial values in [-2, 2].
MatmulCase randomCase(int64_t m, int64_t k, int64_t n, std::mt19937 &rng) {
  std::uniform_real_distribution<float> dist(-2, 2);
  MatmulCase c{m, k, n, std::vector<uint16_t>(m * k),
               std::vector<uint16_t>(k * n), std::vector<float>(m * n)};
  for (auto &x : c.lhs)
    x = hostio::f32ToBf16Bits(dist(rng));
  for (auto &x : c.rhs)
    x = hostio::f32ToBf16Bits(dist(rng));
  for (auto &x : c.init)
    x = dist(rng);
  return c;
}

// Shapes with row and column tails, odd k and k not a multiple of 32, and
// special values.
std::vector<MatmulCase> matmulCases() {
  std::mt19937 rng(7);
  std::vector<MatmulCase> cases;
  for (auto [m, k, n] : {std::tuple{8, 128, 128}, {13, 37, 53}, {4, 1, 33},
                         {7, 33, 64}, {6, 2, 65}, {17, 100, 130}})
    cases.push_back(randomCase(m, k, n, rng));
  // Tiny products: 2^-75 x 2^-75 = 2^-150 is not exact in f32, so a fused
  // multiply-add (2^-149 + 2^-150 -> 2^-148) and the reference's multiply
  // then add (-> 2^-149) differ.
  MatmulCase tiny = randomCase(1, 2, 16, rng);
  std::fill(tiny.lhs.begin(), tiny.lhs.end(), 0x1A00);
  std::fill(tiny.rhs.begin(), tiny.rhs.end(), 0x1A00);
  std::fill(tiny.init.begin(), tiny.init.end(), std::ldexp(1.0f, -149));
  cases.push_back(tiny);
  // Subnormal bf16 inputs with large partners (VDPBF16PS drops these
  // products), and large products that cancel.
  MatmulCase special = randomCase(9, 64, 48, rng);
  for (int64_t i = 0; i < 9; ++i) {
    special.lhs[i * 64 + 3] = 0x0041; // ~2^-127, subnormal
    special.lhs[i * 64 + 4] = hostio::f32ToBf16Bits(1e30f);
    special.lhs[i * 64 + 5] = hostio::f32ToBf16Bits(-1e30f);
  }
  for (int64_t j = 0; j < 48; ++j) {
    special.rhs[3 * 48 + j] = hostio::f32ToBf16Bits(1e20f);
    special.rhs[4 * 48 + j] = special.rhs[5 * 48 + j] = 0x3F80; // 1
  }
  cases.push_back(special);
  return cases;
}

TEST(Kernels, PathsMatchReferenceWithinContract) {
  for (const MatmulCase &c : matmulCases())
    for (bool acc : {false, true}) {
      std::vector<float> want = c.init;
      referenceMatmulBf16(c.lhs.data(), c.rhs.data(), want.data(), c.m, c.k,
                          c.n, acc);
      for (KernelPath path : supportedKernelPaths()) {
        std::vector<float> got = c.init;
        matmulBf16(path, c.lhs.data(), c.rhs.data(), got.data(), c.m, c.k,
                   c.n, acc);
        std::string what = absl::StrCat(kernelPathName(path), " ", c.m, "x",
                                        c.k, "x", c.n, acc ? " acc" : "");
        if (isKernelPathExact(path))
          EXPECT_EQ(got, want) << what;
        else
          expectWithin(got, want,
                       matmulBf16Tolerance(path, c.lhs.data(), c.rhs.data(),
                                           c.init.data(), c.m, c.k, c.n, acc),
                       what);
      }
    }
}

// Weights padded with zero rows and columns (a convolution's K = 27 and N =
// 16 on a 128 x 128 MXU) are multiplied trimmed (PackedRhs): on every path
// the same bits as multiplying the padding. The untrimmed result comes from
// the same weights with one nonzero in the last row and column, which keeps
// the padding in (the other columns' products there are still zero). The
// rows hit the cases where a skipped zero product would change a result:
// an Inf or NaN lhs value in a padded column, a -0 or NaN result, -0 and
// subnormal initial values in padded columns.
TEST(Kernels, TrimmedZeroPaddingChangesNoBit) {
  std::mt19937 rng(11);
  for (auto [usedK, usedN] : {std::pair{27, 16}, {64, 128}, {128, 60}, {1, 1}})
    for (bool acc : {false, true}) {
      MatmulCase c = randomCase(12, 128, 128, rng);
      for (int64_t r = 0; r < c.k; ++r)
        for (int64_t j = 0; j < c.n; ++j)
          if (r >= usedK || j >= usedN)
            c.rhs[r * c.n + j] = (r + j) % 3 ? 0x0000 : 0x8000; // +-0
      c.lhs[1 * c.k + 127] = 0x7F80;              // Inf in a padded column
      c.lhs[2 * c.k + 0] = 0x7FC0;                // NaN
      std::fill_n(&c.lhs[3 * c.k], c.k, 0x8000);  // -0 x w: -0 products
      std::fill_n(&c.init[3 * c.n], c.n, -0.0f);  // ... on -0
      std::fill_n(&c.init[4 * c.n], c.n, -0.0f);
      std::fill_n(&c.init[5 * c.n], c.n, std::ldexp(1.0f, -140)); // subnormal
      std::fill_n(&c.init[6 * c.n], c.n, 0.0f);
      std::vector<uint16_t> whole = c.rhs;
      whole[(c.k - 1) * c.n + c.n - 1] = 0x3F80; // 1: nothing to trim
      for (KernelPath path : supportedKernelPaths()) {
        std::string what = absl::StrCat(kernelPathName(path), " K=", usedK,
                                        " N=", usedN, acc ? " acc" : "");
        EXPECT_LT(PackedRhs(path, c.rhs.data(), c.k, c.n).usedK() *
                      PackedRhs(path, c.rhs.data(), c.k, c.n).usedN(),
                  c.k * c.n)
            << what;
        EXPECT_EQ(PackedRhs(path, whole.data(), c.k, c.n).usedK(), c.k);
        std::vector<float> got = c.init, want = c.init;
        matmulBf16(path, c.lhs.data(), c.rhs.data(), got.data(), c.m, c.k,
                   c.n, acc);
        matmulBf16(path, c.lhs.data(), whole.data(), want.data(), c.m, c.k,
                   c.n, acc);
        for (int64_t i = 0; i < c.m; ++i)
          for (int64_t j = 0; j + 1 < c.n; ++j) {
            uint32_t g, w;
            std::memcpy(&g, &got[i * c.n + j], 4);
            std::memcpy(&w, &want[i * c.n + j], 4);
            ASSERT_EQ(g, w) << what << " at " << i << "," << j;
          }
      }
    }
}

TEST(Kernels, ExactPathsRoundEachProduct) {
  // 2^-75 x 2^-75 = 2^-150, half the smallest subnormal: rounded alone it
  // is 0 (ties to even), so 2^-149 + it stays 2^-149. An FMA (what GCC
  // makes of a multiply and an add where the ISA has one) rounds the sum
  // once, to 2^-148.
  const int64_t m = 8, k = 1, n = 64;
  std::vector<uint16_t> lhs(m * k, 0x1A00), rhs(k * n, 0x1A00); // 2^-75
  for (KernelPath path : supportedKernelPaths()) {
    if (!isKernelPathExact(path)) // avx512-bf16 flushes subnormals (below)
      continue;
    std::vector<float> out(m * n, std::ldexp(1.0f, -149));
    matmulBf16(path, lhs.data(), rhs.data(), out.data(), m, k, n, true);
    for (int64_t i = 0; i < m * n; ++i)
      ASSERT_EQ(out[i], std::ldexp(1.0f, -149))
          << kernelPathName(path) << " at " << i;
  }
}

TEST(Kernels, Bf16PathFlushesSubnormals) {
  if (!isKernelPathSupported(KernelPath::Avx512Bf16))
    GTEST_SKIP() << "no AVX512-BF16 here";
  // 2^-127 (subnormal bf16) x 2^100 + 1 x 1: the reference keeps the 2^-27,
  // VDPBF16PS reads the subnormal as zero; the bound covers that product.
  std::vector<uint16_t> lhs = {0x0040, 0x3F80}, rhs(2 * 16);
  for (int j = 0; j < 16; ++j) {
    rhs[j] = 0x7180;      // 2^100
    rhs[16 + j] = 0x3F80; // 1
  }
  std::vector<float> want(16), got(16);
  referenceMatmulBf16(lhs.data(), rhs.data(), want.data(), 1, 2, 16, false);
  matmulBf16(KernelPath::Avx512Bf16, lhs.data(), rhs.data(), got.data(), 1, 2,
             16, false);
  std::vector<double> bound = matmulBf16Tolerance(
      KernelPath::Avx512Bf16, lhs.data(), rhs.data(), nullptr, 1, 2, 16, false);
  EXPECT_EQ(want[0], 1.0f + std::ldexp(1.0f, -27));
  EXPECT_EQ(got[0], 1.0f);
  EXPECT_GE(bound[0], std::ldexp(1.0, -27));
  EXPECT_LT(bound[0], std::ldexp(1.0, -20));
}

TEST(Kernels, Bf16RowConversionsMatchHostioOnEveryPath) {
  // Ties, a carry into the exponent, the largest finite values, infinities,
  // signalling and quiet NaNs, subnormals, zeros; then random bits. An odd
  // count and an odd byte offset exercise the tails and unaligned VMEM.
  std::vector<uint32_t> f32 = {
      0x3F808000, 0x3F818000, 0x3F80FFFF, 0x7F7FFFFF, 0xFF7F8000, 0x7F800000,
      0xFF800000, 0x7F800001, 0xFF812345, 0x7FC00000, 0x00000001, 0x807FFFFF,
      0x00008000, 0x80000000, 0x00000000, 0x3F7FFFFF, 0x4B7FFFFF};
  std::mt19937 rng(7);
  while (f32.size() < 1031)
    f32.push_back(static_cast<uint32_t>(rng()));
  int64_t n = static_cast<int64_t>(f32.size());
  std::vector<uint8_t> want(2 * n + 1);
  for (int64_t i = 0; i < n; ++i) {
    uint16_t b = hostio::f32ToBf16Bits(hostio::floatFromBits(f32[i]));
    std::memcpy(&want[1 + 2 * i], &b, 2);
  }
  for (KernelPath path : supportedKernelPaths()) {
    std::vector<uint8_t> narrow(2 * n + 1, 0);
    narrowToBf16(path, f32.data(), narrow.data() + 1, n);
    EXPECT_EQ(narrow, want) << kernelPathName(path);
    std::vector<uint32_t> wide(n);
    widenBf16(path, want.data() + 1, wide.data(), n);
    for (int64_t i = 0; i < n; ++i) {
      uint16_t b;
      std::memcpy(&b, &want[1 + 2 * i], 2);
      ASSERT_EQ(wide[i], uint32_t(b) << 16) << kernelPathName(path) << " " << i;
    }
  }
}

TEST(Kernels, TransposeInPlaceAndBetweenArraysOnEveryPath) {
  // n = 128 (VTRANSPOSE's block) and 32 take the widest SIMD path, n = 24
  // AVX2's 8x8 blocks on the AVX-512 paths too, n = 12 the plain loop.
  for (int64_t n : {128, 32, 24, 12}) {
    std::vector<uint32_t> src(n * n);
    for (int64_t i = 0; i < n * n; ++i)
      src[i] = static_cast<uint32_t>(i * 2654435761u);
    for (KernelPath path : supportedKernelPaths()) {
      std::vector<uint32_t> out(n * n, 0), inPlace = src;
      transpose32(path, src.data(), out.data(), n);
      transpose32(path, inPlace.data(), inPlace.data(), n);
      for (int64_t r = 0; r < n; ++r)
        for (int64_t c = 0; c < n; ++c) {
          ASSERT_EQ(out[c * n + r], src[r * n + c])
              << kernelPathName(path) << " n=" << n;
          ASSERT_EQ(inPlace[c * n + r], src[r * n + c])
              << kernelPathName(path) << " n=" << n;
        }
    }
  }
}

TEST(Kernels, TransposeRowsOnEveryPath) {
  // The first `rows` rows of the transpose, in place and between arrays;
  // the other rows of the destination keep their values.
  for (auto [n, rows] : {std::pair<int64_t, int64_t>{128, 8},
                         {128, 40},
                         {128, 120},
                         {128, 128},
                         {12, 5}}) {
    std::vector<uint32_t> src(n * n);
    for (int64_t i = 0; i < n * n; ++i)
      src[i] = static_cast<uint32_t>(i * 2654435761u);
    for (KernelPath path : supportedKernelPaths()) {
      std::vector<uint32_t> out(n * n, 7), inPlace = src;
      transpose32Rows(path, src.data(), out.data(), n, rows);
      transpose32Rows(path, inPlace.data(), inPlace.data(), n, rows);
      for (int64_t r = 0; r < n; ++r)
        for (int64_t c = 0; c < n; ++c) {
          bool written = r < rows;
          ASSERT_EQ(out[r * n + c], written ? src[c * n + r] : 7u)
              << kernelPathName(path) << " n=" << n << " rows=" << rows;
          ASSERT_EQ(inPlace[r * n + c], written ? src[c * n + r] : src[r * n + c])
              << kernelPathName(path) << " n=" << n << " rows=" << rows;
        }
    }
  }
}

TEST(Kernels, PathNames) {
  for (KernelPath path : allKernelPaths())
    EXPECT_EQ(parseKernelPath(kernelPathName(path)), path);
  EXPECT_EQ(parseKernelPath("avx512bf16"), std::nullopt);
  EXPECT_EQ(bestKernelPath(), supportedKernelPaths().back());
}

// --- Traps -----------------------------------------------------------------

TEST(Traps, VmemOutOfBounds) {
  ProgramBuilder p;
  p.setDebugOp("fusion.1", "jit(f)/mul");
  p.vsplatF32(0, 1);
  p.vst(0, imm((16 << 20) - 100), exe::F32);
  EXPECT_EQ(trapMessage(p),
            "trap at instruction 1 (VST, hlo op fusion.1, jit(f)/mul): VMEM "
            "write of [0xffff9c, +512) out of bounds (VMEM is 16777216 bytes)");
}

// A DMA's VMEM side is bounds-checked before the timing model looks at its
// pages (that lookup once ran first and crashed).
TEST(Traps, DmaVmemOutOfBounds) {
  ProgramBuilder p;
  p.addBuffer("b", 4096);
  p.dma(exe::HBM, imm(0), exe::VMEM, imm(int64_t(1) << 40), imm(4096),
        imm(1), imm(0), imm(0), imm(0));
  EXPECT_EQ(trapMessage(p), "trap at instruction 0 (DMA): VMEM write of "
                            "[0x10000000000, +4096) out of bounds (VMEM is "
                            "16777216 bytes)");
  ProgramBuilder q;
  q.addBuffer("b", 4096);
  q.dma(exe::VMEM, imm(-4096), exe::HBM, imm(0), imm(4096), imm(1), imm(0),
        imm(0), imm(0));
  EXPECT_EQ(trapMessage(q), "trap at instruction 0 (DMA): VMEM read of "
                            "[0xfffffffffffff000, +4096) out of bounds (VMEM is "
                            "16777216 bytes)");
}

TEST(Traps, HbmOutsideBuffers) {
  ProgramBuilder p;
  p.addBuffer("b", 4096);
  p.dma(exe::HBM, imm(4000), exe::VMEM, imm(0), imm(200), imm(1), imm(0),
        imm(0), imm(0));
  EXPECT_EQ(trapMessage(p), "trap at instruction 0 (DMA): DMA reads HBM "
                            "[0xfa0, +200) outside every allocated buffer");
}

TEST(Traps, SmemOutOfBoundsAndMisaligned) {
  ProgramBuilder p;
  p.scalar(exe::SLD, 1, {imm(16384)});
  EXPECT_EQ(trapMessage(p), "trap at instruction 0 (SLD): SMEM read of "
                            "[0x4000, +4) out of bounds (SMEM is 16384 bytes)");
  ProgramBuilder q;
  q.scalar(exe::SST, 0, {imm(1), imm(6)});
  EXPECT_EQ(trapMessage(q), "trap at instruction 0 (SST): SMEM address 0x6 is "
                            "not 4-byte aligned");
}

TEST(Traps, UninitialisedVmemRead) {
  ProgramBuilder p;
  p.vsplatF32(0, 1);
  p.vst(0, imm(0), exe::F32);
  p.vld(1, imm(2048), exe::F32); // [0, 4096) is written, 4096.. is not
  EXPECT_EQ(trapMessage(p), "trap at instruction 2 (VLD): read of "
                            "uninitialised VMEM at 0x1000");
  ProgramBuilder q;
  q.mxuLoadWeights(0, imm(0));
  EXPECT_EQ(trapMessage(q), "trap at instruction 0 (MXU_LOAD_WEIGHTS): read "
                            "of uninitialised VMEM at 0x0");
}

TEST(Traps, VmemWrittenByAnEarlierExecuteIsUninitialised) {
  // The device reuses VMEM's storage and clears only what the last execute
  // wrote; every execute still starts with VMEM uninitialised.
  ProgramBuilder w;
  w.vsplatF32(0, 1);
  w.vst(0, imm(8 << 20), exe::F32);
  ProgramBuilder r;
  r.vld(0, imm(8 << 20), exe::F32);
  absl::StatusOr<Executable> we = w.build(), re = r.build();
  ASSERT_TRUE(we.ok() && re.ok());
  EmulatorDevice device(we->target());
  ASSERT_TRUE(device.execute(*we, {}).ok());
  absl::StatusOr<ExecutionProfile> got = device.execute(*re, {});
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(),
            "trap at instruction 0 (VLD): read of uninitialised VMEM at "
            "0x800000");
}

TEST(TimingOnly, VmemWrittenByAnEarlierFunctionalExecuteReadsAsZero) {
  // A functional execute leaves VMEM's storage as it wrote it (its reads are
  // all of bytes it wrote); a timing-only one starts from zeroes, so the
  // trip count read from unwritten VMEM is 0 and not the 7 the functional
  // execute stored there.
  ProgramBuilder w;
  w.vector(exe::VSPLAT, 0, {}, exe::DTYPE_INVALID, {imm(7)});
  w.vst(0, imm(8 << 20), exe::S32);
  ProgramBuilder r;
  r.dma(exe::VMEM, imm(8 << 20), exe::SMEM, imm(0), imm(4), imm(1), imm(0),
        imm(0), imm(1));
  r.semWait(imm(1), imm(1));
  r.scalar(exe::SLD, 1, {imm(0)});
  r.loopBegin(2, sreg(1));
  r.scalar(exe::NOP, 0, {});
  r.loopEnd();
  absl::StatusOr<Executable> we = w.build(), re = r.build();
  ASSERT_TRUE(we.ok() && re.ok());
  ExecuteOptions timingOnly;
  timingOnly.functional = false;
  EmulatorDevice fresh(re->target());
  absl::StatusOr<ExecutionProfile> want = fresh.execute(*re, timingOnly);
  ASSERT_TRUE(want.ok()) << want.status();
  EmulatorDevice device(we->target());
  for (int i = 0; i < 2; ++i)
    ASSERT_TRUE(device.execute(*we, {}).ok());
  absl::StatusOr<ExecutionProfile> got = device.execute(*re, timingOnly);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->instructionsExecuted, want->instructionsExecuted);
  EXPECT_EQ(got->instructionsExecuted, 4); // the loop runs no trip
}

TEST(Traps, DmaRaceWithoutWait) {
  ProgramBuilder p;
  uint32_t param = p.addParameter("x", vregShape());
  p.dma(exe::HBM, imm(p.parameterOffset(param)), exe::VMEM, imm(0), imm(4096),
        imm(1), imm(0), imm(0), imm(2));
  p.vld(0, imm(1024), exe::F32);
  EXPECT_EQ(trapMessage(p, {makeF32({8, 128}, ramp(1, 0))}),
            "trap at instruction 1 (VLD): VMEM [0x400, +512) is used by the "
            "DMA of instruction 0 still in flight (missing SEM_WAIT on "
            "semaphore 2)");
}

TEST(Traps, ManyDmasInFlightNameTheEarliestConflict) {
  // 300 DMAs in flight, each writing one 512-byte row of VMEM (the DMAs in
  // flight are indexed by page, runtime/emulator): a read of row 3's bytes
  // names the DMA that writes them, a read spanning rows 196..203 (two
  // pages) the earliest of those eight, and after the waits that retire the
  // first 250 a read of row 260 still traps while row 3 is free.
  ProgramBuilder p;
  p.addBuffer("b", 300 * 512);
  for (int i = 0; i < 300; ++i)
    p.dma(exe::HBM, imm(i * 512), exe::VMEM, imm(i * 512), imm(512), imm(1),
          imm(0), imm(0), imm(i < 250 ? 1 : 2));
  ProgramBuilder one = p, span = p, after = p;
  one.vld(0, imm(3 * 512 + 64), exe::F32);
  EXPECT_EQ(trapMessage(one),
            "trap at instruction 300 (VLD): VMEM [0x640, +512) is used by the "
            "DMA of instruction 3 still in flight (missing SEM_WAIT on "
            "semaphore 1)");
  span.dma(exe::VMEM, imm(196 * 512), exe::HBM, imm(0), imm(4096), imm(1),
           imm(0), imm(0), imm(3));
  EXPECT_EQ(trapMessage(span),
            "trap at instruction 300 (DMA): VMEM [0x18800, +4096) is used by "
            "the DMA of instruction 196 still in flight (missing SEM_WAIT on "
            "semaphore 1)");
  after.semWait(imm(1), imm(250));
  after.dma(exe::VMEM, imm(3 * 512), exe::HBM, imm(0), imm(512), imm(1),
            imm(0), imm(0), imm(3));
  after.semWait(imm(3), imm(1));
  after.vld(0, imm(260 * 512), exe::F32);
  EXPECT_EQ(trapMessage(after),
            "trap at instruction 303 (VLD): VMEM [0x20800, +512) is used by "
            "the DMA of instruction 260 still in flight (missing SEM_WAIT on "
            "semaphore 2)");
}

TEST(Traps, StridedDmaInFlightConflictsOnlyWithItsChunks) {
  // A DMA in flight writes 32 chunks of 64 bytes, 128 apart, into one VMEM
  // page (one entry of the in-flight index), issued in ascending and in
  // descending order: reading the gaps between its chunks is no race;
  // reading a chunk's first or last byte is.
  for (bool descending : {false, true}) {
    SCOPED_TRACE(descending ? "descending" : "ascending");
    auto program = [&](int64_t readAddr, int64_t readBytes) {
      ProgramBuilder p;
      p.addBuffer("b", 8192);
      p.vsplatF32(0, 1);
      p.vst(0, imm(0), exe::F32); // VMEM [0, 4096) initialised
      p.dma(exe::HBM, imm(0), exe::VMEM, imm(descending ? 31 * 128 : 0),
            imm(64), imm(32), imm(64), imm(descending ? -128 : 128), imm(1));
      p.dma(exe::VMEM, imm(readAddr), exe::HBM, imm(4096), imm(readBytes),
            imm(1), imm(0), imm(0), imm(2));
      p.semWait(imm(1), imm(1));
      p.semWait(imm(2), imm(1));
      return p;
    };
    for (int64_t gap : {64, 10 * 128 + 64, 31 * 128 + 64}) {
      absl::StatusOr<RunResult> r = runProgram(program(gap, 64));
      EXPECT_TRUE(r.ok()) << gap << ": " << r.status();
    }
    EXPECT_EQ(trapMessage(program(120, 16)),
              "trap at instruction 3 (DMA): VMEM [0x78, +16) is used by the "
              "DMA of instruction 2 still in flight (missing SEM_WAIT on "
              "semaphore 1)");
    EXPECT_EQ(trapMessage(program(20 * 128 + 63, 1)),
              "trap at instruction 3 (DMA): VMEM [0xa3f, +1) is used by the "
              "DMA of instruction 2 still in flight (missing SEM_WAIT on "
              "semaphore 1)");
    // A strided read of all 32 gaps: its hull overlaps the chunks in
    // flight, its chunks do not (the DMA is checked chunk by chunk, not
    // refused on the hull); one chunk shifted onto a chunk in flight traps.
    auto strided = [&](int64_t first, int64_t stride) {
      ProgramBuilder p;
      p.addBuffer("b", 8192);
      p.vsplatF32(0, 1);
      p.vst(0, imm(0), exe::F32);
      p.dma(exe::HBM, imm(0), exe::VMEM, imm(descending ? 31 * 128 : 0),
            imm(64), imm(32), imm(64), imm(descending ? -128 : 128), imm(1));
      p.dma(exe::VMEM, imm(first), exe::HBM, imm(4096), imm(64), imm(32),
            imm(stride), imm(64), imm(2));
      p.semWait(imm(1), imm(1));
      p.semWait(imm(2), imm(1));
      return p;
    };
    absl::StatusOr<RunResult> gaps = runProgram(strided(64, 128));
    EXPECT_TRUE(gaps.ok()) << gaps.status();
    EXPECT_EQ(trapMessage(strided(64, 126)),
              "trap at instruction 3 (DMA): VMEM [0xbe, +64) is used by the "
              "DMA of instruction 2 still in flight (missing SEM_WAIT on "
              "semaphore 1)");
  }
}

TEST(Traps, HbmRaceWithoutWait) {
  // A DMA reading HBM bytes that a DMA in flight writes (a prefetch moved
  // above a write of its source, docs/codegen.md) traps in a functional
  // run, as VMEM races do.
  ProgramBuilder p;
  p.addBuffer("b", 8192);
  p.vsplatF32(0, 1);
  p.vst(0, imm(0), exe::F32);
  p.dma(exe::VMEM, imm(0), exe::HBM, imm(0), imm(4096), imm(1), imm(0),
        imm(0), imm(1));
  p.dma(exe::HBM, imm(2048), exe::VMEM, imm(8192), imm(1024), imm(1),
        imm(0), imm(0), imm(0));
  EXPECT_EQ(trapMessage(p),
            "trap at instruction 3 (DMA): DMA reads HBM [0x800, +1024) which "
            "the DMA of instruction 2 still in flight writes (missing "
            "SEM_WAIT on semaphore 1)");
  // Writing bytes a DMA in flight reads is one too.
  ProgramBuilder w;
  w.addBuffer("b", 8192);
  w.vsplatF32(0, 1);
  w.vst(0, imm(0), exe::F32);
  w.dma(exe::HBM, imm(0), exe::VMEM, imm(8192), imm(4096), imm(1), imm(0),
        imm(0), imm(1));
  w.dma(exe::VMEM, imm(0), exe::HBM, imm(1024), imm(512), imm(1), imm(0),
        imm(0), imm(0));
  EXPECT_EQ(trapMessage(w),
            "trap at instruction 3 (DMA): DMA writes HBM [0x400, +512) which "
            "the DMA of instruction 2 still in flight reads (missing "
            "SEM_WAIT on semaphore 1)");
  // Reading disjoint bytes of the same buffer is no race.
  ProgramBuilder q;
  q.addBuffer("b", 8192);
  q.vsplatF32(0, 1);
  q.vst(0, imm(0), exe::F32);
  q.dma(exe::VMEM, imm(0), exe::HBM, imm(0), imm(4096), imm(1), imm(0),
        imm(0), imm(1));
  q.dma(exe::HBM, imm(4096), exe::VMEM, imm(8192), imm(1024), imm(1),
        imm(0), imm(0), imm(0));
  q.semWait(imm(1), imm(1));
  q.semWait(imm(0), imm(1));
  EXPECT_TRUE(runProgram(q).ok());
}

TEST(Traps, SemaphoreMisuse) {
  ProgramBuilder deadlock;
  deadlock.semSignal(imm(4), imm(1));
  deadlock.semWait(imm(4), imm(2));
  EXPECT_EQ(trapMessage(deadlock),
            "trap at instruction 1 (SEM_WAIT): deadlock: SEM_WAIT for 2 on "
            "semaphore 4 whose value is 1 with no DMA outstanding on it");
  ProgramBuilder range;
  range.scalar(exe::SMOV, 1, {imm(40)});
  range.semWait(sreg(1), imm(1));
  EXPECT_EQ(trapMessage(range),
            "trap at instruction 1 (SEM_WAIT): semaphore 40 not in [0, 32)");
  ProgramBuilder count;
  count.semWait(imm(0), imm(0));
  EXPECT_EQ(trapMessage(count),
            "trap at instruction 0 (SEM_WAIT): SEM_WAIT count 0 must be >= 1");
  ProgramBuilder leak;
  leak.addBuffer("b", 4096);
  leak.dma(exe::HBM, imm(0), exe::VMEM, imm(0), imm(64), imm(1), imm(0),
           imm(0), imm(5));
  leak.emit(exe::HALT);
  EXPECT_EQ(trapMessage(leak),
            "trap at instruction 0 (DMA): program ended with this DMA in "
            "flight (no SEM_WAIT on semaphore 5 retired it)");
}

TEST(Traps, MxuMisuse) {
  ProgramBuilder p;
  p.mxuMatmul(0, imm(0), imm(0), imm(8), false);
  EXPECT_EQ(trapMessage(p),
            "trap at instruction 0 (MXU_MATMUL): MXU 0 has no weights loaded");
  ProgramBuilder q;
  q.mxuMatmul(0, imm(0), imm(0), imm(12), false);
  EXPECT_EQ(trapMessage(q), "trap at instruction 0 (MXU_MATMUL): MXU_MATMUL "
                            "rows 12 must be a positive multiple of 8");
}

TEST(Traps, ScalarFaultsAndRunaways) {
  ProgramBuilder div;
  div.scalar(exe::SDIV, 1, {imm(1), imm(0)});
  EXPECT_EQ(trapMessage(div),
            "trap at instruction 0 (SDIV): scalar division by zero");
  ProgramBuilder shift;
  shift.scalar(exe::SSHL, 1, {imm(1), imm(64)});
  EXPECT_EQ(trapMessage(shift),
            "trap at instruction 0 (SSHL): shift amount 64 not in [0, 63]");
  ProgramBuilder trip;
  trip.loopBegin(1, imm(-1));
  trip.loopEnd();
  EXPECT_EQ(trapMessage(trip),
            "trap at instruction 0 (LOOP_BEGIN): negative trip count -1");
  ProgramBuilder lane;
  lane.vector(exe::VBCAST_LANE, 0, {1}, exe::DTYPE_INVALID, {imm(128)});
  EXPECT_EQ(trapMessage(lane),
            "trap at instruction 0 (VBCAST_LANE): lane 128 not in [0, 128)");
  ProgramBuilder spin;
  spin.emit(exe::BR).set_target(0);
  absl::StatusOr<Executable> e = spin.build();
  ASSERT_TRUE(e.ok());
  EmulatorDevice device(e->target());
  ExecuteOptions options;
  options.maxInstructions = 1000;
  EXPECT_EQ(device.execute(*e, options).status().message(),
            "trap at instruction 0 (BR): instruction budget of 1000 exceeded "
            "(runaway loop?)");
}

// --- Timing ----------------------------------------------------------------

// A target with round numbers: 1 GHz, 1024 bytes per cycle, 100-cycle DMAs.
exe::Target roundTarget(uint32_t mxus = 1) {
  exe::Target t = tpuV3Target();
  t.set_clock_hz(1e9);
  t.set_hbm_bytes_per_second(1.024e12);
  t.set_dma_latency_cycles(100);
  t.set_mxu_count(mxus);
  return t;
}

ExecutionProfile timing(const ProgramBuilder &b) {
  ExecuteOptions options;
  options.functional = false;
  options.trace = true;
  absl::StatusOr<RunResult> r = runProgram(b, {}, options);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? r->profile : ExecutionProfile();
}

// v0 = exp^50(1): a 200-cycle VPU chain from cycle 1 (VEXP: 4 cycles).
void slowVreg0(ProgramBuilder &p) {
  p.vsplatF32(0, 1.0f);
  for (int i = 0; i < 50; ++i)
    p.vector(exe::VEXP, 0, {0}, exe::F32);
}

// The start cycle of every traced instruction, in program order.
std::vector<uint64_t> starts(const ExecutionProfile &prof) {
  std::vector<uint64_t> out;
  for (const TraceEvent &e : prof.trace)
    out.push_back(e.start);
  return out;
}

TEST(Timing, DmaIsLatencyPlusBytesOverBandwidth) {
  ProgramBuilder p(roundTarget());
  p.addBuffer("b", 1 << 20);
  // 4096 B: 4 busy cycles, done at 0 + 4 + 100.
  p.dma(exe::HBM, imm(0), exe::VMEM, imm(0), imm(4096), imm(1), imm(0),
        imm(0), imm(0));
  // Issued at cycle 1, the engine is free at 4: done at 4 + 64 + 100.
  p.dma(exe::HBM, imm(0), exe::VMEM, imm(65536), imm(65536), imm(1), imm(0),
        imm(0), imm(1));
  p.semWait(imm(0), imm(1));
  p.semWait(imm(1), imm(1));
  ExecutionProfile prof = timing(p);
  EXPECT_EQ(prof.cycles, 168u);
  EXPECT_EQ(prof.hbmBytes, 69632u);
  EXPECT_DOUBLE_EQ(prof.seconds, 168e-9);
  EXPECT_DOUBLE_EQ(prof.hbmBandwidthUtilization, 69632.0 / (1024 * 168));
  ASSERT_EQ(prof.trace.size(), 4u);
  EXPECT_EQ(prof.trace[1].start, 4u);
  EXPECT_EQ(prof.trace[1].end, 168u);
}

TEST(Timing, DmaWaitingForItsDataLetsLaterDmasGoFirst) {
  // The first DMA reads VMEM a 200-cycle VPU chain writes: it starts at
  // 202. The second, issued a bundle later (cycle 26: the 51 VPU ALU ops
  // take two a bundle) and ready at once, takes the engine before it, not
  // after it.
  ProgramBuilder p(roundTarget());
  slowVreg0(p);                                       // [1, 201)
  p.vst(0, imm(0), exe::F32);                         // [201, 202)
  p.dma(exe::VMEM, imm(0), exe::HBM, imm(0), imm(4096), imm(1), imm(0),
        imm(0), imm(0));
  p.dma(exe::HBM, imm(4096), exe::VMEM, imm(65536), imm(4096), imm(1),
        imm(0), imm(0), imm(1));
  p.semWait(imm(0), imm(1));
  p.semWait(imm(1), imm(1));
  p.addBuffer("b", 1 << 20);
  ExecutionProfile prof = timing(p);
  ASSERT_EQ(prof.trace.size(), 56u);
  EXPECT_EQ(prof.trace[52].start, 202u);
  EXPECT_EQ(prof.trace[53].start, 26u);
  EXPECT_EQ(prof.cycles, 202u + 4 + 100 + 1); // the last wait issues at 306
}

TEST(Timing, DmasWritingOnePageDoNotWaitForEachOther) {
  // Two DMAs into the two halves of one VMEM page: semaphores order DMAs,
  // not the scoreboard, so the second starts when the engine is free (2),
  // not when the first has landed (102).
  ProgramBuilder p(roundTarget());
  p.addBuffer("b", 1 << 20);
  p.dma(exe::HBM, imm(0), exe::VMEM, imm(0), imm(2048), imm(1), imm(0),
        imm(0), imm(0));
  p.dma(exe::HBM, imm(2048), exe::VMEM, imm(2048), imm(2048), imm(1),
        imm(0), imm(0), imm(1));
  p.semWait(imm(0), imm(1));
  p.semWait(imm(1), imm(1));
  p.vld(0, imm(0), exe::F32); // after both waits: at 104
  ExecutionProfile prof = timing(p);
  EXPECT_EQ(starts(prof), (std::vector<uint64_t>{0, 2, 1, 102, 104}));
  EXPECT_EQ(prof.trace[1].end, 104u);
  EXPECT_EQ(prof.cycles, 105u);
}

TEST(Timing, MxuFillComputeDrain) {
  ProgramBuilder p(roundTarget());
  p.mxuLoadWeights(0, imm(0));                  // [0, 128)
  p.mxuMatmul(0, imm(1 << 20), imm(2 << 20), imm(256), false); // +256+254
  ExecutionProfile prof = timing(p);
  EXPECT_EQ(prof.cycles, 638u);
  EXPECT_EQ(prof.flops, 2.0 * 256 * 128 * 128);
  EXPECT_DOUBLE_EQ(prof.mxuUtilization, 2.0 * 256 * 128 * 128 / (32768 * 638.0));
}

TEST(Timing, MxuDoubleBuffersWeightsAndPipelinesStreams) {
  // Three weight tiles, each streamed by 256 rows accumulating into one
  // result: the next tile loads into the other weight buffer while the
  // array streams, and streams follow each other without fill or drain.
  ProgramBuilder p(roundTarget());
  for (int i = 0; i < 3; ++i) {
    p.mxuLoadWeights(0, imm(i * 32768));
    p.mxuMatmul(0, imm(1 << 20), imm(2 << 20), imm(256), i > 0);
  }
  ExecutionProfile prof = timing(p);
  ASSERT_EQ(prof.trace.size(), 6u);
  // L0 [0,128), M0 [128,384) done 638; L1 [128,256) in the other buffer;
  // M1 [384,640) right behind M0 (its result rows follow M0's).
  EXPECT_EQ(prof.trace[2].start, 128u);
  EXPECT_EQ(prof.trace[3].start, 384u);
  // L2 overwrites M0's buffer: it waits for M0's last row to drain (638);
  // M2 waits for L2.
  EXPECT_EQ(prof.trace[4].start, 638u);
  EXPECT_EQ(prof.trace[5].start, 766u);
  EXPECT_EQ(prof.cycles, 766u + 256 + 254);
}

TEST(Timing, MxuRowsStreamInAndOutOneACycle) {
  // Result row r of a 128-wide array is out at start + r + 2D - 1: a VLD of
  // the first 8 result rows waits for row 7, not for the last row.
  ProgramBuilder p(roundTarget());
  p.mxuLoadWeights(0, imm(0));                                  // [0, 128)
  p.mxuMatmul(0, imm(1 << 20), imm(2 << 20), imm(256), false); // [128, 384)
  p.vld(0, imm(2 << 20), exe::F32);              // rows 0..7: 128 + 7 + 255
  p.vld(1, imm((2 << 20) + 248 * 512), exe::F32); // rows 248..255: 638
  ExecutionProfile prof = timing(p);
  ASSERT_EQ(prof.trace.size(), 4u);
  EXPECT_EQ(prof.trace[2].start, 390u);
  EXPECT_EQ(prof.trace[3].start, 638u);
  EXPECT_EQ(prof.cycles, 639u);

  // LHS row r enters at start + r: rows the VPU writes late (the last 16,
  // after a 200-cycle chain) hold the stream back only until they are due.
  ProgramBuilder q(roundTarget());
  q.mxuLoadWeights(0, imm(0));                                  // [0, 128)
  slowVreg0(q);                                     // [1, 201)
  q.vst(0, imm((1 << 20) + 240 * 256), exe::BF16);  // rows 240..247 at 201
  q.mxuMatmul(0, imm(1 << 20), imm(2 << 20), imm(256), false);
  prof = timing(q);
  ASSERT_EQ(prof.trace.size(), 54u);
  EXPECT_EQ(prof.trace[52].end, 202u);  // the VST
  EXPECT_EQ(prof.trace[53].start, 128u); // row 240 enters at 368
}

TEST(Timing, Mxu256LoadsAndDrainsInTwiceTheCycles) {
  exe::Target t = roundTarget();
  t.set_mxu_rows(256);
  t.set_mxu_cols(256);
  ProgramBuilder p(t);
  p.mxuLoadWeights(0, imm(0));                                  // [0, 256)
  p.mxuMatmul(0, imm(1 << 20), imm(2 << 20), imm(512), false); // +512+510
  ExecutionProfile prof = timing(p);
  EXPECT_EQ(prof.cycles, 256u + 512 + 510);
  EXPECT_EQ(prof.flops, 2.0 * 512 * 256 * 256);
  EXPECT_DOUBLE_EQ(prof.mxuUtilization,
                   2.0 * 512 * 256 * 256 / (2.0 * 256 * 256 * 1278));
}

TEST(Timing, UnitsOverlapAndVmemOrdersThem) {
  // Two MXUs run in parallel; the VLD of MXU 1's output waits for it.
  ProgramBuilder p(roundTarget(2));
  p.setDebugOp("dot.1");
  p.mxuLoadWeights(0, imm(0));                        // mxu0 [0,128)
  p.mxuLoadWeights(1, imm(0));                        // mxu1 [1,129)
  p.mxuMatmul(0, imm(65536), imm(1 << 20), imm(8), false); // [128, 136) -> 390
  p.mxuMatmul(1, imm(65536), imm(2 << 20), imm(8), false); // [129, 137) -> 391
  p.setDebugOp("add.2");
  p.vld(0, imm(2 << 20), exe::F32);                   // vpu [391, 392)
  p.vector(exe::VADD, 0, {0, 0}, exe::F32);           // [392, 393)
  ExecutionProfile prof = timing(p);
  EXPECT_EQ(prof.cycles, 393u);
  ASSERT_EQ(prof.ops.size(), 2u);
  EXPECT_EQ(prof.ops[0].hloOp, "dot.1");
  // Two loads, and the two 8-row streams (fill and drain overlap).
  EXPECT_EQ(prof.ops[0].busyCycles, 128u + 128 + 8 + 8);
  EXPECT_EQ(prof.ops[1].hloOp, "add.2");
  EXPECT_EQ(prof.ops[1].busyCycles, 2u);
  EXPECT_EQ(prof.ops[1].instructions, 2);
}

TEST(Timing, BundlesIssueTwoAluOpsALoadAndAStorePerCycle) {
  // Independent work fills the bundle's VPU slots: two ALU ops, a load and
  // a store in cycle 0; the third ALU op opens cycle 1. A dependent op
  // waits for its operand (the add reads v1, ready at 1).
  ProgramBuilder p(roundTarget());
  p.vsplatF32(0, 1.0f);                            // cycle 0, ALU 0
  p.vsplatF32(1, 2.0f);                            // cycle 0, ALU 1
  p.vld(2, imm(0), exe::F32);                      // cycle 0, load
  p.vst(3, imm(8192), exe::F32);                   // cycle 0, store
  p.vector(exe::VADD, 4, {1, 1}, exe::F32);        // cycle 1
  p.vector(exe::VMUL, 5, {4, 4}, exe::F32);        // issued 1, starts 2
  ExecutionProfile prof = timing(p);
  EXPECT_EQ(starts(prof), (std::vector<uint64_t>{0, 0, 0, 0, 1, 2}));
  EXPECT_EQ(prof.trace[0].unitIndex, 0);
  EXPECT_EQ(prof.trace[1].unitIndex, 1);
  EXPECT_EQ(prof.trace[2].unitIndex, 2);
  EXPECT_EQ(prof.trace[3].unitIndex, 3);
  EXPECT_EQ(prof.cycles, 3u);
}

TEST(Timing, ScalarResultsAreReadInTheNextBundle) {
  // Two scalar slots: independent SADDs share cycle 0; one that reads a
  // result of cycle 0 goes to cycle 1, and so does the VLD whose address
  // it computes (the VPU starts it at 1).
  ProgramBuilder p(roundTarget());
  p.scalar(exe::SADD, 1, {imm(4096), imm(0)});       // cycle 0
  p.scalar(exe::SADD, 2, {imm(1), imm(2)});          // cycle 0
  p.scalar(exe::SADD, 3, {sreg(1), imm(4096)});      // cycle 1
  p.vld(0, sreg(3), exe::F32);                       // cycle 2
  p.vld(1, imm(0), exe::F32);                        // load slot taken: 3
  ExecutionProfile prof = timing(p);
  EXPECT_EQ(starts(prof), (std::vector<uint64_t>{0, 0, 1, 2, 3}));
  EXPECT_EQ(prof.cycles, 4u);
}

TEST(Timing, TakenBranchesEndTheBundle) {
  // A 3-trip loop of one SADD: LOOP_BEGIN and the first SADD fill cycle
  // 0's two scalar slots, so the first LOOP_END goes to cycle 1; a taken
  // LOOP_END ends its bundle, so every later trip is one bundle (SADD and
  // LOOP_END).
  ProgramBuilder p(roundTarget());
  p.loopBegin(1, imm(3));
  p.scalar(exe::SADD, 2, {sreg(2), imm(1)});
  p.loopEnd();
  ExecutionProfile prof = timing(p);
  EXPECT_EQ(starts(prof), (std::vector<uint64_t>{0, 0, 1, 2, 2, 3, 3}));
  EXPECT_EQ(prof.cycles, 4u);
}

TEST(Timing, ProfileJsonAndTrace) {
  ProgramBuilder p(roundTarget());
  p.setDebugOp("dot.\"1\"");
  p.mxuLoadWeights(0, imm(0));
  ExecutionProfile prof = timing(p);
  std::string json = profileToJson(prof);
  EXPECT_NE(json.find("\"cycles\": 128,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"hlo_op\": \"dot.\\\"1\\\"\""), std::string::npos)
      << json;
  absl::StatusOr<Executable> e = p.build();
  ASSERT_TRUE(e.ok());
  std::string trace = traceToChromeJson(prof, *e);
  EXPECT_NE(trace.find("{\"ph\": \"X\", \"pid\": 0, \"tid\": 2, \"ts\": "
                       "0.000000, \"dur\": 0.128000, \"name\": "
                       "\"MXU_LOAD_WEIGHTS\""),
            std::string::npos)
      << trace;
}

// A trip count the vector unit computes from a parameter: the sum of lane 0
// of sublane 0 of an s32 tile, reaching LOOP_BEGIN through HBM and SMEM. The
// loop body's VEXP chain never reaches control flow.
ProgramBuilder vectorTripCountProgram() {
  ProgramBuilder p;
  loadVregParameter(p, 0, exe::S32);
  p.vector(exe::VREDUCE_LANES, 1, {0}, exe::S32).set_reduce(exe::REDUCE_SUM);
  p.vst(1, imm(4096), exe::S32);
  uint32_t flag = p.addBuffer("flag", 4096);
  p.dma(exe::VMEM, imm(4096), exe::HBM, imm(p.bufferOffset(flag)), imm(4096),
        imm(1), imm(0), imm(0), imm(1));
  p.semWait(imm(1), imm(1));
  p.dma(exe::HBM, imm(p.bufferOffset(flag)), exe::SMEM, imm(0), imm(4),
        imm(1), imm(0), imm(0), imm(1));
  p.semWait(imm(1), imm(1));
  p.scalar(exe::SLD, 1, {imm(0)});
  p.setDebugOp("while.1", "jit(f)/while");
  p.loopBegin(2, sreg(1));
  p.vsplatF32(2, 0.5f);
  for (int i = 0; i < 4; ++i)
    p.vector(exe::VEXP, 2, {2}, exe::F32);
  p.vst(2, imm(8192), exe::F32);
  p.dma(exe::VMEM, imm(8192), exe::HBM, imm(p.bufferOffset(flag)), imm(4096),
        imm(1), imm(0), imm(0), imm(2));
  p.semWait(imm(2), imm(1));
  p.loopEnd();
  return p;
}

TEST(TimingOnly, ComputesWhatDecidesControlFlow) {
  ProgramBuilder p = vectorTripCountProgram();
  std::vector<int32_t> tile(kVregElements, 0);
  tile[0] = 3;
  tile[1] = 4; // seven trips
  tile[kLanes] = 100; // sublane 1: not read by the SLD
  ExecuteOptions functional, timingOnly;
  timingOnly.functional = false;
  absl::StatusOr<RunResult> f = runProgram(p, {makeS32({8, 128}, tile)},
                                           functional);
  absl::StatusOr<RunResult> t = runProgram(p, {makeS32({8, 128}, tile)},
                                           timingOnly);
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->profile.cycles, f->profile.cycles);
  EXPECT_EQ(t->profile.instructionsExecuted, f->profile.instructionsExecuted);
  EXPECT_FALSE(f->profile.timingOnly);
  EXPECT_TRUE(t->profile.timingOnly);
  // VLD, VREDUCE_LANES, VST and the two DMAs to HBM; the DMA to SMEM is in
  // the slice from the start.
  EXPECT_EQ(t->profile.controlInstructions, 6);
  EXPECT_GE(t->profile.controlRestarts, 1);
  EXPECT_TRUE(t->profile.dataDependent.empty());
}

TEST(TimingOnly, ReportsDecisionsOnAssumedParameters) {
  ProgramBuilder p = vectorTripCountProgram();
  ExecuteOptions options;
  options.functional = false;
  options.assumedParameters = {true};
  absl::StatusOr<RunResult> r = runProgram(
      p, {makeS32({8, 128}, std::vector<int32_t>(kVregElements, 0))}, options);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->profile.dataDependent.size(), 1u);
  const DataDependentDecision &d = r->profile.dataDependent[0];
  EXPECT_EQ(d.kind, "trip count");
  EXPECT_EQ(d.hloOp, "while.1");
  EXPECT_EQ(d.opName, "jit(f)/while");
  EXPECT_EQ(d.dependsOn, std::vector<std::string>{"parameter 0 'in'"});
  EXPECT_EQ(d.executions, 1);
  EXPECT_EQ(d.taken, 0);
  std::string text = profileToText(r->profile);
  EXPECT_NE(text.find("depends on parameter 0 'in': 0 trips in 1 executions"),
            std::string::npos)
      << text;
  std::string json = profileToJson(r->profile);
  EXPECT_NE(json.find("\"depends_on\": [\"parameter 0 'in'\"]"),
            std::string::npos)
      << json;
}

} // namespace
} // namespace tpuc::runtime
