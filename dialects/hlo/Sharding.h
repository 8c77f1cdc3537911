//===- Sharding.h - XLA shardings and replica groups -----------*- C++ -*-===//
//
// The one parser of XLA's sharding text (`sharding={devices=[2,1]0,1}`) and
// of the iota replica-group form (`[2,4]<=[4,2]T(1,0)`). The hlo dialect
// keeps a sharding as the string attribute `hlo.sharding` (on ops, function
// arguments and results); the dialect verifies it with this parser, and the
// importer and the interpreter read it through this parser. Plain C++ on LLVM
// Support: no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_DIALECTS_HLO_SHARDING_H
#define TPUC_DIALECTS_HLO_SHARDING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tpuc::hlo {

/// A parse error: the message and the byte offset in the parsed text.
struct ShardingError {
  std::string message;
  size_t offset = 0;
};

/// XLA's iota tile assignment / replica-group list: the devices 0..N-1
/// reshaped to `reshapeDims`, transposed by `transposePerm`, then read in
/// row-major order (IotaTileAssignment / IotaReplicaGroupList).
struct IotaDevices {
  std::vector<int64_t> reshapeDims;
  std::vector<int64_t> transposePerm; // empty: no transpose
  /// The device list, in row-major order of the transposed array.
  std::vector<int64_t> expand() const;
};

struct Sharding {
  enum class Kind { Replicated, Maximal, Manual, Unknown, Tiled, Tuple };
  Kind kind = Kind::Replicated;
  /// Maximal: the one device holding the whole array.
  int64_t device = 0;
  /// Tiled: the tile assignment's dimensions (the data dimensions, then a
  /// replicated dimension for last_tile_dim_replicate or one per
  /// last_tile_dims entry) and its devices in row-major order.
  std::vector<int64_t> tileDims;
  std::vector<int64_t> devices;
  /// Set when the devices were written in the iota form.
  std::optional<IotaDevices> iota;
  bool lastTileDimReplicate = false;
  /// last_tile_dims={manual, replicated}: the subgroup types, as written.
  std::vector<std::string> lastTileDims;
  /// Tuple: one sharding per leaf.
  std::vector<Sharding> elements;

  /// Tile dimensions that split data (all but the trailing subgroup ones).
  size_t numDataTileDims() const;
  /// Where `device` sits in the tile assignment (index per tile dimension),
  /// or nullopt when it is not listed.
  std::optional<std::vector<int64_t>> tileIndexOf(int64_t device) const;
  /// XLA's printed form: "{devices=[2,1]0,1}", "{replicated}", ...
  std::string str() const;
};

/// Parses XLA's sharding text (with its braces). Metadata is accepted and
/// dropped. The tile assignment must list each device once.
std::optional<Sharding> parseSharding(llvm::StringRef text,
                                      ShardingError &error);

/// Parses replica groups in the iota form `[G,S]<=[dims]` or
/// `[G,S]<=[dims]T(perm)` into G explicit groups of S ids, exactly as XLA's
/// IotaReplicaGroupList expands them.
std::optional<std::vector<std::vector<int64_t>>>
parseIotaReplicaGroups(llvm::StringRef text, ShardingError &error);

} // namespace tpuc::hlo

#endif // TPUC_DIALECTS_HLO_SHARDING_H
