// An executable's instructions decoded once per execute into a flat array
// the emulator's step loop dispatches on: each instruction's opcode facts
// (Isa.def) looked up once, its scalar operands (register, immediate) and
// debug op copied out of the protobuf message.
#ifndef TPUC_RUNTIME_EMULATOR_DECODEDPROGRAM_H
#define TPUC_RUNTIME_EMULATOR_DECODEDPROGRAM_H

#include <cstdint>
#include <vector>

#include "runtime/loader/Executable.h"
#include "runtime/loader/Isa.h"

namespace tpuc::runtime {

// The most args an instruction has (DMA's seven, Isa.def).
inline constexpr int kMaxDecodedArgs = 7;

struct DecodedInstruction {
  const exe::Instruction *proto = nullptr; // the other fields
  const OpcodeInfo *info = nullptr;
  exe::Opcode opcode = exe::OPCODE_INVALID;
  uint32_t debugOp = 0; // index into the profile's ops (0: none)
  // args: the value is sreg[reg] + imm (docs/isa.md, "Operands").
  struct Operand {
    uint32_t reg = 0;
    int64_t imm = 0;
  };
  int numArgs = 0;
  Operand args[kMaxDecodedArgs];
};

// Fills `out` with the instructions of `e` (validated: each opcode is in
// Isa.def, has its numArgs args and registers in range), in pc order; `out`
// keeps its storage between calls.
void decodeProgram(const Executable &e, std::vector<DecodedInstruction> &out);

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_EMULATOR_DECODEDPROGRAM_H
