//===- CanonicalizeConvolutions.cpp - any convolution into kernel forms ---===//
//
// tpuc-canonicalize-convolutions: rewrites every convolution the kernels of
// passes/HloToTpu/Convolution.cpp do not take into ones they do, with pads,
// slices, transposes, reshapes, concatenates and adds around them (XLA's
// ConvolutionGroupConverter and the TPU compiler's convolution
// canonicalization). See Passes.td for the contract.
//
// One rewrite step at a time, on a worklist: each step removes one
// obstacle (lhs_dilation or negative padding, batch groups, feature
// groups, fewer than 2 spatial dims, dim_labels, more than 2 spatial dims)
// and pushes the convolutions it creates back on the list.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/OptionalArrays.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/Builders.h"

namespace tpuc {
#define GEN_PASS_DEF_CANONICALIZECONVOLUTIONS
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// 2-D convolutions a 3-D (or higher) one may become before it is refused.
constexpr int64_t kMaxSplitConvolutions = 256;

bool allEqual(ArrayRef<int64_t> values, int64_t x) {
  return llvm::all_of(values, [&](int64_t v) { return v == x; });
}

bool isIdentity(ArrayRef<int64_t> perm) {
  for (auto [i, d] : llvm::enumerate(perm))
    if (d != static_cast<int64_t>(i))
      return false;
  return true;
}

/// A convolution's attributes with the defaults filled in, editable, and
/// buildable into a new op.
struct ConvSpec {
  int64_t inBatch, inFeature;
  SmallVector<int64_t> inSpatial;
  int64_t kIn, kOut;
  SmallVector<int64_t> kSpatial;
  int64_t outBatch, outFeature;
  SmallVector<int64_t> outSpatial;
  SmallVector<int64_t> strides, padding, lhsDil, rhsDil;
  SmallVector<bool> reversal;
  int64_t featureGroups, batchGroups;
  ArrayAttr precision;
  Type resultElem;

  static ConvSpec of(hlo::ConvolutionOp op) {
    hlo::ConvDimensionNumbersAttr dn = op.getDimensionNumbers();
    int64_t n = dn.getInputSpatial().size();
    ConvSpec s;
    s.inBatch = dn.getInputBatch();
    s.inFeature = dn.getInputFeature();
    s.inSpatial.assign(dn.getInputSpatial().begin(),
                       dn.getInputSpatial().end());
    s.kIn = dn.getKernelInputFeature();
    s.kOut = dn.getKernelOutputFeature();
    s.kSpatial.assign(dn.getKernelSpatial().begin(),
                      dn.getKernelSpatial().end());
    s.outBatch = dn.getOutputBatch();
    s.outFeature = dn.getOutputFeature();
    s.outSpatial.assign(dn.getOutputSpatial().begin(),
                        dn.getOutputSpatial().end());
    s.strides = orDefault(op.getWindowStrides(), n, 1);
    s.padding = orDefault(op.getPadding(), 2 * n, 0);
    s.lhsDil = orDefault(op.getLhsDilation(), n, 1);
    s.rhsDil = orDefault(op.getRhsDilation(), n, 1);
    s.reversal.assign(n, false);
    if (auto rev = op.getWindowReversal())
      s.reversal.assign(rev->begin(), rev->end());
    s.featureGroups = op.getFeatureGroupCount();
    s.batchGroups = op.getBatchGroupCount();
    s.precision = op.getPrecisionConfigAttr();
    s.resultElem = op.getType().getElementType();
    return s;
  }

  int64_t spatial() const { return inSpatial.size(); }

  /// Drops spatial dim `i` from the window attributes (not the dims).
  void dropWindowDim(int64_t i) {
    strides.erase(strides.begin() + i);
    padding.erase(padding.begin() + 2 * i, padding.begin() + 2 * i + 2);
    lhsDil.erase(lhsDil.begin() + i);
    rhsDil.erase(rhsDil.begin() + i);
    reversal.erase(reversal.begin() + i);
  }

  /// The labels `b01f_01io->b01f` (extended to the spatial rank).
  void setCanonicalLabels() {
    int64_t n = spatial();
    inBatch = outBatch = 0;
    inFeature = outFeature = n + 1;
    kIn = n;
    kOut = n + 1;
    inSpatial.clear();
    kSpatial.clear();
    for (int64_t i = 0; i < n; ++i) {
      inSpatial.push_back(i + 1);
      kSpatial.push_back(i);
    }
    outSpatial = inSpatial;
  }

  /// The result shape of this convolution of `lhs` by `rhs`.
  SmallVector<int64_t> resultShape(ArrayRef<int64_t> lhs,
                                   ArrayRef<int64_t> rhs) const {
    SmallVector<int64_t> shape(lhs.size(), 0);
    shape[outBatch] = lhs[inBatch] / batchGroups;
    shape[outFeature] = rhs[kOut];
    for (int64_t i = 0; i < spatial(); ++i) {
      int64_t in = lhs[inSpatial[i]];
      int64_t dilated = in == 0 ? 0 : (in - 1) * lhsDil[i] + 1;
      int64_t padded = dilated + padding[2 * i] + padding[2 * i + 1];
      int64_t window = (rhs[kSpatial[i]] - 1) * rhsDil[i] + 1;
      shape[outSpatial[i]] =
          padded < window ? 0 : (padded - window) / strides[i] + 1;
    }
    return shape;
  }

  hlo::ConvolutionOp build(OpBuilder &b, Location loc, Value lhs,
                           Value rhs) const {
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto rhsType = cast<RankedTensorType>(rhs.getType());
    auto type = RankedTensorType::get(
        resultShape(lhsType.getShape(), rhsType.getShape()), resultElem);
    auto dn = hlo::ConvDimensionNumbersAttr::get(
        b.getContext(), inBatch, inFeature, inSpatial, kIn, kOut, kSpatial,
        outBatch, outFeature, outSpatial);
    auto attrIf = [&](ArrayRef<int64_t> v, int64_t dflt) -> DenseI64ArrayAttr {
      return allEqual(v, dflt) ? DenseI64ArrayAttr()
                               : b.getDenseI64ArrayAttr(v);
    };
    DenseBoolArrayAttr rev;
    if (llvm::is_contained(reversal, true))
      rev = b.getDenseBoolArrayAttr(reversal);
    return hlo::ConvolutionOp::create(
        b, loc, type, lhs, rhs, dn, attrIf(strides, 1), attrIf(padding, 0),
        attrIf(lhsDil, 1), attrIf(rhsDil, 1), rev,
        b.getI64IntegerAttr(featureGroups), b.getI64IntegerAttr(batchGroups),
        precision);
  }
};

//===----------------------------------------------------------------------===//
// Small builders
//===----------------------------------------------------------------------===//

Value zeroScalar(OpBuilder &b, Location loc, Type elem) {
  auto type = RankedTensorType::get({}, elem);
  Attribute zero = isa<FloatType>(elem) ? Attribute(b.getFloatAttr(elem, 0.0))
                                        : Attribute(b.getIntegerAttr(elem, 0));
  return hlo::ConstantOp::create(b, loc, DenseElementsAttr::get(type, zero));
}

Value splat(OpBuilder &b, Location loc, RankedTensorType type, int64_t v) {
  Type elem = type.getElementType();
  Attribute a = isa<FloatType>(elem)
                    ? Attribute(b.getFloatAttr(elem, static_cast<double>(v)))
                    : Attribute(b.getIntegerAttr(elem, v));
  return hlo::ConstantOp::create(b, loc, DenseElementsAttr::get(type, a));
}

Value reshape(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getShape() == shape)
    return v;
  return hlo::ReshapeOp::create(b, loc, type.clone(shape), v);
}

/// `v` transposed by `perm`. When `v` is a reshape that only adds or drops
/// unit dims (a 1-D convolution grown to 2-D), the transpose is applied to
/// the reshape's operand without its unit dims and the unit dims are added
/// after it: no array between them has unit minor dims. (The kernel
/// `[4096, 1024, 1]` of a 1-D convolution grown to `[4096, 1024, 1, 1]` and
/// laid out in (8, 128) tiles takes a whole tile per element, 16 GiB.)
Value transpose(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> perm) {
  if (isIdentity(perm))
    return v;
  auto nonUnitDims = [](ArrayRef<int64_t> shape) {
    return llvm::to_vector(
        llvm::make_filter_range(shape, [](int64_t d) { return d != 1; }));
  };
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> kept = nonUnitDims(type.getShape());
  auto unitReshape = v.getDefiningOp<hlo::ReshapeOp>();
  if (!unitReshape ||
      nonUnitDims(unitReshape.getOperand().getType().getShape()) != kept)
    return hlo::TransposeOp::create(b, loc, v, b.getDenseI64ArrayAttr(perm));
  // Each non-unit dim's place among the non-unit dims, and the order the
  // transpose gives them.
  SmallVector<int64_t> place(type.getRank(), -1), order, shape;
  for (int64_t d = 0, next = 0; d < type.getRank(); ++d)
    if (type.getDimSize(d) != 1)
      place[d] = next++;
  for (int64_t d : perm) {
    shape.push_back(type.getDimSize(d));
    if (place[d] >= 0)
      order.push_back(place[d]);
  }
  Value squeezed = reshape(b, loc, unitReshape.getOperand(), kept);
  if (!isIdentity(order))
    squeezed = hlo::TransposeOp::create(b, loc, squeezed,
                                        b.getDenseI64ArrayAttr(order));
  return reshape(b, loc, squeezed, shape);
}

/// `v[start : start + size * stride : stride]` along `dim`.
Value sliceDim(OpBuilder &b, Location loc, Value v, int64_t dim, int64_t start,
               int64_t size, int64_t stride = 1) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> lo(type.getRank(), 0),
      hi(type.getShape().begin(), type.getShape().end()), st(type.getRank(), 1);
  lo[dim] = start;
  hi[dim] = size == 0 ? start : start + (size - 1) * stride + 1;
  st[dim] = stride;
  if (lo[dim] == 0 && hi[dim] == type.getDimSize(dim) && stride == 1)
    return v;
  return hlo::SliceOp::create(b, loc, v, b.getDenseI64ArrayAttr(lo),
                              b.getDenseI64ArrayAttr(hi),
                              b.getDenseI64ArrayAttr(st));
}

//===----------------------------------------------------------------------===//
// What the kernels take (mirrors Lowering::lowerConvolution's dispatch)
//===----------------------------------------------------------------------===//

/// Depthwise NCHW: `bf01_oi01->bf01`, one kernel row per channel.
bool isDepthwiseNchw(hlo::ConvolutionOp op, const ConvSpec &s) {
  auto lhsType = op.getLhs().getType(), rhsType = op.getRhs().getType();
  return s.spatial() == 2 && s.inBatch == 0 && s.inFeature == 1 &&
         s.inSpatial[0] == 2 && s.inSpatial[1] == 3 && s.kOut == 0 &&
         s.kIn == 1 && s.kSpatial[0] == 2 && s.kSpatial[1] == 3 &&
         s.outBatch == 0 && s.outFeature == 1 && s.outSpatial[0] == 2 &&
         s.outSpatial[1] == 3 && s.featureGroups > 1 &&
         s.featureGroups == lhsType.getDimSize(1) &&
         rhsType.getDimSize(0) == s.featureGroups;
}

/// Depthwise NHWC: `b01f_01io->b01f`, kernel [kh, kw, 1, C] (JAX's and
/// TF's depthwise convolutions).
bool isDepthwiseNhwc(hlo::ConvolutionOp op, const ConvSpec &s) {
  auto lhsType = op.getLhs().getType(), rhsType = op.getRhs().getType();
  return s.spatial() == 2 && s.inBatch == 0 && s.inSpatial[0] == 1 &&
         s.inSpatial[1] == 2 && s.inFeature == 3 && s.kSpatial[0] == 0 &&
         s.kSpatial[1] == 1 && s.kIn == 2 && s.kOut == 3 && s.outBatch == 0 &&
         s.outSpatial[0] == 1 && s.outSpatial[1] == 2 && s.outFeature == 3 &&
         s.featureGroups > 1 && s.featureGroups == lhsType.getDimSize(3) &&
         rhsType.getDimSize(2) == 1 &&
         rhsType.getDimSize(3) == s.featureGroups;
}

/// A depthwise convolution in any labels: 2 spatial dims, one group per
/// input feature, one output feature per group (channel multiplier 1).
bool isDepthwise(hlo::ConvolutionOp op, const ConvSpec &s) {
  return s.spatial() == 2 && s.featureGroups > 1 &&
         s.featureGroups == op.getLhs().getType().getDimSize(s.inFeature) &&
         op.getRhs().getType().getDimSize(s.kIn) == 1 &&
         op.getRhs().getType().getDimSize(s.kOut) == s.featureGroups;
}

/// The weight gradient JAX emits for NHWC: `f01b_i01o->01bf`.
bool isWeightGradForm(const ConvSpec &s) {
  return s.spatial() == 2 && s.inFeature == 0 && s.inSpatial[0] == 1 &&
         s.inSpatial[1] == 2 && s.inBatch == 3 && s.kIn == 0 &&
         s.kSpatial[0] == 1 && s.kSpatial[1] == 2 && s.kOut == 3 &&
         s.outSpatial[0] == 0 && s.outSpatial[1] == 1 && s.outBatch == 2 &&
         s.outFeature == 3 && !llvm::is_contained(s.reversal, true);
}

/// The MXU kernel's operands and result: features minor, spatial dim 1
/// second-minor (batch and spatial dim 0 in either order above them).
bool mxuInputOk(const ConvSpec &s) {
  return s.inFeature == 3 && s.inSpatial[1] == 2;
}
bool mxuKernelOk(const ConvSpec &s) { return s.kIn == 2 && s.kOut == 3; }
bool mxuOutputOk(const ConvSpec &s) {
  return s.outFeature == 3 && s.outSpatial[1] == 2;
}

bool lowersDirectly(hlo::ConvolutionOp op, const ConvSpec &s) {
  if (s.spatial() != 2 || s.batchGroups != 1 || !allEqual(s.lhsDil, 1) ||
      llvm::any_of(s.padding, [](int64_t p) { return p < 0; }))
    return false;
  if (s.featureGroups > 1)
    return isDepthwiseNchw(op, s) || isDepthwiseNhwc(op, s);
  return isWeightGradForm(s) ||
         (mxuInputOk(s) && mxuKernelOk(s) && mxuOutputOk(s));
}

//===----------------------------------------------------------------------===//
// The rewrite steps
//===----------------------------------------------------------------------===//

/// What a step made: the new convolutions (to look at again) and the value
/// replacing the old one.
struct Rewritten {
  SmallVector<hlo::ConvolutionOp> convs;
  Value result;
};

/// lhs_dilation and negative padding: an hlo.pad of the input with
/// interior padding (lhs_dilation - 1) and the negative edge padding;
/// the positive edge padding stays on the convolution.
Rewritten padInput(OpBuilder &b, hlo::ConvolutionOp op, ConvSpec s) {
  Location loc = op.getLoc();
  auto lhsType = op.getLhs().getType();
  int64_t rank = lhsType.getRank();
  SmallVector<int64_t> lo(rank, 0), hi(rank, 0), interior(rank, 0);
  for (int64_t i = 0; i < s.spatial(); ++i) {
    int64_t d = s.inSpatial[i];
    interior[d] = s.lhsDil[i] - 1;
    lo[d] = std::min<int64_t>(s.padding[2 * i], 0);
    hi[d] = std::min<int64_t>(s.padding[2 * i + 1], 0);
    // An empty input dim stays empty: pad cannot dilate it anyway.
    s.padding[2 * i] = std::max<int64_t>(s.padding[2 * i], 0);
    s.padding[2 * i + 1] = std::max<int64_t>(s.padding[2 * i + 1], 0);
    s.lhsDil[i] = 1;
  }
  Value pad = zeroScalar(b, loc, lhsType.getElementType());
  Value lhs = hlo::PadOp::create(
      b, loc, op.getLhs(), pad, b.getDenseI64ArrayAttr(lo),
      b.getDenseI64ArrayAttr(hi), b.getDenseI64ArrayAttr(interior));
  hlo::ConvolutionOp conv = s.build(b, loc, lhs, op.getRhs());
  return {{conv}, conv.getResult()};
}

/// One convolution `s` per group g of `groups`: of the input's slice g
/// along `lhsDim` and the kernel's output features [g*O/G, (g+1)*O/G),
/// concatenated along the output features.
Rewritten convPerGroup(OpBuilder &b, hlo::ConvolutionOp op, const ConvSpec &s,
                       int64_t groups, int64_t lhsDim) {
  Location loc = op.getLoc();
  int64_t part = op.getLhs().getType().getDimSize(lhsDim) / groups;
  int64_t og = op.getRhs().getType().getDimSize(s.kOut) / groups;
  Rewritten r;
  SmallVector<Value> parts;
  for (int64_t g = 0; g < groups; ++g) {
    Value lhs = sliceDim(b, loc, op.getLhs(), lhsDim, g * part, part);
    Value rhs = sliceDim(b, loc, op.getRhs(), s.kOut, g * og, og);
    hlo::ConvolutionOp conv = s.build(b, loc, lhs, rhs);
    r.convs.push_back(conv);
    parts.push_back(conv.getResult());
  }
  r.result = hlo::ConcatenateOp::create(b, loc, parts, s.outFeature);
  return r;
}

/// Whether a grouped convolution is cheaper on the MXU as one convolution
/// with a block-diagonal kernel than as one convolution per group: the
/// 128x128 weight tiles of the C x O kernel against those of the groups'
/// (C/G) x (O/G) ones. Above 16 groups always block-diagonal (depthwise).
bool preferBlockDiagonal(int64_t groups, int64_t c, int64_t o) {
  auto tiles = [](int64_t x) { return (x + 127) / 128; };
  if (groups > 16)
    return true;
  return tiles(c) * tiles(o) <= groups * tiles(c / groups) * tiles(o / groups);
}

/// feature_group_count G: group g reads input features [g*C/G, (g+1)*C/G)
/// and makes output features [g*O/G, (g+1)*O/G).
Rewritten splitFeatureGroups(OpBuilder &b, hlo::ConvolutionOp op, ConvSpec s) {
  Location loc = op.getLoc();
  RankedTensorType rhsType = op.getRhs().getType();
  int64_t groups = s.featureGroups;
  int64_t cg = rhsType.getDimSize(s.kIn), o = rhsType.getDimSize(s.kOut);
  int64_t og = o / groups, c = cg * groups;
  s.featureGroups = 1;
  if (preferBlockDiagonal(groups, c, o)) {
    // kernel'[.., ci, .., co] = kernel[.., ci % Cg, .., co] where
    // ci / Cg == co / Og, else 0: a broadcast over a new group dim before
    // the input-feature dim, merged into it, then masked.
    int64_t rank = rhsType.getRank();
    SmallVector<int64_t> bshape, bdims;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == s.kIn)
        bshape.push_back(groups);
      bdims.push_back(static_cast<int64_t>(bshape.size()));
      bshape.push_back(rhsType.getDimSize(d));
    }
    Value wide = hlo::BroadcastInDimOp::create(b, loc, rhsType.clone(bshape),
                                               op.getRhs(),
                                               b.getDenseI64ArrayAttr(bdims));
    SmallVector<int64_t> eshape(rhsType.getShape());
    eshape[s.kIn] = c;
    Value expanded = reshape(b, loc, wide, eshape);
    // The group of each index along `dim` (of size G * size): an iota of
    // the groups broadcast over [.., G, size, ..] and merged (the VPU has
    // no integer division to spare).
    auto groupIota = RankedTensorType::get({groups}, b.getI32Type());
    Value iota = hlo::IotaOp::create(b, loc, groupIota, 0);
    auto groupOf = [&](int64_t dim, int64_t size) -> Value {
      SmallVector<int64_t> split(eshape);
      split[dim] = groups;
      split.insert(split.begin() + dim + 1, size);
      Value wide = hlo::BroadcastInDimOp::create(
          b, loc, RankedTensorType::get(split, b.getI32Type()), iota,
          b.getDenseI64ArrayAttr({dim}));
      return reshape(b, loc, wide, eshape);
    };
    Value mask = hlo::CompareOp::create(b, loc, hlo::ComparisonDirection::EQ,
                                        groupOf(s.kIn, cg), groupOf(s.kOut, og),
                                        hlo::ComparisonTypeAttr());
    Value zeros = splat(b, loc, cast<RankedTensorType>(expanded.getType()), 0);
    Value kernel = hlo::SelectOp::create(b, loc, mask, expanded, zeros);
    hlo::ConvolutionOp conv = s.build(b, loc, op.getLhs(), kernel);
    return {{conv}, conv.getResult()};
  }
  return convPerGroup(b, op, s, groups, s.inFeature);
}

/// batch_group_count G: group g reads input batch [g*N/G, (g+1)*N/G) and
/// makes output features [g*O/G, (g+1)*O/G) (the weight gradient of a
/// grouped convolution).
Rewritten splitBatchGroups(OpBuilder &b, hlo::ConvolutionOp op, ConvSpec s) {
  int64_t groups = s.batchGroups;
  s.batchGroups = 1;
  return convPerGroup(b, op, s, groups, s.inBatch);
}

/// Fewer than 2 spatial dims: a unit spatial dim inserted before the
/// first spatial dim of every operand (at the end without one), so a 1-D
/// `b0f_0io->b0f` becomes the MXU kernel's `b01f_01io->b01f` by reshapes.
Rewritten addUnitSpatialDim(OpBuilder &b, hlo::ConvolutionOp op, ConvSpec s) {
  Location loc = op.getLoc();
  int64_t rank = op.getLhs().getType().getRank();
  auto insertUnit = [&](int64_t &batchOrIn, int64_t &featureOrOut,
                        SmallVector<int64_t> &spatialDims) {
    int64_t at = spatialDims.empty() ? rank : spatialDims.front();
    auto shift = [&](int64_t &d) { d += d >= at ? 1 : 0; };
    shift(batchOrIn);
    shift(featureOrOut);
    for (int64_t &d : spatialDims)
      shift(d);
    spatialDims.insert(spatialDims.begin(), at);
    return at;
  };
  int64_t lhsAt = insertUnit(s.inBatch, s.inFeature, s.inSpatial);
  int64_t rhsAt = insertUnit(s.kIn, s.kOut, s.kSpatial);
  int64_t outAt = insertUnit(s.outBatch, s.outFeature, s.outSpatial);
  s.strides.insert(s.strides.begin(), 1);
  s.padding.insert(s.padding.begin(), {0, 0});
  s.lhsDil.insert(s.lhsDil.begin(), 1);
  s.rhsDil.insert(s.rhsDil.begin(), 1);
  s.reversal.insert(s.reversal.begin(), false);
  auto grow = [&](Value v, int64_t at) {
    SmallVector<int64_t> shape(cast<RankedTensorType>(v.getType()).getShape());
    shape.insert(shape.begin() + at, 1);
    return reshape(b, loc, v, shape);
  };
  hlo::ConvolutionOp conv =
      s.build(b, loc, grow(op.getLhs(), lhsAt), grow(op.getRhs(), rhsAt));
  (void)outAt;
  return {{conv}, reshape(b, loc, conv.getResult(), op.getType().getShape())};
}

/// Transposes the operands and the result into the labels of a kernel:
/// `f01b_i01o->01bf` for a 2-D convolution shaped like a weight gradient
/// (a window larger than its output), else the MXU kernel's `b01f_01io->b01f`
/// (the general `b0..f_0..io->b0..f` above 2 spatial dims); operands
/// already in the form are left alone. A depthwise convolution becomes the
/// depthwise NHWC kernel's `b01f_01io->b01f` (feature groups kept).
Rewritten relabel(OpBuilder &b, hlo::ConvolutionOp op, ConvSpec s) {
  Location loc = op.getLoc();
  int64_t n = s.spatial();
  RankedTensorType rhsType = op.getRhs().getType();
  RankedTensorType outType = op.getType();
  int64_t window = 1, outPixels = 1;
  for (int64_t i = 0; i < n; ++i) {
    window *= rhsType.getDimSize(s.kSpatial[i]);
    outPixels *= outType.getDimSize(s.outSpatial[i]);
  }
  ConvSpec t = s;
  SmallVector<int64_t> lhsPerm, rhsPerm, outOrder;
  bool depthwise = isDepthwise(op, s);
  bool weightGrad = n == 2 && window > outPixels && !depthwise &&
                    !llvm::is_contained(s.reversal, true);
  if (weightGrad) {
    t.inFeature = 0, t.inSpatial = {1, 2}, t.inBatch = 3;
    t.kIn = 0, t.kSpatial = {1, 2}, t.kOut = 3;
    t.outSpatial = {0, 1}, t.outBatch = 2, t.outFeature = 3;
    lhsPerm = {s.inFeature, s.inSpatial[0], s.inSpatial[1], s.inBatch};
    rhsPerm = {s.kIn, s.kSpatial[0], s.kSpatial[1], s.kOut};
    outOrder = {s.outSpatial[0], s.outSpatial[1], s.outBatch, s.outFeature};
  } else {
    t.setCanonicalLabels();
    lhsPerm.push_back(s.inBatch);
    llvm::append_range(lhsPerm, s.inSpatial);
    lhsPerm.push_back(s.inFeature);
    llvm::append_range(rhsPerm, s.kSpatial);
    llvm::append_values(rhsPerm, s.kIn, s.kOut);
    outOrder.push_back(s.outBatch);
    llvm::append_range(outOrder, s.outSpatial);
    outOrder.push_back(s.outFeature);
    // Operands the MXU kernel takes as they are keep their labels.
    if (n == 2 && !depthwise) {
      if (mxuInputOk(s)) {
        t.inBatch = s.inBatch, t.inSpatial = s.inSpatial;
        lhsPerm = {0, 1, 2, 3};
      }
      if (mxuKernelOk(s)) {
        t.kSpatial = s.kSpatial;
        rhsPerm = {0, 1, 2, 3};
      }
      if (mxuOutputOk(s)) {
        t.outBatch = s.outBatch, t.outSpatial = s.outSpatial;
        outOrder = {0, 1, 2, 3};
      }
    }
  }
  Value lhs = transpose(b, loc, op.getLhs(), lhsPerm);
  Value rhs = transpose(b, loc, op.getRhs(), rhsPerm);
  hlo::ConvolutionOp conv = t.build(b, loc, lhs, rhs);
  // outOrder[j] is the original dim that the new result's dim j holds.
  SmallVector<int64_t> back(outOrder.size());
  for (auto [j, d] : llvm::enumerate(outOrder))
    back[d] = static_cast<int64_t>(j);
  return {{conv}, transpose(b, loc, conv.getResult(), back)};
}

/// More than 2 spatial dims, labels canonical: the sum over the kernel's
/// first spatial dim of convolutions with one spatial dim less, that dim
/// folded into the batch. Bf16 results accumulate in f32 and round once.
FailureOr<Rewritten> splitFirstSpatialDim(OpBuilder &b, hlo::ConvolutionOp op,
                                          ConvSpec s) {
  Location loc = op.getLoc();
  RankedTensorType lhsType = op.getLhs().getType();
  RankedTensorType rhsType = op.getRhs().getType();
  RankedTensorType outType = op.getType();
  int64_t kd = rhsType.getDimSize(0), od = outType.getDimSize(1);
  int64_t n = lhsType.getDimSize(0);
  if (kd > kMaxSplitConvolutions)
    return op.emitError() << "'hlo.convolution' with " << s.spatial()
                          << " spatial dimensions and a kernel of " << kd
                          << " along the first would become " << kd
                          << " convolutions (at most " << kMaxSplitConvolutions
                          << ")";
  // The padding of dim 0 goes into the input (no lhs_dilation here).
  Value lhs = op.getLhs();
  if (s.padding[0] != 0 || s.padding[1] != 0) {
    SmallVector<int64_t> lo(lhsType.getRank(), 0), hi(lhsType.getRank(), 0),
        interior(lhsType.getRank(), 0);
    lo[1] = s.padding[0];
    hi[1] = s.padding[1];
    lhs = hlo::PadOp::create(
        b, loc, lhs, zeroScalar(b, loc, lhsType.getElementType()),
        b.getDenseI64ArrayAttr(lo), b.getDenseI64ArrayAttr(hi),
        b.getDenseI64ArrayAttr(interior));
  }
  int64_t stride = s.strides[0], dil = s.rhsDil[0];
  bool reversed = s.reversal[0];
  Type accElem = s.resultElem.isBF16() ? b.getF32Type() : s.resultElem;
  ConvSpec t = s;
  t.dropWindowDim(0);
  t.inSpatial.pop_back();
  t.kSpatial.pop_back();
  t.outSpatial.pop_back();
  t.setCanonicalLabels();
  t.resultElem = accElem;

  Rewritten r;
  Value sum;
  auto rest = [](RankedTensorType type, int64_t lead) {
    SmallVector<int64_t> shape{lead};
    llvm::append_range(shape, type.getShape().drop_front(2));
    return shape;
  };
  for (int64_t k = 0; k < kd; ++k) {
    Value x = sliceDim(b, loc, lhs, 1, k * dil, od, stride);
    x = reshape(b, loc, x, rest(cast<RankedTensorType>(x.getType()), n * od));
    Value w = sliceDim(b, loc, op.getRhs(), 0, reversed ? kd - 1 - k : k, 1);
    w = reshape(b, loc, w, rhsType.getShape().drop_front());
    hlo::ConvolutionOp conv = t.build(b, loc, x, w);
    r.convs.push_back(conv);
    Value part =
        reshape(b, loc, conv.getResult(), outType.clone(accElem).getShape());
    sum = sum ? hlo::AddOp::create(b, loc, sum, part).getResult() : part;
  }
  if (!sum) // an empty window: zeros
    sum = splat(b, loc, outType.clone(accElem), 0);
  if (accElem != s.resultElem)
    sum = hlo::ConvertOp::create(b, loc, outType, sum);
  r.result = sum;
  return r;
}

/// One step towards the kernels' forms, or nothing to do (an empty
/// result) when the convolution lowers as it is.
FailureOr<std::optional<Rewritten>> step(hlo::ConvolutionOp op) {
  ConvSpec s = ConvSpec::of(op);
  Type elem = op.getLhs().getType().getElementType();
  if (!isa<FloatType>(elem) || lowersDirectly(op, s))
    return std::optional<Rewritten>();
  OpBuilder b(op);
  if (!allEqual(s.lhsDil, 1) ||
      llvm::any_of(s.padding, [](int64_t p) { return p < 0; }))
    return std::optional<Rewritten>(padInput(b, op, s));
  if (s.batchGroups > 1)
    return std::optional<Rewritten>(splitBatchGroups(b, op, s));
  if (s.featureGroups > 1 && !isDepthwise(op, s))
    return std::optional<Rewritten>(splitFeatureGroups(b, op, s));
  if (s.spatial() < 2)
    return std::optional<Rewritten>(addUnitSpatialDim(b, op, s));
  ConvSpec canonical = s;
  canonical.setCanonicalLabels();
  bool labelsCanonical =
      s.inBatch == canonical.inBatch && s.inFeature == canonical.inFeature &&
      s.inSpatial == canonical.inSpatial && s.kIn == canonical.kIn &&
      s.kOut == canonical.kOut && s.kSpatial == canonical.kSpatial &&
      s.outBatch == canonical.outBatch &&
      s.outFeature == canonical.outFeature &&
      s.outSpatial == canonical.outSpatial;
  if (s.spatial() == 2 || !labelsCanonical)
    return std::optional<Rewritten>(relabel(b, op, s));
  FailureOr<Rewritten> split = splitFirstSpatialDim(b, op, s);
  if (failed(split))
    return failure();
  return std::optional<Rewritten>(*split);
}

class CanonicalizeConvolutionsPass
    : public impl::CanonicalizeConvolutionsBase<CanonicalizeConvolutionsPass> {
public:
  void runOnOperation() override {
    SmallVector<hlo::ConvolutionOp> work;
    getOperation()->walk([&](hlo::ConvolutionOp op) { work.push_back(op); });
    // Program order: each op's rewrites are finished before the next.
    std::reverse(work.begin(), work.end());
    while (!work.empty()) {
      hlo::ConvolutionOp op = work.pop_back_val();
      FailureOr<std::optional<Rewritten>> r = step(op);
      if (failed(r))
        return signalPassFailure();
      if (!*r)
        continue;
      Value result = (*r)->result;
      if (result.getType() != op.getType()) { // a relabel to the same shape
        op.emitError() << "internal error: rewritten convolution has type "
                       << result.getType();
        return signalPassFailure();
      }
      op.getResult().replaceAllUsesWith(result);
      // The operands' producers this rewrite bypassed (a unit-dim reshape
      // that `transpose` looked through) go with the op.
      SmallVector<Value> operands(op->getOperands());
      op.erase();
      for (Value operand : operands)
        if (Operation *producer = operand.getDefiningOp();
            producer && isa<hlo::ReshapeOp>(producer) &&
            isOpTriviallyDead(producer))
          producer->erase();
      for (hlo::ConvolutionOp conv : llvm::reverse((*r)->convs))
        work.push_back(conv);
    }
  }
};
} // namespace
} // namespace tpuc
