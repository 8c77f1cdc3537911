#include "runtime/loader/Isa.h"

#include "absl/container/flat_hash_map.h"

namespace tpuc::runtime {
namespace {

constexpr unsigned kF32 = dtypeBit(exe::F32);
constexpr unsigned kBf16 = dtypeBit(exe::BF16);
constexpr unsigned kS32 = dtypeBit(exe::S32);

OpcodeInfo scalar(const char *name, RegFile dst, int numArgs) {
  return {name, Unit::Scalar, dst, 0, numArgs, 0, 0};
}
OpcodeInfo vector(const char *name, int numVsrc, unsigned dtypes,
                  int numArgs = 0) {
  return {name, Unit::Vpu, RegFile::Vector, numVsrc, numArgs, dtypes, 0};
}

absl::flat_hash_map<int, OpcodeInfo> buildTable() {
  absl::flat_hash_map<int, OpcodeInfo> t;
  const RegFile none = RegFile::None, sreg = RegFile::Scalar;
  t[exe::NOP] = scalar("NOP", none, 0);
  t[exe::HALT] = scalar("HALT", none, 0);
  t[exe::SMOV] = scalar("SMOV", sreg, 1);
  for (auto [op, name] : {std::pair{exe::SADD, "SADD"}, {exe::SSUB, "SSUB"},
                          {exe::SMUL, "SMUL"}, {exe::SDIV, "SDIV"},
                          {exe::SREM, "SREM"}, {exe::SAND, "SAND"},
                          {exe::SOR, "SOR"}, {exe::SXOR, "SXOR"},
                          {exe::SSHL, "SSHL"}, {exe::SSHR, "SSHR"},
                          {exe::SMIN, "SMIN"}, {exe::SMAX, "SMAX"}})
    t[op] = scalar(name, sreg, 2);
  t[exe::SCMP] = scalar("SCMP", sreg, 2);
  t[exe::SCMP].usesCmp = true;
  t[exe::SLD] = scalar("SLD", sreg, 1);
  t[exe::SST] = scalar("SST", none, 2);
  t[exe::BR] = scalar("BR", none, 0);
  t[exe::BR].usesTarget = true;
  t[exe::BRNZ] = scalar("BRNZ", none, 1);
  t[exe::BRNZ].usesTarget = true;
  t[exe::LOOP_BEGIN] = scalar("LOOP_BEGIN", sreg, 1);
  t[exe::LOOP_END] = scalar("LOOP_END", none, 0);
  t[exe::SEM_WAIT] = scalar("SEM_WAIT", none, 2);
  t[exe::SEM_SIGNAL] = scalar("SEM_SIGNAL", none, 2);

  t[exe::DMA] = {"DMA", Unit::Dma, none, 0, 7, 0, 0};
  t[exe::DMA].usesSpaces = true;

  t[exe::MXU_LOAD_WEIGHTS] = {"MXU_LOAD_WEIGHTS", Unit::Mxu, none, 0, 1, 0, 0};
  t[exe::MXU_LOAD_WEIGHTS].usesMxu = true;
  t[exe::MXU_MATMUL] = {"MXU_MATMUL", Unit::Mxu, none, 0, 3, 0, 0};
  t[exe::MXU_MATMUL].usesMxu = true;
  t[exe::MXU_MATMUL].usesAccumulate = true;

  t[exe::VLD] = vector("VLD", 0, kF32 | kBf16 | kS32, 2);
  t[exe::VST] = {"VST", Unit::Vpu, none, 1, 2, kF32 | kBf16 | kS32, 0};
  t[exe::VSPLAT] = vector("VSPLAT", 0, 0, 1);
  t[exe::VMOV] = vector("VMOV", 1, 0);
  for (auto [op, name] : {std::pair{exe::VADD, "VADD"}, {exe::VSUB, "VSUB"},
                          {exe::VMUL, "VMUL"}, {exe::VDIV, "VDIV"},
                          {exe::VMAX, "VMAX"}, {exe::VMIN, "VMIN"}})
    t[op] = vector(name, 2, kF32 | kS32);
  t[exe::VCMP] = vector("VCMP", 2, kF32 | kS32);
  t[exe::VCMP].usesCmp = true;
  t[exe::VSEL] = vector("VSEL", 3, 0);
  t[exe::VNEG] = vector("VNEG", 1, kF32 | kS32);
  t[exe::VABS] = vector("VABS", 1, kF32 | kS32);
  for (auto [op, name] : {std::pair{exe::VEXP, "VEXP"}, {exe::VLOG, "VLOG"},
                          {exe::VTANH, "VTANH"}, {exe::VRSQRT, "VRSQRT"},
                          {exe::VSQRT, "VSQRT"}, {exe::VRCP, "VRCP"}})
    t[op] = vector(name, 1, kF32);
  t[exe::VCVT] = vector("VCVT", 1, kF32 | kBf16 | kS32);
  t[exe::VCVT].srcDtypes = kF32 | kBf16 | kS32;
  t[exe::VREDUCE_LANES] = vector("VREDUCE_LANES", 1, kF32 | kS32);
  t[exe::VREDUCE_LANES].usesReduce = true;
  t[exe::VREDUCE_SUBLANES] = vector("VREDUCE_SUBLANES", 1, kF32 | kS32);
  t[exe::VREDUCE_SUBLANES].usesReduce = true;
  t[exe::VBCAST_LANE] = vector("VBCAST_LANE", 1, 0, 1);
  t[exe::VBCAST_SUBLANE] = vector("VBCAST_SUBLANE", 1, 0, 1);
  t[exe::VLANE_ID] = vector("VLANE_ID", 0, 0);
  t[exe::VSUBLANE_ID] = vector("VSUBLANE_ID", 0, 0);
  t[exe::VTRANSPOSE] = vector("VTRANSPOSE", 1, 0);
  return t;
}

} // namespace

const char *unitName(Unit unit) {
  switch (unit) {
  case Unit::Scalar:
    return "scalar";
  case Unit::Dma:
    return "dma";
  case Unit::Mxu:
    return "mxu";
  case Unit::Vpu:
    return "vpu";
  }
  return "?";
}

const OpcodeInfo *getOpcodeInfo(int opcode) {
  static const auto *table =
      new absl::flat_hash_map<int, OpcodeInfo>(buildTable());
  auto it = table->find(opcode);
  return it == table->end() ? nullptr : &it->second;
}

} // namespace tpuc::runtime
