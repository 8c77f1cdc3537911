//===- SpmdSharding.h - the shardings the SPMD passes handle ----*- C++ -*-===//
//
// tpuc-sharding-propagation and tpuc-spmd-partition work on one-dimensional
// shardings: an array is replicated, or split along one dimension into P
// equal blocks, block k on partition k (XLA's `{devices=[1,P,1]<=[P]}`,
// `{devices=[1,P,1]0,1,...,P-1}`). Everything else (maximal, manual,
// partial replication, 2-D meshes, another device order) is refused with
// a diagnostic naming the op and the sharding (docs/spmd.md).
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_PASSES_SPMDSHARDING_H
#define TPUC_PASSES_SPMDSHARDING_H

#include "dialects/hlo/Sharding.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <string>

namespace tpuc::spmd {

/// The partitions of `module` (hlo.num_partitions, 1 when absent).
inline int64_t numPartitions(mlir::ModuleOp module) {
  auto count = module->getAttrOfType<mlir::IntegerAttr>("hlo.num_partitions");
  return count ? count.getInt() : 1;
}

/// The dimension `text` splits an array of `type` along over `partitions`
/// partitions, -1 for replicated; failure with the reason in `why`.
inline mlir::FailureOr<int64_t> splitDimension(llvm::StringRef text,
                                               mlir::Type type,
                                               int64_t partitions,
                                               std::string &why) {
  hlo::ShardingError error;
  std::optional<hlo::Sharding> sharding = hlo::parseSharding(text, error);
  if (!sharding) {
    why = error.message;
    return mlir::failure();
  }
  if (sharding->kind == hlo::Sharding::Kind::Replicated)
    return -1;
  auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
  if (sharding->kind != hlo::Sharding::Kind::Tiled || !tensor) {
    why = "only tiled and replicated shardings of arrays are supported";
    return mlir::failure();
  }
  int64_t dim = -1;
  size_t dataDims = sharding->numDataTileDims();
  if (static_cast<int64_t>(dataDims) != tensor.getRank()) {
    why = "it tiles " + std::to_string(dataDims) + " dimensions, the array " +
          "has " + std::to_string(tensor.getRank());
    return mlir::failure();
  }
  for (size_t d = 0; d < sharding->tileDims.size(); ++d) {
    if (sharding->tileDims[d] == 1)
      continue;
    if (d >= dataDims || dim >= 0) {
      why = "only a split of one dimension over all partitions is supported "
            "(no partial replication, no 2-D device mesh)";
      return mlir::failure();
    }
    dim = d;
  }
  if (dim < 0)
    return -1;
  for (size_t i = 0; i < sharding->devices.size(); ++i)
    if (sharding->devices[i] != static_cast<int64_t>(i)) {
      why = "only devices in partition order (0, 1, 2, ...) are supported";
      return mlir::failure();
    }
  if (sharding->tileDims[dim] != partitions) {
    why = "it splits over " + std::to_string(sharding->tileDims[dim]) +
          " devices, the module has " + std::to_string(partitions) +
          " partitions";
    return mlir::failure();
  }
  if (tensor.getDimSize(dim) % partitions) {
    why = "dimension " + std::to_string(dim) + " (" +
          std::to_string(tensor.getDimSize(dim)) + ") does not divide into " +
          std::to_string(partitions) + " equal blocks";
    return mlir::failure();
  }
  return dim;
}

/// XLA's text for an array of `type` split along `dim` (-1: replicated).
inline std::string shardingText(mlir::Type type, int64_t dim,
                                int64_t partitions) {
  auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
  if (dim < 0 || !tensor)
    return "{replicated}";
  std::string text = "{devices=[";
  for (int64_t d = 0; d < tensor.getRank(); ++d)
    text += (d ? "," : "") + std::to_string(d == dim ? partitions : 1);
  return text + "]<=[" + std::to_string(partitions) + "]}";
}

/// Where row-major reshape keeps a split: operand dimension `from` of
/// `source` maps to dimension `to` of `target` when the elements before
/// both are as many and one size divides the other, so each partition's
/// block stays one contiguous block of `to`.
inline bool reshapeKeepsSplit(mlir::RankedTensorType source, int64_t from,
                              mlir::RankedTensorType target, int64_t to,
                              int64_t partitions) {
  int64_t before = 1, after = 1;
  for (int64_t d = 0; d < from; ++d)
    before *= source.getDimSize(d);
  for (int64_t d = 0; d < to; ++d)
    after *= target.getDimSize(d);
  int64_t a = source.getDimSize(from), b = target.getDimSize(to);
  return before == after && a % partitions == 0 && b % partitions == 0 &&
         (a % b == 0 || b % a == 0);
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
