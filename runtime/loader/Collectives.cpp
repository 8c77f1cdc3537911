#include "runtime/loader/Collectives.h"

#include <cstring>
#include <set>

#include "absl/strings/str_cat.h"
#include "runtime/loader/Isa.h"
#include "runtime/loader/Layout.h"

namespace tpuc::runtime {
namespace {

template <typename... Args> absl::Status invalid(const Args &...args) {
  return absl::InvalidArgumentError(absl::StrCat(args...));
}

std::vector<int64_t> dimsOf(const exe::Shape &shape) {
  return {shape.dims().begin(), shape.dims().end()};
}

absl::Status validateSharding(const exe::Sharding &s, const exe::Shape &shape,
                              int64_t partitions, int64_t devices,
                              const std::string &field) {
  if (s.maximal()) {
    if (s.device() >= devices)
      return invalid(field, ".sharding: device ", s.device(),
                     " out of range (", devices, " devices)");
    return absl::OkStatus();
  }
  if (s.tiles_size() != shape.dims_size())
    return invalid(field, ".sharding: ", s.tiles_size(),
                   " tile counts for rank ", shape.dims_size());
  int64_t tiles = 1;
  for (int i = 0; i < s.tiles_size(); ++i) {
    if (s.tiles(i) < 1 || s.tiles(i) > kMaxDevices)
      return invalid(field, ".sharding: dimension ", i, " has ", s.tiles(i),
                     " tiles");
    tiles *= s.tiles(i);
  }
  if (s.tile_of_partition_size() != partitions)
    return invalid(field, ".sharding: ", s.tile_of_partition_size(),
                   " partition tiles, expected ", partitions);
  for (int64_t t : s.tile_of_partition())
    if (t < 0 || t >= tiles)
      return invalid(field, ".sharding: tile ", t, " out of range (", tiles,
                     " tiles)");
  return absl::OkStatus();
}

} // namespace

absl::Status validateCollectives(const exe::Executable &e) {
  int64_t devices = numDevices(e);
  if (devices > kMaxDevices)
    return invalid("replica_count x num_partitions: ", devices,
                   " devices, at most ", kMaxDevices);
  int64_t partitions = numPartitions(e);
  for (int i = 0; i < e.parameters_size(); ++i)
    if (e.parameters(i).has_sharding())
      if (absl::Status s = validateSharding(
              e.parameters(i).sharding(), e.parameters(i).shape(), partitions,
              devices, absl::StrCat("parameters[", i, "]"));
          !s.ok())
        return s;
  for (int i = 0; i < e.results_size(); ++i)
    if (e.results(i).has_sharding())
      if (absl::Status s = validateSharding(
              e.results(i).sharding(), e.results(i).shape(), partitions,
              devices, absl::StrCat("results[", i, "]"));
          !s.ok())
        return s;
  for (int i = 0; i < e.collectives_size(); ++i) {
    const exe::Collective &c = e.collectives(i);
    std::string field = absl::StrCat("collectives[", i, "]");
    for (const exe::Shape *shape : {&c.operand(), &c.result()})
      if (absl::Status s = validateShape(*shape); !s.ok())
        return invalid(field, ": ", s.message());
    if (c.operand().dtype() != c.result().dtype())
      return invalid(field, ": operand and result element types differ");
    std::set<int64_t> seen;
    for (const exe::ReplicaGroup &g : c.groups()) {
      if (g.devices_size() == 0)
        return invalid(field, ": an empty group");
      for (uint32_t d : g.devices()) {
        if (d >= devices)
          return invalid(field, ": device ", d, " out of range (", devices,
                         " devices)");
        if (!seen.insert(d).second)
          return invalid(field, ": device ", d, " is in two groups");
      }
    }
    if (c.groups_size() > 0 && static_cast<int64_t>(seen.size()) != devices)
      return invalid(field, ": the groups cover ", seen.size(), " of ",
                     devices, " devices");
    std::set<uint32_t> sources, targets;
    for (const exe::SourceTarget &p : c.pairs()) {
      if (p.source() >= devices || p.target() >= devices)
        return invalid(field, ": pair (", p.source(), ", ", p.target(),
                       ") out of range (", devices, " devices)");
      if (!sources.insert(p.source()).second ||
          !targets.insert(p.target()).second)
        return invalid(field, ": pair (", p.source(), ", ", p.target(),
                       ") repeats a source or a target");
    }
  }
  return absl::OkStatus();
}

absl::Status validateCollectiveInstruction(const exe::Executable &e, int pc) {
  const exe::Instruction &in = e.instructions(pc);
  std::string where = absl::StrCat("instruction ", pc, " (",
                                   exe::Opcode_Name(in.opcode()), ")");
  const exe::Operand &index = in.args(0);
  if (index.reg() != 0 || index.imm() < 0 ||
      index.imm() >= e.collectives_size())
    return invalid(where, ": collective ", index.imm(),
                   " is not an immediate index into the ",
                   e.collectives_size(), " collectives");
  const exe::Collective &c = e.collectives(static_cast<int>(index.imm()));
  std::vector<int64_t> in_ = dimsOf(c.operand()), out = dimsOf(c.result());
  int64_t rank = static_cast<int64_t>(in_.size());
  bool reduces = in.opcode() == exe::ALL_REDUCE ||
                 in.opcode() == exe::REDUCE_SCATTER;
  if (reduces != (c.reduce() != exe::COLLECTIVE_REDUCE_INVALID))
    return invalid(where, reduces ? ": needs a reduce kind"
                                  : ": a reduce kind it does not use");
  if (reduces && !exe::CollectiveReduce_IsValid(c.reduce()))
    return invalid(where, ": invalid reduce kind ", c.reduce());
  bool usesDim = in.opcode() == exe::ALL_GATHER ||
                 in.opcode() == exe::REDUCE_SCATTER ||
                 in.opcode() == exe::ALL_TO_ALL;
  if (usesDim && (c.dimension() < 0 || c.dimension() >= rank))
    return invalid(where, ": dimension ", c.dimension(), " out of range");
  if (in.opcode() == exe::DEVICE_ID) {
    if (c.id() != exe::REPLICA_ID && c.id() != exe::PARTITION_ID)
      return invalid(where, ": needs id REPLICA_ID or PARTITION_ID");
    if (!out.empty() || elementBytes(c.result().dtype()) != 4)
      return invalid(where, ": the result must be a 32-bit scalar");
    return absl::OkStatus();
  }
  if (in.opcode() == exe::COLLECTIVE_PERMUTE) {
    if (c.groups_size() != 0 || in_ != out)
      return invalid(where, ": needs pairs, no groups, and equal shapes");
    return absl::OkStatus();
  }
  if (c.groups_size() == 0 || c.pairs_size() != 0)
    return invalid(where, ": needs groups and no pairs");
  int64_t n = c.groups(0).devices_size();
  for (const exe::ReplicaGroup &g : c.groups())
    if (usesDim && g.devices_size() != n)
      return invalid(where, ": groups of different sizes");
  std::vector<int64_t> expected = in_;
  if (in.opcode() == exe::ALL_GATHER)
    expected[c.dimension()] *= n;
  if (in.opcode() == exe::REDUCE_SCATTER || in.opcode() == exe::ALL_TO_ALL) {
    if (in_[c.dimension()] % n != 0)
      return invalid(where, ": dimension ", c.dimension(), " (",
                     in_[c.dimension()], ") does not split into ", n,
                     " blocks");
    if (in.opcode() == exe::REDUCE_SCATTER)
      expected[c.dimension()] /= n;
  }
  if (expected != out)
    return invalid(where, ": result shape does not fit the operand's");
  return absl::OkStatus();
}

void copyBlock(const uint8_t *src, const std::vector<int64_t> &srcDims,
               const std::vector<int64_t> &srcStart, uint8_t *dst,
               const std::vector<int64_t> &dstDims,
               const std::vector<int64_t> &dstStart,
               const std::vector<int64_t> &extent, int64_t elemBytes) {
  int64_t rank = static_cast<int64_t>(extent.size());
  for (int64_t e : extent)
    if (e == 0)
      return;
  if (rank == 0) {
    std::memcpy(dst, src, elemBytes);
    return;
  }
  // Row-major strides; the innermost dimension is one memcpy.
  std::vector<int64_t> srcStride(rank, 1), dstStride(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d) {
    srcStride[d] = srcStride[d + 1] * srcDims[d + 1];
    dstStride[d] = dstStride[d + 1] * dstDims[d + 1];
  }
  std::vector<int64_t> index(rank, 0);
  int64_t row = extent[rank - 1] * elemBytes;
  while (true) {
    int64_t s = 0, t = 0;
    for (int64_t d = 0; d < rank; ++d) {
      s += (srcStart[d] + index[d]) * srcStride[d];
      t += (dstStart[d] + index[d]) * dstStride[d];
    }
    std::memcpy(dst + t * elemBytes, src + s * elemBytes, row);
    int64_t d = rank - 2;
    for (; d >= 0; --d) {
      if (++index[d] < extent[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

namespace {

// The block of tile `tile` (row-major over `tiles`) of an array of `dims`.
void tileBlock(const std::vector<int64_t> &dims, const exe::Sharding &s,
               int64_t tile, std::vector<int64_t> &start,
               std::vector<int64_t> &extent) {
  int64_t rank = static_cast<int64_t>(dims.size());
  start.assign(rank, 0);
  extent.assign(rank, 0);
  for (int64_t d = rank - 1; d >= 0; --d) {
    int64_t count = s.tiles(static_cast<int>(d));
    extent[d] = dims[d] / count;
    start[d] = (tile % count) * extent[d];
    tile /= count;
  }
}

} // namespace

absl::StatusOr<hostio::HostArray> shardOf(const hostio::HostArray &global,
                                          const exe::Sharding *sharding,
                                          int64_t partitions, int64_t device) {
  if (!sharding || sharding->maximal())
    return global;
  if (sharding->tiles_size() != global.rank())
    return invalid("the sharding has ", sharding->tiles_size(),
                   " dimensions, the array ", global.rank());
  for (int64_t d = 0; d < global.rank(); ++d)
    if (global.shape()[d] % sharding->tiles(static_cast<int>(d)) != 0)
      return invalid("dimension ", d, " of the global array ",
                     global.typeString(), " does not split into ",
                     sharding->tiles(static_cast<int>(d)), " tiles");
  std::vector<int64_t> start, extent;
  tileBlock(global.shape(), *sharding,
            sharding->tile_of_partition(static_cast<int>(device % partitions)),
            start, extent);
  absl::StatusOr<hostio::HostArray> part =
      hostio::HostArray::zeros(global.dtype(), extent);
  if (!part.ok())
    return part.status();
  copyBlock(global.data(), global.shape(), start, part->data(), extent,
            std::vector<int64_t>(extent.size(), 0), extent,
            hostio::dtypeByteSize(global.dtype()));
  return part;
}

absl::StatusOr<hostio::HostArray>
gatherShards(const std::vector<const hostio::HostArray *> &parts,
             const exe::Sharding *sharding, int64_t partitions) {
  if (!sharding)
    return *parts[0];
  if (sharding->maximal())
    return *parts[sharding->device()];
  const hostio::HostArray &first = *parts[0];
  std::vector<int64_t> dims = first.shape();
  for (size_t d = 0; d < dims.size(); ++d)
    dims[d] *= sharding->tiles(static_cast<int>(d));
  absl::StatusOr<hostio::HostArray> global =
      hostio::HostArray::zeros(first.dtype(), dims);
  if (!global.ok())
    return global.status();
  std::vector<int64_t> start, extent;
  for (int64_t p = 0; p < partitions; ++p) {
    tileBlock(dims, *sharding, sharding->tile_of_partition(static_cast<int>(p)),
              start, extent);
    copyBlock(parts[p]->data(), extent, std::vector<int64_t>(extent.size(), 0),
              global->data(), dims, start, extent,
              hostio::dtypeByteSize(first.dtype()));
  }
  return global;
}

} // namespace tpuc::runtime
