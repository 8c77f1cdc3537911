#include "runtime/loader/Run.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/loader/Layout.h"

namespace tpuc::runtime {

absl::StatusOr<RunResult> runExecutable(Device &device,
                                        const Executable &executable,
                                        const std::vector<hostio::HostArray> &inputs,
                                        const ExecuteOptions &options) {
  const exe::Executable &e = executable.proto();
  if (inputs.size() != static_cast<size_t>(e.parameters_size()))
    return absl::InvalidArgumentError(
        absl::StrCat("executable takes ", e.parameters_size(),
                     " parameters, got ", inputs.size(), " inputs"));
  for (const exe::Buffer &b : e.buffers())
    if (absl::Status s = device.allocate(b.offset(), b.size()); !s.ok())
      return s;
  std::vector<uint8_t> staging;
  auto upload = [&](const exe::Shape &shape, exe::DType hostType,
                    absl::Span<const uint8_t> bytes,
                    uint32_t buffer) -> absl::Status {
    absl::StatusOr<int64_t> size = paddedByteSize(shape);
    if (!size.ok())
      return size.status();
    staging.assign(*size, 0);
    if (absl::Status s = hostToDevice(shape, hostType, bytes,
                                      absl::MakeSpan(staging));
        !s.ok())
      return s;
    return device.copyToDevice(e.buffers(buffer).offset(), staging);
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
    std::vector<int64_t> dims(p.shape().dims().begin(), p.shape().dims().end());
    absl::StatusOr<exe::DType> hostType = toDeviceDType(in.dtype());
    if (dims != in.shape() || !hostType.ok())
      return absl::InvalidArgumentError(absl::StrCat(
          "input ", i, " is ", in.typeString(), ", parameter '", p.name(),
          "' is ", dtypeName(p.shape().dtype()), "[",
          absl::StrJoin(dims, ","), "]"));
    if (absl::Status s = upload(p.shape(), *hostType, in.bytes(), p.buffer());
        !s.ok())
      return absl::Status(s.code(),
                          absl::StrCat("input ", i, ": ", s.message()));
  }
  RunResult run;
  absl::StatusOr<ExecutionProfile> profile =
      device.execute(executable, options);
  if (!profile.ok())
    return profile.status();
  run.profile = std::move(*profile);
  for (int i = 0; i < e.results_size(); ++i) {
    const exe::Result &r = e.results(i);
    staging.assign(executable.resultBytes(i), 0);
    if (absl::Status s = device.copyFromDevice(e.buffers(r.buffer()).offset(),
                                               absl::MakeSpan(staging));
        !s.ok())
      return s;
    std::vector<int64_t> dims(r.shape().dims().begin(), r.shape().dims().end());
    absl::StatusOr<hostio::HostArray> out =
        hostio::HostArray::zeros(toHostDType(r.shape().dtype()), dims);
    if (!out.ok())
      return out.status();
    if (absl::Status s = deviceToHost(
            r.shape(), r.shape().dtype(), staging,
            absl::MakeSpan(out->data(), out->byteSize()));
        !s.ok())
      return s;
    run.results.push_back(std::move(*out));
  }
  return run;
}

} // namespace tpuc::runtime
