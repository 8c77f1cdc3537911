//===- Convolution.cpp - convolution on the MXU and the VPU -------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md
// ("convolution"). Three kernels, chosen from the dim_labels:
//
// * NHWC-like forward convolutions (features minor, the second spatial dim
//   second-minor, kernel `..io`) as an implicit GEMM on the MXU: the
//   weights become bf16 128x128 tiles resident in VMEM; a block of output
//   rows is computed from a zero-padded bf16 "halo" of the input rows it
//   reads, one matmul per (window position, input-feature block, output
//   tile) accumulating in f32. With stride 1 the LHS of a window position
//   is a contiguous run of halo rows; other strides gather it with
//   sublane-strided loads. im2col is never materialised. With few input
//   features the window positions of several kernel rows are packed into
//   one 128-lane LHS block, built by VMEM-to-VMEM DMAs from a compact
//   halo (the packed mode, where its cost estimate says it pays).
// * The weight gradient JAX emits (`f01b_i01o->01bf`) on the MXU: blocks
//   of 128 dy pixels are the weight tiles, the transposed x rows of those
//   pixels (`vtranspose`) the LHS, all output positions stacked in M.
// * Depthwise NCHW convolutions (`bf01_oi01->bf01`, feature_group_count =
//   input features) on the VPU: per (batch, channel) plane, a zero-padded
//   copy in VMEM and one multiply-add per window position and output
//   tile, with the shifted rows read by unaligned, sublane-strided loads;
//   planes up to 64 lanes wide two to a vreg (lane halves).
// * Depthwise NHWC convolutions (`b01f_01io->b01f`, kernel [kh, kw, 1, C])
//   on the VPU, channels on lanes: a ring of zero-padded input rows in
//   VMEM, per output tile one sublane-strided load and multiply-add per
//   window position.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Epilogue.h"
#include "passes/HloToTpu/Lowering.h"

using namespace mlir;

namespace tpuc::hlotpu {
namespace {

constexpr int kSemIn = 0, kSemW = 1, kSemOut = 2;
constexpr int64_t kF32Tile = kSublanes * kLanes * 4;
constexpr int64_t kBf16Tile = kSublanes * kLanes * 2;

SmallVector<int64_t> attrOr(std::optional<ArrayRef<int64_t>> a, int64_t n,
                            int64_t fill) {
  if (a)
    return SmallVector<int64_t>(a->begin(), a->end());
  return SmallVector<int64_t>(n, fill);
}

/// The window attributes of a 2-D convolution, defaults filled in.
struct Window {
  int64_t kh, kw; // kernel spatial sizes
  int64_t sh, sw; // strides
  int64_t dh, dw; // kernel (rhs) dilation
  int64_t pt, pb, pl, pr;
  bool revH = false, revW = false;
};

Window windowOf(hlo::ConvolutionOp op);

/// The operand and result types every kernel starts from.
struct ConvTypes {
  RankedTensorType lhs, rhs, out;
  Window win;
  Type inElem, outElem, wElem; // wElem: the kernel's (rhs), which
                                // mixed_bfloat16 may leave f32 (bf16 input)
  int64_t ib, ob, wb; // element bytes of the input, result and kernel
};

ConvTypes typesOf(hlo::ConvolutionOp op) {
  ConvTypes t;
  t.lhs = cast<RankedTensorType>(op.getLhs().getType());
  t.rhs = cast<RankedTensorType>(op.getRhs().getType());
  t.out = cast<RankedTensorType>(op.getType());
  t.win = windowOf(op);
  t.inElem = t.lhs.getElementType();
  t.outElem = t.out.getElementType();
  t.ib = elementBytes(t.inElem);
  t.ob = elementBytes(t.outElem);
  t.wElem = t.rhs.getElementType();
  t.wb = elementBytes(t.wElem);
  return t;
}

Window windowOf(hlo::ConvolutionOp op) {
  hlo::ConvDimensionNumbersAttr dn = op.getDimensionNumbers();
  auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
  SmallVector<int64_t> s = attrOr(op.getWindowStrides(), 2, 1);
  SmallVector<int64_t> p = attrOr(op.getPadding(), 4, 0);
  SmallVector<int64_t> d = attrOr(op.getRhsDilation(), 2, 1);
  Window w;
  w.kh = rhsType.getDimSize(dn.getKernelSpatial()[0]);
  w.kw = rhsType.getDimSize(dn.getKernelSpatial()[1]);
  w.sh = s[0];
  w.sw = s[1];
  w.dh = d[0];
  w.dw = d[1];
  w.pt = p[0];
  w.pb = p[1];
  w.pl = p[2];
  w.pr = p[3];
  if (auto rev = op.getWindowReversal()) {
    w.revH = (*rev)[0];
    w.revW = (*rev)[1];
  }
  return w;
}

} // namespace

//===----------------------------------------------------------------------===//
// Scalar helpers (clamping the halo rows)
//===----------------------------------------------------------------------===//

static Value smin(Lowering &l, Value x, int64_t y) {
  return arith::MinSIOp::create(l.b, l.loc, x, l.c(y));
}
static Value smax(Lowering &l, Value x, int64_t y) {
  return arith::MaxSIOp::create(l.b, l.loc, x, l.c(y));
}

/// 1 when input row `ih` is inside [0, h), else 0: min(ih + 1, h - ih)
/// clamped to [0, 1].
static Value insideInput(Lowering &l, Value ih, int64_t h) {
  return smax(
      l,
      smin(l,
           arith::MinSIOp::create(l.b, l.loc, l.add(ih, 1), l.sub(l.c(h), ih)),
           1),
      0);
}

/// Zeroes `bytes` (a multiple of 4 KiB) of `buf` (from byte `from` when
/// given): one vreg store per 4 KiB (f32) or 2 KiB (bf16), 8 stores per
/// loop iteration at constant offsets (the scalar unit issues one
/// instruction per cycle: a loop of single stores took three).
static void zeroFill(Lowering &l, const VBuf &buf, Type elem, int64_t bytes,
                     Value from = {}) {
  constexpr int64_t kUnroll = 8;
  int64_t step = kSublanes * kLanes * elementBytes(elem);
  int64_t stores = bytes / step, unroll = std::min(stores, kUnroll);
  Value zero = l.splatF32(0.0);
  auto run = [&](Value at, int64_t n) {
    for (int64_t k = 0; k < n; ++k)
      l.vstore(zero, buf, l.add(from ? l.add(from, at) : at, k * step));
  };
  if (!unroll)
    return;
  l.loop(stores / unroll,
         [&](Value i) { run(l.mul(i, unroll * step), unroll); });
  if (int64_t rest = stores % unroll)
    run(l.c((stores - rest) * step), rest);
}

static LogicalResult vmemError(Lowering &l, Operation *op, int64_t bytes) {
  return op->emitError() << "the kernel for 'hlo.convolution' needs " << bytes
                         << " bytes of VMEM but " << l.spec.machine.name()
                         << " has " << l.spec.machine.vmem_bytes();
}

/// The HBM buffers of the operands and a new one for the result; no
/// filter buffer for a kernel that takes a splat filter as an immediate.
struct ConvMems {
  Value lhs, rhs, out;
};

static FailureOr<ConvMems> memsOf(Lowering &l, hlo::ConvolutionOp op,
                                  bool withResult = true,
                                  bool withFilter = true) {
  FailureOr<Value> lhs = l.memOf(op.getLhs());
  FailureOr<Value> rhs = withFilter ? l.memOf(op.getRhs()) : Value();
  if (failed(lhs) || failed(rhs))
    return failure();
  if (!withResult) // an epilogue writes its roots instead
    return ConvMems{*lhs, *rhs, Value()};
  Value out = l.allocHbm(cast<RankedTensorType>(op.getType()), op.getLoc());
  l.hbm[op.getResult()] = out;
  return ConvMems{*lhs, *rhs, out};
}

static int64_t vmemBudget(Lowering &l) {
  return static_cast<int64_t>(l.spec.machine.vmem_bytes()) * 3 / 4;
}

/// Streams the `m` LHS rows at `lhsOff` through the MXUs once per output
/// tile t (weights at `weightOff(t)`), into f32 panel t (`m` rows, one
/// after the other). `split` (Lowering::splitForMxus) spreads the tiles and
/// row parts over every MXU; an LHS part and a panel part are the part's
/// rows in lane blocks. `panelOff`, when given, is added to the panels'
/// addresses (a panel slot chosen at run time).
static void matmulTiles(Lowering &l, const MxuSplit &split, int64_t m,
                        const VBuf &weights,
                        function_ref<Value(int64_t)> weightOff, const VBuf &lhs,
                        Value lhsOff, const VBuf &panels, bool accumulate,
                        Value panelOff = {}) {
  int64_t partBytes = split.partRows * l.mxuDim();
  auto lhsAt = [&](int64_t q) {
    return l.add(lhsOff, lhs.offset + q * partBytes * 2);
  };
  auto dstAt = [&](int64_t t, int64_t q) {
    Value at = l.c(panels.offset + t * m * l.mxuDim() * 4 + q * partBytes * 4);
    return panelOff ? l.add(panelOff, at) : at;
  };
  MxuStream stream{lhs.arena, lhsAt, panels.arena, dstAt, accumulate};
  l.issueMxu(
      split, weights.arena,
      [&](int64_t t) { return l.add(weightOff(t), weights.offset); }, stream);
}

/// The f32 panels as the result's element type: themselves for f32, a
/// rounded copy of their first `bytes` (from byte `from`, when given) in
/// `bf16Copy` for bf16.
static const VBuf &resultPanels(Lowering &l, const VBuf &panels,
                                const VBuf &bf16Copy, int64_t ob,
                                int64_t bytes, Value from = {}) {
  if (ob == 4)
    return panels;
  l.loop(bytes / kF32Tile, [&](Value t) {
    Value at = l.mul(t, kF32Tile);
    l.vstore(l.vload(panels, from ? l.add(from, at) : at), bf16Copy,
             l.mul(t, kBf16Tile));
  });
  return bf16Copy;
}

/// An output fusion's epilogue on f32 panels that are whole output column
/// tiles (panel ot: `rows` tile rows of column tile ot of a result with
/// `cols` column tiles), then its results written, one piece per column.
static LogicalResult applyPanelEpilogue(Lowering &l, EpilogueKernel &ep,
                                        const VBuf &panels, int64_t rows,
                                        int64_t cols) {
  SmallVector<EpiloguePiece> pieces;
  for (int64_t ot = 0; ot < cols; ++ot)
    pieces.push_back({l.c(ot * rows), l.c(ot), rows, cols, l.c(ot)});
  for (const EpiloguePiece &p : pieces)
    ep.fetch(p, kSemIn);
  l.wait(kSemIn, cols * ep.fetches());
  for (const EpiloguePiece &p : pieces) {
    if (failed(ep.apply(p, panels, l.mul(p.stageTile, kF32Tile), l.c(0))))
      return failure();
    ep.write(p, l.c(0), kSemOut);
  }
  l.wait(kSemOut, cols * ep.writes());
  return success();
}

//===----------------------------------------------------------------------===//
// Implicit GEMM on the MXU
//===----------------------------------------------------------------------===//

namespace {

/// The implicit-GEMM kernel of one forward NHWC-like convolution, in
/// stages: the plan (output tiles per group G, output rows per block R),
/// the weights (`prepareWeights`), the halo (`fillHalo`), the MXU pass loop
/// (`step`) and the write-back, which applies an output fusion's epilogue
/// when there is one.
class ConvMxuKernel {
public:
  ConvMxuKernel(Lowering &l, hlo::ConvolutionOp op)
      : l(l), op(op), dn(op.getDimensionNumbers()), ct(typesOf(op)),
        win(ct.win) {}
  LogicalResult run();

private:
  LogicalResult plan();
  int64_t haloRows(int64_t r) const {
    return (r - 1) * win.sh + (win.kh - 1) * win.dh + 1;
  }
  int64_t need(int64_t r, int64_t g) const;
  LogicalResult allocate();
  Value outerIndex(Value n, Value h, int64_t batchDim, int64_t nSize,
                   int64_t hSize);
  Value kernelOuter(Value kh, Value kw);
  Value outTileOf(Value og, int64_t g, int64_t j);
  void fetchWeights(Value og, Value kp, int64_t cb0, int64_t cb1,
                    Value parity = {});
  void convertWeights(Value kp, int64_t cb0, int64_t cb1, Value parity = {});
  void convertTapPairWeights(Value kp, Value slot);
  void prepareWeights(Value og);
  /// The weight DMAs of streamed step (kp, input D-block cbD).
  int64_t stepFetches(int64_t cbD) const {
    return tapCols * G * blocks *
           (std::min(Ct, (cbD + 1) * blocks) - cbD * blocks);
  }
  /// Weight stage slots the streamed schedule wants with g output tiles per
  /// group: enough steps in flight that the DMA engine has work queued for
  /// a DMA latency while the oldest step's completion arrives.
  int64_t streamSlots(int64_t g) const;
  /// A one-block convolution (batch 1, all output rows in one block): the
  /// weights stream step by step, across window positions, input blocks
  /// and output groups, wSlots - 1 steps ahead of the MXU work, which
  /// runs on each step right after its weights are converted.
  void streamedGroups(LogicalResult &status);
  /// `meanwhile` is emitted once the first output tile's DMAs are issued.
  void preparePackedWeights(Value og, function_ref<void()> meanwhile = {});
  /// `meanwhile` is emitted once the halo's DMAs are issued, before their
  /// wait. With `readyRows` (a one-block halo in pieces), `meanwhile` is
  /// emitted once the DMAs of the pieces holding the first `readyRows` rows
  /// are issued (the later pieces' DMAs queue behind its own), and only
  /// those pieces are filled: the others stay pending (fillHaloPiece).
  void fillHalo(Value n, Value oh0, function_ref<void()> meanwhile = {},
                int64_t readyRows = 0);
  /// Rows [from, to) of the stage rounded and masked into the halo.
  void fillHaloRows(Value ih0, int64_t from, int64_t to);
  /// Waits for the next pending halo piece, fills and pairs its rows.
  void fillHaloPiece();
  bool haloPending() const { return haloNext < haloEnds.size(); }
  /// Tap pairs: pairs the halo rows [from, to) (pixel i's lanes 64-127 =
  /// pixel i + dw's lanes 0-63); rows [from, to + 1) must be filled (the
  /// last row's pixels read the next row's first ones; past HR, the spare
  /// row's zeros).
  void pairHaloColumns(int64_t from, int64_t to);
  /// The packed halo of output rows [oh0, oh0 + R) of image n in halo (and
  /// f32 stage) slot `parity`: its DMAs (issueCompactHalo), then their wait
  /// and the rounding of f32 rows (finishCompactHalo).
  void issueCompactHalo(Value n, Value oh0, Value parity);
  void finishCompactHalo(Value parity);
  /// The bytes of a compact halo slot of `elemBytes` elements.
  int64_t compactSlot(int64_t elemBytes) const { return 2 * HR * Pe * elemBytes; }
  void step(Value s, bool first);
  /// The kernel rows of packed step st: [first, end).
  std::pair<int64_t, int64_t> packedRows(int64_t st) const {
    return {st * pk * blocks, std::min(win.kh, (st + 1) * pk * blocks)};
  }
  /// Packed LHS row of window position (kh, kw), feature c.
  int64_t packedRow(int64_t kh, int64_t kw, int64_t c) const {
    return (kh / pk) * kLanes + ((kh % pk) * win.kw + kw) * C + c;
  }
  int64_t packDmas(int64_t st) const;
  bool packingPays() const;
  /// The DMA waves of packed step st's LHS: one per (kernel row, first
  /// window column of a run), each over all output rows.
  SmallVector<std::pair<int64_t, int64_t>> packWaves(int64_t st) const;
  void packLhsWave(int64_t st, int64_t kh, int64_t kw0, Value haloOff,
                   Value lhsOff);
  void packLhs(int64_t st, Value haloOff, Value lhsOff);
  void packedSteps(Value lhsOff, Value panelOff);
  /// The packed blocks of every group, software-pipelined: halo, LHS and
  /// panels in two slots.
  void packedBlocks(LogicalResult &status);
  /// The epilogue's same-shape operands of a block, on kSemEpilogue;
  /// returns the number of pieces (DMAs per operand).
  int64_t fetchEpilogueInputs(Value n, Value oh0, Value og);
  /// The pieces of output row `prow` of gather part q (one per output
  /// tile and block).
  SmallVector<EpiloguePiece> rowPieces(Value n, Value oh0, Value og,
                                       int64_t q, Value prow);
  void forEachPiece(Value n, Value oh0, Value og,
                    function_ref<void(const EpiloguePiece &)> fn);
  /// The epilogue and write-back of the rows [rowBegin, rowBegin +
  /// rowCount), then (`drain`) the wait for its writeBackDmas().
  LogicalResult writeBack(Value n, Value oh0, Value og, int64_t fetched,
                          Value panelOff = {}, bool drain = true);
  int64_t writeBackDmas() const {
    return rowCount * G * blocks * (ep ? ep->writes() : 1);
  }

  Lowering &l;
  hlo::ConvolutionOp op;
  hlo::ConvDimensionNumbersAttr dn;
  ConvTypes ct;
  const Window &win;
  std::optional<EpilogueKernel> ep;
  int64_t N = 0, H = 0, W = 0, C = 0, O = 0, OH = 0, OW = 0;
  int64_t D = 128, blocks = 1, Wt = 0, Ct = 0, It = 0, Ot = 0, CtD = 0,
          OtD = 0, CtPad = 0, OWt = 0, OWp = 0;
  int64_t inTile = 0, outTile = 0, wTile = 0, kpos = 0, kerTile = 0;
  int64_t Wp = 0, pitch = 0, spare = 0;
  bool direct = false;
  /// A 1x1, stride-1, unpadded convolution of a bf16 input whose features
  /// fill whole lane blocks, halo rows as wide as the input's tile rows:
  /// the halo is the input's tiles in [C block][row][W] order, so strided
  /// DMAs fetch it from HBM with no VPU copy. (The tile padding rows of a
  /// ragged W come in as they are: in a 1x1 window they only reach the
  /// output columns past OW, which are computed and dropped.)
  bool haloByDma = false;
  /// Window columns per MXU step of a direct convolution: 2 when the input
  /// features fit half the lanes (C <= 64), the halo's lanes 64-127 holding
  /// the pixel dw to the right (pairHaloColumns) and the weight tiles' rows
  /// 64-127 the next window column's weights (tap pairs: K = 128 instead of
  /// C, summed in the interpreter's order); else 1. KWs steps per kernel
  /// row.
  int64_t tapCols = 1, KWs = 0;
  /// Whether a block of r output rows is the whole output of one image
  /// (streamedGroups' schedule; its weight stage holds one step's blocks).
  bool streams(int64_t r) const { return !packed && N == 1 && r == OH; }
  // Packed windows (C <= 64, KW * C <= 128): pk kernel rows per 128-lane
  // LHS block (packedRow); pSteps K steps of `blocks` such blocks
  // (pBlocks). The halo is compact: [2 * HR][Pe] bf16, row r holding the
  // C features of its Wp columns one after the other, row HR + r row r's
  // scratch; f32 inputs arrive in `stage`, laid out alike in f32.
  bool packed = false;
  int64_t pk = 0, pSteps = 0, pBlocks = 0, Pe = 0;
  int64_t G = 0, R = 0, HR = 0, M = 0, parts = 1, gatherParts = 1;
  MxuSplit split;
  /// The output rows [rowBegin, rowBegin + rowCount) of the block that
  /// `step` computes and `writeBack` writes (all R rows but in
  /// streamedGroups' row chunks), `rowSplit` their MXU split.
  int64_t rowBegin = 0, rowCount = 0;
  MxuSplit rowSplit;
  /// Row chunks of a streamed group (`rowChunks`, 1 for none).
  int64_t chunks = 1;
  int64_t rowChunks() const;
  int64_t wBlock = 0, wSlot = 0, wFetches = 0;
  // Streamed weight stage slots: 2 while choosing G (a group size no
  // smaller than with whole-position slots), then as many of
  // streamSlots(G) as fit.
  int64_t wSlots = 2;
  Value in, ker, out, laneIds, sublaneIds, zero;
  /// Tap pairs: the mask of lanes 64-127 (pairHaloColumns).
  Value upperLanes;
  /// A one-block halo's pieces (fillHalo): the row each piece's DMA ends
  /// at, the next piece to fill, the rows filled and paired so far.
  SmallVector<int64_t> haloEnds;
  size_t haloNext = 0;
  int64_t haloFilled = 0, haloPaired = 0;
  Value haloIh0;
  VBuf stage, halo, lhs, panels, outStage, weights, wStage;
};

constexpr int kSemEpilogue = 3, kSemPack = 4;
/// The epilogue's resident sources (batch norm's parameters): fetched
/// first, waited for and computed once the halo's and the first weights'
/// DMAs are issued (EpilogueKernel::sourcesReady).
constexpr int kSemSources = 5;
/// Convolutions with at most this many input features pack window
/// positions into the MXU's contraction (docs/codegen.md, "convolution").
constexpr int64_t kMaxPackedFeatures = 64;
constexpr int64_t kBfRow = kLanes * 2;
/// A one-block halo's DMA is split into up to this many pieces, each
/// filled while the next ones arrive (fillHalo).
constexpr int64_t kHaloPieces = 8;

int64_t ConvMxuKernel::need(int64_t r, int64_t g) const {
  int64_t hr = haloRows(r), m = r * pitch;
  int64_t stageBytes = hr * Wt * Ct * inTile;
  int64_t haloBytes = CtPad * hr * Wp * kBfRow + spare;
  // Packed: two halo (and stage) slots, two LHS sets of pSteps slots (packedBlocks).
  if (packed) {
    stageBytes = ct.ib == 4 ? 2 * 2 * hr * Pe * 4 : 0;
    haloBytes = 2 * 2 * hr * Pe * 2;
  }
  int64_t lhsBytes = direct ? 0 : (packed ? 2 * pSteps : 2) * m * D * 2;
  int64_t panelBytes = (packed ? 2 : 1) * g * m * D * 4 +
                       (ct.ob == 2 && !ep ? g * m * D * 2 : 0);
  int64_t weightBytes =
      packed ? pSteps * g * wTile + pBlocks * kLanes * kLanes * ct.wb
             : kpos * CtD * g * wTile +
                   (streams(r) ? wSlots * blocks : 2 * Ct) * g *
                       blocks * kLanes * kLanes * ct.wb;
  return Lowering::pages(stageBytes) + Lowering::pages(haloBytes) +
         Lowering::pages(lhsBytes) + Lowering::pages(panelBytes) +
         Lowering::pages(weightBytes) +
         (ep ? ep->vmemBytes(g * m * D / (kSublanes * kLanes), 1) : 0);
}

// Whether the packed mode is faster than one MXU step per window position
// (and input block), per block of R output rows: a step streams its rows
// (at least about 3D cycles, the weight loads' pipeline); packing adds a
// DMA latency (the compact halo's fetch; its LHS DMAs run back to back:
// DMAs do not wait for each other's pages, docs/isa.md "Ordering"). Until
// session 27 the model chained DMAs writing one VMEM page, and this rule
// charged a latency per LHS DMA of an output row; small images then lost
// (the CNN example's 16x16 -> 8x8 stride-2 convolution, 37 -> 72 us).
int64_t ConvMxuKernel::streamSlots(int64_t g) const {
  const exe::Target &m = l.spec.machine;
  double bytesPerCycle =
      m.clock_hz() > 0 ? static_cast<double>(m.hbm_bytes_per_second()) /
                             m.clock_hz()
                       : 0.0;
  auto latencyBytes =
      static_cast<int64_t>(m.dma_latency_cycles() * bytesPerCycle);
  int64_t stepBytes = g * blocks * blocks * kLanes * kLanes * ct.wb;
  return 2 + std::min<int64_t>(ceilDiv(latencyBytes, stepBytes), 6);
}

bool ConvMxuKernel::packingPays() const {
  int64_t mxus = std::max<int64_t>(l.spec.machine.mxu_count(), 1);
  int64_t stream = std::max(ceilDiv(R * OWp * G, mxus), 3 * D);
  int64_t latency = l.spec.machine.dma_latency_cycles();
  return pSteps * stream + latency < kpos * CtD * stream;
}

LogicalResult ConvMxuKernel::plan() {
  RankedTensorType lhsType = ct.lhs, type = ct.out;
  N = lhsType.getDimSize(dn.getInputBatch());
  H = lhsType.getDimSize(dn.getInputSpatial()[0]);
  W = lhsType.getDimSize(dn.getInputSpatial()[1]);
  C = lhsType.getDimSize(dn.getInputFeature());
  O = type.getDimSize(dn.getOutputFeature());
  OH = type.getDimSize(dn.getOutputSpatial()[0]);
  OW = type.getDimSize(dn.getOutputSpatial()[1]);
  // Ct, It and Ot count 128-lane blocks and 8-row tiles of the features; a
  // D x D MXU takes `blocks` = D/128 of the 128-blocks at a time: CtD
  // input blocks (K steps per window position), OtD output tiles.
  D = l.mxuDim(), blocks = l.mxuBlocks();
  Wt = ceilDiv(W, kSublanes), Ct = ceilDiv(C, kLanes);
  It = ceilDiv(C, kSublanes), Ot = ceilDiv(O, kLanes);
  CtD = ceilDiv(Ct, blocks), OtD = ceilDiv(Ot, blocks);
  CtPad = CtD * blocks; // halo blocks, the ones past Ct zero
  OWt = ceilDiv(OW, kSublanes), OWp = OWt * kSublanes;
  inTile = kSublanes * kLanes * ct.ib, outTile = kSublanes * kLanes * ct.ob;
  kerTile = kSublanes * kLanes * ct.wb;
  wTile = D * D * 2, kpos = win.kh * win.kw;

  // Halo: rows of the padded input a block of R output rows reads, in
  // bf16, [CtPad][HR][Wp][128]; column pl + w holds input column w.
  int64_t readW = (OWp - 1) * win.sw + (win.kw - 1) * win.dw + 1;
  Wp = std::max(readW, win.pl + Wt * kSublanes);
  Wp = ceilDiv(Wp, kSublanes) * kSublanes;
  // Stride 1 on a 128-wide MXU: the LHS of window position (kh, kw) is a
  // contiguous run of halo rows when output pixel (r, w) is LHS row
  // r * Wp + w; rows with w >= OW are computed and dropped. Other strides,
  // and wider MXUs (whose LHS rows take several input blocks, each a run
  // of its own), gather the rows on the VPU into an LHS of pitch OWp.
  // Few input features: window positions packed into the contraction
  // (lanes ((kh % pk) * KW + kw) * C + c of 128-lane block kh / pk hold
  // feature c of position (kh, kw)), when that takes fewer MXU steps than
  // one per position. The packed LHS is DMAed from the halo (VMEM to
  // VMEM), pitch OWp like a gathered one.
  if (C <= kMaxPackedFeatures && win.kw * C <= kLanes) {
    pk = kLanes / (win.kw * C);
    pSteps = ceilDiv(ceilDiv(win.kh, pk), blocks);
    pBlocks = pSteps * blocks;
    packed = pSteps < kpos * CtD;
  }
  // A compact row is whole 4 KiB pages (the VMEM scoreboard's).
  Pe = Lowering::pages(Wp * C * ct.ib) / ct.ib;

  if (failed(EpilogueKernel::take(l, op.getResult(), ep)))
    return failure();

  // Output tiles per group (their weights resident) and output rows per
  // block: prefer long LHS streams (M >= 1024 rows or the whole image),
  // then as many resident output tiles as fit.
  int64_t budget = vmemBudget(l);
  int64_t gatheredWp = Wp;
  auto choose = [&] {
    direct = win.sw == 1 && win.sh == 1 && blocks == 1 && !packed;
    tapCols = direct && Ct == 1 && 2 * C <= kLanes && win.kw >= 2 ? 2 : 1;
    KWs = ceilDiv(win.kw, tapCols);
    kpos = win.kh * KWs;
    // A direct run reads output pixel (r, w)'s window at halo columns
    // w + kw * dw of row r + kh * dh, past the row's end into the next
    // row's first columns. So the pitch only needs: the data in its row
    // (pl + W), reads past it landing in the next row's left padding
    // (W + pr: the columns past pl + W are padding), the fill's masked
    // zeros past W (Wt tiles from pl) spilling into that padding only, and
    // whole output tiles per row (OWp).
    Wp = direct ? ceilDiv(std::max({win.pl + W, W + win.pr, Wt * kSublanes,
                                    OWp}),
                          kSublanes) *
                      kSublanes
                : gatheredWp;
    pitch = direct ? Wp : OWp;
    // The last run reads (kw - 1) * dw rows past the halo: one spare row.
    spare = direct ? Wp * kBfRow : 0;
    G = R = 0;
    for (int64_t g = OtD; g >= 1 && !G; --g) {
      if (OtD % g)
        continue;
      for (int64_t r = OH; r >= 1; --r)
        if (OH % r == 0 && need(r, g) <= budget) {
          if (r == OH || r * pitch >= 1024 || g == 1) {
            G = g;
            R = r;
          }
          break;
        }
    }
  };
  choose();
  if (packed && (!G || !packingPays())) {
    packed = false;
    choose();
  }
  if (!G)
    return vmemError(l, op, need(1, 1));
  if (streams(R))
    for (int64_t s = streamSlots(G); s > 2; --s) {
      wSlots = s;
      if (need(R, G) <= budget)
        break;
      wSlots = 2;
    }
  HR = haloRows(R), M = R * pitch;
  // Every MXU computes: the G tiles, and parts of the rows when G is below
  // the MXU count. A gathered LHS of several blocks is written part by
  // part, so its parts are whole output rows.
  split = l.splitForMxus(G, M, blocks > 1 ? pitch : kSublanes);
  parts = split.parts;
  rowCount = R, rowSplit = split;
  // With one block the LHS and the panels are plain rows whatever the
  // parts; with several, output rows are laid out part by part.
  gatherParts = blocks > 1 ? parts : 1;
  haloByDma = direct && !packed && tapCols == 1 && win.kh == 1 &&
              win.kw == 1 && win.pt == 0 && win.pb == 0 && win.pl == 0 &&
              win.pr == 0 && C % kLanes == 0 && ct.ib == 2 &&
              Wp == Wt * kSublanes && (dn.getInputBatch() == 0 || N == 1);
  return success();
}

LogicalResult ConvMxuKernel::allocate() {
  FailureOr<ConvMems> mems = memsOf(l, op, /*withResult=*/!ep);
  if (failed(mems))
    return failure();
  in = mems->lhs, ker = mems->rhs, out = mems->out;
  Type bf16 = l.b.getBF16Type(), f32 = l.b.getF32Type();

  int64_t haloBytes = CtPad * HR * Wp * kBfRow + spare;
  if (packed) {
    if (ct.ib == 4)
      stage = l.vmem(f32, 2 * compactSlot(4));
    halo = l.vmem(bf16, 2 * compactSlot(2));
  } else {
    stage = l.vmem(ct.inElem, HR * Wt * Ct * inTile);
    halo = l.vmem(bf16, haloBytes);
  }
  lhs = direct ? halo : l.vmem(bf16, (packed ? 2 * pSteps : 2) * M * D * 2);
  panels = l.vmem(f32, (packed ? 2 : 1) * G * M * D * 4);
  outStage = ct.ob == 2 && !ep ? l.vmem(bf16, G * M * D * 2) : VBuf();
  if (packed) {
    weights = l.vmem(bf16, pSteps * G * wTile);
    wStage = l.vmem(ct.wElem, pBlocks * kLanes * kLanes * ct.wb);
  } else {
    weights = l.vmem(bf16, kpos * CtD * G * wTile);
    wStage = l.vmem(ct.wElem, (streams(R) ? wSlots * blocks : 2 * Ct) *
                                  G * blocks * kLanes * kLanes * ct.wb);
  }
  if (ep && failed(ep->beginFetching(G * M * D / (kSublanes * kLanes), 1,
                                     kSemSources)))
    return failure();
  // The halo's padding stays zero: data stores only touch the data columns
  // (and write zeros where the input is ragged or out of range). The
  // streamed schedule zeroes it while the halo's DMA runs.
  if (!packed && !streams(R))
    zeroFill(l, halo, bf16, Lowering::pages(haloBytes));
  laneIds = tpu::VLaneIdOp::create(l.b, l.loc, l.i32Reg());
  sublaneIds = tpu::VSublaneIdOp::create(l.b, l.loc, l.i32Reg());
  zero = l.splatF32(0.0);
  if (tapCols == 2)
    upperLanes =
        l.vcmp(tpu::CmpKind::ge, laneIds, l.splatIndex(l.c(kLanes / 2)));
  wBlock = kLanes * kLanes * ct.wb;
  wSlot = (streams(R) ? blocks : Ct) * G * blocks * wBlock;
  wFetches = tapCols * Ct * G * blocks;
  return success();
}

/// The outer (above the two tiled dims) index of (batch, spatial 0).
Value ConvMxuKernel::outerIndex(Value n, Value h, int64_t batchDim,
                                int64_t nSize, int64_t hSize) {
  return batchDim == 0 ? l.add(l.mul(n, hSize), h)
                       : l.add(l.mul(h, nSize), n);
}

/// Kernel tiles: [kernel spatial outer][It][Ot] with (i, o) the tiled dims.
Value ConvMxuKernel::kernelOuter(Value kh, Value kw) {
  int64_t kSp0 = dn.getKernelSpatial()[0];
  Value h = win.revH ? l.sub(l.c(win.kh - 1), kh) : kh;
  Value w = win.revW ? l.sub(l.c(win.kw - 1), kw) : kw;
  return kSp0 == 0 ? l.add(l.mul(h, win.kw), w) : l.add(l.mul(w, win.kh), h);
}

/// The 128-wide output tile of block j of group tile g: past the last one
/// it is the last one again (computed twice, written twice, identically).
Value ConvMxuKernel::outTileOf(Value og, int64_t g, int64_t j) {
  Value ot = l.add(l.mul(l.add(l.mul(og, G), g), blocks), j);
  return Ot % blocks != 0 && j > 0
             ? arith::MinSIOp::create(l.b, l.loc, ot, l.c(Ot - 1)).getResult()
             : ot;
}

// The weights of group og become bf16 tiles weights[kpos][CtD][G] (each
// D x D in lane blocks), zero past the input features. The f32/bf16
// 128x128 blocks (cb, g, j) of window position kp, cb in [cb0, cb1), are
// fetched into stage slot `parity` (kp % 2 by default), block cb at
// cb - cb0; the next ones are fetched while these are converted.
void ConvMxuKernel::fetchWeights(Value og, Value kp, int64_t cb0, int64_t cb1,
                                 Value parity) {
  Value kh = l.div(kp, KWs), kw = l.mul(l.rem(kp, KWs), tapCols);
  Value slot = l.mul(parity ? parity : l.rem(kp, 2), wSlot);
  // Tap pairs: window column kw + 1 (the last one again past the kernel;
  // its rows are zeroed by convertTapPairWeights) into stage rows 64-127.
  for (int64_t t = 0; t < tapCols; ++t) {
    Value col = t ? smin(l, l.add(kw, t), win.kw - 1) : kw;
    for (int64_t cb = cb0; cb < std::min(cb1, Ct); ++cb) {
      Value base =
          l.mul(l.add(l.mul(kernelOuter(kh, col), It), cb * 16), Ot);
      for (int64_t g = 0; g < G; ++g)
        for (int64_t j = 0; j < blocks; ++j)
          l.dma(ker, l.mul(l.add(base, outTileOf(og, g, j)), kerTile),
                wStage.arena,
                l.add(slot, wStage.offset +
                                (((cb - cb0) * G + g) * blocks + j) * wBlock +
                                t * (kLanes / 2) * kerTile / kSublanes),
                std::min<int64_t>(16, It - 16 * cb), kerTile, Ot * kerTile,
                kerTile, kSemW);
    }
  }
}

void ConvMxuKernel::convertWeights(Value kp, int64_t cb0, int64_t cb1,
                                   Value parity) {
  Value slot = l.mul(parity ? parity : l.rem(kp, 2), wSlot);
  if (tapCols == 2)
    return convertTapPairWeights(kp, slot);
  for (int64_t cb = cb0; cb < cb1; ++cb) {
    int64_t valid = cb < Ct ? std::min<int64_t>(16, It - 16 * cb) : 0,
            rowsLeft = std::min(kLanes, C - kLanes * cb);
    for (int64_t g = 0; g < G; ++g)
      for (int64_t j = 0; j < blocks; ++j) {
        // Where 128x128 block (input block cb, output block j) of tile g
        // goes.
        Value tile = l.add(l.mul(l.add(l.mul(kp, CtD), cb / blocks), G), g);
        Value dst = l.add(l.mul(tile, wTile),
                          (j * D + (cb % blocks) * kLanes) * kBfRow);
        if (valid > 0) {
          Value src = l.add(slot, (((cb - cb0) * G + g) * blocks + j) * wBlock);
          l.loop(valid, [&](Value t) {
            Value x = l.vload(wStage, l.add(l.mul(t, kerTile), src));
            if (rowsLeft % kSublanes)
              x = l.maskBelow(x, sublaneIds,
                              l.sub(l.c(rowsLeft), l.mul(t, kSublanes)), 0.0);
            l.vstore(x, weights, l.add(dst, l.mul(t, kSublanes * kBfRow)));
          });
        }
        for (int64_t t = valid; t < 16; ++t)
          l.vstore(zero, weights, l.add(dst, t * kSublanes * kBfRow));
      }
  }
}

// Tap pairs (one input block, C <= 64, G output tiles): rows 0-63 of tile
// (kp, g) are window position (kp / KWs, 2 * (kp % KWs))'s, rows 64-127 the
// next window column's, zero past C in each half and in the upper half
// past the kernel (an odd KW's last pair).
void ConvMxuKernel::convertTapPairWeights(Value kp, Value slot) {
  int64_t half = kLanes / 2 / kSublanes, ragged = C % kSublanes;
  // 1 when the pair's second window column is inside the kernel.
  Value second =
      win.kw % 2 ? smin(l, l.sub(l.c(win.kw / 2), l.rem(kp, KWs)), 1) : l.c(1);
  for (int64_t g = 0; g < G; ++g) {
    Value dst = l.mul(l.add(l.mul(kp, G), g), wTile);
    Value src = l.add(slot, g * wBlock);
    for (int64_t t = 0; t < 2; ++t) {
      for (int64_t i = 0; i < It; ++i) {
        Value x = l.vload(wStage, l.add(src, (t * half + i) * kerTile));
        int64_t rows = i + 1 == It && ragged ? ragged : kSublanes;
        if (rows < kSublanes || (t == 1 && win.kw % 2))
          x = l.maskBelow(x, sublaneIds,
                          t ? l.mul(second, rows) : l.c(rows), 0.0);
        l.vstore(x, weights,
                 l.add(dst, (t * half + i) * kSublanes * kBfRow));
      }
      for (int64_t i = It; i < half; ++i)
        l.vstore(zero, weights,
                 l.add(dst, (t * half + i) * kSublanes * kBfRow));
    }
  }
}

void ConvMxuKernel::prepareWeights(Value og) {
  if (packed)
    return preparePackedWeights(og);
  fetchWeights(og, l.c(0), 0, Ct);
  l.loop(kpos - 1, [&](Value kp) {
    l.wait(kSemW, wFetches);
    fetchWeights(og, l.add(kp, 1), 0, Ct);
    convertWeights(kp, 0, CtPad);
  });
  l.wait(kSemW, wFetches);
  convertWeights(l.c(kpos - 1), 0, CtPad);
}

// Packed weights: per output tile (g, j), the rows of every window
// position are DMAed (one DMA per kernel row; the even kernel rows go
// first, then the odd ones, whose pages adjacent rows share: a rule from
// when DMAs writing one VMEM page waited for each other) to their packedRow of a zeroed
// staging block
// (inElem, 128-row blocks k), then block k is rounded into weight tile (k /
// blocks, g), input rows (k % blocks) * 128.
void ConvMxuKernel::preparePackedWeights(Value og,
                                         function_ref<void()> meanwhile) {
  int64_t row = kLanes * ct.wb;
  // One DMA per kernel row and input tile: its KW positions' rows are
  // C rows apart in the stage; kernelOuter's step along kw.
  int64_t kwStride = (dn.getKernelSpatial()[0] == 0 ? 1 : win.kh) *
                     (win.revW ? -1 : 1);
  for (int64_t g = 0; g < G; ++g)
    for (int64_t j = 0; j < blocks; ++j) {
      Value ot = outTileOf(og, g, j);
      for (int64_t i = 0; i < win.kh; ++i) {
        int64_t evens = (win.kh + 1) / 2;
        int64_t kh = i < evens ? 2 * i : 2 * (i - evens) + 1;
        Value outer = kernelOuter(l.c(kh), l.c(0));
        for (int64_t t = 0; t < It; ++t) {
          int64_t dstRow = packedRow(kh, 0, t * kSublanes);
          Value src =
              l.mul(l.add(l.mul(l.add(l.mul(outer, It), t), Ot), ot), kerTile);
          l.dma(ker, src, wStage.arena, l.c(wStage.offset + dstRow * row),
                win.kw, std::min<int64_t>(kSublanes, C - t * kSublanes) * row,
                kwStride * It * Ot * kerTile, C * row, kSemW);
        }
      }
      if (meanwhile && g == 0 && j == 0)
        meanwhile();
      l.wait(kSemW, win.kh * It);
      for (int64_t k = 0; k < pBlocks; ++k) {
        int64_t dst = ((k / blocks) * G + g) * wTile +
                      (j * D + (k % blocks) * kLanes) * kBfRow;
        l.loop(kLanes / kSublanes, [&](Value t) {
          Value x = l.vload(
              wStage, l.add(l.mul(t, kerTile), k * kLanes * row));
          l.vstore(x, weights, l.add(l.mul(t, kSublanes * kBfRow), dst));
        });
      }
    }
}

/// Fills the halo for output rows [oh0, oh0 + R) of image n.
void ConvMxuKernel::fillHaloRows(Value ih0, int64_t from, int64_t to) {
  l.loop(to - from, [&](Value i) {
    Value r = l.add(i, from);
    Value ih = l.add(ih0, r);
    Value valid = insideInput(l, ih, H);
    l.loop(Ct, [&](Value cb) {
      Value lanesLeft = smin(l, l.sub(l.c(C), l.mul(cb, kLanes)), kLanes);
      Value limit = arith::MulIOp::create(l.b, l.loc, lanesLeft, valid);
      Value dstRow = l.add(l.mul(cb, HR), r);
      // The row's lane mask once; its tiles unrolled (up to 64), each
      // address one add to the row's base.
      Value keep = tpu::VCmpOp::create(l.b, l.loc, l.i32Reg(),
                                       tpu::CmpKind::lt, laneIds,
                                       l.splatIndex(limit));
      VBuf stageAt0 = stage, haloAt0 = halo;
      stageAt0.offset = haloAt0.offset = 0;
      Value srcBase = l.add(
          l.add(l.mul(r, Wt * Ct * inTile), l.mul(cb, inTile)), stage.offset);
      Value dstBase = l.add(
          l.mul(l.add(l.mul(dstRow, Wp), win.pl), kBfRow), halo.offset);
      auto column = [&](Value j, bool last) {
        Value x = l.vload(stageAt0, l.add(srcBase, l.mul(j, Ct * inTile)));
        x = tpu::VSelectOp::create(l.b, l.loc, keep, x, zero);
        if (last && W % kSublanes)
          x = l.maskBelow(x, sublaneIds, l.c(W % kSublanes), 0.0);
        l.vstore(x, haloAt0, l.add(dstBase, l.mul(j, kSublanes * kBfRow)));
      };
      if (Wt <= 64) {
        for (int64_t j = 0; j < Wt; ++j)
          column(l.c(j), j == Wt - 1);
      } else {
        l.loop(Wt - 1, [&](Value j) { column(j, false); });
        column(l.c(Wt - 1), true);
      }
    });
  });
}

void ConvMxuKernel::fillHalo(Value n, Value oh0,
                             function_ref<void()> meanwhile,
                             int64_t readyRows) {
  Value ih0 = l.sub(l.mul(oh0, win.sh), l.c(win.pt));
  int64_t rowBytes = Wt * Ct * inTile;
  int64_t batchDim = dn.getInputBatch() == 0 ? 0 : 1;
  if (std::optional<int64_t> first = l.constant(ih0)) {
    // One block per image: the rows inside the input are a few strided
    // DMAs of whole pages of rows (one DMA per row costs a DMA latency per
    // VMEM page two bf16 rows share), each piece's rows filled as soon as
    // its DMA is in, while the next pieces arrive; the rows outside it are
    // not fetched but zeroed (their values are masked; zeroing keeps them
    // initialised).
    int64_t lo = std::max<int64_t>(0, -*first);
    int64_t hi = std::max(lo, std::min<int64_t>(HR, H - *first));
    auto zeroRows = [&](int64_t from, int64_t to) {
      VBuf rows = stage;
      rows.offset += from * rowBytes;
      zeroFill(l, rows, ct.inElem, (to - from) * rowBytes);
    };
    zeroRows(0, lo);
    zeroRows(hi, HR);
    // Pieces end at multiples of an even number of rows: two rows are
    // whole pages, so no two pieces' DMAs write the same page.
    int64_t per = 2 * ceilDiv(ceilDiv(hi - lo, kHaloPieces), 2);
    haloEnds.clear();
    haloNext = 0, haloFilled = 0, haloPaired = 0, haloIh0 = ih0;
    // The pieces filled before returning: all, or those whose rows paired
    // (all but a piece's last one) cover `readyRows`.
    size_t ready = 0;
    bool issued = false;
    for (int64_t a = lo; a < hi; a = haloEnds.back()) {
      haloEnds.push_back(std::min(hi, (a / per + 1) * per));
      Value src =
          l.mul(outerIndex(n, l.c(*first + a), batchDim, N, H), rowBytes);
      if (haloByDma) {
        // Per C block, the rows' tiles (Ct tiles apart in HBM) one after
        // another in the halo: [cb][row][W].
        for (int64_t cb = 0; cb < Ct; ++cb)
          l.dma(in, l.add(src, cb * inTile), halo.arena,
                l.c(halo.offset + (cb * HR + a) * Wp * kBfRow),
                (haloEnds.back() - a) * Wt, inTile, Ct * inTile, inTile,
                kSemIn);
      } else {
        l.dma(in, src, stage.arena, l.c(stage.offset + a * rowBytes),
              haloEnds.back() - a, rowBytes,
              (batchDim == 0 ? 1 : N) * rowBytes, rowBytes, kSemIn);
      }
      if (readyRows && !issued && haloEnds.back() - 1 >= readyRows) {
        ready = haloEnds.size();
        issued = true;
        if (meanwhile)
          meanwhile();
      }
    }
    if (!issued) {
      ready = haloEnds.size();
      if (meanwhile)
        meanwhile();
    }
    while (haloNext < ready)
      fillHaloPiece();
    if (haloEnds.empty()) {
      fillHaloRows(ih0, 0, HR);
      pairHaloColumns(0, HR);
    }
    return;
  }
  l.loop(HR, [&](Value r) {
    // Rows outside the input read a clamped row and are zeroed when filled.
    Value ih = smax(l, smin(l, l.add(ih0, r), H - 1), 0);
    Value src = l.mul(outerIndex(n, ih, batchDim, N, H), rowBytes);
    l.dma(in, src, stage.arena, l.add(l.mul(r, rowBytes), stage.offset), 1,
          rowBytes, 0, 0, kSemIn);
  });
  if (meanwhile)
    meanwhile();
  l.wait(kSemIn, HR);
  fillHaloRows(ih0, 0, HR);
  pairHaloColumns(0, HR);
}

// Piece p fills the rows up to its end (the first from row 0, the last up
// to HR); SEM_WAIT takes the completions in issue order. Tap pairs: the
// rows filled before the piece's last one are paired too, while the next
// pieces arrive (the last row waits for the next piece's first).
void ConvMxuKernel::fillHaloPiece() {
  l.wait(kSemIn, haloByDma ? Ct : 1);
  bool last = haloNext + 1 == haloEnds.size();
  int64_t to = last ? HR : haloEnds[haloNext];
  if (!haloByDma)
    fillHaloRows(haloIh0, haloFilled, to);
  haloFilled = to;
  int64_t pairTo = last ? HR : to - 1;
  pairHaloColumns(haloPaired, pairTo);
  haloPaired = pairTo;
  ++haloNext;
}

/// Tap pairs: lanes 64-127 of every halo pixel (padding included) become
/// lanes 0-63 of the pixel dw further on in the flat [HR][Wp] rows (past
/// the last one, the spare row's zeros), loaded 64 lanes early: window
/// column kw + 1's LHS run is column kw's shifted by dw pixels. 8 tiles per
/// loop iteration at constant offsets.
void ConvMxuKernel::pairHaloColumns(int64_t from, int64_t to) {
  if (tapCols == 1 || from >= to)
    return;
  constexpr int64_t kUnroll = 8;
  int64_t tileBytes = kSublanes * kBfRow, tiles = (to - from) * Wp / kSublanes;
  int64_t first = from * Wp * kBfRow + halo.offset;
  int64_t shift = win.dw * kBfRow - kLanes / 2 * 2;
  VBuf haloAt0 = halo;
  haloAt0.offset = 0;
  auto run = [&](Value base, int64_t n) {
    for (int64_t k = 0; k < n; ++k) {
      Value at = l.add(base, k * tileBytes);
      Value x = l.vload(haloAt0, at);
      Value next = l.vload(haloAt0, l.add(at, shift));
      l.vstore(l.vsel(upperLanes, next, x), haloAt0, at);
    }
  };
  l.loop(tiles / kUnroll, [&](Value i) {
    run(l.add(l.mul(i, kUnroll * tileBytes), first), kUnroll);
  });
  run(l.c(tiles / kUnroll * kUnroll * tileBytes + first), tiles % kUnroll);
}

/// Step s = (window position, input D-block): gather the LHS rows of every
/// output pixel of the block from the halo into slot s % 2 (part by part,
/// block by block: [parts][blocks][rows of a part][128]), then one matmul
/// per (output tile, row part).
void ConvMxuKernel::step(Value s, bool first) {
  Value kp = l.div(s, CtD), cbD = l.rem(s, CtD);
  Value kh = l.div(kp, KWs), kw = l.rem(kp, KWs);
  Value colBase = l.mul(kw, tapCols * win.dw);
  auto rowBaseOf = [&](int64_t i) {
    return l.add(l.mul(l.add(l.mul(cbD, blocks), i), HR), l.mul(kh, win.dh));
  };
  Value slot = direct ? l.mul(l.add(l.mul(rowBaseOf(0), Wp), colBase), kBfRow)
                      : l.mul(l.rem(s, 2), M * D * 2);
  // A row chunk (direct only): its LHS run and panel rows start rowBegin
  // output rows in.
  Value panelOff;
  if (rowBegin) {
    slot = l.add(slot, rowBegin * pitch * kBfRow);
    panelOff = l.c(rowBegin * pitch * D * 4);
  }
  // One strided load and one store per 8 output pixels. The tiles of a
  // row are unrolled (up to 64) so that each address is one add to the
  // row's base (buffer offsets folded into the bases).
  VBuf haloAt0 = halo, lhsAt0 = lhs;
  haloAt0.offset = lhsAt0.offset = 0;
  auto gather = [&](Value srcBase, Value dstBase, Value jt) {
    Value x = l.vload(haloAt0,
                      l.add(srcBase, l.mul(jt, kSublanes * win.sw * kBfRow)),
                      win.sw * kBfRow);
    l.vstore(x, lhsAt0, l.add(dstBase, l.mul(jt, kSublanes * kBfRow)));
  };
  if (!direct)
    for (int64_t q = 0; q < gatherParts; ++q)
      for (int64_t i = 0; i < blocks; ++i) {
        Value rowBase = rowBaseOf(i);
        int64_t dstPart = ((q * blocks + i) * (M / gatherParts)) * kBfRow;
        l.loop(R / gatherParts, [&](Value prow) {
          Value orow = l.add(prow, q * (R / gatherParts));
          Value srcRow = l.add(l.mul(rowBase, Wp), l.mul(orow, win.sh * Wp));
          Value srcBase =
              l.add(l.mul(l.add(srcRow, colBase), kBfRow), halo.offset);
          Value dstBase = l.add(l.add(slot, l.mul(prow, OWp * kBfRow)),
                                lhs.offset + dstPart);
          if (OWt <= 64) {
            for (int64_t jt = 0; jt < OWt; ++jt)
              gather(srcBase, dstBase, l.c(jt));
          } else {
            l.loop(OWt, [&](Value jt) { gather(srcBase, dstBase, jt); });
          }
        });
      }
  Value wBase = l.mul(l.add(l.mul(kp, CtD), cbD), G * wTile);
  matmulTiles(
      l, rowSplit, M, weights,
      [&](int64_t g) { return l.add(wBase, g * wTile); }, lhs, slot, panels,
      !first, panelOff);
}

/// Fills the compact halo for output rows [oh0, oh0 + R) of image n: zeroed,
/// then one DMA per row of the W input pixels' C features (src stride one
/// 128-lane row of the T(8,128) input) to columns pl.. of the row; rows
/// outside the input go to their scratch row instead (DMAs in flight may
/// not write the same bytes). f32 rows land in the
/// stage and are rounded to bf16 by a flat copy (a vreg is 1024 elements)
/// in finishCompactHalo.
void ConvMxuKernel::issueCompactHalo(Value n, Value oh0, Value parity) {
  const VBuf &dst = ct.ib == 4 ? stage : halo;
  Value dstOff = l.mul(parity, compactSlot(ct.ib));
  int64_t rowBytes = Pe * ct.ib, pixel = C * ct.ib;
  zeroFill(l, dst, ct.inElem, HR * rowBytes, dstOff);
  Value ih0 = l.sub(l.mul(oh0, win.sh), l.c(win.pt));
  int64_t scratch = HR * rowBytes;
  l.loop(HR, [&](Value r) {
    Value ih = l.add(ih0, r);
    Value valid = insideInput(l, ih, H);
    Value src = l.mul(outerIndex(n, smax(l, smin(l, ih, H - 1), 0),
                                 dn.getInputBatch() == 0 ? 0 : 1, N, H),
                      Wt * inTile);
    Value row = l.add(l.add(l.mul(r, rowBytes), dstOff),
                      dst.offset + win.pl * pixel);
    Value to = l.add(row, l.mul(l.sub(l.c(1), valid), scratch));
    l.dma(in, src, dst.arena, to, W, pixel, kLanes * ct.ib, pixel, kSemIn);
  });
}

void ConvMxuKernel::finishCompactHalo(Value parity) {
  l.wait(kSemIn, HR);
  Value stageOff = l.mul(parity, compactSlot(4)),
        haloOff = l.mul(parity, compactSlot(2));
  if (ct.ib == 4)
    l.loop(HR * Pe / (kSublanes * kLanes), [&](Value t) {
      l.vstore(l.vload(stage, l.add(stageOff, l.mul(t, kF32Tile))), halo,
               l.add(haloOff, l.mul(t, kBf16Tile)));
    });
}

/// The LHS DMAs of packed step st: per output row, one per kernel row (a
/// run of KW positions) or, with rhs_dilation along W, per position.
int64_t ConvMxuKernel::packDmas(int64_t st) const {
  auto [first, end] = packedRows(st);
  return R * (end - first) * (win.dw == 1 ? 1 : win.kw);
}

/// Packs the LHS of packed step st into slot st of the LHS set at `lhsOff`
/// ([parts][blocks][rows of a part][128], like the gather) from the compact
/// halo at `haloOff`: LHS row
/// orow * OWp + ow, lanes packedRow(kh, kw, 0).. hold compact column
/// ow * sw + kw * dw of row orow * sh + kh * dh. The DMAs go kernel
/// row by kernel row over all output rows (waves: from when DMAs writing
/// the same VMEM pages waited for each other). Window reversal is the
/// weights'.
SmallVector<std::pair<int64_t, int64_t>>
ConvMxuKernel::packWaves(int64_t st) const {
  int64_t run = win.dw == 1 ? win.kw : 1;
  auto [first, end] = packedRows(st);
  SmallVector<std::pair<int64_t, int64_t>> waves;
  for (int64_t kh = first; kh < end; ++kh)
    for (int64_t kw0 = 0; kw0 < win.kw; kw0 += run)
      waves.push_back({kh, kw0});
  return waves;
}

void ConvMxuKernel::packLhsWave(int64_t st, int64_t kh, int64_t kw0,
                                Value haloOff, Value lhsOff) {
  int64_t slot = st * M * D * 2;
  int64_t rowsPart = R / gatherParts, partBytes = M / gatherParts * kBfRow;
  int64_t run = win.dw == 1 ? win.kw : 1, cols = C * 2;
  int64_t lane = packedRow(kh, kw0, 0) - st * blocks * kLanes;
  int64_t from = kh * win.dh * Pe * 2 + kw0 * win.dw * cols;
  for (int64_t q = 0; q < gatherParts; ++q) {
    int64_t to =
        (q * blocks + lane / kLanes) * partBytes + lane % kLanes * 2;
    l.loop(rowsPart, [&](Value prow) {
      Value orow = l.add(prow, q * rowsPart);
      Value src = l.add(l.add(l.mul(orow, win.sh * Pe * 2), haloOff),
                        halo.offset + from);
      Value dst = l.add(l.add(l.mul(prow, OWp * kBfRow), lhsOff),
                        lhs.offset + slot + to);
      l.dma(halo.arena, src, lhs.arena, dst, OW, run * cols, win.sw * cols,
            kBfRow, kSemPack);
    });
  }
}

void ConvMxuKernel::packLhs(int64_t st, Value haloOff, Value lhsOff) {
  for (auto [kh, kw0] : packWaves(st))
    packLhsWave(st, kh, kw0, haloOff, lhsOff);
}

/// The packed steps of a block: each waits for its LHS DMAs (issued by
/// packLhs into the set at `lhsOff`) and accumulates into the panels at
/// `panelOff`.
void ConvMxuKernel::packedSteps(Value lhsOff, Value panelOff) {
  for (int64_t st = 0; st < pSteps; ++st) {
    l.wait(kSemPack, packDmas(st));
    matmulTiles(
        l, split, M, weights,
        [&](int64_t g) { return l.c((st * G + g) * wTile); }, lhs,
        l.add(lhsOff, st * M * D * 2), panels, st > 0, panelOff);
  }
}

/// The result tiles of a block, output rows [oh0, oh0 + R): one piece per
/// (row, output tile, block), OWt tiles a destination stride of Ot tiles
/// apart. Panel g is [parts][blocks][rows of a part][128].
SmallVector<EpiloguePiece> ConvMxuKernel::rowPieces(Value n, Value oh0,
                                                    Value og, int64_t q,
                                                    Value prow) {
  int64_t rowsOut = R / gatherParts, partRowsOut = M / gatherParts;
  if (rowBegin)
    prow = l.add(prow, rowBegin);
  Value orow = l.add(prow, q * rowsOut);
  Value outer = outerIndex(n, l.add(oh0, orow),
                           dn.getOutputBatch() == 0 ? 0 : 1, N, OH);
  SmallVector<EpiloguePiece> pieces;
  for (int64_t g = 0; g < G; ++g)
    for (int64_t j = 0; j < blocks; ++j) {
      EpiloguePiece p;
      p.col = outTileOf(og, g, j);
      p.outTile = l.add(l.mul(outer, OWt * Ot), p.col);
      int64_t from = g * M * blocks + (q * blocks + j) * partRowsOut;
      p.stageTile = l.add(l.mul(prow, pitch / kSublanes), from / kSublanes);
      p.tiles = OWt;
      p.stride = Ot;
      pieces.push_back(p);
    }
  return pieces;
}

void ConvMxuKernel::forEachPiece(
    Value n, Value oh0, Value og,
    function_ref<void(const EpiloguePiece &)> fn) {
  for (int64_t q = 0; q < gatherParts; ++q)
    l.loop(rowCount / gatherParts, [&](Value prow) {
      for (const EpiloguePiece &p : rowPieces(n, oh0, og, q, prow))
        fn(p);
    });
}

int64_t ConvMxuKernel::fetchEpilogueInputs(Value n, Value oh0, Value og) {
  // The block's rows of an output tile are one DMA when their tiles are
  // evenly spaced on both sides: consecutive rows in HBM (batch-major, or
  // one image) and a panel pitch of whole tiles (one part); else row by
  // row.
  bool batchMajor = dn.getOutputBatch() == 0;
  if (gatherParts != 1 || pitch != OWt * kSublanes || (!batchMajor && N != 1)) {
    forEachPiece(n, oh0, og,
                 [&](const EpiloguePiece &p) { ep->fetch(p, kSemEpilogue); });
    return rowCount * G * blocks;
  }
  // The rows of the current chunk (rowBegin, rowCount; the block's by
  // default).
  Value outer =
      outerIndex(n, l.add(oh0, rowBegin), batchMajor ? 0 : 1, N, OH);
  for (int64_t g = 0; g < G; ++g)
    for (int64_t j = 0; j < blocks; ++j) {
      EpiloguePiece p;
      p.col = outTileOf(og, g, j);
      p.outTile = l.add(l.mul(outer, OWt * Ot), p.col);
      p.stageTile =
          l.c(((g * blocks + j) * M + rowBegin * pitch) / kSublanes);
      p.tiles = rowCount * OWt;
      p.stride = Ot;
      ep->fetch(p, kSemEpilogue);
    }
  return G * blocks;
}

LogicalResult ConvMxuKernel::writeBack(Value n, Value oh0, Value og,
                                       int64_t fetched, Value panelOff,
                                       bool drain) {
  auto inSlot = [&](Value at) { return panelOff ? l.add(panelOff, at) : at; };
  if (ep) {
    l.wait(kSemEpilogue, fetched * ep->fetches());
    LogicalResult status = success();
    auto apply = [&](const EpiloguePiece &p) {
      if (failed(ep->apply(p, panels, inSlot(l.mul(p.stageTile, kF32Tile)),
                           l.c(0))))
        status = failure();
    };
    auto write = [&](const EpiloguePiece &p) {
      ep->write(p, l.c(0), kSemOut);
    };
    if (!ep->stagingSharesPages()) {
      forEachPiece(n, oh0, og, [&](const EpiloguePiece &p) {
        apply(p);
        write(p);
      });
    } else {
      // A row's write-back DMA reads the staging page that the next row's
      // first tile shares: each row leaves after the next one is computed,
      // so no store waits for a DMA in flight.
      auto row = [&](int64_t q, Value prow,
                     function_ref<void(const EpiloguePiece &)> fn) {
        for (const EpiloguePiece &p : rowPieces(n, oh0, og, q, prow))
          fn(p);
      };
      int64_t rowsOut = rowCount / gatherParts;
      for (int64_t q = 0; q < gatherParts; ++q) {
        row(q, l.c(0), apply);
        l.loop(rowsOut - 1, [&](Value prow) {
          row(q, l.add(prow, 1), apply);
          row(q, prow, write);
        });
        row(q, l.c(rowsOut - 1), write);
      }
    }
    if (drain)
      l.wait(kSemOut, writeBackDmas());
    return status;
  }
  const VBuf &src =
      resultPanels(l, panels, outStage, ct.ob, G * M * D * 4, panelOff);
  int64_t tileOut = kSublanes * kLanes * ct.ob;
  forEachPiece(n, oh0, og, [&](const EpiloguePiece &p) {
    Value at = l.mul(p.stageTile, tileOut);
    l.dma(src.arena, l.add(ct.ob == 4 ? inSlot(at) : at, src.offset), out,
          l.mul(p.outTile, tileOut), p.tiles, tileOut, tileOut,
          p.stride * tileOut, kSemOut);
  });
  if (drain)
    l.wait(kSemOut, writeBackDmas());
  return success();
}

LogicalResult ConvMxuKernel::run() {
  if (failed(plan()) || failed(allocate()))
    return failure();
  int64_t steps = kpos * CtD;
  LogicalResult status = success();
  // One block of output rows (batch 1, where the weights dominate the HBM
  // traffic): each step runs as soon as its weights are converted, so the
  // MXUs work while the DMA engine fetches the next step's.
  if (streams(R)) {
    streamedGroups(status);
    return status;
  }
  if (packed) {
    packedBlocks(status);
    return status;
  }
  if (ep && failed(ep->sourcesReady()))
    return failure();
  l.loop(OtD / G, [&](Value og) {
    prepareWeights(og);
    l.loop(N, [&](Value n) {
      l.loop(OH / R, [&](Value blk) {
        Value oh0 = l.mul(blk, R);
        fillHalo(n, oh0);
        // The epilogue's same-shape operands arrive during the steps.
        int64_t fetched = ep ? fetchEpilogueInputs(n, oh0, og) : 0;
        step(l.c(0), /*first=*/true);
        l.loop(steps - 1, [&](Value s) { step(l.add(s, 1), false); });
        if (failed(writeBack(n, oh0, og, fetched)))
          status = failure();
      });
    });
  });
  return status;
}

// Block b of a group (image b / (OH / R), output rows from (b % (OH / R)) *
// R) uses slot b % 2 of the halo, the LHS sets and the panels. Iteration b
// issues block b's steps (`mxu`), then waits for block b + 1's halo and
// issues its LHS DMAs (`pack`), issues block b + 2's halo DMAs (into block
// b's halo slot, whose LHS DMAs are done), and applies block b - 1's
// epilogue and write-back (`back`): the MXUs compute block b while the DMA
// engine builds block b + 1's LHS
// and the VPU and the DMA engine finish block b - 1. The epilogue's inputs
// have one staging buffer: block b's are fetched after block b - 1's back.
// A group's first two halos are fetched before its weights are converted.
void ConvMxuKernel::packedBlocks(LogicalResult &status) {
  int64_t perImage = OH / R, nb = N * perImage, groups = OtD / G;
  int64_t lhsSet = pSteps * M * D * 2, panelSlot = G * M * D * 4;
  auto image = [&](Value b) { return l.div(b, perImage); };
  auto row0 = [&](Value b) { return l.mul(l.rem(b, perImage), R); };
  auto slotOf = [&](Value b, int64_t bytes) {
    return l.mul(l.rem(b, 2), bytes);
  };
  auto fetchHalo = [&](Value b) {
    issueCompactHalo(image(b), row0(b), slotOf(b, 1));
  };
  auto start = [&] {
    fetchHalo(l.c(0));
    if (nb > 1)
      fetchHalo(l.c(1));
  };
  start();
  // The weight rows past the positions and the LHS lanes and rows no DMA
  // writes (past the last position, columns past OW) stay zero: LHS set 0
  // is zeroed while the weights arrive, set 1 while block 0's LHS DMAs run.
  zeroFill(l, wStage, ct.wElem,
           Lowering::pages(pBlocks * kLanes * kLanes * ct.wb));
  if (ep && failed(ep->sourcesReady()))
    status = failure();
  auto zeroLhs = [&](int64_t set) {
    VBuf at = lhs;
    at.offset += set * lhsSet;
    zeroFill(l, at, l.b.getBF16Type(), lhsSet);
  };
  l.loop(groups, [&](Value og) {
    preparePackedWeights(og, [&] { zeroLhs(0); });
    auto pack = [&](Value b) {
      finishCompactHalo(slotOf(b, 1));
      for (int64_t st = 0; st < pSteps; ++st)
        packLhs(st, slotOf(b, compactSlot(2)), slotOf(b, lhsSet));
    };
    int64_t fetched = 0;
    auto fetchEp = [&](Value b) {
      if (ep)
        fetched = fetchEpilogueInputs(image(b), row0(b), og);
    };
    // With an epilogue, block b's write-back DMAs (from the epilogue's
    // staging) are waited for only before block b + 1's epilogue reuses it
    // (`drainPrev`: block b > 0), so they run while the MXUs compute block
    // b + 2. Without, they read the panels, which block b + 2's steps
    // overwrite: drained at once.
    bool deferDrain = ep.has_value();
    auto back = [&](Value b, bool drainPrev) {
      if (deferDrain && drainPrev)
        l.wait(kSemOut, writeBackDmas());
      if (failed(writeBack(image(b), row0(b), og, fetched,
                           slotOf(b, panelSlot), !deferDrain)))
        status = failure();
    };
    // With an epilogue, block b + 1's LHS waves and block b - 1's
    // write-back go together: each wave is followed by a chunk of the
    // write-back's rows, whose DMAs fill the DMA engine meanwhile.
    auto packAndBack = [&](Value b, bool drainPrev) {
      Value next = l.add(b, 1), prevB = l.sub(b, l.c(1));
      finishCompactHalo(slotOf(next, 1));
      if (drainPrev)
        l.wait(kSemOut, writeBackDmas());
      SmallVector<std::pair<int64_t, std::pair<int64_t, int64_t>>> waves;
      for (int64_t st = 0; st < pSteps; ++st)
        for (auto wave : packWaves(st))
          waves.push_back({st, wave});
      int64_t nw = static_cast<int64_t>(waves.size());
      int64_t chunk = ceilDiv(R, nw);
      int64_t epFetched = fetched;
      auto backRows = [&](int64_t from, int64_t to) {
        rowBegin = std::min(R, from);
        rowCount = std::min(R, to) - rowBegin;
        if (rowCount > 0 &&
            failed(writeBack(image(prevB), row0(prevB), og, epFetched,
                             slotOf(prevB, panelSlot), /*drain=*/false)))
          status = failure();
        epFetched = 0;
      };
      for (int64_t w = 0; w < nw; ++w) {
        auto [st, wave] = waves[w];
        packLhsWave(st, wave.first, wave.second, slotOf(next, compactSlot(2)),
                    slotOf(next, lhsSet));
        backRows(w * chunk, (w + 1) * chunk);
      }
      backRows(nw * chunk, R);
      rowBegin = 0, rowCount = R;
    };
    // Not for roots whose staging shares pages (bf16): their write-back's
    // DMAs are half an f32 one's, and the epilogue's issue delayed the
    // waves (resnet50's stem in mixed_bfloat16: +0.5 us interleaved).
    bool interleave =
        deferDrain && gatherParts == 1 && !ep->stagingSharesPages();
    // Block b's steps, block b + 1's LHS (`next`), block b + 2's halo
    // (`afterNext`), block b - 1's write-back (`prev`; block b - 2's
    // drained first when b >= 2).
    auto iteration = [&](Value b, bool next, bool afterNext, bool prev,
                         bool drainPrev) {
      packedSteps(slotOf(b, lhsSet), slotOf(b, panelSlot));
      if (interleave && next && prev) {
        packAndBack(b, drainPrev);
        if (afterNext)
          fetchHalo(l.add(b, 2));
        fetchEp(b);
        return;
      }
      if (next)
        pack(l.add(b, 1));
      if (afterNext)
        fetchHalo(l.add(b, 2));
      if (prev)
        back(l.sub(b, l.c(1)), drainPrev);
      fetchEp(b);
    };
    pack(l.c(0));
    zeroLhs(1);
    iteration(l.c(0), nb > 1, nb > 2, false, false);
    // Blocks 1 .. nb - 3 (block 1 peeled: nothing to drain before block
    // 0's write-back).
    if (nb > 3)
      iteration(l.c(1), true, true, true, false);
    if (nb > 4)
      l.loop(nb - 4, [&](Value b) {
        iteration(l.add(b, 2), true, true, true, true);
      });
    if (nb > 2)
      iteration(l.c(nb - 2), true, false, true, nb - 2 >= 2);
    if (nb > 1)
      iteration(l.c(nb - 1), false, false, true, nb - 1 >= 2);
    back(l.c(nb - 1), nb >= 2);
    if (deferDrain)
      l.wait(kSemOut, writeBackDmas());
    // The next group's first halos (after the last group, drained below).
    if (groups > 1)
      start();
  });
  if (groups > 1)
    l.wait(kSemIn, (nb > 1 ? 2 : 1) * HR);
}

int64_t ConvMxuKernel::rowChunks() const {
  // Direct LHS runs only (a gathered LHS is built for the whole block);
  // not for bf16 results without an epilogue (rounded as whole panels).
  if (!streams(R) || !direct || gatherParts != 1 || (ct.ob == 2 && !ep))
    return 1;
  // Two chunks, when each MXU task still streams 3D rows (a task's weight
  // load waits for the MXU's task before last to drain, 2D cycles, and
  // takes D: shorter tasks leave the MXU idle; more chunks lost on
  // resnet50) and the chunks' rows are spread over as many MXUs.
  if (R % 2)
    return 1;
  MxuSplit half = l.splitForMxus(G, R / 2 * pitch, kSublanes);
  return half.parts == split.parts && half.partRows >= 3 * D ? 2 : 1;
}

void ConvMxuKernel::streamedGroups(LogicalResult &status) {
  chunks = rowChunks();
  Value n = l.c(0), oh0 = l.c(0);
  int64_t groups = OtD / G, steps = kpos * CtD, total = groups * steps;
  int64_t slots = wSlots, ahead = slots - 1;
  // Flat step i = (og * kpos + kp) * CtD + cbD: window positions outer,
  // input D-blocks inner and unrolled (a block's row counts are static),
  // so step i + ahead's block (cbD + ahead) % CtD is static too. Its
  // weights go to stage slot i % slots, fetched at step i - ahead once
  // the step before it has freed that slot.
  auto flat = [&](Value og, Value kp, int64_t cbD) {
    return l.add(l.mul(l.add(l.mul(og, kpos), kp), CtD), cbD);
  };
  auto fetch = [&](Value i, int64_t cbD) {
    Value pos = l.div(i, CtD);
    fetchWeights(l.div(pos, kpos), l.rem(pos, kpos), cbD * blocks,
                 (cbD + 1) * blocks, l.rem(i, slots));
  };
  // The halo is the same for every group: filled once, the first steps'
  // weights fetched behind its DMA (they arrive while it is rounded), its
  // padding zeroed while the DMA runs. With row chunks and one group, the
  // weights are fetched behind the pieces the first chunk reads, which
  // start its steps; the other pieces are filled between its positions.
  int64_t rc = R / chunks;
  int64_t readyRows = chunks > 1 && groups == 1
                          ? (rc - 1) * win.sh + (win.kh - 1) * win.dh + 2
                          : 0;
  fillHalo(n, oh0, [&] {
    for (int64_t i = 0; i < std::min(ahead, total); ++i)
      fetch(l.c(i), i % CtD);
    // (A halo fetched by DMA has no padding: nothing to zero.)
    if (!haloByDma)
      zeroFill(l, halo, l.b.getBF16Type(),
               Lowering::pages(CtPad * HR * Wp * kBfRow + spare));
    if (ep && failed(ep->sourcesReady()))
      status = failure();
  }, readyRows);
  // Steps of position kp of group og; `prefetch(cbD)`: whether its step
  // cbD fetches step i + ahead (not past the last).
  auto position = [&](Value og, Value kp, bool first,
                      function_ref<bool(int64_t)> prefetch) {
    for (int64_t cbD = 0; cbD < CtD; ++cbD) {
      Value i = flat(og, kp, cbD);
      l.wait(kSemW, stepFetches(cbD));
      if (prefetch(cbD))
        fetch(l.add(i, ahead), (cbD + ahead) % CtD);
      convertWeights(kp, cbD * blocks, (cbD + 1) * blocks, l.rem(i, slots));
      step(l.add(l.mul(kp, CtD), cbD), first && cbD == 0);
    }
  };
  auto always = [](int64_t) { return true; };
  // Row chunks: the first chunk's rows are computed as the weights stream
  // in; the other chunks' steps reuse the resident weights. Every chunk's
  // steps are issued before the first write-back, so each chunk's epilogue
  // and write-back run while the MXUs compute the chunks after it.
  auto chunk = [&](int64_t c) {
    rowBegin = c * rc, rowCount = chunks > 1 ? rc : R;
    rowSplit = chunks > 1 ? l.splitForMxus(G, rc * pitch, kSublanes) : split;
  };
  auto group = [&](Value og, bool last) {
    // The epilogue's inputs chunk by chunk, so that a chunk's epilogue
    // waits only for its own rows.
    SmallVector<int64_t> fetched(chunks, 0);
    for (int64_t c = 0; c < chunks && ep; ++c) {
      chunk(c);
      fetched[c] = fetchEpilogueInputs(n, oh0, og);
    }
    chunk(0);
    // The last group's positions from `tail` on are unrolled: some of
    // their steps have no step `ahead` after them.
    int64_t tail = last ? std::clamp<int64_t>((steps - ahead) / CtD, 1, kpos)
                        : kpos;
    position(og, l.c(0), /*first=*/true, [&](int64_t cbD) {
      return !last || cbD + ahead < steps;
    });
    // Pending halo pieces: one filled after each position from the second
    // on (the MXUs then have two positions' matmuls queued: 16,586 ->
    // 16,409 cycles for resnet50's 3x3 64 -> 64 against a fill after the
    // first), those positions unrolled.
    int64_t looped = 1;
    for (; haloPending() && looped < tail; ++looped) {
      position(og, l.c(looped), false, always);
      fillHaloPiece();
    }
    l.loop(tail - looped, [&](Value kp) {
      position(og, l.add(kp, looped), false, always);
    });
    for (int64_t kp = tail; kp < kpos; ++kp) {
      position(og, l.c(kp), false,
               [&](int64_t cbD) { return kp * CtD + cbD + ahead < steps; });
      if (haloPending())
        fillHaloPiece();
    }
    while (haloPending())
      fillHaloPiece();
    for (int64_t c = 1; c < chunks; ++c) {
      chunk(c);
      step(l.c(0), /*first=*/true);
      l.loop(steps - 1, [&](Value s) { step(l.add(s, 1), false); });
    }
    // The chunks' write-backs are drained together: a chunk's epilogue
    // need not wait for the previous chunk's DMAs; it waits for its own
    // inputs only.
    for (int64_t c = 0; c < chunks; ++c) {
      chunk(c);
      if (failed(writeBack(n, oh0, og, fetched[c], {},
                           /*drain=*/chunks == 1)))
        status = failure();
    }
    rowBegin = 0, rowCount = R, rowSplit = split;
    if (chunks > 1)
      l.wait(kSemOut, writeBackDmas());
  };
  l.loop(groups - 1, [&](Value og) { group(og, false); });
  group(l.c(groups - 1), true);
}

} // namespace

static LogicalResult lowerConvMxu(Lowering &l, hlo::ConvolutionOp op) {
  return ConvMxuKernel(l, op).run();
}

//===----------------------------------------------------------------------===//
// Weight gradient (f01b_i01o->01bf) on the MXU
//===----------------------------------------------------------------------===//

namespace {

// out[p0,p1,c,co] = sum_{n,k0,k1} dy[n,k0,k1,co] *
//                   x[n, p0*s0 + k0*d0 - pt, p1*s1 + k1*d1 - pl, c]:
// per output position p a GEMM with M = c, K = the pixels (n, k0, k1) of dy,
// N = co. A 128-pixel block of dy (16 row tiles) is the MXU weight tile as
// it is laid out; the LHS rows (c, pixels on lanes) are the 128 gathered x
// rows of those pixels transposed by the XLU. All output positions stack
// into one LHS of P * Cp rows per pixel block.
class ConvWeightGradKernel {
public:
  ConvWeightGradKernel(Lowering &l, hlo::ConvolutionOp op)
      : l(l), op(op), ct(typesOf(op)), win(ct.win) {}
  LogicalResult run();

private:
  /// The sizes; a diagnostic when the kernel's VMEM exceeds the budget.
  LogicalResult plan();
  /// The operands' HBM buffers and the VMEM buffers (xpad and the panels
  /// zeroed).
  LogicalResult allocate();
  /// Image n of x into xpad: bf16, [input block][padded row][padded
  /// column][128], zero outside the image.
  void fillXpad(Value n);
  /// dy's pixel block kb of image n (valid row tiles) as bf16 weights: D
  /// rows per output tile, the D x D weight tile of MXU tile g being output
  /// tiles g*blocks.. in lane blocks. Pixels past OWd in a row tile, tiles
  /// past the image and output tiles past COt are zero.
  void prepareWeights(Value n, Value kb, int64_t valid);
  /// The LHS of pixel block kb, [blocks][M][128]: for each output position
  /// p, input block cb and 128-pixel block i, 16 gathers of 8 pixels' x
  /// rows, one transpose, Cp/8 row stores.
  void buildLhs(Value kb, int64_t valid, Value slot);
  /// Pixel block kb of image n accumulated into the panels.
  void block(Value n, Value kb, int64_t valid);
  /// The panels are the output's tiles of each output column tile: one
  /// piece each, through the epilogue when there is one.
  LogicalResult writeBack();

  Lowering &l;
  hlo::ConvolutionOp op;
  ConvTypes ct;
  const Window &win;
  std::optional<EpilogueKernel> ep;
  int64_t N = 0, H = 0, W = 0, C = 0, OHd = 0, OWd = 0, CO = 0;
  int64_t P0 = 0, P1 = 0, P = 0, Wt = 0, Ct = 0, Cp = 0, COt = 0;
  int64_t OWdt = 0, T1 = 0;
  // A D x D MXU takes K = D pixels (PT row tiles of dy) and D output
  // features (`blocks` 128-wide output tiles; COtPad of them, the ones past
  // COt zero) at a time.
  int64_t D = 128, blocks = 1, PT = 0, COtD = 0, COtPad = 0;
  int64_t KB = 0, lastValid = 0, M = 0;
  int64_t inTile = 0, outTile = 0, dyTile = 0;
  int64_t bfRow = kLanes * 2, otWeights = 0; // one output tile's
  int64_t Hp = 0, Wp = 0;
  int64_t panelTiles = 0;
  MxuSplit split;
  Value x, dy, out;
  VBuf stage, xpad, lhs, panels, outStage, weights, wStage;
};

LogicalResult ConvWeightGradKernel::run() {
  if (win.revH || win.revW)
    return unsupported(op, "(weight gradient) with window_reversal");
  if (failed(plan()) || failed(allocate()))
    return failure();
  // Every MXU computes: the COtD tiles, and parts of the rows when they
  // are fewer than the MXUs (with one block only: the LHS is
  // [blocks][M][128]).
  split = l.splitForMxus(COtD, M, blocks > 1 ? M : kSublanes);
  l.loop(N, [&](Value n) {
    fillXpad(n);
    l.loop(KB - 1, [&](Value kb) { block(n, kb, PT); });
    block(n, l.c(KB - 1), lastValid);
  });
  return writeBack();
}

LogicalResult ConvWeightGradKernel::plan() {
  RankedTensorType lhsType = ct.lhs, rhsType = ct.rhs, type = ct.out;
  N = lhsType.getDimSize(0);
  H = lhsType.getDimSize(1);
  W = lhsType.getDimSize(2);
  C = lhsType.getDimSize(3);
  OHd = rhsType.getDimSize(1);
  OWd = rhsType.getDimSize(2);
  CO = rhsType.getDimSize(3);
  P0 = type.getDimSize(0);
  P1 = type.getDimSize(1);
  P = P0 * P1;
  Wt = ceilDiv(W, kSublanes);
  Ct = ceilDiv(C, kLanes);
  Cp = ceilDiv(C, kSublanes) * kSublanes;
  COt = ceilDiv(CO, kLanes);
  OWdt = ceilDiv(OWd, kSublanes);
  T1 = OHd * OWdt;
  D = l.mxuDim();
  blocks = l.mxuBlocks();
  PT = D / kSublanes;
  COtD = ceilDiv(COt, blocks);
  COtPad = COtD * blocks;
  KB = ceilDiv(T1, PT);
  lastValid = T1 - PT * (KB - 1);
  M = P * Cp;
  inTile = kSublanes * kLanes * ct.ib;
  outTile = kSublanes * kLanes * ct.ob;
  dyTile = kSublanes * kLanes * ct.wb;
  otWeights = D * bfRow;
  Hp = std::max((P0 - 1) * win.sh + (OHd - 1) * win.dh + 1, win.pt + H);
  Wp = std::max((P1 - 1) * win.sw + (OWdt * kSublanes - 1) * win.dw + 1,
                win.pl + Wt * kSublanes);
  Wp = ceilDiv(Wp, kSublanes) * kSublanes;

  if (failed(EpilogueKernel::take(l, op.getResult(), ep)))
    return failure();
  panelTiles = COtPad * M / kSublanes;
  int64_t needed =
      Lowering::pages(H * Wt * Ct * inTile) +
      Lowering::pages(Ct * Hp * Wp * bfRow) + Lowering::pages(2 * M * D * 2) +
      Lowering::pages(COtPad * M * kLanes * 4) +
      (ct.ob == 2 && !ep ? Lowering::pages(COtPad * M * bfRow) : 0) +
      Lowering::pages(COtPad * otWeights) + Lowering::pages(COt * PT * dyTile) +
      (ep ? ep->vmemBytes(panelTiles, 1) : 0);
  if (needed > vmemBudget(l))
    return vmemError(l, op, needed);
  return success();
}

LogicalResult ConvWeightGradKernel::allocate() {
  FailureOr<ConvMems> mems = memsOf(l, op, /*withResult=*/!ep);
  if (failed(mems))
    return failure();
  x = mems->lhs;
  dy = mems->rhs;
  out = mems->out;
  Type bf16 = l.b.getBF16Type(), f32 = l.b.getF32Type();
  stage = l.vmem(ct.inElem, H * Wt * Ct * inTile);
  xpad = l.vmem(bf16, Ct * Hp * Wp * bfRow);
  lhs = l.vmem(bf16, 2 * M * D * 2);
  panels = l.vmem(f32, COtPad * M * kLanes * 4);
  outStage = ct.ob == 2 && !ep ? l.vmem(bf16, COtPad * M * bfRow) : VBuf();
  weights = l.vmem(bf16, COtPad * otWeights);
  wStage = l.vmem(ct.rhs.getElementType(), COt * PT * dyTile);
  if (ep && failed(ep->begin(panelTiles, 1)))
    return failure();

  zeroFill(l, xpad, bf16, Lowering::pages(Ct * Hp * Wp * bfRow));
  zeroFill(l, panels, f32, Lowering::pages(COtPad * M * kLanes * 4));
  return success();
}

void ConvWeightGradKernel::fillXpad(Value n) {
  l.dma(x, l.mul(n, H * Wt * Ct * inTile), stage.arena, l.c(stage.offset), 1,
        H * Wt * Ct * inTile, 0, 0, kSemIn);
  l.wait(kSemIn, 1);
  l.loop(H, [&](Value h) {
    for (int64_t cb = 0; cb < Ct; ++cb) {
      auto column = [&](Value j, bool last) {
        Value v = l.vload(
            stage, l.mul(l.add(l.mul(l.add(l.mul(h, Wt), j), Ct), cb), inTile));
        Value laneIds = tpu::VLaneIdOp::create(l.b, l.loc, l.i32Reg());
        v = l.maskBelow(v, laneIds, l.c(std::min(kLanes, C - cb * kLanes)),
                        0.0);
        if (last && W % kSublanes) {
          Value sublaneIds = tpu::VSublaneIdOp::create(l.b, l.loc, l.i32Reg());
          v = l.maskBelow(v, sublaneIds, l.c(W % kSublanes), 0.0);
        }
        Value row = l.add(h, cb * Hp + win.pt);
        l.vstore(
            v, xpad,
            l.mul(l.add(l.mul(row, Wp), l.add(l.mul(j, kSublanes), win.pl)),
                  bfRow));
      };
      l.loop(Wt - 1, [&](Value j) { column(j, false); });
      column(l.c(Wt - 1), true);
    }
  });
}

void ConvWeightGradKernel::prepareWeights(Value n, Value kb, int64_t valid) {
  Value t0 = l.add(l.mul(n, T1), l.mul(kb, PT));
  for (int64_t ot = 0; ot < COt; ++ot)
    l.dma(dy, l.mul(l.add(l.mul(t0, COt), ot), dyTile), wStage.arena,
          l.c(wStage.offset + ot * PT * dyTile), valid, dyTile, COt * dyTile,
          dyTile, kSemW);
  l.wait(kSemW, COt);
  Value zero = l.splatF32(0.0);
  for (int64_t ot = 0; ot < COtPad; ++ot) {
    l.loop(ot < COt ? valid : 0, [&](Value t) {
      Value v = l.vload(wStage, l.add(l.mul(t, dyTile), ot * PT * dyTile));
      if (OWd % kSublanes) {
        Value jt = l.rem(l.add(l.mul(kb, PT), t), OWdt);
        Value left = l.sub(l.c(OWd), l.mul(jt, kSublanes));
        Value sublaneIds = tpu::VSublaneIdOp::create(l.b, l.loc, l.i32Reg());
        v = l.maskBelow(v, sublaneIds, left, 0.0);
      }
      l.vstore(v, weights, l.add(l.mul(t, kSublanes * bfRow), ot * otWeights));
    });
    for (int64_t t = ot < COt ? valid : 0; t < PT; ++t)
      l.vstore(zero, weights, l.c(ot * otWeights + t * kSublanes * bfRow));
  }
}

void ConvWeightGradKernel::buildLhs(Value kb, int64_t valid, Value slot) {
  l.loop(P, [&](Value p) {
    Value p0 = l.div(p, P1), p1 = l.rem(p, P1);
    for (int64_t cb = 0; cb < Ct; ++cb)
      for (int64_t i = 0; i < blocks; ++i) {
        SmallVector<Value> rows;
        for (int64_t tt = 0; tt < 16; ++tt) {
          if (i * 16 + tt >= valid) {
            rows.push_back(l.splatF32(0.0));
            continue;
          }
          Value t = l.add(l.mul(kb, PT), i * 16 + tt);
          Value k0 = l.div(t, OWdt), jt = l.rem(t, OWdt);
          Value row =
              l.add(l.add(l.mul(p0, win.sh), l.mul(k0, win.dh)), cb * Hp);
          Value col = l.add(l.mul(p1, win.sw), l.mul(jt, kSublanes * win.dw));
          rows.push_back(l.vload(xpad, l.mul(l.add(l.mul(row, Wp), col), bfRow),
                                 win.dw * bfRow));
        }
        auto tr = tpu::VTransposeOp::create(
            l.b, l.loc, SmallVector<Type>(16, rows[0].getType()), rows);
        int64_t stores = std::min<int64_t>(16, (Cp - cb * kLanes) / kSublanes);
        Value base =
            l.add(slot, l.mul(l.add(l.mul(p, Cp), cb * kLanes + i * M), bfRow));
        for (int64_t r = 0; r < stores; ++r)
          l.vstore(tr.getResult(r), lhs, l.add(base, r * kSublanes * bfRow));
      }
  });
}

void ConvWeightGradKernel::block(Value n, Value kb, int64_t valid) {
  Value slot = l.mul(l.rem(l.add(l.mul(n, KB), kb), 2), M * D * 2);
  prepareWeights(n, kb, valid);
  buildLhs(kb, valid, slot);
  matmulTiles(
      l, split, M, weights,
      [&](int64_t g) { return l.c(g * blocks * otWeights); }, lhs, slot, panels,
      /*accumulate=*/true);
}

LogicalResult ConvWeightGradKernel::writeBack() {
  if (ep)
    return applyPanelEpilogue(l, *ep, panels, M / kSublanes, COt);
  const VBuf &src =
      resultPanels(l, panels, outStage, ct.ob, COt * M * kLanes * 4);
  for (int64_t ot = 0; ot < COt; ++ot)
    l.dma(src.arena, l.c(src.offset + ot * M / kSublanes * outTile), out,
          l.c(ot * outTile), M / kSublanes, outTile, outTile, COt * outTile,
          kSemOut);
  l.wait(kSemOut, COt);
  return success();
}

} // namespace

static LogicalResult lowerConvWeightGrad(Lowering &l, hlo::ConvolutionOp op) {
  return ConvWeightGradKernel(l, op).run();
}

//===----------------------------------------------------------------------===//
// Depthwise NCHW on the VPU
//===----------------------------------------------------------------------===//

/// The start of a depthwise kernel needing `needed` bytes of VMEM, the
/// whole kernel (`kbuf`, `gk` its geometry) among them: the VMEM check, the
/// HBM buffers, and the kernel's DMA on kSemW. A splat filter
/// (`splatFilter`) is an immediate: no buffer, no DMA, no VMEM.
static FailureOr<ConvMems> startDepthwise(Lowering &l, hlo::ConvolutionOp op,
                                          const ConvTypes &ct,
                                          const Geometry &gk, int64_t needed,
                                          std::optional<double> splatFilter,
                                          VBuf &kbuf) {
  if (splatFilter)
    needed -= gk.bytes();
  if (needed > vmemBudget(l))
    return vmemError(l, op, needed);
  FailureOr<ConvMems> mems = memsOf(l, op, /*withResult=*/true,
                                    /*withFilter=*/!splatFilter);
  if (failed(mems) || splatFilter)
    return mems;
  kbuf = l.vmem(ct.wElem, gk.bytes());
  l.dma(mems->rhs, l.c(0), kbuf.arena, l.c(kbuf.offset), 1, gk.bytes(), 0, 0,
        kSemW);
  return mems;
}

/// Depthwise NCHW with a plane at most 128 lanes wide (`W + pl <= 128`, one
/// output lane tile): the planes are DMAd straight into zero-padded slots
/// (no VPU copy), two planes side by side in the lane halves of a slot when
/// both fit in 64 lanes, so one vreg multiply-add serves two channels.
/// Groups of slots are double-buffered, the loop over groups unrolled by
/// two so every VMEM address is a constant. The sums are the interpreter's
/// (products in (kh, kw) order), except that they start from the first
/// product rather than +0 (the sign of a zero sum may differ). Returns
/// false (nothing emitted) when the plane does not fit.
static FailureOr<bool> lowerDepthwiseNchwPacked(Lowering &l,
                                                hlo::ConvolutionOp op,
                                                const ConvTypes &ct) {
  const Window &win = ct.win;
  int64_t N = ct.lhs.getDimSize(0), C = ct.lhs.getDimSize(1);
  int64_t H = ct.lhs.getDimSize(2), W = ct.lhs.getDimSize(3);
  int64_t OH = ct.out.getDimSize(2), OW = ct.out.getDimSize(3);
  int64_t ib = ct.ib, ob = ct.ob;
  // Lanes a plane spans: an output lane w reads padded columns up to
  // w + (kw - 1) * dw; the data sits at pl .. pl + W - 1.
  int64_t span = std::max(win.pl + W, OW + (win.kw - 1) * win.dw);
  if (span > kLanes || N * C == 0 || H == 0 || OH == 0 || OW == 0)
    return false;
  int64_t P = 2 * span <= kLanes ? 2 : 1, half = kLanes / P;
  int64_t OHt = ceilDiv(OH, kSublanes), Ht = ceilDiv(H, kSublanes);
  int64_t rowsNeeded =
      (OHt * kSublanes - 1) * win.sh + (win.kh - 1) * win.dh + 1;
  // One spare row: the loads of the last rows run (kw - 1) * dw lanes on.
  int64_t slotRows = std::max(rowsNeeded, win.pt + H) + 1;
  // Slots are whole pages: a DMA into a page waits for the earlier DMAs
  // into it (the VMEM scoreboard), so only the two planes of a slot wait
  // for each other.
  int64_t pitch = kLanes * ib,
          slotBytes = Lowering::pages(slotRows * pitch);
  int64_t inPlane = Ht * kSublanes * kLanes * ib;
  int64_t outTile = kSublanes * kLanes * ob, outPlane = OHt * outTile;
  int64_t planes = N * C, pairs = ceilDiv(planes, P);
  int64_t taps = win.kh * win.kw;
  // Enough pairs per group that a group's compute (about 3 VPU ops per
  // tap and output tile) covers the next group's DMA latency.
  int64_t G = std::clamp<int64_t>(ceilDiv(1536, 3 * taps * OHt), 1, 8);
  G = std::min(G, pairs);
  int64_t groupPlanes = G * P, groups = ceilDiv(planes, groupPlanes);
  auto planesOf = [&](int64_t g) {
    return std::min(groupPlanes, planes - g * groupPlanes);
  };

  Geometry gk = geometryOf(ct.rhs);
  int64_t inBytes = 2 * G * slotBytes, outBytes = 2 * groupPlanes * outPlane;
  int64_t needed = gk.bytes() + Lowering::pages(inBytes) + outBytes;
  VBuf kbuf;
  std::optional<double> splatFilter = analysis::filterImmediate(op);
  FailureOr<ConvMems> mems =
      startDepthwise(l, op, ct, gk, needed, splatFilter, kbuf);
  if (failed(mems))
    return failure();
  Value in = mems->lhs, out = mems->out;
  VBuf inBuf = l.vmem(ct.inElem, Lowering::pages(inBytes));
  VBuf outBuf = l.vmem(ct.outElem, outBytes);
  zeroFill(l, inBuf, ct.inElem, Lowering::pages(inBytes));
  // With two planes a slot, the upper half of each second plane's last row
  // is written by no store (see pair).
  if (P == 2)
    zeroFill(l, outBuf, ct.outElem, Lowering::pages(outBytes));
  Value lowHalf;
  if (P == 2 && !splatFilter)
    lowHalf = l.vcmp(tpu::CmpKind::lt,
                     tpu::VLaneIdOp::create(l.b, l.loc, l.i32Reg()),
                     l.splatIndex(l.c(half)));
  Value splatTap;
  if (splatFilter)
    splatTap = l.splatF32(*splatFilter);
  else
    l.wait(kSemW, 1);

  // Group g's planes into the slots of buffer `par`: plane k of the group
  // in slot k / P, lane half k % P; only data bytes are written, so the
  // padding stays zero. The first planes of all slots go first, the second
  // ones (waiting for the first) after them.
  auto fetch = [&](Value g, int64_t par, int64_t n) {
    Value base = l.mul(g, groupPlanes * inPlane);
    for (int64_t i = 0; i < groupPlanes; ++i) {
      int64_t k = i % G * P + i / G;
      if (k >= n)
        continue;
      int64_t dst = inBuf.offset + (par * G + k / P) * slotBytes +
                    win.pt * pitch + (k % P * half + win.pl) * ib;
      l.dma(in, l.add(base, k * inPlane), inBuf.arena, l.c(dst), H, W * ib,
            pitch, pitch, kSemIn);
    }
  };
  // One pair: the taps as splats (lane halves from the two channels'
  // windows), then per output tile the sum of the taps in (kh, kw) order,
  // the interpreter's.
  auto pair = [&](Value g, int64_t par, int64_t j, int64_t n) {
    SmallVector<Value> tap(taps, splatTap);
    SmallVector<Value, 2> k;
    for (int64_t h = 0; h < P && !splatFilter; ++h) {
      Value plane = l.add(l.mul(g, groupPlanes), j * P + std::min(h, n - 1));
      Value c = N == 1 ? plane : l.rem(plane, C);
      k.push_back(l.vload(kbuf, l.mul(c, gk.tileBytes())));
    }
    for (int64_t kw = 0; kw < win.kw && !splatFilter; ++kw) {
      Value lane = tpu::VBroadcastLaneOp::create(l.b, l.loc, k[0], l.c(kw));
      if (P == 2)
        lane = l.vsel(lowHalf, lane,
                      tpu::VBroadcastLaneOp::create(l.b, l.loc, k[1], l.c(kw)));
      for (int64_t kh = 0; kh < win.kh; ++kh)
        tap[kh * win.kw + kw] =
            tpu::VBroadcastSublaneOp::create(l.b, l.loc, lane, l.c(kh));
    }
    int64_t slot = (par * G + j) * slotBytes;
    int64_t outSlot = (par * G + j) * P * outPlane;
    for (int64_t oht = 0; oht < OHt; ++oht) {
      Value acc;
      // Input positions in order, the weights of a reversed dim reversed.
      for (int64_t kh = 0; kh < win.kh; ++kh)
        for (int64_t kw = 0; kw < win.kw; ++kw) {
          int64_t i = win.revH ? win.kh - 1 - kh : kh;
          int64_t j = win.revW ? win.kw - 1 - kw : kw;
          int64_t row = oht * kSublanes * win.sh + kh * win.dh;
          Value x = l.vload(inBuf, l.c(slot + row * pitch + kw * win.dw * ib),
                            win.sh * pitch);
          Value prod = tpu::VMulOp::create(l.b, l.loc, x, tap[i * win.kw + j]);
          acc = acc ? tpu::VAddOp::create(l.b, l.loc, acc, prod).getResult()
                    : prod;
        }
      // The upper half goes to the second plane by a store 64 lanes early:
      // its lower half lands in padding lanes of the row before.
      for (int64_t h = 0; h < n; ++h)
        l.vstore(acc, outBuf,
                 l.c(outSlot + h * outPlane + oht * outTile - h * half * ob));
    }
  };
  auto step = [&](Value g, int64_t par, int64_t n, int64_t nextN,
                  bool waitOut) {
    l.wait(kSemIn, n);
    if (nextN)
      fetch(l.add(g, 1), 1 - par, nextN);
    if (waitOut)
      l.wait(kSemOut, 1);
    for (int64_t j = 0; j * P < n; ++j)
      pair(g, par, j, std::min(P, n - j * P));
    l.dma(outBuf.arena, l.c(outBuf.offset + par * groupPlanes * outPlane), out,
          l.mul(g, groupPlanes * outPlane), 1, n * outPlane, 0, 0, kSemOut);
  };
  auto stepAt = [&](int64_t g) {
    step(l.c(g), g % 2, planesOf(g), g + 1 < groups ? planesOf(g + 1) : 0,
         g >= 2);
  };
  // Groups 0 and 1 inline; then full groups followed by a full group two
  // at a time in a loop (buffers 0 and 1); the rest inline.
  fetch(l.c(0), 0, planesOf(0));
  int64_t g = 0;
  for (; g < std::min<int64_t>(groups, 2); ++g)
    stepAt(g);
  int64_t lastFull = planes % groupPlanes ? groups - 2 : groups - 1;
  int64_t twice = std::max<int64_t>(0, (lastFull - g) / 2);
  l.loop(twice, [&](Value i) {
    Value g0 = l.add(l.mul(i, 2), g);
    step(g0, 0, groupPlanes, groupPlanes, true);
    step(l.add(g0, 1), 1, groupPlanes, groupPlanes, true);
  });
  for (g += 2 * twice; g < groups; ++g)
    stepAt(g);
  l.wait(kSemOut, std::min<int64_t>(groups, 2));
  return true;
}

static LogicalResult lowerDepthwiseNchw(Lowering &l, hlo::ConvolutionOp op) {
  ConvTypes ct = typesOf(op);
  RankedTensorType lhsType = ct.lhs, rhsType = ct.rhs, type = ct.out;
  const Window &win = ct.win;
  if (win.sw != 1)
    return unsupported(op, "(depthwise NCHW) with a stride along the minor "
                           "dimension");
  Type inElem = ct.inElem, outElem = ct.outElem;
  int64_t ib = ct.ib, ob = ct.ob;
  int64_t N = lhsType.getDimSize(0), C = lhsType.getDimSize(1);
  int64_t H = lhsType.getDimSize(2), W = lhsType.getDimSize(3);
  int64_t OH = type.getDimSize(2), OW = type.getDimSize(3);
  int64_t Ht = ceilDiv(H, kSublanes), Wl = ceilDiv(W, kLanes);
  int64_t OHt = ceilDiv(OH, kSublanes), OWl = ceilDiv(OW, kLanes);
  int64_t inTile = kSublanes * kLanes * ib, outTile = kSublanes * kLanes * ob;
  Geometry gk = geometryOf(rhsType);
  int64_t kTilesPerChannel = gk.rowTiles * gk.colTiles;
  if (kTilesPerChannel != 1)
    return unsupported(op, "(depthwise NCHW) with a window above 8x128");
  FailureOr<bool> packed = lowerDepthwiseNchwPacked(l, op, ct);
  if (failed(packed))
    return failure();
  if (*packed)
    return success();

  // The padded f32 plane: rows [Hp], a pitch of Pw elements; input (h, w)
  // at (pt + h, pl + w). Output tile (oht, ojt) at window position
  // (kh, kw) reads 8 rows at a sublane stride of sh rows.
  int64_t rowsNeeded =
      (OHt * kSublanes - 1) * win.sh + (win.kh - 1) * win.dh + 1;
  int64_t colsNeeded = OWl * kLanes - 1 + (win.kw - 1) * win.dw + 1;
  int64_t Hp =
      ceilDiv(std::max(rowsNeeded, win.pt + Ht * kSublanes), kSublanes) *
      kSublanes;
  int64_t Pw =
      ceilDiv(std::max(colsNeeded, win.pl + Wl * kLanes), kLanes) * kLanes;
  int64_t planeBytes = Hp * Pw * 4;

  int64_t inPlane = Ht * Wl * inTile, outPlane = OHt * OWl * outTile;
  int64_t needed = gk.bytes() + planeBytes + 2 * inPlane + 2 * outPlane;
  VBuf kbuf;
  std::optional<double> splatFilter = analysis::filterImmediate(op);
  FailureOr<ConvMems> mems =
      startDepthwise(l, op, ct, gk, needed, splatFilter, kbuf);
  if (failed(mems))
    return failure();
  Value in = mems->lhs, out = mems->out;
  Type f32 = l.b.getF32Type();

  VBuf stage = l.vmem(inElem, 2 * inPlane);
  VBuf plane = l.vmem(f32, planeBytes);
  VBuf outStage = l.vmem(outElem, 2 * outPlane);
  zeroFill(l, plane, f32, Lowering::pages(planeBytes));
  Value laneIds = tpu::VLaneIdOp::create(l.b, l.loc, l.i32Reg());
  Value sublaneIds = tpu::VSublaneIdOp::create(l.b, l.loc, l.i32Reg());
  Value splatTap;
  if (splatFilter)
    splatTap = l.splatF32(*splatFilter);
  else
    l.wait(kSemW, 1);

  // Planes are double-buffered: plane nc + 1 is fetched and plane nc - 1
  // written back while plane nc is computed.
  auto fetch = [&](Value nc) {
    l.dma(in, l.mul(nc, inPlane), stage.arena,
          l.add(l.mul(l.rem(nc, 2), inPlane), stage.offset), 1, inPlane, 0, 0,
          kSemIn);
  };
  auto planeStep = [&](Value nc, bool hasPrev, bool hasNext) {
    Value c = l.rem(nc, C);
    Value inSlot = l.mul(l.rem(nc, 2), inPlane);
    Value outSlot = l.mul(l.rem(nc, 2), outPlane);
    l.wait(kSemIn, 1);
    if (hasNext)
      fetch(l.add(nc, 1));
    // Data tiles into the padded plane (ragged edges as zeros).
    for (int64_t ht = 0; ht < Ht; ++ht)
      for (int64_t wl = 0; wl < Wl; ++wl) {
        Value x = l.vload(stage, l.add(inSlot, (ht * Wl + wl) * inTile));
        if (ht == Ht - 1 && H % kSublanes)
          x = l.maskBelow(x, sublaneIds, l.c(H % kSublanes), 0.0);
        if (wl == Wl - 1 && W % kLanes)
          x = l.maskBelow(x, laneIds, l.c(W % kLanes), 0.0);
        int64_t off =
            ((win.pt + ht * kSublanes) * Pw + win.pl + wl * kLanes) * 4;
        tpu::VStoreOp::create(l.b, l.loc, x, plane.arena,
                              l.c(plane.offset + off), Pw * 4);
      }
    // This channel's window as splats, in (kh, kw) order.
    SmallVector<Value> taps(win.kh * win.kw, splatTap);
    if (!splatFilter) {
      Value k = l.vload(kbuf, l.mul(c, gk.tileBytes()));
      for (int64_t i = 0; i < win.kh; ++i)
        for (int64_t j = 0; j < win.kw; ++j) {
          Value lane = tpu::VBroadcastLaneOp::create(l.b, l.loc, k, l.c(j));
          taps[i * win.kw + j] =
              tpu::VBroadcastSublaneOp::create(l.b, l.loc, lane, l.c(i));
        }
    }
    l.loop(OHt, [&](Value oht) {
      for (int64_t ojt = 0; ojt < OWl; ++ojt) {
        Value acc = l.splatF32(0.0);
        for (int64_t kh = 0; kh < win.kh; ++kh)
          for (int64_t kw = 0; kw < win.kw; ++kw) {
            int64_t i = win.revH ? win.kh - 1 - kh : kh;
            int64_t j = win.revW ? win.kw - 1 - kw : kw;
            Value row = l.add(l.mul(oht, kSublanes * win.sh), kh * win.dh);
            Value off =
                l.mul(l.add(l.mul(row, Pw), ojt * kLanes + kw * win.dw), 4);
            Value x = l.vload(plane, off, win.sh * Pw * 4);
            Value prod =
                tpu::VMulOp::create(l.b, l.loc, x, taps[i * win.kw + j]);
            acc = tpu::VAddOp::create(l.b, l.loc, acc, prod);
          }
        l.vstore(acc, outStage,
                 l.add(outSlot, l.mul(l.add(l.mul(oht, OWl), ojt), outTile)));
      }
    });
    if (hasPrev)
      l.wait(kSemOut, 1);
    l.dma(outStage.arena, l.add(outSlot, outStage.offset), out,
          l.mul(nc, outPlane), 1, outPlane, 0, 0, kSemOut);
  };
  int64_t planes = N * C;
  fetch(l.c(0));
  planeStep(l.c(0), false, planes > 1);
  l.loop(planes - 2, [&](Value i) { planeStep(l.add(i, 1), true, true); });
  if (planes > 1)
    planeStep(l.c(planes - 1), true, false);
  l.wait(kSemOut, 1);
  return success();
}

/// Depthwise NHWC (`b01f_01io->b01f`, kernel [kh, kw, 1, C]) on the VPU,
/// channels on lanes and W on sublanes: each input row (n, h) is DMAd
/// into a ring of zero-padded VMEM rows, one page-aligned slot of W rows
/// per 128 channels; an output tile (8 ow x 128 c) is the sum over the
/// taps, in (kh, kw) order, of a sublane-strided load of the ring times the
/// tap's weights splat over sublanes. Rows outside the image read a zero
/// row. The output rows where every tap row is in the image and the ring
/// advances by the stride run in a loop, the others (top and bottom)
/// inline.
static LogicalResult lowerDepthwiseNhwc(Lowering &l, hlo::ConvolutionOp op) {
  ConvTypes ct = typesOf(op);
  const Window &win = ct.win;
  int64_t N = ct.lhs.getDimSize(0), H = ct.lhs.getDimSize(1),
          W = ct.lhs.getDimSize(2), C = ct.lhs.getDimSize(3);
  int64_t OH = ct.out.getDimSize(1), OW = ct.out.getDimSize(2);
  int64_t ib = ct.ib, ob = ct.ob;
  if (N == 0 || C == 0 || OH == 0 || OW == 0)
    return unsupported(op, "(depthwise NHWC) with an empty dimension");
  int64_t Ct = ceilDiv(C, kLanes), Wt = ceilDiv(W, kSublanes),
          OWt = ceilDiv(OW, kSublanes);
  int64_t inTile = kSublanes * kLanes * ib, outTile = kSublanes * kLanes * ob;
  int64_t pitch = kLanes * ib, taps = win.kh * win.kw;
  // A slot: rows wp = 0 .. rowsW - 1 of 128 lanes, input w at pl + w. Its
  // base is shifted so the ragged last tile starts a page: the DMA of the
  // whole tiles and that of the ragged one touch different pages and do
  // not wait for each other.
  int64_t fullW = W / kSublanes * kSublanes;
  int64_t rowsW = std::max(win.pl + W, (OWt * kSublanes - 1) * win.sw +
                                           (win.kw - 1) * win.dw + 1);
  int64_t pageBytes = Lowering::kVmemPageBytes;
  int64_t shift = (pageBytes - (win.pl + fullW) * pitch % pageBytes) % pageBytes;
  int64_t slotBytes = Lowering::pages(shift + rowsW * pitch);
  int64_t rowBytes = Ct * slotBytes;
  // Lookahead D output rows (the DMA latency behind about 600 cycles of
  // compute); ring of R rows: a slot is refetched only after the last read
  // of its row and the wait for its DMA (rows in flight or still to be
  // read at output row o: from (o - 1) * sh - pt + 1 up to those of
  // o + D).
  int64_t rowCost = std::max<int64_t>(1, 3 * taps * OWt * Ct);
  int64_t D = std::clamp<int64_t>(ceilDiv(600, rowCost), 1, 8);
  int64_t R = (D + 1) * win.sh + (win.kh - 1) * win.dh;
  // Q output rows in flight: a row's write-back is waited for Q rows on.
  int64_t Q = D + 1;
  // A splat filter is one register: no table.
  std::optional<double> splatFilter = analysis::filterImmediate(op);
  int64_t tableBytes = splatFilter ? 0 : taps * Ct * kSublanes * kLanes * 4;
  int64_t outRowBytes = OWt * Ct * outTile;
  Geometry gk = geometryOf(ct.rhs);
  int64_t needed = gk.bytes() + (R + 1) * rowBytes + tableBytes +
                   Lowering::pages(Q * outRowBytes) +
                   Lowering::pages((Q + 1) * kLanes * 4);
  VBuf kbuf;
  FailureOr<ConvMems> mems =
      startDepthwise(l, op, ct, gk, needed, splatFilter, kbuf);
  if (failed(mems))
    return failure();
  Value in = mems->lhs, out = mems->out;
  Type f32 = l.b.getF32Type();
  VBuf ring = l.vmem(ct.inElem, (R + 1) * rowBytes);
  VBuf table = splatFilter ? VBuf() : l.vmem(f32, tableBytes);
  VBuf outBuf = l.vmem(ct.outElem, Q * outRowBytes);
  VBuf scratch = l.vmem(f32, Lowering::pages((Q + 1) * kLanes * 4));
  zeroFill(l, ring, ct.inElem, Lowering::pages((R + 1) * rowBytes));
  zeroFill(l, scratch, f32, Lowering::pages((Q + 1) * kLanes * 4));
  // Q empty completions on kSemOut: every output row waits for the
  // write-back Q rows before it.
  for (int64_t i = 0; i < Q; ++i)
    l.dma(scratch.arena, l.c(scratch.offset), scratch.arena,
          l.c(scratch.offset + kLanes * 4 * (i + 1)), 1, kLanes * 4, 0, 0,
          kSemOut);
  Value splatTap;
  if (splatFilter)
    splatTap = l.splatF32(*splatFilter);
  else
    l.wait(kSemW, 1);
  // The taps' weights splat over sublanes: (tap, ct) at (tap * Ct + ct).
  for (int64_t t = 0; t < taps * Ct && !splatFilter; ++t) {
    Value w = l.vload(kbuf, l.c(t * gk.tileBytes()));
    l.vstore(tpu::VBroadcastSublaneOp::create(l.b, l.loc, w, l.c(0)), table,
             l.c(t * kSublanes * kLanes * 4));
  }

  // Input rows needed through output row x (clamped to those the last
  // output row needs, so every fetched row is waited for).
  auto raw = [&](int64_t x) {
    return x * win.sh + (win.kh - 1) * win.dh - win.pt + 1;
  };
  int64_t availMax = std::clamp<int64_t>(raw(OH - 1), 0, H);
  auto avail = [&](int64_t x) {
    return x < 0 ? 0 : std::clamp<int64_t>(raw(x), 0, availMax);
  };
  int64_t dmasPerRow =
      Ct == 1 ? 1 : Ct * ((fullW > 0 ? 1 : 0) + (W > fullW ? 1 : 0));
  auto fetchRow = [&](Value n, Value h) {
    Value src = l.mul(l.add(l.mul(n, H), h), Wt * Ct * inTile);
    Value slot = l.add(l.mul(l.rem(h, R), rowBytes), ring.offset + shift);
    if (Ct == 1) {
      l.dma(in, src, ring.arena, l.add(slot, win.pl * pitch), 1, W * pitch, 0,
            0, kSemIn);
      return;
    }
    for (int64_t c = 0; c < Ct; ++c) {
      Value dst = l.add(slot, c * slotBytes + win.pl * pitch);
      if (fullW)
        l.dma(in, l.add(src, c * inTile), ring.arena, dst, fullW / kSublanes,
              inTile, Ct * inTile, inTile, kSemIn);
      if (W > fullW)
        l.dma(in, l.add(src, (fullW / kSublanes * Ct + c) * inTile),
              ring.arena, l.add(dst, fullW * pitch), 1, (W - fullW) * pitch,
              0, 0, kSemIn);
    }
  };
  // Output row oh of image n (oh constant in `inlineOh` when not in the
  // loop): fetch ahead, wait for its rows, the tiles, the write-back.
  auto outRow = [&](Value n, Value oh, std::optional<int64_t> inlineOh) {
    int64_t o = inlineOh.value_or(-1);
    int64_t fetchFrom = inlineOh ? (o == 0 ? 0 : avail(o - 1 + D)) : 0;
    int64_t fetchTo = inlineOh ? avail(o + D) : win.sh;
    Value first = inlineOh ? l.c(0) : l.add(l.mul(oh, win.sh), raw(D - 1));
    for (int64_t r = fetchFrom; r < fetchTo; ++r)
      fetchRow(n, l.add(first, r));
    int64_t waits = inlineOh ? avail(o) - avail(o - 1) : win.sh;
    l.wait(kSemIn, waits * dmasPerRow);
    Value t = l.add(l.mul(n, OH), oh);
    Value outSlot = l.mul(l.rem(t, Q), outRowBytes);
    l.wait(kSemOut, 1);
    // The ring row of each kernel row (the zero row outside the image).
    SmallVector<Value> rowAt(win.kh);
    for (int64_t kh = 0; kh < win.kh; ++kh) {
      Value h = l.add(l.mul(oh, win.sh), kh * win.dh - win.pt);
      int64_t hc = o * win.sh + kh * win.dh - win.pt;
      rowAt[kh] = inlineOh && (hc < 0 || hc >= H)
                      ? l.c(R * rowBytes)
                      : l.mul(l.rem(h, R), rowBytes);
    }
    constexpr int64_t kChunk = 8; // accumulators live at once
    for (int64_t c = 0; c < Ct; ++c)
      for (int64_t w0 = 0; w0 < OWt; w0 += kChunk) {
        int64_t tiles = std::min(kChunk, OWt - w0);
        SmallVector<Value> acc(tiles);
        for (int64_t kh = 0; kh < win.kh; ++kh)
          for (int64_t kw = 0; kw < win.kw; ++kw) {
            int64_t i = win.revH ? win.kh - 1 - kh : kh;
            int64_t j = win.revW ? win.kw - 1 - kw : kw;
            Value w = splatFilter
                          ? splatTap
                          : l.vload(table, l.c(((i * win.kw + j) * Ct + c) *
                                               kSublanes * kLanes * 4));
            for (int64_t k = 0; k < tiles; ++k) {
              int64_t wp = (w0 + k) * kSublanes * win.sw + kw * win.dw;
              Value x = l.vload(
                  ring,
                  l.add(rowAt[kh], c * slotBytes + shift + wp * pitch),
                  win.sw * pitch);
              Value prod = tpu::VMulOp::create(l.b, l.loc, x, w);
              acc[k] = acc[k] ? tpu::VAddOp::create(l.b, l.loc, acc[k], prod)
                                    .getResult()
                              : prod;
            }
          }
        for (int64_t k = 0; k < tiles; ++k)
          l.vstore(acc[k], outBuf,
                   l.add(outSlot, ((w0 + k) * Ct + c) * outTile));
      }
    l.dma(outBuf.arena, l.add(outSlot, outBuf.offset), out,
          l.mul(t, outRowBytes), 1, outRowBytes, 0, 0, kSemOut);
  };
  // The loop's rows: every tap row in the image, the ring advancing by the
  // stride in both the fetches and the waits.
  auto loopable = [&](int64_t o) {
    return o >= 1 && o * win.sh - win.pt >= 0 && raw(o) <= H &&
           avail(o + D) - avail(o - 1 + D) == win.sh &&
           avail(o) - avail(o - 1) == win.sh;
  };
  int64_t A = 0;
  while (A < OH && !loopable(A))
    ++A;
  int64_t B = A;
  while (B < OH && loopable(B))
    ++B;
  l.loop(N, [&](Value n) {
    for (int64_t o = 0; o < A; ++o)
      outRow(n, l.c(o), o);
    l.loop(B - A, [&](Value i) { outRow(n, l.add(i, A), std::nullopt); });
    for (int64_t o = std::max(A, B); o < OH; ++o)
      outRow(n, l.c(o), o);
  });
  l.wait(kSemOut, Q);
  return success();
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

LogicalResult Lowering::lowerConvolution(hlo::ConvolutionOp op) {
  hlo::ConvDimensionNumbersAttr dn = op.getDimensionNumbers();
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
  auto type = cast<RankedTensorType>(op.getType());
  std::string labels = "with dim_labels " + dn.getDimLabels();
  Type inElem = lhsType.getElementType(), outElem = type.getElementType(),
       kerElem = rhsType.getElementType();
  if (!(inElem.isF32() || inElem.isBF16()) ||
      !(kerElem.isF32() || kerElem.isBF16()) ||
      !(outElem.isF32() || outElem.isBF16()))
    return unsupported(op, "with non-float operands or result");
  if (lhsType.getRank() != 4)
    return unsupported(op, "with " + Twine(lhsType.getRank() - 2) +
                               " spatial dimensions (only 2)");
  if (op.getBatchGroupCount() != 1)
    return unsupported(op, "with batch_group_count > 1");
  for (int64_t d : attrOr(op.getLhsDilation(), 2, 1))
    if (d != 1)
      return unsupported(op, "with lhs_dilation");
  for (int64_t p : attrOr(op.getPadding(), 4, 0))
    if (p < 0)
      return unsupported(op, "with negative padding");
  // DEFAULT precision is one bf16 pass; bf16 operands are exact in it.
  if (inElem.isF32() || kerElem.isF32())
    if (auto precision = op.getPrecisionConfig())
      for (Attribute p : *precision)
        if (cast<hlo::PrecisionAttr>(p).getValue() != hlo::Precision::DEFAULT)
          return unsupported(op,
                             "with precision " +
                                 hlo::stringifyPrecision(
                                     cast<hlo::PrecisionAttr>(p).getValue()));

  int64_t groups = op.getFeatureGroupCount();
  ArrayRef<int64_t> is = dn.getInputSpatial(), ks = dn.getKernelSpatial(),
                    os = dn.getOutputSpatial();
  if (groups > 1) {
    if (inElem != kerElem)
      return unsupported(op, "with feature_group_count > 1 and operands of "
                             "different element types");
    // Depthwise NCHW: one kernel row per channel; depthwise NHWC: kernel
    // [kh, kw, 1, C].
    switch (analysis::depthwiseForm(op)) {
    case analysis::DepthwiseForm::Nchw:
      return lowerDepthwiseNchw(*this, op);
    case analysis::DepthwiseForm::Nhwc:
      return lowerDepthwiseNhwc(*this, op);
    case analysis::DepthwiseForm::None:
      break;
    }
    return unsupported(op, "with feature_group_count " + Twine(groups) + " " +
                               labels +
                               " (only depthwise bf01_oi01->bf01 and "
                               "b01f_01io->b01f)");
  }
  // The weight gradient JAX emits for an NHWC convolution.
  if (dn.getInputFeature() == 0 && is[0] == 1 && is[1] == 2 &&
      dn.getInputBatch() == 3 && dn.getKernelInputFeature() == 0 &&
      ks[0] == 1 && ks[1] == 2 && dn.getKernelOutputFeature() == 3 &&
      os[0] == 0 && os[1] == 1 && dn.getOutputBatch() == 2 &&
      dn.getOutputFeature() == 3)
    return lowerConvWeightGrad(*this, op);
  // The MXU kernel: features minor, the second spatial dim second-minor.
  bool inOk = dn.getInputFeature() == 3 && is[1] == 2;
  bool kerOk =
      dn.getKernelInputFeature() == 2 && dn.getKernelOutputFeature() == 3;
  bool outOk = dn.getOutputFeature() == 3 && os[1] == 2;
  if (!inOk || !kerOk || !outOk)
    return unsupported(op, labels + " (the MXU kernel needs the features "
                                    "minor and spatial dim 1 second-minor, "
                                    "e.g. b01f_01io->b01f)");
  return lowerConvMxu(*this, op);
}

void populateConvolutionPatterns(RewritePatternSet &patterns, Lowering &l) {
  l.addKernel(patterns, &Lowering::lowerConvolution);
}

} // namespace tpuc::hlotpu
