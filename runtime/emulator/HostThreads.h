// A fixed set of host threads that run the parts of one job together with
// the calling thread: the emulator splits large MXU matmuls by rows over
// them (each output row is computed alone, so the split never changes a
// bit). Jobs run one at a time.
#ifndef TPUC_RUNTIME_EMULATOR_HOSTTHREADS_H
#define TPUC_RUNTIME_EMULATOR_HOSTTHREADS_H

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tpuc::runtime {

class HostThreads {
public:
  // `threads` in all, the caller included: threads - 1 helpers.
  explicit HostThreads(int threads);
  ~HostThreads();
  HostThreads(const HostThreads &) = delete;
  HostThreads &operator=(const HostThreads &) = delete;

  int threads() const { return static_cast<int>(helpers_.size()) + 1; }
  // Calls part(0), ..., part(parts - 1), each once, on the caller and the
  // helpers; returns when all have returned.
  void run(int parts, const std::function<void(int)> &part);

private:
  void helperLoop();
  // Takes and runs parts until none is left; with `lock` held on entry and
  // on return.
  void drain(std::unique_lock<std::mutex> &lock);

  std::vector<std::thread> helpers_;
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  const std::function<void(int)> *part_ = nullptr;
  int parts_ = 0, next_ = 0, running_ = 0;
  uint64_t job_ = 0;
  bool stop_ = false;
};

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_EMULATOR_HOSTTHREADS_H
