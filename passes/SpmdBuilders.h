//===- SpmdBuilders.h - what the partitioning passes build -----*- C++ -*-===//
//
// Shared by tpuc-data-parallel and tpuc-spmd-partition: the all-reduce that
// completes a partial result, the all-gather that joins a split value, a
// partition's tile of a whole value (dynamic-slice at its tile index,
// computed from partition_id), the moves of a split (all-to-all) and halos
// (collective-permute), each within groups of partitions (a mesh axis), and
// which reductions and scatters may be split.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_PASSES_SPMDBUILDERS_H
#define TPUC_PASSES_SPMDBUILDERS_H

#include "dialects/hlo/HloOps.h"
#include "passes/SpmdSharding.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace tpuc::spmd {

/// Numbers the collectives' channels of one function and keeps its
/// partition id, built once at the start of each region that needs it.
/// Collectives act on groups of partitions (groupsAcross); empty groups
/// mean all partitions in order.
class CollectiveBuilder {
public:
  CollectiveBuilder(mlir::func::FuncOp func, int64_t partitions)
      : func(func), partitions(partitions) {}

  /// `value` combined over each group by `body` (a copy of it; null: a
  /// sum).
  mlir::Value allReduce(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Value value, mlir::Region *body,
                        const Groups &groups = {});
  /// The tiles of `value` concatenated over each group along `dim`.
  mlir::Value allGather(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Value value, int64_t dim,
                        const Groups &groups = {});
  /// `value`, split along `from` over each group, split along `to`
  /// instead: XLA's all-to-all with split_dimension `to` and
  /// concat_dimension `from`, built from the one-dimension `hlo.all_to_all`
  /// between reshapes and a transpose. Each partition sends (n-1)/n of its
  /// block.
  mlir::Value moveSplit(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Value value, int64_t from, int64_t to,
                        const Groups &groups = {});
  /// Each partition's `value` sent to the next member of its group (`step`
  /// = 1) or the previous one (-1); the member at the end gets zeros.
  mlir::Value shift(mlir::OpBuilder &builder, mlir::Location loc,
                    mlir::Value value, int64_t step, const Groups &groups = {});
  /// This partition's id as an s32 scalar (built once per region).
  mlir::Value partitionId(mlir::OpBuilder &builder, mlir::Location loc);
  /// This partition's tile index along `axis` as an s32 scalar: arithmetic
  /// on the partition id when the index is (id / stride) % tiles, else a
  /// lookup in a constant table.
  mlir::Value tileIndex(mlir::OpBuilder &builder, mlir::Location loc,
                        const Axis &axis);
  /// This partition's tile of the unsplit `full` for the split dimensions
  /// of `tiling` (dynamic-slice at tile index * tile size).
  mlir::Value localTile(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Value full, const Tiling &tiling);
  /// This partition's block along `dim` of the replicated `full`, blocks in
  /// partition order.
  mlir::Value localBlock(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::Value full, int64_t dim);

private:
  mlir::DenseIntElementsAttr groupsAttr(mlir::OpBuilder &builder,
                                        const Groups &groups) const;
  int64_t groupSize(const Groups &groups) const {
    return groups.empty() ? partitions : groups.front().size();
  }

  mlir::func::FuncOp func;
  int64_t partitions;
  // The s32 partition id, built at the start of each region that needs it
  // (a while body cannot use the function's).
  llvm::DenseMap<mlir::Region *, mlir::Value> partitionOffsets;
  int64_t nextChannel = 1;
};

/// Whether `init` is the identity of the reduction `body` computes (add,
/// maximum, minimum, multiply of floats), so that reducing each block and
/// combining the blocks adds it once.
bool isIdentityInit(mlir::Region &body, mlir::Value init);

/// Whether `body` (a scatter's update computation) returns the sum of its
/// two arguments.
bool isAddCombiner(mlir::Region &body);

/// Whether a one-input reduce-window split along `dim` can be computed on
/// blocks of `block` rows with halos (haloFits). Its init must be the
/// identity of its body: XLA skips padded positions, and only the identity
/// can stand for them in the halos of the first and last partitions.
bool reduceWindowHaloFits(hlo::ReduceWindowOp op, int64_t dim, int64_t block);

} // namespace tpuc::spmd

#endif // TPUC_PASSES_SPMDBUILDERS_H
