//===- ExpandX64.cpp - 64-bit integers as pairs of 32-bit words -----------===//
//
// tpuc-expand-x64: the VPU has no 64-bit integers, so (as XLA TPU does) an
// s64/u64 array is held as two 32-bit words. Inside a function each 64-bit
// value becomes its (low, high) words, two i32 arrays of its shape, and
// each op on it the word form X64Builder builds (X64Words.h). At the
// function's boundary, at a while loop's state and at ops without a word
// form the value is one [.., 2]xs32/u32 array of its little-endian words
// (the bytes unchanged), joined to and split from the 64-bit type with
// hlo.bitcast_convert; bitcast_convert round trips are then removed, so the
// 64-bit type disappears where only bitcasts met it. What is left on a
// 64-bit integer (an op without a word form) is an error naming it.
// The Expander is declared in X64Expander.h; its converts, reduces, dots,
// convolutions and sorts are in X64Forms.cpp. See Passes.td and
// docs/integers.md.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/X64Expander.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace tpuc {
#define GEN_PASS_DEF_EXPANDX64
#include "passes/Passes.h.inc"

namespace x64 {
using namespace mlir;
using hlo::ComparisonDirection;

/// The words of a [.., 2] or (planar) [2, ..] array of 32-bit elements.
WordPair Expander::split(Value array, bool planar) {
  RankedTensorType type = tensorType(array);
  int64_t rank = type.getRank();
  SmallVector<int64_t> start(rank, 0), limit(type.getShape()), strides(rank, 1);
  auto shape =
      planar ? type.getShape().drop_front() : type.getShape().drop_back();
  int64_t dim = planar ? 0 : rank - 1;
  X64Builder x(b, array.getLoc());
  Value w[2];
  for (int k = 0; k < 2; ++k) {
    start[dim] = k;
    limit[dim] = k + 1;
    Value s =
        hlo::SliceOp::create(b, array.getLoc(), array, start, limit, strides);
    s = hlo::ReshapeOp::create(
        b, array.getLoc(), RankedTensorType::get(shape, type.getElementType()),
        s);
    w[k] = x.toI32(s);
  }
  return {w[0], w[1]};
}

WordPair Expander::get(Value v) {
  auto it = values.find(v);
  if (it != values.end())
    return it->second.words;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfterValue(v);
  Value array =
      hlo::BitcastConvertOp::create(b, v.getLoc(), pairType(tensorType(v)), v);
  WordPair w = split(array, false);
  values[v] = {w, array, Value()};
  return w;
}

/// v's words as one [.., 2] or (planar) [2, ..] array of `type`.
Value Expander::words(Value v, RankedTensorType type, bool planar) {
  WordPair w = get(v);
  Value array = planar ? values[v].planar : values[v].minor;
  Location loc = v.getLoc();
  if (!array) {
    SmallVector<int64_t> shape(tensorType(w.lo).getShape());
    int64_t dim = planar ? 0 : shape.size();
    shape.insert(shape.begin() + dim, 1);
    auto column = RankedTensorType::get(shape, b.getI32Type());
    array = hlo::ConcatenateOp::create(
        b, loc,
        ValueRange{hlo::ReshapeOp::create(b, loc, column, w.lo),
                   hlo::ReshapeOp::create(b, loc, column, w.hi)},
        dim);
  }
  if (array.getType() != type)
    array = hlo::BitcastConvertOp::create(b, loc, type, array);
  return array;
}

Value Expander::join(Value v) {
  return hlo::BitcastConvertOp::create(
      b, v.getLoc(), v.getType(),
      words(v, pairType(tensorType(v)), /*planar=*/false));
}

/// Gives the 64-bit block argument or result `v` its planar [2, ..] type;
/// its readers read the 64-bit value joined from its words.
void Expander::retype(Value v) {
  auto wide = cast<RankedTensorType>(v.getType());
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : v.getUses())
    uses.push_back(&use);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfterValue(v);
  v.setType(pairType(wide, /*planar=*/true));
  // The words (under v while the join the readers read is built).
  values[v] = {split(v, /*planar=*/true), Value(), v};
  Value joined = hlo::BitcastConvertOp::create(
      b, v.getLoc(), wide, words(v, pairType(wide), /*planar=*/false));
  // By value: inserting may grow the map under a reference to an entry.
  values[joined] = values.lookup(v);
  values.erase(v);
  for (OpOperand *use : uses)
    use->set(joined);
}

/// A 64-bit index as s32 (saturated: the ops clamp it anyway).
Value Expander::index(Value v) {
  X64Builder x(b, v.getLoc());
  return x.saturateToI32(get(v), isUnsigned64(v));
}

/// An op that moves elements without computing on them, or computes on
/// each bit alone (and, or, xor, not), once per word.
void Expander::cloneWordwise(Operation *op, ArrayRef<unsigned> indexOperands) {
  SmallVector<Value> w[2];
  for (int k = 0; k < 2; ++k) {
    IRMapping mapping;
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      if (!isX64(operand.getType()))
        continue;
      if (llvm::is_contained(indexOperands, i))
        mapping.map(operand, index(operand));
      else
        mapping.map(operand, k ? get(operand).hi : get(operand).lo);
    }
    Operation *clone = b.clone(*op, mapping);
    for (Value r : clone->getResults()) {
      r.setType(withElement(r, b.getI32Type()));
      w[k].push_back(r);
    }
  }
  for (auto [i, r] : llvm::enumerate(op->getResults()))
    map(r, {w[0][i], w[1][i]});
}

LogicalResult Expander::expand(Operation *op, bool &handled) {
  handled = true;
  b.setInsertionPoint(op);
  X64Builder x(b, op->getLoc());
  auto binary = [&](auto f) {
    map(op->getResult(0), f(get(op->getOperand(0)), get(op->getOperand(1))));
    return success();
  };
  bool isUnsigned = op->getNumOperands() && isX64(op->getOperand(0).getType())
                        ? isUnsigned64(op->getOperand(0))
                        : false;
  Location loc = op->getLoc();
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](hlo::ConstantOp c) {
        auto attr = dyn_cast<DenseIntElementsAttr>(c.getValue());
        if (!attr) {
          c.emitError("tpuc expects a dense 64-bit integer constant");
          return failure();
        }
        SmallVector<APInt> lo, hi;
        for (const APInt &v : attr.getValues<APInt>()) {
          lo.push_back(v.trunc(32));
          hi.push_back(v.lshr(32).trunc(32));
        }
        auto type = withElement(c.getResult(), b.getI32Type());
        // The words, and the [.., 2] and [2, ..] arrays for readers that
        // take them (each goes if unread).
        SmallVector<APInt> minor(lo.size() * 2), planar(lo);
        planar.append(hi);
        for (auto [i, l, h] : llvm::enumerate(lo, hi)) {
          minor[2 * i] = l;
          minor[2 * i + 1] = h;
        }
        auto constant = [&](RankedTensorType t, ArrayRef<APInt> v) -> Value {
          return hlo::ConstantOp::create(
              b, loc,
              DenseIntElementsAttr::get(
                  RankedTensorType::get(t.getShape(), b.getI32Type()), v));
        };
        RankedTensorType wide = tensorType(c.getResult());
        values[c.getResult()] = {{constant(type, lo), constant(type, hi)},
                                 constant(pairType(wide), minor),
                                 constant(pairType(wide, true), planar)};
        return success();
      })
      .Case([&](hlo::IotaOp iota) {
        auto type = withElement(iota.getResult(), b.getI32Type());
        Value lo = hlo::IotaOp::create(b, loc, type, iota.getIotaDimension());
        map(iota.getResult(), x.extend(lo, false));
        return success();
      })
      .Case([&](hlo::AddOp) {
        return binary([&](WordPair a, WordPair c) { return x.add(a, c); });
      })
      .Case([&](hlo::SubtractOp) {
        return binary([&](WordPair a, WordPair c) { return x.subtract(a, c); });
      })
      .Case([&](hlo::MultiplyOp) {
        return binary([&](WordPair a, WordPair c) { return x.multiply(a, c); });
      })
      .Case([&](hlo::DivideOp) {
        return binary([&](WordPair a, WordPair c) {
          return x.divide(a, c, isUnsigned, /*remainder=*/false);
        });
      })
      .Case([&](hlo::RemainderOp) {
        return binary([&](WordPair a, WordPair c) {
          return x.divide(a, c, isUnsigned, /*remainder=*/true);
        });
      })
      .Case([&](hlo::PowerOp) {
        return binary(
            [&](WordPair a, WordPair c) { return x.power(a, c, isUnsigned); });
      })
      .Case([&](hlo::MaximumOp) {
        return binary([&](WordPair a, WordPair c) {
          return x.minOrMax(a, c, true, isUnsigned);
        });
      })
      .Case([&](hlo::MinimumOp) {
        return binary([&](WordPair a, WordPair c) {
          return x.minOrMax(a, c, false, isUnsigned);
        });
      })
      .Case([&](hlo::ShiftLeftOp) {
        return binary(
            [&](WordPair a, WordPair c) { return x.shiftLeft(a, c); });
      })
      .Case([&](hlo::ShiftRightLogicalOp) {
        return binary(
            [&](WordPair a, WordPair c) { return x.shiftRightLogical(a, c); });
      })
      .Case([&](hlo::ShiftRightArithmeticOp) {
        return binary([&](WordPair a, WordPair c) {
          return x.shiftRightArithmetic(a, c);
        });
      })
      .Case([&](hlo::NegOp n) {
        map(n.getResult(), x.negate(get(n.getOperand())));
        return success();
      })
      .Case([&](hlo::AbsOp a) {
        WordPair w = get(a.getOperand());
        map(a.getResult(), isUnsigned ? w : x.abs(w));
        return success();
      })
      .Case([&](hlo::CompareOp c) {
        if (auto type = c.getCompareType())
          isUnsigned = *type == hlo::ComparisonType::UNSIGNED;
        c.getResult().replaceAllUsesWith(
            x.compare(c.getComparisonDirection(), get(c.getLhs()),
                      get(c.getRhs()), isUnsigned));
        return success();
      })
      .Case([&](hlo::SelectOp s) {
        if (!isX64(s.getType())) {
          handled = false;
          return success();
        }
        map(s.getResult(),
            x.select(s.getPred(), get(s.getOnTrue()), get(s.getOnFalse())));
        return success();
      })
      .Case([&](hlo::ClampOp c) {
        isUnsigned = isUnsigned64(c.getOperand());
        auto shape = tensorType(c.getOperand()).getShape();
        auto bound = [&](Value v) {
          WordPair w = get(v);
          if (tensorType(v).getShape() == shape)
            return w;
          auto type = RankedTensorType::get(shape, b.getI32Type());
          return WordPair{hlo::BroadcastInDimOp::create(b, loc, type, w.lo,
                                                        ArrayRef<int64_t>{}),
                          hlo::BroadcastInDimOp::create(b, loc, type, w.hi,
                                                        ArrayRef<int64_t>{})};
        };
        WordPair r = x.minOrMax(get(c.getOperand()), bound(c.getMin()), true,
                                isUnsigned);
        map(c.getResult(), x.minOrMax(r, bound(c.getMax()), false, isUnsigned));
        return success();
      })
      .Case([&](hlo::PopcntOp p) {
        WordPair w = get(p.getOperand());
        map(p.getResult(),
            x.extend(hlo::AddOp::create(b, loc,
                                        hlo::PopcntOp::create(b, loc, w.lo),
                                        hlo::PopcntOp::create(b, loc, w.hi)),
                     false));
        return success();
      })
      .Case([&](hlo::ClzOp c) {
        WordPair w = get(c.getOperand());
        Value low = hlo::AddOp::create(b, loc, hlo::ClzOp::create(b, loc, w.lo),
                                       x.splatLike(w.lo, 32));
        Value n = hlo::SelectOp::create(
            b, loc, x.compare(ComparisonDirection::EQ, w.hi, 0), low,
            hlo::ClzOp::create(b, loc, w.hi));
        map(c.getResult(), x.extend(n, false));
        return success();
      })
      .Case([&](hlo::SignOp sg) {
        // -1, 0 or 1 (u64: 0 or 1).
        WordPair w = get(sg.getOperand());
        Value nonzero = x.bit(x.nonzero(w));
        if (isUnsigned) {
          map(sg.getResult(), x.extend(nonzero, false));
        } else {
          Value sign = hlo::ShiftRightArithmeticOp::create(
              b, loc, w.hi, x.splatLike(w.hi, 31));
          map(sg.getResult(),
              x.extend(hlo::OrOp::create(b, loc, sign, nonzero), true));
        }
        return success();
      })
      .Case([&](hlo::SortOp s) { return expandSort(s); })
      .Case([&](hlo::ScatterOp s) {
        // 64-bit scatter indices become s32 in place (saturated: an
        // index out of range stays out of range, and its update is
        // skipped as before).
        Value indices = s.getScatterIndices();
        if (llvm::any_of(s->getResultTypes(), isX64) ||
            llvm::any_of(s.getUpdates().getTypes(), isX64) ||
            !isX64(indices.getType())) {
          handled = false;
          return success();
        }
        s.getScatterIndicesMutable().assign(index(indices));
        handled = false;
        return success();
      })
      .Case([&](hlo::ConvertOp c) { return expandConvert(c); })
      .Case([&](hlo::BitcastConvertOp c) {
        Value in = c.getOperand(), out = c.getResult();
        if (isX64(in.getType()) && isX64(out.getType())) {
          map(out, get(in));
        } else if (isX64(out.getType()) &&
                   tensorType(in).getElementType().getIntOrFloatBitWidth() ==
                       32) {
          values[out] = {split(in, /*planar=*/false), in, Value()};
        } else if (isX64(in.getType()) &&
                   tensorType(out).getElementType().getIntOrFloatBitWidth() ==
                       32) {
          out.replaceAllUsesWith(words(in, tensorType(out), /*planar=*/false));
        } else {
          handled = false;
        }
        return success();
      })
      .Case<hlo::BroadcastInDimOp, hlo::ReshapeOp, hlo::TransposeOp,
            hlo::ReverseOp, hlo::SliceOp, hlo::ConcatenateOp, hlo::PadOp,
            hlo::CopyOp, hlo::AndOp, hlo::OrOp, hlo::XorOp, hlo::NotOp>(
          [&](Operation *) {
            cloneWordwise(op, {});
            return success();
          })
      .Case<hlo::DynamicSliceOp, hlo::DynamicUpdateSliceOp, hlo::GatherOp>(
          [&](Operation *) {
            unsigned first = isa<hlo::DynamicUpdateSliceOp>(op) ? 2 : 1;
            SmallVector<unsigned> indices;
            for (unsigned i = first; i < op->getNumOperands(); ++i)
              indices.push_back(i);
            if (isX64(op->getResult(0).getType())) {
              cloneWordwise(op, indices);
              return success();
            }
            // Only the indices are 64-bit: they become s32 in place.
            for (unsigned i : indices)
              if (isX64(op->getOperand(i).getType()))
                op->setOperand(i, index(op->getOperand(i)));
            handled = false;
            return success();
          })
      .Case([&](hlo::ReduceOp r) { return expandReduce(r); })
      .Case([&](hlo::DotGeneralOp d) { return expandDot(d, handled); })
      .Case([&](hlo::ConvolutionOp c) { return expandConvolution(c, handled); })
      .Case<hlo::WhileOp, hlo::ConditionalOp>([&](Operation *w) {
        // A loop's state, a conditional's branch operands and results as
        // word arrays (a conditional's index is never 64-bit).
        for (OpOperand &operand : w->getOpOperands())
          if (isX64(operand.get().getType()))
            operand.set(words(operand.get(),
                              pairType(tensorType(operand.get()), true),
                              /*planar=*/true));
        for (Region &region : w->getRegions())
          for (BlockArgument arg : region.front().getArguments())
            if (isX64(arg.getType()))
              retype(arg);
        for (Value r : w->getResults())
          if (isX64(r.getType()))
            retype(r);
        handled = false;
        return success();
      })
      .Case<func::ReturnOp, hlo::ReturnOp>([&](Operation *) {
        // The function's results, a loop's next state and a branch's
        // results as word arrays.
        Operation *parent = op->getParentOp();
        auto func = dyn_cast<func::FuncOp>(parent);
        if ((func && func.isPublic()) ||
            isa<hlo::WhileOp, hlo::ConditionalOp>(parent))
          for (OpOperand &operand : op->getOpOperands())
            if (isX64(operand.get().getType()))
              operand.set(words(operand.get(),
                                pairType(tensorType(operand.get()), true),
                                /*planar=*/true));
        handled = false;
        return success();
      })
      .Default([&](Operation *) {
        handled = false;
        return success();
      });
}

/// Expands the ops under `root` in program order (operands first).
LogicalResult Expander::expandIn(Operation *root) {
  bool bad = false;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (recorder.created.contains(op) || isa<ModuleOp, func::FuncOp>(op))
      return WalkResult::advance();
    if (!isa<hlo::WhileOp, hlo::ConditionalOp, hlo::ReturnOp,
             func::ReturnOp>(op) &&
        llvm::none_of(op->getOperandTypes(), isX64) &&
        llvm::none_of(op->getResultTypes(), isX64))
      return WalkResult::advance();
    bool handled = false;
    if (failed(expand(op, handled))) {
      bad = true;
      return WalkResult::interrupt();
    }
    if (!handled)
      return WalkResult::advance();
    expanded.push_back(op);
    return WalkResult::skip();
  });
  return failure(bad);
}

LogicalResult Expander::run(ModuleOp module) {
  // Entry functions (public) take and return word arrays; a private one
  // keeps its types (the inliner has normally removed them).
  SmallVector<func::FuncOp> entries;
  module.walk([&](func::FuncOp func) {
    if (func.isExternal() || !func.isPublic())
      return;
    entries.push_back(func);
    // The host keeps the 64-bit arrays (the executable's host_dtype).
    auto elementType = [](Type type) {
      return TypeAttr::get(cast<RankedTensorType>(type).getElementType());
    };
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      if (isX64(type))
        func.setArgAttr(i, kX64HostTypeAttrName, elementType(type));
    for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
      if (isX64(type))
        func.setResultAttr(i, kX64HostTypeAttrName, elementType(type));
    for (BlockArgument arg : func.getBody().front().getArguments())
      if (isX64(arg.getType()))
        retype(arg);
  });
  if (failed(expandIn(module)))
    return failure();
  for (func::FuncOp func : entries) {
    Block &entry = func.getBody().front();
    func.setType(FunctionType::get(func.getContext(), entry.getArgumentTypes(),
                                   entry.getTerminator()->getOperandTypes()));
  }
  // The expanded ops go; what still reads their 64-bit results (ops
  // without a word form) reads them joined from the words.
  for (Operation *op : llvm::reverse(expanded)) {
    b.setInsertionPoint(op);
    for (Value r : op->getResults())
      if (!r.use_empty())
        r.replaceAllUsesWith(join(r));
    op->erase();
  }
  // Words nobody reads (with what they nest).
  SmallVector<Operation *> created(recorder.created.takeVector());
  for (bool erased = true; erased;) {
    erased = false;
    DenseSet<Operation *> gone;
    for (Operation *op : llvm::reverse(created)) {
      if (gone.contains(op) || !op->use_empty() || !isPure(op) ||
          op->hasTrait<OpTrait::IsTerminator>())
        continue;
      op->walk([&](Operation *nested) { gone.insert(nested); });
      op->erase();
      erased = true;
    }
    llvm::erase_if(created, [&](Operation *op) { return gone.contains(op); });
  }
  return success();
}
} // namespace x64

namespace {
using namespace mlir;
using x64::isX64;

/// bitcast_convert(bitcast_convert(x)) of x's own type is x.
void foldRoundTrips(Operation *root) {
  bool changed = true;
  while (changed) {
    changed = false;
    root->walk([&](hlo::BitcastConvertOp op) {
      auto inner = op.getOperand().getDefiningOp<hlo::BitcastConvertOp>();
      if (inner && inner.getOperand().getType() == op.getType()) {
        op.replaceAllUsesWith(inner.getOperand());
        op.erase();
        if (inner->use_empty())
          inner.erase();
        changed = true;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
  }
}

class ExpandX64Pass : public impl::ExpandX64Base<ExpandX64Pass> {
public:
  using impl::ExpandX64Base<ExpandX64Pass>::ExpandX64Base;

  void runOnOperation() override {
    foldRoundTrips(getOperation());
    x64::Expander expander(&getContext());
    if (failed(expander.run(getOperation())))
      return signalPassFailure();
    foldRoundTrips(getOperation());
    // Bitcasts nobody reads (a state the program drops).
    for (bool erased = true; erased;) {
      SmallVector<hlo::BitcastConvertOp> dead;
      getOperation()->walk([&](hlo::BitcastConvertOp op) {
        if (op->use_empty())
          dead.push_back(op);
      });
      for (hlo::BitcastConvertOp op : dead)
        op.erase();
      erased = !dead.empty();
    }
    if (!check)
      return;
    // The first op left on a 64-bit integer (else a bitcast left at the
    // boundary, whose user went).
    Operation *firstOp = nullptr, *firstBitcast = nullptr;
    getOperation()->walk([&](Operation *op) {
      if (isa<func::FuncOp, func::ReturnOp>(op) ||
          (llvm::none_of(op->getOperandTypes(), isX64) &&
           llvm::none_of(op->getResultTypes(), isX64)))
        return;
      Operation *&first =
          isa<hlo::BitcastConvertOp>(op) ? firstBitcast : firstOp;
      if (!first)
        first = op;
    });
    Operation *bad = firstOp ? firstOp : firstBitcast;
    if (!bad)
      return;
    Type type = llvm::any_of(bad->getOperandTypes(), isX64)
                    ? *llvm::find_if(bad->getOperandTypes(), isX64)
                    : *llvm::find_if(bad->getResultTypes(), isX64);
    bad->emitError() << "tpuc does not emulate 64-bit integer '"
                     << bad->getName() << "' on " << type
                     << " (tpuc-expand-x64 has no word form for it; "
                        "docs/integers.md)";
    signalPassFailure();
  }
};
} // namespace
} // namespace tpuc
