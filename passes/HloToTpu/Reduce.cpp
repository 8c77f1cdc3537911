//===- Reduce.cpp - reduce on the VPU -----------------------------------===//
//
// Part of tpuc-convert-hlo-to-tpu; see Lowering.h and docs/codegen.md.
// Three kernels read the (8,128)-tiled operand as it is, in the forms
// tpuc-decompose-reductions leaves: over the minor dim (lanes), over a run
// of dims ending at the second-minor one (sublanes), and over all dims.
//
//===----------------------------------------------------------------------===//

#include "passes/HloToTpu/Reduction.h"

#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;

namespace tpuc::hlotpu {

//===----------------------------------------------------------------------===//
// The combiner (Reduction.h)
//===----------------------------------------------------------------------===//

std::optional<double> splatNumber(Value v) {
  if (std::optional<double> f = splatValue(v))
    return f;
  auto cst = v.getDefiningOp<hlo::ConstantOp>();
  auto dense = cst ? dyn_cast<DenseIntElementsAttr>(cst.getValue())
                   : DenseIntElementsAttr();
  if (!dense || !dense.isSplat())
    return std::nullopt;
  if (dense.getElementType().isInteger(1))
    return dense.getSplatValue<bool>() ? 1.0 : 0.0;
  if (dense.getElementType().isInteger(32))
    return static_cast<double>(dense.getSplatValue<APInt>().getSExtValue());
  return std::nullopt;
}

FailureOr<Reduction> Reduction::match(Lowering &l, Operation *op, Region &body,
                                      Type elem) {
  if (op->getNumResults() != 1)
    return FailureOr<Reduction>(
        unsupported(op, "with several inputs (variadic)"));
  Reduction r;
  r.l = &l;
  r.isInt = elem.isInteger(32) || elem.isInteger(1);
  Block &block = body.front();
  Operation *combiner = block.getTerminator()->getOperand(0).getDefiningOp();
  if (!combiner || &block.front() != combiner ||
      combiner->getNumOperands() != 2 ||
      !llvm::all_of(combiner->getOperands(),
                    [](Value v) { return isa<BlockArgument>(v); }))
    return FailureOr<Reduction>(unsupported(
        op, "with a body other than one binary op of its arguments"));
  double inf = std::numeric_limits<double>::infinity();
  double lowest = r.isInt ? std::numeric_limits<int32_t>::min() : -inf;
  double highest = r.isInt ? std::numeric_limits<int32_t>::max() : inf;
  bool pred = elem.isInteger(1);
  bool ok = llvm::TypeSwitch<Operation *, bool>(combiner)
                .Case([&](hlo::AddOp) {
                  r.kind = Kind::add;
                  r.identityValue = 0;
                  return !pred;
                })
                .Case([&](hlo::MultiplyOp) {
                  r.kind = Kind::mul;
                  r.identityValue = 1;
                  return !pred;
                })
                .Case([&](hlo::MaximumOp) {
                  r.kind = Kind::max;
                  r.identityValue = pred ? 0 : lowest;
                  return true;
                })
                .Case([&](hlo::MinimumOp) {
                  r.kind = Kind::min;
                  r.identityValue = pred ? 1 : highest;
                  return true;
                })
                // On pred (0/1), and is min and or is max.
                .Case([&](hlo::AndOp) {
                  r.kind = Kind::min;
                  r.identityValue = 1;
                  return pred;
                })
                .Case([&](hlo::OrOp) {
                  r.kind = Kind::max;
                  r.identityValue = 0;
                  return pred;
                })
                .Default([](Operation *) { return false; });
  if (!ok) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "with a " << combiner->getName() << " body on " << elem;
    return FailureOr<Reduction>(unsupported(op, os.str()));
  }
  return r;
}

Value Reduction::splat(double value) {
  if (!isInt)
    return l->splatF32(value);
  Value cst = arith::ConstantOp::create(
      l->b, l->loc, l->b.getI32IntegerAttr(static_cast<int32_t>(value)));
  return tpu::VSplatOp::create(l->b, l->loc, l->i32Reg(), cst);
}

Value Reduction::combine(Value x, Value y) {
  OpBuilder &b = l->b;
  Location loc = l->loc;
  switch (kind) {
  case Kind::add:
    return tpu::VAddOp::create(b, loc, x, y);
  case Kind::max:
    return tpu::VMaxOp::create(b, loc, x, y);
  case Kind::min:
    return tpu::VMinOp::create(b, loc, x, y);
  case Kind::mul:
    return tpu::VMulOp::create(b, loc, x, y);
  }
  return x;
}

Value Reduction::maskBelow(Value v, Value ids, Value limit) {
  Value mask = tpu::VCmpOp::create(l->b, l->loc, l->i32Reg(), tpu::CmpKind::lt,
                                   ids, l->splatIndex(limit));
  return tpu::VSelectOp::create(l->b, l->loc, mask, v, identity());
}

Value Reduction::reduceAcross(Value v, bool lanes) {
  OpBuilder &b = l->b;
  Location loc = l->loc;
  if (kind != Kind::mul) {
    tpu::ReduceKind k = kind == Kind::add   ? tpu::ReduceKind::sum
                        : kind == Kind::max ? tpu::ReduceKind::max
                                            : tpu::ReduceKind::min;
    if (lanes)
      return tpu::VReduceLanesOp::create(b, loc, k, v);
    return tpu::VReduceSublanesOp::create(b, loc, k, v);
  }
  // No VREDUCE for products: combine the broadcasts of every lane
  // (sublane).
  auto broadcast = [&](int64_t i) -> Value {
    if (lanes)
      return tpu::VBroadcastLaneOp::create(b, loc, v, l->c(i));
    return tpu::VBroadcastSublaneOp::create(b, loc, v, l->c(i));
  };
  Value acc = broadcast(0);
  for (int64_t i = 1; i < (lanes ? kLanes : kSublanes); ++i)
    acc = combine(acc, broadcast(i));
  return acc;
}

Value Reduction::load(const VBuf &buf, Value off, int64_t sublaneStride) {
  return tpu::VLoadOp::create(l->b, l->loc, regType(), buf.arena,
                              l->add(off, buf.offset), sublaneStride);
}

FailureOr<Reduction::Buffers> Reduction::buffers(Value input, Value initValue,
                                                 Value result) {
  Buffers bufs;
  if (input) { // else the kernel streams it itself
    FailureOr<Value> in = l->memOf(input);
    if (failed(in))
      return failure();
    bufs.in = *in;
  }
  FailureOr<Value> initReg = init(initValue);
  if (failed(initReg))
    return failure();
  bufs.init = *initReg;
  bufs.out =
      l->allocHbm(cast<RankedTensorType>(result.getType()), result.getLoc());
  l->hbm[result] = bufs.out;
  return bufs;
}

FailureOr<Value> Reduction::init(Value initValue) {
  if (std::optional<double> v = splatNumber(initValue))
    return splat(*v);
  FailureOr<Value> mem = l->memOf(initValue);
  if (failed(mem))
    return failure();
  auto type = cast<RankedTensorType>(initValue.getType());
  Geometry g = geometryOf(type);
  VBuf tile = l->vmem(storageType(type.getElementType()), g.tileBytes());
  l->dma(*mem, l->c(0), tile.arena, l->c(tile.offset), 1, g.tileBytes(), 0, 0,
         0);
  l->wait(0, 1);
  Value v = load(tile, l->c(0));
  v = tpu::VBroadcastSublaneOp::create(l->b, l->loc, v, l->c(0));
  return Value(tpu::VBroadcastLaneOp::create(l->b, l->loc, v, l->c(0)));
}

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

namespace {
/// Streams `blocks` blocks of `bytes` bytes of the operand (block i at
/// `srcOff(i)`) through the two slots of each of its sources: block i+1's
/// DMAs are issued before the work on block i, so the transfer overlaps it.
/// `body` gets the block's byte offset in the slots and its index. A block
/// of a column-blocked stream is `chunks` tile rows of `chunkBytes` (its
/// columns), `srcStride` (the operand's tile row) apart in HBM and
/// bytes / chunks apart in the slot. Sources of another element size than
/// the operand (the inputs of fused producers) move proportionally more or
/// fewer bytes.
void streamBlocks(Lowering &l, Lowering::OperandStream &s, int64_t blocks,
                  int64_t bytes, function_ref<Value(Value)> srcOff,
                  function_ref<void(Value, Value)> body, int64_t chunks = 1,
                  int64_t chunkBytes = 0, int64_t srcStride = 0) {
  auto slot = [&](Value blk) { return l.mul(l.rem(blk, 2), bytes); };
  auto scaled = [&](Value x, int64_t eb) {
    return eb == s.elemBytes ? x : l.div(l.mul(x, eb), s.elemBytes);
  };
  auto scaledBytes = [&](int64_t x, int64_t eb) { return x * eb / s.elemBytes; };
  if (!chunkBytes)
    chunkBytes = bytes / chunks;
  int64_t dstStride = chunks > 1 ? bytes / chunks : 0;
  auto fetch = [&](Value blk) {
    for (auto &[src, slots, eb] : s.sources)
      l.dma(src, scaled(srcOff(blk), eb), slots.arena,
            l.add(scaled(slot(blk), eb), slots.offset), chunks,
            scaledBytes(chunkBytes, eb), scaledBytes(srcStride, eb),
            scaledBytes(dstStride, eb), 0);
    if (s.rows.empty())
      return;
    int64_t tileRows = bytes / s.rowBytes;
    Value firstRow =
        l.div(srcOff(blk), srcStride ? srcStride : s.rowBytes);
    for (const Lowering::RowStream &r : s.rows)
      l.fetchRows(r, firstRow, l.mul(l.rem(blk, 2), r.slotBytes), tileRows);
  };
  // Values read by position learn the block's first tile row.
  auto run = [&](Value blk) {
    if (!s.positional.empty())
      s.blockRow = l.div(srcOff(blk), srcStride ? srcStride : s.rowBytes);
    body(slot(blk), blk);
  };
  int64_t n = s.sources.size() + s.rows.size();
  l.pipeline(blocks, fetch, [&](Value blk) {
    l.wait(0, n); // block blk (completions are consumed in issue order)
    run(blk);
  });
}

/// Byte offset in a rank >= 2 result of its element (`row`, `col`), where
/// `row` counts the rows of all dims but the minor one (the second-minor
/// dim fastest) and `col` is a multiple of 8 or of 128.
Value resultOffset(Lowering &l, RankedTensorType type, Value row, Value col) {
  Geometry g = geometryOf(type);
  int64_t eb = g.elemBytes;
  Value outer = l.div(row, g.rows), r = l.rem(row, g.rows);
  Value tileRow = l.add(l.mul(outer, g.rowTiles), l.div(r, kSublanes));
  Value tile = l.add(l.mul(tileRow, g.colTiles), l.div(col, kLanes));
  return l.add(l.add(l.mul(tile, g.tileBytes()),
                     l.mul(l.rem(r, kSublanes), kLanes * eb)),
               l.mul(l.rem(col, kLanes), eb));
}
} // namespace

LogicalResult Lowering::lowerReduce(hlo::ReduceOp op) {
  Value input = op.getInputs()[0];
  auto inType = cast<RankedTensorType>(input.getType());
  auto type = cast<RankedTensorType>(op.getResult(0).getType());
  Type elem = inType.getElementType();
  SmallVector<int64_t> dims(op.getDimensions());
  llvm::sort(dims);
  int64_t rank = inType.getRank();
  for (int64_t d : inType.getShape())
    if (d == 0)
      return unsupported(op, "of an empty array");
  FailureOr<Reduction> red = Reduction::match(*this, op, op.getBody(), elem);
  if (failed(red))
    return failure();

  bool all = static_cast<int64_t>(dims.size()) == rank;
  bool minor = !all && rank >= 2 && dims.size() == 1 && dims[0] == rank - 1;
  bool leading =
      !all && !minor && rank >= 2 && !dims.empty() && dims.back() == rank - 2 &&
      dims.back() - dims.front() + 1 == static_cast<int64_t>(dims.size());
  if (!all && !minor && !leading)
    return unsupported(op, "over dims other than the minor one, a run ending "
                           "at the second-minor one, or all (run "
                           "tpuc-decompose-reductions first)");

  FailureOr<Reduction::Buffers> bufs =
      red->buffers(Value(), op.getInitValues()[0], op.getResult(0));
  if (failed(bufs))
    return failure();
  Value initReg = bufs->init, out = bufs->out;

  Geometry g = geometryOf(inType);
  Type outStore = storageType(type.getElementType());
  int64_t ob = elementBytes(outStore);
  int64_t outTile = kSublanes * kLanes * ob;
  int64_t accTile = kSublanes * kLanes * 4;
  // Tile rows of the operand: rank 1 is one row of 1024-element tiles.
  int64_t tileRows = g.rank == 1 ? g.colTiles : g.outer * g.rowTiles;
  int64_t rowTileCols = g.rank == 1 ? 1 : g.colTiles;
  int64_t rowBytes = rowTileCols * g.tileBytes();
  // Blocks of whole tile rows, at most kSlotBytes (two slots in VMEM) for
  // all the arrays streamed: few blocks, since each ends waiting for its
  // result DMAs (one latency). A tile row longer than that (the rows of
  // [10, 29360128], a one-hot's logits in their physical order) streams in
  // column blocks of `blockCols` column tiles, each block of rows
  // `blockCols` tiles wide in the slots, each column block with its own
  // accumulators (kMaxBlockCols tiles of them at most).
  constexpr int64_t kSlotBytes = 2 << 20, kMaxBlockCols = 256;
  int64_t streamed = streamSlotFactor(input);
  int64_t blockCols = rowTileCols;
  if (!minor && rowBytes * streamed > kSlotBytes)
    blockCols = std::clamp<int64_t>(kSlotBytes / (g.tileBytes() * streamed), 1,
                                    kMaxBlockCols);
  bool columnBlocked = blockCols < rowTileCols;
  int64_t pitch = blockCols * g.tileBytes(); // a tile row in the slots
  auto blockOf = [&](int64_t rowsTotal) {
    return largestDivisorAtMost(
        rowsTotal, std::max<int64_t>(1, kSlotBytes / (pitch * streamed)));
  };
  // Calls `fn(firstCol, tiles, last)` for every column block (the last one
  // may be narrower): a loop over all but the last, then the last.
  auto forColumnBlocks = [&](function_ref<void(Value, int64_t, bool)> fn) {
    int64_t blocks = ceilDiv(rowTileCols, blockCols);
    loop(blocks - 1,
         [&](Value cb) { fn(mul(cb, blockCols), blockCols, false); });
    fn(c((blocks - 1) * blockCols), rowTileCols - (blocks - 1) * blockCols,
       true);
  };
  // Streams the tile rows of one column block (`tiles` wide, from column
  // tile `firstCol`) in blocks of `blockRows` tile rows from tile row
  // `firstRow` on (`rows` of them).
  auto streamColumns = [&](OperandStream &in, Value firstRow, int64_t rows,
                           int64_t blockRows, Value firstCol, int64_t tiles,
                           function_ref<void(Value, Value)> body) {
    auto srcOff = [&](Value blk) {
      return add(mul(add(firstRow, mul(blk, blockRows)), rowBytes),
                 mul(firstCol, g.tileBytes()));
    };
    if (!columnBlocked)
      return streamBlocks(*this, in, rows / blockRows, blockRows * rowBytes,
                          srcOff, body);
    streamBlocks(*this, in, rows / blockRows, blockRows * pitch, srcOff, body,
                 blockRows, tiles * g.tileBytes(), rowBytes);
  };
  // Runs `fn(col)` for `tiles` column tiles: unrolled (constant offsets)
  // when few, else a loop.
  auto forTiles = [&](int64_t tiles, function_ref<void(Value)> fn) {
    if (tiles > 16)
      return loop(tiles, fn);
    for (int64_t col = 0; col < tiles; ++col)
      fn(c(col));
  };

  // The combination of the `tiles` tiles of one tile row (at `base` in the
  // slots), the ragged last one masked when `last` (the row's last column
  // block): in registers, or through a VMEM accumulator for long rows.
  int64_t raggedLanes = g.rank >= 2 ? g.cols % kLanes : 0;
  VBuf rowAcc;
  auto combineRow = [&](OperandStream &in, Value base, int64_t tiles,
                        bool last) -> Value {
    auto tileAt = [&](int64_t col) {
      return loadStreamed(in, add(base, col * g.tileBytes()));
    };
    auto lastTile = [&]() {
      Value x = tileAt(tiles - 1);
      if (raggedLanes && last)
        x = red->maskBelow(x, tpu::VLaneIdOp::create(b, loc, i32Reg()),
                           c(raggedLanes));
      return x;
    };
    if (tiles <= 16) {
      Value acc;
      for (int64_t col = 0; col + 1 < tiles; ++col)
        acc = acc ? red->combine(acc, tileAt(col)) : tileAt(col);
      return acc ? red->combine(acc, lastTile()) : lastTile();
    }
    vstore(tileAt(0), rowAcc, c(0));
    loop(tiles - 2, [&](Value col) {
      Value x = loadStreamed(in, add(base, mul(add(col, 1), g.tileBytes())));
      vstore(red->combine(red->load(rowAcc, c(0)), x), rowAcc, c(0));
    });
    return red->combine(red->load(rowAcc, c(0)), lastTile());
  };
  if ((minor || all) && blockCols > 16)
    rowAcc = vmem(red->accElem(), accTile);

  if (minor) {
    // Per tile row: combine its tiles, reduce the lanes; sublane s then
    // holds row 8t+s. Rows are the result's minor dim, so the 8 values go
    // to 8 consecutive elements of the result: one strided DMA (chunks of
    // one element, source stride one sublane).
    int64_t blockRows = blockOf(tileRows);
    int64_t blockBytes = blockRows * rowBytes;
    FailureOr<OperandStream> in = streamOperand(input, blockBytes);
    if (failed(in))
      return failure();
    VBuf staging = vmem(outStore, blockRows * outTile);
    beginColumns(*in, c(0), rowTileCols);
    auto srcOff = [&](Value blk) { return mul(blk, blockBytes); };
    streamBlocks(
        *this, *in, tileRows / blockRows, blockBytes, srcOff,
        [&](Value slot, Value blk) {
          loop(blockRows, [&](Value r) {
            Value v = red->reduceLanes(combineRow(
                *in, add(slot, mul(r, rowBytes)), rowTileCols, true));
            vstore(red->combine(v, initReg), staging, mul(r, outTile));
            if (type.getRank() < 2)
              return;
            // Tile row t covers result rows (t / rowTiles) and elements
            // 8 (t % rowTiles) ... of the minor dim.
            Value t = add(mul(blk, blockRows), r);
            Value dst = resultOffset(*this, type, div(t, g.rowTiles),
                                     mul(rem(t, g.rowTiles), kSublanes));
            dma(staging.arena, add(mul(r, outTile), staging.offset), out, dst,
                kSublanes, ob, kLanes * ob, ob, 1);
          });
          if (type.getRank() < 2) // rank 1: the block's rows are contiguous
            dma(staging.arena, c(staging.offset), out,
                mul(blk, blockRows * kSublanes * ob), blockRows * kSublanes, ob,
                kLanes * ob, ob, 1);
          wait(1, type.getRank() < 2 ? 1 : blockRows);
        });
    return success();
  }

  if (all) {
    // Every tile row combined into one accumulator tile (rows past the end
    // masked by sublane, the ragged last column tile by lane; rank 1 by
    // flat index), then lanes and sublanes; element 0 of the scalar's tile.
    int64_t blockRows = blockOf(tileRows);
    FailureOr<OperandStream> in =
        streamOperand(input, blockRows * pitch, columnBlocked ? blockCols : 0);
    if (failed(in))
      return failure();
    VBuf acc = vmem(red->accElem(), accTile);
    vstore(red->identity(), acc, c(0));
    bool raggedRows = g.rank >= 2 && g.rows % kSublanes != 0;
    bool raggedFlat = g.rank == 1 && g.cols % (kSublanes * kLanes) != 0;
    forColumnBlocks([&](Value firstCol, int64_t tiles, bool last) {
      beginColumns(*in, firstCol, tiles);
      streamColumns(
          *in, c(0), tileRows, blockRows, firstCol, tiles,
          [&](Value slot, Value blk) {
            loop(blockRows, [&](Value r) {
              Value t = add(mul(blk, blockRows), r);
              Value x = combineRow(*in, add(slot, mul(r, pitch)), tiles, last);
              if (raggedRows)
                x = red->maskBelow(
                    x, tpu::VSublaneIdOp::create(b, loc, i32Reg()),
                    sub(c(g.rows), mul(rem(t, g.rowTiles), kSublanes)));
              if (raggedFlat) {
                Value ids = tpu::VAddOp::create(
                    b, loc,
                    tpu::VMulOp::create(
                        b, loc, tpu::VSublaneIdOp::create(b, loc, i32Reg()),
                        splatIndex(c(kLanes))),
                    tpu::VLaneIdOp::create(b, loc, i32Reg()));
                x = red->maskBelow(x, ids,
                                   sub(c(g.cols), mul(t, kSublanes * kLanes)));
              }
              vstore(red->combine(red->load(acc, c(0)), x), acc, c(0));
            });
          });
    });
    Value v = red->reduceSublanes(red->reduceLanes(red->load(acc, c(0))));
    VBuf staging = vmem(outStore, outTile);
    vstore(red->combine(v, initReg), staging, c(0));
    dma(staging.arena, c(staging.offset), out, c(0), 1, kLanes * ob, 0, 0, 1);
    wait(1, 1);
    return success();
  }

  // Over dims p..r-2: for each index a of the dims before p and each column
  // block, an accumulator tile per column tile, combined with every tile
  // row of a's slab (rows past the second-minor dim masked by sublane),
  // then the sublanes reduced; one DMA writes sublane 0 of every column
  // tile of the block.
  int64_t p = dims.front();
  int64_t slabs = 1;
  for (int64_t d = 0; d < p; ++d)
    slabs *= inType.getDimSize(d);
  int64_t slabRows = tileRows / slabs;
  int64_t blockRows = blockOf(slabRows);
  FailureOr<OperandStream> in =
      streamOperand(input, blockRows * pitch, columnBlocked ? blockCols : 0);
  if (failed(in))
    return failure();
  VBuf acc = vmem(red->accElem(), blockCols * accTile);
  VBuf staging = vmem(outStore, blockCols * outTile);
  bool ragged = g.rows % kSublanes != 0;
  loop(slabs, [&](Value a) {
    forColumnBlocks([&](Value firstCol, int64_t tiles, bool) {
      forTiles(tiles, [&](Value col) {
        vstore(red->identity(), acc, mul(col, accTile));
      });
      beginColumns(*in, firstCol, tiles);
      streamColumns(
          *in, mul(a, slabRows), slabRows, blockRows, firstCol, tiles,
          [&](Value slot, Value blk) {
            loop(blockRows, [&](Value r) {
              Value rowLimit, sublanes;
              if (ragged) { // rows left from this tile row on
                Value t = add(mul(blk, blockRows), r);
                rowLimit = sub(c(g.rows), mul(rem(t, g.rowTiles), kSublanes));
                sublanes = tpu::VSublaneIdOp::create(b, loc, i32Reg());
              }
              forTiles(tiles, [&](Value col) {
                Value x = loadStreamed(
                    *in, add(add(slot, mul(r, pitch)), mul(col, g.tileBytes())));
                if (ragged)
                  x = red->maskBelow(x, sublanes, rowLimit);
                Value prev = red->load(acc, mul(col, accTile));
                vstore(red->combine(prev, x), acc, mul(col, accTile));
              });
            });
          });
      forTiles(tiles, [&](Value col) {
        Value v = red->reduceSublanes(red->load(acc, mul(col, accTile)));
        vstore(red->combine(v, initReg), staging, mul(col, outTile));
      });
      Value dst = type.getRank() < 2
                      ? mul(firstCol, kLanes * ob)
                      : resultOffset(*this, type, a, mul(firstCol, kLanes));
      dma(staging.arena, c(staging.offset), out, dst, tiles, kLanes * ob,
          outTile, type.getRank() < 2 ? kLanes * ob : outTile, 1);
      wait(1, 1);
    });
  });
  return success();
}

void populateReducePatterns(RewritePatternSet &patterns, Lowering &l) {
  l.addKernel(patterns, &Lowering::lowerReduce);
}

} // namespace tpuc::hlotpu
