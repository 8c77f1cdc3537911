#include "runtime/emulator/DecodedProgram.h"

namespace tpuc::runtime {

// An instruction with more args than DecodedInstruction holds does not
// compile.
#define TPUC_ISA(NAME, NUMBER, UNIT, DST, VSRC, ARGS, DTYPES, SRC_DTYPES,      \
                 FIELDS, CYCLES)                                               \
  static_assert(ARGS <= kMaxDecodedArgs, #NAME " has more args than "          \
                                               "kMaxDecodedArgs");
#include "runtime/loader/Isa.def"
#undef TPUC_ISA

void decodeProgram(const Executable &e, std::vector<DecodedInstruction> &out) {
  int64_t n = e.numInstructions();
  out.resize(n);
  for (int64_t pc = 0; pc < n; ++pc) {
    const exe::Instruction &in = e.instruction(pc);
    DecodedInstruction &d = out[pc];
    d.proto = &in;
    d.opcode = in.opcode();
    d.info = getOpcodeInfo(in.opcode());
    d.debugOp = in.debug_op();
    d.numArgs = in.args_size();
    for (int i = 0; i < d.numArgs; ++i)
      d.args[i] = {in.args(i).reg(), in.args(i).imm()};
  }
}

} // namespace tpuc::runtime
