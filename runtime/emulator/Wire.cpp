#include "runtime/emulator/Wire.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "absl/strings/str_cat.h"

namespace tpuc::runtime::wire {

namespace {

class Writer {
public:
  template <typename T> void num(T v) {
    static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>);
    char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof(T));
    out_.append(bytes, sizeof(T));
  }
  void str(absl::string_view s) {
    num<uint64_t>(s.size());
    out_.append(s.data(), s.size());
  }
  template <typename T, typename F> void list(const std::vector<T> &v, F each) {
    num<uint64_t>(v.size());
    for (const T &x : v)
      each(x);
  }
  std::string take() { return std::move(out_); }

private:
  std::string out_;
};

class Reader {
public:
  explicit Reader(absl::string_view in) : in_(in) {}
  template <typename T> void num(T &v) {
    if (in_.size() < sizeof(T)) {
      ok_ = false;
      v = T();
      return;
    }
    std::memcpy(&v, in_.data(), sizeof(T));
    in_.remove_prefix(sizeof(T));
  }
  void str(std::string &s) {
    uint64_t n = 0;
    num(n);
    if (!ok_ || in_.size() < n) {
      ok_ = false;
      return;
    }
    s.assign(in_.data(), n);
    in_.remove_prefix(n);
  }
  // A count, then each element (a count beyond the bytes left fails).
  template <typename T, typename F> void list(std::vector<T> &v, F each) {
    uint64_t n = 0;
    num(n);
    if (!ok_ || n > in_.size()) {
      ok_ = false;
      return;
    }
    v.resize(n);
    for (T &x : v)
      each(x);
  }
  absl::Status done(const char *what) const {
    if (ok_ && in_.empty())
      return absl::OkStatus();
    return absl::DataLossError(
        absl::StrCat("malformed ", what, " from another process"));
  }
  bool ok() const { return ok_; }

private:
  absl::string_view in_;
  bool ok_ = true;
};

// One function for both directions: W is Writer (P const) or Reader.
template <typename W, typename P> void profileFields(W &w, P &p) {
  w.num(p.cycles);
  w.num(p.seconds);
  w.num(p.flops);
  w.num(p.hbmBytes);
  w.num(p.hbmUsedBytes);
  w.num(p.hbmPlannedBytes);
  w.num(p.mxuUtilization);
  w.num(p.hbmBandwidthUtilization);
  w.num(p.instructionsExecuted);
  w.list(p.ops, [&](auto &o) {
    w.str(o.hloOp);
    w.str(o.opName);
    w.num(o.instructions);
    w.num(o.busyCycles);
    w.num(o.flops);
    w.num(o.hbmBytes);
  });
  w.num(p.timingOnly);
  w.num(p.controlInstructions);
  w.num(p.controlRestarts);
  w.list(p.dataDependent, [&](auto &d) {
    w.num(d.pc);
    w.str(d.kind);
    w.str(d.hloOp);
    w.str(d.opName);
    w.list(d.dependsOn, [&](auto &s) { w.str(s); });
    w.num(d.executions);
    w.num(d.taken);
  });
  w.list(p.trace, [&](auto &t) {
    w.num(t.unit);
    w.num(t.unitIndex);
    w.num(t.pc);
    w.num(t.start);
    w.num(t.end);
  });
  w.num(p.device);
  w.num(p.iciBytes);
  w.list(p.collectives, [&](auto &c) {
    w.num(c.pc);
    w.str(c.opcode);
    w.str(c.hloOp);
    w.num(c.groupSize);
    w.num(c.bytes);
    w.num(c.iciBytes);
    w.num(c.waitCycles);
    w.num(c.cycles);
  });
}

} // namespace

std::string packStrings(const std::vector<std::string> &parts) {
  Writer w;
  w.list(parts, [&](const std::string &p) { w.str(p); });
  return w.take();
}

absl::StatusOr<std::vector<std::string>>
unpackStrings(absl::string_view bytes) {
  Reader r(bytes);
  std::vector<std::string> parts;
  r.list(parts, [&](std::string &p) { r.str(p); });
  if (absl::Status s = r.done("byte strings"); !s.ok())
    return s;
  return parts;
}

std::string packProfile(const ExecutionProfile &p) {
  Writer w;
  profileFields(w, p);
  return w.take();
}

absl::StatusOr<ExecutionProfile> unpackProfile(absl::string_view bytes) {
  Reader r(bytes);
  ExecutionProfile p;
  profileFields(r, p);
  if (absl::Status s = r.done("profile"); !s.ok())
    return s;
  return p;
}

} // namespace tpuc::runtime::wire
