// The device grid and the collectives of a multi-device executable
// (docs/spmd.md): loader checks, and the host side of shardings (splitting
// global inputs, gathering global results).
#ifndef TPUC_RUNTIME_LOADER_COLLECTIVES_H
#define TPUC_RUNTIME_LOADER_COLLECTIVES_H

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/hostio/HostArray.h"
#include "runtime/schema/executable.pb.h"

namespace tpuc::runtime {

inline constexpr int64_t kMaxDevices = 4096;

// replica_count and num_partitions, 0 read as 1.
inline int64_t replicaCount(const exe::Executable &e) {
  return e.replica_count() ? e.replica_count() : 1;
}
inline int64_t numPartitions(const exe::Executable &e) {
  return e.num_partitions() ? e.num_partitions() : 1;
}
inline int64_t numDevices(const exe::Executable &e) {
  return replicaCount(e) * numPartitions(e);
}

// The grid, the collectives table and the shardings: ids in range, every
// device in exactly one group, shapes consistent with the opcode that uses
// them. InvalidArgument naming the field.
absl::Status validateCollectives(const exe::Executable &e);
// Instruction `pc`, an ICI opcode: its collective index (an immediate) is in
// range and its collective fits the opcode.
absl::Status validateCollectiveInstruction(const exe::Executable &e, int pc);

// Copies the block of `extent` elements at `srcStart` of the row-major
// array `src` (dims `srcDims`) to `dstStart` of `dst` (dims `dstDims`);
// elements of `elemBytes` bytes. The block must fit both.
void copyBlock(const uint8_t *src, const std::vector<int64_t> &srcDims,
               const std::vector<int64_t> &srcStart, uint8_t *dst,
               const std::vector<int64_t> &dstDims,
               const std::vector<int64_t> &dstStart,
               const std::vector<int64_t> &extent, int64_t elemBytes);

// Device `device`'s part of the global array `global` by `sharding` (of
// the executable with `partitions` partitions): its tile, or the whole
// array. Dimensions must split evenly.
absl::StatusOr<hostio::HostArray> shardOf(const hostio::HostArray &global,
                                          const exe::Sharding *sharding,
                                          int64_t partitions, int64_t device);
// The global array from the per-device arrays `parts` (indexed by device):
// the tiles of replica 0's partitions; unsharded: device 0's; maximal:
// that device's.
absl::StatusOr<hostio::HostArray>
gatherShards(const std::vector<const hostio::HostArray *> &parts,
             const exe::Sharding *sharding, int64_t partitions);

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_LOADER_COLLECTIVES_H
