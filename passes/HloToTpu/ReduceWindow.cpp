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

LogicalResult Lowering::lowerReduceWindow(hlo::ReduceWindowOp op) {
  Value input = op.getInputs()[0];
  auto inType = cast<RankedTensorType>(input.getType());
  auto type = cast<RankedTensorType>(op.getResult(0).getType());
  if (inType.getRank() != 4)
    return unsupported(op, "other than on a 4-D (NHWC) array");
  int64_t rank = 4;
  ArrayRef<int64_t> window = op.getWindowDimensions();
  auto attrOr = [&](std::optional<ArrayRef<int64_t>> a, int64_t i,
                    int64_t dflt) { return a ? (*a)[i] : dflt; };
  auto strides = op.getWindowStrides(), padding = op.getPadding();
  for (int64_t d = 0; d < rank; ++d) {
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
  Type elem = inType.getElementType();
  FailureOr<Reduction> red = Reduction::match(*this, op, op.getBody(), elem);
  if (failed(red))
    return failure();
  FailureOr<Reduction::Buffers> bufs =
      red->buffers(input, op.getInitValues()[0], op.getResult(0));
  if (failed(bufs))
    return failure();
  Value in = bufs->in, initReg = bufs->init, out = bufs->out;

  int64_t batch = inType.getDimSize(0), height = inType.getDimSize(1),
          width = inType.getDimSize(2);
  int64_t kh = window[1], kw = window[2];
  int64_t sh = attrOr(strides, 1, 1), sw = attrOr(strides, 2, 1);
  int64_t padTop = attrOr(padding, 2, 0), padLeft = attrOr(padding, 4, 0);
  int64_t outH = type.getDimSize(1);
  Geometry g = geometryOf(inType), go = geometryOf(type);
  Type store = storageType(elem);
  int64_t eb = g.elemBytes, rowBytes = kLanes * eb;

  // A window row buffer: per column tile, `bufRows` rows of 128 lanes;
  // input column w at row `first + w`, every other row the init value
  // (the padding). `first` is 8-aligned so the DMAs never overlap the
  // init rows stored before them.
  int64_t first = ceilDiv(padLeft, kSublanes) * kSublanes;
  int64_t lastRead = first - padLeft + (go.rowTiles * kSublanes - 1) * sw + kw;
  int64_t bufRows = ceilDiv(std::max({first + g.rowTiles * kSublanes,
                                      first + width + kSublanes, lastRead}),
                            kSublanes) *
                    kSublanes;
  int64_t colBytes = bufRows * rowBytes;
  // Two sets of window row buffers: the interior loop fetches row ho+1's
  // window into one while it works on row ho's in the other.
  int64_t setBytes = g.colTiles * colBytes;
  SmallVector<VBuf> rows;
  for (int64_t i = 0; i < kh; ++i)
    rows.push_back(vmem(store, 2 * setBytes));
  // Two output row slots: row i's DMA out overlaps row i+1's work; before
  // issuing it, the kernel waits for row i-1's (a signal primes the first
  // wait), so at most one is in flight when a slot is rewritten.
  int64_t outRowBytes = go.rowTiles * go.colTiles * go.tileBytes();
  VBuf staging = vmem(store, 2 * outRowBytes);
  tpu::SemSignalOp::create(b, loc, 1, 1);
  for (VBuf &buf : rows)
    for (int64_t col = 0; col < 2 * g.colTiles; ++col) {
      for (int64_t r = 0; r < first; r += kSublanes)
        vstore(initReg, buf, c(col * colBytes + r * rowBytes));
      for (int64_t r = first + g.rowTiles * kSublanes; r < bufRows;
           r += kSublanes)
        vstore(initReg, buf, c(col * colBytes + r * rowBytes));
    }

  // The DMAs of output row (n, ho)'s window rows into the set at byte
  // `set`; `valid` says which window rows are inside the input (the others
  // are padding: the init value). Returns the number of DMAs.
  auto fetchRows = [&](Value n, Value ho, ArrayRef<bool> valid, Value set) {
    Value top = sub(mul(ho, sh), c(padTop)); // input row of window row 0
    int64_t dmas = 0;
    for (int64_t i = 0; i < kh; ++i) {
      if (!valid[i])
        continue;
      Value src = mul(add(mul(n, height), add(top, c(i))),
                      g.rowTiles * g.colTiles * g.tileBytes());
      for (int64_t col = 0; col < g.colTiles; ++col, ++dmas)
        dma(in, add(src, col * g.tileBytes()), rows[i].arena,
            add(set, rows[i].offset + col * colBytes + first * rowBytes),
            g.rowTiles, g.tileBytes(), g.colTiles * g.tileBytes(),
            g.tileBytes(), 0);
    }
    return dmas;
  };
  // Output row (n, ho) from its fetched window rows in the set at `set`.
  auto outputRow = [&](Value n, Value ho, ArrayRef<bool> valid, Value set) {
    if (width % kSublanes != 0) // the tile padding DMA'd after column W
      for (int64_t i = 0; i < kh; ++i)
        for (int64_t col = 0; valid[i] && col < g.colTiles; ++col)
          vstore(initReg, rows[i],
                 add(set, col * colBytes + (first + width) * rowBytes));
    Value slot = mul(rem(add(mul(n, outH), ho), 2), outRowBytes);
    loop(go.rowTiles, [&](Value wt) {
      // Output columns 8wt+s read buffer rows first - padLeft +
      // (8wt+s)*sw + j: one strided load per window column j.
      Value base = add(add(set, mul(wt, kSublanes * sw * rowBytes)),
                       (first - padLeft) * rowBytes);
      for (int64_t col = 0; col < g.colTiles; ++col) {
        Value acc = initReg;
        for (int64_t i = 0; i < kh; ++i)
          for (int64_t j = 0; j < kw; ++j) {
            Value x = valid[i]
                          ? red->load(rows[i],
                                      add(base, col * colBytes + j * rowBytes),
                                      sw * rowBytes)
                          : initReg;
            acc = red->combine(acc, x);
          }
        vstore(acc, staging,
               add(add(slot, mul(wt, go.colTiles * go.tileBytes())),
                   col * go.tileBytes()));
      }
    });
    wait(1, 1);
    dma(staging.arena, add(slot, staging.offset), out,
        mul(add(mul(n, outH), ho), outRowBytes), 1, outRowBytes, 0, 0, 1);
  };

  // Output rows whose whole window is inside the input run in a loop; the
  // few at the top and bottom edges are emitted one by one.
  int64_t lo = ceilDiv(padTop, sh);
  int64_t hi = height - kh + padTop >= 0 ? (height - kh + padTop) / sh : -1;
  hi = std::min(hi, outH - 1);
  SmallVector<bool> allValid(kh, true);
  auto setOf = [&](Value i) { return mul(rem(i, 2), setBytes); };
  loop(batch, [&](Value n) {
    for (int64_t ho = 0; ho < outH; ++ho) {
      if (ho >= lo && ho <= hi) {
        // Interior rows, double-buffered (the last one peeled: it has no
        // next row to fetch).
        int64_t count = hi - lo + 1;
        int64_t dmas = fetchRows(n, c(lo), allValid, setOf(c(0)));
        loop(count - 1, [&](Value i) {
          fetchRows(n, add(i, lo + 1), allValid, setOf(add(i, 1)));
          wait(0, dmas); // row lo + i's (completions come in issue order)
          outputRow(n, add(i, lo), allValid, setOf(i));
        });
        wait(0, dmas);
        outputRow(n, c(hi), allValid, setOf(c(count - 1)));
        ho = hi;
        continue;
      }
      SmallVector<bool> valid;
      for (int64_t i = 0; i < kh; ++i) {
        int64_t h = ho * sh - padTop + i;
        valid.push_back(h >= 0 && h < height);
      }
      wait(0, fetchRows(n, c(ho), valid, c(0)));
      outputRow(n, c(ho), valid, c(0));
    }
  });
  wait(1, 1);
  return success();
}

void populateReduceWindowPatterns(RewritePatternSet &patterns, Lowering &l) {
  l.addKernel(patterns, &Lowering::lowerReduceWindow);
}

} // namespace tpuc::hlotpu
