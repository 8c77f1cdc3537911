// Builds executables in C++: tests, benchmarks and fuzz seeds use it to
// write programs by hand (the compiler has its own serializer).
#ifndef TPUC_RUNTIME_LOADER_PROGRAMBUILDER_H
#define TPUC_RUNTIME_LOADER_PROGRAMBUILDER_H

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/loader/Executable.h"

namespace tpuc::runtime {

// A scalar operand: s[reg] + imm.
struct Arg {
  uint32_t reg = 0;
  int64_t imm = 0;
};
inline Arg imm(int64_t value) { return {0, value}; }
inline Arg sreg(uint32_t reg, int64_t offset = 0) { return {reg, offset}; }

// dtype[dims] with the default minor_to_major {n-1..0} and `tiles`.
exe::Shape makeShape(exe::DType dtype, const std::vector<int64_t> &dims,
                     const std::vector<std::vector<int64_t>> &tiles = {});

class ProgramBuilder {
public:
  explicit ProgramBuilder(exe::Target target = tpuV3Target());

  exe::Executable &proto() { return proto_; }

  // Buffers are placed one after another, 4 KiB aligned. addBuffer and
  // addConstant return the buffer index, addParameter / addResult the
  // parameter / result index; the *Offset() methods give HBM addresses.
  uint32_t addBuffer(const std::string &name, uint64_t size);
  uint32_t addParameter(const std::string &name, const exe::Shape &shape);
  // aliasParameter >= 0 makes the result reuse that parameter's buffer.
  uint32_t addResult(const std::string &name, const exe::Shape &shape,
                     int aliasParameter = -1);
  uint32_t addConstant(const std::string &name, const exe::Shape &shape,
                       const std::string &rowMajorData);
  uint64_t bufferOffset(uint32_t buffer) const {
    return proto_.buffers(buffer).offset();
  }
  uint64_t parameterOffset(uint32_t parameter) const {
    return bufferOffset(proto_.parameters(parameter).buffer());
  }
  uint64_t resultOffset(uint32_t result) const {
    return bufferOffset(proto_.results(result).buffer());
  }

  // Instructions emitted from now on carry this debug op (0 clears it).
  void setDebugOp(const std::string &hloOp, const std::string &opName = "");

  // The next instruction's index (a branch target).
  int64_t pc() const { return proto_.instructions_size(); }

  exe::Instruction &emit(exe::Opcode opcode);
  exe::Instruction &scalar(exe::Opcode opcode, uint32_t dst,
                           std::vector<Arg> args);
  exe::Instruction &loopBegin(uint32_t counter, Arg tripCount);
  exe::Instruction &loopEnd();
  exe::Instruction &dma(exe::MemorySpace srcSpace, Arg src,
                        exe::MemorySpace dstSpace, Arg dst, Arg chunkBytes,
                        Arg chunks, Arg srcStride, Arg dstStride, Arg sem);
  exe::Instruction &semWait(Arg sem, Arg count);
  exe::Instruction &semSignal(Arg sem, Arg count);
  exe::Instruction &mxuLoadWeights(uint32_t mxu, Arg addr);
  exe::Instruction &mxuMatmul(uint32_t mxu, Arg lhs, Arg dst, Arg rows,
                              bool accumulate);
  exe::Instruction &vld(uint32_t vd, Arg addr, exe::DType dtype,
                        Arg sublaneStride = imm(0));
  exe::Instruction &vst(uint32_t vs, Arg addr, exe::DType dtype,
                        Arg sublaneStride = imm(0));
  exe::Instruction &vector(exe::Opcode opcode, uint32_t vd,
                           std::vector<uint32_t> vsrc,
                           exe::DType dtype = exe::DTYPE_INVALID,
                           std::vector<Arg> args = {});
  exe::Instruction &vsplatF32(uint32_t vd, float value);

  // Validates; the builder may be reused afterwards.
  absl::StatusOr<Executable> build() const;
  std::string serialize() const { return proto_.SerializeAsString(); }

private:
  exe::Executable proto_;
  uint64_t nextOffset_ = 0;
  uint32_t debugOp_ = 0;
};

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_LOADER_PROGRAMBUILDER_H
