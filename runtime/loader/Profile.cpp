#include "runtime/loader/Profile.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/loader/Executable.h"

namespace tpuc::runtime {
namespace {

// JSON string literal; names come from executables, so escape everything
// that needs it.
std::string quote(absl::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      absl::StrAppend(&out, "\\", std::string(1, c));
    else if (static_cast<unsigned char>(c) < 0x20)
      absl::StrAppendFormat(&out, "\\u%04x", c);
    else
      out += c;
  }
  return out + "\"";
}

// "depends on parameter 0 'n', ..." for a decision.
std::string decisionText(const DataDependentDecision &d) {
  std::string deps;
  for (const std::string &x : d.dependsOn)
    absl::StrAppend(&deps, deps.empty() ? "" : ", ", x);
  std::string outcome =
      d.kind == "branch"
          ? absl::StrCat("taken ", d.taken, " of ", d.executions, " times")
          : absl::StrCat(d.taken, " trips in ", d.executions, " executions");
  return absl::StrCat("instruction ", d.pc, " ", d.kind, " (hlo op ",
                      d.hloOp.empty() ? "(none)" : d.hloOp,
                      d.opName.empty() ? "" : ", ", d.opName,
                      ") depends on ", deps, ": ", outcome);
}

} // namespace

std::string dataDependentWarning(const ExecutionProfile &p) {
  if (p.dataDependent.empty())
    return "";
  std::string out = absl::StrCat(
      p.dataDependent.size(),
      " control decision(s) depend on values this timing-only run assumed "
      "(parameters not given are zero); the modeled time holds for those "
      "values only:\n");
  for (const DataDependentDecision &d : p.dataDependent)
    absl::StrAppend(&out, "  ", decisionText(d), "\n");
  return out;
}

std::string profileToJson(const ExecutionProfile &p) {
  std::string out = absl::StrFormat(
      "{\n  \"cycles\": %d,\n  \"seconds\": %.9g,\n  \"flops\": %.17g,\n"
      "  \"hbm_bytes\": %d,\n  \"hbm_used_bytes\": %d,\n"
      "  \"hbm_planned_bytes\": %d,\n  \"mxu_utilization\": %.6f,\n"
      "  \"hbm_bandwidth_utilization\": %.6f,\n  \"instructions\": %d,\n"
      "  \"ops\": [",
      p.cycles, p.seconds, p.flops, p.hbmBytes, p.hbmUsedBytes,
      p.hbmPlannedBytes, p.mxuUtilization,
      p.hbmBandwidthUtilization, p.instructionsExecuted);
  for (size_t i = 0; i < p.ops.size(); ++i) {
    const OpProfile &op = p.ops[i];
    absl::StrAppendFormat(
        &out,
        "%s\n    {\"hlo_op\": %s, \"op_name\": %s, \"instructions\": %d, "
        "\"busy_cycles\": %d, \"flops\": %.17g, \"hbm_bytes\": %d}",
        i ? "," : "", quote(op.hloOp), quote(op.opName), op.instructions,
        op.busyCycles, op.flops, op.hbmBytes);
  }
  out += p.ops.empty() ? "]" : "\n  ]";
  if (!p.collectives.empty()) {
    absl::StrAppendFormat(&out,
                          ",\n  \"device\": %d,\n  \"ici_bytes\": %d,\n"
                          "  \"collectives\": [",
                          p.device, p.iciBytes);
    for (size_t i = 0; i < p.collectives.size(); ++i) {
      const CollectiveProfile &c = p.collectives[i];
      absl::StrAppendFormat(
          &out,
          "%s\n    {\"pc\": %d, \"opcode\": %s, \"hlo_op\": %s, "
          "\"group_size\": %d, \"bytes\": %d, \"ici_bytes\": %d, "
          "\"wait_cycles\": %d, \"cycles\": %d}",
          i ? "," : "", c.pc, quote(c.opcode), quote(c.hloOp), c.groupSize,
          c.bytes, c.iciBytes, c.waitCycles, c.cycles);
    }
    out += "\n  ]";
  }
  if (p.timingOnly) {
    absl::StrAppendFormat(&out,
                          ",\n  \"timing_only\": true,\n"
                          "  \"control_instructions\": %d,\n"
                          "  \"control_restarts\": %d,\n"
                          "  \"data_dependent\": [",
                          p.controlInstructions, p.controlRestarts);
    for (size_t i = 0; i < p.dataDependent.size(); ++i) {
      const DataDependentDecision &d = p.dataDependent[i];
      std::string deps;
      for (const std::string &x : d.dependsOn)
        absl::StrAppend(&deps, deps.empty() ? "" : ", ", quote(x));
      absl::StrAppendFormat(
          &out,
          "%s\n    {\"pc\": %d, \"kind\": %s, \"hlo_op\": %s, "
          "\"op_name\": %s, \"depends_on\": [%s], \"executions\": %d, "
          "\"taken\": %d}",
          i ? "," : "", d.pc, quote(d.kind), quote(d.hloOp), quote(d.opName),
          deps, d.executions, d.taken);
    }
    out += p.dataDependent.empty() ? "]" : "\n  ]";
  }
  return out + "\n}\n";
}

std::string profileToText(const ExecutionProfile &p) {
  std::string out = absl::StrFormat(
      "cycles: %d\nseconds: %.6g\nflops: %.6g\nhbm_bytes: %d\n"
      "hbm_used_bytes: %d (plan: %d)\n"
      "mxu_utilization: %.2f%%\nhbm_bandwidth_utilization: %.2f%%\n"
      "instructions: %d\n%-24s %12s %14s %14s %14s\n",
      p.cycles, p.seconds, p.flops, p.hbmBytes, p.hbmUsedBytes,
      p.hbmPlannedBytes, 100 * p.mxuUtilization,
      100 * p.hbmBandwidthUtilization, p.instructionsExecuted, "hlo_op",
      "instructions", "busy_cycles", "flops", "hbm_bytes");
  for (const OpProfile &op : p.ops)
    absl::StrAppendFormat(&out, "%-24s %12d %14d %14.6g %14d\n",
                          op.hloOp.empty() ? "(none)" : op.hloOp,
                          op.instructions, op.busyCycles, op.flops,
                          op.hbmBytes);
  if (p.timingOnly) {
    absl::StrAppendFormat(&out,
                          "timing-only: %d non-scalar instructions computed "
                          "for control flow (%d restarts)\n",
                          p.controlInstructions, p.controlRestarts);
    std::string warning = dataDependentWarning(p);
    absl::StrAppend(&out, warning.empty()
                              ? "data-dependent control decisions: none\n"
                              : absl::StrCat("data-dependent: ", warning));
  }
  return out;
}

namespace {
constexpr int kKernelTid = 100;

// One event per kernel run: the consecutive trace events (issue order) of
// one debug op, from the first start to the last end. Kept in order on one
// track: a run starts no earlier than the previous one ended (overlap goes
// to the previous run, so the events nest as Chrome traces require).
void appendKernelEvents(std::string &out, const ExecutionProfile &p,
                        const Executable &executable, double usPerCycle) {
  uint64_t shownEnd = 0;
  for (size_t i = 0; i < p.trace.size();) {
    uint32_t op = executable.instruction(p.trace[i].pc).debug_op();
    uint64_t start = p.trace[i].start, end = p.trace[i].end;
    size_t j = i;
    for (; j < p.trace.size() &&
           executable.instruction(p.trace[j].pc).debug_op() == op;
         ++j) {
      start = std::min(start, p.trace[j].start);
      end = std::max(end, p.trace[j].end);
    }
    start = std::max(start, shownEnd);
    end = std::max(end, start);
    shownEnd = end;
    absl::string_view hlo = executable.hloOp(p.trace[i].pc);
    absl::StrAppendFormat(
        &out,
        ",\n{\"ph\": \"X\", \"pid\": %d, \"tid\": %d, \"ts\": %.6f, "
        "\"dur\": %.6f, \"name\": %s, \"args\": {\"instructions\": %d, "
        "\"first_pc\": %d}}",
        p.device, kKernelTid, start * usPerCycle, (end - start) * usPerCycle,
        quote(hlo.empty() ? "(none)" : hlo), j - i, p.trace[i].pc);
    i = j;
  }
}
} // namespace

std::string traceToChromeJson(const ExecutionProfile &p,
                              const Executable &executable, TraceLevel level) {
  double usPerCycle = 1e6 / executable.target().clock_hz();
  std::string out = "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [";
  absl::StrAppendFormat(&out,
                        "\n{\"ph\": \"M\", \"pid\": %d, \"tid\": %d, "
                        "\"name\": \"thread_name\", \"args\": {\"name\": "
                        "\"kernels\"}}",
                        p.device, kKernelTid);
  appendKernelEvents(out, p, executable, usPerCycle);
  if (level == TraceLevel::Kernels)
    return out + "\n]}\n";
  // tid = unit number, offset by the index so that each MXU and each VPU
  // path (ALU 0 and 1, load, store: docs/isa.md, "Timing") gets its track.
  auto tid = [](Unit unit, int index) {
    return static_cast<int>(unit) + index * 10;
  };
  static const char *const kVpuPaths[] = {"", " alu1", " load", " store"};
  for (int u = 0; u < kNumUnits; ++u) {
    Unit unit = static_cast<Unit>(u);
    int count = unit == Unit::Mxu
                    ? static_cast<int>(executable.target().mxu_count())
                : unit == Unit::Vpu ? 4
                                    : 1;
    for (int i = 0; i < count; ++i) {
      std::string name = unitName(unit);
      if (unit == Unit::Vpu)
        absl::StrAppend(&name, kVpuPaths[i]);
      else if (count > 1)
        absl::StrAppend(&name, i);
      absl::StrAppendFormat(&out,
                            ",\n{\"ph\": \"M\", \"pid\": %d, \"tid\": %d, "
                            "\"name\": \"thread_name\", \"args\": {\"name\": "
                            "%s}}",
                            p.device, tid(unit, i), quote(name));
    }
  }
  for (const TraceEvent &ev : p.trace) {
    const exe::Instruction &in = executable.instruction(ev.pc);
    absl::string_view hlo = executable.hloOp(ev.pc);
    absl::StrAppendFormat(
        &out,
        ",\n{\"ph\": \"X\", \"pid\": %d, \"tid\": %d, \"ts\": %.6f, "
        "\"dur\": %.6f, \"name\": %s, \"args\": {\"pc\": %d, \"hlo_op\": %s}}",
        p.device, tid(ev.unit, ev.unitIndex), ev.start * usPerCycle,
        (ev.end - ev.start) * usPerCycle,
        quote(exe::Opcode_Name(in.opcode())), ev.pc, quote(hlo));
  }
  return out + "\n]}\n";
}

} // namespace tpuc::runtime
