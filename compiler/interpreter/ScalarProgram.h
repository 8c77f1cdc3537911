//===- ScalarProgram.h - regions run per element, compiled --------*- C++ -*-===//
//
// reduce, scatter, sort and select_and_scatter run their region once per
// element (or per comparison). Interpreting the region each time allocates
// a rank-0 tensor per value; a ScalarProgram instead compiles the region
// once into straight-line code over element bits, with exactly the
// interpreter's semantics (ScalarOps.h). Regions of elementwise ops,
// compare, select, convert and constants compile, also when they use
// rank-0 values from outside the region (constants that canonicalization
// hoisted out of an inlined comparator); anything else returns nullopt and
// is interpreted.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_INTERPRETER_SCALARPROGRAM_H
#define TPUC_COMPILER_INTERPRETER_SCALARPROGRAM_H

#include "compiler/interpreter/Kernels.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Region.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace tpuc::interpreter {

/// The op kinds the interpreter computes elementwise.
std::optional<BinaryOp> binaryOpKind(mlir::Operation *op);
std::optional<UnaryOp> unaryOpKind(mlir::Operation *op);
CompareSpec compareSpecOf(hlo::CompareOp op);

/// Element `index` of `t` as bits of its storage type (zero-extended).
inline uint64_t elementBits(const Tensor &t, int64_t index) {
  int64_t size = hostio::dtypeByteSize(t.dtype());
  uint64_t bits = 0;
  std::memcpy(&bits, t.bytes() + index * size, size);
  return bits;
}

/// Writes storage bits into element `index` of `t`.
inline void storeElementBits(Tensor &t, int64_t index, uint64_t bits) {
  int64_t size = hostio::dtypeByteSize(t.dtype());
  std::memcpy(t.bytes() + index * size, &bits, size);
}

class ScalarProgram {
public:
  /// The storage bits of a rank-0 value defined outside the region (a
  /// constant hoisted out of it, a captured scalar), if known.
  using OuterValue = llvm::function_ref<std::optional<uint64_t>(mlir::Value)>;

  /// Compiles a region whose arguments and results are rank-0 tensors.
  /// Values from outside the region are read once, through `outer`.
  static std::optional<ScalarProgram> compile(mlir::Region &region,
                                              OuterValue outer);

  /// Sizes `slots` for run() and sets the constants; the caller fills the
  /// arguments, slots [0, number of region arguments), with element bits.
  void initSlots(llvm::SmallVectorImpl<uint64_t> &slots) const;
  /// Runs the program over `slots`; results are then at resultSlots().
  void run(uint64_t *slots) const;
  llvm::ArrayRef<unsigned> resultSlots() const { return results; }

private:
  enum class Kind { Unary, Binary, Compare, Select, Convert };
  struct Inst {
    Kind kind;
    DType dtype; ///< of the operands (Select: of the chosen values)
    DType to;    ///< Convert's result type
    UnaryOp unary = UnaryOp::Abs;
    BinaryOp binary = BinaryOp::Add;
    CompareSpec compare;
    unsigned result = 0, a = 0, b = 0, c = 0;
  };

  std::vector<Inst> insts;
  std::vector<std::pair<unsigned, uint64_t>> constants;
  llvm::SmallVector<unsigned, 2> results;
  unsigned numSlots = 0;
};

} // namespace tpuc::interpreter

#endif // TPUC_COMPILER_INTERPRETER_SCALARPROGRAM_H
