//===- DecomposeReductions.cpp - reduce into the VPU kernels' forms ----===//
//
// tpuc-decompose-reductions: rewrites every hlo.reduce (also inside
// hlo.fusion bodies) into one of the three forms the VPU kernels of
// passes/HloToTpu/Reduce.cpp take, on an array of rank r:
//
//   minor:   dims = [r-1]               (r >= 2; lanes)
//   leading: dims = [p, ..., r-2]       (r >= 2, 0 <= p <= r-2; sublanes,
//                                        repeated per index of dims < p)
//   all:     dims = [0, ..., r-1]       (to a scalar)
//
// These read the (8,128)-tiled array as it is, so the common reductions
// (softmax and layer norm over the minor dim, NHWC pooling over {1,2})
// need no data movement at all. Other reductions get at most one
// transpose (only when reduced and kept dims interleave) and one reshape
// that collapses the trailing reduced dims or the trailing kept dims; the
// result is reshaped back to the original result type.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/ExpandEach.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace tpuc {
#define GEN_PASS_DEF_DECOMPOSEREDUCTIONS
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// Whether reducing `dims` (sorted, unique) of a rank-`rank` array is one of
/// the kernels' forms.
bool isKernelForm(int64_t rank, ArrayRef<int64_t> dims) {
  if (dims.empty() || rank == 0)
    return false;
  if (static_cast<int64_t>(dims.size()) == rank)
    return true; // all dims: to a scalar
  if (rank < 2)
    return false;
  if (dims.size() == 1 && dims[0] == rank - 1)
    return true; // minor
  // leading: a contiguous run ending at the second-minor dim
  if (dims.back() != rank - 2)
    return false;
  for (size_t i = 1; i < dims.size(); ++i)
    if (dims[i] != dims[i - 1] + 1)
      return false;
  return true;
}

/// The shape with dims [from, to) collapsed into one.
SmallVector<int64_t> collapse(ArrayRef<int64_t> shape, int64_t from,
                              int64_t to) {
  SmallVector<int64_t> out(shape.begin(), shape.begin() + from);
  int64_t n = 1;
  for (int64_t i = from; i < to; ++i)
    n *= shape[i];
  out.push_back(n);
  out.append(shape.begin() + to, shape.end());
  return out;
}

LogicalResult decompose(hlo::ReduceOp op) {
  auto inType = cast<RankedTensorType>(op.getInputs()[0].getType());
  int64_t rank = inType.getRank();
  SmallVector<int64_t> dims(op.getDimensions());
  llvm::sort(dims);
  if (dims.empty() || isKernelForm(rank, dims))
    return success();

  // Transpose when the reduced dims are not one contiguous run: kept dims
  // first, then the reduced ones (each in their order).
  SmallVector<int64_t> perm;
  bool contiguous =
      dims.back() - dims.front() + 1 == static_cast<int64_t>(dims.size());
  SmallVector<int64_t> shape(inType.getShape());
  int64_t first = dims.front(), last = dims.back() + 1; // reduced run
  if (!contiguous) {
    for (int64_t d = 0; d < rank; ++d)
      if (!llvm::is_contained(dims, d))
        perm.push_back(d);
    perm.append(dims.begin(), dims.end());
    for (int64_t i = 0; i < rank; ++i)
      shape[i] = inType.getDimSize(perm[i]);
    first = rank - dims.size();
    last = rank;
  }
  // Collapse the reduced run when it ends the array (minor form), else the
  // kept dims after it (leading form).
  SmallVector<int64_t> newDims;
  if (last == rank) {
    shape = collapse(shape, first, last);
    newDims = {first};
  } else {
    shape = collapse(shape, last, rank);
    for (int64_t d = first; d < last; ++d)
      newDims.push_back(d);
  }

  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> inputs;
  for (Value in : op.getInputs()) {
    auto t = cast<RankedTensorType>(in.getType());
    if (!perm.empty())
      in = hlo::TransposeOp::create(b, loc, in, b.getDenseI64ArrayAttr(perm));
    auto reshaped = RankedTensorType::get(shape, t.getElementType());
    if (cast<RankedTensorType>(in.getType()) != reshaped)
      in = hlo::ReshapeOp::create(b, loc, reshaped, in);
    inputs.push_back(in);
  }
  auto reduce = hlo::ReduceOp::create(b, loc, inputs, op.getInitValues(),
                                      b.getDenseI64ArrayAttr(newDims));
  IRMapping map;
  op.getBody().cloneInto(&reduce.getBody(), map);
  for (auto [oldResult, newResult] :
       llvm::zip(op.getResults(), reduce.getResults())) {
    Value r = newResult;
    if (r.getType() != oldResult.getType())
      r = hlo::ReshapeOp::create(b, loc, oldResult.getType(), r);
    oldResult.replaceAllUsesWith(r);
  }
  op.erase();
  return success();
}

class DecomposeReductionsPass
    : public impl::DecomposeReductionsBase<DecomposeReductionsPass> {
public:
  void runOnOperation() override {
    if (failed(expandEach<hlo::ReduceOp>(getOperation(), decompose)))
      signalPassFailure();
  }
};
} // namespace
} // namespace tpuc
