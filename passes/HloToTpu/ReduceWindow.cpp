//===- ReduceWindow.cpp - pooling windows on the VPU ---------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
// Pooling windows over the two outer spatial dims of NHWC (reduce_window,
// and select_and_scatter, a pool's gradient) on one row stream
// (PoolRowStream): each input row is DMA'd once into a ring of VMEM row
// slots laid out [C tile][W][128] (W rows 128 lanes apart, the edges
// holding the body's identity), so a window offset kw and a W stride are
// one VLD with a sublane stride.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Reduction.h"

using namespace mlir;

namespace tpuc::hlotpu {

namespace {
/// One operand row of a pooling window in VMEM: per column tile, `bufRows`
/// rows of 128 lanes, column w at row `first + w`. `first` is 8-aligned and
/// at least the left padding, and the rows reach every row a window's
/// strided load (sublane s at column (8t + s) * stride + j - padLeft) reads.
struct WindowRowLayout {
  WindowRowLayout() = default;
  WindowRowLayout(int64_t padLeft, int64_t stride, int64_t window,
                  int64_t width, int64_t inRowTiles, int64_t outRowTiles,
                  int64_t elemBytes) {
    rowBytes = kLanes * elemBytes;
    first = ceilDiv(padLeft, kSublanes) * kSublanes;
    int64_t lastRead =
        first - padLeft + (outRowTiles * kSublanes - 1) * stride + window;
    bufRows = ceilDiv(std::max({first + inRowTiles * kSublanes,
                                first + width + kSublanes, lastRead}),
                      kSublanes) *
              kSublanes;
    colBytes = bufRows * rowBytes;
  }
  int64_t first = 0, bufRows = 0, rowBytes = 0, colBytes = 0;
};

/// How many window rows the pooling kernels' fetches run ahead, and the
/// VMEM they take at most (fewer rows ahead past it; a select_and_scatter
/// that does not fit one row ahead is expanded).
constexpr int64_t kPoolAhead = 4, kMaxPoolAhead = 16;
constexpr int64_t kMaxPoolVmem = 8 << 20;

/// The operand ring's row slots for a window of `kh` rows at stride `sh`
/// fetched `ahead` window rows ahead: the rows one window row reads, those
/// the next `ahead` fetch, and (the select_and_scatter kernel's result
/// ring, which shares the slot count) those the write-backs of the `ahead`
/// before read, also across an image boundary.
int64_t poolRingSlots(int64_t kh, int64_t sh, int64_t ahead) {
  return 2 * (kh + sh) + 2 * ahead * sh;
}

/// What the pooling kernels (reduce_window, select_and_scatter on H and W
/// of NHWC) share: window rows (n, ho) in order, each reading the operand
/// rows [top, top + kh) of image n inside the operand (top = ho * sh -
/// padTop). The operand rows stream once into a ring of row slots laid out
/// as WindowRowLayout (row h of image n in slot (n * H + h) % slots), the
/// DMAs of window row k + ahead issued before window row k runs, across
/// images too; consecutive window rows with equal plans run as one loop.
class PoolRowStream {
protected:
  explicit PoolRowStream(Lowering &l) : l(l) {}

  /// What window row ho does, in row offsets from its top: the window rows
  /// inside the operand, the rows it fetches first (those the row before
  /// did not) and the DMAs to wait for (those rows' and `extraFetches`), the
  /// new rows of the window row `ahead` rows on (from that row's top; in
  /// the next image when past this one's end, none in the last image). The
  /// select_and_scatter kernel adds its result rows: those it opens before
  /// and after its windows, those it writes back, the write-backs it waits
  /// for.
  struct RowPlan {
    int64_t validBegin = 0, validEnd = 0, freshBegin = 0, freshEnd = 0,
            fetches = 0;
    bool aheadInNextImage = false;
    int64_t aheadBegin = 0, aheadEnd = 0, openBegin = 0, openEnd = 0,
            gapBegin = 0, gapEnd = 0, flushBegin = 0, flushEnd = 0,
            flushWaits = 0;
    auto key() const {
      return std::tie(validBegin, validEnd, freshBegin, freshEnd, fetches,
                      aheadInNextImage, aheadBegin, aheadEnd, openBegin,
                      openEnd, gapBegin, gapEnd, flushBegin, flushEnd,
                      flushWaits);
    }
    bool operator==(const RowPlan &o) const { return key() == o.key(); }
  };

  int64_t top(int64_t ho) const { return ho * sh - padTop; }
  int64_t clampRow(int64_t h) const {
    return std::clamp<int64_t>(h, 0, height);
  }
  int64_t rowsBegin(int64_t ho) const { return clampRow(top(ho)); }
  int64_t rowsEnd(int64_t ho) const {
    return std::max(rowsBegin(ho), clampRow(top(ho) + kh));
  }
  /// The window (dims 1 and 2 of `window`, `strides`, `padding`) of an
  /// operand `x` whose window grid (one element per window) is `grid`.
  void setWindow(RankedTensorType x, RankedTensorType grid,
                 ArrayRef<int64_t> window,
                 std::optional<ArrayRef<int64_t>> strides,
                 std::optional<ArrayRef<int64_t>> padding);
  /// `ahead` (kPoolAhead, fewer where slots of the operand's
  /// and `moreSlotBytes` more, and ahead + 1 of `windowRowBytes`, pass
  /// kMaxPoolVmem), the ring's slots, and each window row's plan of
  /// operand rows, with `extraFetches` DMAs of its own.
  void planStream(int64_t moreSlotBytes, int64_t windowRowBytes,
                  int64_t extraFetches);
  /// The ring, with the rows around each slot's columns (read by the
  /// strided window loads) set to `edge`.
  VBuf allocRing(Type elem, const WindowRowLayout &row, int64_t rowTiles,
                 int64_t slotBytes, Value edge);
  /// Every window row of every image: its fetches ahead, the wait for its
  /// own, then `row`.
  void emitImages(function_ref<void(Value n, Value ho, const RowPlan &)> row);
  /// The DMAs of window row (n, ho)'s operand rows [begin, end) (offsets
  /// from its top) on semaphore 0, then `fetchExtra`'s.
  void fetch(Value n, Value ho, int64_t begin, int64_t end);
  /// The DMAs of rows [begin, end) (offsets from top(ho)) of image n
  /// between HBM `hbm` (of geometry `g`) and their slots in `ring`: into
  /// the slots on semaphore 0, or to HBM (`toHbm`) on semaphore 1.
  void rowDmas(Value n, Value ho, int64_t begin, int64_t end,
               const Geometry &g, const WindowRowLayout &row,
               const VBuf &ring, int64_t slotBytes, Value hbm, bool toHbm);
  /// The kernel's own DMAs of window row (n, ho) beside its operand rows
  /// (planStream's `extraFetches` of them).
  virtual void fetchExtra(Value n, Value ho) {}
  /// The byte offset of the slot of image n's row top(ho) + offset in a
  /// ring of `slotBytes` slots.
  Value rowSlot(Value n, Value ho, int64_t offset, int64_t slotBytes) {
    Value h = l.add(l.add(l.mul(n, height), l.mul(ho, sh)), offset - padTop);
    return l.mul(l.rem(h, slots), slotBytes);
  }
  /// The byte offset of window row (n, ho)'s slot among ahead + 1 of
  /// `bytes`.
  Value windowSlot(Value n, Value ho, int64_t bytes) {
    return l.mul(l.rem(l.add(l.mul(n, outH), ho), ahead + 1), bytes);
  }
  /// Emits items 0 .. count-1, a run of items with equal `keyOf` as one
  /// loop; `emitOne` gets the item as a value and a representative index.
  template <typename KeyFn, typename EmitFn>
  void runs(int64_t count, KeyFn keyOf, EmitFn emitOne);

  Lowering &l;
  Value in; // the operand's HBM buffer
  Geometry gx, gw; // the operand's and the window grid's
  WindowRowLayout xRow;
  int64_t batch = 0, height = 0, width = 0, outH = 0, outW = 0;
  int64_t kh = 0, kw = 0, sh = 1, sw = 1, padTop = 0, padLeft = 0;
  int64_t slots = 0, ahead = 1, xSlotBytes = 0;
  VBuf xRing;
  SmallVector<RowPlan> rowPlans;
};

template <typename KeyFn, typename EmitFn>
void PoolRowStream::runs(int64_t count, KeyFn keyOf, EmitFn emitOne) {
  for (int64_t i = 0; i < count;) {
    int64_t j = i + 1;
    while (j < count && keyOf(j) == keyOf(i))
      ++j;
    if (j - i == 1)
      emitOne(l.c(i), i);
    else
      l.loop(j - i, [&](Value k) { emitOne(l.add(k, i), i); });
    i = j;
  }
}

void PoolRowStream::setWindow(RankedTensorType x, RankedTensorType grid,
                              ArrayRef<int64_t> window,
                              std::optional<ArrayRef<int64_t>> strides,
                              std::optional<ArrayRef<int64_t>> padding) {
  batch = x.getDimSize(0);
  height = x.getDimSize(1);
  width = x.getDimSize(2);
  outH = grid.getDimSize(1);
  outW = grid.getDimSize(2);
  kh = window[1];
  kw = window[2];
  sh = strides ? (*strides)[1] : 1;
  sw = strides ? (*strides)[2] : 1;
  padTop = padding ? (*padding)[2] : 0;
  padLeft = padding ? (*padding)[4] : 0;
  gx = geometryOf(x);
  gw = geometryOf(grid);
  xRow = WindowRowLayout(padLeft, sw, kw, width, gx.rowTiles, gw.rowTiles,
                         gx.elemBytes);
  // Whole scoreboard pages per slot: a row's DMA into one slot then does
  // not wait for the VPU reads of its neighbour's.
  xSlotBytes = Lowering::pages(gx.colTiles * xRow.colBytes);
}

void PoolRowStream::planStream(int64_t moreSlotBytes, int64_t windowRowBytes,
                               int64_t extraFetches) {
  // Enough window rows ahead to cover a DMA's latency while the VPU works
  // on the rows in between (a window row: one load per output tile, window
  // offset and column tile, at one load a cycle), at least kPoolAhead.
  int64_t rowCycles =
      std::max<int64_t>(1, gw.rowTiles * gx.colTiles * kh * kw);
  int64_t cover =
      ceilDiv(static_cast<int64_t>(l.spec.machine.dma_latency_cycles()),
              rowCycles) +
      1;
  for (ahead = std::min(std::clamp(cover, kPoolAhead, kMaxPoolAhead), outH);;
       --ahead) {
    slots = poolRingSlots(kh, sh, ahead);
    if (ahead == 1 || slots * (xSlotBytes + moreSlotBytes) +
                              (ahead + 1) * windowRowBytes <=
                          kMaxPoolVmem)
      break;
  }
  for (int64_t ho = 0; ho < outH; ++ho) {
    RowPlan p;
    int64_t t = top(ho);
    p.validBegin = rowsBegin(ho) - t;
    p.validEnd = rowsEnd(ho) - t;
    int64_t fresh =
        ho == 0 ? rowsBegin(0) : std::max(rowsBegin(ho), rowsEnd(ho - 1));
    p.freshBegin = fresh - t;
    p.freshEnd = std::max(fresh, rowsEnd(ho)) - t;
    p.fetches = (p.freshEnd - p.freshBegin) * gx.colTiles + extraFetches;
    rowPlans.push_back(p);
  }
  for (int64_t ho = 0; ho < outH; ++ho) {
    RowPlan &p = rowPlans[ho];
    p.aheadInNextImage = ho + ahead >= outH;
    const RowPlan &next =
        rowPlans[p.aheadInNextImage ? ho + ahead - outH : ho + ahead];
    p.aheadBegin = next.freshBegin;
    p.aheadEnd = next.freshEnd;
  }
}

VBuf PoolRowStream::allocRing(Type elem, const WindowRowLayout &row,
                              int64_t rowTiles, int64_t slotBytes,
                              Value edge) {
  VBuf ring = l.vmem(elem, slots * slotBytes);
  for (int64_t slot = 0; slot < slots; ++slot)
    for (int64_t col = 0; col < gx.colTiles; ++col) {
      int64_t base = slot * slotBytes + col * row.colBytes;
      for (int64_t r = 0; r < row.first; r += kSublanes)
        l.vstore(edge, ring, l.c(base + r * row.rowBytes));
      for (int64_t r = row.first + rowTiles * kSublanes; r < row.bufRows;
           r += kSublanes)
        l.vstore(edge, ring, l.c(base + r * row.rowBytes));
    }
  return ring;
}

void PoolRowStream::rowDmas(Value n, Value ho, int64_t begin, int64_t end,
                            const Geometry &g, const WindowRowLayout &row,
                            const VBuf &ring, int64_t slotBytes, Value hbm,
                            bool toHbm) {
  int64_t tb = g.tileBytes();
  for (int64_t i = begin; i < end; ++i) {
    Value h = l.add(l.mul(ho, sh), i - padTop);
    Value hbmAt =
        l.mul(l.add(l.mul(n, height), h), g.rowTiles * g.colTiles * tb);
    Value vmemAt = rowSlot(n, ho, i, slotBytes);
    for (int64_t col = 0; col < g.colTiles; ++col) {
      Value hbmCol = l.add(hbmAt, col * tb);
      Value vmemCol = l.add(vmemAt, ring.offset + col * row.colBytes +
                                        row.first * row.rowBytes);
      if (toHbm)
        l.dma(ring.arena, vmemCol, hbm, hbmCol, g.rowTiles, tb, tb,
              g.colTiles * tb, 1);
      else
        l.dma(hbm, hbmCol, ring.arena, vmemCol, g.rowTiles, tb,
              g.colTiles * tb, tb, 0);
    }
  }
}

void PoolRowStream::fetch(Value n, Value ho, int64_t begin, int64_t end) {
  rowDmas(n, ho, begin, end, gx, xRow, xRing, xSlotBytes, in,
          /*toHbm=*/false);
  fetchExtra(n, ho);
}

void PoolRowStream::emitImages(
    function_ref<void(Value n, Value ho, const RowPlan &)> row) {
  // An image's last window rows fetch the next image's first (the last
  // image is peeled).
  for (int64_t ho = 0; ho < ahead; ++ho)
    fetch(l.c(0), l.c(ho), rowPlans[ho].freshBegin, rowPlans[ho].freshEnd);
  auto image = [&](Value n, bool last) {
    runs(
        outH, [&](int64_t ho) { return rowPlans[ho]; },
        [&](Value ho, int64_t rep) {
          const RowPlan &p = rowPlans[rep];
          if (!p.aheadInNextImage)
            fetch(n, l.add(ho, ahead), p.aheadBegin, p.aheadEnd);
          else if (!last)
            fetch(l.add(n, 1), l.add(ho, ahead - outH), p.aheadBegin,
                  p.aheadEnd);
          l.wait(0, p.fetches); // this row's (completions come in order)
          row(n, ho, p);
        });
  };
  l.loop(batch - 1, [&](Value n) { image(n, false); });
  image(l.c(batch - 1), true);
}

/// The kernel of one hlo.reduce_window (a pool) on the row stream: per
/// window row, its output row combined from the ring's rows into one of
/// ahead + 1 output row slots, written back while the next rows run. As
/// XLA (and the interpreter) define it, a window starts at the init value
/// and combines the elements inside the operand in row-major order:
/// padding rows are skipped, padding columns read the body's identity (the
/// slots' edges hold it, and the tile padding a row's DMA brings in after
/// column W is set to it when the row lands), and a bf16 sum rounds after
/// each add.
class ReduceWindowKernel : PoolRowStream {
public:
  ReduceWindowKernel(Lowering &l, hlo::ReduceWindowOp op)
      : PoolRowStream(l), op(op) {}
  LogicalResult emit();

private:
  /// Window row (n, ho)'s output row.
  void outputRow(Value n, Value ho, const RowPlan &p);

  hlo::ReduceWindowOp op;
  Reduction red;
  RankedTensorType inType, type;
  Value initReg, identity, out;
  int64_t outRowBytes = 0, outSlotBytes = 0;
  VBuf staging;
};

LogicalResult ReduceWindowKernel::emit() {
  Value input = op.getInputs()[0];
  inType = cast<RankedTensorType>(input.getType());
  type = cast<RankedTensorType>(op.getResult(0).getType());
  if (std::optional<StringRef> why = poolWindowMismatch(
          inType.getRank(), op.getWindowDimensions(), op.getWindowStrides(),
          op.getPadding(), op.getBaseDilations(), op.getWindowDilations()))
    return unsupported(op, *why);
  FailureOr<Reduction> matched =
      Reduction::match(l, op, op.getBody(), inType.getElementType());
  if (failed(matched))
    return failure();
  red = *matched;
  FailureOr<Reduction::Buffers> bufs =
      red.buffers(input, op.getInitValues()[0], op.getResult(0));
  if (failed(bufs))
    return failure();
  in = bufs->in;
  initReg = bufs->init;
  out = bufs->out;
  setWindow(inType, type, op.getWindowDimensions(), op.getWindowStrides(),
            op.getPadding());
  outRowBytes = gw.rowTiles * gw.colTiles * gw.tileBytes();
  planStream(/*moreSlotBytes=*/0, Lowering::pages(outRowBytes),
             /*extraFetches=*/0);
  identity = red.identity();
  xRing = allocRing(storageType(inType.getElementType()), xRow, gx.rowTiles,
                    xSlotBytes, identity);
  // Staging slots in whole pages: a row's stores do not wait for the
  // write-back DMA of the row before.
  outSlotBytes = Lowering::pages(outRowBytes);
  staging =
      l.vmem(storageType(type.getElementType()), (ahead + 1) * outSlotBytes);
  // Each output row's write-back waits for the one `ahead` rows before
  // (signals prime the first ones), so its slot is free again.
  tpu::SemSignalOp::create(l.b, l.loc, 1, ahead);
  emitImages([&](Value n, Value ho, const RowPlan &p) { outputRow(n, ho, p); });
  l.wait(1, ahead);
  return success();
}

void ReduceWindowKernel::outputRow(Value n, Value ho, const RowPlan &p) {
  int64_t rowBytes = xRow.rowBytes, colBytes = xRow.colBytes;
  SmallVector<Value> slotOf(kh);
  for (int64_t i = p.validBegin; i < p.validEnd; ++i)
    slotOf[i] = rowSlot(n, ho, i, xSlotBytes);
  if (width % kSublanes != 0) // the tile padding the new rows brought in
    for (int64_t i = p.freshBegin; i < p.freshEnd; ++i)
      for (int64_t col = 0; col < gx.colTiles; ++col)
        l.vstore(identity, xRing,
                 l.add(slotOf[i], col * colBytes +
                                      (xRow.first + width) * rowBytes));
  Value slot = windowSlot(n, ho, outSlotBytes);
  bool roundsToBf16 = type.getElementType().isBF16() && red.rounds();
  l.loop(gw.rowTiles, [&](Value wt) {
    // Output columns 8wt+s read slot rows first - padLeft + (8wt+s)*sw + j:
    // one strided load per window column j.
    Value at = l.add(l.mul(wt, kSublanes * sw * rowBytes),
                     (xRow.first - padLeft) * rowBytes);
    for (int64_t col = 0; col < gx.colTiles; ++col) {
      Value acc = initReg;
      for (int64_t i = p.validBegin; i < p.validEnd; ++i)
        for (int64_t j = 0; j < kw; ++j) {
          acc = red.combine(acc, red.load(xRing,
                                          l.add(l.add(slotOf[i], at),
                                                col * colBytes + j * rowBytes),
                                          sw * rowBytes));
          if (roundsToBf16)
            acc = l.roundToBf16(acc);
        }
      l.vstore(acc, staging,
               l.add(l.add(slot, l.mul(wt, gw.colTiles * gw.tileBytes())),
                     col * gw.tileBytes()));
    }
  });
  l.wait(1, 1);
  l.dma(staging.arena, l.add(slot, staging.offset), out,
        l.mul(l.add(l.mul(n, outH), ho), outRowBytes), 1, outRowBytes, 0, 0, 1);
}

/// The kernel of one hlo.select_and_scatter (the gradient of a max or min
/// pool) on the row stream: per window row, the source row streams beside
/// the operand rows; per tile of 8 windows x 128 channels, the selected
/// window offset is found as XLA defines it (the first in row-major window
/// order that the comparison prefers; padding is never selected), and the
/// source is added into a ring of result rows, opened with the init value
/// and written to HBM once no later window reaches them. The adds run in
/// row-major window order (window rows in order, a row's offsets from the
/// last to the first), as the interpreter adds them, so the sums round the
/// same.
class SelectAndScatterKernel : PoolRowStream {
public:
  SelectAndScatterKernel(Lowering &l, hlo::SelectAndScatterOp op)
      : PoolRowStream(l), op(op) {}
  LogicalResult emit();

private:
  /// Per window column offset j, the sublanes (windows) of a tile whose
  /// column is inside the operand: [first, second], empty when first >
  /// second. All of [0, 7] needs no mask.
  using TileMask = SmallVector<std::pair<int64_t, int64_t>>;

  /// The result rows of each window row's plan: opened before and after
  /// its windows, written back, and the write-backs to wait for (those of
  /// the window row `ahead` rows back, in the image before for the first
  /// rows: signals prime the first image's).
  void planResultRows();
  TileMask tileMask(int64_t wt) const;
  /// The source row of window row (n, ho).
  void fetchExtra(Value n, Value ho) override;
  /// Result rows [begin, end) (offsets from top(ho)) set to the init value.
  void open(Value n, Value ho, int64_t begin, int64_t end);
  /// The windows of window row ho, tile by tile.
  void windowRow(Value n, Value ho, const RowPlan &p);
  /// One tile of 8 windows: select, then scatter into the result rows.
  void tile(Value n, Value ho, Value wt, const RowPlan &p,
            const TileMask &mask, ArrayRef<Value> xSlot,
            ArrayRef<Value> gSlot);

  hlo::SelectAndScatterOp op;
  Reduction red;
  tpu::CmpKind select = tpu::CmpKind::ge; // the select's, as VCMP
  Value src, initReg, out;
  Geometry go; // the result's (gw: the source's, the window grid)
  WindowRowLayout gRow;
  // The result ring (as many slots as the operand's) and ahead + 1 source
  // row slots.
  int64_t gSlotBytes = 0, srcRowBytes = 0;
  VBuf gRing, srcRows;
  int64_t primedFlushes = 0; // the last `ahead` rows' write-backs
};

LogicalResult SelectAndScatterKernel::emit() {
  if (!selectAndScatterKernelTakes(op))
    return unsupported(op, "other than a pooling gradient on H and W of a "
                           "4-D float array");
  RankedTensorType xType = op.getOperand().getType();
  RankedTensorType sType = op.getSource().getType();
  RankedTensorType type = op.getType();
  FailureOr<Reduction> matched =
      Reduction::match(l, op, op.getScatter(), type.getElementType());
  if (failed(matched))
    return failure();
  red = *matched;
  select = *cmpKind(*poolSelectDirection(op));
  FailureOr<Value> x = l.memOf(op.getOperand());
  if (failed(x))
    return failure();
  in = *x;
  FailureOr<Reduction::Buffers> bufs =
      red.buffers(op.getSource(), op.getInitValue(), op.getResult());
  if (failed(bufs))
    return failure();
  src = bufs->in;
  initReg = bufs->init;
  out = bufs->out;

  setWindow(xType, sType, op.getWindowDimensions(), op.getWindowStrides(),
            op.getPadding());
  go = geometryOf(type);
  gRow = WindowRowLayout(padLeft, sw, kw, width, go.rowTiles, gw.rowTiles,
                         go.elemBytes);
  gSlotBytes = go.colTiles * gRow.colBytes;
  srcRowBytes = gw.rowTiles * gw.colTiles * gw.tileBytes();
  planStream(gSlotBytes, srcRowBytes, /*extraFetches=*/1);
  planResultRows();

  // The slots' edges are read by the strided window loads (and written
  // back unchanged).
  xRing = allocRing(storageType(xType.getElementType()), xRow, gx.rowTiles,
                    xSlotBytes, initReg);
  gRing = allocRing(storageType(type.getElementType()), gRow, go.rowTiles,
                    gSlotBytes, initReg);
  srcRows =
      l.vmem(storageType(sType.getElementType()), (ahead + 1) * srcRowBytes);
  if (primedFlushes > 0)
    tpu::SemSignalOp::create(l.b, l.loc, 1, primedFlushes);
  emitImages([&](Value n, Value ho, const RowPlan &p) {
    open(n, ho, p.openBegin, p.openEnd);
    windowRow(n, ho, p);
    // Write-backs `ahead` rows back are done before the slots they read
    // come round again (gap rows too: opened after the wait).
    l.wait(1, p.flushWaits);
    open(n, ho, p.gapBegin, p.gapEnd);
    rowDmas(n, ho, p.flushBegin, p.flushEnd, go, gRow, gRing, gSlotBytes, out,
            /*toHbm=*/true);
  });
  l.wait(1, primedFlushes);
  return success();
}

void SelectAndScatterKernel::planResultRows() {
  // Result rows below finalEnd(ho) are complete after window row ho.
  auto finalEnd = [&](int64_t ho) {
    return ho + 1 == outH ? height : clampRow(top(ho + 1));
  };
  int64_t opened = 0;
  for (int64_t ho = 0; ho < outH; ++ho) {
    RowPlan &p = rowPlans[ho];
    int64_t t = top(ho);
    p.openBegin = opened - t;
    opened = std::max(opened, rowsEnd(ho));
    p.openEnd = opened - t;
    p.gapBegin = opened - t;
    opened = std::max(opened, finalEnd(ho));
    p.gapEnd = opened - t;
    int64_t fb = ho == 0 ? 0 : finalEnd(ho - 1);
    p.flushBegin = fb - t;
    p.flushEnd = std::max(fb, finalEnd(ho)) - t;
  }
  auto flushes = [&](int64_t ho) {
    return (rowPlans[ho].flushEnd - rowPlans[ho].flushBegin) * go.colTiles;
  };
  for (int64_t ho = 0; ho < outH; ++ho)
    rowPlans[ho].flushWaits = flushes((ho - ahead + outH) % outH);
  for (int64_t ho = outH - ahead; ho < outH; ++ho)
    primedFlushes += flushes(ho);
}

SelectAndScatterKernel::TileMask
SelectAndScatterKernel::tileMask(int64_t wt) const {
  TileMask mask;
  for (int64_t j = 0; j < kw; ++j) {
    int64_t lo = kSublanes, hi = -1;
    for (int64_t s = 0; s < kSublanes; ++s) {
      int64_t wo = wt * kSublanes + s, w = wo * sw + j - padLeft;
      if (wo < outW && w >= 0 && w < width) {
        lo = std::min(lo, s);
        hi = std::max(hi, s);
      }
    }
    mask.push_back({lo, hi});
  }
  return mask;
}

void SelectAndScatterKernel::fetchExtra(Value n, Value ho) {
  l.dma(src, l.mul(l.add(l.mul(n, outH), ho), srcRowBytes), srcRows.arena,
        l.add(windowSlot(n, ho, srcRowBytes), srcRows.offset), 1,
        srcRowBytes, 0, 0, 0);
}

void SelectAndScatterKernel::open(Value n, Value ho, int64_t begin,
                                  int64_t end) {
  for (int64_t i = begin; i < end; ++i) {
    Value slot = rowSlot(n, ho, i, gSlotBytes);
    for (int64_t col = 0; col < go.colTiles; ++col)
      for (int64_t r = 0; r < go.rowTiles * kSublanes; r += kSublanes)
        l.vstore(initReg, gRing,
                 l.add(slot, col * gRow.colBytes +
                                 (gRow.first + r) * gRow.rowBytes));
  }
}

void SelectAndScatterKernel::windowRow(Value n, Value ho,
                                       const RowPlan &p) {
  if (p.validBegin >= p.validEnd)
    return; // every window is padding: nothing is selected
  SmallVector<Value> xSlot, gSlot;
  for (int64_t i = p.validBegin; i < p.validEnd; ++i) {
    xSlot.push_back(rowSlot(n, ho, i, xSlotBytes));
    gSlot.push_back(rowSlot(n, ho, i, gSlotBytes));
  }
  runs(
      gw.rowTiles, [&](int64_t wt) { return tileMask(wt); },
      [&](Value wt, int64_t rep) {
        tile(n, ho, wt, p, tileMask(rep), xSlot, gSlot);
      });
}

void SelectAndScatterKernel::tile(Value n, Value ho, Value wt,
                                  const RowPlan &p,
                                  const TileMask &mask, ArrayRef<Value> xSlot,
                                  ArrayRef<Value> gSlot) {
  bool masked = llvm::any_of(mask, [](auto range) {
    return range.first != 0 || range.second != kSublanes - 1;
  });
  Value ids, none, one;
  if (masked) {
    ids = tpu::VSublaneIdOp::create(l.b, l.loc, l.i32Reg());
    none = l.splatIndex(l.c(-1));
    one = l.splatIndex(l.c(1));
  }
  // Sublanes [lo, hi] of a masked tap, null for all of them.
  auto tapMask = [&](std::pair<int64_t, int64_t> range) -> Value {
    Value m;
    if (range.first > 0)
      m = l.vcmp(tpu::CmpKind::ge, ids, l.splatIndex(l.c(range.first)));
    if (range.second < kSublanes - 1) {
      Value below =
          l.vcmp(tpu::CmpKind::le, ids, l.splatIndex(l.c(range.second)));
      m = m ? tpu::VAndOp::create(l.b, l.loc, m, below).getResult() : below;
    }
    return m;
  };
  int64_t stride = kSublanes * sw;
  Value xAt = l.mul(wt, stride * xRow.rowBytes);
  Value gAt = l.mul(wt, stride * gRow.rowBytes);
  Value srcAt = l.add(windowSlot(n, ho, srcRowBytes),
                      l.mul(wt, gw.colTiles * gw.tileBytes()));
  for (int64_t col = 0; col < gx.colTiles; ++col) {
    // The selection: the selected value, its offset (-1: none yet) and
    // where something is selected (null: everywhere).
    Value cur, idx, have;
    for (int64_t i = p.validBegin; i < p.validEnd; ++i)
      for (int64_t j = 0; j < kw; ++j) {
        if (mask[j].first > mask[j].second)
          continue;
        Value k = l.splatIndex(l.c(i * kw + j));
        Value x = l.vload(
            xRing,
            l.add(l.add(xSlot[i - p.validBegin], xAt),
                  col * xRow.colBytes +
                      (xRow.first - padLeft + j) * xRow.rowBytes),
            sw * xRow.rowBytes);
        Value m = tapMask(mask[j]);
        if (!cur) {
          cur = x;
          idx = m ? l.vsel(m, k, none) : k;
          have = m;
          continue;
        }
        Value keep = l.vcmp(select, cur, x);
        if (have)
          keep = tpu::VAndOp::create(l.b, l.loc, keep, have);
        if (m)
          keep = l.vsel(m, keep, one);
        cur = l.vsel(keep, cur, x);
        idx = l.vsel(keep, idx, k);
        if (have)
          have = m ? tpu::VOrOp::create(l.b, l.loc, have, m).getResult()
                   : Value();
      }
    if (!cur)
      continue;
    Value source =
        l.vload(srcRows, l.add(srcAt, col * gw.tileBytes()));
    for (int64_t i = p.validBegin; i < p.validEnd; ++i)
      for (int64_t j = kw - 1; j >= 0; --j) {
        if (mask[j].first > mask[j].second)
          continue;
        Value hit =
            l.vcmp(tpu::CmpKind::eq, idx, l.splatIndex(l.c(i * kw + j)));
        Value at = l.add(l.add(gSlot[i - p.validBegin], gAt),
                         col * gRow.colBytes +
                             (gRow.first - padLeft + j) * gRow.rowBytes);
        Value g = l.vload(gRing, at, sw * gRow.rowBytes);
        l.vstore(l.vsel(hit, red.combine(g, source), g), gRing, at,
                 sw * gRow.rowBytes);
      }
  }
}
} // namespace

LogicalResult Lowering::lowerReduceWindow(hlo::ReduceWindowOp op) {
  return ReduceWindowKernel(*this, op).emit();
}

LogicalResult Lowering::lowerSelectAndScatter(hlo::SelectAndScatterOp op) {
  return SelectAndScatterKernel(*this, op).emit();
}

std::optional<llvm::StringRef>
poolWindowMismatch(int64_t rank, ArrayRef<int64_t> window,
                   std::optional<ArrayRef<int64_t>> strides,
                   std::optional<ArrayRef<int64_t>> padding,
                   std::optional<ArrayRef<int64_t>> baseDilations,
                   std::optional<ArrayRef<int64_t>> windowDilations) {
  if (rank != 4)
    return StringRef("other than on a 4-D (NHWC) array");
  auto at = [](std::optional<ArrayRef<int64_t>> a, int64_t i, int64_t dflt) {
    return a ? (*a)[i] : dflt;
  };
  for (int64_t d = 0; d < 4; ++d) {
    if (at(baseDilations, d, 1) != 1 || at(windowDilations, d, 1) != 1)
      return StringRef("with dilations");
    int64_t lo = at(padding, 2 * d, 0), hi = at(padding, 2 * d + 1, 0);
    bool spatial = d == 1 || d == 2;
    if (!spatial && (window[d] != 1 || at(strides, d, 1) != 1 || lo || hi))
      return StringRef("with a window on dims other than 1 and 2 (H, W of "
                       "NHWC)");
    if (lo < 0 || hi < 0)
      return StringRef("with negative padding");
  }
  return std::nullopt;
}

std::optional<hlo::ComparisonDirection>
poolSelectDirection(hlo::SelectAndScatterOp op) {
  auto cmp = dyn_cast_or_null<hlo::CompareOp>(
      reductionCombiner(op.getSelect()));
  if (!cmp)
    return std::nullopt;
  hlo::ComparisonDirection dir = cmp.getComparisonDirection();
  if (dir == hlo::ComparisonDirection::EQ ||
      dir == hlo::ComparisonDirection::NE)
    return std::nullopt;
  bool swapped = cmp.getLhs() != op.getSelect().getArgument(0);
  return swapped ? hlo::swappedDirection(dir) : dir;
}

bool selectAndScatterKernelTakes(hlo::SelectAndScatterOp op) {
  RankedTensorType xType = op.getOperand().getType();
  RankedTensorType sType = op.getSource().getType();
  RankedTensorType type = op.getType();
  auto isFloat = [](Type t) { return t.isF32() || t.isBF16(); };
  if (xType.getRank() != 4 || !isFloat(xType.getElementType()) ||
      !isFloat(type.getElementType()) ||
      sType.getElementType() != type.getElementType() ||
      xType.getNumElements() == 0 || sType.getNumElements() == 0 ||
      !poolSelectDirection(op) ||
      !isa_and_nonnull<hlo::AddOp>(reductionCombiner(op.getScatter())))
    return false;
  ArrayRef<int64_t> window = op.getWindowDimensions();
  auto strides = op.getWindowStrides();
  auto padding = op.getPadding();
  if (poolWindowMismatch(4, window, strides, padding, std::nullopt,
                         std::nullopt))
    return false;
  // The VMEM the kernel takes at least (fetching one row ahead): the
  // operand and result rings, two source rows.
  int64_t kw = window[2], sw = strides ? (*strides)[2] : 1;
  int64_t padLeft = padding ? (*padding)[4] : 0;
  Geometry gx = geometryOf(xType), gs = geometryOf(sType),
           go = geometryOf(type);
  int64_t rowSlots =
      poolRingSlots(window[1], strides ? (*strides)[1] : 1, /*ahead=*/1);
  int64_t width = xType.getDimSize(2);
  WindowRowLayout xRow(padLeft, sw, kw, width, gx.rowTiles, gs.rowTiles,
                       gx.elemBytes);
  WindowRowLayout gRow(padLeft, sw, kw, width, go.rowTiles, gs.rowTiles,
                       go.elemBytes);
  int64_t bytes = rowSlots * gx.colTiles * (xRow.colBytes + gRow.colBytes) +
                  2 * gs.rowTiles * gs.colTiles * gs.tileBytes();
  return bytes <= kMaxPoolVmem;
}

void populateReduceWindowPatterns(RewritePatternSet &patterns, Lowering &l) {
  l.addKernel(patterns, &Lowering::lowerReduceWindow);
  l.addKernel(patterns, &Lowering::lowerSelectAndScatter);
}

} // namespace tpuc::hlotpu
