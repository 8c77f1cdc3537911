#include "runtime/emulator/HostThreads.h"

#include <system_error>

namespace tpuc::runtime {

HostThreads::HostThreads(int threads) {
  // Fewer helpers when the host cannot start more (results do not depend
  // on their number).
  try {
    for (int i = 1; i < threads; ++i)
      helpers_.emplace_back([this] { helperLoop(); });
  } catch (const std::system_error &) {
  }
}

HostThreads::~HostThreads() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread &t : helpers_)
    t.join();
}

void HostThreads::drain(std::unique_lock<std::mutex> &lock) {
  while (next_ < parts_) {
    int part = next_++;
    ++running_;
    lock.unlock();
    (*part_)(part);
    lock.lock();
    --running_;
  }
  if (running_ == 0)
    finished_.notify_all();
}

void HostThreads::helperLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  uint64_t seen = job_;
  while (true) {
    wake_.wait(lock, [&] { return stop_ || job_ != seen; });
    if (stop_)
      return;
    seen = job_;
    drain(lock);
  }
}

void HostThreads::run(int parts, const std::function<void(int)> &part) {
  if (helpers_.empty() || parts <= 1) {
    for (int i = 0; i < parts; ++i)
      part(i);
    return;
  }
  std::unique_lock<std::mutex> lock(mutex_);
  part_ = &part;
  parts_ = parts;
  next_ = 0;
  ++job_;
  wake_.notify_all();
  drain(lock);
  finished_.wait(lock, [&] { return next_ == parts_ && running_ == 0; });
  part_ = nullptr;
  parts_ = next_ = 0;
}

} // namespace tpuc::runtime
