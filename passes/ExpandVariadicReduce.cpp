//===- ExpandVariadicReduce.cpp - reduces the kernel lacks as a tree -------===//
//
// tpuc-expand-variadic-reduce: a reduce the VPU reduce kernel does not take
// (several inputs, as argmax/argmin emit, or a body other than one
// add/multiply/maximum/minimum/and/or of its arguments) becomes a tree of
// elementwise applications of its body: the reduced dims are moved last and
// collapsed into one of size n, adjacent pairs (stride-2 slices) are
// combined until one element is left, and the init values are combined in
// once. Pairing adjacent elements keeps the elements' order, so an
// associative body (XLA's requirement) gives the sequential result, also
// when it is not commutative (JAX's argmax: the first NaN wins). See
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/ApplyBody.h"
#include "passes/ExpandEach.h"
#include "passes/HloToTpu/Reduction.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/Builders.h"

namespace tpuc {
#define GEN_PASS_DEF_EXPANDVARIADICREDUCE
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// Whether the reduce kernel takes `op` (Reduction::match in
/// HloToTpu/Reduce.cpp): one input and a body that is one add, multiply,
/// maximum or minimum (and or or on pred) of its two arguments.
bool kernelTakes(hlo::ReduceOp op) {
  Operation *combiner = hlotpu::reductionCombiner(op.getBody());
  return combiner &&
         hlotpu::combinerKind(
             combiner, getElementTypeOrSelf(op.getInputs()[0].getType()));
}

LogicalResult expand(hlo::ReduceOp op) {
  auto inType = cast<RankedTensorType>(op.getInputs()[0].getType());
  ArrayRef<int64_t> inShape = inType.getShape();
  int64_t rank = inType.getRank();
  SmallVector<int64_t> dims(op.getDimensions());
  llvm::sort(dims);
  // The kept dims in their order, then the reduced ones (row-major over
  // them, the order XLA's reduce visits them in).
  SmallVector<int64_t> perm, kept;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims, d)) {
      perm.push_back(d);
      kept.push_back(inShape[d]);
    }
  int64_t n = 1;
  for (int64_t d : dims) {
    perm.push_back(d);
    n *= inShape[d];
  }
  int64_t k = static_cast<int64_t>(kept.size());
  auto withMinor = [&](int64_t m) {
    SmallVector<int64_t> shape(kept);
    shape.push_back(m);
    return shape;
  };

  OpBuilder b(op);
  Location loc = op.getLoc();
  auto broadcastInits = [&]() {
    SmallVector<Value> inits;
    for (Value init : op.getInitValues())
      inits.push_back(hlo::BroadcastInDimOp::create(
          b, loc, RankedTensorType::get(kept, getElementTypeOrSelf(init)),
          init, b.getDenseI64ArrayAttr({})));
    return inits;
  };
  if (n == 0) {
    op.replaceAllUsesWith(broadcastInits());
    op.erase();
    return success();
  }

  // Each input as [kept..., n].
  SmallVector<Value> cur;
  bool identity = llvm::equal(perm, llvm::seq<int64_t>(0, rank));
  for (Value in : op.getInputs()) {
    if (!identity)
      in = hlo::TransposeOp::create(b, loc, in, b.getDenseI64ArrayAttr(perm));
    auto type = RankedTensorType::get(withMinor(n), getElementTypeOrSelf(in));
    if (in.getType() != type)
      in = hlo::ReshapeOp::create(b, loc, type, in);
    cur.push_back(in);
  }

  // Adjacent pairs combined (an odd last element carried), until one.
  SmallVector<int64_t> zeros(k + 1, 0), ones(k + 1, 1);
  while (n > 1) {
    int64_t half = n / 2;
    auto slice = [&](Value v, int64_t start, int64_t limit, int64_t stride) {
      SmallVector<int64_t> starts(zeros), limits = withMinor(limit),
                                          strides(ones);
      starts[k] = start;
      strides[k] = stride;
      return hlo::SliceOp::create(b, loc, v, b.getDenseI64ArrayAttr(starts),
                                  b.getDenseI64ArrayAttr(limits),
                                  b.getDenseI64ArrayAttr(strides))
          .getResult();
    };
    SmallVector<Value> args;
    for (Value v : cur)
      args.push_back(slice(v, 0, 2 * half, 2));
    for (Value v : cur)
      args.push_back(slice(v, 1, 2 * half, 2));
    FailureOr<SmallVector<Value>> pairs =
        applyBody(b, op, op.getBody(), args, withMinor(half));
    if (failed(pairs))
      return failure();
    if (n % 2 == 1)
      for (auto [pair, v] : llvm::zip(*pairs, cur))
        pair = hlo::ConcatenateOp::create(
            b, loc, ValueRange{pair, slice(v, n - 1, n, 1)}, k);
    cur = std::move(*pairs);
    n = half + n % 2;
  }

  // The init values combined once: body(init, reduced).
  SmallVector<Value> args = broadcastInits();
  for (Value v : cur)
    args.push_back(hlo::ReshapeOp::create(
        b, loc, RankedTensorType::get(kept, getElementTypeOrSelf(v)), v));
  FailureOr<SmallVector<Value>> results = applyBody(b, op, op.getBody(), args, kept);
  if (failed(results))
    return failure();
  op.replaceAllUsesWith(*results);
  op.erase();
  return success();
}

class ExpandVariadicReducePass
    : public impl::ExpandVariadicReduceBase<ExpandVariadicReducePass> {
public:
  void runOnOperation() override {
    if (failed(expandEach<hlo::ReduceOp>(
            getOperation(), [](hlo::ReduceOp op) { return !kernelTakes(op); },
            expand)))
      signalPassFailure();
  }
};
} // namespace
} // namespace tpuc
