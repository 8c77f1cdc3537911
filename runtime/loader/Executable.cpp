#include "runtime/loader/Executable.h"
#include "runtime/target/Targets.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/stubs/logging.h"
#include "google/protobuf/text_format.h"
#include "runtime/loader/Collectives.h"
#include "runtime/loader/Isa.h"
#include "runtime/loader/Layout.h"

namespace tpuc::runtime {
namespace {

template <typename... Args> absl::Status invalid(const Args &...args) {
  return absl::InvalidArgumentError(absl::StrCat(args...));
}

#define TPUC_RETURN_IF_ERROR(expr)                                             \
  do {                                                                         \
    if (absl::Status _s = (expr); !_s.ok())                                    \
      return _s;                                                               \
  } while (0)

absl::Status checkRange(absl::string_view field, double value, double lo,
                        double hi) {
  if (!std::isfinite(value) || value < lo || value > hi)
    return invalid("field target.", field, ": ", value, " not in [", lo, ", ",
                   hi, "]");
  return absl::OkStatus();
}

// The MXU is square, 128x128 or 256x256.
absl::Status validateMxuShape(const exe::Target &t) {
  bool supported = false;
  for (int d : kMxuDims)
    supported |= t.mxu_rows() == static_cast<uint32_t>(d);
  if (!supported)
    return invalid("field target.mxu_rows: ", t.mxu_rows(),
                   " is not a supported MXU size (128 or 256)");
  if (t.mxu_cols() != t.mxu_rows())
    return invalid("field target.mxu_cols: ", t.mxu_cols(),
                   " differs from mxu_rows ", t.mxu_rows(),
                   " (the MXU is a square array)");
  return absl::OkStatus();
}

absl::Status validateTarget(const exe::Target &t) {
  TPUC_RETURN_IF_ERROR(checkRange("clock_hz", t.clock_hz(), 1e6, 1e11));
  TPUC_RETURN_IF_ERROR(checkRange("mxu_count", t.mxu_count(), 1, kMaxMxus));
  TPUC_RETURN_IF_ERROR(validateMxuShape(t));
  TPUC_RETURN_IF_ERROR(
      checkRange("vmem_bytes", t.vmem_bytes(), 1 << 16, 1 << 28));
  TPUC_RETURN_IF_ERROR(checkRange("smem_bytes", t.smem_bytes(), 4, 1 << 26));
  TPUC_RETURN_IF_ERROR(
      checkRange("hbm_bytes", t.hbm_bytes(), 1 << 16, double(1ull << 40)));
  TPUC_RETURN_IF_ERROR(checkRange("hbm_reserved_bytes",
                                  t.hbm_reserved_bytes(), 0,
                                  double(t.hbm_bytes()) - 1));
  TPUC_RETURN_IF_ERROR(checkRange("hbm_limit_bytes", t.hbm_limit_bytes(), 0,
                                  double(t.hbm_bytes())));
  TPUC_RETURN_IF_ERROR(
      checkRange("cores_per_device", t.cores_per_device(), 0, 8));
  TPUC_RETURN_IF_ERROR(
      checkRange("hbm_bytes_per_second", t.hbm_bytes_per_second(), 1e6, 1e14));
  TPUC_RETURN_IF_ERROR(
      checkRange("dma_latency_cycles", t.dma_latency_cycles(), 0, 1e6));
  TPUC_RETURN_IF_ERROR(checkRange("num_semaphores", t.num_semaphores(), 1, 1024));
  return absl::OkStatus();
}

absl::Status validateBuffers(const exe::Executable &e, uint64_t *footprint) {
  const exe::Target &t = e.target();
  uint64_t usable = target::usableHbmBytes(t);
  std::vector<int> order;
  for (int i = 0; i < e.buffers_size(); ++i) {
    const exe::Buffer &b = e.buffers(i);
    if (b.size() == 0)
      return invalid("buffers[", i, "] ('", b.name(), "'): size is 0");
    if (b.offset() > usable || b.size() > usable - b.offset())
      return invalid("buffers[", i, "] ('", b.name(), "'): [", b.offset(),
                     ", +", b.size(), ") exceeds usable HBM of ", usable,
                     " bytes");
    *footprint = std::max<uint64_t>(*footprint, b.offset() + b.size());
    order.push_back(i);
  }
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return e.buffers(a).offset() < e.buffers(b).offset();
  });
  // Buffers may share addresses only when both are heap buffers live in
  // disjoint steps. Sweep in offset order against the buffers still open.
  for (int i = 0; i < e.buffers_size(); ++i) {
    const exe::Buffer &b = e.buffers(i);
    if (b.heap() && b.live_first() > b.live_last())
      return invalid("buffers[", i, "] ('", b.name(), "'): live_first ",
                     b.live_first(), " > live_last ", b.live_last());
  }
  std::vector<int> open;
  for (int next : order) {
    const exe::Buffer &n = e.buffers(next);
    open.erase(std::remove_if(open.begin(), open.end(),
                              [&](int prev) {
                                const exe::Buffer &p = e.buffers(prev);
                                return p.offset() + p.size() <= n.offset();
                              }),
               open.end());
    for (int prev : open) {
      const exe::Buffer &p = e.buffers(prev);
      bool disjointSteps = p.heap() && n.heap() &&
                           (p.live_last() < n.live_first() ||
                            n.live_last() < p.live_first());
      if (!disjointSteps)
        return invalid("buffers[", prev, "] ('", p.name(), "') and buffers[",
                       next, "] ('", n.name(), "') overlap");
    }
    open.push_back(next);
  }
  return absl::OkStatus();
}

// Checks one constant / parameter / result: its buffer exists, its shape is
// valid and fits. Returns the padded size.
absl::StatusOr<int64_t> validateArray(const exe::Executable &e,
                                      absl::string_view what, int index,
                                      const exe::Shape &shape,
                                      uint32_t buffer) {
  std::string field = absl::StrCat(what, "[", index, "]");
  if (buffer >= static_cast<uint32_t>(e.buffers_size()))
    return invalid(field, ".buffer: ", buffer, " out of range (",
                   e.buffers_size(), " buffers)");
  absl::StatusOr<int64_t> bytes = paddedByteSize(shape);
  if (!bytes.ok())
    return invalid(field, ".shape: ", bytes.status().message());
  if (static_cast<uint64_t>(*bytes) > e.buffers(buffer).size())
    return invalid(field, ": padded size ", *bytes, " exceeds buffers[",
                   buffer, "] size ", e.buffers(buffer).size());
  return bytes;
}

// host_dtype: unset, pred/s8/u8/s16/u16 over an S32 device array, f16 or
// an f8 type over an F32 one, or s64 (u64) over the S32 (U32) words [2, ...].
template <typename ParameterOrResult>
absl::Status validateHostDType(absl::string_view what, int index,
                               const ParameterOrResult &p) {
  exe::DType host = p.host_dtype(), device = p.shape().dtype();
  bool words = p.shape().dims_size() > 0 && p.shape().dims(0) == 2;
  if (host == exe::DTYPE_INVALID ||
      (isWordHostType(host) && device == exe::S32) ||
      (isFloatWordHostType(host) && device == exe::F32) ||
      (host == exe::S64 && device == exe::S32 && words) ||
      (host == exe::U64 && device == exe::U32 && words))
    return absl::OkStatus();
  return invalid(what, "[", index, "].host_dtype: ", static_cast<int>(host),
                 " over a device ", dtypeName(device),
                 " array (only pred, s8, u8, s16 or u16 over s32, f16 or f8 "
                 "over f32, s64 or u64 over s32 or u32 words [2, ...])");
}

absl::Status validateArrays(const exe::Executable &e,
                            std::vector<int64_t> &parameterBytes,
                            std::vector<int64_t> &resultBytes) {
  // Which array owns each buffer, so that sharing is caught.
  std::vector<std::string> owner(e.buffers_size());
  auto claim = [&](uint32_t buffer, std::string who) -> absl::Status {
    if (!owner[buffer].empty())
      return invalid(who, " and ", owner[buffer], " share buffers[", buffer,
                     "] without an input_output_alias");
    owner[buffer] = std::move(who);
    return absl::OkStatus();
  };
  for (int i = 0; i < e.constants_size(); ++i) {
    const exe::Constant &c = e.constants(i);
    absl::StatusOr<int64_t> bytes =
        validateArray(e, "constants", i, c.shape(), c.buffer());
    if (!bytes.ok())
      return bytes.status();
    int64_t expected = elementCount(c.shape()) * elementBytes(c.shape().dtype());
    if (static_cast<int64_t>(c.data().size()) != expected)
      return invalid("constants[", i, "].data: ", c.data().size(),
                     " bytes, expected ", expected);
    TPUC_RETURN_IF_ERROR(claim(c.buffer(), absl::StrCat("constants[", i, "]")));
  }
  for (int i = 0; i < e.parameters_size(); ++i) {
    const exe::Parameter &p = e.parameters(i);
    absl::StatusOr<int64_t> bytes =
        validateArray(e, "parameters", i, p.shape(), p.buffer());
    if (!bytes.ok())
      return bytes.status();
    parameterBytes.push_back(*bytes);
    TPUC_RETURN_IF_ERROR(validateHostDType("parameters", i, p));
    TPUC_RETURN_IF_ERROR(
        claim(p.buffer(), absl::StrCat("parameters[", i, "]")));
  }
  std::vector<int> aliasOf(e.results_size(), -1);
  for (int i = 0; i < e.aliases_size(); ++i) {
    const exe::InputOutputAlias &a = e.aliases(i);
    if (a.result() >= static_cast<uint32_t>(e.results_size()) ||
        a.parameter() >= static_cast<uint32_t>(e.parameters_size()))
      return invalid("aliases[", i, "]: result ", a.result(), " / parameter ",
                     a.parameter(), " out of range");
    if (aliasOf[a.result()] >= 0)
      return invalid("aliases[", i, "]: result ", a.result(),
                     " is aliased twice");
    if (e.results(a.result()).buffer() != e.parameters(a.parameter()).buffer())
      return invalid("aliases[", i, "]: result ", a.result(), " and parameter ",
                     a.parameter(), " must name the same buffer");
    aliasOf[a.result()] = a.parameter();
  }
  for (int i = 0; i < e.results_size(); ++i) {
    const exe::Result &r = e.results(i);
    absl::StatusOr<int64_t> bytes =
        validateArray(e, "results", i, r.shape(), r.buffer());
    if (!bytes.ok())
      return bytes.status();
    resultBytes.push_back(*bytes);
    TPUC_RETURN_IF_ERROR(validateHostDType("results", i, r));
    if (aliasOf[i] < 0)
      TPUC_RETURN_IF_ERROR(claim(r.buffer(), absl::StrCat("results[", i, "]")));
  }
  return absl::OkStatus();
}

// Field-by-field check of one instruction against its OpcodeInfo.
absl::Status validateInstruction(const exe::Executable &e, int pc) {
  const exe::Instruction &in = e.instructions(pc);
  const OpcodeInfo *info = getOpcodeInfo(in.opcode());
  std::string where = absl::StrCat("instruction ", pc);
  if (!info)
    return invalid(where, ": unknown opcode ", static_cast<int>(in.opcode()));
  where = absl::StrCat(where, " (", info->name, ")");
  auto unused = [&](absl::string_view field) {
    return invalid(where, ": field ", field, " is not used by this opcode");
  };
  switch (info->dst) {
  case RegFile::None:
    if (in.dst() != 0)
      return unused("dst");
    break;
  case RegFile::Scalar:
    if (in.dst() == 0 || in.dst() >= kNumScalarRegs)
      return invalid(where, ": dst s", in.dst(), " not in s1..s31");
    break;
  case RegFile::Vector:
    if (in.dst() >= kNumVectorRegs)
      return invalid(where, ": dst v", in.dst(), " not in v0..v31");
    break;
  }
  if (in.vsrc_size() != info->numVsrc)
    return invalid(where, ": has ", in.vsrc_size(), " vsrc, expected ",
                   info->numVsrc);
  for (uint32_t v : in.vsrc())
    if (v >= kNumVectorRegs)
      return invalid(where, ": vsrc v", v, " not in v0..v31");
  if (in.opcode() == exe::VTRANSPOSE &&
      (in.dst() + kTransposeRegs > kNumVectorRegs ||
       in.vsrc(0) + kTransposeRegs > kNumVectorRegs))
    return invalid(where, ": the 16-register block must end by v31");
  if (in.opcode() == exe::VTRANSPOSE_ROWS) {
    // The register count is an immediate: the blocks are known at load.
    int64_t rows = in.args_size() == 1 && in.args(0).reg() == 0
                       ? in.args(0).imm()
                       : -1;
    if (rows < 1 || rows > kTransposeRegs)
      return invalid(where, ": args[0] must be an immediate in 1..",
                     kTransposeRegs, " (the registers written)");
    if (in.vsrc(0) + kTransposeRegs > kNumVectorRegs ||
        in.dst() + rows > kNumVectorRegs)
      return invalid(where, ": the source's 16-register block and the ",
                     rows, " registers written must end by v31");
  }
  if (in.args_size() != info->numArgs)
    return invalid(where, ": has ", in.args_size(), " args, expected ",
                   info->numArgs);
  for (int i = 0; i < in.args_size(); ++i)
    if (in.args(i).reg() >= kNumScalarRegs)
      return invalid(where, ": args[", i, "].reg s", in.args(i).reg(),
                     " not in s0..s31");
  auto checkDtype = [&](absl::string_view field, exe::DType dt,
                        unsigned allowed) -> absl::Status {
    if (allowed == 0)
      return dt == exe::DTYPE_INVALID ? absl::OkStatus() : unused(field);
    if (dt < 0 || dt > 31 || !(allowed & dtypeBit(dt)))
      return invalid(where, ": ", field, " ", dtypeName(dt),
                     " not allowed");
    return absl::OkStatus();
  };
  TPUC_RETURN_IF_ERROR(checkDtype("dtype", in.dtype(), info->dtypes));
  TPUC_RETURN_IF_ERROR(checkDtype("src_dtype", in.src_dtype(), info->srcDtypes));
  if (in.opcode() == exe::VCVT) {
    exe::DType from = in.src_dtype(), to = in.dtype();
    bool ok = (from == exe::F32 && to != exe::F32) ||
              (to == exe::F32 && from != exe::F32);
    if (!ok)
      return invalid(where, ": conversion ", dtypeName(from), " -> ",
                     dtypeName(to), " not supported");
  }
  if (info->usesCmp ? (in.cmp() < exe::EQ || in.cmp() > exe::GE)
                    : in.cmp() != exe::CMP_INVALID)
    return info->usesCmp ? invalid(where, ": invalid cmp ",
                                   static_cast<int>(in.cmp()))
                         : unused("cmp");
  if (info->usesReduce ? (in.reduce() < exe::REDUCE_SUM ||
                          in.reduce() > exe::REDUCE_MIN)
                       : in.reduce() != exe::REDUCE_INVALID)
    return info->usesReduce ? invalid(where, ": invalid reduce ",
                                      static_cast<int>(in.reduce()))
                            : unused("reduce");
  if (info->usesTarget) {
    if (in.target() < 0 || in.target() >= e.instructions_size())
      return invalid(where, ": branch target ", in.target(),
                     " not in [0, ", e.instructions_size(), ")");
  } else if (in.target() != 0) {
    return unused("target");
  }
  if (info->usesMxu) {
    if (in.mxu() >= e.target().mxu_count())
      return invalid(where, ": mxu ", in.mxu(), " not in [0, ",
                     e.target().mxu_count(), ")");
  } else if (in.mxu() != 0) {
    return unused("mxu");
  }
  if (!info->usesAccumulate && in.accumulate())
    return unused("accumulate");
  if (info->usesSpaces) {
    for (exe::MemorySpace s : {in.src_space(), in.dst_space()})
      if (s < exe::HBM || s > exe::SMEM)
        return invalid(where, ": invalid memory space ", static_cast<int>(s));
  } else if (in.src_space() != 0 || in.dst_space() != 0) {
    return unused("src_space/dst_space");
  }
  if (info->unit == Unit::Ici)
    TPUC_RETURN_IF_ERROR(validateCollectiveInstruction(e, pc));
  if (in.debug_op() > static_cast<uint32_t>(e.debug_ops_size()))
    return invalid(where, ": debug_op ", in.debug_op(), " out of range (",
                   e.debug_ops_size(), " debug ops)");
  // Semaphore indices given as plain immediates are checked here; computed
  // ones trap at run time.
  int semArg = in.opcode() == exe::DMA ? 6
               : (in.opcode() == exe::SEM_WAIT || in.opcode() == exe::SEM_SIGNAL)
                   ? 0
                   : -1;
  if (semArg >= 0 && in.args(semArg).reg() == 0 &&
      (in.args(semArg).imm() < 0 ||
       in.args(semArg).imm() >= e.target().num_semaphores()))
    return invalid(where, ": semaphore ", in.args(semArg).imm(), " not in [0, ",
                   e.target().num_semaphores(), ")");
  return absl::OkStatus();
}

// Matches LOOP_BEGIN/LOOP_END and checks that branches stay inside the loop
// body they are in (no jumping into or out of a loop).
absl::Status validateControlFlow(const exe::Executable &e,
                                 std::vector<int64_t> &partner) {
  int n = e.instructions_size();
  partner.assign(n, -1);
  std::vector<int64_t> region(n, -1), stack;
  for (int pc = 0; pc < n; ++pc) {
    exe::Opcode op = e.instructions(pc).opcode();
    region[pc] = stack.empty() ? -1 : stack.back();
    if (op == exe::LOOP_BEGIN) {
      if (stack.size() == kMaxLoopDepth)
        return invalid("instruction ", pc, " (LOOP_BEGIN): loop nesting deeper"
                       " than ", kMaxLoopDepth);
      stack.push_back(pc);
    } else if (op == exe::LOOP_END) {
      if (stack.empty())
        return invalid("instruction ", pc,
                       " (LOOP_END): no matching LOOP_BEGIN");
      partner[pc] = stack.back();
      partner[stack.back()] = pc;
      stack.pop_back();
    }
  }
  if (!stack.empty())
    return invalid("instruction ", stack.back(),
                   " (LOOP_BEGIN): no matching LOOP_END");
  for (int pc = 0; pc < n; ++pc) {
    const exe::Instruction &in = e.instructions(pc);
    if ((in.opcode() == exe::BR || in.opcode() == exe::BRNZ) &&
        region[in.target()] != region[pc])
      return invalid("instruction ", pc, " (", getOpcodeInfo(in.opcode())->name,
                     "): branch target ", in.target(),
                     " is in a different loop body");
  }
  return absl::OkStatus();
}

} // namespace

std::string Executable::describeInstruction(int64_t pc) const {
  const exe::Instruction &in = instruction(pc);
  const OpcodeInfo *info = getOpcodeInfo(in.opcode());
  std::string s = absl::StrCat("instruction ", pc, " (", info->name);
  if (in.debug_op() > 0) {
    const exe::DebugOp &d = proto_.debug_ops(in.debug_op() - 1);
    absl::StrAppend(&s, ", hlo op ", d.hlo_op());
    if (!d.op_name().empty())
      absl::StrAppend(&s, ", ", d.op_name());
    if (!d.source_file().empty())
      absl::StrAppend(&s, " at ", d.source_file(), ":", d.source_line());
  }
  return s + ")";
}

absl::string_view Executable::hloOp(int64_t pc) const {
  uint32_t d = instruction(pc).debug_op();
  return d == 0 ? absl::string_view() : proto_.debug_ops(d - 1).hlo_op();
}

absl::StatusOr<Executable> validateExecutable(exe::Executable proto) {
  if (proto.format_version() != exe::FORMAT_VERSION_CURRENT)
    return invalid("field format_version: ", proto.format_version(),
                   " is not supported (this runtime reads version ",
                   exe::FORMAT_VERSION_CURRENT, ")");
  if (!proto.has_target())
    return invalid("field target: missing");
  TPUC_RETURN_IF_ERROR(validateTarget(proto.target()));
  Executable result;
  TPUC_RETURN_IF_ERROR(validateBuffers(proto, &result.hbmFootprint_));
  TPUC_RETURN_IF_ERROR(
      validateArrays(proto, result.parameterBytes_, result.resultBytes_));
  TPUC_RETURN_IF_ERROR(validateCollectives(proto));
  if (proto.instructions_size() == 0)
    return invalid("field instructions: empty program");
  for (int pc = 0; pc < proto.instructions_size(); ++pc)
    TPUC_RETURN_IF_ERROR(validateInstruction(proto, pc));
  TPUC_RETURN_IF_ERROR(validateControlFlow(proto, result.loopPartner_));
  result.proto_ = std::move(proto);
  return result;
}

absl::StatusOr<Executable> loadExecutable(absl::string_view bytes) {
  exe::Executable proto;
  // Protobuf would also log (e.g. invalid UTF-8 in a string) to stderr; the
  // Status is the report.
  google::protobuf::LogSilencer quiet;
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return invalid("not a tpuc executable: protobuf parse failed (",
                   bytes.size(), " bytes)");
  return validateExecutable(std::move(proto));
}

namespace {
// Keeps the first text-format error with its position.
class FirstError : public google::protobuf::io::ErrorCollector {
public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string &message) override {
    if (error.empty())
      error = absl::StrCat(line + 1, ":", column + 1, ": ", message);
  }
  std::string error;
};
} // namespace

absl::StatusOr<Executable> loadExecutableFromText(absl::string_view text) {
  exe::Executable proto;
  google::protobuf::TextFormat::Parser parser;
  FirstError errors;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(std::string(text), &proto))
    return invalid("not a tpuc executable in text format: ", errors.error);
  return validateExecutable(std::move(proto));
}

absl::StatusOr<Executable> loadExecutableFromFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return absl::NotFoundError(absl::StrCat("cannot open ", path));
  std::stringstream ss;
  ss << in.rdbuf();
  bool text = absl::EndsWith(path, ".txtpb") || absl::EndsWith(path, ".textproto");
  absl::StatusOr<Executable> e =
      text ? loadExecutableFromText(ss.str()) : loadExecutable(ss.str());
  if (!e.ok())
    return absl::Status(e.status().code(),
                        absl::StrCat(path, ": ", e.status().message()));
  return e;
}

exe::Target tpuV3Target() {
  // The preset is the one description of the target (runtime/target).
  return target::lookupTarget("tpu-v3")->machine;
}

} // namespace tpuc::runtime
