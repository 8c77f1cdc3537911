//===- Dot.cpp - dot_general on the MXU ---------------------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
// tpuc-decompose-dots has already rewritten every dot_general into
// [M,K] x [K,N] or [B,M,K] x [B,K,N], or with the rhs as [N,K] or
// [B,N,K] (N % 128 == 0), or the lhs as [K,M] or [B,K,M] (K and M
// multiples of 128): their 128x128 blocks are transposed on the XLU while
// staged.
//
//===----------------------------------------------------------------------===//

#include "passes/DotOperands.h"
#include "passes/HloToTpu/Epilogue.h"
#include "passes/HloToTpu/Lowering.h"
#include "passes/MxuPrecision.h"

using namespace mlir;

namespace tpuc::hlotpu {

namespace {

/// The bf16 products of operands split into `splits` pieces (a = a0 + a1
/// + a2, each bf16, a0 largest), as (lhs piece, rhs piece): every pair
/// whose pieces' index sum is below `splits`, which is XLA's bf16x3 and
/// bf16x6, of the pieces the operands have (`lhsPieces`, `rhsPieces`: a
/// bf16 operand is exact in one, its other pieces are zero). Grouped by
/// the rhs piece (one weight load per group) and the smallest products
/// first, so they are accumulated before the large ones.
SmallVector<std::pair<int64_t, int64_t>>
productsOf(int64_t splits, int64_t lhsPieces, int64_t rhsPieces) {
  SmallVector<std::pair<int64_t, int64_t>> products;
  for (int64_t j = std::min(splits, rhsPieces) - 1; j >= 0; --j)
    for (int64_t i = std::min(splits - j, lhsPieces) - 1; i >= 0; --i)
      products.push_back({i, j});
  return products;
}

/// Whether `op` is a form the kernel takes, and whether its operands are
/// transposed: a float rhs [N,K] or [B,N,K] with N a multiple of 128, a
/// float lhs [K,M] or [B,K,M] with K and M multiples of 128 (whole blocks:
/// no block reads past its buffer). VLD widens bf16 to 32-bit lanes, so
/// VTRANSPOSE transposes either.
bool isCanonicalDot(hlo::DotGeneralOp op, bool &transposedLhs,
                    bool &transposedRhs) {
  hlo::DotDimensionNumbersAttr dn = op.getDotDimensionNumbers();
  RankedTensorType lhs = op.getLhs().getType();
  int64_t rank = lhs.getRank();
  if (op.getRhs().getType().getRank() != rank ||
      dn.getLhsContracting().size() != 1 || dn.getRhsContracting().size() != 1)
    return false;
  int64_t lc = dn.getLhsContracting()[0], rc = dn.getRhsContracting()[0];
  transposedRhs =
      rc == rank - 1 && mxuReadsTransposed(op.getRhs().getType(), false);
  transposedLhs = lc == rank - 2 && mxuReadsTransposed(lhs, true);
  bool lhsOk = lc == rank - 1 || transposedLhs;
  if (rank == 2)
    return dn.getLhsBatch().empty() && lhsOk && (rc == 0 || transposedRhs);
  return rank == 3 && dn.getLhsBatch().size() == 1 &&
         dn.getLhsBatch()[0] == 0 && dn.getRhsBatch()[0] == 0 && lhsOk &&
         (rc == 1 || transposedRhs);
}

} // namespace

//===----------------------------------------------------------------------===//
// dot_general on the MXU
//===----------------------------------------------------------------------===//

namespace {

constexpr int kSemLhs = 0, kSemW = 1, kSemOut = 2, kSemEpilogue = 3;
constexpr int64_t kBf16Tile = kSublanes * kLanes * 2;
constexpr int64_t kF32Tile = kSublanes * kLanes * 4;
// Tiles per trip of the loops that stage operands for the MXU.
constexpr int64_t kSplitUnroll = 8;

/// The MXU kernel of one canonical dot_general, in stages: the plan
/// (panel size, VMEM), operand staging (`fetch`, `splitTiles`), the MXU
/// pass loop (`step`), and the write-back (`finishJob`, `writePiece`),
/// which applies an output fusion's epilogue when there is one.
class DotKernel {
public:
  DotKernel(Lowering &l, hlo::DotGeneralOp op) : l(l), op(op) {}
  LogicalResult run();

private:
  /// A job: (batch, M panel, column group).
  struct Job {
    Value batch, panel;
    SmallVector<Value, 8> cols; // the N tile of each group
  };

  LogicalResult plan();
  LogicalResult chooseBlocking();
  void choosePipelining();
  /// Cycles of one step on its busiest MXU (weight loads and row passes).
  int64_t stepCycles() const;
  /// The VMEM a blocking may take: 3/4 of the target's (the rest is left
  /// to the other VMEM buffers).
  int64_t blockingBudget() const {
    return l.spec.machine.vmem_bytes() * 3 / 4;
  }
  int64_t vmemNeed(int64_t rows, int64_t jobTiles) const;
  LogicalResult allocate();
  Job jobAt(Value j);
  Value minOf(Value x, int64_t y);
  Value colTile(Value n, int64_t j);
  void when(Value flag, function_ref<void()> body);
  int64_t slotTile(int64_t q, int64_t j) const {
    return (q * blocks + j) * partTiles;
  }
  void fetch(const Job &job, Value k, Value slot);
  void fetchStep(Value t);
  /// Piece p of a job's result as (row split r, block j, part q, group g).
  struct PieceIndex {
    int64_t r, j, q, g;
  };
  PieceIndex pieceIndex(int64_t p) const {
    return {p % rowSplit, (p / rowSplit) % blocks,
            (p / rowSplit / blocks) % parts, p / rowSplit / blocks / parts};
  }
  EpiloguePiece pieceAt(const Job &job, int64_t p);
  /// The byte offset in group g's C panels (slot `cslot`) of `piece`.
  Value panelOffset(const EpiloguePiece &piece, Value cslot, int64_t g);
  void fetchEpilogue(const Job &job);
  void writePiece(const Job &job, Value cslot, int64_t p);
  void splitTiles(const VBuf &stage, Value src, int64_t srcTile,
                  ArrayRef<VBuf> dst, Value dstOff, int64_t tiles,
                  function_ref<Value(Value, Value)> mask);
  void splitReg(Value x, ArrayRef<VBuf> dst, Value off);
  Value maskWeightRows(Value x, Value kLeft, Value t);
  void prepareTransposedWeights(Value slot, Value wOff, Value kLeft);
  void prepareTransposedLhs(Value slot, Value kLeft);
  Value prepareOperands(Value slot, Value k);
  void issueProducts(Value slot, Value wOff, Value cslot, bool first);
  void step(Value j, const Job &job, Value k, bool first, bool last,
            ArrayRef<int64_t> writes);
  LogicalResult finishJob(Value j, const Job &job);
  /// Whether products other than a0·b0 accumulate apart (cSmall).
  bool hasSmallProducts() const { return products.size() > 1; }

  Lowering &l;
  hlo::DotGeneralOp op;
  std::optional<EpilogueKernel> ep;
  RankedTensorType lhsType, rhsType, type;
  // The operands' element types (f32 or bf16 each) and their bf16 pieces.
  Type aElem, bElem;
  Geometry ga, gb, gc;
  int64_t nb = 1, K = 0, D = 128, blocks = 1, mt = 0, kt = 0, nt = 0;
  int64_t kSteps = 0, nTiles = 0, aPieces = 1, bPieces = 1, groups = 1;
  bool raggedK = false, outBf16 = false, prepA = false, prepB = false;
  // A transposed rhs is read as [N,K] blocks of 128x128 (`subBlocks` per
  // D-row weight block), `btColTiles` 128-wide K tiles per row.
  bool transB = false;
  int64_t subBlocks = 1, btColTiles = 0;
  // A transposed lhs [K,M] is read as one DMA per K block of 128 rows and
  // the M panel's `panelBlocks` 128-wide column tiles (`atColTiles` per
  // row); its panels are whole 128-row blocks (`rowAlign`).
  bool transA = false;
  int64_t atColTiles = 0, panelBlocks = 1, rowAlign = kSublanes;
  SmallVector<std::pair<int64_t, int64_t>> products;
  int64_t panelTiles = 1, mb = 8, parts = 1, partTiles = 1;
  // Slots of the epilogue's roots (1 or 2).
  int64_t epSlots = 2;
  // Operand slots (steps in flight: stepSlots - 1 prefetched ahead) and C
  // panel slots (jobs whose C is computed or still going out).
  int64_t stepSlots = 2, jobSlots = 2;
  // Whether a job's finish (the bf16 rounding, the small products) and C
  // write-back wait until the next job's first step has its operands
  // prepared and its products issued, so that the VPU prepares that step
  // instead of waiting for the MXU results (short steps without epilogue).
  bool deferFinish = false;
  MxuSplit split;
  int64_t aTile = 0, bTile = 0, cTile = 0, aBatch = 0, cBatch = 0;
  int64_t wRowTiles = 16, bBatch = 0;
  int64_t mPanels = 1, colGroups = 1, jobs = 1;
  int64_t lhsSlot = 0, cSlot = 0, cOutSlot = 0, lhsStageSlot = 0,
          wStageSlot = 0;
  int64_t kWeightBytes = 0;
  int64_t rowSplit = 1, pieces = 1, pieceTiles = 1;
  Value asrc, bsrc, out;
  SmallVector<VBuf> lhs, wStage, cp, cSmall, cOut;
  SmallVector<SmallVector<VBuf>> w;
  VBuf lhsStage;
};

/// Shapes, MXU tiling, the blocking (`chooseBlocking`) and the jobs.
LogicalResult DotKernel::plan() {
  lhsType = cast<RankedTensorType>(op.getLhs().getType());
  rhsType = cast<RankedTensorType>(op.getRhs().getType());
  type = cast<RankedTensorType>(op.getType());
  if (!isCanonicalDot(op, transA, transB))
    return unsupported(op, "other than [M,K] x [K,N] or [B,M,K] x [B,K,N] "
                           "(tpuc-decompose-dots makes that form)");
  aElem = lhsType.getElementType(), bElem = rhsType.getElementType();
  Type outElem = type.getElementType();
  auto isMxuFloat = [](Type t) { return t.isF32() || t.isBF16(); };
  if (!isMxuFloat(aElem) || !isMxuFloat(bElem))
    return unsupported(op, "with integer operands");
  if (!outElem.isF32() && !outElem.isBF16())
    return unsupported(op, "with an integer result");

  int64_t rank = lhsType.getRank();
  nb = rank == 3 ? lhsType.getDimSize(0) : 1;
  K = lhsType.getDimSize(transA ? rank - 2 : rank - 1);
  ga = geometryOf(lhsType), gb = geometryOf(rhsType), gc = geometryOf(type);
  // kt and nt count 128-wide tiles of K and N; a D x D MXU takes D/128
  // (`blocks`) of them at a time: kSteps steps along K, nTiles weight
  // tiles along N.
  D = l.mxuDim(), blocks = l.mxuBlocks();
  mt = transA ? gc.rowTiles : ga.rowTiles;
  kt = transA ? ceilDiv(K, kLanes) : ga.colTiles;
  atColTiles = ga.colTiles, rowAlign = transA ? kLanes : kSublanes;
  nt = transB ? ceilDiv(gb.rows, kLanes) : gb.colTiles;
  subBlocks = D / kLanes, btColTiles = gb.colTiles;
  kSteps = ceilDiv(K, D), nTiles = ceilDiv(nt, blocks);
  raggedK = K % D != 0;
  outBf16 = outElem.isBF16();
  // f32 operands are split into bf16 pieces on the VPU (one piece is XLA's
  // DEFAULT rounding); bf16 operands are exact in one piece. Each operand
  // on its own: a bf16 activation times an f32 weight rounds the weight
  // as the converted copy mixed_bfloat16 would otherwise write.
  int64_t splits = bf16PiecesFor(op.getPrecisionConfig(), l.dotPrecision);
  aPieces = aElem.isF32() ? splits : 1;
  bPieces = bElem.isF32() ? splits : 1;
  products = productsOf(splits, aPieces, bPieces);
  // Operands the MXU cannot read as they are go through the VPU: f32 ones
  // are split, transposed ones transposed, and a ragged K is zeroed past
  // its end on both sides.
  prepA = !aElem.isBF16() || raggedK || transA;
  prepB = !bElem.isBF16() || raggedK || transB;
  kWeightBytes = D * D * 2;
  aTile = ga.tileBytes(), bTile = gb.tileBytes(), cTile = gc.tileBytes();
  cBatch = mt * nt * cTile;
  // B as the kernel reads it: kSteps whole D-row weight tiles per batch,
  // or a transposed B as it is.
  wRowTiles = D / kSublanes;
  bBatch = transB ? gb.rowTiles * btColTiles * bTile
                  : kSteps * wRowTiles * nt * bTile;
  aBatch = transA ? ga.rowTiles * atColTiles * aTile : mt * kt * aTile;

  if (failed(EpilogueKernel::take(l, op.getResult(), ep)))
    return failure();
  // C's panels are kept by job until their pieces are written (the C
  // write-back needs that anyway): an f32 root is written from them.
  if (ep)
    ep->placeRootInPanels();
  // The epilogue's roots in one slot leave room for a wider C block; they
  // keep two (written while the next job computes) when the blocking
  // chosen with one fits with two.
  epSlots = ep ? 1 : 2;
  if (failed(chooseBlocking()))
    return failure();
  if (ep && vmemNeed(mb, groups) <= blockingBudget())
    epSlots = 2;
  split = l.splitForMxus(groups, mb, rowAlign);
  parts = split.parts, partTiles = panelTiles / parts;
  panelBlocks = mb / kLanes;

  // Jobs: (batch, M panel, column group) in that nesting, flattened so
  // that the last step of a job can prefetch the next job's first one.
  mPanels = mt / panelTiles;
  colGroups = ceilDiv(nTiles, groups);
  jobs = nb * mPanels * colGroups;
  choosePipelining();
  // The C write-back of a job goes out in `pieces` DMAs, one per (group,
  // part, block) or, with few of those, rows of them, spread over the steps
  // of the next job so that it shares the DMA engine with the LHS stream
  // instead of stalling the MXUs (a lone job writes whole panels).
  int64_t perRowSplit = groups * parts * blocks;
  rowSplit = jobs > 1 ? largestDivisorAtMost(
                            partTiles,
                            std::clamp<int64_t>(kSteps / perRowSplit, 1, 4))
                      : 1;
  pieces = perRowSplit * rowSplit, pieceTiles = partTiles / rowSplit;
  return success();
}

/// The blocked-matmul choice: a job keeps a C block of bm x bn in VMEM
/// (bm = the M panel's rows, bn = `groups` N tiles) over the whole K while
/// the LHS panel's and the weight tiles' K steps stream through it, so the
/// kernel reads A once per column group and B once per M panel:
/// colGroups * |A| + mPanels * |B| bytes. Of the pairs whose VMEM fits in
/// 3/4 of the target's (the rest is left to the other VMEM buffers) and
/// that give the MXUs no more work than one N tile per MXU at a time would
/// (a last column group of fewer N tiles recomputes the last one), it
/// takes, of those within 1% of the shortest modeled time (the longer of
/// the MXU and HBM streams plus the exposed first fetch and last
/// write-back: a larger C block writes more at the end), the one with the
/// least traffic; at equal traffic the fewer N tiles, i.e. the longer LHS
/// streams.
LogicalResult DotKernel::chooseBlocking() {
  int64_t vmemBytes = l.spec.machine.vmem_bytes(), budget = blockingBudget();
  int64_t mxus = std::max<int64_t>(l.spec.machine.mxu_count(), 1);
  // The largest M panel (row tiles, a divisor of mt) that fits with g N
  // tiles per job, or 0.
  int64_t align = rowAlign / kSublanes;
  auto panelFor = [&](int64_t g) -> int64_t {
    for (int64_t d = std::min<int64_t>(mt, 1024); d >= 1; --d)
      if (mt % d == 0 && d % align == 0 &&
          vmemNeed(d * kSublanes, g) <= budget)
        return d;
    return 0;
  };
  // MXU row-passes per M row of the whole dot: every column group's busiest
  // MXU runs ceil(g * parts / mxus) tasks of rows / parts rows.
  auto mxuWork = [&](int64_t g, int64_t d) {
    MxuSplit s = l.splitForMxus(g, d * kSublanes, rowAlign);
    return static_cast<double>(ceilDiv(nTiles, g) *
                               ceilDiv(g * s.parts, s.mxus)) /
           s.parts;
  };
  int64_t fewest = std::min(mxus, nTiles);
  groups = fewest, panelTiles = panelFor(fewest);
  if (panelTiles == 0) {
    // One row tile past the budget still runs when it fits at all.
    panelTiles = align, mb = rowAlign;
    if (vmemNeed(mb, groups) > vmemBytes)
      return op.emitError() << "the kernel for 'hlo.dot_general' needs "
                            << vmemNeed(mb, groups) << " bytes of VMEM but "
                            << l.spec.machine.name() << " has " << vmemBytes;
    return success();
  }
  double maxWork = mxuWork(groups, panelTiles);
  // The modeled time of a blocking in cycles: the MXU stream or the HBM
  // stream, whichever is longer, plus what neither hides: the first step's
  // fetch and the last job's C write-back.
  const exe::Target &m = l.spec.machine;
  double bytesPerCycle =
      m.clock_hz() > 0 && m.hbm_bytes_per_second() > 0
          ? static_cast<double>(m.hbm_bytes_per_second()) / m.clock_hz()
          : 1.0;
  auto traffic = [&](int64_t g, int64_t d) {
    return nb * (ceilDiv(nTiles, g) * aBatch + mt / d * bBatch);
  };
  auto cycles = [&](int64_t g, int64_t d) {
    double mxu = mxuWork(g, d) * mt * kSublanes * kSteps * nb *
                 static_cast<double>(products.size());
    int64_t exposed = d * blocks * aTile + g * blocks * wRowTiles * bTile +
                      d * g * blocks * cTile;
    return std::max(mxu, traffic(g, d) / bytesPerCycle) +
           exposed / bytesPerCycle;
  };
  struct Blocking {
    int64_t g, d;
    double cycles;
    int64_t traffic;
  };
  SmallVector<Blocking> fits{{groups, panelTiles, cycles(groups, panelTiles),
                              traffic(groups, panelTiles)}};
  double fastest = fits.front().cycles;
  for (int64_t g = fewest + 1; g <= nTiles; ++g) {
    int64_t d = panelFor(g);
    if (d == 0)
      break; // more N tiles only shrink the panel further
    if (mxuWork(g, d) > maxWork)
      continue;
    fits.push_back({g, d, cycles(g, d), traffic(g, d)});
    fastest = std::min(fastest, fits.back().cycles);
  }
  // The model leaves out the DMAs' per-transfer costs, which make a
  // seemingly MXU-bound kernel wait for its operands: of the blockings
  // within 1% of the fastest, the least traffic.
  const Blocking *pick = nullptr;
  for (const Blocking &b : fits)
    if (b.cycles <= fastest * 1.01 && (!pick || b.traffic < pick->traffic))
      pick = &b;
  groups = pick->g, panelTiles = pick->d;
  mb = panelTiles * kSublanes;
  return success();
}

int64_t DotKernel::stepCycles() const {
  return ceilDiv(groups * split.parts, split.mxus) * (D + split.partRows) *
         static_cast<int64_t>(products.size());
}

/// How far ahead the operands stream. With one step prefetched, a step
/// starts a DMA latency after the previous one issued its prefetch, so
/// steps shorter than that latency (12 heads of [128,64] x [64,128]: 192
/// MXU cycles a step against 500) wait on every transfer: those prefetch
/// as many steps ahead as cover the latency, the MXU drain and the step's
/// transfer (at most 4), and C keeps as many job slots as cover a job's
/// write-back (at most 6; the write of job j goes out during job j+1 and
/// is waited for at the end of job j + jobSlots - 1). Longer steps keep two
/// slots of each (the code is then the double-buffered one). The extra
/// slots must fit the blocking's budget.
void DotKernel::choosePipelining() {
  const exe::Target &m = l.spec.machine;
  double bytesPerCycle =
      m.clock_hz() > 0 && m.hbm_bytes_per_second() > 0
          ? static_cast<double>(m.hbm_bytes_per_second()) / m.clock_hz()
          : 1.0;
  int64_t stepBytes = mb * blocks * kLanes * ga.elemBytes +
                      groups * D * D * gb.elemBytes;
  int64_t cycles = std::max<int64_t>(stepCycles(), 1);
  int64_t cover = static_cast<int64_t>(m.dma_latency_cycles()) + 2 * D +
                  static_cast<int64_t>(stepBytes / bytesPerCycle);
  if (cycles >= static_cast<int64_t>(m.dma_latency_cycles()))
    return;
  int64_t ahead = std::clamp<int64_t>(ceilDiv(cover, cycles), 1, 4);
  ahead = std::min(ahead, std::max<int64_t>(jobs * kSteps - 1, 1));
  // A job's C goes out once its last results leave the MXU (2D cycles
  // after its last rows went in) and the VPU finished it, and is waited
  // for jobSlots - 2 jobs later: as many slots as cover that.
  int64_t cBytes = mb * groups * D * (outBf16 ? 2 : 4);
  int64_t writeCover = static_cast<int64_t>(m.dma_latency_cycles()) + 2 * D +
                       static_cast<int64_t>(cBytes / bytesPerCycle);
  int64_t cSlots =
      std::clamp<int64_t>(2 + ceilDiv(writeCover, cycles * kSteps), 2, 6);
  cSlots = std::min(cSlots, std::max<int64_t>(jobs, 2));
  int64_t budget = blockingBudget();
  for (; ahead > 1; --ahead) {
    stepSlots = ahead + 1;
    jobSlots = ep ? 2 : cSlots;
    deferFinish = !ep;
    if (vmemNeed(mb, groups) <= budget)
      return;
  }
  deferFinish = false;
  stepSlots = 2, jobSlots = 2;
}

/// VMEM for M panels of `rows` rows and `jobTiles` N tiles per job: LHS and
/// weight pieces (and their staging) in `stepSlots` slots by step, C blocks
/// in `jobSlots` by job, and the epilogue.
int64_t DotKernel::vmemNeed(int64_t rows, int64_t jobTiles) const {
  int64_t lhsBytes = stepSlots * (aPieces * rows * D * 2 +
                                  (prepA ? rows * D * ga.elemBytes : 0));
  int64_t wBytes = jobTiles * stepSlots *
                   (bPieces * kWeightBytes + (prepB ? D * D * gb.elemBytes : 0));
  int64_t cpBytes = jobTiles * jobSlots * rows * D *
                    (4 + (hasSmallProducts() ? 4 : 0) + (outBf16 && !ep ? 2 : 0));
  int64_t epBytes =
      ep ? ep->vmemBytes(jobTiles * rows / kSublanes * blocks, epSlots) : 0;
  return lhsBytes + wBytes + cpBytes + epBytes;
}

LogicalResult DotKernel::allocate() {
  FailureOr<Value> am = l.memOf(op.getLhs()), bm = l.memOf(op.getRhs());
  if (failed(am) || failed(bm))
    return failure();
  // With an epilogue the kernel writes the epilogue's roots instead.
  if (!ep) {
    out = l.allocHbm(type, op.getLoc());
    l.hbm[op.getResult()] = out;
  }
  // With a ragged K, B's last weight tile would read past its buffer: copy
  // B into one padded to whole D-row tiles (the rows past K are masked). A
  // transposed operand reads whole 128x128 blocks (past K's last one with
  // D = 256, the last again: the mask zeroes it), which stay inside.
  asrc = *am, bsrc = *bm;
  if (raggedK && !transB) {
    int64_t rank = rhsType.getRank();
    SmallVector<int64_t> shape(rhsType.getShape());
    shape[rank - 2] = kSteps * D;
    bsrc = l.allocHbm(rhsType.clone(shape), op.getLoc());
    int64_t srcBatch = gb.rowTiles * nt * bTile;
    l.dma(*bm, l.c(0), bsrc, l.c(0), nb, srcBatch, srcBatch, bBatch, 3);
    l.wait(3, 1);
  }

  // A slot of an MXU operand is [parts][blocks][rows of a part][128] (lane
  // blocks, each part's blocks together as MXU_MATMUL reads them); a
  // weight slot is [blocks][D][128].
  Type bf16 = l.b.getBF16Type(), f32 = l.b.getF32Type();
  lhsSlot = mb * D * 2, cSlot = mb * D * 4, cOutSlot = mb * D * 2;
  lhsStageSlot = mb * D * ga.elemBytes, wStageSlot = D * D * gb.elemBytes;
  for (int64_t s = 0; s < aPieces; ++s)
    lhs.push_back(l.vmem(bf16, stepSlots * lhsSlot));
  lhsStage = prepA ? l.vmem(aElem, stepSlots * lhsStageSlot) : VBuf();
  w.resize(groups);
  for (int64_t g = 0; g < groups; ++g) {
    for (int64_t s = 0; s < bPieces; ++s)
      w[g].push_back(l.vmem(bf16, stepSlots * kWeightBytes));
    wStage.push_back(prepB ? l.vmem(bElem, stepSlots * wStageSlot) : VBuf());
  }
  // With split operands the small products accumulate apart from the
  // large one (XLA sums separate dots): their rounding errors stay small
  // and the result is as close to f32 as one f32 accumulation.
  for (int64_t g = 0; g < groups; ++g) {
    cp.push_back(l.vmem(f32, jobSlots * cSlot));
    if (hasSmallProducts())
      cSmall.push_back(l.vmem(f32, jobSlots * cSlot));
    if (outBf16 && !ep)
      cOut.push_back(l.vmem(bf16, jobSlots * cOutSlot));
  }
  return ep ? ep->begin(groups * panelTiles * blocks, epSlots) : success();
}

Value DotKernel::minOf(Value x, int64_t y) {
  if (std::optional<int64_t> cx = l.constant(x))
    return l.c(std::min(*cx, y));
  return arith::MinSIOp::create(l.b, l.loc, x, l.c(y));
}

/// Column group `np` computes N tiles groups*np .. groups*np+groups-1;
/// when the groups do not divide the N tiles, the last group's extra MXUs
/// recompute the last N tile (free in time, and it keeps every job the
/// same shape). With D = 256 and an odd number of 128-wide column tiles,
/// the last N tile's second block likewise recomputes column tile nt - 1:
/// identical values written to the same place.
DotKernel::Job DotKernel::jobAt(Value j) {
  auto remOf = [&](Value x, int64_t y) {
    return y == 1 ? l.c(0) : l.rem(x, y);
  };
  Job job;
  Value t = l.div(j, colGroups);
  Value np = remOf(j, colGroups);
  job.panel = remOf(t, mPanels);
  job.batch = l.div(t, mPanels);
  for (int64_t g = 0; g < groups; ++g) {
    Value n = l.add(l.mul(np, groups), g);
    if (nTiles % groups != 0 && g > 0)
      n = minOf(n, nTiles - 1);
    job.cols.push_back(n);
  }
  return job;
}

/// The 128-wide column tile of block j of N tile `n` (of B and C).
Value DotKernel::colTile(Value n, int64_t j) {
  Value col = l.add(l.mul(n, blocks), j);
  return nt % blocks != 0 && j > 0 ? minOf(col, nt - 1) : col;
}

/// Runs `body` when `flag` (a scalar) is non-zero. The body must compute
/// its scalars from the loop's induction variable and constants: the
/// serializer does not keep other scalars defined before a tpu.if alive
/// through it.
void DotKernel::when(Value flag, function_ref<void()> body) {
  if (std::optional<int64_t> cf = l.constant(flag)) {
    if (*cf != 0)
      body();
    return;
  }
  auto ifOp = tpu::IfOp::create(l.b, l.loc, flag);
  OpBuilder::InsertionGuard guard(l.b);
  l.b.setInsertionPoint(ifOp.getThenBlock()->getTerminator());
  body();
}

/// Issues the DMAs of step k of `job` (LHS panel k, one per part and
/// block; weight tile (k, n_g) per group, one per block) into A/B slot
/// `slot`. Past K's last column tile the LHS reads that tile again: the
/// ragged-K mask zeroes those lanes.
void DotKernel::fetch(const Job &job, Value k, Value slot) {
  const VBuf &ad = prepA ? lhsStage : lhs[0];
  int64_t adSlot = prepA ? lhsStageSlot : lhsSlot;
  // A transposed A: block j of step k is A^T's 16 row tiles of K block
  // k*blocks + j and the panel's column tiles, staged as [blocks][16 row
  // tiles][panelBlocks column tiles].
  int64_t blockRows = kLanes / kSublanes;
  for (int64_t j = 0; transA && j < blocks; ++j) {
    Value kblock = l.add(l.mul(k, blocks), j);
    if (kt % blocks != 0 && j > 0)
      kblock = minOf(kblock, kt - 1);
    Value aOff = l.add(
        l.add(l.mul(job.batch, aBatch),
              l.mul(kblock, blockRows * atColTiles * aTile)),
        l.mul(job.panel, panelBlocks * aTile));
    l.dma(asrc, aOff, ad.arena,
          l.add(l.mul(slot, adSlot),
                ad.offset + j * blockRows * panelBlocks * aTile),
          blockRows, panelBlocks * aTile, atColTiles * aTile,
          panelBlocks * aTile, kSemLhs);
  }
  for (int64_t j = 0; !transA && j < blocks; ++j) {
    Value kcol = l.add(l.mul(k, blocks), j);
    if (kt % blocks != 0 && j > 0)
      kcol = minOf(kcol, kt - 1);
    for (int64_t q = 0; q < parts; ++q) {
      Value aOff = l.add(l.add(l.mul(job.batch, aBatch),
                               l.mul(job.panel, panelTiles * kt * aTile)),
                         l.add(l.mul(kcol, aTile), q * partTiles * kt * aTile));
      l.dma(asrc, aOff, ad.arena,
            l.add(l.mul(slot, adSlot), ad.offset + slotTile(q, j) * aTile),
            partTiles, aTile, kt * aTile, aTile, kSemLhs);
    }
  }
  for (int64_t g = 0; g < groups; ++g) {
    const VBuf &wd = prepB ? wStage[g] : w[g][0];
    int64_t wdSlot = prepB ? wStageSlot : kWeightBytes;
    if (transB) {
      // Block j of the weight tile is B[kD..kD+D, column tile c] = the
      // transposed 128x128 blocks Bt[c, k*subBlocks + h]; past K's last
      // column tile the block is read again (the mask zeroes its rows).
      for (int64_t j = 0; j < blocks; ++j)
        for (int64_t h = 0; h < subBlocks; ++h) {
          Value kcol = l.add(l.mul(k, subBlocks), h);
          if (btColTiles % subBlocks != 0 && h > 0)
            kcol = minOf(kcol, btColTiles - 1);
          int64_t blockRows = kLanes / kSublanes;
          Value bOff = l.add(
              l.add(l.mul(job.batch, bBatch),
                    l.mul(colTile(job.cols[g], j),
                          blockRows * btColTiles * bTile)),
              l.mul(kcol, bTile));
          l.dma(bsrc, bOff, wd.arena,
                l.add(l.mul(slot, wdSlot),
                      wd.offset + (j * wRowTiles + h * blockRows) * bTile),
                blockRows, bTile, btColTiles * bTile, bTile, kSemW);
        }
      continue;
    }
    for (int64_t j = 0; j < blocks; ++j) {
      Value bOff = l.add(
          l.add(l.mul(job.batch, bBatch), l.mul(k, wRowTiles * nt * bTile)),
          l.mul(colTile(job.cols[g], j), bTile));
      l.dma(bsrc, bOff, wd.arena,
            l.add(l.mul(slot, wdSlot), wd.offset + j * wRowTiles * bTile),
            wRowTiles, bTile, nt * bTile, bTile, kSemW);
    }
  }
}

/// Issues the DMAs of global step `t` (job t / kSteps, step t % kSteps)
/// into its slot, when the kernel has that step.
void DotKernel::fetchStep(Value t) {
  int64_t total = jobs * kSteps;
  when(l.sub(l.c(total), minOf(t, total)), [&] {
    fetch(jobAt(l.div(t, kSteps)), l.rem(t, kSteps), l.rem(t, stepSlots));
  });
}

/// Piece p of a job's result: (group, part, block, row split) -> tiles of
/// one column tile, `pieceTiles` rows apart by nt tiles.
EpiloguePiece DotKernel::pieceAt(const Job &job, int64_t p) {
  auto [r, j, q, g] = pieceIndex(p);
  int64_t rowTile = q * partTiles + r * pieceTiles;
  EpiloguePiece piece;
  piece.col = colTile(job.cols[g], j);
  piece.outTile = l.add(
      l.mul(l.add(l.add(l.mul(job.batch, mt), l.mul(job.panel, panelTiles)),
                  rowTile),
            nt),
      piece.col);
  piece.stageTile =
      l.c(g * panelTiles * blocks + slotTile(q, j) + r * pieceTiles);
  piece.tiles = pieceTiles;
  piece.stride = nt;
  return piece;
}

/// The epilogue's same-shape inputs of a job, fetched while it computes.
void DotKernel::fetchEpilogue(const Job &job) {
  for (int64_t p = 0; p < pieces; ++p)
    ep->fetch(pieceAt(job, p), kSemEpilogue);
}

Value DotKernel::panelOffset(const EpiloguePiece &piece, Value cslot,
                             int64_t g) {
  int64_t first = g * panelTiles * blocks;
  return l.add(l.mul(cslot, cSlot),
               l.mul(l.sub(piece.stageTile, l.c(first)), kF32Tile));
}

void DotKernel::writePiece(const Job &job, Value cslot, int64_t p) {
  if (ep) {
    EpiloguePiece piece = pieceAt(job, p);
    int64_t g = pieceIndex(p).g;
    return ep->write(piece, epSlots == 1 ? l.c(0) : cslot, kSemOut, cp[g],
                     panelOffset(piece, cslot, g));
  }
  auto [r, j, q, g] = pieceIndex(p);
  const VBuf &src = outBf16 ? cOut[g] : cp[g];
  int64_t srcSlot = outBf16 ? cOutSlot : cSlot;
  int64_t rowTile = q * partTiles + r * pieceTiles;
  Value cOff =
      l.add(l.add(l.mul(job.batch, cBatch),
                  l.mul(job.panel, panelTiles * nt * cTile)),
            l.add(l.mul(colTile(job.cols[g], j), cTile), rowTile * nt * cTile));
  l.dma(src.arena,
        l.add(l.mul(cslot, srcSlot),
              src.offset + (slotTile(q, j) + r * pieceTiles) * cTile),
        out, cOff, pieceTiles, cTile, cTile, nt * cTile, kSemOut);
}

/// Splits f32 rows (or masks a ragged K of bf16 ones) from `stage` into
/// the bf16 pieces `dst`: x0 = bf16(x), x1 = bf16(x - x0), x2 = x - x0 - x1
/// (as many as `dst` holds).
void DotKernel::splitTiles(const VBuf &stage, Value src, int64_t srcTile,
                           ArrayRef<VBuf> dst, Value dstOff, int64_t tiles,
                           function_ref<Value(Value, Value)> mask) {
  // Unrolled: the tiles of a trip are one base address and constant
  // offsets, so a tile is its loads, mask and stores (the kernel issues
  // one instruction a cycle: the loop's address arithmetic per tile was
  // as long as the tile's own work).
  l.unrolledLoop(tiles, kSplitUnroll, [&](Value first, int64_t count) {
    Value from = l.add(src, l.mul(first, srcTile));
    Value to = l.add(dstOff, l.mul(first, kBf16Tile));
    for (int64_t i = 0; i < count; ++i) {
      Value x = l.vload(stage, l.add(from, i * srcTile));
      if (mask)
        x = mask(x, l.add(first, i));
      splitReg(x, dst, l.add(to, i * kBf16Tile));
    }
  });
}

/// One vreg of f32 rows into its bf16 pieces at `off` of each of `dst`.
void DotKernel::splitReg(Value x, ArrayRef<VBuf> dst, Value off) {
  Type bf16 = l.b.getBF16Type();
  int64_t count = dst.size();
  for (int64_t s = 0; s < count; ++s) {
    Value piece = x;
    if (s + 1 < count) {
      Value rounded = tpu::VConvertOp::create(
          l.b, l.loc, VectorType::get({8, 128}, bf16), x);
      piece = tpu::VConvertOp::create(l.b, l.loc, l.f32Reg(), rounded);
      x = tpu::VSubOp::create(l.b, l.loc, x, piece);
    }
    l.vstore(piece, dst[s], off);
  }
}

/// Row tile `t` of a step's weight block with the rows past K zeroed
/// (`kLeft` of them remain at the step's first row).
Value DotKernel::maskWeightRows(Value x, Value kLeft, Value t) {
  if (!raggedK)
    return x;
  return l.maskBelow(x, tpu::VSublaneIdOp::create(l.b, l.loc, l.i32Reg()),
                     l.sub(kLeft, l.mul(t, kSublanes)), 0.0);
}

/// A transposed A's staged 128x128 blocks of slot `slot` through the XLU:
/// block (j, c) holds K columns 128j.. of panel rows 128c.., which go to
/// the part holding them (parts are whole 128-row blocks), masked past K
/// and split into the LHS pieces.
void DotKernel::prepareTransposedLhs(Value slot, Value kLeft) {
  int64_t blockRows = kLanes / kSublanes;
  Type reg = l.f32Reg();
  for (int64_t j = 0; j < blocks; ++j)
    l.loop(panelBlocks, [&](Value c) {
      Value src = l.add(l.mul(slot, lhsStageSlot),
                        l.add(l.mul(c, aTile),
                              j * blockRows * panelBlocks * aTile));
      SmallVector<Value> rows;
      for (int64_t r = 0; r < blockRows; ++r)
        rows.push_back(
            l.vload(lhsStage, l.add(src, r * panelBlocks * aTile)));
      auto tr = tpu::VTransposeOp::create(
          l.b, l.loc, SmallVector<Type>(blockRows, reg), rows);
      // Row tile 16c of the panel is row tile (16c mod partTiles) of part
      // 16c / partTiles.
      Value first = l.mul(c, blockRows);
      Value q = l.div(first, partTiles);
      Value inPart = l.sub(first, l.mul(q, partTiles));
      Value dst = l.add(
          l.mul(slot, lhsSlot),
          l.mul(l.add(l.mul(l.add(l.mul(q, blocks), j), partTiles), inPart),
                kBf16Tile));
      for (int64_t r = 0; r < blockRows; ++r) {
        Value x = tr.getResult(r);
        if (raggedK)
          x = l.maskBelow(x, tpu::VLaneIdOp::create(l.b, l.loc, l.i32Reg()),
                          l.sub(kLeft, l.c(j * kLanes)), 0.0);
        splitReg(x, lhs, l.add(dst, r * kBf16Tile));
      }
    });
}

/// A transposed B's staged 128x128 blocks of slot `slot` through the XLU
/// (16 vregs in, 16 out), masked and split into the weight pieces.
void DotKernel::prepareTransposedWeights(Value slot, Value wOff,
                                         Value kLeft) {
  int64_t blockRows = kLanes / kSublanes;
  Type reg = l.f32Reg();
  for (int64_t g = 0; g < groups; ++g)
    for (int64_t jb = 0; jb < blocks; ++jb)
      l.loop(subBlocks, [&](Value h) {
        Value first = l.add(l.mul(h, blockRows), jb * wRowTiles);
        Value src = l.add(l.mul(slot, wStageSlot), l.mul(first, bTile));
        SmallVector<Value> rows;
        for (int64_t r = 0; r < blockRows; ++r)
          rows.push_back(l.vload(wStage[g], l.add(src, r * bTile)));
        auto tr = tpu::VTransposeOp::create(
            l.b, l.loc, SmallVector<Type>(blockRows, reg), rows);
        Value dst = l.add(wOff, l.mul(first, kBf16Tile));
        for (int64_t r = 0; r < blockRows; ++r) {
          Value t = l.add(l.sub(first, l.c(jb * wRowTiles)), r);
          splitReg(maskWeightRows(tr.getResult(r), kLeft, t), w[g],
                   l.add(dst, r * kBf16Tile));
        }
      });
}

/// The step's operands in slot `slot` as the MXU reads them: split into
/// bf16 pieces, a ragged K zeroed (block j of the step holds K columns
/// k*D + 128j + lane, weight row k*D + 8t + sublane). Returns the step's
/// weight slot offset.
Value DotKernel::prepareOperands(Value slot, Value k) {
  Value kLeft = raggedK ? l.sub(l.c(K), l.mul(k, D)) : Value();
  if (transA) {
    prepareTransposedLhs(slot, kLeft);
  } else if (prepA) {
    auto prepare = [&](int64_t from, int64_t tiles, int64_t j) {
      // The lanes past K are the same in every row tile: one mask.
      Value keep, zero;
      if (raggedK) {
        keep = l.vcmp(tpu::CmpKind::lt,
                      tpu::VLaneIdOp::create(l.b, l.loc, l.i32Reg()),
                      l.splatIndex(l.sub(kLeft, l.c(j * kLanes))));
        zero = l.splatF32(0.0);
      }
      splitTiles(lhsStage, l.add(l.mul(slot, lhsStageSlot), from * aTile),
                 aTile, lhs, l.add(l.mul(slot, lhsSlot), from * kBf16Tile),
                 tiles, [&](Value x, Value) -> Value {
                   return raggedK ? l.vsel(keep, x, zero) : x;
                 });
    };
    if (!raggedK)
      prepare(0, panelTiles * blocks, 0);
    else
      for (int64_t q = 0; q < parts; ++q)
        for (int64_t jb = 0; jb < blocks; ++jb)
          prepare(slotTile(q, jb), partTiles, jb);
  }
  Value wOff = l.mul(slot, kWeightBytes);
  if (transB)
    prepareTransposedWeights(slot, wOff, kLeft);
  else if (prepB)
    for (int64_t g = 0; g < groups; ++g)
      for (int64_t jb = 0; jb < blocks; ++jb)
        splitTiles(wStage[g],
                   l.add(l.mul(slot, wStageSlot), jb * wRowTiles * bTile),
                   bTile, w[g], l.add(wOff, jb * wRowTiles * kBf16Tile),
                   wRowTiles, [&](Value x, Value t) {
                     return maskWeightRows(x, kLeft, t);
                   });
  return wOff;
}

/// The step's products, grouped by weight piece: one load per MXU and
/// piece; the main product accumulates into cp, the small ones into
/// cSmall.
void DotKernel::issueProducts(Value slot, Value wOff, Value cslot, bool first) {
  bool mainDone = false, smallDone = false;
  for (int64_t wi = bPieces - 1; wi >= 0; --wi) {
    SmallVector<std::function<Value(int64_t)>> lhsAts;
    SmallVector<std::function<Value(int64_t, int64_t)>> dstAts;
    SmallVector<std::tuple<int64_t, bool, bool>> picked; // i, main, acc
    for (auto [i, pwi] : products) {
      if (pwi != wi)
        continue;
      bool isMain = i == 0 && wi == 0;
      bool &done = isMain ? mainDone : smallDone;
      picked.push_back({i, isMain, !first || done});
      done = true;
    }
    SmallVector<MxuStream> streams;
    lhsAts.reserve(picked.size());
    dstAts.reserve(picked.size());
    for (auto [i, isMain, acc] : picked) {
      int64_t li = i;
      bool main = isMain;
      lhsAts.push_back([&, li](int64_t q) {
        return l.add(l.mul(slot, lhsSlot),
                     lhs[li].offset + slotTile(q, 0) * kBf16Tile);
      });
      dstAts.push_back([&, main](int64_t g, int64_t q) {
        const VBuf &dst = main ? cp[g] : cSmall[g];
        return l.add(l.mul(cslot, cSlot),
                     dst.offset + slotTile(q, 0) * kF32Tile);
      });
      streams.push_back({lhs[li].arena, lhsAts.back(),
                         (main ? cp : cSmall)[0].arena, dstAts.back(), acc});
    }
    l.issueMxu(
        split, w[0][wi].arena,
        [&](int64_t g) { return l.add(wOff, w[g][wi].offset); }, streams);
  }
}

/// Step k of job j: prefetch the next step's tiles (the next job's first
/// at the last step) into the other slot, whose step is done, then wait
/// for its own: the DMA engine always has the next step queued, so the
/// DMA latency is paid once, not per step (a [1,2048] x [2048,1000] weight
/// stream 35.5K -> 26.1K cycles). Then write pieces `writes` of the
/// previous job's C, prepare and multiply.
void DotKernel::step(Value j, const Job &job, Value k, bool first, bool last,
                     ArrayRef<int64_t> writes) {
  Value s = l.add(l.mul(j, kSteps), k);
  Value slot = l.rem(s, stepSlots);
  if (stepSlots > 2)
    fetchStep(l.add(s, stepSlots - 1));
  else if (!last)
    fetch(job, l.add(k, 1), l.rem(l.add(s, 1), 2));
  else
    when(l.sub(l.c(jobs - 1), j), [&] {
      Value nextJob = l.add(j, 1);
      fetch(jobAt(nextJob), l.c(0), l.rem(l.mul(nextJob, kSteps), 2));
    });
  l.wait(kSemLhs, transA ? blocks : parts * blocks);
  l.wait(kSemW, groups * blocks * (transB ? subBlocks : 1));
  if (!writes.empty())
    when(j, [&] {
      Value prev = l.sub(j, l.c(1));
      Job pj = jobAt(prev);
      for (int64_t p : writes)
        writePiece(pj, l.rem(prev, jobSlots), p);
    });
  Value cslot = l.rem(j, jobSlots);
  Value wOff = prepareOperands(slot, k);
  issueProducts(slot, wOff, cslot, first);
  if (deferFinish && first)
    when(j, [&] {
      Value prev = l.sub(j, l.c(1));
      Job pj = jobAt(prev);
      (void)finishJob(prev, pj); // cannot fail without an epilogue
      for (int64_t p = 0; p < pieces; ++p)
        writePiece(pj, l.rem(prev, jobSlots), p);
    });
}

/// After a job's last step: add the small products, then round a bf16
/// result into its own buffer or apply the epilogue, into the job's slot.
LogicalResult DotKernel::finishJob(Value j, const Job &job) {
  Value cslot = l.rem(j, jobSlots);
  if (outBf16 || hasSmallProducts())
    for (int64_t g = 0; g < groups; ++g)
      l.loop(panelTiles * blocks, [&](Value t) {
        Value off = l.add(l.mul(cslot, cSlot), l.mul(t, kF32Tile));
        Value x = l.vload(cp[g], off);
        if (hasSmallProducts())
          x = tpu::VAddOp::create(l.b, l.loc, x, l.vload(cSmall[g], off));
        if (outBf16 && !ep)
          l.vstore(x, cOut[g], l.add(l.mul(cslot, cOutSlot), l.mul(t, cTile)));
        else
          l.vstore(x, cp[g], off);
      });
  if (!ep)
    return success();
  l.wait(kSemEpilogue, pieces * ep->fetches());
  // With one slot, the previous job's roots went out during this job.
  if (epSlots == 1)
    when(j, [&] { l.wait(kSemOut, pieces * ep->writes()); });
  for (int64_t p = 0; p < pieces; ++p) {
    int64_t g = pieceIndex(p).g;
    EpiloguePiece piece = pieceAt(job, p);
    if (failed(ep->apply(piece, cp[g], panelOffset(piece, cslot, g),
                         epSlots == 1 ? l.c(0) : cslot)))
      return failure();
  }
  return success();
}

LogicalResult DotKernel::run() {
  if (failed(plan()) || failed(allocate()))
    return failure();
  // Steps 0..peel-1 are peeled (each writes some of the previous job's C
  // pieces), then the middle steps loop, then the last step is peeled.
  int64_t peel = std::min(pieces, kSteps);
  auto piecesAt = [&](int64_t k) {
    SmallVector<int64_t> ps;
    for (int64_t p = k * pieces / peel; p < (k + 1) * pieces / peel; ++p)
      ps.push_back(p);
    return ps;
  };
  int64_t writesPerPiece = ep ? ep->writes() : 1;
  for (int64_t t = 0; t < std::min(stepSlots - 1, jobs * kSteps); ++t)
    fetch(jobAt(l.c(t / kSteps)), l.c(t % kSteps), l.c(t));
  LogicalResult status = success();
  l.loop(jobs, [&](Value j) {
    Job job = jobAt(j);
    if (ep)
      fetchEpilogue(job);
    for (int64_t k = 0; k < peel; ++k)
      step(j, job, l.c(k), k == 0, k == kSteps - 1,
           deferFinish ? SmallVector<int64_t>() : piecesAt(k));
    if (kSteps - 1 > peel)
      l.loop(kSteps - 1 - peel,
             [&](Value i) { step(j, job, l.add(i, peel), false, false, {}); });
    if (kSteps > peel)
      step(j, job, l.c(kSteps - 1), false, true, {});
    if (!deferFinish && failed(finishJob(j, job)))
      status = failure();
    // Job j - jobSlots + 2's C went out during job j - jobSlots + 3 (the
    // previous job's during this one, with two slots); job j+1 overwrites
    // its panels (finishJob waits for an epilogue's roots).
    if (epSlots == 2)
      when(jobSlots == 2 ? j : l.sub(j, minOf(j, jobSlots - 2)),
           [&] { l.wait(kSemOut, pieces * writesPerPiece); });
  });
  if (failed(status))
    return failure();
  Value last = l.c(jobs - 1);
  Job lastJob = jobAt(last);
  if (deferFinish)
    (void)finishJob(last, lastJob);
  for (int64_t p = 0; p < pieces; ++p)
    writePiece(lastJob, l.rem(last, jobSlots), p);
  l.wait(kSemOut, std::min(jobs, jobSlots - 1) * pieces * writesPerPiece);
  return success();
}

//===----------------------------------------------------------------------===//
// Small batched dots on the VPU
//===----------------------------------------------------------------------===//

/// A batched dot of tiny matrices (`isVpuBatchedDot`) with the batch on the
/// lanes and sublanes: per block of 1024 batch elements, every element
/// (i, j) of every operand matrix arrives as one vreg (one DMA of 1024
/// element chunks, a batch pitch apart in HBM, contiguous in VMEM), and
/// each output vreg is sum_k x[i,k] * y[k,j] in k order from +0 (the
/// interpreter's order), stored in the result type (bf16: rounded once)
/// and written back by one DMA of element chunks. At DEFAULT precision f32
/// operands are first rounded to bf16 as the MXU's one pass rounds them;
/// at HIGH and HIGHEST the f32 results are bit-identical to the
/// interpreter's. Blocks are double-buffered: block b+1's operands and block
/// b-1's results move while block b computes.
class VpuDotKernel {
public:
  VpuDotKernel(Lowering &l, hlo::DotGeneralOp op) : l(l), op(op) {}
  LogicalResult run();

private:
  /// One rank-3 [B, rows, cols] array in HBM and its two VMEM slots (by
  /// block parity) of one vreg per matrix element (i, j), row-major.
  struct Side {
    Value hbm;
    Geometry g;
    int64_t pitch = 0;    // bytes between batch elements
    bool swapped = false; // (i, j) is stored as (j, i)
    int64_t cols = 0;     // j's extent
    VBuf buf;
    int64_t vreg = 0, slot = 0; // bytes between vregs, of one slot
  };
  Side side(Value hbm, RankedTensorType type, bool swapped, int64_t cols);
  /// The byte offset of (i, j) of batch element 0.
  int64_t elementOffset(const Side &s, int64_t i, int64_t j) const;
  /// The DMA of element (i, j) of block `blk` between HBM and its vreg.
  void move(const Side &s, Value blk, int64_t i, int64_t j, int64_t count,
            bool toVmem, int sem);
  Value vregOffset(const Side &s, Value blk, Value i, int64_t j) {
    return l.add(l.mul(l.rem(blk, 2), s.slot),
                 l.mul(l.add(l.mul(i, s.cols), j), s.vreg));
  }

  static constexpr int kSemIn = 0, kSemOut = 2;
  static constexpr int64_t kBlock = kSublanes * kLanes;
  Lowering &l;
  hlo::DotGeneralOp op;
  Side a, b, c;
  int64_t nb = 0, M = 0, K = 0, N = 0;
};

VpuDotKernel::Side VpuDotKernel::side(Value hbm, RankedTensorType type,
                                      bool swapped, int64_t cols) {
  Side s;
  s.hbm = hbm;
  s.g = geometryOf(type);
  s.pitch = s.g.rowTiles * s.g.colTiles * s.g.tileBytes();
  s.swapped = swapped;
  s.cols = cols;
  // A vreg per VMEM page even for bf16: DMAs into one page wait for each
  // other (the scoreboard), and every vreg has its own DMA.
  s.vreg = KernelBuilder::pages(kBlock * s.g.elemBytes);
  s.slot = KernelBuilder::pages(s.g.rows * s.g.cols * s.vreg);
  s.buf = l.vmem(type.getElementType(), 2 * s.slot);
  return s;
}

int64_t VpuDotKernel::elementOffset(const Side &s, int64_t i, int64_t j) const {
  int64_t r = s.swapped ? j : i, col = s.swapped ? i : j;
  return ((r / kSublanes) * s.g.colTiles + col / kLanes) * s.g.tileBytes() +
         ((r % kSublanes) * kLanes + col % kLanes) * s.g.elemBytes;
}

void VpuDotKernel::move(const Side &s, Value blk, int64_t i, int64_t j,
                        int64_t count, bool toVmem, int sem) {
  Value hbmOff = l.add(l.mul(blk, kBlock * s.pitch), elementOffset(s, i, j));
  Value vmemOff = l.add(vregOffset(s, blk, l.c(i), j), s.buf.offset);
  int64_t e = s.g.elemBytes;
  if (toVmem)
    l.dma(s.hbm, hbmOff, s.buf.arena, vmemOff, count, e, s.pitch, e, sem);
  else
    l.dma(s.buf.arena, vmemOff, s.hbm, hbmOff, count, e, e, s.pitch, sem);
}

LogicalResult VpuDotKernel::run() {
  hlo::DotDimensionNumbersAttr dn = op.getDotDimensionNumbers();
  auto lhsType = op.getLhs().getType(), rhsType = op.getRhs().getType();
  auto type = cast<RankedTensorType>(op.getType());
  if (lhsType.getRank() != 3 || rhsType.getRank() != 3 ||
      dn.getLhsBatch() != ArrayRef<int64_t>{0} ||
      dn.getRhsBatch() != ArrayRef<int64_t>{0} ||
      dn.getLhsContracting().size() != 1 || dn.getRhsContracting().size() != 1)
    return unsupported(op, "batched on the VPU other than [B,M,K] x [B,K,N] "
                           "(tpuc-decompose-dots makes that form)");
  int64_t lc = dn.getLhsContracting()[0], rc = dn.getRhsContracting()[0];
  nb = lhsType.getDimSize(0);
  M = lhsType.getDimSize(3 - lc), K = lhsType.getDimSize(lc);
  N = rhsType.getDimSize(3 - rc);
  FailureOr<Value> am = l.memOf(op.getLhs()), bm = l.memOf(op.getRhs());
  if (failed(am) || failed(bm))
    return failure();
  Value out = l.allocHbm(type, op.getLoc());
  l.hbm[op.getResult()] = out;
  // lhs (i, k), rhs (k, j), result (i, j).
  a = side(*am, lhsType, lc == 1, K);
  b = side(*bm, rhsType, rc == 2, N);
  c = side(out, type, false, N);

  int64_t blocks = ceilDiv(nb, kBlock), lastCount = nb - (blocks - 1) * kBlock;
  // The last block's lanes past the batch are read but never written back:
  // they must hold initialised values.
  if (lastCount != kBlock)
    for (const Side *s : {&a, &b})
      for (int64_t off = 0; off < 2 * s->slot; off += s->vreg)
        l.vstore(l.splatF32(0.0), s->buf, l.c(off));
  // Both result slots start free.
  tpu::SemSignalOp::create(l.b, l.loc, kSemOut, 2 * M * N);
  auto fetch = [&](Value blk, bool last) {
    int64_t count = last ? lastCount : kBlock;
    for (int64_t i = 0; i < M; ++i)
      for (int64_t k = 0; k < K; ++k)
        move(a, blk, i, k, count, true, kSemIn);
    for (int64_t k = 0; k < K; ++k)
      for (int64_t j = 0; j < N; ++j)
        move(b, blk, k, j, count, true, kSemIn);
  };
  // At DEFAULT precision f32 operands are rounded to bf16, as the MXU's
  // one bf16 pass rounds them (and as mixed_bfloat16's converts did, which
  // tpuc-split-convolution-precision leaves to the kernel); higher
  // precisions multiply the f32 values as they are.
  bool roundF32 = bf16PiecesFor(op.getPrecisionConfig(), l.dotPrecision) == 1;
  SmallVector<const Side *> rounded;
  if (roundF32 && lhsType.getElementType().isF32())
    rounded.push_back(&a);
  if (roundF32 && rhsType.getElementType().isF32())
    rounded.push_back(&b);
  auto compute = [&](Value blk, bool last) {
    l.wait(kSemIn, (M + N) * K);
    for (const Side *s : rounded)
      for (int64_t e = 0; e < s->g.rows * s->g.cols; ++e) {
        Value off = l.add(l.mul(l.rem(blk, 2), s->slot), e * s->vreg);
        l.vstore(l.roundToBf16(l.vload(s->buf, off)), s->buf, off);
      }
    // Block blk-2's results have left this slot.
    l.wait(kSemOut, M * N);
    l.loop(M, [&](Value i) {
      // Row i of the lhs stays in registers across the outputs of row i.
      SmallVector<Value, kVpuDotMaxDim> x;
      for (int64_t k = 0; k < K; ++k)
        x.push_back(l.vload(a.buf, vregOffset(a, blk, i, k)));
      for (int64_t j = 0; j < N; ++j) {
        Value acc = l.splatF32(0.0);
        for (int64_t k = 0; k < K; ++k) {
          Value y = l.vload(b.buf, vregOffset(b, blk, l.c(k), j));
          acc = tpu::VAddOp::create(l.b, l.loc, acc,
                                    tpu::VMulOp::create(l.b, l.loc, x[k], y));
        }
        l.vstore(acc, c.buf, vregOffset(c, blk, i, j));
      }
    });
    int64_t count = last ? lastCount : kBlock;
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j)
        move(c, blk, i, j, count, false, kSemOut);
  };
  if (blocks == 1) {
    fetch(l.c(0), true);
    compute(l.c(0), true);
  } else if (lastCount == kBlock) {
    l.pipeline(
        blocks, [&](Value blk) { fetch(blk, false); },
        [&](Value blk) { compute(blk, false); });
  } else {
    l.pipelineRagged(blocks, fetch, compute);
  }
  l.wait(kSemOut, 2 * M * N);
  return success();
}

} // namespace

LogicalResult Lowering::lowerDot(hlo::DotGeneralOp op) {
  if (isVpuBatchedDot(op))
    return VpuDotKernel(*this, op).run();
  return DotKernel(*this, op).run();
}

void populateDotPatterns(RewritePatternSet &patterns, Lowering &l) {
  l.addKernel(patterns, &Lowering::lowerDot);
}

} // namespace tpuc::hlotpu
