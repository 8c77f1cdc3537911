//===- WhileLoopState.h - the state elements of an hlo.while ----*- C++ -*-===//
//
// An hlo.while carries its loop state either as several operands (element
// k is operand k, block argument k and result k) or, as XLA dumps it, as
// one tuple (element k is `get_tuple_element [k]` of the operand, the block
// argument and the result, and the body returns an `hlo.tuple`). The loop
// passes (tpuc-hoist-while-invariants, tpuc-simplify-while-loops) see both
// forms through this one view.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_DIALECTS_HLO_WHILELOOPSTATE_H
#define TPUC_DIALECTS_HLO_WHILELOOPSTATE_H

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/Builders.h"

#include <optional>

namespace tpuc {

class WhileLoopState {
public:
  explicit WhileLoopState(hlo::WhileOp loop);

  hlo::WhileOp loop() const { return whileOp; }
  /// Whether the state is one tuple operand.
  bool isTuple() const { return tuple; }
  /// The number of state elements.
  unsigned size() const { return numElements; }

  /// The values of `region` (cond or body) that read element `k`: the
  /// block argument, or each `get_tuple_element [k]` of it. Empty when the
  /// tuple argument is also used whole (then reads cannot be enumerated).
  llvm::SmallVector<mlir::Value> reads(mlir::Region &region, unsigned k) const;
  /// Whether every use of the tuple argument of `region` is a
  /// get_tuple_element (always true for operand state).
  bool readsAreKnown(mlir::Region &region) const;

  /// The value the body returns for element `k`, or null when the body
  /// returns a tuple it did not build with hlo.tuple.
  mlir::Value next(unsigned k) const;
  /// Whether the body returns element `k` unchanged.
  bool isInvariant(unsigned k) const;

  /// The initial value of element `k`, as a value defined before the loop
  /// (a get_tuple_element is created before the loop when the initial
  /// tuple was not built with hlo.tuple).
  mlir::Value init(mlir::OpBuilder &builder, unsigned k) const;

  /// The uses of element `k` of the loop's result outside the loop: result
  /// k, or each `get_tuple_element [k]` of the result. std::nullopt when the
  /// result tuple is used whole.
  std::optional<llvm::SmallVector<mlir::Value>> resultReads(unsigned k) const;

  /// A counted loop: element `counter` (an integer) starts at a constant,
  /// the body steps it by a constant (add or subtract) and the condition
  /// is exactly its compare with a constant.
  struct CountedLoop {
    unsigned counter;
    int64_t tripCount;
    int64_t finalValue; // the counter's value when the loop exits
  };
  /// The loop as a counted loop; std::nullopt when it is not one, when it
  /// would not terminate, when the counter would wrap, or for trip counts
  /// above 2^62.
  std::optional<CountedLoop> countedLoop() const;

private:
  mutable hlo::WhileOp whileOp; // op handles are not const-correct
  bool tuple = false;
  unsigned numElements = 0;
};

} // namespace tpuc

#endif // TPUC_DIALECTS_HLO_WHILELOOPSTATE_H
