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

Operation *reductionCombiner(Region &body) {
  Block &block = body.front();
  if (block.getNumArguments() != 2 ||
      !llvm::hasSingleElement(block.without_terminator()))
    return nullptr;
  Operation *combiner = &block.front();
  Operation *terminator = block.getTerminator();
  Value a = block.getArgument(0), b = block.getArgument(1);
  if (terminator->getNumOperands() != 1 ||
      terminator->getOperand(0).getDefiningOp() != combiner ||
      combiner->getNumOperands() != 2 ||
      !((combiner->getOperand(0) == a && combiner->getOperand(1) == b) ||
        (combiner->getOperand(0) == b && combiner->getOperand(1) == a)))
    return nullptr;
  return combiner;
}

std::optional<Reduction::Kind> combinerKind(Operation *combiner, Type elem) {
  using Kind = Reduction::Kind;
  bool pred = elem.isInteger(1);
  auto onlyIf = [](bool ok, Kind kind) {
    return ok ? std::optional<Kind>(kind) : std::nullopt;
  };
  return llvm::TypeSwitch<Operation *, std::optional<Kind>>(combiner)
      .Case([&](hlo::AddOp) { return onlyIf(!pred, Kind::add); })
      .Case([&](hlo::MultiplyOp) { return onlyIf(!pred, Kind::mul); })
      .Case([&](hlo::MaximumOp) { return Kind::max; })
      .Case([&](hlo::MinimumOp) { return Kind::min; })
      // On pred (0/1), and is min and or is max.
      .Case([&](hlo::AndOp) { return onlyIf(pred, Kind::min); })
      .Case([&](hlo::OrOp) { return onlyIf(pred, Kind::max); })
      .Default([](Operation *) { return std::nullopt; });
}

FailureOr<Reduction> Reduction::match(Lowering &l, Operation *op, Region &body,
                                      Type elem) {
  if (op->getNumResults() != 1)
    return FailureOr<Reduction>(
        unsupported(op, "with several inputs (variadic)"));
  Operation *combiner = reductionCombiner(body);
  if (!combiner)
    return FailureOr<Reduction>(unsupported(
        op, "with a body other than one binary op of its arguments"));
  std::optional<Kind> kind = combinerKind(combiner, elem);
  if (!kind) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "with a " << combiner->getName() << " body on " << elem;
    return FailureOr<Reduction>(unsupported(op, os.str()));
  }
  Reduction r;
  r.l = &l;
  r.kind = *kind;
  r.isInt = elem.isInteger(32) || elem.isInteger(1);
  // u32 orders unsigned (the ISA's dtype U32): its extremes are 0 and
  // 2^32 - 1, which splat() writes as the s32 bits of -1.
  r.isUnsigned = elem.isUnsignedInteger(32);
  double inf = std::numeric_limits<double>::infinity();
  double lowest = r.isUnsigned ? 0
                  : r.isInt    ? std::numeric_limits<int32_t>::min()
                               : -inf;
  double highest = r.isUnsigned ? -1
                   : r.isInt    ? std::numeric_limits<int32_t>::max()
                                : inf;
  // The identity: on pred (0/1) max starts at 0 and min at 1.
  bool pred = elem.isInteger(1);
  switch (*kind) {
  case Kind::add:
    r.identityValue = 0;
    break;
  case Kind::mul:
    r.identityValue = 1;
    break;
  case Kind::max:
    r.identityValue = pred ? 0 : lowest;
    break;
  case Kind::min:
    r.identityValue = pred ? 1 : highest;
    break;
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

Value combineWith(Lowering &l, Reduction::Kind kind, bool isUnsigned, Value x,
                  Value y) {
  switch (kind) {
  case Reduction::Kind::add:
    return tpu::VAddOp::create(l.b, l.loc, x, y);
  case Reduction::Kind::max:
    return tpu::VMaxOp::create(l.b, l.loc, x, y, isUnsigned);
  case Reduction::Kind::min:
    return tpu::VMinOp::create(l.b, l.loc, x, y, isUnsigned);
  case Reduction::Kind::mul:
    return tpu::VMulOp::create(l.b, l.loc, x, y);
  }
  return x;
}

Value Reduction::combine(Value x, Value y) {
  return combineWith(*l, kind, isUnsigned, x, y);
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
      return tpu::VReduceLanesOp::create(b, loc, k, v, isUnsigned);
    return tpu::VReduceSublanesOp::create(b, loc, k, v, isUnsigned);
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

// A reduce kernel streams blocks of at most this many bytes (two slots).
static constexpr int64_t kReduceSlotBytes = 2 << 20;

bool isReducedRowGroups(hlo::ReshapeOp op) {
  auto in = cast<RankedTensorType>(op.getOperand().getType());
  auto out = cast<RankedTensorType>(op.getType());
  int64_t r = in.getRank();
  if (!isa<hlo::FusionOp>(op->getParentOp()) ||
      !isa<BlockArgument>(op.getOperand()) || op->use_empty() || r < 2 ||
      out.getRank() != r + 1 || in.getShape().back() > kLanes ||
      !llvm::equal(in.getShape().drop_back(2), out.getShape().drop_back(3)) ||
      out.getShape().back() != in.getShape().back() ||
      out.getDimSize(r - 1) * out.getDimSize(r - 2) != in.getDimSize(r - 2))
    return false;
  // Slabs of one tile column and ceil(K / 8) tile rows, several of them,
  // each one streamed block (ReduceKernel::emitLeading's slab sequence).
  Geometry g = geometryOf(out);
  if (g.outer < 2 || g.rowTiles * g.tileBytes() > kReduceSlotBytes ||
      llvm::is_contained(out.getShape(), 0))
    return false;
  // Its users: such reduces, or one-operand loop kernel ops (a fused
  // reduce's converts) whose values only such reduces read, of the
  // reshape's element size (the reduce computes them per tile from the
  // rows it streams: rowGroupsReshape).
  int64_t eb = elementBytes(storageType(out.getElementType()));
  std::function<bool(Value)> readInGroups = [&](Value v) {
    return llvm::all_of(v.getUsers(), [&](Operation *user) {
      if (user->getBlock() != op->getBlock())
        return false;
      if (auto reduce = dyn_cast<hlo::ReduceOp>(user))
        return reduce.getInputs().size() == 1 && reduce.getInputs()[0] == v &&
               llvm::equal(reduce.getDimensions(), ArrayRef<int64_t>{r - 1}) &&
               elementBytes(storageType(getElementTypeOrSelf(v))) == eb;
      return user->getNumOperands() == 1 && fitsLoopKernel(user) &&
             readInGroups(user->getResult(0));
    });
  };
  return readInGroups(op.getResult());
}

/// The row-groups reshape (isReducedRowGroups) a reduce of `input` reads:
/// `input`'s own, or the one the chain of one-operand loop kernel ops
/// (fitsLoopKernel) that computes `input` starts from.
static hlo::ReshapeOp rowGroupsReshape(Value input) {
  Operation *def = input.getDefiningOp();
  while (def && def->getNumOperands() == 1 && fitsLoopKernel(def))
    def = def->getOperand(0).getDefiningOp();
  auto reshape = dyn_cast_or_null<hlo::ReshapeOp>(def);
  return reshape && isReducedRowGroups(reshape) ? reshape : hlo::ReshapeOp();
}

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
  auto scaledBytes = [&](int64_t x, int64_t eb) {
    return x * eb / s.elemBytes;
  };
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
    Value firstRow = l.div(srcOff(blk), srcStride ? srcStride : s.rowBytes);
    for (const Lowering::RowStream &r : s.rows)
      l.fetchRows(r, firstRow, l.mul(l.rem(blk, 2), r.slotBytes), tileRows);
  };
  // Values read by position learn the block's first tile row. The
  // exports' slot is free once its write-back of two blocks before has
  // left (both slots start free); the block goes back as it came.
  int64_t exports = s.exports.size();
  auto run = [&](Value blk) {
    if (!s.positional.empty() || !s.rowwise.empty())
      s.blockRow = l.div(srcOff(blk), srcStride ? srcStride : s.rowBytes);
    if (exports)
      l.wait(Lowering::kSemExports, exports);
    body(slot(blk), blk);
    for (const Lowering::OperandStream::Export &e : s.exports)
      l.dma(e.buf.arena, l.add(scaled(slot(blk), e.elemBytes), e.buf.offset),
            e.mem, scaled(srcOff(blk), e.elemBytes), chunks,
            scaledBytes(chunkBytes, e.elemBytes),
            scaledBytes(dstStride, e.elemBytes),
            scaledBytes(srcStride, e.elemBytes), Lowering::kSemExports);
  };
  if (exports)
    tpu::SemSignalOp::create(l.b, l.loc, Lowering::kSemExports, 2 * exports);
  int64_t n = s.sources.size() + s.rows.size();
  l.pipeline(blocks, fetch, [&](Value blk) {
    l.wait(0, n); // block blk (completions are consumed in issue order)
    run(blk);
  });
  if (exports)
    l.wait(Lowering::kSemExports, 2 * exports);
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

/// The kernel of one hlo.reduce, in the family of the dims it reduces
/// (the forms tpuc-decompose-reductions leaves):
/// - minor (the minor dim): each tile row's tiles combined, then its lanes;
/// - leading (a run of dims ending at the second-minor one): an accumulator
///   tile per column tile, then its sublanes;
/// - all: every tile row into one accumulator tile, then lanes and sublanes.
/// Each streams the operand (its HBM buffer, or the inputs of a fused
/// producer: Lowering::streamOperand) in blocks of whole tile rows; leading
/// and all stream rows too long for the slots in column blocks.
class ReduceKernel {
public:
  ReduceKernel(Lowering &l, hlo::ReduceOp op) : l(l), op(op) {}
  LogicalResult emit();

private:
  enum class Family { minor, leading, all };
  using OperandStream = Lowering::OperandStream;

  /// The family of a reduce over the sorted `dims` (a diagnostic if none).
  FailureOr<Family> familyOf(ArrayRef<int64_t> dims);
  /// The operand's tile rows and their column blocks.
  void planBlocks(Family family);
  LogicalResult emitMinor();
  /// The minor family over rows too long for two slots in VMEM: each tile
  /// row streamed in chunks of `blockCols` column tiles.
  LogicalResult emitMinorChunked();
  LogicalResult emitAll();
  /// Over dims `firstDim`..r-2.
  LogicalResult emitLeading(int64_t firstDim);

  /// Tile rows per streamed block for `rowsTotal` tile rows.
  int64_t blockOf(int64_t rowsTotal);
  /// Calls `fn(firstCol, tiles, last)` for every column block (the last one
  /// may be narrower): a loop over all but the last, then the last.
  void forColumnBlocks(function_ref<void(Value, int64_t, bool)> fn);
  /// Streams the tile rows of one column block (`tiles` wide, from column
  /// tile `firstCol`) in blocks of `blockRows` tile rows from tile row
  /// `firstRow` on (`rows` of them).
  void streamColumns(OperandStream &in, Value firstRow, int64_t rows,
                     int64_t blockRows, Value firstCol, int64_t tiles,
                     function_ref<void(Value, Value)> body);
  /// Runs `fn(col)` for `tiles` column tiles: unrolled (constant offsets)
  /// when few, else a loop.
  void forTiles(int64_t tiles, function_ref<void(Value)> fn);
  /// The combination of the `tiles` tiles of one tile row (at `base` in the
  /// slots), the ragged last one masked when `last` (the row's last column
  /// block): in registers, or through a VMEM accumulator for long rows.
  Value combineRow(OperandStream &in, Value base, int64_t tiles, bool last);
  /// The rows of the second-minor dim left from tile row `t` on.
  Value rowsFrom(Value t) {
    return l.sub(l.c(g.rows), l.mul(l.rem(t, g.rowTiles), kSublanes));
  }

  // Blocks of whole tile rows, at most kSlotBytes (two slots in VMEM) for
  // all the arrays streamed: few blocks, since each ends waiting for its
  // result DMAs (one latency). A tile row longer than that (the rows of
  // [10, 29360128], a one-hot's logits in their physical order) streams in
  // column blocks of `blockCols` column tiles, each block of rows
  // `blockCols` tiles wide in the slots, each column block with its own
  // accumulators (kMaxBlockCols tiles of them at most).
  static constexpr int64_t kSlotBytes = kReduceSlotBytes, kMaxBlockCols = 256;
  /// Rows of more tiles than this combine through a VMEM accumulator, and
  /// loops over more column tiles are not unrolled.
  static constexpr int64_t kMaxUnrolledTiles = 16;

  Lowering &l;
  hlo::ReduceOp op;
  Reduction red;
  Value input, initReg, out;
  RankedTensorType inType, type;
  Geometry g;
  Type outStore;
  int64_t ob = 0, outTile = 0, accTile = 0;
  int64_t tileRows = 0;    // of the operand: rank 1 is one row of tiles
  int64_t rowTileCols = 0; // column tiles of a tile row
  int64_t rowBytes = 0;    // a tile row in HBM
  int64_t streamed = 1;    // Lowering::streamSlotFactor
  int64_t blockCols = 0;   // column tiles of a column block
  bool columnBlocked = false;
  int64_t pitch = 0; // a tile row in the slots
  int64_t raggedLanes = 0;
  int64_t chunks = 0; // of a tile row, when the minor family chunks it
  VBuf rowAcc; // combineRow's accumulator for long rows
};

LogicalResult ReduceKernel::emit() {
  input = op.getInputs()[0];
  inType = cast<RankedTensorType>(input.getType());
  type = cast<RankedTensorType>(op.getResult(0).getType());
  SmallVector<int64_t> dims(op.getDimensions());
  llvm::sort(dims);
  for (int64_t d : inType.getShape())
    if (d == 0)
      return unsupported(op, "of an empty array");
  FailureOr<Reduction> matched =
      Reduction::match(l, op, op.getBody(), inType.getElementType());
  if (failed(matched))
    return failure();
  red = *matched;
  FailureOr<Family> family = familyOf(dims);
  if (failed(family))
    return failure();

  FailureOr<Reduction::Buffers> bufs =
      red.buffers(Value(), op.getInitValues()[0], op.getResult(0));
  if (failed(bufs))
    return failure();
  initReg = bufs->init;
  out = bufs->out;
  planBlocks(*family);
  if (*family != Family::leading && (blockCols > kMaxUnrolledTiles || chunks))
    rowAcc = l.vmem(red.accElem(), accTile);
  switch (*family) {
  case Family::minor:
    return chunks ? emitMinorChunked() : emitMinor();
  case Family::all:
    return emitAll();
  case Family::leading:
    return emitLeading(dims.front());
  }
  return failure();
}

FailureOr<ReduceKernel::Family> ReduceKernel::familyOf(ArrayRef<int64_t> dims) {
  int64_t rank = inType.getRank();
  int64_t n = dims.size();
  if (n == rank)
    return Family::all;
  if (rank >= 2 && n == 1 && dims[0] == rank - 1)
    return Family::minor;
  if (rank >= 2 && n && dims.back() == rank - 2 &&
      dims.back() - dims.front() + 1 == n)
    return Family::leading;
  return FailureOr<Family>(
      unsupported(op, "over dims other than the minor one, a run ending "
                      "at the second-minor one, or all (run "
                      "tpuc-decompose-reductions first)"));
}

void ReduceKernel::planBlocks(Family family) {
  g = geometryOf(inType);
  outStore = storageType(type.getElementType());
  ob = elementBytes(outStore);
  outTile = kSublanes * kLanes * ob;
  accTile = kSublanes * kLanes * 4;
  tileRows = g.rank == 1 ? g.colTiles : g.outer * g.rowTiles;
  rowTileCols = g.rank == 1 ? 1 : g.colTiles;
  rowBytes = rowTileCols * g.tileBytes();
  streamed = l.streamSlotFactor(input);
  blockCols = rowTileCols;
  if (family != Family::minor && rowBytes * streamed > kSlotBytes)
    blockCols = std::clamp<int64_t>(kSlotBytes / (g.tileBytes() * streamed), 1,
                                    kMaxBlockCols);
  // The minor family keeps whole tile rows in its two slots while they
  // fit the target's VMEM (with its staging and accumulator tiles: the
  // executables of rows that fit stay as they were); longer rows stream
  // in chunks of at most kSlotBytes, as even as their tiles allow.
  if (family == Family::minor && rowBytes * streamed > kSlotBytes &&
      l.kernelBytes + Lowering::pages(accTile) +
              streamed * Lowering::pages(2 * rowBytes) +
              2 * Lowering::pages(outTile) >
          static_cast<int64_t>(l.spec.machine.vmem_bytes())) {
    int64_t maxCols =
        std::max<int64_t>(1, kSlotBytes / (g.tileBytes() * streamed));
    chunks = ceilDiv(rowTileCols, maxCols);
    blockCols = ceilDiv(rowTileCols, chunks);
  }
  columnBlocked = blockCols < rowTileCols;
  pitch = blockCols * g.tileBytes();
  raggedLanes = g.rank >= 2 ? g.cols % kLanes : 0;
}

int64_t ReduceKernel::blockOf(int64_t rowsTotal) {
  return largestDivisorAtMost(
      rowsTotal, std::max<int64_t>(1, kSlotBytes / (pitch * streamed)));
}

void ReduceKernel::forColumnBlocks(
    function_ref<void(Value, int64_t, bool)> fn) {
  int64_t blocks = ceilDiv(rowTileCols, blockCols);
  l.loop(blocks - 1,
         [&](Value cb) { fn(l.mul(cb, blockCols), blockCols, false); });
  fn(l.c((blocks - 1) * blockCols), rowTileCols - (blocks - 1) * blockCols,
     true);
}

void ReduceKernel::streamColumns(OperandStream &in, Value firstRow,
                                 int64_t rows, int64_t blockRows,
                                 Value firstCol, int64_t tiles,
                                 function_ref<void(Value, Value)> body) {
  auto srcOff = [&](Value blk) {
    return l.add(l.mul(l.add(firstRow, l.mul(blk, blockRows)), rowBytes),
                 l.mul(firstCol, g.tileBytes()));
  };
  if (!columnBlocked)
    return streamBlocks(l, in, rows / blockRows, blockRows * rowBytes, srcOff,
                        body);
  streamBlocks(l, in, rows / blockRows, blockRows * pitch, srcOff, body,
               blockRows, tiles * g.tileBytes(), rowBytes);
}

void ReduceKernel::forTiles(int64_t tiles, function_ref<void(Value)> fn) {
  if (tiles > kMaxUnrolledTiles)
    return l.loop(tiles, fn);
  for (int64_t col = 0; col < tiles; ++col)
    fn(l.c(col));
}

Value ReduceKernel::combineRow(OperandStream &in, Value base, int64_t tiles,
                               bool last) {
  auto tileAt = [&](int64_t col) { return l.loadStreamedAt(in, base, col); };
  auto lastTile = [&]() {
    Value x = tileAt(tiles - 1);
    if (raggedLanes && last)
      x = red.maskBelow(x, tpu::VLaneIdOp::create(l.b, l.loc, l.i32Reg()),
                        l.c(raggedLanes));
    return x;
  };
  if (tiles <= kMaxUnrolledTiles) {
    Value acc;
    for (int64_t col = 0; col + 1 < tiles; ++col)
      acc = acc ? red.combine(acc, tileAt(col)) : tileAt(col);
    return acc ? red.combine(acc, lastTile()) : lastTile();
  }
  l.vstore(tileAt(0), rowAcc, l.c(0));
  l.loop(tiles - 2, [&](Value col) {
    Value x =
        l.loadStreamed(in, l.add(base, l.mul(l.add(col, 1), g.tileBytes())));
    l.vstore(red.combine(red.load(rowAcc, l.c(0)), x), rowAcc, l.c(0));
  });
  return red.combine(red.load(rowAcc, l.c(0)), lastTile());
}

LogicalResult ReduceKernel::emitMinor() {
  // Per tile row: combine its tiles, reduce the lanes; sublane s then holds
  // row 8t+s. The rows are the result's minor dim, so `group` consecutive
  // tile rows (of one outer index, group a power of two <= 16) give 8·group
  // consecutive elements of one result tile row: row j's register is
  // selected into lanes 8j+s of sublane s, the group's sublanes are
  // combined once, and one DMA of one chunk writes the group. The groups'
  // registers go through a ring of up to 64 staging tiles (semaphore 1,
  // pre-signalled once per slot), so no store waits for a recent DMA.
  // The blocks as the other families take them; the groups divide them
  // (a group size that made the blocks smaller would cost a DMA latency
  // per extra block: dlrm's [3616,1] has 452 = 4 x 113 tile rows).
  int64_t blockRows = blockOf(tileRows);
  int64_t group = 1;
  while (group < 16 && g.rowTiles % (2 * group) == 0 &&
         blockRows % (2 * group) == 0)
    group *= 2;
  int64_t blockBytes = blockRows * rowBytes;
  int64_t groupsPerBlock = blockRows / group;
  // A rank-1 result takes the block's groups back to back: one DMA per
  // block from one block of staging tiles, waited for at the block's end.
  bool rank1 = type.getRank() < 2;
  int64_t ring =
      rank1 ? groupsPerBlock
            : std::min<int64_t>({2 * groupsPerBlock, tileRows / group, 64});
  FailureOr<OperandStream> in = l.streamOperand(input, blockBytes);
  if (failed(in))
    return failure();
  VBuf staging = l.vmem(outStore, ring * outTile);
  l.beginColumns(*in, l.c(0), rowTileCols);
  if (!rank1)
    tpu::SemSignalOp::create(l.b, l.loc, 1, ring);
  auto srcOff = [&](Value blk) { return l.mul(blk, blockBytes); };
  OpBuilder &b = l.b;
  Location loc = l.loc;
  streamBlocks(
      l, *in, tileRows / groupsPerBlock / group, blockBytes, srcOff,
      [&](Value slot, Value blk) {
        l.loop(groupsPerBlock, [&](Value gi) {
          Value groupBase = l.add(slot, l.mul(gi, group * rowBytes));
          Value acc = red.identity();
          // lane - sublane: row j's values go where it is 8j.
          Value diagonal = tpu::VSubOp::create(
              b, loc, tpu::VLaneIdOp::create(b, loc, l.i32Reg()),
              tpu::VSublaneIdOp::create(b, loc, l.i32Reg()));
          for (int64_t j = 0; j < group; ++j) {
            Value v = red.reduceLanes(
                combineRow(*in, l.add(groupBase, j * rowBytes), rowTileCols,
                           true));
            Value mask = tpu::VCmpOp::create(b, loc, l.i32Reg(),
                                             tpu::CmpKind::eq, diagonal,
                                             l.splatIndex(l.c(8 * j)));
            acc = tpu::VSelectOp::create(b, loc, mask, v, acc);
          }
          acc = red.reduceSublanes(acc);
          // Group n = blk * groupsPerBlock + gi, from tile row n * group:
          // its staging slot's last DMA (ring groups before) has left.
          if (rank1)
            return l.vstore(red.combine(acc, initReg), staging,
                            l.mul(gi, outTile));
          Value n = l.add(l.mul(blk, groupsPerBlock), gi);
          Value at = l.mul(l.rem(n, ring), outTile);
          l.wait(1, 1);
          l.vstore(red.combine(acc, initReg), staging, at);
          Value t = l.mul(n, group);
          Value dst = resultOffset(l, type, l.div(t, g.rowTiles),
                                   l.mul(l.rem(t, g.rowTiles), kSublanes));
          l.dma(staging.arena, l.add(at, staging.offset), out, dst, 1,
                group * kSublanes * ob, 0, 0, 1);
        });
        if (!rank1)
          return;
        int64_t chunk = group * kSublanes * ob;
        bool one = groupsPerBlock == 1;
        l.dma(staging.arena, l.c(staging.offset), out,
              l.mul(blk, blockRows * kSublanes * ob), groupsPerBlock, chunk,
              one ? 0 : outTile, one ? 0 : chunk, 1);
        l.wait(1, 1);
      });
  if (!rank1)
    l.wait(1, ring);
  return success();
}

LogicalResult ReduceKernel::emitMinorChunked() {
  // Per tile row: its `chunks` chunks of `blockCols` column tiles stream
  // through the two slots (chunk c+1's DMAs overlap chunk c's work), every
  // tile combined in order into one accumulator tile, as combineRow does
  // for a whole row; then the lanes, and the row's 8 results written (one
  // DMA, waited: a row is megabytes, its latency is noise). The last chunk
  // ends the row: it starts `overlap` tiles early, and those tiles, which
  // its predecessor combined, read as the identity; so does the padding
  // of the ragged last column tile. A per-column broadcast the stream
  // computes with (a fused `x * w[C]`) is read by the chunk's columns.
  FailureOr<OperandStream> in = l.streamOperand(input, pitch, blockCols);
  if (failed(in))
    return failure();
  VBuf staging = l.vmem(outStore, outTile);
  OpBuilder &b = l.b;
  Location loc = l.loc;
  int64_t tb = g.tileBytes();
  int64_t overlap = chunks * blockCols - rowTileCols;
  bool rank1 = type.getRank() < 2;
  l.loop(tileRows, [&](Value t) {
    l.vstore(red.identity(), rowAcc, l.c(0));
    // chunks >= 2: c / (chunks - 1) is 1 for the last chunk only.
    auto firstColOf = [&](Value c) {
      Value col = l.mul(c, blockCols);
      return overlap ? l.sub(col, l.mul(l.div(c, chunks - 1), overlap)) : col;
    };
    auto srcOff = [&](Value c) {
      return l.add(l.mul(t, rowBytes), l.mul(firstColOf(c), tb));
    };
    auto chunk = [&](Value slot, Value c) {
      Value isLast = l.div(c, chunks - 1);
      in->firstCol = firstColOf(c);
      auto accumulate = [&](Value col, bool overlapped, bool lastTile) {
        Value x = l.loadStreamed(*in, l.add(slot, l.mul(col, tb)));
        if (overlapped)
          x = red.maskBelow(x, l.splatIndex(isLast), l.c(1));
        if (lastTile && raggedLanes)
          x = red.maskBelow(
              x, tpu::VLaneIdOp::create(b, loc, l.i32Reg()),
              l.sub(l.c(kLanes), l.mul(isLast, kLanes - raggedLanes)));
        l.vstore(red.combine(red.load(rowAcc, l.c(0)), x), rowAcc, l.c(0));
      };
      l.loop(overlap, [&](Value col) { accumulate(col, true, false); });
      l.loop(blockCols - overlap - 1,
             [&](Value col) { accumulate(l.add(col, overlap), false, false); });
      accumulate(l.c(blockCols - 1), false, true);
    };
    if (in->columns.empty()) {
      streamBlocks(l, *in, chunks, pitch, srcOff, chunk, 1, pitch, rowBytes);
    } else {
      // A fused per-column broadcast streamed by column block: its columns
      // are fetched (and waited) per chunk, so the chunks are not
      // pipelined (a later chunk's DMAs would complete before them).
      l.loop(chunks, [&](Value c) {
        l.beginColumns(*in, firstColOf(c), blockCols);
        streamBlocks(
            l, *in, 1, pitch, [&](Value) { return srcOff(c); },
            [&](Value slot, Value) { chunk(slot, c); }, 1, pitch, rowBytes);
      });
    }
    // Sublane s holds row 8t+s in every lane: lane s of the result tile.
    Value v = red.reduceLanes(red.load(rowAcc, l.c(0)));
    Value diagonal =
        tpu::VSubOp::create(b, loc, tpu::VLaneIdOp::create(b, loc, l.i32Reg()),
                            tpu::VSublaneIdOp::create(b, loc, l.i32Reg()));
    Value mask = tpu::VCmpOp::create(b, loc, l.i32Reg(), tpu::CmpKind::eq,
                                     diagonal, l.splatIndex(l.c(0)));
    Value acc = red.reduceSublanes(
        tpu::VSelectOp::create(b, loc, mask, v, red.identity()));
    l.vstore(red.combine(acc, initReg), staging, l.c(0));
    Value dst = rank1 ? l.mul(t, kSublanes * ob)
                      : resultOffset(l, type, l.div(t, g.rowTiles),
                                     l.mul(l.rem(t, g.rowTiles), kSublanes));
    l.dma(staging.arena, l.c(staging.offset), out, dst, 1, kSublanes * ob, 0, 0,
          1);
    l.wait(1, 1);
  });
  return success();
}

LogicalResult ReduceKernel::emitAll() {
  // Every tile row combined into one accumulator tile (rows past the end
  // masked by sublane, the ragged last column tile by lane; rank 1 by
  // flat index), then lanes and sublanes; element 0 of the scalar's tile.
  int64_t blockRows = blockOf(tileRows);
  FailureOr<OperandStream> in =
      l.streamOperand(input, blockRows * pitch, columnBlocked ? blockCols : 0);
  if (failed(in))
    return failure();
  VBuf acc = l.vmem(red.accElem(), accTile);
  l.vstore(red.identity(), acc, l.c(0));
  bool raggedRows = g.rank >= 2 && g.rows % kSublanes != 0;
  bool raggedFlat = g.rank == 1 && g.cols % (kSublanes * kLanes) != 0;
  OpBuilder &b = l.b;
  Location loc = l.loc;
  forColumnBlocks([&](Value firstCol, int64_t tiles, bool last) {
    l.beginColumns(*in, firstCol, tiles);
    streamColumns(
        *in, l.c(0), tileRows, blockRows, firstCol, tiles,
        [&](Value slot, Value blk) {
          l.loop(blockRows, [&](Value r) {
            Value t = l.add(l.mul(blk, blockRows), r);
            Value x =
                combineRow(*in, l.add(slot, l.mul(r, pitch)), tiles, last);
            if (raggedRows)
              x = red.maskBelow(x,
                                tpu::VSublaneIdOp::create(b, loc, l.i32Reg()),
                                rowsFrom(t));
            if (raggedFlat) {
              Value ids = tpu::VAddOp::create(
                  b, loc,
                  tpu::VMulOp::create(
                      b, loc, tpu::VSublaneIdOp::create(b, loc, l.i32Reg()),
                      l.splatIndex(l.c(kLanes))),
                  tpu::VLaneIdOp::create(b, loc, l.i32Reg()));
              x = red.maskBelow(
                  x, ids, l.sub(l.c(g.cols), l.mul(t, kSublanes * kLanes)));
            }
            l.vstore(red.combine(red.load(acc, l.c(0)), x), acc, l.c(0));
          });
        });
  });
  Value v = red.reduceSublanes(red.reduceLanes(red.load(acc, l.c(0))));
  VBuf staging = l.vmem(outStore, outTile);
  l.vstore(red.combine(v, initReg), staging, l.c(0));
  l.dma(staging.arena, l.c(staging.offset), out, l.c(0), 1, kLanes * ob, 0, 0,
        1);
  l.wait(1, 1);
  return success();
}

LogicalResult ReduceKernel::emitLeading(int64_t firstDim) {
  // For each index a of the dims before firstDim (a slab) and each column
  // block, an accumulator tile per column tile, combined with every tile
  // row of a's slab (rows past the second-minor dim masked by sublane),
  // then the sublanes reduced; one DMA writes sublane 0 of every column
  // tile of the block.
  int64_t slabs = 1;
  for (int64_t d = 0; d < firstDim; ++d)
    slabs *= inType.getDimSize(d);
  int64_t slabRows = tileRows / slabs;
  int64_t blockRows = blockOf(slabRows);
  // A reshape's rows in groups of K (isReducedRowGroups): slab a is the K
  // rows of its operand from row a * K on, one tile column, evenly spaced,
  // so one DMA of K rows; the slots' rows past K are zeroed once (masked,
  // but read).
  // Through a chain of elementwise ops (converts), the input fusion's
  // stream computes them per tile from the operand's rows (streamOperand).
  hlo::ReshapeOp split = rowGroupsReshape(input);
  bool rowGroups = bool(split);
  bool chained = rowGroups && split.getResult() != input;
  if (chained && !(l.fusedProducer && l.fusedProducer(input.getDefiningOp())))
    return unsupported(op, "over rows in groups computed outside its kernel");
  FailureOr<OperandStream> in = l.streamOperand(
      rowGroups && !chained ? split.getOperand() : input, blockRows * pitch,
      columnBlocked ? blockCols : 0);
  if (failed(in))
    return failure();
  // isReducedRowGroups promises the slab sequence below.
  if (rowGroups && (columnBlocked || blockRows != slabRows || slabs < 2))
    return unsupported(op, "over rows in groups that are not one block each");
  VBuf acc = l.vmem(red.accElem(), blockCols * accTile);
  bool ragged = g.rows % kSublanes != 0;
  bool rank1 = type.getRank() < 2;
  // A slab's tile rows combined into the accumulators, from the stream's
  // slot `slot` (block `blk` of the slab's blocks).
  auto accumulate = [&](Value slot, Value blk, int64_t tiles) {
    l.loop(blockRows, [&](Value r) {
      Value rowLimit, sublanes;
      if (ragged) { // rows left from this tile row on
        rowLimit = rowsFrom(l.add(l.mul(blk, blockRows), r));
        sublanes = tpu::VSublaneIdOp::create(l.b, l.loc, l.i32Reg());
      }
      forTiles(tiles, [&](Value col) {
        Value x = l.loadStreamed(
            *in, l.add(l.add(slot, l.mul(r, pitch)), l.mul(col, g.tileBytes())));
        if (ragged)
          x = red.maskBelow(x, sublanes, rowLimit);
        Value prev = red.load(acc, l.mul(col, accTile));
        l.vstore(red.combine(prev, x), acc, l.mul(col, accTile));
      });
    });
  };
  auto resetAcc = [&](int64_t tiles) {
    forTiles(tiles, [&](Value col) {
      l.vstore(red.identity(), acc, l.mul(col, accTile));
    });
  };
  // The accumulators' sublanes reduced into `staging` at `at`, and one DMA
  // (semaphore 1) of sublane 0 of every column tile to slab a's results.
  auto writeBack = [&](Value a, Value firstCol, int64_t tiles,
                       const VBuf &staging, Value at) {
    forTiles(tiles, [&](Value col) {
      Value v = red.reduceSublanes(red.load(acc, l.mul(col, accTile)));
      l.vstore(red.combine(v, initReg), staging, l.add(at, l.mul(col, outTile)));
    });
    Value dst = rank1 ? l.mul(firstCol, kLanes * ob)
                      : resultOffset(l, type, a, l.mul(firstCol, kLanes));
    l.dma(staging.arena, l.add(at, staging.offset), out, dst, tiles,
          kLanes * ob, outTile, rank1 ? kLanes * ob : outTile, 1);
  };
  if (!columnBlocked && blockRows == slabRows && slabs > 1) {
    // Every slab is one block: the slabs stream as one sequence (slab a+1's
    // DMAs overlap slab a's work, as a slab's blocks do) and their results
    // go through two staging slots (semaphore 1 pre-signalled once per
    // slot), so no slab waits for a DMA latency of its own.
    VBuf staging = l.vmem(outStore, 2 * blockCols * outTile);
    l.beginColumns(*in, l.c(0), rowTileCols);
    tpu::SemSignalOp::create(l.b, l.loc, 1, 2);
    int64_t slabBytes = slabRows * rowBytes, groupBytes = 0;
    std::function<Value(Value)> slabAt = [&](Value a) {
      return l.mul(a, slabBytes);
    };
    if (rowGroups) {
      // Slab a = (i, n) of the operand's [L, N*K, C] (its N*K rows padded
      // to whole tile rows for each leading index i).
      int64_t n = inType.getDimSize(inType.getRank() - 3);
      int64_t perLead = ceilDiv(n * g.rows, kSublanes) * g.tileBytes();
      groupBytes = g.rows * (g.tileBytes() / kSublanes);
      slabAt = [&, n, perLead](Value a) {
        if (slabs == n)
          return l.mul(a, groupBytes);
        return l.add(l.mul(l.div(a, n), perLead),
                     l.mul(l.rem(a, n), groupBytes));
      };
      if (g.rows % kSublanes) {
        const VBuf &slots = std::get<1>(in->sources.front());
        for (int64_t slot = 0; slot < 2; ++slot)
          l.vstore(red.identity(), slots,
                   l.c(slot * slabBytes + slabBytes - g.tileBytes()));
      }
    }
    streamBlocks(
        l, *in, slabs, slabBytes, slabAt,
        [&](Value slot, Value a) {
          resetAcc(rowTileCols);
          accumulate(slot, l.c(0), rowTileCols);
          l.wait(1, 1); // the DMA that last used this slot has left
          writeBack(a, l.c(0), rowTileCols, staging,
                    l.mul(l.rem(a, 2), blockCols * outTile));
        },
        1, groupBytes);
    l.wait(1, 2);
    return success();
  }
  VBuf staging = l.vmem(outStore, blockCols * outTile);
  l.loop(slabs, [&](Value a) {
    forColumnBlocks([&](Value firstCol, int64_t tiles, bool) {
      resetAcc(tiles);
      l.beginColumns(*in, firstCol, tiles);
      streamColumns(*in, l.mul(a, slabRows), slabRows, blockRows, firstCol,
                    tiles, [&](Value slot, Value blk) {
                      accumulate(slot, blk, tiles);
                    });
      writeBack(a, firstCol, tiles, staging, l.c(0));
      l.wait(1, 1);
    });
  });
  return success();
}
} // namespace

LogicalResult Lowering::lowerReduce(hlo::ReduceOp op) {
  return ReduceKernel(*this, op).emit();
}

void populateReducePatterns(RewritePatternSet &patterns, Lowering &l) {
  l.addKernel(patterns, &Lowering::lowerReduce);
}

} // namespace tpuc::hlotpu
