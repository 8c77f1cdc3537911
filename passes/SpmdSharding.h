//===- SpmdSharding.h - the shardings the SPMD passes handle ----*- C++ -*-===//
//
// tpuc-sharding-propagation and tpuc-spmd-partition work on XLA's tiled
// shardings over a device mesh of any shape: each dimension of an array is
// cut into equal tiles, each partition holds one tile per dimension, and
// partitions holding the same tiles are copies (partial replication,
// `last_tile_dim_replicate`, `last_tile_dims={replicated}`). A `Tiling`
// keeps that as one `Axis` per dimension: the tile count and each
// partition's tile index, so any device order (explicit lists, iota with
// transposes) is just a table. Maximal and manual shardings, uneven tiles
// and tilings that do not cover the module's partitions are refused with a
// diagnostic naming the op and the sharding (docs/spmd.md).
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_PASSES_SPMDSHARDING_H
#define TPUC_PASSES_SPMDSHARDING_H

#include "dialects/hlo/Sharding.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <string>

namespace tpuc::spmd {

/// The partitions of `module` (hlo.num_partitions, 1 when absent).
inline int64_t numPartitions(mlir::ModuleOp module) {
  auto count = module->getAttrOfType<mlir::IntegerAttr>("hlo.num_partitions");
  return count ? count.getInt() : 1;
}

/// How one dimension is cut: into `tiles` tiles, partition p holding tile
/// `index[p]` (empty when the dimension is whole).
struct Axis {
  int64_t tiles = 1;
  llvm::SmallVector<int64_t> index;

  bool split() const { return tiles > 1; }
  int64_t of(int64_t partition) const {
    return index.empty() ? 0 : index[partition];
  }
  bool operator==(const Axis &other) const {
    return tiles == other.tiles && index == other.index;
  }
  bool operator!=(const Axis &other) const { return !(*this == other); }
};

/// Groups of partitions, one collective's replica_groups.
using Groups = llvm::SmallVector<llvm::SmallVector<int64_t>>;

/// The partitions grouped for a collective across the tiles of `vary`:
/// partitions in one group agree on every axis of `key` and hold, in
/// row-major order of `vary`'s tile indices, each combination once;
/// partitions that agree on both are copies and go to different groups.
/// Empty when the combinations are not held equally often.
inline Groups groupsAcross(int64_t partitions, llvm::ArrayRef<Axis> key,
                           llvm::ArrayRef<Axis> vary) {
  int64_t count = 1;
  for (const Axis &axis : vary)
    count *= axis.tiles;
  std::map<llvm::SmallVector<int64_t>,
           llvm::SmallVector<llvm::SmallVector<int64_t>>>
      classes; // key coordinates -> partitions by vary index
  for (int64_t p = 0; p < partitions; ++p) {
    llvm::SmallVector<int64_t> coords;
    for (const Axis &axis : key)
      coords.push_back(axis.of(p));
    int64_t linear = 0;
    for (const Axis &axis : vary)
      linear = linear * axis.tiles + axis.of(p);
    auto &members = classes[coords];
    members.resize(count);
    members[linear].push_back(p);
  }
  Groups groups;
  for (auto &[coords, members] : classes) {
    size_t copies = members[0].size();
    for (auto &held : members)
      if (held.size() != copies || copies == 0)
        return {};
    for (size_t k = 0; k < copies; ++k) {
      llvm::SmallVector<int64_t> group;
      for (auto &held : members)
        group.push_back(held[k]);
      groups.push_back(std::move(group));
    }
  }
  llvm::sort(groups);
  return groups;
}

/// A tiled sharding of an array over `partitions` partitions.
class Tiling {
public:
  Tiling() = default;
  /// The whole array on every partition.
  static Tiling replicated(int64_t rank, int64_t partitions) {
    Tiling t;
    t.parts = partitions;
    t.axes.resize(rank);
    return t;
  }

  int64_t rank() const { return axes.size(); }
  int64_t partitions() const { return parts; }
  const Axis &axis(int64_t d) const { return axes[d]; }
  llvm::ArrayRef<Axis> allAxes() const { return axes; }
  void set(int64_t d, Axis axis) { axes[d] = std::move(axis); }
  bool isSplit() const {
    return llvm::any_of(axes, [](const Axis &a) { return a.split(); });
  }
  /// The dimensions cut into more than one tile.
  llvm::SmallVector<int64_t> splitDims() const {
    llvm::SmallVector<int64_t> dims;
    for (int64_t d = 0; d < rank(); ++d)
      if (axes[d].split())
        dims.push_back(d);
    return dims;
  }
  bool operator==(const Tiling &other) const {
    return parts == other.parts && axes == other.axes;
  }
  bool operator!=(const Tiling &other) const { return !(*this == other); }

  /// Whether every combination of tiles is held by as many partitions (an
  /// XLA tile assignment can describe it).
  bool valid() const {
    llvm::SmallVector<Axis> split;
    for (const Axis &a : axes)
      if (a.split())
        split.push_back(a);
    return parts > 0 && !groupsAcross(parts, {}, split).empty();
  }
  /// Whether each split dimension of `type` divides into its tiles.
  bool divides(mlir::RankedTensorType type) const {
    for (int64_t d = 0; d < rank(); ++d)
      if (type.getDimSize(d) % axes[d].tiles)
        return false;
    return true;
  }
  /// The type of one partition's tile of `type`.
  mlir::RankedTensorType local(mlir::RankedTensorType type) const {
    llvm::SmallVector<int64_t> shape(type.getShape());
    for (int64_t d = 0; d < rank(); ++d)
      shape[d] /= axes[d].tiles;
    return mlir::RankedTensorType::get(shape, type.getElementType());
  }
  /// This tiling without the split of dimension `d`.
  Tiling without(int64_t d) const {
    Tiling t = *this;
    t.axes[d] = Axis();
    return t;
  }

  /// XLA's text: `{replicated}`, `{devices=[2,4]<=[8]}`, explicit device
  /// lists, `last_tile_dim_replicate` for copies.
  std::string str() const {
    if (!isSplit())
      return "{replicated}";
    int64_t tiles = 1;
    for (const Axis &a : axes)
      tiles *= a.tiles;
    // Partitions by their linear tile index, copies in partition order.
    llvm::SmallVector<llvm::SmallVector<int64_t>> holders(tiles);
    for (int64_t p = 0; p < parts; ++p) {
      int64_t linear = 0;
      for (const Axis &a : axes)
        linear = linear * a.tiles + a.of(p);
      holders[linear].push_back(p);
    }
    int64_t copies = parts / tiles;
    std::string text = "{devices=[";
    for (int64_t d = 0; d < rank(); ++d)
      text += (d ? "," : "") + std::to_string(axes[d].tiles);
    if (copies > 1)
      text += "," + std::to_string(copies);
    text += "]";
    llvm::SmallVector<int64_t> devices;
    for (auto &held : holders)
      devices.append(held.begin(), held.end());
    bool iota = true;
    for (size_t i = 0; i < devices.size(); ++i)
      iota &= devices[i] == static_cast<int64_t>(i);
    if (iota) {
      text += "<=[" + std::to_string(parts) + "]";
    } else {
      for (size_t i = 0; i < devices.size(); ++i)
        text += (i ? "," : "") + std::to_string(devices[i]);
    }
    return text + (copies > 1 ? " last_tile_dim_replicate}" : "}");
  }

private:
  int64_t parts = 0;
  llvm::SmallVector<Axis> axes;
};

/// The tiling `text` gives an array of `type` on `partitions` partitions;
/// failure with the reason in `why`.
inline mlir::FailureOr<Tiling> parseTiling(llvm::StringRef text,
                                           mlir::Type type, int64_t partitions,
                                           std::string &why) {
  hlo::ShardingError error;
  std::optional<hlo::Sharding> sharding = hlo::parseSharding(text, error);
  if (!sharding) {
    why = error.message;
    return mlir::failure();
  }
  auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
  if (sharding->kind == hlo::Sharding::Kind::Replicated)
    return Tiling::replicated(tensor ? tensor.getRank() : 0, partitions);
  if (sharding->kind != hlo::Sharding::Kind::Tiled || !tensor) {
    why = "only tiled and replicated shardings of arrays are supported";
    return mlir::failure();
  }
  size_t dataDims = sharding->numDataTileDims();
  if (static_cast<int64_t>(dataDims) != tensor.getRank()) {
    why = "it tiles " + std::to_string(dataDims) + " dimensions, the array " +
          "has " + std::to_string(tensor.getRank());
    return mlir::failure();
  }
  for (const std::string &type : sharding->lastTileDims)
    if (type != "replicated") {
      why = "only replicated subgroups are supported (last_tile_dims=" + type +
            ")";
      return mlir::failure();
    }
  if (static_cast<int64_t>(sharding->devices.size()) != partitions ||
      llvm::any_of(sharding->devices,
                   [&](int64_t d) { return d < 0 || d >= partitions; })) {
    why = "its tile assignment lists " +
          std::to_string(sharding->devices.size()) +
          " devices, the module has " + std::to_string(partitions) +
          " partitions";
    return mlir::failure();
  }
  Tiling tiling = Tiling::replicated(tensor.getRank(), partitions);
  for (size_t d = 0; d < dataDims; ++d) {
    int64_t tiles = sharding->tileDims[d];
    if (tiles == 1)
      continue;
    if (tensor.getDimSize(d) % tiles) {
      why = "dimension " + std::to_string(d) + " (" +
            std::to_string(tensor.getDimSize(d)) + ") does not divide into " +
            std::to_string(tiles) + " equal blocks";
      return mlir::failure();
    }
    Axis axis;
    axis.tiles = tiles;
    axis.index.resize(partitions);
    tiling.set(d, axis);
  }
  for (int64_t p = 0; p < partitions; ++p) {
    std::vector<int64_t> at = *sharding->tileIndexOf(p);
    for (size_t d = 0; d < dataDims; ++d)
      if (tiling.axis(d).split()) {
        Axis axis = tiling.axis(d);
        axis.index[p] = at[d];
        tiling.set(d, std::move(axis));
      }
  }
  return tiling;
}

/// The tiling of `type` split along `dim` over all partitions in order
/// (`dim` < 0: replicated), the 1-D sharding of data parallelism.
inline Tiling splitAlong(mlir::RankedTensorType type, int64_t dim,
                         int64_t partitions) {
  Tiling t = Tiling::replicated(type.getRank(), partitions);
  if (dim >= 0) {
    Axis axis;
    axis.tiles = partitions;
    for (int64_t p = 0; p < partitions; ++p)
      axis.index.push_back(p);
    t.set(dim, axis);
  }
  return t;
}

/// Where row-major reshape keeps a split: operand dimension `from` of
/// `source` maps to dimension `to` of `target` when the elements before
/// both are as many and one size divides the other, so each tile stays one
/// contiguous block of `to`.
inline bool reshapeKeepsSplit(mlir::RankedTensorType source, int64_t from,
                              mlir::RankedTensorType target, int64_t to,
                              int64_t tiles) {
  int64_t before = 1, after = 1;
  for (int64_t d = 0; d < from; ++d)
    before *= source.getDimSize(d);
  for (int64_t d = 0; d < to; ++d)
    after *= target.getDimSize(d);
  int64_t a = source.getDimSize(from), b = target.getDimSize(to);
  return before == after && a % tiles == 0 && b % tiles == 0 &&
         (a % b == 0 || b % a == 0);
}

/// Dimension pairs of a gather or scatter that partition alike: operand
/// dimensions that pass through whole (not indexed, not collapsed or
/// inserted, the slice or window the full size) and the result (gather) or
/// update (scatter) window dimension they become; and the index array's
/// batch dimensions (all but index_vector_dim) and the result or update
/// dimensions they become. Empty with operand batching dimensions.
struct IndexedDims {
  llvm::SmallVector<std::pair<int64_t, int64_t>> passthrough; // operand, out
  llvm::SmallVector<std::pair<int64_t, int64_t>> batch;       // indices, out
};

inline IndexedDims
indexedDims(mlir::RankedTensorType operand, mlir::RankedTensorType indices,
            int64_t outRank, llvm::ArrayRef<int64_t> windowDims,
            llvm::ArrayRef<int64_t> droppedDims,
            llvm::ArrayRef<int64_t> operandBatching,
            llvm::ArrayRef<int64_t> indexMap, int64_t indexVectorDim,
            llvm::function_ref<int64_t(int64_t)> windowSize,
            llvm::function_ref<int64_t(int64_t)> operandSize) {
  IndexedDims dims;
  if (!operandBatching.empty())
    return dims;
  int64_t k = 0;
  for (int64_t d = 0; d < operand.getRank(); ++d) {
    if (llvm::is_contained(droppedDims, d))
      continue;
    int64_t out = windowDims[k++];
    if (!llvm::is_contained(indexMap, d) && windowSize(out) == operandSize(d))
      dims.passthrough.push_back({d, out});
  }
  llvm::SmallVector<int64_t> outBatch;
  for (int64_t o = 0; o < outRank; ++o)
    if (!llvm::is_contained(windowDims, o))
      outBatch.push_back(o);
  k = 0;
  for (int64_t i = 0; i < indices.getRank(); ++i)
    if (i != indexVectorDim && k < static_cast<int64_t>(outBatch.size()))
      dims.batch.push_back({i, outBatch[k++]});
  return dims;
}

/// The pairs of a gather. The passes may ask once the operand is already
/// partitioned: `operand` (when given) is its tiling, to know the global
/// sizes.
template <typename GatherOp>
IndexedDims gatherDims(GatherOp gather, const Tiling *operand = nullptr) {
  auto numbers = gather.getDimensionNumbers();
  auto operandType =
      mlir::cast<mlir::RankedTensorType>(gather.getOperand().getType());
  auto result = mlir::cast<mlir::RankedTensorType>(gather.getType());
  llvm::ArrayRef<int64_t> sizes = gather.getSliceSizes();
  // A gather's offset dims take the slice sizes of the kept operand dims.
  llvm::SmallVector<int64_t> kept;
  for (int64_t d = 0; d < operandType.getRank(); ++d)
    if (!llvm::is_contained(numbers.getCollapsedSliceDims(), d) &&
        !llvm::is_contained(numbers.getOperandBatchingDims(), d))
      kept.push_back(d);
  return indexedDims(
      operandType,
      mlir::cast<mlir::RankedTensorType>(gather.getStartIndices().getType()),
      result.getRank(), numbers.getOffsetDims(),
      numbers.getCollapsedSliceDims(), numbers.getOperandBatchingDims(),
      numbers.getStartIndexMap(), numbers.getIndexVectorDim(),
      [&](int64_t out) {
        auto it = llvm::find(numbers.getOffsetDims(), out);
        return sizes[kept[it - numbers.getOffsetDims().begin()]];
      },
      [&](int64_t d) {
        return operandType.getDimSize(d) *
               (operand ? operand->axis(d).tiles : 1);
      });
}

/// The pairs of a one-input scatter; `input` and `updates` as for
/// gatherDims.
template <typename ScatterOp>
IndexedDims scatterDims(ScatterOp scatter, const Tiling *input = nullptr,
                        const Tiling *updates = nullptr) {
  auto numbers = scatter.getDimensionNumbers();
  auto inputType =
      mlir::cast<mlir::RankedTensorType>(scatter.getInputs()[0].getType());
  auto updatesType =
      mlir::cast<mlir::RankedTensorType>(scatter.getUpdates()[0].getType());
  return indexedDims(
      inputType,
      mlir::cast<mlir::RankedTensorType>(scatter.getScatterIndices().getType()),
      updatesType.getRank(), numbers.getUpdateWindowDims(),
      numbers.getInsertedWindowDims(), numbers.getInputBatchingDims(),
      numbers.getScatterDimsToOperandDims(), numbers.getIndexVectorDim(),
      [&](int64_t out) {
        return updatesType.getDimSize(out) *
               (updates ? updates->axis(out).tiles : 1);
      },
      [&](int64_t d) {
        return inputType.getDimSize(d) * (input ? input->axis(d).tiles : 1);
      });
}

/// Whether window dimension `index` (of `count`) of a windowed op can be
/// computed on blocks of `block` rows with halos from the neighbours: stride
/// and dilations 1, padding that keeps the size (low + high = window - 1,
/// both >= 0) and halos no larger than a block. The halos' sizes are the
/// padding: `low` rows from the previous partition, `high` from the next.
inline bool haloFits(std::optional<llvm::ArrayRef<int64_t>> strides,
                     std::optional<llvm::ArrayRef<int64_t>> inputDilations,
                     std::optional<llvm::ArrayRef<int64_t>> windowDilations,
                     std::optional<llvm::ArrayRef<int64_t>> padding,
                     int64_t index, int64_t count, int64_t window,
                     int64_t block, int64_t &low, int64_t &high) {
  auto one = [&](std::optional<llvm::ArrayRef<int64_t>> values) {
    return !values || values->empty() ||
           (static_cast<int64_t>(values->size()) == count &&
            (*values)[index] == 1);
  };
  if (!one(strides) || !one(inputDilations) || !one(windowDilations))
    return false;
  low = high = 0;
  if (padding && !padding->empty()) {
    if (static_cast<int64_t>(padding->size()) != 2 * count)
      return false;
    low = (*padding)[2 * index];
    high = (*padding)[2 * index + 1];
  }
  return low >= 0 && high >= 0 && low + high == window - 1 && low <= block &&
         high <= block;
}

/// For a convolution whose input is split along dimension `inputDim`: the
/// index of that spatial dimension when each partition can compute its
/// block of the output's matching dimension from its input block and
/// halos (haloFits; no reversal, no feature or batch groups). -1 otherwise.
template <typename ConvOp>
int64_t haloSpatialIndex(ConvOp conv, int64_t inputDim, int64_t block) {
  auto dims = conv.getDimensionNumbers();
  if (conv.getFeatureGroupCount() != 1 || conv.getBatchGroupCount() != 1)
    return -1;
  auto spatial = dims.getInputSpatial();
  auto it = llvm::find(spatial, inputDim);
  if (it == spatial.end())
    return -1;
  int64_t s = it - spatial.begin(), n = spatial.size();
  if (auto reversal = conv.getWindowReversal();
      reversal && !reversal->empty() && (*reversal)[s])
    return -1;
  auto kernel = mlir::cast<mlir::RankedTensorType>(conv.getRhs().getType());
  int64_t window = kernel.getDimSize(dims.getKernelSpatial()[s]), low, high;
  return haloFits(conv.getWindowStrides(), conv.getLhsDilation(),
                  conv.getRhsDilation(), conv.getPadding(), s, n, window, block,
                  low, high)
             ? s
             : -1;
}

} // namespace tpuc::spmd

#endif // TPUC_PASSES_SPMDSHARDING_H
