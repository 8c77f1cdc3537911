//===- X64Words.h - 64-bit integer arithmetic on 32-bit words ---*- C++ -*-===//
//
// The word-pair forms tpuc-expand-x64 builds: a 64-bit integer array is
// held as two signless i32 arrays of its shape, its low and high words, and
// every 64-bit operation is a few 32-bit hlo ops on them (XLA TPU emulates
// s64/u64 the same way). Each form is exact (bit for bit what the 64-bit op
// gives; see docs/integers.md).
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_PASSES_X64WORDS_H
#define TPUC_PASSES_X64WORDS_H

#include "dialects/hlo/HloOps.h"

#include "mlir/IR/Builders.h"

namespace tpuc {

/// A 64-bit integer array as its low and high 32-bit words (i32 arrays of
/// the array's shape).
struct WordPair {
  mlir::Value lo, hi;
};

class X64Builder {
public:
  X64Builder(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}

  // 32-bit words.
  mlir::Value splat(llvm::ArrayRef<int64_t> shape, int32_t v);
  mlir::Value splatLike(mlir::Value x, int32_t v);
  mlir::Value compare(hlo::ComparisonDirection dir, mlir::Value x,
                      mlir::Value y, bool isUnsigned = false);
  mlir::Value compare(hlo::ComparisonDirection dir, mlir::Value x, int32_t y,
                      bool isUnsigned = false);
  mlir::Value bit(mlir::Value pred); // 0 or 1
  /// The high word of the unsigned 32x32 -> 64 product: the signed `mulhi`
  /// plus y where x's sign bit is set and x where y's is.
  mlir::Value mulhiUnsigned(mlir::Value x, mlir::Value y);
  /// x as an i32 array (a bitcast of u32, a convert of the others).
  mlir::Value toI32(mlir::Value x);

  // 64-bit forms.
  WordPair constant(llvm::ArrayRef<int64_t> shape, uint64_t v);
  WordPair add(WordPair x, WordPair y);
  WordPair subtract(WordPair x, WordPair y);
  WordPair negate(WordPair x);
  WordPair multiply(WordPair x, WordPair y);
  mlir::Value compare(hlo::ComparisonDirection dir, WordPair x, WordPair y,
                      bool isUnsigned);
  WordPair select(mlir::Value pred, WordPair x, WordPair y);
  /// x != 0.
  mlir::Value nonzero(WordPair x);
  WordPair minOrMax(WordPair x, WordPair y, bool isMax, bool isUnsigned);
  WordPair abs(WordPair x);
  /// XLA's shifts: the amount is unsigned; 64 or more shifts every bit out
  /// (the sign fills an arithmetic shift right).
  WordPair shiftLeft(WordPair x, WordPair amount);
  WordPair shiftRightLogical(WordPair x, WordPair amount);
  WordPair shiftRightArithmetic(WordPair x, WordPair amount);
  /// (quotient, remainder) of unsigned n / d: restoring division, one bit
  /// per trip of a 64-trip hlo.while (d = 0 gives all ones and n, as XLA).
  std::pair<WordPair, WordPair> divideUnsigned(WordPair n, WordPair d);
  /// XLA's integer power: square and multiply in a 64-trip hlo.while,
  /// wrapping; a negative (signed) exponent gives 1 for a base of 1, else 0.
  WordPair power(WordPair base, WordPair exponent, bool isUnsigned);
  /// XLA's signed and unsigned divide and remainder (truncating; x / 0 =
  /// -1, x % 0 = x, INT64_MIN / -1 = INT64_MIN, INT64_MIN % -1 = 0).
  WordPair divide(WordPair n, WordPair d, bool isUnsigned, bool remainder);
  /// Sign- or zero-extends an i32 array.
  WordPair extend(mlir::Value x, bool isSigned);
  /// An f32 array truncated toward zero, saturating, NaN to 0 (XLA's
  /// convert).
  WordPair fromF32(mlir::Value x, bool isUnsigned);
  /// The f32 nearest (ties to even) to each element.
  mlir::Value toF32(WordPair x, bool isUnsigned);
  /// Each element saturated to the s32 range (an index: the ops that take
  /// one clamp it to the array anyway).
  mlir::Value saturateToI32(WordPair x, bool isUnsigned);

  mlir::OpBuilder &b;
  mlir::Location loc;

private:
  mlir::Value shl(mlir::Value x, mlir::Value n);
  mlir::Value shrl(mlir::Value x, mlir::Value n);
  mlir::Value sub(mlir::Value x, mlir::Value y);
  mlir::Value sub(int32_t x, mlir::Value y);
  mlir::Value add(mlir::Value x, mlir::Value y);
  mlir::Value orOf(mlir::Value x, mlir::Value y);
  mlir::Value andOf(mlir::Value x, mlir::Value y);
  mlir::Value andOf(mlir::Value x, int32_t y);
  mlir::Value xorOf(mlir::Value x, int32_t y);
  mlir::Value select(mlir::Value pred, mlir::Value x, mlir::Value y);
  mlir::Value select(mlir::Value pred, int32_t x, mlir::Value y);
  /// The unsigned 32-bit value of an f32 integer in [0, 2^32).
  mlir::Value wordFromF32(mlir::Value f);
  /// x shifted left by one, `in` (0 or 1) into bit 0.
  WordPair shiftLeftOne(WordPair x, mlir::Value in);
  /// x shifted left by n in [0, 64] (64: zero).
  WordPair shiftLeftBy(WordPair x, mlir::Value n);
  /// An hlo.while of `trips` trips over the state `init`: `step` maps the
  /// state to the next one. Returns the final state.
  llvm::SmallVector<mlir::Value>
  loop(int32_t trips, llvm::ArrayRef<mlir::Value> init,
       llvm::function_ref<llvm::SmallVector<mlir::Value>(mlir::ValueRange)>
           step);
  /// The clamped amount: n's low word, or `big` when n >= 64.
  mlir::Value shiftAmount(WordPair n, int32_t big);
};

} // namespace tpuc

#endif // TPUC_PASSES_X64WORDS_H
