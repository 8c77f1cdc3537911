#include "runtime/emulator/Slice.h"

#include <system_error>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/loader/Collectives.h"

namespace tpuc::runtime {

IciLinks iciLinksOf(const Executable &e) {
  IciLinks links;
  const exe::Slice &s = e.proto().slice();
  // Without a slice: tpu-v3-8's links (docs/targets.md).
  links.bytesPerSecondPerLink =
      s.ici_bytes_per_second_per_link() > 0 ? s.ici_bytes_per_second_per_link()
                                            : 82e9;
  links.hopLatencySeconds =
      s.ici_hop_latency_seconds() > 0 ? s.ici_hop_latency_seconds() : 1e-6;
  // The chips' torus, when the slice gives one that holds its devices.
  int64_t chips = 1;
  for (int64_t n : s.topology())
    chips *= n > 0 ? n : 0;
  if (s.topology_size() > 0 && chips > 0 && s.devices() > 0 &&
      s.devices() % chips == 0) {
    links.torus.dims.assign(s.topology().begin(), s.topology().end());
    links.torus.wraparound = s.wraparound();
    links.torus.devicesPerChip = s.devices() / chips;
  }
  return links;
}

absl::StatusOr<SliceRunResult>
runSlice(const Executable &e,
         const std::vector<std::vector<hostio::HostArray>> &inputs,
         int64_t steps, const ExecuteOptions &options, KernelPath kernels,
         const SliceStepCallback &afterStep, SlicePart part) {
  int64_t devices = static_cast<int64_t>(inputs.size());
  int64_t first = part.firstDevice;
  IciFabric fabric(numDevices(e.proto()), iciLinksOf(e), first, devices,
                   part.transport);
  SliceRunResult out;
  out.results.resize(devices);
  out.profiles.resize(devices);
  std::vector<absl::Status> status(devices);
  auto body = [&](int64_t d) {
    EmulatorDevice device(e.target(), kernels);
    device.attachIci(&fabric, first + d);
    StepCallback callback;
    if (first + d == 0 && afterStep)
      callback = [&](int64_t step, const ExecutionProfile &p) {
        return afterStep(step, p, device);
      };
    absl::StatusOr<RunResult> r =
        runSteps(device, e, inputs[d], steps, options, callback);
    fabric.finish(first + d);
    if (!r.ok()) {
      status[d] = r.status();
      return;
    }
    out.results[d] = std::move(r->results);
    out.profiles[d] = std::move(r->profile);
    out.profiles[d].device = first + d;
  };
  std::vector<std::thread> threads;
  for (int64_t d = 1; d < devices; ++d) {
    try {
      threads.emplace_back(body, d);
    } catch (const std::system_error &error) {
      // The devices run at once (they meet at the collectives): without a
      // thread for this one and the rest, those started stop at their next
      // collective, and this error names the run's failure.
      for (int64_t rest = d; rest < devices; ++rest) {
        status[rest] = absl::ResourceExhaustedError(absl::StrCat(
            "cannot start a host thread to emulate it: ", error.what()));
        fabric.finish(first + rest);
      }
      break;
    }
  }
  body(0);
  for (std::thread &t : threads)
    t.join();
  // The first device that failed for its own reason (not because another
  // stopped) names the error.
  for (int pass = 0; pass < 2; ++pass)
    for (int64_t d = 0; d < devices; ++d)
      if (!status[d].ok() &&
          (pass == 1 || status[d].message().find("stopped") ==
                            absl::string_view::npos))
        return absl::Status(status[d].code(),
                            absl::StrCat("device ", first + d, ": ",
                                         status[d].message()));
  return out;
}

std::string sliceTraceToChromeJson(const std::vector<ExecutionProfile> &p,
                                   const Executable &e, TraceLevel level) {
  std::string out = "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [";
  for (size_t d = 0; d < p.size(); ++d) {
    absl::StrAppendFormat(&out,
                          "%s\n{\"ph\": \"M\", \"pid\": %d, \"name\": "
                          "\"process_name\", \"args\": {\"name\": "
                          "\"device %d\"}}",
                          d ? "," : "", d, d);
    std::string one = traceToChromeJson(p[d], e, level);
    size_t begin = one.find('[') + 1, end = one.rfind(']');
    absl::StrAppend(&out, ",", one.substr(begin, end - begin));
    // The device's events end with "\n"; keep the list well-formed.
    while (!out.empty() && (out.back() == '\n' || out.back() == ' '))
      out.pop_back();
  }
  return out + "\n]}\n";
}

std::string sliceProfileToJson(const std::vector<ExecutionProfile> &p) {
  uint64_t cycles = 0, ici = 0;
  double seconds = 0;
  for (const ExecutionProfile &d : p) {
    cycles = std::max(cycles, d.cycles);
    seconds = std::max(seconds, d.seconds);
    ici += d.iciBytes;
  }
  std::string out = absl::StrFormat(
      "{\n\"devices\": %d,\n\"cycles\": %d,\n\"seconds\": %.9g,\n"
      "\"ici_bytes\": %d,\n\"per_device\": [",
      p.size(), cycles, seconds, ici);
  for (size_t d = 0; d < p.size(); ++d) {
    std::string one = profileToJson(p[d]);
    while (!one.empty() && one.back() == '\n')
      one.pop_back();
    absl::StrAppend(&out, d ? ",\n" : "\n", one);
  }
  return out + "\n]\n}\n";
}

std::string sliceProfileToText(const std::vector<ExecutionProfile> &p) {
  std::string out;
  for (size_t d = 0; d < p.size(); ++d) {
    absl::StrAppend(&out, "device ", d, ":\n", profileToText(p[d]));
    absl::StrAppendFormat(&out, "ici_bytes: %d\n", p[d].iciBytes);
    for (const CollectiveProfile &c : p[d].collectives)
      absl::StrAppendFormat(&out,
                            "  %s %s: group %d, %d bytes, sent %d, waited %d "
                            "cycles, %d cycles\n",
                            c.opcode, c.hloOp.empty() ? "(none)" : c.hloOp,
                            c.groupSize, c.bytes, c.iciBytes, c.waitCycles,
                            c.cycles);
  }
  return out;
}

} // namespace tpuc::runtime
