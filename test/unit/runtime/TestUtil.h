// Helpers shared by the runtime unit tests.
#ifndef TPUC_TEST_UNIT_RUNTIME_TESTUTIL_H
#define TPUC_TEST_UNIT_RUNTIME_TESTUTIL_H

#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/emulator/EmulatorDevice.h"
#include "runtime/loader/ProgramBuilder.h"
#include "runtime/loader/Run.h"

namespace tpuc::runtime::test {

// One (8,128) 32-bit tile: f32[8,128] or s32[8,128] is exactly one vreg.
inline exe::Shape vregShape(exe::DType dtype = exe::F32) {
  return makeShape(dtype, {kSublanes, kLanes}, {{8, 128}});
}

// Builds, validates and runs `b` on a fresh emulator of its target.
inline absl::StatusOr<RunResult>
runProgram(const ProgramBuilder &b, const std::vector<hostio::HostArray> &inputs = {},
           ExecuteOptions options = {}) {
  absl::StatusOr<Executable> e = b.build();
  if (!e.ok())
    return e.status();
  EmulatorDevice device(e->target());
  return runExecutable(device, *e, inputs, options);
}

// Appends: VST v[vreg] to VMEM `scratch`, DMA it to a new result of one
// vreg, wait. Returns the result index.
inline uint32_t storeVregResult(ProgramBuilder &b, uint32_t vreg,
                                exe::DType dtype = exe::F32,
                                int64_t scratch = 0, int64_t sem = 31) {
  uint32_t result = b.addResult("out", vregShape(dtype));
  uint64_t hbm = b.resultOffset(result);
  b.vst(vreg, imm(scratch), dtype);
  b.dma(exe::VMEM, imm(scratch), exe::HBM, imm(hbm), imm(4096), imm(1),
        imm(0), imm(0), imm(sem));
  b.semWait(imm(sem), imm(1));
  return result;
}

// Appends a new vreg-sized parameter DMA'd to VMEM `scratch` and VLD'd into
// v[vreg]. Returns the parameter index.
inline uint32_t loadVregParameter(ProgramBuilder &b, uint32_t vreg,
                                  exe::DType dtype = exe::F32,
                                  int64_t scratch = 0, int64_t sem = 30) {
  uint32_t param = b.addParameter("in", vregShape(dtype));
  uint64_t hbm = b.parameterOffset(param);
  b.dma(exe::HBM, imm(hbm), exe::VMEM, imm(scratch), imm(4096), imm(1),
        imm(0), imm(0), imm(sem));
  b.semWait(imm(sem), imm(1));
  b.vld(vreg, imm(scratch), dtype);
  return param;
}

inline hostio::HostArray makeF32(const std::vector<int64_t> &shape,
                                 const std::vector<float> &values) {
  hostio::Bytes bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return hostio::HostArray::fromBytes(hostio::DType::F32, shape,
                                      std::move(bytes))
      .value();
}

inline hostio::HostArray makeS32(const std::vector<int64_t> &shape,
                                 const std::vector<int32_t> &values) {
  hostio::Bytes bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return hostio::HostArray::fromBytes(hostio::DType::S32, shape,
                                      std::move(bytes))
      .value();
}

template <typename T> std::vector<T> values(const hostio::HostArray &a) {
  std::vector<T> out(a.byteSize() / sizeof(T));
  std::memcpy(out.data(), a.data(), a.byteSize());
  return out;
}

inline float bitsF32(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

} // namespace tpuc::runtime::test

#endif // TPUC_TEST_UNIT_RUNTIME_TESTUTIL_H
