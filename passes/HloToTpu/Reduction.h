//===- Reduction.h - the combiner of reduce and reduce_window ------------===//
//
// Shared by Reduce.cpp and ReduceWindow.cpp: recognises the body of a
// reduction (add, maximum, minimum, multiply; and/or on pred) and emits its
// VPU ops on f32 registers (f32, bf16) or s32 registers (s32, pred stored as
// s32 0/1), with the identity that masks ragged edges and padding. The
// expanders read bodies with it too: tpuc-expand-variadic-reduce leaves the
// kernels the reduces they take, tpuc-expand-reduce-window finds the op.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_PASSES_HLOTOTPU_REDUCTION_H
#define TPUC_PASSES_HLOTOTPU_REDUCTION_H

#include "passes/HloToTpu/Lowering.h"

namespace tpuc::hlotpu {

class Reduction {
public:
  enum class Kind { add, max, min, mul };

  /// Matches the body of `op` (one binary op of its two arguments) for
  /// arrays of `elem`; a diagnostic at `op` when it is not supported.
  static FailureOr<Reduction> match(Lowering &l, Operation *op, Region &body,
                                    Type elem);

  Type regType() { return isInt ? Type(l->i32Reg()) : Type(l->f32Reg()); }
  /// A register with every lane `value` (an integer for s32 registers).
  Value splat(double value);
  Value identity() { return splat(identityValue); }
  Value combine(Value x, Value y);
  /// Whether combining rounds (add, multiply): a bf16 result is rounded
  /// after each combine, as the interpreter computes in bf16.
  bool rounds() const { return kind == Kind::add || kind == Kind::mul; }
  /// `v` where `ids < limit`, else the identity.
  Value maskBelow(Value v, Value ids, Value limit);
  /// Per sublane, the combination of its 128 lanes (in every lane), or
  /// per lane that of its 8 sublanes (in every sublane).
  Value reduceAcross(Value v, bool lanes);
  Value reduceLanes(Value v) { return reduceAcross(v, true); }
  Value reduceSublanes(Value v) { return reduceAcross(v, false); }
  Value load(const VBuf &buf, Value off, int64_t sublaneStride = 0);
  /// The init value in every lane: a splat of a constant, or the rank-0
  /// array read from HBM (element 0 of its tile).
  FailureOr<Value> init(Value initValue);
  /// What every reduction kernel starts with: the operand's HBM buffer,
  /// the init register, and the result's new HBM buffer (mapped).
  struct Buffers {
    Value in, init, out;
  };
  FailureOr<Buffers> buffers(Value input, Value initValue, Value result);
  /// The element type registers of this reduction are kept in VMEM as.
  Type accElem() {
    return isInt ? Type(l->b.getI32Type()) : Type(l->b.getF32Type());
  }

private:
  Lowering *l = nullptr;
  Kind kind = Kind::add;
  bool isInt = false;
  bool isUnsigned = false; // u32: max/min order unsigned
  double identityValue = 0;
};

/// The body's combiner: the one op of `body`, binary on its two arguments
/// (either order), whose result the body returns; null for any other body
/// (several inputs, more ops, an argument used twice).
Operation *reductionCombiner(Region &body);

/// How the reduction kernels combine with `combiner` on arrays of `elem`:
/// add, multiply, maximum, minimum (and and or on pred as min and max);
/// none for an op they do not combine with, or add/multiply on pred and
/// and/or on numbers. tpuc-expand-variadic-reduce expands the reduces it
/// leaves none for.
std::optional<Reduction::Kind> combinerKind(Operation *combiner, Type elem);

/// The VPU op of `kind` on `x` and `y` (u32 maxima and minima order
/// `isUnsigned`): what a reduction, and a scatter's update, combine with.
Value combineWith(Lowering &l, Reduction::Kind kind, bool isUnsigned, Value x,
                  Value y);

/// Why the pooling kernels (ReduceWindow.cpp) do not take a window over an
/// array of `rank` dims (their diagnostic's words), or none when they do:
/// a window on H and W of NHWC only, without dilations or negative
/// padding. tpuc-expand-reduce-window expands what they do not take.
std::optional<llvm::StringRef>
poolWindowMismatch(int64_t rank, ArrayRef<int64_t> window,
                   std::optional<ArrayRef<int64_t>> strides,
                   std::optional<ArrayRef<int64_t>> padding,
                   std::optional<ArrayRef<int64_t>> baseDilations,
                   std::optional<ArrayRef<int64_t>> windowDilations);

/// The direction of a select_and_scatter's select when it is one GE, GT,
/// LE or LT comparison of its two arguments (as max and min pooling emit
/// them), flipped when it compares them swapped; none otherwise.
std::optional<hlo::ComparisonDirection>
poolSelectDirection(hlo::SelectAndScatterOp op);

/// Whether the VPU kernel (ReduceWindow.cpp) takes `op`: a pooling
/// gradient on H and W of a 4-D float array (select poolSelectDirection,
/// scatter an add), without negative padding. tpuc-expand-select-and-scatter
/// expands the others.
bool selectAndScatterKernelTakes(hlo::SelectAndScatterOp op);

/// The value of a splat constant of any element type (pred as 0/1).
std::optional<double> splatNumber(Value v);

/// Whether the reshape `op` only splits the second-minor dim of an array
/// of one tile column that its fusion reads from HBM (`[.., N*K, C] ->
/// [.., N, K, C]`, C <= 128: the rows are evenly spaced) and only reduces
/// over the K dim read it, directly or through one-operand elementwise ops
/// that their input fusion computes per tile (mixed precision's converts):
/// they read the operand's rows in groups of K (Reduce.cpp), so the
/// reshape moves no byte (graphsage's mean over `[250,50]` viewed as
/// `[10,25,50]`).
bool isReducedRowGroups(hlo::ReshapeOp op);

} // namespace tpuc::hlotpu

#endif // TPUC_PASSES_HLOTOTPU_REDUCTION_H
