//===- X64Expander.h - The expansion of 64-bit integer ops ------*- C++ -*-===//
//
// The state of tpuc-expand-x64 (passes/ExpandX64.cpp): each 64-bit value's
// words (X64Words.h) and the ops built so far. The converts, reduces, dots,
// convolutions and sorts are expanded in X64Forms.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_PASSES_X64EXPANDER_H
#define TPUC_PASSES_X64EXPANDER_H

#include "passes/LinalgBuilder.h"
#include "passes/X64Words.h"

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SetVector.h"

namespace tpuc::x64 {
// Type names in the declarations below; the .cpp files use the namespace.
using llvm::cast;
using llvm::dyn_cast;
using mlir::ArrayRef;
using mlir::DenseMap;
using mlir::IntegerType;
using mlir::LogicalResult;
using mlir::MLIRContext;
using mlir::ModuleOp;
using mlir::OpBuilder;
using mlir::Operation;
using mlir::RankedTensorType;
using mlir::SmallVector;
using mlir::StringRef;
using mlir::Type;
using mlir::Value;

inline bool isX64(mlir::Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getElementType().isInteger(64);
}

inline bool isUnsigned64(mlir::Value v) {
  return tensorType(v).getElementType().isUnsignedInteger();
}

/// The words of a 64-bit array as one array of the 32-bit integer of the
/// same signedness: [shape..., 2] (XLA's bitcast_convert) or, planar,
/// [2, shape...] (the low words, then the high words: each word array is
/// tiled as a 32-bit array of the shape is, which the minor pair is not).
inline mlir::RankedTensorType pairType(mlir::RankedTensorType type,
                                       bool planar = false) {
  auto elem = cast<IntegerType>(type.getElementType());
  SmallVector<int64_t> shape(type.getShape());
  if (planar)
    shape.insert(shape.begin(), 2);
  else
    shape.push_back(2);
  return RankedTensorType::get(
      shape, IntegerType::get(type.getContext(), 32, elem.getSignedness()));
}

inline mlir::RankedTensorType withElement(mlir::Value v, mlir::Type elem) {
  return RankedTensorType::get(tensorType(v).getShape(), elem);
}

/// Records the ops the expansion creates (they need no expansion and are
/// removed again when nothing reads them).
struct Recorder : OpBuilder::Listener {
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    created.insert(op);
  }
  llvm::SetVector<Operation *> created;
};

/// A 64-bit value's words, and the [.., 2] and [2, ..] arrays of them
/// where one exists already.
struct X64Value {
  WordPair words;
  Value minor, planar;
};

class Expander {
public:
  explicit Expander(MLIRContext *ctx) : b(ctx, &recorder) {}

  LogicalResult run(ModuleOp module);

private:
  LogicalResult expand(Operation *op, bool &handled);
  WordPair get(Value v);
  WordPair split(Value array, bool planar);
  Value words(Value v, RankedTensorType type, bool planar);
  Value join(Value v);
  void retype(Value v);
  Value index(Value v);
  void map(Value v, WordPair w) { values[v] = {w, Value(), Value()}; }
  void cloneWordwise(Operation *op, ArrayRef<unsigned> indexOperands);
  LogicalResult expandConvert(hlo::ConvertOp op);
  LogicalResult expandReduce(hlo::ReduceOp op);
  LogicalResult expandSort(hlo::SortOp op);
  LogicalResult expandDot(hlo::DotGeneralOp op, bool &handled);
  LogicalResult expandConvolution(hlo::ConvolutionOp op, bool &handled);
  mlir::FailureOr<WordPair> dot(Operation *op, WordPair l, WordPair r,
                                hlo::DotDimensionNumbersAttr dn);
  Value transpose(Value word, ArrayRef<int64_t> perm);
  mlir::FailureOr<WordPair> sum(Operation *op, WordPair in,
                                ArrayRef<int64_t> dims, int64_t count);
  LogicalResult expandIn(Operation *root);
  Value reduce32(Value x, int32_t init, ArrayRef<int64_t> dims, StringRef kind);

  Recorder recorder;
  OpBuilder b;
  DenseMap<Value, X64Value> values;
  SmallVector<Operation *> expanded;
};

} // namespace tpuc::x64

#endif // TPUC_PASSES_X64EXPANDER_H
