//===- ReduceWindow.cpp - reduce_window on the VPU ----------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
// Pooling windows over the two outer spatial dims of NHWC: per output row,
// the input rows of its window are DMA'd into VMEM as [C tile][W][128]
// (W rows 128 lanes apart, padded with the init value), so a window offset
// kw and a W stride are one VLD with a sublane stride.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Reduction.h"

using namespace mlir;

namespace tpuc::hlotpu {

namespace {
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
  // Two sets of window row buffers: the interior loop fetches row ho+1's
  // window into one while it works on row ho's in the other.
  int64_t setBytes = 0;
  SmallVector<VBuf> rows;
  // Two output row slots: row i's DMA out overlaps row i+1's work; before
  // issuing it, the kernel waits for row i-1's (a signal primes the first
  // wait), so at most one is in flight when a slot is rewritten.
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
  l.wait(1, 1);
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
  rowBytes = kLanes * eb;
  first = ceilDiv(padLeft, kSublanes) * kSublanes;
  int64_t lastRead = first - padLeft + (go.rowTiles * kSublanes - 1) * sw + kw;
  bufRows = ceilDiv(std::max({first + g.rowTiles * kSublanes,
                              first + width + kSublanes, lastRead}),
                    kSublanes) *
            kSublanes;
  colBytes = bufRows * rowBytes;
  setBytes = g.colTiles * colBytes;
  outRowBytes = go.rowTiles * go.colTiles * go.tileBytes();
}

void ReduceWindowKernel::allocBuffers() {
  for (int64_t i = 0; i < kh; ++i)
    rows.push_back(l.vmem(store, 2 * setBytes));
  staging = l.vmem(store, 2 * outRowBytes);
  tpu::SemSignalOp::create(l.b, l.loc, 1, 1);
  for (VBuf &buf : rows)
    for (int64_t col = 0; col < 2 * g.colTiles; ++col) {
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
  Value slot = l.mul(l.rem(l.add(l.mul(n, outH), ho), 2), outRowBytes);
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
  auto setOf = [&](Value i) { return l.mul(l.rem(i, 2), setBytes); };
  l.loop(batch, [&](Value n) {
    for (int64_t ho = 0; ho < outH; ++ho) {
      if (ho >= lo && ho <= hi) {
        // Interior rows, double-buffered (the last one peeled: it has no
        // next row to fetch).
        int64_t count = hi - lo + 1;
        int64_t dmas = fetchRows(n, l.c(lo), allValid, setOf(l.c(0)));
        l.loop(count - 1, [&](Value i) {
          fetchRows(n, l.add(i, lo + 1), allValid, setOf(l.add(i, 1)));
          l.wait(0, dmas); // row lo + i's (completions come in issue order)
          outputRow(n, l.add(i, lo), allValid, setOf(i));
        });
        l.wait(0, dmas);
        outputRow(n, l.c(hi), allValid, setOf(l.c(count - 1)));
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
} // namespace

LogicalResult Lowering::lowerReduceWindow(hlo::ReduceWindowOp op) {
  return ReduceWindowKernel(*this, op).emit();
}

void populateReduceWindowPatterns(RewritePatternSet &patterns, Lowering &l) {
  l.addKernel(patterns, &Lowering::lowerReduceWindow);
}

} // namespace tpuc::hlotpu
