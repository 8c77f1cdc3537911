#include "runtime/loader/Run.h"

#include <algorithm>
#include <cstdio>
#include <cctype>
#include <cstring>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "runtime/hostio/FloatConversion.h"
#include "runtime/loader/Layout.h"

namespace tpuc::runtime {

absl::Status loadInputs(Device &device, const Executable &executable,
                        const std::vector<hostio::HostArray> &inputs) {
  const exe::Executable &e = executable.proto();
  if (inputs.size() != static_cast<size_t>(e.parameters_size()))
    return absl::InvalidArgumentError(
        absl::StrCat("executable takes ", e.parameters_size(),
                     " parameters, got ", inputs.size(), " inputs"));
  // Heap buffers share addresses (in disjoint steps): the device backs the
  // union of the buffers, one region per run of overlapping ones.
  std::vector<std::pair<uint64_t, uint64_t>> regions; // [begin, end)
  for (const exe::Buffer &b : e.buffers())
    regions.push_back({b.offset(), b.offset() + b.size()});
  std::sort(regions.begin(), regions.end());
  for (size_t i = 0; i < regions.size();) {
    uint64_t begin = regions[i].first, end = regions[i].second;
    for (++i; i < regions.size() && regions[i].first < end; ++i)
      end = std::max(end, regions[i].second);
    if (absl::Status s = device.allocate(begin, end - begin); !s.ok())
      return s;
  }
  std::vector<uint8_t> staging;
  auto upload = [&](const exe::Shape &shape, exe::DType hostType,
                    absl::Span<const uint8_t> bytes,
                    uint32_t buffer) -> absl::Status {
    absl::StatusOr<int64_t> size = paddedByteSize(shape);
    if (!size.ok())
      return size.status();
    uint64_t offset = e.buffers(buffer).offset();
    // Straight into device memory where the device allows it.
    if (absl::Span<uint8_t> view = device.hostView(offset, *size);
        view.size() == static_cast<size_t>(*size))
      return hostToDevice(shape, hostType, bytes, view);
    staging.resize(*size); // hostToDevice writes every byte
    if (absl::Status s = hostToDevice(shape, hostType, bytes,
                                      absl::MakeSpan(staging));
        !s.ok())
      return s;
    return device.copyToDevice(offset, staging);
  };
  for (const exe::Constant &c : e.constants()) {
    const auto *data = reinterpret_cast<const uint8_t *>(c.data().data());
    if (absl::Status s = upload(c.shape(), c.shape().dtype(),
                                absl::MakeConstSpan(data, c.data().size()),
                                c.buffer());
        !s.ok())
      return s;
  }
  for (int i = 0; i < e.parameters_size(); ++i) {
    const exe::Parameter &p = e.parameters(i);
    const hostio::HostArray &in = inputs[i];
    std::vector<int64_t> dims = hostDims(p);
    absl::StatusOr<exe::DType> hostType = toDeviceDType(in.dtype());
    if (dims != in.shape() || !hostType.ok() ||
        (p.host_dtype() != exe::DTYPE_INVALID && *hostType != p.host_dtype()))
      return absl::InvalidArgumentError(absl::StrCat(
          "input ", i, " is ", in.typeString(), ", parameter '", p.name(),
          "' is ", dtypeName(hostDType(p)), "[",
          absl::StrJoin(dims, ","), "]"));
    if (absl::Status s = upload(p.shape(), *hostType, in.bytes(), p.buffer());
        !s.ok())
      return absl::Status(s.code(),
                          absl::StrCat("input ", i, ": ", s.message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<hostio::HostArray>
readResult(Device &device, const Executable &executable, int index) {
  const exe::Executable &e = executable.proto();
  if (index < 0 || index >= e.results_size())
    return absl::OutOfRangeError(absl::StrCat(
        "result ", index, " out of range (", e.results_size(), " results)"));
  const exe::Result &r = e.results(index);
  // Straight from device memory where the device allows it.
  uint64_t offset = e.buffers(r.buffer()).offset();
  int64_t size = executable.resultBytes(index);
  absl::Span<const uint8_t> deviceBytes = device.hostView(offset, size);
  std::vector<uint8_t> staging;
  if (deviceBytes.size() != static_cast<size_t>(size)) {
    staging.resize(size);
    if (absl::Status s = device.copyFromDevice(offset, absl::MakeSpan(staging));
        !s.ok())
      return s;
    deviceBytes = staging;
  }
  absl::StatusOr<hostio::HostArray> out =
      hostio::HostArray::forOverwrite(toHostDType(hostDType(r)), hostDims(r));
  if (!out.ok())
    return out.status();
  if (absl::Status s =
          deviceToHost(r.shape(), hostDType(r), deviceBytes,
                       absl::MakeSpan(out->data(), out->byteSize()));
      !s.ok())
    return s;
  return out;
}

namespace {
absl::StatusOr<std::vector<hostio::HostArray>>
readResults(Device &device, const Executable &executable) {
  std::vector<hostio::HostArray> results;
  for (int i = 0; i < executable.proto().results_size(); ++i) {
    absl::StatusOr<hostio::HostArray> out = readResult(device, executable, i);
    if (!out.ok())
      return out.status();
    results.push_back(std::move(*out));
  }
  return results;
}
} // namespace

absl::StatusOr<RunResult>
runExecutable(Device &device, const Executable &executable,
              const std::vector<hostio::HostArray> &inputs,
              const ExecuteOptions &options) {
  return runSteps(device, executable, inputs, 1, options);
}

absl::StatusOr<RunResult> runSteps(Device &device, const Executable &executable,
                                   const std::vector<hostio::HostArray> &inputs,
                                   int64_t steps, const ExecuteOptions &options,
                                   const StepCallback &afterStep) {
  if (steps < 1)
    return absl::InvalidArgumentError(
        absl::StrCat("the step count must be at least 1, got ", steps));
  if (absl::Status s = loadInputs(device, executable, inputs); !s.ok())
    return s;
  RunResult run;
  for (int64_t step = 1; step <= steps; ++step) {
    absl::StatusOr<ExecutionProfile> profile =
        device.execute(executable, options);
    if (!profile.ok())
      return steps == 1
                 ? profile.status()
                 : absl::Status(profile.status().code(),
                                absl::StrCat("step ", step, ": ",
                                             profile.status().message()));
    run.profile = std::move(*profile);
    if (afterStep)
      if (absl::Status s = afterStep(step, run.profile); !s.ok())
        return s;
  }
  absl::StatusOr<std::vector<hostio::HostArray>> results =
      readResults(device, executable);
  if (!results.ok())
    return results.status();
  run.results = std::move(*results);
  return run;
}

int64_t stepPrintInterval(int64_t steps, int64_t printEvery) {
  if (printEvery > 0)
    return printEvery;
  return steps <= 10 ? 1 : (steps + 9) / 10;
}

bool isPrintedStep(int64_t step, int64_t steps, int64_t interval) {
  return step == 1 || step == steps || (interval > 0 && step % interval == 0);
}

namespace {
// Element 0 of `a` as text: floats with the digits their type carries.
std::string firstElementText(const hostio::HostArray &a) {
  hostio::DType dtype = a.dtype();
  int64_t bytes = hostio::dtypeByteSize(dtype);
  uint64_t bits = 0; // little-endian, like the host arrays
  std::memcpy(&bits, a.data(), static_cast<size_t>(bytes));
  char text[64];
  switch (dtype) {
  case hostio::DType::F32:
    std::snprintf(text, sizeof(text), "%.7g",
                  hostio::floatFromBits(static_cast<uint32_t>(bits)));
    return text;
  case hostio::DType::F64: {
    double value;
    std::memcpy(&value, &bits, sizeof(value));
    std::snprintf(text, sizeof(text), "%.10g", value);
    return text;
  }
  case hostio::DType::BF16:
    std::snprintf(text, sizeof(text), "%.4g",
                  hostio::bf16BitsToF32(static_cast<uint16_t>(bits)));
    return text;
  case hostio::DType::F16:
    std::snprintf(text, sizeof(text), "%.5g",
                  hostio::f16BitsToF32(static_cast<uint16_t>(bits)));
    return text;
  case hostio::DType::Pred:
    return bits ? "true" : "false";
  default:
    if (const hostio::F8Format *f8 = hostio::f8Format(dtype)) {
      std::snprintf(text, sizeof(text), "%.3g",
                    hostio::f8BitsToF32(static_cast<uint8_t>(bits), *f8));
      return text;
    }
    break;
  }
  if (!hostio::isSignedIntDType(dtype))
    return absl::StrCat(bits);
  int shift = 64 - 8 * static_cast<int>(bytes); // sign-extend
  return absl::StrCat(static_cast<int64_t>(bits << shift) >> shift);
}
} // namespace

std::string formatStepLine(
    int64_t step, int64_t steps,
    const std::vector<std::pair<int, const hostio::HostArray *>> &results) {
  return formatStepLine(step, steps, results, {});
}

std::string formatStepLine(
    int64_t step, int64_t steps,
    const std::vector<std::pair<int, const hostio::HostArray *>> &results,
    const std::vector<std::string> &names) {
  std::string line = absl::StrCat("step ", step, "/", steps, ":");
  for (const auto &[index, array] : results) {
    if (array->elementCount() == 0)
      continue;
    std::string name = index >= 0 && index < static_cast<int>(names.size())
                           ? names[index]
                           : absl::StrCat("result", index);
    absl::StrAppend(&line, " ", name, "=", firstElementText(*array));
  }
  return line;
}

std::vector<std::string> resultNames(const std::vector<std::string> &hloOps) {
  std::vector<std::string> names;
  std::map<std::string, int> uses;
  for (std::string name : hloOps) {
    for (char &c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' &&
          c != '-' && c != '_')
        c = '_';
    names.push_back(name);
    ++uses[name];
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string &n = names[i];
    // A hlo_op name never looks like "result7", but keep the fallbacks
    // unique even if one does.
    if (n.empty() || n == "." || n == ".." || uses[n] > 1 ||
        absl::StartsWith(n, "result"))
      names[i] = absl::StrCat("result", i);
  }
  return names;
}

std::vector<std::string> resultNames(const Executable &executable) {
  std::vector<std::string> hloOps;
  // Without an HLO instruction (a program written in the tpu dialect), the
  // executable's own result name.
  for (const exe::Result &r : executable.proto().results())
    hloOps.push_back(r.hlo_op().empty() ? r.name() : r.hlo_op());
  return resultNames(hloOps);
}

} // namespace tpuc::runtime
