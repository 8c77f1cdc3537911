#include "runtime/emulator/MpiFabric.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstring>
#include <thread>

#include <mpi.h>

#include "absl/strings/str_cat.h"

namespace tpuc::runtime::mpi {

namespace {

absl::Status check(int code, const char *what) {
  if (code == MPI_SUCCESS)
    return absl::OkStatus();
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return absl::InternalError(
      absl::StrCat(what, " failed: ", std::string(text, length)));
}

// Starts a nonblocking MPI call (`start(&request)`) and waits for it
// without spinning: MPI's blocking calls busy-poll, which takes a core from
// the devices' threads (the emulation's work) when processes share a host.
template <typename Start>
absl::Status completed(const char *what, Start start) {
  MPI_Request request;
  if (absl::Status s = check(start(&request), what); !s.ok())
    return s;
  auto pause = std::chrono::microseconds(1);
  for (;;) {
    int done = 0;
    if (absl::Status s =
            check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), what);
        !s.ok())
      return s;
    if (done)
      return absl::OkStatus();
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(200));
  }
}

int worldSize() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

int worldRank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

absl::StatusOr<int> intCount(uint64_t bytes) {
  if (bytes > static_cast<uint64_t>(INT_MAX))
    return absl::ResourceExhaustedError(absl::StrCat(
        bytes, " bytes in one MPI message (at most ", INT_MAX, ")"));
  return static_cast<int>(bytes);
}

// Displacements of `counts` laid end to end; false if they exceed INT_MAX.
bool displacements(const std::vector<int> &counts, std::vector<int> &at) {
  at.assign(counts.size(), 0);
  int64_t total = 0;
  for (size_t r = 0; r < counts.size(); ++r) {
    if (total > INT_MAX)
      return false;
    at[r] = static_cast<int>(total);
    total += counts[r];
  }
  return total <= INT_MAX;
}

// Per round: a fixed header per device (pc, cycle, operand bytes) to every
// rank, then, when every device is at the same collective and there is data
// (not a timing-only run), the operands.
class MpiTransport : public IciTransport {
public:
  explicit MpiTransport(int64_t local) : local_(local) {}

  absl::StatusOr<std::vector<IciArrival>>
  allGather(std::vector<IciArrival> mine) override {
    int ranks = worldSize();
    std::vector<int64_t> header(3 * local_), headers(3 * local_ * ranks);
    uint64_t myBytes = 0;
    for (int64_t d = 0; d < local_; ++d) {
      header[3 * d] = mine[d].pc;
      header[3 * d + 1] = static_cast<int64_t>(mine[d].cycle);
      header[3 * d + 2] = static_cast<int64_t>(mine[d].operand.size());
      myBytes += mine[d].operand.size();
    }
    if (absl::Status s = completed(
            "MPI_Iallgather",
            [&](MPI_Request *request) {
              return MPI_Iallgather(header.data(), static_cast<int>(3 * local_),
                                    MPI_INT64_T, headers.data(),
                                    static_cast<int>(3 * local_), MPI_INT64_T,
                                    MPI_COMM_WORLD, request);
            });
        !s.ok())
      return s;
    int64_t devices = local_ * ranks;
    std::vector<IciArrival> all(devices);
    bool same = true;
    std::vector<int> counts(ranks, 0);
    for (int64_t d = 0; d < devices; ++d) {
      all[d].pc = headers[3 * d];
      all[d].cycle = static_cast<uint64_t>(headers[3 * d + 1]);
      same &= all[d].pc != IciArrival::kStopped && all[d].pc == all[0].pc;
      counts[d / local_] += static_cast<int>(headers[3 * d + 2]);
    }
    std::vector<int> at;
    if (!displacements(counts, at))
      return absl::ResourceExhaustedError(
          "a collective's operands exceed 2 GiB in one MPI message");
    int64_t total = static_cast<int64_t>(at.back()) + counts.back();
    // A round that fails (devices at different instructions or stopped) is
    // judged by IciFabric from the headers alone, the same on every rank.
    if (!same || total == 0)
      return all;
    absl::StatusOr<int> myCount = intCount(myBytes);
    if (!myCount.ok())
      return myCount.status();
    std::vector<uint8_t> send;
    send.reserve(myBytes);
    for (const IciArrival &a : mine)
      send.insert(send.end(), a.operand.begin(), a.operand.end());
    std::vector<uint8_t> received(total);
    if (absl::Status s = completed(
            "MPI_Iallgatherv",
            [&](MPI_Request *request) {
              return MPI_Iallgatherv(send.data(), *myCount, MPI_BYTE,
                                     received.data(), counts.data(), at.data(),
                                     MPI_BYTE, MPI_COMM_WORLD, request);
            });
        !s.ok())
      return s;
    size_t offset = 0;
    for (int64_t d = 0; d < devices; ++d) {
      size_t n = static_cast<size_t>(headers[3 * d + 2]);
      all[d].operand.assign(received.begin() + offset,
                            received.begin() + offset + n);
      offset += n;
    }
    return all;
  }

private:
  int64_t local_;
};

} // namespace

absl::StatusOr<World> init(int *argc, char ***argv) {
  int provided = 0;
  if (absl::Status s =
          check(MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided),
                "MPI_Init_thread");
      !s.ok())
    return s;
  if (provided < MPI_THREAD_SERIALIZED)
    return absl::FailedPreconditionError(
        "this MPI library does not support MPI_THREAD_SERIALIZED (the "
        "devices' threads take turns at the collectives)");
  // Errors come back as codes, reported as tpuc-run errors.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  return World{worldRank(), worldSize()};
}

void finalize() { MPI_Finalize(); }

absl::StatusOr<std::string> scatter(const std::vector<std::string> &parts) {
  int ranks = worldSize(), rank = worldRank();
  std::vector<int> counts(ranks, 0), at;
  std::string all;
  if (rank == 0) {
    for (int r = 0; r < ranks; ++r) {
      absl::StatusOr<int> n = intCount(parts[r].size());
      if (!n.ok())
        return n.status();
      counts[r] = *n;
      all += parts[r];
    }
    if (!displacements(counts, at))
      return absl::ResourceExhaustedError(
          "the inputs exceed 2 GiB in one MPI message");
  }
  int mine = 0;
  if (absl::Status s = check(MPI_Scatter(counts.data(), 1, MPI_INT, &mine, 1,
                                         MPI_INT, 0, MPI_COMM_WORLD),
                             "MPI_Scatter");
      !s.ok())
    return s;
  std::string out(static_cast<size_t>(mine), '\0');
  if (absl::Status s =
          check(MPI_Scatterv(all.data(), counts.data(), at.data(), MPI_BYTE,
                             out.data(), mine, MPI_BYTE, 0, MPI_COMM_WORLD),
                "MPI_Scatterv");
      !s.ok())
    return s;
  return out;
}

absl::StatusOr<std::vector<std::string>> gather(const std::string &mine) {
  int ranks = worldSize(), rank = worldRank();
  absl::StatusOr<int> n = intCount(mine.size());
  if (!n.ok())
    return n.status();
  std::vector<int> counts(ranks, 0), at;
  if (absl::Status s = check(MPI_Gather(&*n, 1, MPI_INT, counts.data(), 1,
                                        MPI_INT, 0, MPI_COMM_WORLD),
                             "MPI_Gather");
      !s.ok())
    return s;
  std::string all;
  if (rank == 0) {
    if (!displacements(counts, at))
      return absl::ResourceExhaustedError(
          "the results exceed 2 GiB in one MPI message");
    all.resize(static_cast<size_t>(at.back()) + counts.back());
  }
  if (absl::Status s = check(MPI_Gatherv(mine.data(), *n, MPI_BYTE, all.data(),
                                         counts.data(), at.data(), MPI_BYTE, 0,
                                         MPI_COMM_WORLD),
                             "MPI_Gatherv");
      !s.ok())
    return s;
  std::vector<std::string> parts;
  if (rank == 0)
    for (int r = 0; r < ranks; ++r)
      parts.push_back(all.substr(at[r], counts[r]));
  return parts;
}

std::unique_ptr<IciTransport> makeTransport(int64_t localDevices) {
  return std::make_unique<MpiTransport>(localDevices);
}

} // namespace tpuc::runtime::mpi
