// Walks every opcode of runtime/loader/Isa.def: the proto enum has it, the
// loader accepts a well-formed instance and rejects a malformed one, the
// emulator implements it, and docs/isa.md documents it. Adding a table line
// without the rest fails here.
#include <fstream>
#include <set>
#include <sstream>

#include "TestUtil.h"
#include "gtest/gtest.h"
#include "runtime/loader/Isa.h"

namespace tpuc::runtime {
namespace {

exe::DType lowestDtype(unsigned bits) {
  for (int t = 0; t < 32; ++t)
    if (bits & (1u << t))
      return static_cast<exe::DType>(t);
  return exe::DTYPE_INVALID;
}
exe::DType highestDtype(unsigned bits) {
  for (int t = 31; t >= 0; --t)
    if (bits & (1u << t))
      return static_cast<exe::DType>(t);
  return exe::DTYPE_INVALID;
}

// A program around one instance of `info` that uses exactly the fields the
// table allows: immediate 0 operands, register 0 (s1 for a scalar dst), the
// first allowed dtype (VCVT converts from the last allowed one), branches
// to the HALT behind it. LOOP_BEGIN and LOOP_END come as a pair.
ProgramBuilder wellFormed(const OpcodeInfo &info) {
  ProgramBuilder b;
  if (info.opcode == exe::LOOP_END)
    b.loopBegin(1, imm(1));
  exe::Instruction &in = b.emit(info.opcode);
  if (info.dst == RegFile::Scalar)
    in.set_dst(1);
  for (int i = 0; i < info.numVsrc; ++i)
    in.add_vsrc(0);
  for (int i = 0; i < info.numArgs; ++i)
    in.add_args()->set_imm(0);
  if (info.opcode == exe::VTRANSPOSE_ROWS)
    in.mutable_args(0)->set_imm(1); // the loader wants 1..16 registers
  in.set_dtype(lowestDtype(info.dtypes));
  in.set_src_dtype(highestDtype(info.srcDtypes));
  if (info.usesCmp)
    in.set_cmp(exe::EQ);
  if (info.usesReduce)
    in.set_reduce(exe::REDUCE_SUM);
  if (info.usesTarget)
    in.set_target(b.pc());
  if (info.usesSpaces) {
    in.set_src_space(exe::VMEM);
    in.set_dst_space(exe::VMEM);
  }
  if (info.opcode == exe::LOOP_BEGIN)
    b.loopEnd();
  b.emit(exe::HALT);
  if (info.unit == Unit::Ici) {
    // A one-device collective on s32[8] in buffers 0 and 1 (docs/spmd.md).
    exe::Collective &c = *b.proto().add_collectives();
    for (exe::Shape *shape : {c.mutable_operand(), c.mutable_result()}) {
      shape->set_dtype(exe::S32);
      if (info.opcode != exe::DEVICE_ID)
        shape->add_dims(8);
    }
    if (info.opcode == exe::COLLECTIVE_PERMUTE) {
      exe::SourceTarget &p = *c.add_pairs();
      p.set_source(0);
      p.set_target(0);
    } else if (info.opcode != exe::DEVICE_ID) {
      c.add_groups()->add_devices(0);
    }
    if (info.opcode == exe::ALL_REDUCE || info.opcode == exe::REDUCE_SCATTER)
      c.set_reduce(exe::COLLECTIVE_ADD);
    if (info.opcode == exe::DEVICE_ID)
      c.set_id(exe::PARTITION_ID);
  }
  return b;
}

TEST(Isa, TableMatchesProtoEnum) {
  std::set<int> inTable;
  for (const OpcodeInfo &info : allOpcodes()) {
    EXPECT_TRUE(exe::Opcode_IsValid(info.opcode)) << info.name;
    EXPECT_EQ(exe::Opcode_Name(info.opcode), info.name);
    EXPECT_EQ(getOpcodeInfo(info.opcode), &info) << info.name;
    EXPECT_TRUE(inTable.insert(info.opcode).second) << "twice: " << info.name;
  }
  const google::protobuf::EnumDescriptor *e = exe::Opcode_descriptor();
  for (int i = 0; i < e->value_count(); ++i) {
    int number = e->value(i)->number();
    if (number != exe::OPCODE_INVALID) {
      EXPECT_TRUE(inTable.count(number))
          << e->value(i)->name() << " is in executable.proto, not in Isa.def";
    }
  }
  EXPECT_EQ(getOpcodeInfo(exe::OPCODE_INVALID), nullptr);
  EXPECT_EQ(getOpcodeInfo(-1), nullptr);
  EXPECT_EQ(getOpcodeInfo(1000), nullptr);
}

TEST(Isa, LoaderAcceptsWellFormedAndRejectsMalformed) {
  for (const OpcodeInfo &info : allOpcodes()) {
    ProgramBuilder good = wellFormed(info);
    absl::StatusOr<Executable> e = good.build();
    EXPECT_TRUE(e.ok()) << info.name << ": " << e.status();

    ProgramBuilder extraVsrc = wellFormed(info);
    for (exe::Instruction &in : *extraVsrc.proto().mutable_instructions())
      if (in.opcode() == info.opcode)
        in.add_vsrc(0);
    absl::StatusOr<Executable> bad = extraVsrc.build();
    ASSERT_FALSE(bad.ok()) << info.name;
    EXPECT_NE(bad.status().message().find("vsrc, expected"), std::string::npos)
        << info.name << ": " << bad.status();

    ProgramBuilder extraArg = wellFormed(info);
    for (exe::Instruction &in : *extraArg.proto().mutable_instructions())
      if (in.opcode() == info.opcode)
        in.add_args()->set_imm(0);
    EXPECT_FALSE(extraArg.build().ok()) << info.name;
  }
  ProgramBuilder unknown;
  unknown.emit(static_cast<exe::Opcode>(99));
  EXPECT_EQ(unknown.build().status().message(),
            "instruction 0: unknown opcode 99");
}

TEST(Isa, EmulatorImplementsEveryOpcode) {
  ExecuteOptions options;
  options.maxInstructions = 16;
  for (const OpcodeInfo &info : allOpcodes()) {
    // A trap of the instance's operands (uninitialised VMEM, a semaphore
    // count of 0) is fine; a missing case in the emulator is not.
    absl::StatusOr<RunResult> r = test::runProgram(wellFormed(info), {}, options);
    if (!r.ok()) {
      EXPECT_EQ(r.status().message().find("no emulator semantics"),
                std::string::npos)
          << info.name << ": " << r.status();
    }
  }
}

TEST(Isa, DocsListEveryOpcode) {
  std::ifstream file(TPUC_DOCS_DIR "/isa.md");
  ASSERT_TRUE(file) << TPUC_DOCS_DIR "/isa.md";
  // Opcodes are the words of the first cell of the tables' rows:
  // "| `VADD VSUB` | ...".
  std::set<std::string> documented;
  std::string line;
  while (std::getline(file, line)) {
    if (line.rfind("| `", 0) != 0)
      continue;
    size_t end = line.find('`', 3);
    std::istringstream words(line.substr(3, end - 3));
    for (std::string w; words >> w;)
      documented.insert(w);
  }
  for (const OpcodeInfo &info : allOpcodes())
    EXPECT_TRUE(documented.count(info.name))
        << info.name << " has no row in docs/isa.md";
}

} // namespace
} // namespace tpuc::runtime
