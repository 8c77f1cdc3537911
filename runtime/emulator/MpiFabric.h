// A slice run spread over the processes of an MPI job (`mpirun -np K
// tpuc-run EXE`, docs/spmd.md): each process runs a contiguous block of the
// devices, and at every collective the blocks' arrivals (pc, cycle, operand
// bytes) are gathered to every process, which then computes its devices'
// results with the same code as a one-process run (Ici.h), so the results
// and the modeled cycles are those of one process, bit for bit.
// Built only where CMake finds MPI (TPUC_HAVE_MPI).
#ifndef TPUC_RUNTIME_EMULATOR_MPIFABRIC_H
#define TPUC_RUNTIME_EMULATOR_MPIFABRIC_H

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/emulator/Ici.h"

namespace tpuc::runtime::mpi {

struct World {
  int rank = 0, size = 1;
};

// MPI_Init_thread (collectives are called from the devices' threads, one at
// a time); the job's size and this process's rank.
absl::StatusOr<World> init(int *argc, char ***argv);
void finalize();

// Rank 0's `parts[r]` to each rank r (`parts` is read on rank 0 only).
absl::StatusOr<std::string> scatter(const std::vector<std::string> &parts);
// Every rank's `mine` on rank 0, by rank (empty on the other ranks).
absl::StatusOr<std::vector<std::string>> gather(const std::string &mine);

// The transport of a process that runs `localDevices` devices (the same
// number on every rank).
std::unique_ptr<IciTransport> makeTransport(int64_t localDevices);

} // namespace tpuc::runtime::mpi

#endif // TPUC_RUNTIME_EMULATOR_MPIFABRIC_H
