// Static facts about each opcode of docs/isa.md, shared by the loader's
// validation, the emulator and the program builder. The facts come from one
// table, Isa.def.
#ifndef TPUC_RUNTIME_LOADER_ISA_H
#define TPUC_RUNTIME_LOADER_ISA_H

#include <cstdint>
#include <vector>

#include "runtime/schema/executable.pb.h"

namespace tpuc::runtime {

// Architectural constants fixed by the ISA (the target may not change them).
inline constexpr int kNumScalarRegs = 32;
inline constexpr int kNumVectorRegs = 32;
inline constexpr int kSublanes = 8;
inline constexpr int kLanes = 128;
inline constexpr int kVregElements = kSublanes * kLanes;
inline constexpr int kMaxLoopDepth = 16;
// VTRANSPOSE works on a 128x128 block held in this many consecutive vregs.
inline constexpr int kTransposeRegs = kLanes / kSublanes;
// The MXU is a square D x D systolic array; the target chooses D among
// these (target.mxu_rows == target.mxu_cols). MXU operands are lane blocks
// of 128 columns (docs/isa.md, "MXU").
inline constexpr int kMxuDims[] = {128, 256};
inline constexpr int kMaxMxus = 64;
// D of a validated target.
inline int mxuDim(const exe::Target &t) { return static_cast<int>(t.mxu_rows()); }

enum class Unit { Scalar, Dma, Mxu, Vpu, Ici };
inline constexpr int kNumUnits = 5;
const char *unitName(Unit unit);

enum class RegFile { None, Scalar, Vector };

// Bits of OpcodeInfo::dtypes.
inline constexpr unsigned dtypeBit(exe::DType t) { return 1u << t; }

struct OpcodeInfo {
  exe::Opcode opcode;
  const char *name;
  Unit unit;
  RegFile dst;
  int numVsrc;
  int numArgs;
  unsigned dtypes;    // allowed values of Instruction.dtype; 0: must be unset
  unsigned srcDtypes; // allowed values of Instruction.src_dtype
  bool usesCmp = false;
  bool usesReduce = false;
  bool usesTarget = false;
  bool usesMxu = false;
  bool usesAccumulate = false;
  bool usesSpaces = false;
  uint64_t cycles = 1; // VPU busy cycles
};

// Returns nullptr for opcodes the ISA does not define (including values an
// open proto3 enum lets through).
const OpcodeInfo *getOpcodeInfo(int opcode);

// Every opcode of the ISA, in Isa.def order.
const std::vector<OpcodeInfo> &allOpcodes();

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_LOADER_ISA_H
