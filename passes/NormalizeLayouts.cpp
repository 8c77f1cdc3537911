//===- NormalizeLayouts.cpp - fusions read permuted inputs in place -------===//
//
// tpuc-normalize-layouts: an entry argument whose layout permutes its
// dimensions (XLA's `f32[29360128,10]{0,1}`: the long dimension in the
// lanes) is, byte for byte, its physical array in the row-major layout
// (`f32[10,29360128]{1,0}`). The kernels read row-major arrays; rather than
// relaying such an argument out (the {1,0} copy of the seed's logits pads 10
// to 128: 14.00G), this pass rewrites the fusions that read it to compute
// in its physical order (XLA's layout normalization, for fusions):
//
//   %f = hlo.fusion(%x : [N,10]{0,1}, %labels : [N]) -> [N]
//     reduce over dim 1, broadcasts along dim 0, iota dim 1
// becomes
//   %p = hlo.transpose %x, dims = [1, 0]        // a layout bitcast
//   %f = hlo.fusion(%p : [10,N], %labels : [N]) -> [N]
//     reduce over dim 0, broadcasts along dim 1, iota dim 0
//
// The transpose from the argument's layout to the row-major layout of its
// physical shape moves no byte: the memory plan shares its buffer with the
// argument (compiler/analysis) and the code generator reads the argument in
// place (passes/HloToTpu). A fusion is rewritten when every operand of the
// argument's rank is such an argument with the same layout, its results
// have rank <= 1, and its body holds only elementwise ops, broadcasts of
// arrays of rank <= 1, iotas, splat constants and reductions to rank <= 1
// (what softmax, log-softmax, one-hot and their losses are made of). An
// argument is rewritten only when all its users are rewritten, so nothing
// reads it in its logical order.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "compiler/layout/TiledLayout.h"
#include "dialects/hlo/HloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <map>

namespace tpuc {
#define GEN_PASS_DEF_NORMALIZELAYOUTS
#include "passes/Passes.h.inc"

namespace {
using namespace mlir;

/// The logical dims in physical (major to minor) order, and each logical
/// dim's physical position.
struct Permutation {
  SmallVector<int64_t> physical; // physical[i]: logical dim at position i
  SmallVector<int64_t> position; // position[d]: where logical dim d is
  int64_t rank() const { return physical.size(); }
  RankedTensorType apply(RankedTensorType type) const {
    SmallVector<int64_t> shape;
    for (int64_t d : physical)
      shape.push_back(type.getDimSize(d));
    return RankedTensorType::get(shape, type.getElementType());
  }
};

/// The permutation of `value`'s recorded layout, if it is not row-major.
std::optional<Permutation> valuePermutation(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() < 2 || !layout::recordedLayoutAttr(value))
    return std::nullopt;
  FailureOr<layout::TiledLayout> recorded = layout::recordedLayout(value);
  if (failed(recorded) || !recorded->tiles.empty() ||
      recorded->minorToMajor == layout::descendingOrder(type.getRank()))
    return std::nullopt;
  Permutation p;
  p.physical.assign(recorded->minorToMajor.rbegin(),
                    recorded->minorToMajor.rend());
  p.position.assign(type.getRank(), 0);
  for (auto [i, d] : llvm::enumerate(p.physical))
    p.position[d] = i;
  return p;
}

/// Whether `transpose`'s result stored in `p`'s order is its operand stored
/// row-major: result dim i is operand dim perm[i], so in p's order the
/// operand's dims must come major to minor.
bool isPhysicalTranspose(hlo::TransposeOp transpose, const Permutation &p) {
  SmallVector<int64_t> resultOrder(p.physical.rbegin(), p.physical.rend());
  return layout::isTransposeBitcast(transpose.getPermutation(),
                                    layout::descendingOrder(p.rank()),
                                    resultOrder);
}

/// The permutation under which `transpose`'s result is its operand's
/// row-major bytes.
Permutation physicalOrderOf(hlo::TransposeOp transpose) {
  ArrayRef<int64_t> perm = transpose.getPermutation();
  Permutation p;
  p.physical.assign(perm.size(), 0);
  p.position.assign(perm.begin(), perm.end());
  for (auto [i, d] : llvm::enumerate(perm))
    p.physical[d] = i;
  return p;
}

/// The row-major value `value` (stored in `p`'s order) is a bitcast of, if
/// there is one: the operand of a transpose that only relabels the bytes.
Value physicalSource(Value value, const Permutation &p) {
  auto transpose = value.getDefiningOp<hlo::TransposeOp>();
  if (!transpose || valuePermutation(transpose.getOperand()) ||
      !isPhysicalTranspose(transpose, p))
    return Value();
  return transpose.getOperand();
}

/// Whether a fusion's block argument is read only through transposes that
/// make it `p`'s physical order (the planner fused a framework's transpose):
/// in that order the argument is read as it is.
bool readsPhysically(BlockArgument arg, const Permutation &p) {
  auto type = dyn_cast<RankedTensorType>(arg.getType());
  return type && type.getRank() == p.rank() && !arg.use_empty() &&
         llvm::all_of(arg.getUsers(), [&](Operation *user) {
           auto transpose = dyn_cast<hlo::TransposeOp>(user);
           return transpose && isPhysicalTranspose(transpose, p);
         });
}

bool isRowVectorOrScalar(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() <= 1;
}

/// Whether `fusion` computes in `p`'s physical order once its operands of
/// that rank are (all of them must be in `permuted`).
bool canPermute(hlo::FusionOp fusion, const Permutation &p,
                const llvm::DenseSet<Value> &permuted) {
  Block &body = fusion.getBody().front();
  for (auto [operand, arg] :
       llvm::zip(fusion->getOperands(), body.getArguments())) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type)
      return false;
    if (type.getRank() == p.rank()
            ? !permuted.contains(operand) && !readsPhysically(arg, p)
            : type.getRank() > 1)
      return false;
  }
  // Results of the rank: in p's layout (then written as they are) or
  // row-major (then read back through a transpose).
  for (Value result : fusion->getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || type.getRank() <= 1)
      continue;
    if (type.getRank() != p.rank())
      return false;
    std::optional<Permutation> q = valuePermutation(result);
    if (q && q->physical != p.physical)
      return false;
  }
  WalkResult walk = fusion.getBody().walk([&](Operation *op) {
    if (op->getParentOp() != fusion) // reduction bodies: scalars
      return WalkResult::advance();
    auto ofRank = [&](Type type) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      return tensor &&
             (tensor.getRank() <= 1 || tensor.getRank() == p.rank());
    };
    if (!llvm::all_of(op->getResultTypes(), ofRank) ||
        !llvm::all_of(op->getOperandTypes(), ofRank))
      return WalkResult::interrupt();
    bool ok = llvm::TypeSwitch<Operation *, bool>(op)
                  .Case([](hlo::ReturnOp) { return true; })
                  .Case([](hlo::IotaOp) { return true; })
                  .Case([&](hlo::TransposeOp t) {
                    auto arg = dyn_cast<BlockArgument>(t.getOperand());
                    return arg && arg.getOwner() == &body &&
                           readsPhysically(arg, p);
                  })
                  .Case([](hlo::BroadcastInDimOp b) {
                    return isRowVectorOrScalar(b.getOperand().getType());
                  })
                  .Case([](hlo::ConstantOp c) {
                    auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
                    return isRowVectorOrScalar(c.getType()) ||
                           (dense && dense.isSplat());
                  })
                  .Case([](hlo::ReduceOp r) {
                    return llvm::all_of(r->getResultTypes(),
                                        isRowVectorOrScalar);
                  })
                  .Default([](Operation *op) {
                    return op->hasTrait<OpTrait::Elementwise>();
                  });
    return ok ? WalkResult::advance() : WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

/// Rewrites `fusion`'s body into `p`'s physical order (canPermute holds).
void permuteBody(hlo::FusionOp fusion, const Permutation &p) {
  Block &body = fusion.getBody().front();
  auto permuteType = [&](Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getRank() == p.rank())
      v.setType(p.apply(type));
  };
  for (BlockArgument arg : body.getArguments()) {
    if (!readsPhysically(arg, p)) {
      permuteType(arg);
      continue;
    }
    for (Operation *user : llvm::make_early_inc_range(arg.getUsers())) {
      user->getResult(0).replaceAllUsesWith(arg);
      user->erase();
    }
  }
  auto mapDims = [&](ArrayRef<int64_t> dims) {
    SmallVector<int64_t> out;
    for (int64_t d : dims)
      out.push_back(p.position[d]);
    return out;
  };
  for (Operation &op : body) {
    auto result = op.getNumResults() == 1
                      ? dyn_cast<RankedTensorType>(op.getResult(0).getType())
                      : RankedTensorType();
    bool full = result && result.getRank() == p.rank();
    if (auto iota = dyn_cast<hlo::IotaOp>(op); iota && full) {
      iota.setIotaDimension(p.position[iota.getIotaDimension()]);
    } else if (auto bcast = dyn_cast<hlo::BroadcastInDimOp>(op); bcast && full) {
      bcast.setBroadcastDimensions(mapDims(bcast.getBroadcastDimensions()));
    } else if (auto reduce = dyn_cast<hlo::ReduceOp>(op)) {
      auto input = cast<RankedTensorType>(reduce.getInputs()[0].getType());
      if (input.getRank() == p.rank()) {
        SmallVector<int64_t> dims = mapDims(reduce.getDimensions());
        llvm::sort(dims);
        reduce.setDimensions(dims);
      }
      continue; // results have rank <= 1: unchanged
    } else if (auto cst = dyn_cast<hlo::ConstantOp>(op); cst && full) {
      auto dense = cast<DenseElementsAttr>(cst.getValue());
      cst.setValueAttr(dense.resizeSplat(p.apply(result)));
    }
    for (Value v : op.getResults())
      permuteType(v);
  }
}

class NormalizeLayoutsPass
    : public impl::NormalizeLayoutsBase<NormalizeLayoutsPass> {
public:
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal()) {
        while (normalizeOnce(func)) {
        }
        // Transposes every reader now reads past (views back, and the
        // framework's transposes of a row-major argument).
        func.walk([](hlo::TransposeOp transpose) {
          if (transpose->use_empty())
            transpose->erase();
        });
      }
  }

private:
  /// One round: rewrites the fusions that can read their permuted operands
  /// in physical order. A rewritten fusion's permuted results are read
  /// through transposes back to their layout, which the next round may let
  /// other fusions read in place. Returns whether anything changed.
  bool normalizeOnce(func::FuncOp func) {
    // Candidates: permuted entry arguments (all their users must be
    // rewritten: the executable then stores them in their layout) and
    // permuted transposes of row-major values (their rewritten readers
    // read the row-major value instead; other readers keep the transpose).
    struct Candidate {
      Permutation perm;
      Value source; // the row-major value; null for an argument
      bool dropped = false;
    };
    llvm::MapVector<Value, Candidate> candidates;
    for (BlockArgument arg : func.getArguments())
      if (std::optional<Permutation> p = valuePermutation(arg);
          p && !arg.use_empty())
        candidates[arg] = {*p, Value()};
    func.walk([&](hlo::TransposeOp transpose) {
      if (transpose->hasAttr(kPhysicalView)) {
        // A rewritten fusion's result read back in its logical order:
        // readers that can read the physical result do.
        candidates[transpose.getResult()] = {physicalOrderOf(transpose),
                                             transpose.getOperand()};
      } else if (std::optional<Permutation> p = valuePermutation(transpose)) {
        if (Value source = physicalSource(transpose, *p))
          candidates[transpose.getResult()] = {*p, source};
      }
    });
    auto permutedLike = [&](const Permutation &p) {
      llvm::DenseSet<Value> set;
      for (auto &[value, c] : candidates)
        if (!c.dropped && c.perm.physical == p.physical)
          set.insert(value);
      return set;
    };
    auto rewritable = [&](Operation *user, const Permutation &p) {
      auto fusion = dyn_cast<hlo::FusionOp>(user);
      return fusion && !fusion->hasAttr(kPhysicalOrder) &&
             canPermute(fusion, p, permutedLike(p));
    };
    bool changed = true;
    while (changed) {
      changed = false;
      for (auto &[value, c] : candidates)
        if (!c.dropped && !c.source &&
            !llvm::all_of(value.getUsers(), [&](Operation *user) {
              return rewritable(user, c.perm);
            })) {
          c.dropped = true; // read in its logical order: relaid out
          changed = true;
        }
    }

    OpBuilder b(func.getContext());
    llvm::MapVector<hlo::FusionOp, Permutation> fusions;
    for (auto &[value, c] : candidates)
      if (!c.dropped)
        for (Operation *user : value.getUsers())
          if (rewritable(user, c.perm))
            fusions.insert({cast<hlo::FusionOp>(user), c.perm});
    // Fusions that transpose an operand themselves.
    func.walk([&](hlo::TransposeOp transpose) {
      auto fusion = dyn_cast<hlo::FusionOp>(transpose->getParentOp());
      auto arg = dyn_cast<BlockArgument>(transpose.getOperand());
      if (!fusion || !arg || fusions.count(fusion))
        return;
      Permutation p = physicalOrderOf(transpose);
      if (rewritable(fusion, p))
        fusions.insert({fusion, p});
    });
    if (fusions.empty())
      return false;
    for (auto &[value, c] : candidates) {
      if (c.dropped || c.source)
        continue;
      b.setInsertionPointToStart(&func.getBody().front());
      auto type = cast<RankedTensorType>(value.getType());
      c.source = hlo::TransposeOp::create(
          b, value.getLoc(), c.perm.apply(type), value,
          b.getDenseI64ArrayAttr(c.perm.physical));
    }
    for (auto &[fusion, perm] : fusions) {
      for (OpOperand &operand : fusion->getOpOperands()) {
        auto it = candidates.find(operand.get());
        if (it != candidates.end() && !it->second.dropped &&
            it->second.perm.physical == perm.physical)
          operand.set(it->second.source);
      }
      permuteBody(fusion, perm);
      permuteResults(fusion, perm, b);
      fusion->setAttr(kPhysicalOrder, b.getUnitAttr());
    }
    return true;
  }

  /// The rewritten fusion's results of the permutation's rank are row-major
  /// now; their readers read them through a transpose back to the layout.
  void permuteResults(hlo::FusionOp fusion, const Permutation &p,
                      OpBuilder &b) {
    SmallVector<Attribute> layouts;
    SmallVector<std::pair<Value, Attribute>> viewsBack;
    for (Value result : fusion->getResults()) {
      auto type = cast<RankedTensorType>(result.getType());
      if (type.getRank() != p.rank()) {
        layouts.push_back(layout::recordedLayoutAttr(result));
        continue;
      }
      viewsBack.push_back({result, layout::recordedLayoutAttr(result)});
      layouts.push_back(b.getStringAttr(""));
    }
    fusion->removeAttr("hlo.layout");
    fusion->removeAttr("hlo.result_layouts");
    layout::setResultLayouts(fusion, layouts);
    b.setInsertionPointAfter(fusion);
    for (auto [result, recorded] : viewsBack) {
      auto type = cast<RankedTensorType>(result.getType());
      result.setType(p.apply(type));
      SmallVector<int64_t> inverse(p.position.begin(), p.position.end());
      auto back = hlo::TransposeOp::create(b, result.getLoc(), type, result,
                                           b.getDenseI64ArrayAttr(inverse));
      if (auto text = dyn_cast_or_null<StringAttr>(recorded); text && !text.getValue().empty())
        back->setAttr("hlo.layout", recorded);
      back->setAttr(kPhysicalView, b.getUnitAttr());
      result.replaceAllUsesExcept(back.getResult(), back);
    }
  }

  static constexpr llvm::StringLiteral kPhysicalOrder = "tpuc.physical_order";
  static constexpr llvm::StringLiteral kPhysicalView = "tpuc.physical_view";
};

} // namespace
} // namespace tpuc
