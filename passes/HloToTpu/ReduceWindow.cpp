//===- ReduceWindow.cpp - reduce_window on the VPU ----------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
// Pooling windows over the two outer spatial dims of NHWC (reduce_window,
// and select_and_scatter, a pool's gradient): per output row,
// the input rows of its window are DMA'd into VMEM as [C tile][W][128]
// (W rows 128 lanes apart, padded with the init value), so a window offset
// kw and a W stride are one VLD with a sublane stride.
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

/// Window row buffer sets of a reduce_window kernel (fewer where they would
/// take more than kMaxReduceWindowVmem).
constexpr int64_t kReduceWindowSets = 4;
constexpr int64_t kMaxReduceWindowVmem = 8 << 20;

/// The kernel of one hlo.reduce_window: per output row (n, ho), the input
/// rows of its window are DMA'd into window row buffers (fetchRows) and
/// combined there (outputRow); the rows whose window is inside the input
/// run double-buffered in a loop, the edge rows one by one (emitRows).
class ReduceWindowKernel {
public:
  ReduceWindowKernel(Lowering &l, hlo::ReduceWindowOp op) : l(l), op(op) {}
  LogicalResult emit();

private:
  int64_t attrOr(std::optional<ArrayRef<int64_t>> a, int64_t i, int64_t dflt) {
    return a ? (*a)[i] : dflt;
  }
  /// A diagnostic unless the window is on H and W of NHWC only, without
  /// dilations or negative padding.
  LogicalResult checkWindow();
  /// The window's sizes and the window row buffers' layout.
  void plan();
  /// Allocates the window row buffers and the output row slots and fills
  /// the buffers' padding rows with the init value.
  void allocBuffers();
  /// The DMAs of output row (n, ho)'s window rows into the set at byte
  /// `set`; `valid` says which window rows are inside the input (the others
  /// are padding: the init value). Returns the number of DMAs.
  int64_t fetchRows(Value n, Value ho, ArrayRef<bool> valid, Value set);
  /// Output row (n, ho) from its fetched window rows in the set at `set`.
  void outputRow(Value n, Value ho, ArrayRef<bool> valid, Value set);
  /// Every output row: the interior ones double-buffered, the edges alone.
  void emitRows();

  Lowering &l;
  hlo::ReduceWindowOp op;
  Reduction red;
  Value in, initReg, out;
  RankedTensorType inType, type;
  Geometry g, go;
  Type store;
  int64_t batch = 0, height = 0, width = 0;
  int64_t kh = 0, kw = 0, sh = 1, sw = 1, padTop = 0, padLeft = 0, outH = 0;
  int64_t eb = 0, rowBytes = 0;
  // A window row buffer: per column tile, `bufRows` rows of 128 lanes;
  // input column w at row `first + w`, every other row the init value
  // (the padding). `first` is 8-aligned so the DMAs never overlap the
  // init rows stored before them.
  int64_t first = 0, bufRows = 0, colBytes = 0;
  // `sets` sets of window row buffers: the interior loop fetches row
  // ho+sets-1's window while it works on row ho's (small rows would wait a
  // DMA latency each with fewer).
  int64_t setBytes = 0, sets = 2;
  SmallVector<VBuf> rows;
  // `sets` output row slots: row i's DMA out overlaps the next rows' work;
  // before issuing it, the kernel waits for row i-sets+1's (signals prime
  // the first waits), so a slot's DMA is done when the slot is rewritten.
  int64_t outRowBytes = 0;
  VBuf staging;
};

LogicalResult ReduceWindowKernel::emit() {
  Value input = op.getInputs()[0];
  inType = cast<RankedTensorType>(input.getType());
  type = cast<RankedTensorType>(op.getResult(0).getType());
  if (failed(checkWindow()))
    return failure();
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
  plan();
  allocBuffers();
  emitRows();
  l.wait(1, sets - 1);
  return success();
}

LogicalResult ReduceWindowKernel::checkWindow() {
  if (inType.getRank() != 4)
    return unsupported(op, "other than on a 4-D (NHWC) array");
  ArrayRef<int64_t> window = op.getWindowDimensions();
  auto strides = op.getWindowStrides(), padding = op.getPadding();
  for (int64_t d = 0; d < 4; ++d) {
    if (attrOr(op.getBaseDilations(), d, 1) != 1 ||
        attrOr(op.getWindowDilations(), d, 1) != 1)
      return unsupported(op, "with dilations");
    bool spatial = d == 1 || d == 2;
    if (!spatial &&
        (window[d] != 1 || attrOr(strides, d, 1) != 1 ||
         attrOr(padding, 2 * d, 0) != 0 || attrOr(padding, 2 * d + 1, 0) != 0))
      return unsupported(op, "with a window on dims other than 1 and 2 "
                             "(H, W of NHWC)");
    if (attrOr(padding, 2 * d, 0) < 0 || attrOr(padding, 2 * d + 1, 0) < 0)
      return unsupported(op, "with negative padding");
  }
  return success();
}

void ReduceWindowKernel::plan() {
  ArrayRef<int64_t> window = op.getWindowDimensions();
  auto strides = op.getWindowStrides(), padding = op.getPadding();
  batch = inType.getDimSize(0);
  height = inType.getDimSize(1);
  width = inType.getDimSize(2);
  kh = window[1];
  kw = window[2];
  sh = attrOr(strides, 1, 1);
  sw = attrOr(strides, 2, 1);
  padTop = attrOr(padding, 2, 0);
  padLeft = attrOr(padding, 4, 0);
  outH = type.getDimSize(1);
  g = geometryOf(inType);
  go = geometryOf(type);
  store = storageType(inType.getElementType());
  eb = g.elemBytes;
  WindowRowLayout layout(padLeft, sw, kw, width, g.rowTiles, go.rowTiles, eb);
  rowBytes = layout.rowBytes;
  first = layout.first;
  bufRows = layout.bufRows;
  colBytes = layout.colBytes;
  setBytes = g.colTiles * colBytes;
  outRowBytes = go.rowTiles * go.colTiles * go.tileBytes();
  for (sets = kReduceWindowSets; sets > 2; --sets)
    if (sets * (kh * setBytes + outRowBytes) <= kMaxReduceWindowVmem)
      break;
}

void ReduceWindowKernel::allocBuffers() {
  for (int64_t i = 0; i < kh; ++i)
    rows.push_back(l.vmem(store, sets * setBytes));
  staging = l.vmem(store, sets * outRowBytes);
  tpu::SemSignalOp::create(l.b, l.loc, 1, sets - 1);
  for (VBuf &buf : rows)
    for (int64_t col = 0; col < sets * g.colTiles; ++col) {
      for (int64_t r = 0; r < first; r += kSublanes)
        l.vstore(initReg, buf, l.c(col * colBytes + r * rowBytes));
      for (int64_t r = first + g.rowTiles * kSublanes; r < bufRows;
           r += kSublanes)
        l.vstore(initReg, buf, l.c(col * colBytes + r * rowBytes));
    }
}

int64_t ReduceWindowKernel::fetchRows(Value n, Value ho, ArrayRef<bool> valid,
                                      Value set) {
  Value top = l.sub(l.mul(ho, sh), l.c(padTop)); // input row of window row 0
  int64_t dmas = 0;
  for (int64_t i = 0; i < kh; ++i) {
    if (!valid[i])
      continue;
    Value src = l.mul(l.add(l.mul(n, height), l.add(top, l.c(i))),
                      g.rowTiles * g.colTiles * g.tileBytes());
    for (int64_t col = 0; col < g.colTiles; ++col, ++dmas)
      l.dma(in, l.add(src, col * g.tileBytes()), rows[i].arena,
            l.add(set, rows[i].offset + col * colBytes + first * rowBytes),
            g.rowTiles, g.tileBytes(), g.colTiles * g.tileBytes(),
            g.tileBytes(), 0);
  }
  return dmas;
}

void ReduceWindowKernel::outputRow(Value n, Value ho, ArrayRef<bool> valid,
                                   Value set) {
  if (width % kSublanes != 0) // the tile padding DMA'd after column W
    for (int64_t i = 0; i < kh; ++i)
      for (int64_t col = 0; valid[i] && col < g.colTiles; ++col)
        l.vstore(initReg, rows[i],
                 l.add(set, col * colBytes + (first + width) * rowBytes));
  Value slot = l.mul(l.rem(l.add(l.mul(n, outH), ho), sets), outRowBytes);
  l.loop(go.rowTiles, [&](Value wt) {
    // Output columns 8wt+s read buffer rows first - padLeft +
    // (8wt+s)*sw + j: one strided load per window column j.
    Value base = l.add(l.add(set, l.mul(wt, kSublanes * sw * rowBytes)),
                       (first - padLeft) * rowBytes);
    for (int64_t col = 0; col < g.colTiles; ++col) {
      Value acc = initReg;
      for (int64_t i = 0; i < kh; ++i)
        for (int64_t j = 0; j < kw; ++j) {
          Value x = valid[i]
                        ? red.load(rows[i],
                                   l.add(base, col * colBytes + j * rowBytes),
                                   sw * rowBytes)
                        : initReg;
          acc = red.combine(acc, x);
        }
      l.vstore(acc, staging,
               l.add(l.add(slot, l.mul(wt, go.colTiles * go.tileBytes())),
                     col * go.tileBytes()));
    }
  });
  l.wait(1, 1);
  l.dma(staging.arena, l.add(slot, staging.offset), out,
        l.mul(l.add(l.mul(n, outH), ho), outRowBytes), 1, outRowBytes, 0, 0, 1);
}

void ReduceWindowKernel::emitRows() {
  // Output rows whose whole window is inside the input run in a loop; the
  // few at the top and bottom edges are emitted one by one.
  int64_t lo = ceilDiv(padTop, sh);
  int64_t hi = height - kh + padTop >= 0 ? (height - kh + padTop) / sh : -1;
  hi = std::min(hi, outH - 1);
  SmallVector<bool> allValid(kh, true);
  auto setOf = [&](Value i) { return l.mul(l.rem(i, sets), setBytes); };
  l.loop(batch, [&](Value n) {
    for (int64_t ho = 0; ho < outH; ++ho) {
      if (ho >= lo && ho <= hi) {
        // Interior rows, pipelined `sets` deep (row lo+i+sets-1's window
        // fetched before row lo+i's is combined).
        int64_t dmas = kh * g.colTiles;
        l.pipeline(
            hi - lo + 1,
            [&](Value i) {
              fetchRows(n, l.add(i, lo), allValid, setOf(i));
            },
            [&](Value i) {
              l.wait(0, dmas); // row lo + i's (completions come in order)
              outputRow(n, l.add(i, lo), allValid, setOf(i));
            },
            sets);
        ho = hi;
        continue;
      }
      SmallVector<bool> valid;
      for (int64_t i = 0; i < kh; ++i) {
        int64_t h = ho * sh - padTop + i;
        valid.push_back(h >= 0 && h < height);
      }
      l.wait(0, fetchRows(n, l.c(ho), valid, l.c(0)));
      outputRow(n, l.c(ho), valid, l.c(0));
    }
  });
}

/// The kernel of one hlo.select_and_scatter (the gradient of a max or min
/// pool). Per window row ho, the operand rows its windows read stream into
/// a ring (each row is fetched once) beside the source row; per tile of 8
/// windows x 128 channels, the selected window offset is found as XLA
/// defines it (the first in row-major window order that the comparison
/// prefers; padding is never selected), and the source is added into a
/// ring of result rows, opened with the init value and written to HBM once
/// no later window reaches them. The adds run in row-major window order
/// (window rows in order, a row's offsets from the last to the first), as
/// the interpreter adds them, so the sums round the same.
class SelectAndScatterKernel {
public:
  SelectAndScatterKernel(Lowering &l, hlo::SelectAndScatterOp op)
      : l(l), op(op) {}
  LogicalResult emit();

private:
  /// What window row ho does, in row offsets from its first operand row
  /// top(ho): the window rows inside the operand, the DMAs to wait for
  /// (its new rows and its source row), the new rows of the window row
  /// `ahead` rows on (from that row's top), the result rows it opens
  /// before and after its windows, those it writes back, and the
  /// write-backs to wait for (those of the window row `ahead` rows back,
  /// in the image before for the first rows). Consecutive window rows with
  /// equal plans run as a loop.
  struct RowPlan {
    int64_t validBegin = 0, validEnd = 0, fetches = 0;
    // The window row `ahead` rows on fetches (in the next image when it
    // is past this one's end; none in the last image) its new rows
    // [aheadBegin, aheadEnd), from its own top.
    bool aheadInNextImage = false;
    int64_t aheadBegin = 0, aheadEnd = 0, openBegin = 0, openEnd = 0,
            gapBegin = 0, gapEnd = 0, flushBegin = 0, flushEnd = 0,
            flushWaits = 0;
    auto key() const {
      return std::tie(validBegin, validEnd, fetches, aheadInNextImage,
                      aheadBegin, aheadEnd, openBegin, openEnd, gapBegin, gapEnd,
                      flushBegin, flushEnd, flushWaits);
    }
    bool operator==(const RowPlan &o) const { return key() == o.key(); }
  };
  /// Per window column offset j, the sublanes (windows) of a tile whose
  /// column is inside the operand: [first, second], empty when first >
  /// second. All of [0, 7] needs no mask.
  using TileMask = SmallVector<std::pair<int64_t, int64_t>>;

  int64_t top(int64_t ho) const { return ho * sh - padTop; }
  int64_t clampRow(int64_t h) const {
    return std::clamp<int64_t>(h, 0, height);
  }
  void plan();
  TileMask tileMask(int64_t wt) const;
  /// The DMAs of window row `ho`'s operand rows [begin, end) (offsets from
  /// its top) and of its source row, on semaphore 0.
  void fetch(Value n, Value ho, int64_t begin, int64_t end);
  /// Result rows [begin, end) (offsets from top(ho)) set to the init value.
  void open(Value n, Value ho, int64_t begin, int64_t end);
  /// The DMAs of rows [begin, end) (offsets from top(ho)): operand rows
  /// into their slots (semaphore 0), or result rows from theirs to HBM
  /// (`writeBack`, semaphore 1).
  void rowDmas(Value n, Value ho, int64_t begin, int64_t end, bool writeBack);
  /// The windows of window row ho, tile by tile.
  void windowRow(Value n, Value ho, const RowPlan &p);
  /// One tile of 8 windows: select, then scatter into the result rows.
  void tile(Value n, Value ho, Value wt, const RowPlan &p,
            const TileMask &mask, ArrayRef<Value> xSlot,
            ArrayRef<Value> gSlot);
  /// The byte offset of the slot of batch n's operand (result) row
  /// top(ho) + offset: rows are numbered across the batch, so the next
  /// image's first rows can stream in while this one's last are used.
  Value rowSlot(Value n, Value ho, int64_t offset, int64_t slotBytes) {
    Value h = l.add(l.add(l.mul(n, height), l.mul(ho, sh)), offset - padTop);
    return l.mul(l.rem(h, slots), slotBytes);
  }
  /// The byte offset of window row (n, ho)'s source row slot in srcRows.
  Value srcSlot(Value n, Value ho) {
    return l.mul(l.rem(l.add(l.mul(n, outH), ho), ahead + 1), srcRowBytes);
  }
  /// Emits items 0 .. count-1, a run of items with equal `keyOf` as one
  /// loop; `emitOne` gets the item as a value and a representative index.
  template <typename KeyFn, typename EmitFn>
  void runs(int64_t count, KeyFn keyOf, EmitFn emitOne);

  Lowering &l;
  hlo::SelectAndScatterOp op;
  Reduction red;
  tpu::CmpKind select = tpu::CmpKind::ge;
  Value in, src, initReg, out;
  Geometry gx, gs, go;
  WindowRowLayout xRow, gRow;
  int64_t batch = 0, height = 0, width = 0, outH = 0, outW = 0;
  int64_t kh = 0, kw = 0, sh = 1, sw = 1, padTop = 0, padLeft = 0;
  // Rings of operand rows and of result rows (row h of image n in slot
  // (n * H + h) % slots: 2 (kh + sh) + ahead * sh slots hold the rows one
  // window row reads and those the next `ahead` fetch, or those it opens
  // and the write-backs of the `ahead` before, also across an image
  // boundary), and ahead + 1 source row slots.
  int64_t slots = 0, xSlotBytes = 0, gSlotBytes = 0, srcRowBytes = 0;
  VBuf xRing, gRing, srcRows;
  SmallVector<RowPlan> rowPlans;
  SmallVector<std::pair<int64_t, int64_t>> fresh; // see plan
  int64_t ahead = 1; // window rows the fetches run ahead
  int64_t primedFlushes = 0; // the last `ahead` rows' write-backs
};

/// The VMEM a select_and_scatter kernel takes at most; larger ones are
/// expanded.
constexpr int64_t kMaxSelectAndScatterVmem = 8 << 20;
/// How many window rows a select_and_scatter kernel's fetches run ahead.
constexpr int64_t kAhead = 4;

template <typename KeyFn, typename EmitFn>
void SelectAndScatterKernel::runs(int64_t count, KeyFn keyOf,
                                  EmitFn emitOne) {
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
  switch (*poolSelectDirection(op)) {
  case hlo::ComparisonDirection::GT:
    select = tpu::CmpKind::gt;
    break;
  case hlo::ComparisonDirection::LE:
    select = tpu::CmpKind::le;
    break;
  case hlo::ComparisonDirection::LT:
    select = tpu::CmpKind::lt;
    break;
  default:
    select = tpu::CmpKind::ge;
  }
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

  ArrayRef<int64_t> window = op.getWindowDimensions();
  auto strides = op.getWindowStrides();
  auto padding = op.getPadding();
  batch = xType.getDimSize(0);
  height = xType.getDimSize(1);
  width = xType.getDimSize(2);
  outH = sType.getDimSize(1);
  outW = sType.getDimSize(2);
  kh = window[1];
  kw = window[2];
  sh = strides ? (*strides)[1] : 1;
  sw = strides ? (*strides)[2] : 1;
  padTop = padding ? (*padding)[2] : 0;
  padLeft = padding ? (*padding)[4] : 0;
  plan();

  xRing = l.vmem(storageType(xType.getElementType()), slots * xSlotBytes);
  gRing = l.vmem(storageType(type.getElementType()), slots * gSlotBytes);
  srcRows =
      l.vmem(storageType(sType.getElementType()), (ahead + 1) * srcRowBytes);
  // The rows around each slot's columns are read by the strided window
  // loads (and written back unchanged): written once, here.
  auto fillEdges = [&](const VBuf &ring, int64_t slotBytes,
                       const WindowRowLayout &row, int64_t rowTiles) {
    for (int64_t slot = 0; slot < slots; ++slot)
      for (int64_t col = 0; col < gx.colTiles; ++col) {
        int64_t base = slot * slotBytes + col * row.colBytes;
        for (int64_t r = 0; r < row.first; r += kSublanes)
          l.vstore(initReg, ring, l.c(base + r * row.rowBytes));
        for (int64_t r = row.first + rowTiles * kSublanes; r < row.bufRows;
             r += kSublanes)
          l.vstore(initReg, ring, l.c(base + r * row.rowBytes));
      }
  };
  fillEdges(xRing, xSlotBytes, xRow, gx.rowTiles);
  fillEdges(gRing, gSlotBytes, gRow, go.rowTiles);

  // An image's last window rows fetch the next image's first (the last
  // image is peeled); its first rows wait for the image before's last
  // rows' write-backs: for the first image, a signal.
  if (primedFlushes > 0)
    tpu::SemSignalOp::create(l.b, l.loc, 1, primedFlushes);
  for (int64_t ho = 0; ho < ahead; ++ho)
    fetch(l.c(0), l.c(ho), fresh[ho].first, fresh[ho].second);
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
          open(n, ho, p.openBegin, p.openEnd);
          windowRow(n, ho, p);
          // Write-backs `ahead` rows back are done before the slots they
          // read come round again (gap rows too: opened after the wait).
          l.wait(1, p.flushWaits);
          open(n, ho, p.gapBegin, p.gapEnd);
          rowDmas(n, ho, p.flushBegin, p.flushEnd, /*writeBack=*/true);
        });
  };
  l.loop(batch - 1, [&](Value n) { image(n, false); });
  image(l.c(batch - 1), true);
  l.wait(1, primedFlushes);
  return success();
}

void SelectAndScatterKernel::plan() {
  gx = geometryOf(op.getOperand().getType());
  gs = geometryOf(op.getSource().getType());
  go = geometryOf(op.getType());
  xRow = WindowRowLayout(padLeft, sw, kw, width, gx.rowTiles, gs.rowTiles,
                         gx.elemBytes);
  gRow = WindowRowLayout(padLeft, sw, kw, width, go.rowTiles, gs.rowTiles,
                         go.elemBytes);
  xSlotBytes = gx.colTiles * xRow.colBytes;
  gSlotBytes = go.colTiles * gRow.colBytes;
  srcRowBytes = gs.rowTiles * gs.colTiles * gs.tileBytes();
  // Fetches run kAhead window rows ahead (small rows wait a DMA latency
  // otherwise), fewer where the rings would not fit.
  for (ahead = std::min(kAhead, outH);; --ahead) {
    slots = 2 * (kh + sh) + ahead * sh;
    if (ahead == 1 || slots * (xSlotBytes + gSlotBytes) +
                              (ahead + 1) * srcRowBytes <=
                          kMaxSelectAndScatterVmem)
      break;
  }

  auto rowsBegin = [&](int64_t ho) { return clampRow(top(ho)); };
  auto rowsEnd = [&](int64_t ho) {
    return std::max(rowsBegin(ho), clampRow(top(ho) + kh));
  };
  // Result rows below finalEnd(ho) are complete after window row ho.
  auto finalEnd = [&](int64_t ho) {
    return ho + 1 == outH ? height : clampRow(top(ho + 1));
  };
  // The rows window row ho reads that the one before did not (all of its
  // rows for the first), from its top.
  for (int64_t ho = 0; ho < outH; ++ho) {
    int64_t begin =
        ho == 0 ? rowsBegin(0) : std::max(rowsBegin(ho), rowsEnd(ho - 1));
    fresh.push_back({begin - top(ho),
                     std::max(begin, rowsEnd(ho)) - top(ho)});
  }
  int64_t opened = 0;
  for (int64_t ho = 0; ho < outH; ++ho) {
    RowPlan p;
    int64_t t = top(ho);
    p.validBegin = rowsBegin(ho) - t;
    p.validEnd = rowsEnd(ho) - t;
    p.fetches = (fresh[ho].second - fresh[ho].first) * gx.colTiles + 1;
    p.aheadInNextImage = ho + ahead >= outH;
    std::tie(p.aheadBegin, p.aheadEnd) =
        fresh[p.aheadInNextImage ? ho + ahead - outH : ho + ahead];
    p.openBegin = opened - t;
    opened = std::max(opened, rowsEnd(ho));
    p.openEnd = opened - t;
    p.gapBegin = opened - t;
    opened = std::max(opened, finalEnd(ho));
    p.gapEnd = opened - t;
    int64_t fb = ho == 0 ? 0 : finalEnd(ho - 1);
    p.flushBegin = fb - t;
    p.flushEnd = std::max(fb, finalEnd(ho)) - t;

    rowPlans.push_back(p);
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

void SelectAndScatterKernel::rowDmas(Value n, Value ho, int64_t begin,
                                     int64_t end, bool writeBack) {
  const Geometry &g = writeBack ? go : gx;
  const WindowRowLayout &row = writeBack ? gRow : xRow;
  const VBuf &ring = writeBack ? gRing : xRing;
  int64_t tb = g.tileBytes();
  for (int64_t i = begin; i < end; ++i) {
    Value h = l.add(l.mul(ho, sh), i - padTop);
    Value hbmAt =
        l.mul(l.add(l.mul(n, height), h), g.rowTiles * g.colTiles * tb);
    Value vmemAt = rowSlot(n, ho, i, writeBack ? gSlotBytes : xSlotBytes);
    for (int64_t col = 0; col < g.colTiles; ++col) {
      Value hbmCol = l.add(hbmAt, col * tb);
      Value vmemCol = l.add(vmemAt, ring.offset + col * row.colBytes +
                                        row.first * row.rowBytes);
      if (writeBack)
        l.dma(ring.arena, vmemCol, out, hbmCol, g.rowTiles, tb, tb,
              g.colTiles * tb, 1);
      else
        l.dma(in, hbmCol, ring.arena, vmemCol, g.rowTiles, tb,
              g.colTiles * tb, tb, 0);
    }
  }
}

void SelectAndScatterKernel::fetch(Value n, Value ho, int64_t begin,
                                   int64_t end) {
  rowDmas(n, ho, begin, end, /*writeBack=*/false);
  l.dma(src, l.mul(l.add(l.mul(n, outH), ho), srcRowBytes), srcRows.arena,
        l.add(srcSlot(n, ho), srcRows.offset), 1,
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
      gs.rowTiles, [&](int64_t wt) { return tileMask(wt); },
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
  Value srcAt = l.add(srcSlot(n, ho),
                      l.mul(wt, gs.colTiles * gs.tileBytes()));
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
        l.vload(srcRows, l.add(srcAt, col * gs.tileBytes()));
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

std::optional<hlo::ComparisonDirection>
poolSelectDirection(hlo::SelectAndScatterOp op) {
  auto cmp = dyn_cast_or_null<hlo::CompareOp>(
      reductionCombiner(op.getSelect()));
  if (!cmp)
    return std::nullopt;
  bool swapped = cmp.getLhs() != op.getSelect().getArgument(0);
  switch (cmp.getComparisonDirection()) {
  case hlo::ComparisonDirection::GE:
    return swapped ? hlo::ComparisonDirection::LE
                   : hlo::ComparisonDirection::GE;
  case hlo::ComparisonDirection::GT:
    return swapped ? hlo::ComparisonDirection::LT
                   : hlo::ComparisonDirection::GT;
  case hlo::ComparisonDirection::LE:
    return swapped ? hlo::ComparisonDirection::GE
                   : hlo::ComparisonDirection::LE;
  case hlo::ComparisonDirection::LT:
    return swapped ? hlo::ComparisonDirection::GT
                   : hlo::ComparisonDirection::LT;
  default:
    return std::nullopt;
  }
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
  for (int64_t d = 0; d < 4; ++d) {
    int64_t stride = strides ? (*strides)[d] : 1;
    int64_t lo = padding ? (*padding)[2 * d] : 0;
    int64_t hi = padding ? (*padding)[2 * d + 1] : 0;
    if (lo < 0 || hi < 0)
      return false;
    if ((d == 0 || d == 3) && (window[d] != 1 || stride != 1 || lo || hi))
      return false;
  }
  // The VMEM the kernel takes at least (fetching one row ahead):
  // 2 (kh + sh) + sh operand and result rows, two
  // source rows.
  int64_t kw = window[2], sw = strides ? (*strides)[2] : 1;
  int64_t padLeft = padding ? (*padding)[4] : 0;
  Geometry gx = geometryOf(xType), gs = geometryOf(sType),
           go = geometryOf(type);
  int64_t rowSlots = 2 * window[1] + 3 * (strides ? (*strides)[1] : 1);
  int64_t width = xType.getDimSize(2);
  WindowRowLayout xRow(padLeft, sw, kw, width, gx.rowTiles, gs.rowTiles,
                       gx.elemBytes);
  WindowRowLayout gRow(padLeft, sw, kw, width, go.rowTiles, gs.rowTiles,
                       go.elemBytes);
  int64_t bytes = rowSlots * gx.colTiles * (xRow.colBytes + gRow.colBytes) +
                  2 * gs.rowTiles * gs.colTiles * gs.tileBytes();
  return bytes <= kMaxSelectAndScatterVmem;
}

void populateReduceWindowPatterns(RewritePatternSet &patterns, Lowering &l) {
  l.addKernel(patterns, &Lowering::lowerReduceWindow);
  l.addKernel(patterns, &Lowering::lowerSelectAndScatter);
}

} // namespace tpuc::hlotpu
