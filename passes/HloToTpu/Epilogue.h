//===- Epilogue.h - an output fusion's epilogue in its contraction kernel -===//
//
// Part of tpuc-convert-hlo-to-tpu; see docs/codegen.md ("Output fusions").
// The dot and convolution kernels hand their f32 result tiles, still in
// VMEM after the last K step, to the epilogue of the output fusion they
// belong to (Lowering::epilogue): it computes the fusion's values on vregs
// (Lowering::emitTile, as a loop kernel does) and writes only the values
// read outside the epilogue to HBM. Same-shape operands (a residual) are
// fetched per piece of result tiles; broadcast sources (a [C] bias or
// scale, splats, scalars) sit resident in VMEM (FusedKernel.cpp's forms).
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_PASSES_HLOTOTPU_EPILOGUE_H
#define TPUC_PASSES_HLOTOTPU_EPILOGUE_H

#include "passes/HloToTpu/Lowering.h"

namespace tpuc::hlotpu {

/// Result tiles a kernel writes with one DMA: `tiles` consecutive tiles of
/// its panels (tile `stageTile` on of the epilogue's staging buffers) to
/// the result's tiles `outTile`, `outTile + stride`, ... (in tiles of the
/// result's tiled layout), all in column tile `col`.
struct EpiloguePiece {
  Value stageTile;
  Value outTile;
  int64_t tiles = 1;
  int64_t stride = 1;
  Value col;
};

/// The epilogue of the output fusion `body` (FusedKernel.cpp's
/// lowerFusion applies it): the contraction `hero` and the ops of its
/// result shape after it that read it (or each other) and fit its kernel
/// (fusion::fitsContractionEpilogue, the planner's predicate), up to the
/// first other reader; the broadcasts they read; and the elementwise ops
/// before it whose only readers are those. `last` is the last op after the
/// contraction, where the kernel is emitted. None without a contraction or
/// an op to apply.
std::optional<Lowering::EpilogueOps>
findEpilogue(mlir::Block &body, Operation *&hero, Operation *&last);

class EpilogueKernel {
public:
  /// Takes the pending epilogue of `result`'s kernel into `ep`, if there
  /// is one (clears Lowering::epilogue, which tells lowerFusion it is
  /// applied); fails on an epilogue the kernel cannot read.
  static LogicalResult take(Lowering &l, Value result,
                            std::optional<EpilogueKernel> &ep);

  /// Lets one f32 root live in the contraction's f32 panels: apply()
  /// stores it over the panel tile it was computed from (after every root
  /// of the tile is computed) and write() sends it from there, so it takes
  /// no staging and waits for no slot of its own. The contraction's result
  /// when it is a root (it is in the panels already), else the first f32
  /// root. The kernel must keep a job's panels until its writes are done
  /// and pass them to write().
  void placeRootInPanels();
  /// VMEM for `tiles` panel tiles with the roots in `slots` slots: the
  /// inputs' and roots' staging and the resident sources.
  int64_t vmemBytes(int64_t tiles, int64_t slots) const;
  /// Allocates the staging for `tiles` panel tiles (roots in `slots`
  /// slots), the roots' HBM buffers, and loads the resident sources.
  LogicalResult begin(int64_t tiles, int64_t slots);
  /// begin(), but the resident sources' DMAs go out on semaphore `sem` and
  /// are waited for and computed (batch norm's rsqrt of the variance) by
  /// sourcesReady(), which the kernel calls once its own first DMAs are
  /// issued, before the first apply().
  LogicalResult beginFetching(int64_t tiles, int64_t slots, int sem);
  LogicalResult sourcesReady();

  /// Fetches the piece's tiles of the same-shape inputs (one DMA each on
  /// `sem`); `fetches()` DMAs per piece.
  void fetch(const EpiloguePiece &p, int sem);
  int64_t fetches() const { return inputs.size(); }
  /// Computes the piece's roots from the f32 panel tiles at byte
  /// `panelOff` of `panels` (4 KiB each) into root slot `slot`.
  LogicalResult apply(const EpiloguePiece &p, const VBuf &panels,
                      Value panelOff, Value slot);
  /// Writes the piece's roots from slot `slot` (one DMA each on `sem`);
  /// `writes()` DMAs per piece. A root placed in the panels goes from
  /// `panels` at `panelOff` (as apply() had them): a kernel that called
  /// placeRootInPanels() must pass them (asserted).
  void write(const EpiloguePiece &p, Value slot, int sem,
             const VBuf &panels = VBuf(), Value panelOff = Value());
  /// Whether the staging of a root's consecutive pieces can share a VMEM
  /// page (roots of tiles smaller than a page, bf16): a piece's stores
  /// then wait for the previous piece's write DMA.
  bool stagingSharesPages() const;
  /// Whether a root lives in the panels (placeRootInPanels).
  bool hasRootInPanels() const { return inPanels >= 0; }
  int64_t writes() const { return roots.size(); }

private:
  EpilogueKernel(Lowering &l, Lowering::EpilogueOps ops)
      : l(l), ops(std::move(ops)) {}

  /// An array of the result's shape: an input fetched or a root written.
  struct Array {
    Value value, mem;
    VBuf buf;
    int64_t tileBytes;
  };
  Lowering &l;
  Lowering::EpilogueOps ops;
  SmallVector<Array> inputs, roots;
  int64_t residentBytes = 0, tiles = 0;
  int64_t inPanels = -1; // the index of the root in the panels
  llvm::DenseMap<Value, Value> hoisted;
  Lowering::FinishEpilogueSources finishSources;
  Lowering::EpilogueColumns perColumn;
};

} // namespace tpuc::hlotpu

#endif // TPUC_PASSES_HLOTOTPU_EPILOGUE_H
