// A loaded, fully validated executable. Nothing downstream (emulator, run
// helpers) re-checks what the loader guarantees; see docs/runtime.md for the
// list of checks.
#ifndef TPUC_RUNTIME_LOADER_EXECUTABLE_H
#define TPUC_RUNTIME_LOADER_EXECUTABLE_H

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "runtime/schema/executable.pb.h"

namespace tpuc::runtime {

class Executable {
public:
  const exe::Executable &proto() const { return proto_; }
  const exe::Target &target() const { return proto_.target(); }
  const exe::Instruction &instruction(int64_t pc) const {
    return proto_.instructions(static_cast<int>(pc));
  }
  int64_t numInstructions() const { return proto_.instructions_size(); }

  // For LOOP_BEGIN: index of its LOOP_END, and the other way round.
  int64_t loopPartner(int64_t pc) const { return loopPartner_[pc]; }

  // Padded byte size of each parameter / result (paddedByteSize).
  int64_t parameterBytes(int i) const { return parameterBytes_[i]; }
  int64_t resultBytes(int i) const { return resultBytes_[i]; }

  // Used HBM: the end of the highest buffer.
  uint64_t hbmFootprint() const { return hbmFootprint_; }

  // "instruction 12 (MXU_MATMUL, hlo op dot.3, jit(f)/dot_general at
  // model.py:7)": how traps and errors name an instruction.
  std::string describeInstruction(int64_t pc) const;
  // The hlo op name of instruction `pc`, or "" without debug info.
  absl::string_view hloOp(int64_t pc) const;

private:
  friend absl::StatusOr<Executable> validateExecutable(exe::Executable proto);
  exe::Executable proto_;
  std::vector<int64_t> loopPartner_;
  std::vector<int64_t> parameterBytes_, resultBytes_;
  uint64_t hbmFootprint_ = 0;
};

// Parses and validates a serialized tpuc.exe.Executable. Any malformed or
// hostile input gives InvalidArgument naming the offending field or
// instruction; never a crash. (A libFuzzer target is one call to this.)
absl::StatusOr<Executable> loadExecutable(absl::string_view bytes);
// The protobuf text format of the same message (hand-written tests, and a
// readable dump of an executable).
absl::StatusOr<Executable> loadExecutableFromText(absl::string_view text);
// Binary, or text format when the name ends in .txtpb or .textproto.
absl::StatusOr<Executable> loadExecutableFromFile(const std::string &path);
// Validates an in-memory proto (the program builder's output).
absl::StatusOr<Executable> validateExecutable(exe::Executable proto);

// The default target (tpu-v3, one core) as the compiler presets describe it.
exe::Target tpuV3Target();

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_LOADER_EXECUTABLE_H
