#include "runtime/loader/Isa.h"

#include <algorithm>

namespace tpuc::runtime {
namespace {

// The names Isa.def uses.
constexpr unsigned kNone = 0;
constexpr unsigned kF32 = dtypeBit(exe::F32);
constexpr unsigned kBf16 = dtypeBit(exe::BF16);
constexpr unsigned kS32 = dtypeBit(exe::S32);
constexpr unsigned kU32 = dtypeBit(exe::U32);
enum Fields : unsigned {
  kNoFields = 0,
  kCmp = 1,
  kReduce = 2,
  kTarget = 4,
  kMxu = 8,
  kAccumulate = 16,
  kSpaces = 32,
};

// Each table number is the proto enum's value: a renumbered or missing
// enumerator does not compile.
#define TPUC_ISA(NAME, NUMBER, UNIT, DST, VSRC, ARGS, DTYPES, SRC_DTYPES,     \
                 FIELDS, CYCLES)                                               \
  static_assert(exe::NAME == NUMBER, #NAME " differs from executable.proto");
#include "runtime/loader/Isa.def"
#undef TPUC_ISA

OpcodeInfo makeInfo(exe::Opcode opcode, const char *name, Unit unit,
                    RegFile dst, int numVsrc, int numArgs, unsigned dtypes,
                    unsigned srcDtypes, unsigned fields, uint64_t cycles) {
  OpcodeInfo info{opcode, name, unit, dst, numVsrc, numArgs, dtypes, srcDtypes};
  info.usesCmp = fields & kCmp;
  info.usesReduce = fields & kReduce;
  info.usesTarget = fields & kTarget;
  info.usesMxu = fields & kMxu;
  info.usesAccumulate = fields & kAccumulate;
  info.usesSpaces = fields & kSpaces;
  info.cycles = cycles;
  return info;
}

std::vector<OpcodeInfo> buildTable() {
  return {
#define TPUC_ISA(NAME, NUMBER, UNIT, DST, VSRC, ARGS, DTYPES, SRC_DTYPES,     \
                 FIELDS, CYCLES)                                               \
  makeInfo(exe::NAME, #NAME, Unit::UNIT, RegFile::DST, VSRC, ARGS, DTYPES,     \
           SRC_DTYPES, FIELDS, CYCLES),
#include "runtime/loader/Isa.def"
#undef TPUC_ISA
  };
}

// Opcode -> index into allOpcodes(); -1 where the ISA has none.
std::vector<int> buildIndex(const std::vector<OpcodeInfo> &table) {
  int max = 0;
  for (const OpcodeInfo &info : table)
    max = std::max(max, static_cast<int>(info.opcode));
  std::vector<int> index(max + 1, -1);
  for (size_t i = 0; i < table.size(); ++i)
    index[table[i].opcode] = static_cast<int>(i);
  return index;
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
  case Unit::Ici:
    return "ici";
  }
  return "?";
}

const std::vector<OpcodeInfo> &allOpcodes() {
  static const auto *table = new std::vector<OpcodeInfo>(buildTable());
  return *table;
}

const OpcodeInfo *getOpcodeInfo(int opcode) {
  static const auto *index = new std::vector<int>(buildIndex(allOpcodes()));
  if (opcode < 0 || opcode >= static_cast<int>(index->size()) ||
      (*index)[opcode] < 0)
    return nullptr;
  return &allOpcodes()[(*index)[opcode]];
}

} // namespace tpuc::runtime
